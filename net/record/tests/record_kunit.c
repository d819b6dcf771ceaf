// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of record construction (record.c) and the cipher table
 * (cipher.c): header, AEAD nonce, additional data, counter advance and
 * the AEAD call, checked against published and cross-checked records.
 *
 * Vectors:
 * - RFC 8448 section 3 ("Simple 1-RTT Handshake"): the client's and the
 *   server's application_data records (payload 00 01 .. 31) and their
 *   close_notify alerts, under the application traffic key and iv given
 *   in the trace.  The client's records are its numbers 0 and 1 under
 *   that key; the server's are 1 and 2 (its NewSessionTicket is 0).
 * - TLS 1.2 AES-128-GCM, AES-128-CCM and ChaCha20-Poly1305 records, and a
 *   TLS 1.3 AES-128-CCM record, computed for these tests with OpenSSL
 *   3.0's EVP AEADs from the keys, nonces and AAD below (RFC 5288 3,
 *   RFC 6655 3, RFC 7905 2, RFC 8446 5.2-5.3).
 */
#include <kunit/test.h>
#include <crypto/aead.h>
#include <linux/err.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "../record.h"

struct rec_vector {
	const char *name;
	u16 version;
	u16 cipher;
	u8 key[32];
	u8 iv[KTLS_MAX_IV_LEN];		/* salt || iv, as the key setting stores it */
	u64 seq;
	u8 nonce[12];			/* the AEAD nonce the record is sealed with */
	u8 type;			/* content type (the inner one in 1.3) */
	const u8 *plain;
	unsigned int plain_len;		/* payload, without the 1.3 inner type */
	const u8 *rec;			/* the whole record on the wire */
	unsigned int rec_len;
};

/* RFC 8448 3: the 50-byte payload both application_data records carry. */
static const u8 rfc8448_payload[50] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23,
	0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0x30, 0x31,
};

/* close_notify, level warning (RFC 8446 6). */
static const u8 close_notify[2] = { 0x01, 0x00 };

/* RFC 8448 3: {client} send application_data record, 72 octets. */
static const u8 rfc8448_client_app[72] = {
	0x17, 0x03, 0x03, 0x00, 0x43, 0xa2, 0x3f, 0x70, 0x54, 0xb6, 0x2c, 0x94,
	0xd0, 0xaf, 0xfa, 0xfe, 0x82, 0x28, 0xba, 0x55, 0xcb, 0xef, 0xac, 0xea,
	0x42, 0xf9, 0x14, 0xaa, 0x66, 0xbc, 0xab, 0x3f, 0x2b, 0x98, 0x19, 0xa8,
	0xa5, 0xb4, 0x6b, 0x39, 0x5b, 0xd5, 0x4a, 0x9a, 0x20, 0x44, 0x1e, 0x2b,
	0x62, 0x97, 0x4e, 0x1f, 0x5a, 0x62, 0x92, 0xa2, 0x97, 0x70, 0x14, 0xbd,
	0x1e, 0x3d, 0xea, 0xe6, 0x3a, 0xee, 0xbb, 0x21, 0x69, 0x49, 0x15, 0xe4,
};

/* RFC 8448 3: {server} send application_data record, 72 octets. */
static const u8 rfc8448_server_app[72] = {
	0x17, 0x03, 0x03, 0x00, 0x43, 0x2e, 0x93, 0x7e, 0x11, 0xef, 0x4a, 0xc7,
	0x40, 0xe5, 0x38, 0xad, 0x36, 0x00, 0x5f, 0xc4, 0xa4, 0x69, 0x32, 0xfc,
	0x32, 0x25, 0xd0, 0x5f, 0x82, 0xaa, 0x1b, 0x36, 0xe3, 0x0e, 0xfa, 0xf9,
	0x7d, 0x90, 0xe6, 0xdf, 0xfc, 0x60, 0x2d, 0xcb, 0x50, 0x1a, 0x59, 0xa8,
	0xfc, 0xc4, 0x9c, 0x4b, 0xf2, 0xe5, 0xf0, 0xa2, 0x1c, 0x00, 0x47, 0xc2,
	0xab, 0xf3, 0x32, 0x54, 0x0d, 0xd0, 0x32, 0xe1, 0x67, 0xc2, 0x95, 0x5d,
};

/* RFC 8448 3: {client} send alert record, 24 octets. */
static const u8 rfc8448_client_alert[24] = {
	0x17, 0x03, 0x03, 0x00, 0x13, 0xc9, 0x87, 0x27, 0x60, 0x65, 0x56, 0x66,
	0xb7, 0x4d, 0x7f, 0xf1, 0x15, 0x3e, 0xfd, 0x6d, 0xb6, 0xd0, 0xb0, 0xe3,
};

