/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktls-hs record layer: the cipher table, the per-direction crypto state,
 * the wire constants of a TLS record, and the entry points the TX path
 * (tx.c), the RX path (rx.c), the key setting (sockopt.c, keys.c) and the
 * ULP glue (ulp.c) call each other by.
 *
 * The key setting owns struct ktls_crypto; TX and RX only use it, under
 * the socket lock, and never change the keys themselves.
 */
#ifndef _KTLS_HS_RECORD_H
#define _KTLS_HS_RECORD_H

#include <crypto/aead.h>
#include <linux/net.h>
#include <linux/sizes.h>
#include <linux/tls.h>
#include <linux/types.h>
#include <ktls_hs/kdf.h>

struct sock;
struct socket;
struct msghdr;
struct file;
struct pipe_inode_info;
struct poll_table_struct;
struct ktls_ctx;
struct page;

/* Wire constants (RFC 5246 6.2, RFC 8446 5). */
#define KTLS_HEADER_LEN		5
#define KTLS_MAX_PLAINTEXT	SZ_16K
/* RFC 8449 4: the smallest record_size_limit a peer may ask for. */
#define KTLS_MIN_RECORD_LIMIT	64
#define KTLS_TYPE_CHANGE_CIPHER	20
#define KTLS_TYPE_ALERT		21
#define KTLS_TYPE_HANDSHAKE	22
#define KTLS_TYPE_DATA		23
#define KTLS_LEGACY_VERSION	0x0303	/* every 1.2 and 1.3 record header */

/*
 * The one handshake message the record layer handles itself, for the
 * keys of a kernel handshake (RFC 8446 4.6.3), and the alerts it handles
 * on those keys (RFC 8446 6): closure alerts both ways, and the fatal
 * ones it sends for a bad KeyUpdate, a record that does not open, and
 * any other record the RFC refuses.
 */
#define KTLS_KEY_UPDATE_TYPE		24	/* HandshakeType key_update */
#define KTLS_KEY_UPDATE_LEN		5	/* type, uint24 length, request */
#define KTLS_KEY_UPDATE_NOT_REQUESTED	0
#define KTLS_KEY_UPDATE_REQUESTED	1
#define KTLS_ALERT_WARNING_LEVEL	1
#define KTLS_ALERT_FATAL_LEVEL		2
#define KTLS_RX_ALERT_CLOSE_NOTIFY	0	/* close_notify */
#define KTLS_RX_ALERT_USER_CANCELED	90	/* user_canceled */
#define KTLS_RX_ALERT_UNEXPECTED	10	/* unexpected_message */
#define KTLS_RX_ALERT_BAD_RECORD_MAC	20	/* bad_record_mac */
#define KTLS_RX_ALERT_RECORD_OVERFLOW	22	/* record_overflow */
#define KTLS_RX_ALERT_ILLEGAL_PARAM	47	/* illegal_parameter */
#define KTLS_RX_ALERT_DECODE_ERROR	50	/* decode_error */
#define KTLS_RX_ALERT_PROTOCOL_VERSION	70	/* protocol_version */
#define KTLS_ALERT_LEN			2	/* level, description */

/* Handshake messages after a kernel handshake (rx_hs.c). */
#define KTLS_RX_HS_HDR_LEN	4	/* msg_type, uint24 length */
#define KTLS_RX_HS_MAX_MSG	KTLS_KEY_UPDATE_LEN	/* the largest we take */
/* Bytes of a handshake record that decide what becomes of it. */
#define KTLS_RX_HS_PEEK		(KTLS_RX_HS_MAX_MSG + 1)

/**
 * struct ktls_rx_hs - a post-handshake message split over records
 * @buf:	its bytes so far
 * @len:	how many; 0 between messages
 */
struct ktls_rx_hs {
	u8 buf[KTLS_RX_HS_MAX_MSG];
	u8 len;
};

