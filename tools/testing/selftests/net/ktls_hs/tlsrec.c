// SPDX-License-Identifier: GPL-2.0-only
/*
 * The userspace TLS record layer of our kselftests (see tlsrec.h): nonce
 * and AAD construction per version and suite, sealing and opening with
 * OpenSSL's EVP interface, and the socket helpers around it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "tlsrec.h"

struct tlsrec_suite {
	__u16 cipher;
	const char *name;
	__u8 key_len;
	__u8 salt_len;
	__u8 iv_len;
	bool ccm;
	const char *evp;	/* OpenSSL's name of the AEAD */
};

#define TLSREC_TAG	16
#define TLSREC_NONCE	12

static const struct tlsrec_suite tlsrec_suites[] = {
	{ TLS_CIPHER_AES_GCM_128, "aes-gcm-128", 16, 4, 8, false, "aes-128-gcm" },
	{ TLS_CIPHER_AES_GCM_256, "aes-gcm-256", 32, 4, 8, false, "aes-256-gcm" },
	{ TLS_CIPHER_AES_CCM_128, "aes-ccm-128", 16, 4, 8, true, "aes-128-ccm" },
	{ TLS_CIPHER_CHACHA20_POLY1305, "chacha20-poly1305", 32, 0, 12, false,
	  "chacha20-poly1305" },
};

static const struct tlsrec_suite *tlsrec_suite_find(__u16 cipher)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tlsrec_suites); i++)
		if (tlsrec_suites[i].cipher == cipher)
			return &tlsrec_suites[i];
	return NULL;
}

const char *tlsrec_cipher_name(__u16 cipher)
{
	const struct tlsrec_suite *s = tlsrec_suite_find(cipher);

	return s ? s->name : NULL;
}

static void put_be64(__u8 *p, __u64 v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		p[i] = v;
}

static void put_be16(__u8 *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
}

int tlsrec_init(struct tlsrec *r, __u16 version, __u16 cipher,
		__u8 gen, __u64 seq)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->suite = tlsrec_suite_find(cipher);
	if (!r->suite)
		return -1;
	r->version = version;
	for (i = 0; i < sizeof(r->key); i++)
		r->key[i] = gen * 0x3b + i * 7 + 1;
	for (i = 0; i < sizeof(r->salt); i++)
		r->salt[i] = (gen ^ 0xa5) + i * 13;
	for (i = 0; i < sizeof(r->iv); i++)
		r->iv[i] = (gen ^ 0x5a) + i * 29;
	put_be64(r->rec_seq, seq);
	r->seq = seq;
	/* The kernel's first explicit nonce is the iv it was given. */
	memcpy(r->nonce, r->iv, sizeof(r->nonce));
	return 0;
}

socklen_t tlsrec_info(const struct tlsrec *r, union tlsrec_info *u)
{
	const struct tlsrec_suite *s = r->suite;

	memset(u, 0, sizeof(*u));
	u->info.version = r->version;
	u->info.cipher_type = s->cipher;
	switch (s->cipher) {
	case TLS_CIPHER_AES_GCM_128:
		memcpy(u->gcm128.key, r->key, sizeof(u->gcm128.key));
		memcpy(u->gcm128.iv, r->iv, sizeof(u->gcm128.iv));
		memcpy(u->gcm128.salt, r->salt, sizeof(u->gcm128.salt));
		memcpy(u->gcm128.rec_seq, r->rec_seq, sizeof(u->gcm128.rec_seq));
		return sizeof(u->gcm128);
	case TLS_CIPHER_AES_GCM_256:
		memcpy(u->gcm256.key, r->key, sizeof(u->gcm256.key));
		memcpy(u->gcm256.iv, r->iv, sizeof(u->gcm256.iv));
		memcpy(u->gcm256.salt, r->salt, sizeof(u->gcm256.salt));
		memcpy(u->gcm256.rec_seq, r->rec_seq, sizeof(u->gcm256.rec_seq));
		return sizeof(u->gcm256);
	case TLS_CIPHER_AES_CCM_128:
		memcpy(u->ccm128.key, r->key, sizeof(u->ccm128.key));
		memcpy(u->ccm128.iv, r->iv, sizeof(u->ccm128.iv));
		memcpy(u->ccm128.salt, r->salt, sizeof(u->ccm128.salt));
		memcpy(u->ccm128.rec_seq, r->rec_seq, sizeof(u->ccm128.rec_seq));
		return sizeof(u->ccm128);
	default:
		memcpy(u->chacha.key, r->key, sizeof(u->chacha.key));
		memcpy(u->chacha.iv, r->iv, sizeof(u->chacha.iv));
		memcpy(u->chacha.rec_seq, r->rec_seq, sizeof(u->chacha.rec_seq));
		return sizeof(u->chacha);
	}
}