/* RFC 8448 3: {server} send alert record, 24 octets. */
static const u8 rfc8448_server_alert[24] = {
	0x17, 0x03, 0x03, 0x00, 0x13, 0xb5, 0x8f, 0xd6, 0x71, 0x66, 0xeb, 0xf5,
	0x99, 0xd2, 0x47, 0x20, 0xcf, 0xbe, 0x7e, 0xfa, 0x7a, 0x88, 0x64, 0xa9,
};

#define RFC8448_CLIENT_KEY { 0x17, 0x42, 0x2d, 0xda, 0x59, 0x6e, 0xd5, 0xd9, \
			     0xac, 0xd8, 0x90, 0xe3, 0xc6, 0x3f, 0x50, 0x51 }
#define RFC8448_CLIENT_IV  { 0x5b, 0x78, 0x92, 0x3d, 0xee, 0x08, 0x57, 0x90, \
			     0x33, 0xe5, 0x23, 0xd9 }
#define RFC8448_SERVER_KEY { 0x9f, 0x02, 0x28, 0x3b, 0x6c, 0x9c, 0x07, 0xef, \
			     0xc2, 0x6b, 0xb9, 0xf2, 0xac, 0x92, 0xe3, 0x56 }
#define RFC8448_SERVER_IV  { 0xcf, 0x78, 0x2b, 0x88, 0xdd, 0x83, 0x54, 0x9a, \
			     0xad, 0xf1, 0xe9, 0x84 }

/* The OpenSSL-computed records share key 00 01 .. 1f (as long as needed). */
#define KAT_KEY { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, \
		  0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, \
		  0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, \
		  0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f }

static const u8 kat_payload[32] = "TLS 1.2 AEAD record, ktls-hs KAT";

/*
 * TLS 1.2 AES-128-GCM: salt a0 a1 a2 a3, explicit nonce 01 .. 08, record
 * number 0x0000000100000002, AAD 00 00 00 01 00 00 00 02 17 03 03 00 20.
 */
static const u8 kat12_gcm[5 + 8 + 48] = {
	0x17, 0x03, 0x03, 0x00, 0x38,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x48, 0x71, 0xc8, 0xea, 0x0a, 0xe6, 0xae, 0xe4,
	0xc7, 0xe2, 0xb6, 0x44, 0x38, 0x76, 0x53, 0x6c,
	0xd2, 0x45, 0xe7, 0x7e, 0x89, 0x76, 0x02, 0x70,
	0x18, 0x28, 0x0d, 0xdd, 0xa5, 0xee, 0xf6, 0x0e,
	0x92, 0x1e, 0x97, 0xfb, 0x29, 0xe5, 0xc9, 0x98,
	0xfa, 0xe0, 0x2c, 0xff, 0x28, 0x47, 0x7d, 0x3d,
};

/* TLS 1.2 AES-128-CCM, the same inputs as the GCM record. */
static const u8 kat12_ccm[5 + 8 + 48] = {
	0x17, 0x03, 0x03, 0x00, 0x38,
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x6e, 0x20, 0xc6, 0xed, 0x79, 0x04, 0xef, 0x5c,
	0xd4, 0x98, 0x6c, 0x46, 0xa4, 0x99, 0x0b, 0x50,
	0x3a, 0x58, 0x1f, 0x3b, 0x57, 0x03, 0xa4, 0x69,
	0x7a, 0x16, 0xee, 0x26, 0xac, 0x21, 0xf4, 0xa1,
	0x07, 0x4d, 0x48, 0xe9, 0xd0, 0xcf, 0xe1, 0x4d,
	0x99, 0x2c, 0x3e, 0x71, 0x29, 0x6c, 0x83, 0xf3,
};

/* TLS 1.2 ChaCha20-Poly1305: iv c0 .. cb XOR the record number, same AAD. */
static const u8 kat12_chacha[5 + 48] = {
	0x17, 0x03, 0x03, 0x00, 0x30,
	0x1c, 0x83, 0x42, 0x89, 0x79, 0x41, 0x1a, 0xbb,
	0x33, 0x4c, 0x99, 0x01, 0x86, 0x7a, 0xdd, 0x67,
	0x54, 0xdc, 0xe2, 0xb9, 0x72, 0xe4, 0xec, 0x83,
	0x42, 0x79, 0x9b, 0x2f, 0x93, 0xb1, 0x0a, 0xee,
	0x46, 0x13, 0x3a, 0xa1, 0xf9, 0x2a, 0x57, 0x44,
	0x3b, 0xb5, 0xd9, 0x64, 0x02, 0xeb, 0xfa, 0x03,
};