/* What ktls_rx_hs_feed() found at the end of a record, besides errors. */
enum {
	KTLS_RX_HS_MORE,		/* inside a message */
	KTLS_RX_HS_UPDATE,		/* KeyUpdate(update_not_requested) */
	KTLS_RX_HS_UPDATE_REQUESTED,	/* KeyUpdate(update_requested) */
};

int ktls_rx_hs_feed(struct ktls_rx_hs *hs, const u8 *data, unsigned int len,
		    u8 *alert);

/* Whether a message is partly in: only its next fragment may come. */
static inline bool ktls_rx_hs_pending(const struct ktls_rx_hs *hs)
{
	return hs->len;
}

/* Sizes bounding the per-socket buffers; checked against the table at load. */
#define KTLS_MAX_KEY_LEN	32
#define KTLS_MAX_SALT_LEN	4
#define KTLS_MAX_IV_LEN		12	/* salt || explicit iv, or the 1.3 static iv */
#define KTLS_MAX_SEQ_LEN	8
#define KTLS_MAX_TAG_LEN	16
#define KTLS_MAX_NONCE_LEN	8	/* explicit nonce carried in a 1.2 record */
#define KTLS_MAX_AAD_LEN	13	/* 1.2: seq(8) type(1) version(2) length(2) */
#define KTLS_AEAD_IV_LEN	16	/* what the AEAD is given: CCM wants a flags byte first */
#define KTLS_CCM_FLAGS		2	/* L' = L - 1 with L = 3 (RFC 3610 2.3) */
/* The longest record a peer may send: header, nonce, plaintext, type, tag. */
#define KTLS_REC_MAX		(KTLS_HEADER_LEN + KTLS_MAX_NONCE_LEN + \
				 KTLS_MAX_PLAINTEXT + 1 + KTLS_MAX_TAG_LEN)

/**
 * struct ktls_cipher - one cipher suite of the SOL_TLS API
 * @type:	TLS_CIPHER_*
 * @info_len:	size of the matching struct tls12_crypto_info_*
 * @key_off, @iv_off, @salt_off, @seq_off: where those fields sit in it
 * @key_len, @iv_len, @salt_len, @seq_len, @tag_len: their sizes
 * @nonce_len:	explicit nonce a TLS 1.2 record carries (0 for ChaCha20)
 * @ccm:	the AEAD takes CCM's flags byte in front of the nonce
 * @tls12, @tls13: the versions the suite is defined for
 * @alg:	crypto API algorithm name
 */
struct ktls_cipher {
	u16 type;
	u16 info_len;
	u8 key_off, iv_off, salt_off, seq_off;
	u8 key_len, iv_len, salt_len, seq_len, tag_len;
	u8 nonce_len;
	bool ccm;
	bool tls12, tls13;
	const char *alg;
};

const struct ktls_cipher *ktls_cipher_find(u16 type);
void ktls_cipher_setup(void);

/**
 * struct ktls_prot - framing of one connection, fixed by the first key set
 * @version:	TLS_1_2_VERSION or TLS_1_3_VERSION
 * @cipher:	the suite both directions use
 * @nonce_len:	explicit nonce after the header (1.2 GCM/CCM: 8, else 0)
 * @prepend_len: header plus explicit nonce: where the ciphertext starts
 * @tag_len:	AEAD tag at the end of the record
 * @tail_len:	1 in TLS 1.3 (the inner content type), else 0
 * @overhead:	prepend_len + tail_len + tag_len
 * @aad_len:	13 in TLS 1.2, 5 (the record header) in TLS 1.3
 */
struct ktls_prot {
	u16 version;
	const struct ktls_cipher *cipher;
	u8 nonce_len;
	u8 prepend_len;
	u8 tag_len;
	u8 tail_len;
	u8 overhead;
	u8 aad_len;
};

/* Largest record body a peer may send: plaintext, inner type and overhead. */
static inline unsigned int ktls_max_body_len(const struct ktls_prot *prot)
{
	return KTLS_MAX_PLAINTEXT + prot->overhead - KTLS_HEADER_LEN;
}