int tlsrec_set_key(int fd, int dir, const struct tlsrec *r)
{
	union tlsrec_info u;
	socklen_t len = tlsrec_info(r, &u);

	return setsockopt(fd, SOL_TLS, dir, &u, len);
}

/* TLS 1.2 GCM and CCM carry part of the nonce in the record (RFC 5288 3). */
size_t tlsrec_nonce_len(const struct tlsrec *r)
{
	return r->version == TLS_1_2_VERSION && r->suite->salt_len ? 8 : 0;
}

size_t tlsrec_overhead(const struct tlsrec *r)
{
	return TLSREC_HDR + tlsrec_nonce_len(r) + TLSREC_TAG +
	       (r->version == TLS_1_3_VERSION);
}

/*
 * The 12-byte AEAD nonce of record r->seq: salt || explicit nonce in TLS
 * 1.2 GCM/CCM, else the static iv XORed with the sequence number
 * (RFC 8446 5.3, RFC 7905 2).
 */
static void tlsrec_nonce(const struct tlsrec *r, const __u8 *explicit,
			 __u8 nonce[TLSREC_NONCE])
{
	__u8 seq[8];
	int i;

	if (tlsrec_nonce_len(r)) {
		memcpy(nonce, r->salt, 4);
		memcpy(nonce + 4, explicit, 8);
		return;
	}
	memcpy(nonce, r->salt, r->suite->salt_len);
	memcpy(nonce + r->suite->salt_len, r->iv, r->suite->iv_len);
	put_be64(seq, r->seq);
	for (i = 0; i < 8; i++)
		nonce[4 + i] ^= seq[i];
}

/* TLS 1.2 AAD (RFC 5246 6.2.3.3): seq, type, version, plaintext length. */
static size_t tlsrec_aad(const struct tlsrec *r, const __u8 *hdr,
			 size_t plain_len, __u8 *aad)
{
	if (r->version == TLS_1_3_VERSION) {
		memcpy(aad, hdr, TLSREC_HDR);
		return TLSREC_HDR;
	}
	put_be64(aad, r->seq);
	aad[8] = hdr[0];
	aad[9] = 3;
	aad[10] = 3;
	put_be16(aad + 11, plain_len);
	return 13;
}

