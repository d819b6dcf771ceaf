// SPDX-License-Identifier: GPL-2.0-only
/*
 * hs_lite: a TLS 1.3 client (RFC 8446) reduced to what takes a server
 * through a full handshake: X25519, TLS_AES_128_GCM_SHA256, and an
 * ECDSA P-256 server.  hs_load -L uses it instead of libssl; with -M it
 * offers X25519MLKEM768 first (draft-ietf-tls-ecdhe-mlkem), with an
 * X25519 share beside it, as browsers do.
 *
 * Why: the bench runs the client in the same VM as the server, so every
 * cycle the client spends is a cycle neither server gets.  libssl's
 * client costs about twice what nginx's side of a handshake does
 * (certificate decoding, chain building even with verification off, the
 * CertificateVerify signature check, and OpenSSL 3.0's per-object
 * overhead), which caps any ratio of servers near 1.5.  This client
 * does the work the server needs from it and nothing else:
 *
 *  - one X25519 key pair per thread, reused for every connection (the
 *    server still does its own key generation and exchange), and with
 *    -M one ML-KEM-768 key pair likewise (the server still encapsulates
 *    to it; we decapsulate, with hs_mlkem.c);
 *  - the server's Certificate and CertificateVerify are decrypted and
 *    hashed into the transcript, not checked: the server is being
 *    measured, not authenticated.  Its Finished is checked, which is
 *    one HMAC and proves the key schedule and the transcript agree;
 *  - no session id, so no middlebox ChangeCipherSpec either way;
 *  - the client Finished and the request leave in one write.
 *
 * The server cannot tell it from any other client: it receives a
 * ClientHello, sends its whole flight, and checks a correct Finished.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "hs_lite.h"

#define REC_HANDSHAKE	22
#define REC_ALERT	21
#define REC_CCS		20
#define REC_APP		23
#define HS_SERVER_HELLO	2
#define HS_FINISHED	20
#define HASH_LEN	32
#define TAG_LEN		16
#define PLAIN_MAX	16384

enum { LS_HELLO, LS_FLIGHT, LS_RESPONSE, LS_DONE };

_Static_assert(sizeof(SHA256_CTX) <= sizeof(((struct lite_conn *)0)->hash),
	       "the transcript state must fit");

/* Per thread: our key share and the AEAD objects, made once. */
static __thread EVP_PKEY *my_key;
static __thread EVP_PKEY_CTX *my_derive;
static __thread EVP_CIPHER_CTX *aead;
static __thread EVP_CIPHER *gcm;
static __thread uint8_t my_pub[32];
static __thread uint8_t *my_ek, *my_dk;
bool lite_hybrid;
static __thread uint64_t hello_count;
static uint8_t empty_hash[HASH_LEN];

/* HRR's fixed random (RFC 8446 4.1.3): a server that asks for another share. */
static const uint8_t hrr_random[32] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02,
	0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

bool lite_thread_init(void)
{
	size_t len = sizeof(my_pub);

	SHA256((const uint8_t *)"", 0, empty_hash);
	my_key = EVP_PKEY_Q_keygen(NULL, NULL, "X25519");
	if (!my_key || !EVP_PKEY_get_raw_public_key(my_key, my_pub, &len))
		return false;
	my_derive = EVP_PKEY_CTX_new(my_key, NULL);
	aead = EVP_CIPHER_CTX_new();
	gcm = EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL);
	if (lite_hybrid) {
		my_ek = malloc(LITE_MLKEM_EK_LEN);
		my_dk = malloc(LITE_MLKEM_DK_LEN);
		if (!my_ek || !my_dk || !lite_mlkem_keygen(my_ek, my_dk))
			return false;
	}
	return my_derive && aead && gcm;
}

/* HMAC-SHA256 (RFC 2104) of two pieces; keys are at most a block. */
static void hmac(uint8_t out[HASH_LEN], const uint8_t *key, size_t key_len,
		 const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	uint8_t pad[64], inner[HASH_LEN];
	SHA256_CTX h;
	size_t i;

	memset(pad, 0, sizeof(pad));
	memcpy(pad, key, key_len);
	for (i = 0; i < sizeof(pad); i++)
		pad[i] ^= 0x36;
	SHA256_Init(&h);
	SHA256_Update(&h, pad, sizeof(pad));
	SHA256_Update(&h, a, a_len);
	SHA256_Update(&h, b, b_len);
	SHA256_Final(inner, &h);
	for (i = 0; i < sizeof(pad); i++)
		pad[i] ^= 0x36 ^ 0x5c;
	SHA256_Init(&h);
	SHA256_Update(&h, pad, sizeof(pad));
	SHA256_Update(&h, inner, sizeof(inner));
	SHA256_Final(out, &h);
}

