/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A TLS 1.2/1.3 record layer in userspace, on OpenSSL's EVP AEADs: the raw
 * peer of a kTLS socket in our kselftests.  It builds and opens records
 * byte by byte as RFC 5246, RFC 8446, RFC 5288, RFC 6655 and RFC 7905 lay
 * them out, so that what the kernel sends and accepts is checked against
 * an implementation that shares no code with it.  Also the socket plumbing
 * every test needs: a loopback TCP pair and the key setting of SOL_TLS.
 */
#ifndef _KTLS_HS_TLSREC_H
#define _KTLS_HS_TLSREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <linux/tls.h>

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#define TLSREC_HDR		5
#define TLSREC_MAX_PLAIN	16384U
/* Header, 1.2 explicit nonce, 1.3 inner type, tag, and RFC 8446 padding room. */
#define TLSREC_MAX		(TLSREC_HDR + 8 + TLSREC_MAX_PLAIN + 256 + 16)

#define TLSREC_CHANGE_CIPHER	20
#define TLSREC_ALERT		21
#define TLSREC_HANDSHAKE	22
#define TLSREC_DATA		23

struct tlsrec_suite;

/* Keys and record counter of one direction, as both ends must agree on them. */
struct tlsrec {
	__u16 version;		/* TLS_1_2_VERSION or TLS_1_3_VERSION */
	const struct tlsrec_suite *suite;
	__u8 key[32];
	__u8 salt[4];
	__u8 iv[12];			/* 8 bytes for GCM/CCM, 12 for ChaCha20 */
	__u8 rec_seq[8];		/* as given to the kernel */
	__u64 seq;			/* next record */
	__u8 nonce[8];		/* 1.2 explicit nonce of the next sealed record */
	__u8 last_nonce[8];		/* 1.2 explicit nonce of the last opened record */
};

union tlsrec_info {
	struct tls_crypto_info info;
	struct tls12_crypto_info_aes_gcm_128 gcm128;
	struct tls12_crypto_info_aes_gcm_256 gcm256;
	struct tls12_crypto_info_aes_ccm_128 ccm128;
	struct tls12_crypto_info_chacha20_poly1305 chacha;
};

/* Name of a cipher for test output, or NULL if this file does not know it. */
const char *tlsrec_cipher_name(__u16 cipher);

/*
 * Deterministic keys derived from @gen (so two ends built from the same
 * @gen agree and different @gen differ everywhere), record counter @seq.
 * Returns 0, or -1 for a cipher this file does not know.
 */
int tlsrec_init(struct tlsrec *r, __u16 version, __u16 cipher,
		__u8 gen, __u64 seq);
/* The SOL_TLS crypto info of @r; returns its length. */
socklen_t tlsrec_info(const struct tlsrec *r, union tlsrec_info *info);
/* setsockopt(SOL_TLS, @dir) with @r's keys: 0, or -1 with errno. */
int tlsrec_set_key(int fd, int dir, const struct tlsrec *r);

/* Bytes a record adds around its plaintext (without 1.3 padding). */
size_t tlsrec_overhead(const struct tlsrec *r);
/* Length of the explicit nonce after the header (TLS 1.2 GCM/CCM: 8). */
size_t tlsrec_nonce_len(const struct tlsrec *r);

/*
 * Seal @len bytes of @type into @out (room for TLSREC_MAX), with @pad zero
 * bytes of TLS 1.3 padding; returns the record length and advances @r.
 * With @no_type (TLS 1.3 only) the inner plaintext carries no content type
 * at all: @data followed by padding, which RFC 8446 5.4 makes an error.
 */
size_t tlsrec_seal(struct tlsrec *r, __u8 type, const void *data, size_t len,
		   size_t pad, __u8 *out);
size_t tlsrec_seal_raw(struct tlsrec *r, __u8 type, const void *data,
		       size_t len, size_t pad, bool no_type, __u8 *out);

/*
 * Open the record @rec of @len bytes in place: on success returns 0, sets
 * *@type (the inner type in 1.3), *@data and *@data_len, and advances @r;
 * -EINVAL for a bad header, -EBADMSG for a bad tag or a 1.3 record without
 * content type.
 */
int tlsrec_open(struct tlsrec *r, __u8 *rec, size_t len, __u8 *type,
		__u8 **data, size_t *data_len);

/*
 * Read one whole record from @fd into @buf (TLSREC_MAX bytes): its length,
 * 0 on EOF before a header, -1 on error or EOF inside a record.
 */
ssize_t tlsrec_read(int fd, __u8 *buf);
/*
 * Read exactly @len bytes from a (kTLS) socket, over as many reads as it
 * takes: @len, or what came before EOF, or -1 if an error came first.
 */
ssize_t tlsrec_recv_all(int fd, void *buf, size_t len);
/* Write all of @buf: 0, or -1. */
int tlsrec_write_all(int fd, const void *buf, size_t len);

/* A connected loopback TCP pair, receive timeouts of @timeout_s on both. */
int tlsrec_tcp_pair(int *a, int *b, int timeout_s);
/* Attach the "tls" ULP: 0, or -1 with errno. */
int tlsrec_ulp(int fd);

/* Send one record of @type through a kTLS socket (TLS_SET_RECORD_TYPE). */
ssize_t tlsrec_send_type(int fd, __u8 type, const void *buf, size_t len,
			 int flags);
/*
 * recvmsg() on a kTLS socket with room for the record type cmsg: the
 * result of recvmsg(); *@type is the type reported, or 0 if none was.
 */
ssize_t tlsrec_recv_type(int fd, __u8 *type, void *buf, size_t len,
			 int flags);

#endif /* _KTLS_HS_TLSREC_H */