/* One AEAD operation; returns 0, or -EBADMSG when the tag does not verify. */
static int tlsrec_aead(const struct tlsrec *r, bool enc, const __u8 *nonce,
		       const __u8 *aad, size_t aad_len, __u8 *buf,
		       size_t len, __u8 *tag)
{
	const EVP_CIPHER *evp = EVP_get_cipherbyname(r->suite->evp);
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const struct tlsrec_suite *s = r->suite;
	__u8 dummy = 0;
	int outl, ret = -EBADMSG;

	if (!ctx)
		return -ENOMEM;
	if (!evp)
		goto out;
	/* EVP wants a real pointer even for zero bytes of data. */
	if (!len)
		buf = &dummy;
	if (EVP_CipherInit_ex(ctx, evp, NULL, NULL, NULL, enc) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, TLSREC_NONCE, NULL) != 1)
		goto out;
	/* CCM fixes the tag length, and on decrypt the tag, before the key. */
	if (s->ccm && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TLSREC_TAG,
					  enc ? NULL : tag) != 1)
		goto out;
	if (EVP_CipherInit_ex(ctx, NULL, NULL, r->key, nonce, enc) != 1)
		goto out;
	if (s->ccm && EVP_CipherUpdate(ctx, NULL, &outl, NULL, len) != 1)
		goto out;
	if (EVP_CipherUpdate(ctx, NULL, &outl, aad, aad_len) != 1)
		goto out;
	if (EVP_CipherUpdate(ctx, buf, &outl, buf, len) != 1)
		goto out;
	if (!s->ccm) {
		if (!enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
						TLSREC_TAG, tag) != 1)
			goto out;
		if (EVP_CipherFinal_ex(ctx, buf + outl, &outl) != 1)
			goto out;
	}
	if (enc && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TLSREC_TAG,
				       tag) != 1)
		goto out;
	ret = 0;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ret;
}

static void tlsrec_advance(struct tlsrec *r)
{
	int i;

	r->seq++;
	for (i = 7; i >= 0; i--)
		if (++r->nonce[i])
			break;
}

size_t tlsrec_seal_raw(struct tlsrec *r, __u8 type, const void *data,
		       size_t len, size_t pad, bool no_type, __u8 *out)
{
	size_t nlen = tlsrec_nonce_len(r), plain = len, body;
	__u8 nonce[TLSREC_NONCE], aad[13], *p;
	size_t aad_len;

	p = out + TLSREC_HDR + nlen;
	memmove(p, data, len);
	if (r->version == TLS_1_3_VERSION) {
		if (!no_type)
			p[plain++] = type;
		memset(p + plain, 0, pad);
		plain += pad;
		/* The outer type of every protected 1.3 record (RFC 8446 5.2). */
		type = TLSREC_DATA;
	}
	body = nlen + plain + TLSREC_TAG;
	out[0] = type;
	out[1] = 3;
	out[2] = 3;
	put_be16(out + 3, body);
	memcpy(out + TLSREC_HDR, r->nonce, nlen);
	tlsrec_nonce(r, r->nonce, nonce);
	aad_len = tlsrec_aad(r, out, plain, aad);
	tlsrec_aead(r, true, nonce, aad, aad_len, p, plain, p + plain);
	tlsrec_advance(r);
	return TLSREC_HDR + body;
}

size_t tlsrec_seal(struct tlsrec *r, __u8 type, const void *data, size_t len,
		   size_t pad, __u8 *out)
{
	return tlsrec_seal_raw(r, type, data, len, pad, false, out);
}

int tlsrec_open(struct tlsrec *r, __u8 *rec, size_t len, __u8 *type,
		__u8 **data, size_t *data_len)
{
	size_t nlen = tlsrec_nonce_len(r), plain;
	__u8 nonce[TLSREC_NONCE], aad[13], *p;
	size_t aad_len;
	int err;

	if (len < TLSREC_HDR + nlen + TLSREC_TAG || rec[1] != 3 || rec[2] != 3 ||
	    ((size_t)rec[3] << 8 | rec[4]) != len - TLSREC_HDR)
		return -EINVAL;
	if (r->version == TLS_1_3_VERSION && rec[0] != TLSREC_DATA)
		return -EINVAL;
	plain = len - TLSREC_HDR - nlen - TLSREC_TAG;
	p = rec + TLSREC_HDR + nlen;
	memcpy(r->last_nonce, rec + TLSREC_HDR, nlen);
	tlsrec_nonce(r, rec + TLSREC_HDR, nonce);
	aad_len = tlsrec_aad(r, rec, plain, aad);
	err = tlsrec_aead(r, false, nonce, aad, aad_len, p, plain, p + plain);
	if (err)
		return err;
	*type = rec[0];
	if (r->version == TLS_1_3_VERSION) {
		/* Strip the padding: the type is the last non-zero byte. */
		while (plain && !p[plain - 1])
			plain--;
		if (!plain)
			return -EBADMSG;
		*type = p[--plain];
	}
	*data = p;
	*data_len = plain;
	tlsrec_advance(r);
	return 0;
}