/* HKDF-Expand-Label (RFC 8446 7.1) for outputs of one hash block at most. */
static void expand_label(uint8_t *out, size_t out_len,
			 const uint8_t secret[HASH_LEN], const char *label,
			 const uint8_t *ctx, size_t ctx_len)
{
	uint8_t info[2 + 1 + 6 + 32 + 1 + HASH_LEN + 1], t[HASH_LEN];
	size_t label_len = strlen(label), n = 0;

	info[n++] = 0;
	info[n++] = out_len;
	info[n++] = 6 + label_len;
	memcpy(info + n, "tls13 ", 6);
	memcpy(info + n + 6, label, label_len);
	n += 6 + label_len;
	info[n++] = ctx_len;
	memcpy(info + n, ctx, ctx_len);
	n += ctx_len;
	info[n++] = 1;		/* the counter of T(1) */
	hmac(t, secret, HASH_LEN, info, n, NULL, 0);
	memcpy(out, t, out_len);
}

static void transcript_add(struct lite_conn *c, const uint8_t *msg, size_t len)
{
	SHA256_Update((SHA256_CTX *)c->hash, msg, len);
}

static void transcript_now(const struct lite_conn *c, uint8_t out[HASH_LEN])
{
	SHA256_CTX copy = *(const SHA256_CTX *)c->hash;

	SHA256_Final(out, &copy);
}

static void traffic_keys(struct lite_keys *k, const uint8_t secret[HASH_LEN])
{
	expand_label(k->key, sizeof(k->key), secret, "key", NULL, 0);
	expand_label(k->iv, sizeof(k->iv), secret, "iv", NULL, 0);
	k->seq = 0;
}

static void nonce_of(const struct lite_keys *k, uint8_t nonce[12])
{
	int i;

	memcpy(nonce, k->iv, 12);
	for (i = 0; i < 8; i++)
		nonce[11 - i] ^= k->seq >> (8 * i);
}

/* Append one protected record of @type holding @len bytes of @data. */
static bool seal(struct lite_conn *c, uint8_t type, const void *data,
		 size_t len)
{
	uint8_t *rec = c->out + c->out_len, nonce[12];
	size_t ct_len = len + 1 + TAG_LEN;
	int n;

	if (c->out_len + 5 + ct_len > sizeof(c->out))
		return false;
	rec[0] = REC_APP;
	rec[1] = 3;
	rec[2] = 3;
	rec[3] = ct_len >> 8;
	rec[4] = ct_len;
	memcpy(rec + 5, data, len);
	rec[5 + len] = type;
	nonce_of(&c->wr, nonce);
	if (!EVP_EncryptInit_ex(aead, gcm, NULL, c->wr.key, nonce) ||
	    !EVP_EncryptUpdate(aead, NULL, &n, rec, 5) ||
	    !EVP_EncryptUpdate(aead, rec + 5, &n, rec + 5, len + 1) ||
	    !EVP_EncryptFinal_ex(aead, rec + 5 + len + 1, &n) ||
	    !EVP_CIPHER_CTX_ctrl(aead, EVP_CTRL_GCM_GET_TAG, TAG_LEN,
				 rec + 5 + len + 1))
		return false;
	c->wr.seq++;
	c->out_len += 5 + ct_len;
	return true;
}

/* Open record @rec in place: its inner type, or -1; *len the content. */
static int open_rec(struct lite_conn *c, uint8_t *rec, size_t *len)
{
	size_t ct_len = *len;
	uint8_t nonce[12], *p = rec + 5;
	int n;

	if (ct_len < TAG_LEN + 1 || ct_len > PLAIN_MAX + 256)
		return -1;
	nonce_of(&c->rd, nonce);
	if (!EVP_DecryptInit_ex(aead, gcm, NULL, c->rd.key, nonce) ||
	    !EVP_DecryptUpdate(aead, NULL, &n, rec, 5) ||
	    !EVP_DecryptUpdate(aead, p, &n, p, ct_len - TAG_LEN) ||
	    !EVP_CIPHER_CTX_ctrl(aead, EVP_CTRL_GCM_SET_TAG, TAG_LEN,
				 p + ct_len - TAG_LEN) ||
	    EVP_DecryptFinal_ex(aead, p + ct_len - TAG_LEN, &n) <= 0)
		return -1;
	c->rd.seq++;
	/* TLSInnerPlaintext: content, the type, then zero padding. */
	for (n = ct_len - TAG_LEN - 1; n >= 0 && !p[n]; n--)
		;
	if (n < 0)
		return -1;
	*len = n;
	return p[n];
}