/* TLS 1.3 AES-128-CCM: iv b0 .. bb, record number 5, inner type 23. */
static const u8 kat13_ccm[5 + 49] = {
	0x17, 0x03, 0x03, 0x00, 0x31,
	0x95, 0x19, 0x25, 0x77, 0x9e, 0x3d, 0x4d, 0x0f,
	0x53, 0x32, 0x9e, 0x99, 0xd1, 0x0b, 0xfa, 0x70,
	0x5a, 0xd3, 0x00, 0x85, 0xc5, 0x72, 0x9c, 0x2d,
	0x99, 0x52, 0xca, 0xca, 0xc6, 0x58, 0xc2, 0x9a,
	0xd0, 0x1d, 0xd3, 0xd4, 0x17, 0xc5, 0x44, 0xc6,
	0xe3, 0x66, 0x83, 0x09, 0x42, 0xbc, 0xc3, 0x58,
	0x60,
};

static const struct rec_vector rec_vectors[] = {
	{
		.name = "rfc8448_client_app_data",
		.version = TLS_1_3_VERSION,
		.cipher = TLS_CIPHER_AES_GCM_128,
		.key = RFC8448_CLIENT_KEY,
		.iv = RFC8448_CLIENT_IV,
		.seq = 0,
		.nonce = RFC8448_CLIENT_IV,
		.type = KTLS_TYPE_DATA,
		.plain = rfc8448_payload,
		.plain_len = sizeof(rfc8448_payload),
		.rec = rfc8448_client_app,
		.rec_len = sizeof(rfc8448_client_app),
	}, {
		.name = "rfc8448_client_close_notify",
		.version = TLS_1_3_VERSION,
		.cipher = TLS_CIPHER_AES_GCM_128,
		.key = RFC8448_CLIENT_KEY,
		.iv = RFC8448_CLIENT_IV,
		.seq = 1,
		.nonce = { 0x5b, 0x78, 0x92, 0x3d, 0xee, 0x08, 0x57, 0x90,
			   0x33, 0xe5, 0x23, 0xd8 },
		.type = KTLS_TYPE_ALERT,
		.plain = close_notify,
		.plain_len = sizeof(close_notify),
		.rec = rfc8448_client_alert,
		.rec_len = sizeof(rfc8448_client_alert),
	}, {
		.name = "rfc8448_server_app_data",
		.version = TLS_1_3_VERSION,
		.cipher = TLS_CIPHER_AES_GCM_128,
		.key = RFC8448_SERVER_KEY,
		.iv = RFC8448_SERVER_IV,
		.seq = 1,
		.nonce = { 0xcf, 0x78, 0x2b, 0x88, 0xdd, 0x83, 0x54, 0x9a,
			   0xad, 0xf1, 0xe9, 0x85 },
		.type = KTLS_TYPE_DATA,
		.plain = rfc8448_payload,
		.plain_len = sizeof(rfc8448_payload),
		.rec = rfc8448_server_app,
		.rec_len = sizeof(rfc8448_server_app),
	}, {
		.name = "rfc8448_server_close_notify",
		.version = TLS_1_3_VERSION,
		.cipher = TLS_CIPHER_AES_GCM_128,
		.key = RFC8448_SERVER_KEY,
		.iv = RFC8448_SERVER_IV,
		.seq = 2,
		.nonce = { 0xcf, 0x78, 0x2b, 0x88, 0xdd, 0x83, 0x54, 0x9a,
			   0xad, 0xf1, 0xe9, 0x86 },
		.type = KTLS_TYPE_ALERT,
		.plain = close_notify,
		.plain_len = sizeof(close_notify),
		.rec = rfc8448_server_alert,
		.rec_len = sizeof(rfc8448_server_alert),
	}, {
		.name = "tls13_aes_ccm_128",
		.version = TLS_1_3_VERSION,
		.cipher = TLS_CIPHER_AES_CCM_128,
		.key = KAT_KEY,
		.iv = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
			0xb8, 0xb9, 0xba, 0xbb },
		.seq = 5,
		.nonce = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
			   0xb8, 0xb9, 0xba, 0xbe },
		.type = KTLS_TYPE_DATA,
		.plain = kat_payload,
		.plain_len = sizeof(kat_payload),
		.rec = kat13_ccm,
		.rec_len = sizeof(kat13_ccm),
	}, {
		.name = "tls12_aes_gcm_128",
		.version = TLS_1_2_VERSION,
		.cipher = TLS_CIPHER_AES_GCM_128,
		.key = KAT_KEY,
		/* The iv part is the explicit nonce of the next TX record. */
		.iv = { 0xa0, 0xa1, 0xa2, 0xa3, 0x01, 0x02, 0x03, 0x04,
			0x05, 0x06, 0x07, 0x08 },
		.seq = 0x0000000100000002ULL,
		.nonce = { 0xa0, 0xa1, 0xa2, 0xa3, 0x01, 0x02, 0x03, 0x04,
			   0x05, 0x06, 0x07, 0x08 },
		.type = KTLS_TYPE_DATA,
		.plain = kat_payload,
		.plain_len = sizeof(kat_payload),
		.rec = kat12_gcm,
		.rec_len = sizeof(kat12_gcm),
	}, {
		.name = "tls12_aes_ccm_128",
		.version = TLS_1_2_VERSION,
		.cipher = TLS_CIPHER_AES_CCM_128,
		.key = KAT_KEY,
		.iv = { 0xa0, 0xa1, 0xa2, 0xa3, 0x01, 0x02, 0x03, 0x04,
			0x05, 0x06, 0x07, 0x08 },
		.seq = 0x0000000100000002ULL,
		.nonce = { 0xa0, 0xa1, 0xa2, 0xa3, 0x01, 0x02, 0x03, 0x04,
			   0x05, 0x06, 0x07, 0x08 },
		.type = KTLS_TYPE_DATA,
		.plain = kat_payload,
		.plain_len = sizeof(kat_payload),
		.rec = kat12_ccm,
		.rec_len = sizeof(kat12_ccm),
	}, {
		.name = "tls12_chacha20_poly1305",
		.version = TLS_1_2_VERSION,
		.cipher = TLS_CIPHER_CHACHA20_POLY1305,
		.key = KAT_KEY,
		.iv = { 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
			0xc8, 0xc9, 0xca, 0xcb },
		.seq = 0x0000000100000002ULL,
		.nonce = { 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc6,
			   0xc8, 0xc9, 0xca, 0xc9 },
		.type = KTLS_TYPE_DATA,
		.plain = kat_payload,
		.plain_len = sizeof(kat_payload),
		.rec = kat12_chacha,
		.rec_len = sizeof(kat12_chacha),
	},
};