/* Read exactly @len bytes: @len, 0 on EOF before any, -1 otherwise. */
static ssize_t tlsrec_read_full(int fd, __u8 *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = recv(fd, buf + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return got || n < 0 ? -1 : 0;
		got += n;
	}
	return got;
}

ssize_t tlsrec_read(int fd, __u8 *buf)
{
	ssize_t n = tlsrec_read_full(fd, buf, TLSREC_HDR);
	size_t body;

	if (n <= 0)
		return n;
	body = (size_t)buf[3] << 8 | buf[4];
	if (TLSREC_HDR + body > TLSREC_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	if (body && tlsrec_read_full(fd, buf + TLSREC_HDR, body) != (ssize_t)body)
		return -1;
	return TLSREC_HDR + body;
}

ssize_t tlsrec_recv_all(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = recv(fd, (__u8 *)buf + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return got ? (ssize_t)got : -1;
		if (!n)
			break;
		got += n;
	}
	return got;
}

int tlsrec_write_all(int fd, const void *buf, size_t len)
{
	const __u8 *p = buf;
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

int tlsrec_tcp_pair(int *a, int *b, int timeout_s)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct timeval tv = { .tv_sec = timeout_s };
	socklen_t len = sizeof(sa);
	int lsn, one = 1;

	*a = *b = -1;
	lsn = socket(AF_INET, SOCK_STREAM, 0);
	if (lsn < 0)
		return -1;
	if (bind(lsn, (struct sockaddr *)&sa, len) || listen(lsn, 1) ||
	    getsockname(lsn, (struct sockaddr *)&sa, &len))
		goto fail;
	*a = socket(AF_INET, SOCK_STREAM, 0);
	if (*a < 0 || connect(*a, (struct sockaddr *)&sa, len))
		goto fail;
	*b = accept(lsn, NULL, NULL);
	if (*b < 0)
		goto fail;
	close(lsn);
	setsockopt(*a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(*b, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (timeout_s > 0 &&
	    (setsockopt(*a, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	     setsockopt(*b, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	     setsockopt(*a, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	     setsockopt(*b, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))))
		goto fail;
	return 0;
fail:
	if (*a >= 0)
		close(*a);
	if (*b >= 0)
		close(*b);
	*a = *b = -1;
	close(lsn);
	return -1;
}

int tlsrec_ulp(int fd)
{
	return setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls"));
}

ssize_t tlsrec_send_type(int fd, __u8 type, const void *buf, size_t len,
			 int flags)
{
	char cbuf[CMSG_SPACE(sizeof(type))] = {};
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_TLS;
	cmsg->cmsg_type = TLS_SET_RECORD_TYPE;
	cmsg->cmsg_len = CMSG_LEN(sizeof(type));
	memcpy(CMSG_DATA(cmsg), &type, sizeof(type));
	return sendmsg(fd, &msg, flags);
}

ssize_t tlsrec_recv_type(int fd, __u8 *type, void *buf, size_t len,
			 int flags)
{
	char cbuf[CMSG_SPACE(sizeof(*type))] = {};
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	*type = 0;
	n = recvmsg(fd, &msg, flags);
	for (cmsg = CMSG_FIRSTHDR(&msg); n >= 0 && cmsg;
	     cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_TLS &&
		    cmsg->cmsg_type == TLS_GET_RECORD_TYPE)
			*type = *CMSG_DATA(cmsg);
	return n;
}