void lite_start(struct lite_conn *c, const char *sni)
{
	size_t sni_len = sni ? strlen(sni) : 0, n = 0, ext_len, hs_len;
	uint8_t *o = c->out;
	int i;

	c->state = LS_HELLO;
	c->in_len = 0;
	c->msg_len = 0;
	c->out_off = 0;
	SHA256_Init((SHA256_CTX *)c->hash);

	/* supported_versions, supported_groups, signature_algorithms, key_share */
	ext_len = 7 + 8 + 8 + 42 + (sni_len ? 9 + sni_len : 0);
	/* With -M: one more group, one more share, ML-KEM key then X25519. */
	if (lite_hybrid)
		ext_len += 2 + 4 + LITE_MLKEM_EK_LEN + 32;
	hs_len = 2 + 32 + 1 + 4 + 2 + 2 + ext_len;
	o[n++] = REC_HANDSHAKE;
	o[n++] = 3;
	o[n++] = 1;
	o[n++] = (4 + hs_len) >> 8;
	o[n++] = 4 + hs_len;
	o[n++] = 1;			/* ClientHello */
	o[n++] = 0;
	o[n++] = hs_len >> 8;
	o[n++] = hs_len;
	o[n++] = 3;
	o[n++] = 3;
	/* The random only has to differ between connections. */
	hello_count++;
	for (i = 0; i < 32; i++)
		o[n++] = (uint8_t)(hello_count >> (8 * (i % 8))) ^ i;
	o[n++] = 0;			/* no legacy_session_id */
	memcpy(o + n, "\x00\x02\x13\x01\x01\x00", 6);
	n += 6;
	o[n++] = ext_len >> 8;
	o[n++] = ext_len;
	memcpy(o + n, "\x00\x2b\x00\x03\x02\x03\x04", 7);
	n += 7;
	if (lite_hybrid) {
		memcpy(o + n, "\x00\x0a\x00\x06\x00\x04\x11\xec\x00\x1d", 10);
		n += 10;
	} else {
		memcpy(o + n, "\x00\x0a\x00\x04\x00\x02\x00\x1d", 8);
		n += 8;
	}
	memcpy(o + n, "\x00\x0d\x00\x04\x00\x02\x04\x03", 8);
	n += 8;
	if (lite_hybrid) {
		/* 2 + 1220 + 36 bytes of shares */
		memcpy(o + n, "\x00\x33\x04\xea\x04\xe8\x11\xec\x04\xc0", 10);
		n += 10;
		memcpy(o + n, my_ek, LITE_MLKEM_EK_LEN);
		n += LITE_MLKEM_EK_LEN;
		memcpy(o + n, my_pub, 32);
		n += 32;
		memcpy(o + n, "\x00\x1d\x00\x20", 4);
		n += 4;
	} else {
		memcpy(o + n, "\x00\x33\x00\x26\x00\x24\x00\x1d\x00\x20", 10);
		n += 10;
	}
	memcpy(o + n, my_pub, 32);
	n += 32;
	if (sni_len) {
		o[n++] = 0;
		o[n++] = 0;
		o[n++] = (5 + sni_len) >> 8;
		o[n++] = 5 + sni_len;
		o[n++] = (3 + sni_len) >> 8;
		o[n++] = 3 + sni_len;
		o[n++] = 0;		/* host_name */
		o[n++] = sni_len >> 8;
		o[n++] = sni_len;
		memcpy(o + n, sni, sni_len);
		n += sni_len;
	}
	transcript_add(c, o + 5, n - 5);
	c->out_len = n;
}

/*
 * The server's share, from a ServerHello whose header is already checked:
 * X25519, or with -M X25519MLKEM768 (*@hybrid), ciphertext then X25519.
 */