static void rec_vector_desc(const struct rec_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rec_vector, rec_vectors, rec_vector_desc);

/* The framing the key setting derives from version and suite (record.h). */
static void rec_prot(struct ktls_prot *prot, u16 version,
		     const struct ktls_cipher *cs)
{
	bool tls13 = version == TLS_1_3_VERSION;

	memset(prot, 0, sizeof(*prot));
	prot->version = version;
	prot->cipher = cs;
	prot->nonce_len = tls13 ? 0 : cs->nonce_len;
	prot->prepend_len = KTLS_HEADER_LEN + prot->nonce_len;
	prot->tag_len = cs->tag_len;
	prot->tail_len = tls13 ? 1 : 0;
	prot->overhead = prot->prepend_len + prot->tail_len + prot->tag_len;
	prot->aad_len = tls13 ? KTLS_HEADER_LEN : KTLS_MAX_AAD_LEN;
}

static void rec_free_aead(void *aead)
{
	crypto_free_aead(aead);
}

/* A keyed direction: transform, request and wait, as the key setting makes them. */
static struct ktls_crypto *rec_crypto(struct kunit *test,
				      const struct rec_vector *v,
				      struct ktls_prot *prot)
{
	const struct ktls_cipher *cs = ktls_cipher_find(v->cipher);
	struct ktls_crypto *c;
	struct crypto_aead *aead;

	KUNIT_ASSERT_NOT_NULL(test, cs);
	rec_prot(prot, v->version, cs);
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);

	aead = crypto_alloc_aead(cs->alg, 0, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(aead), "%s: %ld", cs->alg,
			       PTR_ERR(aead));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rec_free_aead,
							aead), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(aead, cs->tag_len), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(aead, v->key, cs->key_len), 0);
	c->req = kunit_kzalloc(test, sizeof(*c->req) + crypto_aead_reqsize(aead),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->req);
	aead_request_set_tfm(c->req, aead);
	crypto_init_wait(&c->wait);
	c->aead = aead;
	memcpy(c->iv, v->iv, sizeof(c->iv));
	c->seq = v->seq;
	c->ready = true;
	return c;
}