union ktls_crypto_info {
	struct tls_crypto_info info;
	struct tls12_crypto_info_aes_gcm_128 aes_gcm_128;
	struct tls12_crypto_info_aes_gcm_256 aes_gcm_256;
	struct tls12_crypto_info_aes_ccm_128 aes_ccm_128;
	struct tls12_crypto_info_chacha20_poly1305 chacha20_poly1305;
	struct tls12_crypto_info_sm4_gcm sm4_gcm;
	struct tls12_crypto_info_sm4_ccm sm4_ccm;
	struct tls12_crypto_info_aria_gcm_128 aria_gcm_128;
	struct tls12_crypto_info_aria_gcm_256 aria_gcm_256;
};

/**
 * struct ktls_crypto - keys and cached AEAD state of one direction
 * @info:	the crypto info as userspace (or the handshake) set it, key
 *		included, since getsockopt returns it; getsockopt reports
 *		the current iv and sequence number from @iv and @seq.
 *		Wiped when the socket lets go of it
 * @aead:	the transform, allocated on the first key set and keyed on
 *		every (re)key; kept for the life of the socket
 * @req:	one request, preallocated for @aead with room for its context
 * @wait:	completion of an async AEAD (CRYPTO_ALG_ASYNC drivers)
 * @iv:		salt || iv as set; for TLS 1.2 GCM/CCM the iv part is the
 *		explicit nonce of the next TX record and is incremented per
 *		record; for the others it is the static iv XORed with @seq
 * @seq:	sequence number of the next record
 * @ready:	keys are installed
 */
struct ktls_crypto {
	union ktls_crypto_info info;
	struct crypto_aead *aead;
	struct aead_request *req;
	struct crypto_wait wait;
	u8 iv[KTLS_MAX_IV_LEN];
	u64 seq;
	bool ready;
};

/**
 * struct ktls_secrets - application traffic secrets of a kernel handshake
 * @hash:	enum ktls_hash of the negotiated suite
 * @len:	bytes of each secret, the hash's length
 * @tx:		our current application_traffic_secret_N (the server's)
 * @rx:		the peer's current one
 *
 * A socket whose keys userspace set never has these: userspace follows
 * KeyUpdate itself.  Without them the kernel could not, and the peer's
 * first KeyUpdate would end the connection.
 */
struct ktls_secrets {
	u8 hash;
	u8 len;
	u8 tx[KTLS_HASH_MAX_SIZE];
	u8 rx[KTLS_HASH_MAX_SIZE];
};

/* Record construction and parsing (record.c): pure functions, KUnit-tested. */
void ktls_prot_init(struct ktls_prot *prot, u16 version,
		    const struct ktls_cipher *cs);
void ktls_record_header(u8 *hdr, u8 type, unsigned int body_len);
/*
 * The AEAD iv of record @seq: @explicit is the 1.2 explicit nonce (from
 * the record on RX, from c->iv on TX), ignored where the suite has none.
 */
void ktls_record_iv(u8 iv[KTLS_AEAD_IV_LEN], const struct ktls_prot *prot,
		    const struct ktls_crypto *c, const u8 *explicit);
/*
 * AAD of record @seq of @type whose AEAD input is @inner_len bytes: the
 * plaintext, and in TLS 1.3 also the inner content type and any padding.
 * Returns its length (prot->aad_len).
 */
unsigned int ktls_record_aad(u8 *aad, const struct ktls_prot *prot, u64 seq,
			     u8 type, unsigned int inner_len);
/*
 * Advance to the next record: seq + 1, and the 1.2 explicit nonce.
 * Returns false where the record just done had the last sequence number,
 * 2^64 - 1: no record may follow under these keys.
 */
bool ktls_record_advance(const struct ktls_prot *prot, struct ktls_crypto *c);
/*
 * Check the header @hdr of a received record: returns the length of the
 * whole record, header included, or -EMSGSIZE (longer than the framing
 * allows), -EBADMSG (too short to hold nonce and tag), -EINVAL (not the
 * legacy version 3,3).
 */