static const uint8_t *server_share(const uint8_t *m, size_t len, bool *hybrid)
{
	size_t off = 4 + 2 + 32, end, ext, type;

	if (len < off + 1 || !memcmp(m + 6, hrr_random, 32))
		return NULL;
	off += 1 + m[off];
	/* cipher_suite TLS_AES_128_GCM_SHA256, null compression */
	if (len < off + 5 || m[off] != 0x13 || m[off + 1] != 0x01)
		return NULL;
	end = off + 5 + (m[off + 3] << 8 | m[off + 4]);
	if (end > len)
		return NULL;
	for (off += 5; off + 4 <= end; off += 4 + ext) {
		type = m[off] << 8 | m[off + 1];
		ext = m[off + 2] << 8 | m[off + 3];
		if (off + 4 + ext > end)
			return NULL;
		if (type == 0x33 && ext == 36 && m[off + 4] == 0 &&
		    m[off + 5] == 0x1d && m[off + 7] == 32)
			return m + off + 8;
		*hybrid = lite_hybrid && type == 0x33 &&
			  ext == 4 + LITE_MLKEM_CT_LEN + 32 &&
			  m[off + 4] == 0x11 && m[off + 5] == 0xec;
		if (*hybrid)
			return m + off + 8;
	}
	return NULL;
}

static bool on_server_hello(struct lite_conn *c, const uint8_t *m, size_t len)
{
	uint8_t shared[64], early[HASH_LEN], derived[HASH_LEN], th[HASH_LEN];
	uint8_t zeros[HASH_LEN] = { 0 };
	bool hybrid = false, ok;
	const uint8_t *share = server_share(m, len, &hybrid);
	size_t n = 32, x = 0;
	EVP_PKEY *peer;

	if (!share)
		return false;
	/* X25519MLKEM768: the ML-KEM secret, then the X25519 one. */
	if (hybrid) {
		if (!lite_mlkem_decaps(shared, share, my_dk))
			return false;
		share += LITE_MLKEM_CT_LEN;
		x = 32;
	}
	peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, share, 32);
	ok = peer && EVP_PKEY_derive_init(my_derive) > 0 &&
	     EVP_PKEY_derive_set_peer(my_derive, peer) > 0 &&
	     EVP_PKEY_derive(my_derive, shared + x, &n) > 0 && n == 32;
	EVP_PKEY_free(peer);
	if (!ok)
		return false;
	transcript_add(c, m, len);
	transcript_now(c, th);

	hmac(early, zeros, 0, zeros, sizeof(zeros), NULL, 0);
	expand_label(derived, HASH_LEN, early, "derived", empty_hash, HASH_LEN);
	hmac(c->secret, derived, HASH_LEN, shared, x + 32, NULL, 0);
	expand_label(c->c_hs, HASH_LEN, c->secret, "c hs traffic", th, HASH_LEN);
	expand_label(c->s_hs, HASH_LEN, c->secret, "s hs traffic", th, HASH_LEN);
	traffic_keys(&c->rd, c->s_hs);
	traffic_keys(&c->wr, c->c_hs);
	/* From the handshake secret to the master secret. */
	expand_label(derived, HASH_LEN, c->secret, "derived", empty_hash,
		     HASH_LEN);
	hmac(c->secret, derived, HASH_LEN, zeros, sizeof(zeros), NULL, 0);
	c->state = LS_FLIGHT;
	return true;
}

/* The server Finished: checked, then ours, then the application keys. */
static bool on_server_finished(struct lite_conn *c, const uint8_t *m,
			       size_t len, const char *req, size_t req_len)
{
	uint8_t th[HASH_LEN], key[HASH_LEN], fin[4 + HASH_LEN], ap[HASH_LEN];

	if (len != sizeof(fin))
		return false;
	transcript_now(c, th);
	expand_label(key, HASH_LEN, c->s_hs, "finished", NULL, 0);
	hmac(fin, key, HASH_LEN, th, HASH_LEN, NULL, 0);
	if (CRYPTO_memcmp(fin, m + 4, HASH_LEN))
		return false;

	transcript_add(c, m, len);
	transcript_now(c, th);
	expand_label(key, HASH_LEN, c->c_hs, "finished", NULL, 0);
	memcpy(fin, "\x14\x00\x00\x20", 4);
	hmac(fin + 4, key, HASH_LEN, th, HASH_LEN, NULL, 0);
	if (!seal(c, REC_HANDSHAKE, fin, sizeof(fin)))
		return false;

	expand_label(ap, HASH_LEN, c->secret, "c ap traffic", th, HASH_LEN);
	traffic_keys(&c->wr, ap);
	expand_label(ap, HASH_LEN, c->secret, "s ap traffic", th, HASH_LEN);
	traffic_keys(&c->rd, ap);
	if (!req) {
		c->state = LS_DONE;
		return true;
	}
	c->state = LS_RESPONSE;
	return seal(c, REC_APP, req, req_len);
}