static const struct rec_vector *rec_param(struct kunit *test)
{
	return test->param_value;
}

/* Length of what the AEAD protects: the payload, and the 1.3 inner type. */
static unsigned int rec_inner_len(const struct rec_vector *v)
{
	return v->plain_len + (v->version == TLS_1_3_VERSION);
}

static void record_header_of_vector(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	u8 hdr[KTLS_HEADER_LEN];

	ktls_record_header(hdr, v->rec[0], v->rec_len - KTLS_HEADER_LEN);
	KUNIT_EXPECT_MEMEQ(test, hdr, v->rec, KTLS_HEADER_LEN);
}

/* The nonce, and for CCM the flags byte before it and a zero counter after. */
static void record_iv_of_vector(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	u8 iv[KTLS_AEAD_IV_LEN], want[KTLS_AEAD_IV_LEN] = {};
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	const u8 *explicit = v->rec + KTLS_HEADER_LEN;
	unsigned int off = 0;

	if (prot.cipher->ccm)
		want[off++] = KTLS_CCM_FLAGS;
	memcpy(want + off, v->nonce, sizeof(v->nonce));

	memset(iv, 0xee, sizeof(iv));
	ktls_record_iv(iv, &prot, c, explicit);
	KUNIT_EXPECT_MEMEQ(test, iv, want, off + sizeof(v->nonce));
	/* The key setting's state is read, never changed. */
	KUNIT_EXPECT_MEMEQ(test, c->iv, v->iv, sizeof(c->iv));
	KUNIT_EXPECT_EQ(test, c->seq, v->seq);
}

static void record_aad_of_vector(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	unsigned int inner = rec_inner_len(v);
	u8 aad[KTLS_MAX_AAD_LEN], want[KTLS_MAX_AAD_LEN];
	struct ktls_prot prot;
	unsigned int len;

	rec_prot(&prot, v->version, ktls_cipher_find(v->cipher));
	if (v->version == TLS_1_3_VERSION) {
		/* The record header itself (RFC 8446 5.2). */
		memcpy(want, v->rec, KTLS_HEADER_LEN);
	} else {
		/* seq_num, type, version, length (RFC 5246 6.2.3.3). */
		put_unaligned_be64(v->seq, want);
		want[8] = v->type;
		want[9] = 3;
		want[10] = 3;
		put_unaligned_be16(v->plain_len, want + 11);
	}
	memset(aad, 0xee, sizeof(aad));
	len = ktls_record_aad(aad, &prot, v->seq, v->type, inner);
	KUNIT_ASSERT_EQ(test, len, (unsigned int)prot.aad_len);
	KUNIT_EXPECT_MEMEQ(test, aad, want, len);
}

/*
 * AEAD input as the record layer lays it out: AAD, then the (inner)
 * plaintext or the ciphertext and tag, in one buffer.
 */
static u8 *rec_buf(struct kunit *test, const struct ktls_prot *prot,
		   const struct rec_vector *v, bool encrypt, unsigned int *len)
{
	unsigned int inner = rec_inner_len(v);
	u8 *buf;

	*len = prot->aad_len + inner + prot->tag_len;
	buf = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	ktls_record_aad(buf, prot, v->seq, v->type, inner);
	if (encrypt) {
		memcpy(buf + prot->aad_len, v->plain, v->plain_len);
		if (v->version == TLS_1_3_VERSION)
			buf[prot->aad_len + v->plain_len] = v->type;
	} else {
		KUNIT_ASSERT_EQ(test, v->rec_len,
				prot->prepend_len + inner + prot->tag_len);
		memcpy(buf + prot->aad_len, v->rec + prot->prepend_len,
		       inner + prot->tag_len);
	}
	return buf;
}

static void record_encrypt_vector(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	u8 iv[KTLS_AEAD_IV_LEN];
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	struct scatterlist sg;
	unsigned int len;
	u8 *buf;

	buf = rec_buf(test, &prot, v, true, &len);
	/* TX takes the explicit nonce from its own state. */
	ktls_record_iv(iv, &prot, c, c->iv + prot.cipher->salt_len);
	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, &prot, true, &sg, &sg,
					      rec_inner_len(v), iv), 0);
	KUNIT_EXPECT_MEMEQ(test, buf + prot.aad_len, v->rec + prot.prepend_len,
			   len - prot.aad_len);
}