int ktls_record_parse_header(const struct ktls_prot *prot, const u8 *hdr);
/*
 * Find the content type of a decrypted TLS 1.3 record, the last non-zero
 * byte of its inner plaintext, which lies at [@start, @end) of the buffer
 * made of @pages (byte b in pages[b / PAGE_SIZE]).  Returns its position
 * (the content is [@start, position)), or -EBADMSG if the inner plaintext
 * is all padding (RFC 8446 5.4).
 */
int ktls_record_inner_type(struct page *const *pages, unsigned int start,
			   unsigned int end, u8 *type);

/*
 * Run the AEAD of @c over @src -> @dst (may be the same list): the first
 * prot->aad_len bytes of both are the AAD, then @cryptlen bytes of input
 * (ciphertext includes the tag on decrypt).  Waits for async drivers, so
 * process context only.  Returns 0, -EBADMSG on a bad tag, or an errno.
 */
int ktls_aead_crypt(struct ktls_crypto *c, const struct ktls_prot *prot,
		    bool encrypt, struct scatterlist *src,
		    struct scatterlist *dst, unsigned int cryptlen, u8 *iv);

/*
 * TX path (tx.c).  init, flush and close run under the socket lock (flush
 * and close may let go of it while they wait for send buffer space);
 * sendmsg, splice_eof and shutdown take it themselves; init installs tx.c's own
 * sk_write_space callback; free runs in process context, with the socket unlocked, once
 * close has run.
 */
int ktls_tx_init(struct sock *sk);
int ktls_tx_flush(struct sock *sk);	/* close the open record and push it */
bool ktls_tx_record_open(struct sock *sk);
int ktls_tx_shutdown(struct sock *sk);	/* all of it to TCP, before its FIN */
void ktls_tx_close(struct sock *sk, long timeout);
void ktls_tx_free(struct ktls_ctx *ctx);
int ktls_sendmsg(struct sock *sk, struct msghdr *msg, size_t size);
void ktls_splice_eof(struct socket *sock);
/* Senders serialized, then the socket locked; and back. */
int ktls_tx_lock(struct sock *sk);
void ktls_tx_unlock(struct sock *sk);
/* A handshake record sealed under the current key (key_update.c); tx locked. */
int ktls_tx_handshake(struct sock *sk, const void *msg, size_t len,
		      long *timeo);
/* A fatal alert, if it fits in the send buffer now; socket locked. */
void ktls_tx_alert(struct sock *sk, u8 desc);
/* The peer sent an error alert: none of ours may follow; socket locked. */
void ktls_tx_peer_alerted(struct sock *sk);

/*
 * RX path (rx.c, its framer rx_framer.c).  init, rekeyed, close and read_sock run under the
 * socket lock, read_sock in process context (it decrypts); recvmsg and
 * splice_read take the lock themselves; poll and is_readable take none.
 */
int ktls_rx_init(struct sock *sk);	/* takes over sk_data_ready */
void ktls_rx_rekeyed(struct sock *sk);	/* new keys after a KeyUpdate */
void ktls_rx_close(struct sock *sk);	/* gives sk_data_ready back */
/* The alert a framing error earned, if not sent yet; socket locked. */
void ktls_rx_send_alert_due(struct sock *sk);
void ktls_rx_free(struct ktls_ctx *ctx);
int ktls_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags);
ssize_t ktls_splice_read(struct socket *sock, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags);
__poll_t ktls_poll(struct file *file, struct socket *sock,
		   struct poll_table_struct *wait);
bool ktls_rx_is_readable(struct sock *sk);	/* a whole record is there */
u32 ktls_rx_next_seq(struct sock *sk);	/* where the next record starts */
int ktls_read_sock(struct sock *sk, read_descriptor_t *desc,
		   sk_read_actor_t recv_actor);	/* proto_ops.read_sock */

#endif /* _KTLS_HS_RECORD_H */