/* Handshake bytes: whole messages are taken off @c->msg as they complete. */
static bool on_handshake(struct lite_conn *c, const uint8_t *p, size_t len,
			 const char *req, size_t req_len)
{
	size_t mlen;
	bool ok = true;

	if (c->msg_len + len > sizeof(c->msg))
		return false;
	memcpy(c->msg + c->msg_len, p, len);
	c->msg_len += len;
	while (ok && c->state != LS_DONE && c->state != LS_RESPONSE &&
	       c->msg_len >= 4) {
		mlen = 4 + (c->msg[1] << 16 | c->msg[2] << 8 | c->msg[3]);
		if (mlen > sizeof(c->msg))
			return false;
		if (c->msg_len < mlen)
			break;
		if (c->state == LS_HELLO)
			ok = c->msg[0] == HS_SERVER_HELLO &&
			     on_server_hello(c, c->msg, mlen);
		else if (c->msg[0] == HS_FINISHED)
			ok = on_server_finished(c, c->msg, mlen, req, req_len);
		else
			transcript_add(c, c->msg, mlen);
		memmove(c->msg, c->msg + mlen, c->msg_len - mlen);
		c->msg_len -= mlen;
	}
	return ok;
}

/* One whole record at @c->in; false and *why if the connection is lost. */
static bool on_record(struct lite_conn *c, size_t len, const char *req,
		      size_t req_len, char *resp, size_t resp_max,
		      size_t *resp_len, const char **why)
{
	uint8_t *rec = c->in, type = rec[0];
	int inner;

	if (type == REC_CCS)
		return true;
	if (type == REC_ALERT && c->state != LS_RESPONSE) {
		*why = "alert from the server";
		return false;
	}
	if (c->state == LS_HELLO) {
		if (type == REC_HANDSHAKE &&
		    on_handshake(c, rec + 5, len, req, req_len))
			return true;
		*why = "no usable ServerHello";
		return false;
	}
	if (type != REC_APP) {
		*why = "unprotected record after the ServerHello";
		return false;
	}
	inner = open_rec(c, rec, &len);
	if (inner < 0) {
		*why = "record does not decrypt";
		return false;
	}
	if (c->state == LS_FLIGHT) {
		if (inner == REC_HANDSHAKE &&
		    on_handshake(c, rec + 5, len, req, req_len))
			return true;
		*why = "bad server flight";
		return false;
	}
	/* In the response: data is collected, tickets and alerts ignored. */
	if (inner == REC_APP) {
		if (*resp_len + len > resp_max) {
			*why = "response too long";
			return false;
		}
		memcpy(resp + *resp_len, rec + 5, len);
		*resp_len += len;
		resp[*resp_len] = '\0';
	}
	return true;
}

int lite_step(struct lite_conn *c, int fd, const char *req, size_t req_len,
	      char *resp, size_t resp_max, size_t *resp_len,
	      int (*done)(const char *resp, size_t len), unsigned int *events,
	      const char **why)
{
	size_t rec_len;
	ssize_t n;
	int ret;

	for (;;) {
		while (c->out_off < c->out_len) {
			n = send(fd, c->out + c->out_off,
				 c->out_len - c->out_off, MSG_NOSIGNAL);
			if (n < 0 && errno == EAGAIN) {
				*events = EPOLLOUT;
				return 0;
			}
			if (n < 0) {
				*why = strerror(errno);
				return -1;
			}
			c->out_off += n;
		}
		c->out_off = 0;
		c->out_len = 0;
		if (c->state == LS_DONE)
			return 1;

		n = recv(fd, c->in + c->in_len, sizeof(c->in) - c->in_len, 0);
		if (n < 0 && errno == EAGAIN) {
			*events = EPOLLIN;
			return 0;
		}
		if (n <= 0) {
			*why = n ? strerror(errno) : "EOF";
			return -1;
		}
		c->in_len += n;
		while (c->state != LS_DONE && c->in_len >= 5) {
			rec_len = c->in[3] << 8 | c->in[4];
			if (rec_len > PLAIN_MAX + 256) {
				*why = "record too long";
				return -1;
			}
			if (c->in_len < 5 + rec_len)
				break;
			if (!on_record(c, rec_len, req, req_len, resp,
				       resp_max, resp_len, why))
				return -1;
			memmove(c->in, c->in + 5 + rec_len,
				c->in_len - 5 - rec_len);
			c->in_len -= 5 + rec_len;
			if (c->state == LS_RESPONSE) {
				ret = done(resp, *resp_len);
				if (ret < 0) {
					*why = NULL;
					return -1;
				}
				if (ret)
					c->state = LS_DONE;
			}
		}
	}
}