static void record_decrypt_vector(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	unsigned int inner = rec_inner_len(v);
	u8 iv[KTLS_AEAD_IV_LEN];
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	struct scatterlist sg;
	unsigned int len;
	u8 *buf;

	buf = rec_buf(test, &prot, v, false, &len);
	ktls_record_iv(iv, &prot, c, v->rec + KTLS_HEADER_LEN);
	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, &prot, false, &sg, &sg,
					      inner + prot.tag_len, iv), 0);
	KUNIT_EXPECT_MEMEQ(test, buf + prot.aad_len, v->plain, v->plain_len);
	if (v->version == TLS_1_3_VERSION)
		KUNIT_EXPECT_EQ(test, buf[prot.aad_len + v->plain_len], v->type);
}

/* Separate source and destination lists, as RX uses into a user page. */
static void record_decrypt_out_of_place(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	unsigned int inner = rec_inner_len(v);
	u8 iv[KTLS_AEAD_IV_LEN], *src, *dst;
	struct scatterlist sg_src, sg_dst;
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	unsigned int len;

	src = rec_buf(test, &prot, v, false, &len);
	dst = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	memcpy(dst, src, prot.aad_len);
	ktls_record_iv(iv, &prot, c, v->rec + KTLS_HEADER_LEN);
	sg_init_one(&sg_src, src, len);
	sg_init_one(&sg_dst, dst, len);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, &prot, false, &sg_src, &sg_dst,
					      inner + prot.tag_len, iv), 0);
	KUNIT_EXPECT_MEMEQ(test, dst + prot.aad_len, v->plain, v->plain_len);
	/* The ciphertext is left as it was. */
	KUNIT_EXPECT_MEMEQ(test, src + prot.aad_len, v->rec + prot.prepend_len,
			   inner + prot.tag_len);
}

/* Any flipped bit of tag, ciphertext or AAD: -EBADMSG. */
static void record_decrypt_bad_tag(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	unsigned int inner = rec_inner_len(v), flips[3], i, len;
	u8 iv[KTLS_AEAD_IV_LEN];
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	struct scatterlist sg;
	u8 *buf;

	ktls_record_iv(iv, &prot, c, v->rec + KTLS_HEADER_LEN);
	flips[0] = prot.aad_len + inner + prot.tag_len - 1;	/* tag */
	flips[1] = prot.aad_len;				/* ciphertext */
	flips[2] = prot.aad_len - 1;				/* AAD: length */
	for (i = 0; i < ARRAY_SIZE(flips); i++) {
		buf = rec_buf(test, &prot, v, false, &len);
		buf[flips[i]] ^= 0x80;
		sg_init_one(&sg, buf, len);
		KUNIT_EXPECT_EQ_MSG(test, ktls_aead_crypt(c, &prot, false, &sg, &sg,
							  inner + prot.tag_len, iv),
				    -EBADMSG, "byte %u flipped", flips[i]);
	}
}

/* The wrong record number: a different nonce (1.3) or AAD (1.2). */
static void record_decrypt_wrong_seq(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	unsigned int inner = rec_inner_len(v), len;
	u8 iv[KTLS_AEAD_IV_LEN];
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	struct scatterlist sg;
	u8 *buf;

	buf = rec_buf(test, &prot, v, false, &len);
	c->seq++;
	ktls_record_aad(buf, &prot, c->seq, v->type, inner);
	ktls_record_iv(iv, &prot, c, v->rec + KTLS_HEADER_LEN);
	sg_init_one(&sg, buf, len);
	KUNIT_EXPECT_EQ(test, ktls_aead_crypt(c, &prot, false, &sg, &sg,
					      inner + prot.tag_len, iv), -EBADMSG);
}

/*
 * Advancing moves the record number, and in TLS 1.2 GCM/CCM the explicit
 * nonce as a big-endian counter (carrying across bytes); the salt and a
 * static iv never change.
 */
static void record_advance_counts(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	unsigned int salt = prot.cipher->salt_len;
	u8 want[KTLS_MAX_IV_LEN];
	int i;

	memcpy(want, v->iv, sizeof(want));
	if (prot.nonce_len) {
		/* Start two records below a carry through three bytes. */
		c->iv[salt + 5] = 0xff;
		c->iv[salt + 6] = 0xff;
		c->iv[salt + 7] = 0xfe;
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, ktls_record_advance(&prot, c));
	KUNIT_EXPECT_EQ(test, c->seq, v->seq + 3);
	if (prot.nonce_len) {
		want[salt + 4]++;
		want[salt + 5] = 0;
		want[salt + 6] = 0;
		want[salt + 7] = 1;
	}
	KUNIT_EXPECT_MEMEQ(test, c->iv, want, sizeof(want));
}

/* Sequence numbers never wrap: the last one says no record may follow. */
static void record_advance_last(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);

	c->seq = U64_MAX - 1;
	KUNIT_EXPECT_TRUE(test, ktls_record_advance(&prot, c));
	KUNIT_EXPECT_EQ(test, c->seq, U64_MAX);
	KUNIT_EXPECT_FALSE(test, ktls_record_advance(&prot, c));
}

/* A sealed record opens again after a round trip through both directions. */
static void record_roundtrip_advanced(struct kunit *test)
{
	const struct rec_vector *v = rec_param(test);
	unsigned int inner = rec_inner_len(v), len;
	u8 iv[KTLS_AEAD_IV_LEN], explicit[KTLS_MAX_NONCE_LEN];
	struct ktls_prot prot;
	struct ktls_crypto *c = rec_crypto(test, v, &prot);
	struct scatterlist sg;
	u8 *buf;

	KUNIT_ASSERT_TRUE(test, ktls_record_advance(&prot, c));
	buf = rec_buf(test, &prot, v, true, &len);
	ktls_record_aad(buf, &prot, c->seq, v->type, inner);
	memcpy(explicit, c->iv + prot.cipher->salt_len, prot.nonce_len);
	ktls_record_iv(iv, &prot, c, explicit);
	sg_init_one(&sg, buf, len);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, &prot, true, &sg, &sg, inner, iv), 0);
	/* A new record number gives a new ciphertext. */
	KUNIT_EXPECT_MEMNEQ(test, buf + prot.aad_len, v->rec + prot.prepend_len,
			    inner);
	ktls_record_iv(iv, &prot, c, explicit);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, &prot, false, &sg, &sg,
					      inner + prot.tag_len, iv), 0);
	KUNIT_EXPECT_MEMEQ(test, buf + prot.aad_len, v->plain, v->plain_len);
}

static void record_header_bytes(struct kunit *test)
{
	static const u8 want_max[] = { 0x16, 0x03, 0x03, 0x41, 0x11 };
	static const u8 want_empty[] = { 0x15, 0x03, 0x03, 0x00, 0x00 };
	u8 hdr[KTLS_HEADER_LEN];

	ktls_record_header(hdr, KTLS_TYPE_HANDSHAKE, KTLS_MAX_PLAINTEXT + 0x111);
	KUNIT_EXPECT_MEMEQ(test, hdr, want_max, sizeof(hdr));
	ktls_record_header(hdr, KTLS_TYPE_ALERT, 0);
	KUNIT_EXPECT_MEMEQ(test, hdr, want_empty, sizeof(hdr));
}

/* Every TLS_CIPHER_* of the uapi this module serves. */
static const u16 known_ciphers[] = {
	TLS_CIPHER_AES_GCM_128, TLS_CIPHER_AES_GCM_256, TLS_CIPHER_AES_CCM_128,
	TLS_CIPHER_CHACHA20_POLY1305, TLS_CIPHER_SM4_GCM, TLS_CIPHER_SM4_CCM,
	TLS_CIPHER_ARIA_GCM_128, TLS_CIPHER_ARIA_GCM_256,
};

static void cipher_unknown_types(struct kunit *test)
{
	static const u16 unknown[] = {
		0, 1, TLS_CIPHER_AES_GCM_128 - 1, TLS_CIPHER_ARIA_GCM_256 + 1,
		0x7fff, 0xffff,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(unknown); i++)
		KUNIT_EXPECT_NULL_MSG(test, ktls_cipher_find(unknown[i]),
				      "type %u", unknown[i]);
}

/* Each entry fits the buffers the KTLS_MAX_* constants size. */
static void cipher_table_bounds(struct kunit *test)
{
	const union ktls_crypto_info *u = NULL;
	const struct ktls_cipher *cs;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known_ciphers); i++) {
		cs = ktls_cipher_find(known_ciphers[i]);
		KUNIT_ASSERT_NOT_NULL_MSG(test, cs, "type %u", known_ciphers[i]);
		KUNIT_EXPECT_EQ(test, cs->type, known_ciphers[i]);
		KUNIT_EXPECT_LE(test, cs->key_len, KTLS_MAX_KEY_LEN);
		KUNIT_EXPECT_LE(test, cs->salt_len, KTLS_MAX_SALT_LEN);
		KUNIT_EXPECT_EQ(test, cs->salt_len + cs->iv_len, KTLS_MAX_IV_LEN);
		KUNIT_EXPECT_LE(test, cs->seq_len, KTLS_MAX_SEQ_LEN);
		KUNIT_EXPECT_LE(test, cs->tag_len, KTLS_MAX_TAG_LEN);
		KUNIT_EXPECT_LE(test, cs->nonce_len, KTLS_MAX_NONCE_LEN);
		KUNIT_EXPECT_LE(test, cs->ccm + KTLS_MAX_IV_LEN, KTLS_AEAD_IV_LEN);
		KUNIT_EXPECT_LE(test, cs->info_len, sizeof(*u));
		KUNIT_EXPECT_LE(test, cs->key_off + cs->key_len, cs->info_len);
		KUNIT_EXPECT_LE(test, cs->iv_off + cs->iv_len, cs->info_len);
		KUNIT_EXPECT_LE(test, cs->salt_off + cs->salt_len, cs->info_len);
		KUNIT_EXPECT_LE(test, cs->seq_off + cs->seq_len, cs->info_len);
		KUNIT_EXPECT_GE(test, cs->iv_off, sizeof(u->info));
		KUNIT_EXPECT_TRUE(test, cs->tls12 || cs->tls13);
		KUNIT_EXPECT_NOT_NULL(test, cs->alg);
		/* Only TLS 1.2 GCM and CCM suites carry an explicit nonce. */
		KUNIT_EXPECT_EQ(test, cs->nonce_len, cs->salt_len ? cs->iv_len : 0);
	}
	/* The largest record body of any framing fits its 16-bit length. */
	KUNIT_EXPECT_LE(test, KTLS_MAX_PLAINTEXT + 1 + KTLS_MAX_NONCE_LEN +
			KTLS_MAX_TAG_LEN, 0xffffU);
}

/* The uapi sizes of the suites the vectors use, against the table. */
static void cipher_uapi_sizes(struct kunit *test)
{
	const struct ktls_cipher *cs;

	cs = ktls_cipher_find(TLS_CIPHER_AES_GCM_128);
	KUNIT_ASSERT_NOT_NULL(test, cs);
	KUNIT_EXPECT_EQ(test, cs->info_len,
			sizeof(struct tls12_crypto_info_aes_gcm_128));
	KUNIT_EXPECT_EQ(test, cs->key_off,
			offsetof(struct tls12_crypto_info_aes_gcm_128, key));
	KUNIT_EXPECT_EQ(test, cs->salt_off,
			offsetof(struct tls12_crypto_info_aes_gcm_128, salt));
	KUNIT_EXPECT_EQ(test, cs->seq_off,
			offsetof(struct tls12_crypto_info_aes_gcm_128, rec_seq));
	KUNIT_EXPECT_FALSE(test, cs->ccm);

	cs = ktls_cipher_find(TLS_CIPHER_AES_CCM_128);
	KUNIT_ASSERT_NOT_NULL(test, cs);
	KUNIT_EXPECT_TRUE(test, cs->ccm);

	cs = ktls_cipher_find(TLS_CIPHER_CHACHA20_POLY1305);
	KUNIT_ASSERT_NOT_NULL(test, cs);
	KUNIT_EXPECT_EQ(test, cs->info_len,
			sizeof(struct tls12_crypto_info_chacha20_poly1305));
	KUNIT_EXPECT_EQ(test, cs->iv_off,
			offsetof(struct tls12_crypto_info_chacha20_poly1305, iv));
	KUNIT_EXPECT_EQ(test, cs->iv_len, 12);
	KUNIT_EXPECT_EQ(test, cs->nonce_len, 0);
}

static struct kunit_case record_cases[] = {
	KUNIT_CASE(record_header_bytes),
	KUNIT_CASE_PARAM(record_header_of_vector, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_iv_of_vector, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_aad_of_vector, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_encrypt_vector, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_decrypt_vector, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_decrypt_out_of_place, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_decrypt_bad_tag, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_decrypt_wrong_seq, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_advance_counts, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_advance_last, rec_vector_gen_params),
	KUNIT_CASE_PARAM(record_roundtrip_advanced, rec_vector_gen_params),
	KUNIT_CASE(cipher_unknown_types),
	KUNIT_CASE(cipher_table_bounds),
	KUNIT_CASE(cipher_uapi_sizes),
	{}
};

static struct kunit_suite record_suite = {
	.name = "ktls_hs_record",
	.test_cases = record_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(record_suite);
