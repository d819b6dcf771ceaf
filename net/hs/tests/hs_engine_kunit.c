// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the server handshake engine (net/hs/engine.c, its
 * TLS 1.3 states in net/hs/tls13_server.c and its records in
 * net/hs/hs_records.c), driven through engine.h by a scripted TLS 1.3
 * client written here.  The client builds its ClientHellos byte by
 * byte, parses the server's flight, verifies the CertificateVerify
 * signature against the identity's public key and the server's
 * Finished, answers with its own Finished and derives the application
 * keys on its side, which must equal the engine's.  It protects its
 * records with the crypto API's AEADs rather than the engine's, so
 * each side checks the other.  Then the hostile clients: each wrong
 * move must end in the RFC's alert.
 */
#include <crypto/aead.h>
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/kdf.h>
#include <ktls_hs/mlkem.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/x25519.h>

#include "../engine.h"
#include "../messages.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TC_BUF_LEN	(128 * 1024)
#define TC_CH_MAX	(32 * 1024)
#define TC_TAG_LEN	16

/* RFC 8446 4.1.3: the random of a HelloRetryRequest. */
static const u8 tc_hrr_random[32] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02,
	0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

/* ------------------------------------------------------- identities */

struct test_identity {
	struct ktls_identity id;
	struct ktls_identity_cert certs[2];
	struct ktls_identity_name name;
};

/*
 * The engine sends certificates without reading them, so the chain is
 * bytes that tell which identity answered; the key is a real P-256 key.
 */
static struct ktls_identity *test_identity(struct kunit *test, u8 seed,
					   const char *dns, size_t cert_len,
					   unsigned int nr_certs)
{
	struct test_identity *t;
	unsigned int i;
	u8 *der;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	der = kunit_kzalloc(test, cert_len * nr_certs, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, der);
	KUNIT_ASSERT_LE(test, nr_certs, ARRAY_SIZE(t->certs));

	/* Any scalar below the group order: this one starts with 0x01. */
	memset(t->id.private_key, seed, sizeof(t->id.private_key));
	t->id.private_key[0] = 0x01;
	KUNIT_ASSERT_EQ(test, ktls_p256_public_key(t->id.public_key,
						   t->id.private_key), 0);
	for (i = 0; i < nr_certs; i++) {
		memset(der + i * cert_len, seed + i, cert_len);
		t->certs[i].der = der + i * cert_len;
		t->certs[i].len = cert_len;
	}
	t->id.nr_certs = nr_certs;
	t->id.certs = t->certs;
	t->id.chain = der;
	t->id.chain_len = cert_len * nr_certs;
	t->name.type = KTLS_IDENTITY_NAME_DNS;
	t->name.len = strlen(dns);
	t->name.name = dns;
	t->id.nr_names = 1;
	t->id.names = &t->name;
	refcount_set(&t->id.ref, 1);
	return &t->id;
}

static struct ktls_hs_config *test_config(struct kunit *test)
{
	struct ktls_hs_config *cfg = kunit_kzalloc(test, sizeof(*cfg),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	cfg->identities[0] = test_identity(test, 0x11, "a.example", 300, 1);
	cfg->nr_identities = 1;
	cfg->suites = KTLS_HS_SUITE_AES_128_GCM_SHA256 | KTLS_HS_SUITE_AES_256_GCM_SHA384 |
		      KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256;
	cfg->groups = KTLS_HS_GROUP_X25519 | KTLS_HS_GROUP_SECP256R1;
	/* These cases are of the 1.3 engine; hs12_kunit.c has the 1.2 ones. */
	cfg->versions = KTLS_HS_VERSION_TLS13;
	return cfg;
}

static void test_config_alpn(struct ktls_hs_config *cfg, const char *list,
			     size_t len)
{
	memcpy(cfg->alpn, list, len);
	cfg->alpn_len = len;
}

static void test_engine_wipe(void *hs)
{
	ktls_hs_wipe(hs);
}

/* An engine in @size bytes, at least what @cfg needs. */
static struct ktls_hs *test_engine_in(struct kunit *test,
				      const struct ktls_hs_config *cfg,
				      size_t size)
{
	struct ktls_hs *hs;
	void *mem;

	KUNIT_ASSERT_GT(test, ktls_hs_size(cfg), 0);
	KUNIT_ASSERT_GE(test, size, ktls_hs_size(cfg));
	/* Not zeroed: init must not rely on it. */
	mem = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	memset(mem, 0xa5, size);
	hs = ktls_hs_init(mem, size, cfg);
	KUNIT_ASSERT_NOT_NULL(test, hs);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, test_engine_wipe,
							hs), 0);
	return hs;
}

static struct ktls_hs *test_engine(struct kunit *test,
				   const struct ktls_hs_config *cfg)
{
	return test_engine_in(test, cfg, ktls_hs_size(cfg));
}

/* An engine in the pool's block for @cfg (pool.c), as the glue has it. */
static struct ktls_hs *test_engine_pooled(struct kunit *test,
					  const struct ktls_hs_config *cfg)
{
	size_t size = ktls_hs_size(cfg);

	KUNIT_ASSERT_LE(test, size, SZ_64K);
	return test_engine_in(test, cfg, size <= SZ_32K ? SZ_32K : SZ_64K);
}

/* --------------------------------------------------- the test client */

/*
 * The scripted client.  The first block is what its ClientHello offers
 * and how it is sent, which tests change between tc_init() and tc_run();
 * then its keys, what it negotiated, and what it saw of the server.
 */
struct tc {
	struct kunit *test;
	struct ktls_hs *hs;
	const struct ktls_identity *expect_id;

	u16 suites[4];
	unsigned int nr_suites;
	u16 groups[4];
	unsigned int nr_groups;
	u16 shares[4];
	unsigned int nr_shares;
	u16 versions[2];
	unsigned int nr_versions;
	u16 sigalgs[3];
	unsigned int nr_sigalgs;
	bool no_key_share;
	bool early_data;
	bool zero_x25519;
	bool bad_ek;		/* an ML-KEM key with a coefficient of q */
	/* For the RFC clause tests: 0, NULL and false keep the defaults. */
	bool legacy_set;
	u16 legacy_version;
	const u8 *comp;
	size_t comp_len;
	const u8 *extra;
	size_t extra_len;
	bool no_groups;
	unsigned int nr_unk;
	u16 unk_first, unk_step;
	size_t unk_len;
	bool unk_no_shares;
	bool unk_unlisted;
	bool share_len_set;
	size_t share_len;
	bool share_fill_set;
	u8 share_fill;
	const char *sni;
	const char *alpn;
	size_t alpn_len;
	u8 sid_len;
	size_t frag;
	size_t ch_trailer;
	u16 rsl;		/* record_size_limit to send, 0 for none */
	bool mfl;		/* and a max_fragment_length of 2^9 */

	u8 x_priv[32], x_pub[32];
	u8 p_priv[32], p_pub[65];
	u8 *m_ek, *m_dk;
	struct ktls_mlkem768_scratch *m_scratch;
	u8 random[32], sid[32];
	u8 *ch1;
	size_t ch1_len;

	u16 suite, group, hrr_group;
	bool hrr;
	u16 server_share_len;
	enum ktls_hash hash;
	size_t n;
	size_t key_len;
	struct ktls_transcript t;
	bool t_ready;
	u8 c_hs[KTLS_HASH_MAX_SIZE], s_hs[KTLS_HASH_MAX_SIZE];
	u8 master[KTLS_HASH_MAX_SIZE], th_sf[KTLS_HASH_MAX_SIZE];
	struct crypto_aead *rx_tfm, *tx_tfm;
	u8 rx_iv[12], tx_iv[12];
	u64 rx_seq, tx_seq;

	u8 *in;
	size_t in_len, in_off;
	u8 *msg;
	size_t msg_len;
	u8 *scratch;
	size_t unconsumed;
	unsigned int ccs_seen, records;
	int alert;
	bool alert_protected;
	bool got_fin, sni_acked;
	char alpn_got[256];
	u16 rsl_got;		/* the server's record_size_limit */
	size_t max_inner;	/* largest TLSInnerPlaintext received */
};

static void tc_free_tfm(void *tfm)
{
	crypto_free_aead(tfm);
}

static struct tc *tc_init(struct kunit *test, struct ktls_hs *hs,
			  const struct ktls_identity *expect_id)
{
	struct tc *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->in = kunit_kzalloc(test, TC_BUF_LEN, GFP_KERNEL);
	c->msg = kunit_kzalloc(test, TC_BUF_LEN, GFP_KERNEL);
	c->scratch = kunit_kzalloc(test, TC_BUF_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->in);
	KUNIT_ASSERT_NOT_NULL(test, c->msg);
	KUNIT_ASSERT_NOT_NULL(test, c->scratch);
	c->test = test;
	c->hs = hs;
	c->expect_id = expect_id;
	c->alert = -1;

	c->suites[0] = KTLS_SUITE_AES_128_GCM_SHA256;
	c->suites[1] = KTLS_SUITE_AES_256_GCM_SHA384;
	c->suites[2] = KTLS_SUITE_CHACHA20_POLY1305_SHA256;
	c->nr_suites = 3;
	c->groups[0] = KTLS_GROUP_X25519;
	c->groups[1] = KTLS_GROUP_SECP256R1;
	c->nr_groups = 2;
	c->shares[0] = KTLS_GROUP_X25519;
	c->nr_shares = 1;
	c->versions[0] = KTLS_VERSION_TLS13;
	c->versions[1] = KTLS_VERSION_TLS12;
	c->nr_versions = 2;
	c->sigalgs[0] = 0x0804;		/* rsa_pss_rsae_sha256, not ours */
	c->sigalgs[1] = KTLS_SIG_ECDSA_SECP256R1_SHA256;
	c->nr_sigalgs = 2;
	c->sid_len = 32;
	c->frag = KTLS_MAX_PLAINTEXT;

	get_random_bytes(c->random, sizeof(c->random));
	get_random_bytes(c->sid, sizeof(c->sid));
	KUNIT_ASSERT_EQ(test, ktls_x25519_keygen(c->x_priv, c->x_pub), 0);
	KUNIT_ASSERT_EQ(test, ktls_p256_ecdh_keygen(c->p_priv, c->p_pub), 0);
	c->m_ek = kunit_kzalloc(test, KTLS_MLKEM768_EK_LEN, GFP_KERNEL);
	c->m_dk = kunit_kzalloc(test, KTLS_MLKEM768_DK_LEN, GFP_KERNEL);
	c->m_scratch = kunit_kzalloc(test, sizeof(*c->m_scratch), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->m_ek);
	KUNIT_ASSERT_NOT_NULL(test, c->m_dk);
	KUNIT_ASSERT_NOT_NULL(test, c->m_scratch);
	ktls_mlkem768_keygen(c->m_ek, c->m_dk, c->m_scratch);
	return c;
}

/*
 * The client's share of @group into @out: its length.  The hybrids of
 * draft-ietf-tls-ecdhe-mlkem 4.1 put ML-KEM first in X25519MLKEM768 and
 * the ECDH share first in SecP256r1MLKEM768.
 */
static size_t tc_share(const struct tc *c, u16 group, u8 *out)
{
	u8 *ek;

	switch (group) {
	case KTLS_GROUP_X25519:
		memcpy(out, c->x_pub, 32);
		if (c->zero_x25519)
			memset(out, 0, 32);
		return 32;
	case KTLS_GROUP_SECP256R1:
		memcpy(out, c->p_pub, 65);
		return 65;
	case KTLS_GROUP_X25519MLKEM768:
		ek = out;
		memcpy(out + KTLS_MLKEM768_EK_LEN, c->x_pub, 32);
		if (c->zero_x25519)
			memset(out + KTLS_MLKEM768_EK_LEN, 0, 32);
		break;
	case KTLS_GROUP_SECP256R1MLKEM768:
		memcpy(out, c->p_pub, 65);
		ek = out + 65;
		break;
	default:
		return 0;
	}
	memcpy(ek, c->m_ek, KTLS_MLKEM768_EK_LEN);
	/* The first 12-bit coefficient becomes 0xfff, not below q. */
	if (c->bad_ek) {
		ek[0] = 0xff;
		ek[1] |= 0x0f;
	}
	return KTLS_MLKEM768_EK_LEN + (group == KTLS_GROUP_X25519MLKEM768 ?
				       32 : 65);
}

/* Hand bytes to the engine the way the glue does; count what it refused. */
static void tc_feed(struct tc *c, const u8 *data, size_t len)
{
	while (len) {
		size_t want, n;
		u8 *buf;

		want = ktls_hs_want(c->hs, &buf);
		if (!want)
			break;
		n = min(want, len);
		memcpy(buf, data, n);
		ktls_hs_received(c->hs, n);
		data += n;
		len -= n;
	}
	c->unconsumed += len;
}

static void tc_header(u8 *rec, u8 type, size_t len)
{
	rec[0] = type;
	put_unaligned_be16(0x0303, rec + 1);
	put_unaligned_be16(len, rec + 3);
}

static void tc_send_plain(struct tc *c, u8 type, const u8 *data, size_t len,
			  size_t frag)
{
	while (len) {
		size_t n = min(len, frag);

		tc_header(c->scratch, type, n);
		memcpy(c->scratch + 5, data, n);
		tc_feed(c, c->scratch, 5 + n);
		data += n;
		len -= n;
	}
}

static void tc_send_ccs(struct tc *c, u8 value)
{
	tc_send_plain(c, KTLS_TYPE_CHANGE_CIPHER, &value, 1, 1);
}

/* AEAD over a record in place: 5 header bytes of AAD, then @len bytes. */
static int tc_crypt(struct tc *c, struct crypto_aead *tfm, bool enc,
		    const u8 *static_iv, u64 seq, u8 *rec, size_t len)
{
	DECLARE_CRYPTO_WAIT(wait);
	struct aead_request *req;
	struct scatterlist sg;
	u8 iv[16] = {}, *nonce = iv;
	int err, i;

	/* ccm(aes) takes A_0: the flags byte L - 1 = 2, nonce, counter 0. */
	if (c->suite == KTLS_SUITE_AES_128_CCM_SHA256) {
		iv[0] = 2;
		nonce = iv + 1;
	}
	memcpy(nonce, static_iv, 12);
	for (i = 0; i < 8; i++)
		nonce[11 - i] ^= (u8)(seq >> (8 * i));
	req = aead_request_alloc(tfm, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(c->test, req);
	sg_init_one(&sg, rec, 5 + len + (enc ? TC_TAG_LEN : 0));
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP,
				  crypto_req_done, &wait);
	aead_request_set_ad(req, 5);
	aead_request_set_crypt(req, &sg, &sg, len, iv);
	err = crypto_wait_req(enc ? crypto_aead_encrypt(req) :
			      crypto_aead_decrypt(req), &wait);
	aead_request_free(req);
	return err;
}

/* One protected record of @type carrying @len bytes and @pad zeros. */
static size_t tc_seal(struct tc *c, u8 *rec, u8 type, const u8 *data,
		      size_t len, size_t pad)
{
	size_t inner = len + 1 + pad;

	memmove(rec + 5, data, len);
	rec[5 + len] = type;
	memset(rec + 5 + len + 1, 0, pad);
	tc_header(rec, KTLS_TYPE_DATA, inner + TC_TAG_LEN);
	KUNIT_ASSERT_EQ(c->test, tc_crypt(c, c->tx_tfm, true, c->tx_iv,
					  c->tx_seq++, rec, inner), 0);
	return 5 + inner + TC_TAG_LEN;
}

static void tc_send_protected(struct tc *c, u8 type, const u8 *data,
			      size_t len)
{
	tc_feed(c, c->scratch, tc_seal(c, c->scratch, type, data, len, 3));
}

static void tc_put16(u8 *p, size_t *len, u16 v)
{
	put_unaligned_be16(v, p + *len);
	*len += 2;
}

/* Reserve a length field of @bytes, filled in by tc_close(). */
static size_t tc_open(size_t *len, int bytes)
{
	size_t at = *len;

	*len += bytes;
	return at;
}

static void tc_close(u8 *p, size_t len, size_t at, int bytes)
{
	size_t n = len - at - bytes;
	int i;

	for (i = bytes - 1; i >= 0; i--, n >>= 8)
		p[at + i] = n;
}

/* The @i-th group of those the client offers that we do not know. */
static u16 tc_unk_group(const struct tc *c, unsigned int i)
{
	return c->unk_first + i * (c->unk_step ?: 1);
}

static size_t tc_client_hello(struct tc *c, u8 *m)
{
	size_t len = 0, msg, list, exts, ext, sub;
	unsigned int i;

	m[len++] = KTLS_HS_CLIENT_HELLO;
	msg = tc_open(&len, 3);
	tc_put16(m, &len, c->legacy_set ? c->legacy_version : 0x0303);
	memcpy(m + len, c->random, 32);
	len += 32;
	m[len++] = c->sid_len;
	memcpy(m + len, c->sid, c->sid_len);
	len += c->sid_len;
	list = tc_open(&len, 2);
	for (i = 0; i < c->nr_suites; i++)
		tc_put16(m, &len, c->suites[i]);
	tc_close(m, len, list, 2);
	if (c->comp) {
		m[len++] = c->comp_len;
		memcpy(m + len, c->comp, c->comp_len);
		len += c->comp_len;
	} else {
		m[len++] = 1;
		m[len++] = 0;
	}

	exts = tc_open(&len, 2);
	if (c->sni) {
		tc_put16(m, &len, KTLS_EXT_SERVER_NAME);
		ext = tc_open(&len, 2);
		list = tc_open(&len, 2);
		m[len++] = KTLS_SNI_HOST_NAME;
		sub = tc_open(&len, 2);
		memcpy(m + len, c->sni, strlen(c->sni));
		len += strlen(c->sni);
		tc_close(m, len, sub, 2);
		tc_close(m, len, list, 2);
		tc_close(m, len, ext, 2);
	}
	if (c->nr_versions) {
		tc_put16(m, &len, KTLS_EXT_SUPPORTED_VERSIONS);
		ext = tc_open(&len, 2);
		list = tc_open(&len, 1);
		for (i = 0; i < c->nr_versions; i++)
			tc_put16(m, &len, c->versions[i]);
		tc_close(m, len, list, 1);
		tc_close(m, len, ext, 2);
	}
	if ((c->nr_groups || c->nr_unk) && !c->no_groups) {
		tc_put16(m, &len, KTLS_EXT_SUPPORTED_GROUPS);
		ext = tc_open(&len, 2);
		list = tc_open(&len, 2);
		for (i = 0; i < c->nr_unk && !c->unk_unlisted; i++)
			tc_put16(m, &len, tc_unk_group(c, i));
		for (i = 0; i < c->nr_groups; i++)
			tc_put16(m, &len, c->groups[i]);
		tc_close(m, len, list, 2);
		tc_close(m, len, ext, 2);
	}
	if (c->nr_sigalgs) {
		tc_put16(m, &len, KTLS_EXT_SIGNATURE_ALGORITHMS);
		ext = tc_open(&len, 2);
		list = tc_open(&len, 2);
		for (i = 0; i < c->nr_sigalgs; i++)
			tc_put16(m, &len, c->sigalgs[i]);
		tc_close(m, len, list, 2);
		tc_close(m, len, ext, 2);
	}
	if (c->alpn) {
		tc_put16(m, &len, KTLS_EXT_ALPN);
		ext = tc_open(&len, 2);
		list = tc_open(&len, 2);
		memcpy(m + len, c->alpn, c->alpn_len);
		len += c->alpn_len;
		tc_close(m, len, list, 2);
		tc_close(m, len, ext, 2);
	}
	if (c->early_data) {
		tc_put16(m, &len, KTLS_EXT_EARLY_DATA);
		tc_put16(m, &len, 0);
	}
	if (c->mfl) {
		tc_put16(m, &len, KTLS_EXT_MAX_FRAGMENT_LENGTH);
		tc_put16(m, &len, 1);
		m[len++] = 1;
	}
	if (c->rsl) {
		tc_put16(m, &len, KTLS_EXT_RECORD_SIZE_LIMIT);
		tc_put16(m, &len, 2);
		tc_put16(m, &len, c->rsl);
	}
	if (!c->no_key_share) {
		tc_put16(m, &len, KTLS_EXT_KEY_SHARE);
		ext = tc_open(&len, 2);
		list = tc_open(&len, 2);
		/* Shares of groups we do not know, in the first hello only. */
		for (i = 0; i < c->nr_unk && !c->hrr && !c->unk_no_shares; i++) {
			tc_put16(m, &len, tc_unk_group(c, i));
			tc_put16(m, &len, c->unk_len);
			memset(m + len, 0xab, c->unk_len);
			len += c->unk_len;
		}
		for (i = 0; i < c->nr_shares; i++) {
			u8 *key = m + len + 4;
			size_t klen = tc_share(c, c->shares[i], key);

			if (c->share_len_set) {
				if (c->share_len > klen)
					memset(key + klen, 0x55,
					       c->share_len - klen);
				klen = c->share_len;
			}
			if (c->share_fill_set)
				memset(key, c->share_fill, klen);
			tc_put16(m, &len, c->shares[i]);
			tc_put16(m, &len, klen);
			len += klen;
		}
		tc_close(m, len, list, 2);
		tc_close(m, len, ext, 2);
	}
	memcpy(m + len, c->extra, c->extra_len);
	len += c->extra_len;
	tc_close(m, len, exts, 2);
	tc_close(m, len, msg, 3);
	return len;
}

static void tc_send_client_hello(struct tc *c)
{
	u8 *m = kunit_kzalloc(c->test, TC_CH_MAX, GFP_KERNEL);
	size_t len;

	KUNIT_ASSERT_NOT_NULL(c->test, m);
	len = tc_client_hello(c, m);
	if (!c->hrr) {
		c->ch1 = m;
		c->ch1_len = len;
	} else {
		KUNIT_ASSERT_EQ(c->test, ktls_transcript_update(&c->t, m, len), 0);
	}
	/* Bytes behind the message in its record, for the hostile tests. */
	memset(m + len, KTLS_HS_FINISHED, c->ch_trailer);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, m, len + c->ch_trailer, c->frag);
}

static void tc_keys(struct tc *c, struct crypto_aead **tfm, u8 *iv,
		    const u8 *secret)
{
	const char *alg = c->suite == KTLS_SUITE_CHACHA20_POLY1305_SHA256 ?
			  "rfc7539(chacha20,poly1305)" :
			  c->suite == KTLS_SUITE_AES_128_CCM_SHA256 ?
			  "ccm(aes)" : "gcm(aes)";
	struct kunit *test = c->test;
	u8 key[32];

	KUNIT_ASSERT_EQ(test, ktls_tls13_traffic_keys(c->hash, secret, c->n,
						      key, c->key_len, iv,
						      12), 0);
	*tfm = crypto_alloc_aead(alg, 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(*tfm));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tc_free_tfm,
							*tfm), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(*tfm, key, c->key_len), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(*tfm, TC_TAG_LEN), 0);
}

static void tc_server_hello(struct tc *c, const u8 *m, size_t len)
{
	struct kunit *test = c->test;
	const u8 *p = m + 4, *end = m + len, *key = NULL;
	u16 suite, group = 0, klen = 0;
	u8 shared[64], early[48], secret[48], th[48];
	size_t shared_len = 32;
	bool hrr;

	KUNIT_ASSERT_GE(test, len, 4 + 2 + 32 + 1 + 32 + 2 + 1 + 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(p), 0x0303);
	hrr = !memcmp(p + 2, tc_hrr_random, 32);
	p += 34;
	KUNIT_ASSERT_EQ(test, *p, c->sid_len);
	KUNIT_EXPECT_EQ(test, memcmp(p + 1, c->sid, c->sid_len), 0);
	p += 1 + c->sid_len;
	suite = get_unaligned_be16(p);
	KUNIT_EXPECT_EQ(test, p[2], 0);
	KUNIT_ASSERT_EQ(test, (size_t)get_unaligned_be16(p + 3),
			(size_t)(end - (p + 5)));
	p += 5;
	while (p + 4 <= end) {
		u16 type = get_unaligned_be16(p), elen = get_unaligned_be16(p + 2);
		const u8 *body = p + 4;

		KUNIT_ASSERT_TRUE(test, body + elen <= end);
		if (type == KTLS_EXT_SUPPORTED_VERSIONS) {
			KUNIT_EXPECT_EQ(test, elen, 2);
			KUNIT_EXPECT_EQ(test, get_unaligned_be16(body),
					KTLS_VERSION_TLS13);
		} else if (type == KTLS_EXT_KEY_SHARE) {
			group = get_unaligned_be16(body);
			if (!hrr) {
				klen = get_unaligned_be16(body + 2);
				key = body + 4;
				KUNIT_ASSERT_EQ(test, elen, 4 + klen);
			}
		} else {
			KUNIT_FAIL(test, "unexpected extension %u", type);
		}
		p = body + elen;
	}
	KUNIT_ASSERT_NE(test, group, 0);

	if (!c->t_ready) {
		c->suite = suite;
		c->hash = suite == KTLS_SUITE_AES_256_GCM_SHA384 ?
			  KTLS_HASH_SHA384 : KTLS_HASH_SHA256;
		c->n = ktls_hash_size(c->hash);
		c->key_len = suite == KTLS_SUITE_AES_128_GCM_SHA256 ||
			     suite == KTLS_SUITE_AES_128_CCM_SHA256 ? 16 : 32;
		KUNIT_ASSERT_EQ(test, ktls_transcript_init(&c->t, c->hash), 0);
		KUNIT_ASSERT_EQ(test, ktls_transcript_update(&c->t, c->ch1,
							     c->ch1_len), 0);
		c->t_ready = true;
	} else {
		/* RFC 8446 4.1.4: the suite of the HRR stays. */
		KUNIT_EXPECT_EQ(test, suite, c->suite);
	}

	if (hrr) {
		KUNIT_ASSERT_FALSE_MSG(test, c->hrr, "a second HRR");
		c->hrr = true;
		c->hrr_group = group;
		KUNIT_ASSERT_EQ(test, ktls_transcript_hrr(&c->t), 0);
		KUNIT_ASSERT_EQ(test, ktls_transcript_update(&c->t, m, len), 0);
		return;
	}
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&c->t, m, len), 0);
	c->group = group;
	c->server_share_len = klen;
	switch (group) {
	case KTLS_GROUP_X25519:
		KUNIT_ASSERT_EQ(test, klen, 32);
		KUNIT_ASSERT_EQ(test, ktls_x25519(shared, c->x_priv, key), 0);
		break;
	case KTLS_GROUP_SECP256R1:
		KUNIT_ASSERT_EQ(test, klen, 65);
		KUNIT_ASSERT_EQ(test, ktls_p256_ecdh(shared, c->p_priv, key), 0);
		break;
	case KTLS_GROUP_X25519MLKEM768:
		/* Ciphertext, then X25519; the secrets in that order. */
		KUNIT_ASSERT_EQ(test, klen, KTLS_MLKEM768_CT_LEN + 32);
		KUNIT_ASSERT_EQ(test, ktls_mlkem768_decaps(shared, key,
							   KTLS_MLKEM768_CT_LEN,
							   c->m_dk,
							   c->m_scratch), 0);
		KUNIT_ASSERT_EQ(test, ktls_x25519(shared + 32, c->x_priv,
						  key + KTLS_MLKEM768_CT_LEN), 0);
		shared_len = 64;
		break;
	case KTLS_GROUP_SECP256R1MLKEM768:
		/* The P-256 point, then the ciphertext; likewise. */
		KUNIT_ASSERT_EQ(test, klen, 65 + KTLS_MLKEM768_CT_LEN);
		KUNIT_ASSERT_EQ(test, ktls_p256_ecdh(shared, c->p_priv, key), 0);
		KUNIT_ASSERT_EQ(test, ktls_mlkem768_decaps(shared + 32, key + 65,
							   KTLS_MLKEM768_CT_LEN,
							   c->m_dk,
							   c->m_scratch), 0);
		shared_len = 64;
		break;
	default:
		KUNIT_FAIL(test, "unexpected group %#x", group);
		return;
	}
	KUNIT_ASSERT_EQ(test, ktls_tls13_early_secret(c->hash, NULL, 0, early,
						      c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls13_handshake_secret(c->hash, early, c->n,
							  shared, shared_len,
							  secret, c->n), 0);
	memzero_explicit(shared, sizeof(shared));
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&c->t, th, c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(c->hash, KTLS_TLS13_C_HS_TRAFFIC,
						secret, c->n, th, c->n,
						c->c_hs, c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(c->hash, KTLS_TLS13_S_HS_TRAFFIC,
						secret, c->n, th, c->n,
						c->s_hs, c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls13_master_secret(c->hash, secret, c->n,
						       c->master, c->n), 0);
	tc_keys(c, &c->rx_tfm, c->rx_iv, c->s_hs);
	tc_keys(c, &c->tx_tfm, c->tx_iv, c->c_hs);
}

static void tc_encrypted_extensions(struct tc *c, const u8 *m, size_t len)
{
	struct kunit *test = c->test;
	const u8 *p = m + 6, *end = m + len;

	KUNIT_ASSERT_GE(test, len, 6);
	KUNIT_ASSERT_EQ(test, get_unaligned_be16(m + 4), len - 6);
	while (p + 4 <= end) {
		u16 type = get_unaligned_be16(p), elen = get_unaligned_be16(p + 2);

		if (type == KTLS_EXT_SERVER_NAME) {
			KUNIT_EXPECT_EQ(test, elen, 0);
			c->sni_acked = true;
		} else if (type == KTLS_EXT_ALPN) {
			KUNIT_ASSERT_GE(test, elen, 4);
			KUNIT_ASSERT_EQ(test, p[6], elen - 3);
			memcpy(c->alpn_got, p + 7, p[6]);
			c->alpn_got[p[6]] = '\0';
		} else if (type == KTLS_EXT_RECORD_SIZE_LIMIT) {
			KUNIT_ASSERT_EQ(test, elen, 2);
			c->rsl_got = get_unaligned_be16(p + 4);
		} else {
			KUNIT_FAIL(test, "unexpected extension %u", type);
		}
		p += 4 + elen;
	}
	KUNIT_EXPECT_PTR_EQ(test, p, end);
}

static void tc_certificate(struct tc *c, const u8 *m, size_t len)
{
	const struct ktls_identity *id = c->expect_id;
	struct kunit *test = c->test;
	const u8 *p = m + 8, *end = m + len;
	unsigned int nr = 0;

	KUNIT_ASSERT_GE(test, len, 8);
	KUNIT_EXPECT_EQ(test, m[4], 0);		/* certificate_request_context */
	KUNIT_ASSERT_EQ(test, get_unaligned_be24(m + 5), len - 8);
	while (p + 3 <= end) {
		size_t clen = get_unaligned_be24(p);

		KUNIT_ASSERT_LT(test, nr, id->nr_certs);
		KUNIT_ASSERT_EQ(test, clen, id->certs[nr].len);
		KUNIT_EXPECT_EQ(test, memcmp(p + 3, id->certs[nr].der, clen), 0);
		p += 3 + clen;
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(p), 0);
		p += 2;
		nr++;
	}
	KUNIT_EXPECT_EQ(test, nr, id->nr_certs);
}

static void tc_cert_verify(struct tc *c, const u8 *m, size_t len)
{
	static const char label[] = "TLS 1.3, server CertificateVerify";
	u8 content[64 + sizeof(label) + 48], digest[32], sig[64];
	struct kunit *test = c->test;
	size_t clen = 64 + sizeof(label) + c->n;

	/* RFC 8446 4.4.3, built here again rather than with the codec. */
	memset(content, 0x20, 64);
	memcpy(content + 64, label, sizeof(label));
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&c->t, content + 64 +
						     sizeof(label), c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_hash_digest(KTLS_HASH_SHA256, content, clen,
					       digest, 32), 0);
	KUNIT_ASSERT_GE(test, len, 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m + 4),
			KTLS_SIG_ECDSA_SECP256R1_SHA256);
	KUNIT_ASSERT_EQ(test, get_unaligned_be16(m + 6), len - 8);
	KUNIT_ASSERT_EQ(test, ktls_p256_sig_from_der(sig, m + 8, len - 8), 0);
	KUNIT_EXPECT_EQ(test, ktls_p256_ecdsa_verify(c->expect_id->public_key,
						     digest, 32, sig), 0);
}

static void tc_finished(struct tc *c, const u8 *m, size_t len)
{
	struct kunit *test = c->test;
	u8 th[48];

	KUNIT_ASSERT_EQ(test, len, 4 + c->n);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&c->t, th, c->n), 0);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_check(c->hash, c->s_hs, c->n,
							th, c->n, m + 4,
							c->n), 0);
	c->got_fin = true;
}

/*
 * RFC 8446 4.4.4, 7.1: what the server sends after its Finished is under
 * its first application traffic key, an alert included.
 */
static void tc_server_finished(struct tc *c)
{
	struct kunit *test = c->test;
	u8 s_ap[KTLS_HASH_MAX_SIZE];

	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&c->t, c->th_sf, c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(c->hash, KTLS_TLS13_S_AP_TRAFFIC,
						c->master, c->n, c->th_sf,
						c->n, s_ap, c->n), 0);
	tc_keys(c, &c->rx_tfm, c->rx_iv, s_ap);
	c->rx_seq = 0;
}

static void tc_server_message(struct tc *c, const u8 *m, size_t len)
{
	switch (m[0]) {
	case KTLS_HS_SERVER_HELLO:
		tc_server_hello(c, m, len);
		return;
	case KTLS_HS_ENCRYPTED_EXTENSIONS:
		tc_encrypted_extensions(c, m, len);
		break;
	case KTLS_HS_CERTIFICATE:
		tc_certificate(c, m, len);
		break;
	case KTLS_HS_CERTIFICATE_VERIFY:
		tc_cert_verify(c, m, len);
		break;
	case KTLS_HS_FINISHED:
		tc_finished(c, m, len);
		break;
	default:
		KUNIT_FAIL(c->test, "unexpected message %u", m[0]);
		return;
	}
	KUNIT_ASSERT_EQ(c->test, ktls_transcript_update(&c->t, m, len), 0);
	if (m[0] == KTLS_HS_FINISHED)
		tc_server_finished(c);
}

static void tc_handshake_bytes(struct tc *c, const u8 *data, size_t len)
{
	size_t mlen;

	KUNIT_ASSERT_LE(c->test, c->msg_len + len, TC_BUF_LEN);
	memcpy(c->msg + c->msg_len, data, len);
	c->msg_len += len;
	while (c->msg_len >= 4 &&
	       c->msg_len >= (mlen = 4 + get_unaligned_be24(c->msg + 1))) {
		tc_server_message(c, c->msg, mlen);
		memmove(c->msg, c->msg + mlen, c->msg_len - mlen);
		c->msg_len -= mlen;
	}
}

static void tc_record(struct tc *c, u8 *rec, size_t len)
{
	struct kunit *test = c->test;
	u8 *body = rec + 5;
	u8 type = rec[0];

	c->records++;
	if (type == KTLS_TYPE_CHANGE_CIPHER) {
		KUNIT_EXPECT_EQ(test, len, 1);
		KUNIT_EXPECT_EQ(test, body[0], 1);
		c->ccs_seen++;
		return;
	}
	if (type == KTLS_TYPE_DATA) {
		KUNIT_ASSERT_NOT_NULL(test, c->rx_tfm);
		KUNIT_ASSERT_GT(test, len, TC_TAG_LEN);
		KUNIT_ASSERT_EQ(test, tc_crypt(c, c->rx_tfm, false, c->rx_iv,
					       c->rx_seq++, rec, len), 0);
		len -= TC_TAG_LEN;
		while (len && !body[len - 1])
			len--;
		KUNIT_ASSERT_GT(test, len, 0);
		c->max_inner = max(c->max_inner, len);
		type = body[--len];
		KUNIT_EXPECT_LE(test, len, KTLS_MAX_PLAINTEXT);
		if (type == KTLS_TYPE_ALERT)
			c->alert_protected = true;
	}
	if (type == KTLS_TYPE_ALERT) {
		KUNIT_ASSERT_EQ(test, len, 2);
		KUNIT_EXPECT_EQ(test, body[0], KTLS_ALERT_LEVEL_FATAL);
		c->alert = body[1];
		return;
	}
	KUNIT_ASSERT_EQ(test, type, KTLS_TYPE_HANDSHAKE);
	tc_handshake_bytes(c, body, len);
}

/* Take all the engine queued, in pieces as TCP might, and parse it. */
static void tc_read(struct tc *c)
{
	const u8 *out;
	size_t n;

	while ((n = ktls_hs_output(c->hs, &out))) {
		n = min_t(size_t, n, 1000);
		KUNIT_ASSERT_LE(c->test, c->in_len + n, TC_BUF_LEN);
		memcpy(c->in + c->in_len, out, n);
		c->in_len += n;
		ktls_hs_output_sent(c->hs, n);
	}
	while (c->in_off + 5 <= c->in_len) {
		u8 *rec = c->in + c->in_off;
		size_t len = get_unaligned_be16(rec + 3);

		KUNIT_ASSERT_LE(c->test, c->in_off + 5 + len, c->in_len);
		c->in_off += 5 + len;
		tc_record(c, rec, len);
	}
	KUNIT_EXPECT_EQ(c->test, c->in_off, c->in_len);
}

static void tc_send_finished(struct tc *c, bool corrupt)
{
	u8 msg[4 + 48];

	msg[0] = KTLS_HS_FINISHED;
	put_unaligned_be24(c->n, msg + 1);
	KUNIT_ASSERT_EQ(c->test, ktls_tls13_finished(c->hash, c->c_hs, c->n,
						     c->th_sf, c->n, msg + 4,
						     c->n), 0);
	if (corrupt)
		msg[4] ^= 1;
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, msg, 4 + c->n);
}

/* ClientHello(s) and the server's answer, up to the client's Finished. */
static enum ktls_hs_status tc_hello(struct tc *c)
{
	tc_send_client_hello(c);
	tc_read(c);
	if (c->hrr && ktls_hs_status(c->hs) == KTLS_HS_RUNNING &&
	    !c->got_fin) {
		if (c->sid_len)
			tc_send_ccs(c, 1);
		c->shares[0] = c->hrr_group;
		c->nr_shares = 1;
		c->early_data = false;
		tc_send_client_hello(c);
		tc_read(c);
	}
	return ktls_hs_status(c->hs);
}

static enum ktls_hs_status tc_run(struct tc *c)
{
	if (tc_hello(c) != KTLS_HS_RUNNING)
		return ktls_hs_status(c->hs);
	KUNIT_ASSERT_TRUE(c->test, c->got_fin);
	if (c->sid_len && !c->hrr)
		tc_send_ccs(c, 1);
	tc_send_finished(c, false);
	tc_read(c);
	return ktls_hs_status(c->hs);
}

/* The engine's keys are what the client derives for each direction. */
static void tc_check_info(struct tc *c, const union ktls_crypto_info *ci,
			  const u8 *got_secret, enum ktls_tls13_secret which)
{
	static const u8 zero_seq[8];
	struct kunit *test = c->test;
	u8 secret[48], key[32], iv[12];

	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(c->hash, which, c->master, c->n,
						c->th_sf, c->n, secret,
						c->n), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls13_traffic_keys(c->hash, secret, c->n,
						      key, c->key_len, iv,
						      12), 0);
	/* The record layer follows KeyUpdate from this secret. */
	KUNIT_EXPECT_MEMEQ(test, got_secret, secret, c->n);
	KUNIT_EXPECT_EQ(test, ci->info.version, TLS_1_3_VERSION);
	switch (c->suite) {
	case KTLS_SUITE_AES_128_GCM_SHA256:
		KUNIT_EXPECT_EQ(test, ci->info.cipher_type, TLS_CIPHER_AES_GCM_128);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_128.key, key, 16);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_128.salt, iv, 4);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_128.iv, iv + 4, 8);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_128.rec_seq, zero_seq, 8);
		break;
	case KTLS_SUITE_AES_128_CCM_SHA256:
		KUNIT_EXPECT_EQ(test, ci->info.cipher_type, TLS_CIPHER_AES_CCM_128);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_ccm_128.key, key, 16);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_ccm_128.salt, iv, 4);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_ccm_128.iv, iv + 4, 8);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_ccm_128.rec_seq, zero_seq, 8);
		break;
	case KTLS_SUITE_AES_256_GCM_SHA384:
		KUNIT_EXPECT_EQ(test, ci->info.cipher_type, TLS_CIPHER_AES_GCM_256);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_256.key, key, 32);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_256.salt, iv, 4);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_256.iv, iv + 4, 8);
		KUNIT_EXPECT_MEMEQ(test, ci->aes_gcm_256.rec_seq, zero_seq, 8);
		break;
	default:
		KUNIT_EXPECT_EQ(test, ci->info.cipher_type,
				TLS_CIPHER_CHACHA20_POLY1305);
		KUNIT_EXPECT_MEMEQ(test, ci->chacha20_poly1305.key, key, 32);
		KUNIT_EXPECT_MEMEQ(test, ci->chacha20_poly1305.iv, iv, 12);
		KUNIT_EXPECT_MEMEQ(test, ci->chacha20_poly1305.rec_seq,
				   zero_seq, 8);
		break;
	}
}

static void tc_check_done(struct tc *c)
{
	const struct ktls_hs_session *s = ktls_hs_session(c->hs);
	struct kunit *test = c->test;
	struct ktls_hs_keys keys;
	u8 *buf;

	KUNIT_ASSERT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_DONE);
	KUNIT_EXPECT_EQ(test, ktls_hs_alert(c->hs), 0);
	KUNIT_EXPECT_EQ(test, c->alert, -1);
	KUNIT_EXPECT_EQ(test, ktls_hs_want(c->hs, &buf), 0);
	KUNIT_EXPECT_EQ(test, c->unconsumed, 0);
	KUNIT_EXPECT_EQ(test, s->version, TLS_1_3_VERSION);
	KUNIT_EXPECT_EQ(test, s->suite, c->suite);
	KUNIT_EXPECT_EQ(test, s->group, c->group);
	KUNIT_EXPECT_FALSE(test, s->resumed);
	KUNIT_EXPECT_STREQ(test, s->alpn, c->alpn_got);
	KUNIT_ASSERT_EQ(test, ktls_hs_keys(c->hs, &keys), 0);
	KUNIT_EXPECT_EQ(test, keys.secrets.hash, c->hash);
	KUNIT_EXPECT_EQ(test, keys.secrets.len, c->n);
	tc_check_info(c, &keys.rx, keys.secrets.rx, KTLS_TLS13_C_AP_TRAFFIC);
	tc_check_info(c, &keys.tx, keys.secrets.tx, KTLS_TLS13_S_AP_TRAFFIC);
}

/* The handshake ended in @alert, sent protected or not as said. */
static void tc_check_failed(struct tc *c, u8 alert, bool protected)
{
	struct kunit *test = c->test;
	const u8 *out;
	u8 *buf;

	KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_FAILED);
	KUNIT_EXPECT_EQ(test, ktls_hs_alert(c->hs), alert);
	tc_read(c);
	KUNIT_EXPECT_EQ(test, c->alert, alert);
	KUNIT_EXPECT_EQ(test, c->alert_protected, protected);
	/* Anything after failure is harmless and gets nothing. */
	KUNIT_EXPECT_EQ(test, ktls_hs_want(c->hs, &buf), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_received(c->hs, 0), KTLS_HS_FAILED);
	KUNIT_EXPECT_EQ(test, ktls_hs_output(c->hs, &out), 0);
}

/* ---------------------------------------------------- full handshakes */

struct hs_param {
	u16 suite;
	u16 group;
	bool hrr;
	const char *name;
};

static const struct hs_param hs_params[] = {
	{ KTLS_SUITE_AES_128_GCM_SHA256, KTLS_GROUP_X25519, false, "aes128 x25519" },
	{ KTLS_SUITE_AES_128_GCM_SHA256, KTLS_GROUP_SECP256R1, false, "aes128 p256" },
	{ KTLS_SUITE_AES_256_GCM_SHA384, KTLS_GROUP_X25519, false, "aes256 x25519" },
	{ KTLS_SUITE_AES_256_GCM_SHA384, KTLS_GROUP_SECP256R1, false, "aes256 p256" },
	{ KTLS_SUITE_CHACHA20_POLY1305_SHA256, KTLS_GROUP_X25519, false, "chacha x25519" },
	{ KTLS_SUITE_CHACHA20_POLY1305_SHA256, KTLS_GROUP_SECP256R1, false, "chacha p256" },
	{ KTLS_SUITE_AES_128_GCM_SHA256, KTLS_GROUP_X25519, true, "aes128 x25519 hrr" },
	{ KTLS_SUITE_AES_128_GCM_SHA256, KTLS_GROUP_SECP256R1, true, "aes128 p256 hrr" },
	{ KTLS_SUITE_AES_256_GCM_SHA384, KTLS_GROUP_X25519, true, "aes256 x25519 hrr" },
	{ KTLS_SUITE_AES_256_GCM_SHA384, KTLS_GROUP_SECP256R1, true, "aes256 p256 hrr" },
	{ KTLS_SUITE_CHACHA20_POLY1305_SHA256, KTLS_GROUP_X25519, true, "chacha x25519 hrr" },
	{ KTLS_SUITE_CHACHA20_POLY1305_SHA256, KTLS_GROUP_SECP256R1, true, "chacha p256 hrr" },
	{ KTLS_SUITE_AES_128_CCM_SHA256, KTLS_GROUP_X25519, false, "ccm x25519" },
	{ KTLS_SUITE_AES_128_CCM_SHA256, KTLS_GROUP_SECP256R1, true, "ccm p256 hrr" },
};

static void hs_param_desc(const struct hs_param *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hs, hs_params, hs_param_desc);

static void handshake(struct kunit *test)
{
	const struct hs_param *p = test->param_value;
	struct ktls_hs_config *cfg = test_config(test);
	struct ktls_hs *hs;
	struct tc *c;

	cfg->suites |= KTLS_HS_SUITE_AES_128_CCM_SHA256;
	hs = test_engine(test, cfg);
	c = tc_init(test, hs, cfg->identities[0]);
	c->suites[0] = p->suite;
	c->nr_suites = 1;
	c->groups[0] = p->group;
	c->nr_groups = 1;
	c->shares[0] = p->group;
	c->nr_shares = p->hrr ? 0 : 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	tc_check_done(c);
	KUNIT_EXPECT_EQ(test, c->hrr, p->hrr);
	KUNIT_EXPECT_EQ(test, c->group, p->group);
	KUNIT_EXPECT_EQ(test, c->ccs_seen, 1);
	/* [HRR,] CCS, ServerHello and the rest coalesced in one record. */
	KUNIT_EXPECT_EQ(test, c->records, p->hrr ? 4 : 3);
	KUNIT_EXPECT_EQ(test, ktls_hs_session(hs)->cipher_type,
			p->suite == KTLS_SUITE_AES_128_GCM_SHA256 ?
			TLS_CIPHER_AES_GCM_128 :
			p->suite == KTLS_SUITE_AES_256_GCM_SHA384 ?
			TLS_CIPHER_AES_GCM_256 :
			p->suite == KTLS_SUITE_AES_128_CCM_SHA256 ?
			TLS_CIPHER_AES_CCM_128 : TLS_CIPHER_CHACHA20_POLY1305);
}

/* X25519 over P-256 when both shares came; P-256 rather than a round trip. */
static void group_preference(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->shares[0] = KTLS_GROUP_SECP256R1;
	c->shares[1] = KTLS_GROUP_X25519;
	c->nr_shares = 2;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_EQ(test, c->group, KTLS_GROUP_X25519);
	tc_check_done(c);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->shares[0] = KTLS_GROUP_SECP256R1;
	c->nr_shares = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_EQ(test, c->group, KTLS_GROUP_SECP256R1);
	KUNIT_EXPECT_FALSE(test, c->hrr);
	tc_check_done(c);

	/* The client's suite order, among what the listener allows. */
	cfg->groups = KTLS_HS_GROUP_SECP256R1;
	cfg->suites = KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256 | KTLS_HS_SUITE_AES_256_GCM_SHA384;
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_TRUE(test, c->hrr);
	KUNIT_EXPECT_EQ(test, c->group, KTLS_GROUP_SECP256R1);
	KUNIT_EXPECT_EQ(test, c->suite, KTLS_SUITE_AES_256_GCM_SHA384);
	tc_check_done(c);
}

static void alpn(struct kunit *test)
{
	static const char ours[] = "\x02h2\x08http/1.1";
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	test_config_alpn(cfg, ours, sizeof(ours) - 1);

	/* Server order wins. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->alpn = "\x08http/1.1\x02h2";
	c->alpn_len = 12;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_STREQ(test, c->alpn_got, "h2");
	tc_check_done(c);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->alpn = "\x03\x66oo\x08http/1.1";
	c->alpn_len = 13;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_STREQ(test, c->alpn_got, "http/1.1");
	tc_check_done(c);

	/* No ALPN from the client: none chosen. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_STREQ(test, c->alpn_got, "");
	tc_check_done(c);

	/* RFC 7301 3.2: both sides speak ALPN and share nothing. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->alpn = "\x06spdy/3";
	c->alpn_len = 7;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_NO_APPLICATION_PROTOCOL, false);

	/* A listener without ALPN ignores the client's. */
	cfg->alpn_len = 0;
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->alpn = "\x06spdy/3";
	c->alpn_len = 7;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_STREQ(test, c->alpn_got, "");
	tc_check_done(c);
}

/*
 * RFC 8449: the client's record_size_limit bounds every protected record
 * the server sends, handshake ones included (its inner plaintext counts
 * the content type), and reaches the record layer for the application's;
 * the server answers with 2^14 + 1 in EncryptedExtensions.  A limit over
 * the protocol's is taken as the protocol's; under 64 is refused;
 * max_fragment_length beside it is ignored (RFC 8449 5).  The engine
 * lies in the pool's block, which leaves these a chain room for the
 * smallest limit.
 */
static void rfc8449_record_size_limit(struct kunit *test)
{
	static const struct {
		u16 rsl;
		bool mfl, hrr;
		u16 max_plain;
	} cases[] = {
		{ 64, false, false, 63 },
		{ 64, false, true, 63 },
		{ 256, true, false, 255 },
		{ 16385, false, false, 16384 },
		{ 65535, false, true, 16384 },
	};
	struct ktls_hs_config *cfg = test_config(test);
	struct ktls_identity *id;
	struct ktls_hs_keys keys;
	unsigned int i;
	struct tc *c;

	/* A chain of a few KB, so the Certificate spans many records. */
	id = test_identity(test, 9, "www.example.test", 3000, 2);
	cfg->identities[0] = id;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c = tc_init(test, test_engine_pooled(test, cfg), id);
		c->rsl = cases[i].rsl;
		c->mfl = cases[i].mfl;
		if (cases[i].hrr)
			c->nr_shares = 0;
		KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
		tc_check_done(c);
		KUNIT_EXPECT_EQ(test, c->hrr, cases[i].hrr);
		KUNIT_EXPECT_EQ(test, c->rsl_got, 16385);
		KUNIT_EXPECT_LE_MSG(test, c->max_inner,
				    (size_t)cases[i].max_plain + 1,
				    "limit %u", cases[i].rsl);
		if (cases[i].rsl < 1000)
			KUNIT_EXPECT_GT(test, c->records, 3000 / cases[i].rsl);
		KUNIT_ASSERT_EQ(test, ktls_hs_keys(c->hs, &keys), 0);
		KUNIT_EXPECT_EQ(test, keys.max_plain, cases[i].max_plain);
		KUNIT_EXPECT_FALSE(test,
				   ktls_hs_session(c->hs)->record_limit_declined);
	}

	/* None sent: none answered, no cap. */
	c = tc_init(test, test_engine(test, cfg), id);
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	tc_check_done(c);
	KUNIT_EXPECT_EQ(test, c->rsl_got, 0);
	KUNIT_ASSERT_EQ(test, ktls_hs_keys(c->hs, &keys), 0);
	KUNIT_EXPECT_EQ(test, keys.max_plain, 0);

	/* RFC 8449 4: under 64 is illegal_parameter, before anything else. */
	c = tc_init(test, test_engine(test, cfg), id);
	c->rsl = 63;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);
}

/*
 * The output buffer is sized for records of 2^14 bytes: a chain that
 * fills it leaves no room for the framing of a limit of 64, which is
 * then not acknowledged (RFC 8449 4: not negotiated, records of any size
 * the protocol permits), and the keys carry no cap.  The same chain
 * takes a limit whose framing fits, and a small chain the smallest.
 */
static void rfc8449_record_size_limit_declined(struct kunit *test)
{
	static const struct {
		size_t cert_len;
		u16 rsl;
		bool declined;
	} cases[] = {
		{ 15000, 64, true },
		{ 15000, 256, false },
		{ 15000, 16385, false },
		{ 600, 64, false },
	};
	struct ktls_hs_config *cfg;
	struct ktls_identity *id;
	struct ktls_hs_keys keys;
	unsigned int i;
	struct tc *c;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cfg = test_config(test);
		id = test_identity(test, 9, "www.example.test",
				   cases[i].cert_len, 2);
		cfg->identities[0] = id;
		c = tc_init(test, test_engine_pooled(test, cfg), id);
		c->rsl = cases[i].rsl;
		KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
		tc_check_done(c);
		KUNIT_EXPECT_EQ_MSG(test,
				    ktls_hs_session(c->hs)->record_limit_declined,
				    cases[i].declined, "case %u", i);
		KUNIT_ASSERT_EQ(test, ktls_hs_keys(c->hs, &keys), 0);
		if (cases[i].declined) {
			KUNIT_EXPECT_EQ(test, c->rsl_got, 0);
			KUNIT_EXPECT_EQ(test, keys.max_plain, 0);
			/* The Certificate goes in records of up to 2^14. */
			KUNIT_EXPECT_GT(test, c->max_inner, 1000);
		} else {
			KUNIT_EXPECT_EQ(test, c->rsl_got, 16385);
			KUNIT_EXPECT_EQ(test, keys.max_plain,
					min(cases[i].rsl - 1, 16384));
			KUNIT_EXPECT_LE(test, c->max_inner,
					(size_t)min(cases[i].rsl, 16385));
		}
	}
}

static void sni(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct ktls_identity *b;
	struct tc *c;

	b = test_identity(test, 0x22, "b.example", 500, 1);
	cfg->identities[1] = b;
	cfg->nr_identities = 2;

	c = tc_init(test, test_engine(test, cfg), b);
	c->sni = "b.example";
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_TRUE(test, c->sni_acked);
	KUNIT_EXPECT_STREQ(test, ktls_hs_session(c->hs)->sni, "b.example");
	tc_check_done(c);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sni = "a.example";
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_TRUE(test, c->sni_acked);
	tc_check_done(c);

	/* No match: the first identity, and no acknowledgment. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sni = "c.example";
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_FALSE(test, c->sni_acked);
	KUNIT_EXPECT_STREQ(test, ktls_hs_session(c->hs)->sni, "c.example");
	tc_check_done(c);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_FALSE(test, c->sni_acked);
	KUNIT_EXPECT_STREQ(test, ktls_hs_session(c->hs)->sni, "");
	tc_check_done(c);
}

/* A first hello handed back: nothing sent, nothing more taken. */
static void tc_check_handed_back(struct tc *c, u8 alert)
{
	struct kunit *test = c->test;
	const u8 *out;
	u8 *buf;

	KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_HANDED_BACK);
	KUNIT_EXPECT_EQ(test, ktls_hs_alert(c->hs), alert);
	KUNIT_EXPECT_EQ(test, c->records, 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_output(c->hs, &out), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_want(c->hs, &buf), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_received(c->hs, 0), KTLS_HS_HANDED_BACK);
}

/* KTLS_HS_SNI_POLICY, and KTLS_HS_FALLBACK for what we lack. */
static void sni_policy_fallback(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	cfg->sni_policy = KTLS_HS_SNI_REJECT;
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sni = "c.example";
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_UNRECOGNIZED_NAME, false);
	/* A known name, or none, is served as ever. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sni = "A.Example";
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	tc_check_done(c);
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	tc_check_done(c);

	cfg->sni_policy = KTLS_HS_SNI_FALLBACK;
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sni = "c.example";
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_HANDED_BACK);
	tc_check_handed_back(c, KTLS_ALERT_UNRECOGNIZED_NAME);
	KUNIT_EXPECT_STREQ(test, ktls_hs_session(c->hs)->sni, "c.example");
	/* The name policy alone hands over nothing else. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->versions[0] = KTLS_VERSION_TLS12;
	c->nr_versions = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_PROTOCOL_VERSION, false);

	cfg->sni_policy = KTLS_HS_SNI_DEFAULT;
	cfg->fallback = true;
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->versions[0] = KTLS_VERSION_TLS12;
	c->nr_versions = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_HANDED_BACK);
	tc_check_handed_back(c, KTLS_ALERT_PROTOCOL_VERSION);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->suites[0] = 0x1304;		/* TLS_AES_128_CCM_SHA256, not allowed */
	c->nr_suites = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_HANDED_BACK);
	tc_check_handed_back(c, KTLS_ALERT_HANDSHAKE_FAILURE);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->groups[0] = 0x0100;		/* ffdhe2048 */
	c->nr_groups = 1;
	c->nr_shares = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_HANDED_BACK);
	tc_check_handed_back(c, KTLS_ALERT_HANDSHAKE_FAILURE);

	/* Malformed or out of protocol: the alert, never the hand-over. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->no_key_share = true;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_MISSING_EXTENSION, false);
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->versions[0] = KTLS_VERSION_TLS12;
	c->nr_versions = 1;
	c->ch_trailer = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);

	/* What we can serve, we serve, HelloRetryRequest included. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sni = "c.example";
	c->shares[0] = KTLS_GROUP_SECP256R1;
	c->groups[0] = KTLS_GROUP_SECP256R1;
	c->nr_groups = 1;
	c->nr_shares = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_TRUE(test, c->hrr);
	tc_check_done(c);

	/* The second hello is past the point of no return. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->groups[0] = KTLS_GROUP_SECP256R1;
	c->nr_groups = 1;
	c->nr_shares = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->hrr);
	c->versions[0] = KTLS_VERSION_TLS12;
	c->nr_versions = 1;
	c->shares[0] = KTLS_GROUP_SECP256R1;
	c->nr_shares = 1;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_FAILED);
}

/* A chain too big for one record: the flight spans several. */
static void large_chain(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	cfg->identities[0] = test_identity(test, 0x33, "a.example", 12000, 2);
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	tc_check_done(c);
	/* ServerHello, CCS, two protected records. */
	KUNIT_EXPECT_EQ(test, c->records, 4);
}

/* One-byte records, and a client without a session id (no CCS). */
static void fragmented_hello(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->frag = 1;
	c->sid_len = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_EQ(test, c->ccs_seen, 0);
	tc_check_done(c);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->frag = 7;
	c->nr_shares = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_TRUE(test, c->hrr);
	tc_check_done(c);
}

/* RFC 8446 4.2.10: early data the server declines is skipped. */
static void early_data_skipped(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	u8 junk[5 + 64];
	struct tc *c;

	/* Records under a key the server never had. */
	get_random_bytes(junk, sizeof(junk));
	tc_header(junk, KTLS_TYPE_DATA, sizeof(junk) - 5);
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->early_data = true;
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_feed(c, junk, sizeof(junk));
	tc_feed(c, junk, sizeof(junk));
	tc_send_ccs(c, 1);
	tc_send_finished(c, false);
	tc_read(c);
	tc_check_done(c);

	/* Once a record opened, no more skipping. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->early_data = true;
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, "\x14\x00", 2);
	tc_feed(c, junk, sizeof(junk));
	tc_check_failed(c, KTLS_ALERT_BAD_RECORD_MAC, true);
}

/* ------------------------------------------------------ hostile input */

static void bad_finished(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);

	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_finished(c, true);
	tc_check_failed(c, KTLS_ALERT_DECRYPT_ERROR, true);

	/* A Finished of the wrong length. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, "\x14\x00\x00\x01\x00", 5);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, true);

	/* A ciphertext that does not open. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	c->tx_seq++;
	tc_send_finished(c, false);
	tc_check_failed(c, KTLS_ALERT_BAD_RECORD_MAC, true);

	/* Application data before the Finished. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_DATA, "GET /", 5);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);

	/* A plaintext handshake record once keys changed. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, "\x14\x00\x00\x00", 4, 4);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);
}

static void bad_records(struct kunit *test)
{
	static const u8 http[] = "GET / HTTP/1.1\r\n\r\n";
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;
	u8 hdr[5];

	/* Not TLS at all. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_feed(c, http, sizeof(http) - 1);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);
	KUNIT_EXPECT_GT(test, c->unconsumed, 0);

	/* RFC 8446 5.1: plaintext beyond 2^14. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_header(hdr, KTLS_TYPE_HANDSHAKE, KTLS_MAX_PLAINTEXT + 1);
	tc_feed(c, hdr, sizeof(hdr));
	tc_check_failed(c, KTLS_ALERT_RECORD_OVERFLOW, false);

	/* RFC 8446 5.2: ciphertext beyond 2^14 + 256. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_header(hdr, KTLS_TYPE_DATA, KTLS_MAX_PLAINTEXT + 257);
	tc_feed(c, hdr, sizeof(hdr));
	tc_check_failed(c, KTLS_ALERT_RECORD_OVERFLOW, true);

	/* Application data before any key. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_header(hdr, KTLS_TYPE_DATA, 20);
	tc_feed(c, hdr, sizeof(hdr));
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);

	/* A zero-length handshake fragment. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_header(hdr, KTLS_TYPE_HANDSHAKE, 0);
	tc_feed(c, hdr, sizeof(hdr));
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);

	/* A ClientHello longer than we buffer (8 KiB plus a record). */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, "\x01\x00\x80\x00", 4, 4);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* Another message than ClientHello first. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, "\x14\x00\x00\x00", 4, 4);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);

	/* The client gives up: nothing to answer. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_ALERT, "\x02\x28", 2, 2);
	KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_FAILED);
	KUNIT_EXPECT_EQ(test, ktls_hs_alert(c->hs), 0);
	tc_read(c);
	KUNIT_EXPECT_EQ(test, c->records, 0);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_ALERT, "\x02\x30", 2);
	KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_FAILED);
	KUNIT_EXPECT_EQ(test, ktls_hs_alert(c->hs), 0);
}

/*
 * A length impossible for the message's type is malformed (decode_error),
 * found on the header alone; a legal one past what we buffer is refused.
 */
static void message_lengths(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	u8 msg[4 + KTLS_HASH_MAX_SIZE];
	struct tc *c;

	/* A Finished one byte short of Hash.length. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished(c->hash, c->c_hs, c->n,
						  c->th_sf, c->n, msg + 4,
						  c->n), 0);
	msg[0] = KTLS_HS_FINISHED;
	put_unaligned_be24(c->n - 1, msg + 1);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, msg, 4 + c->n - 1);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, true);

	/* A Finished claiming 64 KB: no hash is that long. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, "\x14\x01\x00\x00", 4);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, true);

	/* A ClientHello longer than RFC 8446 4.1.2 allows any to be. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, "\x01\x03\x00\x00", 4, 4);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, false);

	/* Legal, but longer than we buffer. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, "\x01\x00\x80\x00", 4, 4);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* The wrong type is told on its header, whatever its length. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, "\x0b\xff\xff\xff", 4);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);
}

/* RFC 8446 5.1, 6: an alert record is one Alert, never empty nor split. */
static void bad_alert_records(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_ALERT, "\x02\x28\x00", 3, 3);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_header(c->scratch, KTLS_TYPE_ALERT, 0);
	tc_feed(c, c->scratch, 5);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_ALERT, "\x02", 1, 1);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_ALERT, "", 0);
	tc_check_failed(c, KTLS_ALERT_DECODE_ERROR, true);
}

/*
 * RFC 8446 5.2, 5.4: TLSInnerPlaintext up to 2^14 + 1 bytes is fine,
 * however much of it is padding; one byte more is record_overflow, sent
 * under the key the client reads at that point.
 */
static void record_limits(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	u8 msg[4 + KTLS_HASH_MAX_SIZE];
	size_t pad;
	struct tc *c;
	int i;

	for (i = 0; i < 2; i++) {
		c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
		KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
		msg[0] = KTLS_HS_FINISHED;
		put_unaligned_be24(c->n, msg + 1);
		KUNIT_ASSERT_EQ(test, ktls_tls13_finished(c->hash, c->c_hs,
							  c->n, c->th_sf, c->n,
							  msg + 4, c->n), 0);
		/* Content, its type, padding: 2^14 + 1, then one more. */
		pad = KTLS_MAX_PLAINTEXT - (4 + c->n) + i;
		tc_feed(c, c->scratch, tc_seal(c, c->scratch,
					       KTLS_TYPE_HANDSHAKE, msg,
					       4 + c->n, pad));
		if (!i) {
			tc_read(c);
			tc_check_done(c);
		} else {
			tc_check_failed(c, KTLS_ALERT_RECORD_OVERFLOW, true);
		}
	}
}

static void bad_ccs(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	unsigned int i;
	struct tc *c;

	/* Before the ClientHello. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_ccs(c, 1);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);

	/* Any other value. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_ccs(c, 2);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);

	/* More than one: RFC 8446 5 has each dropped. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	for (i = 0; i < 3; i++) {
		tc_send_ccs(c, 1);
		KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_RUNNING);
	}

	/* Two bytes. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_plain(c, KTLS_TYPE_CHANGE_CIPHER, "\x01\x01", 2, 2);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);

	/* Protected. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	tc_send_protected(c, KTLS_TYPE_CHANGE_CIPHER, "\x01", 1);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);

	/* Between two fragments of the ClientHello (RFC 8446 5.1). */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	tc_send_plain(c, KTLS_TYPE_HANDSHAKE, "\x01\x00", 2, 2);
	tc_send_ccs(c, 1);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);
}

/* RFC 8446 5.1: a message before a key change must end its record. */
static void key_change_alignment(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	u8 msg[2 * (4 + KTLS_HASH_MAX_SIZE)];
	struct tc *c;

	/* ClientHello and the start of another message in one record. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->ch_trailer = 4;
	tc_send_client_hello(c);
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, false);

	/* Finished and one more in one protected record. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	msg[0] = KTLS_HS_FINISHED;
	put_unaligned_be24(c->n, msg + 1);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished(c->hash, c->c_hs, c->n,
						  c->th_sf, c->n, msg + 4,
						  c->n), 0);
	memcpy(msg + 4 + c->n, msg, 4 + c->n);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, msg, 2 * (4 + c->n));
	tc_check_failed(c, KTLS_ALERT_UNEXPECTED_MESSAGE, true);

	/* The Finished split over two protected records is fine. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	KUNIT_ASSERT_EQ(test, tc_hello(c), KTLS_HS_RUNNING);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished(c->hash, c->c_hs, c->n,
						  c->th_sf, c->n, msg + 4,
						  c->n), 0);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, msg, 10);
	tc_send_protected(c, KTLS_TYPE_HANDSHAKE, msg + 10, 4 + c->n - 10);
	tc_read(c);
	tc_check_done(c);
}

static void bad_hello(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	/* TLS 1.2 only, with and without supported_versions. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->versions[0] = KTLS_VERSION_TLS12;
	c->nr_versions = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_PROTOCOL_VERSION, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_versions = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_PROTOCOL_VERSION, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->no_key_share = true;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_MISSING_EXTENSION, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_sigalgs = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_MISSING_EXTENSION, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_groups = 0;
	c->nr_shares = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_MISSING_EXTENSION, false);

	/* Nothing in common. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->sigalgs[1] = 0x0503;		/* ecdsa_secp384r1_sha384 */
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_HANDSHAKE_FAILURE, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->suites[0] = 0x1304;		/* TLS_AES_128_CCM_SHA256, not allowed */
	c->nr_suites = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_HANDSHAKE_FAILURE, false);

	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->groups[0] = 0x0018;		/* secp384r1 */
	c->nr_groups = 1;
	c->nr_shares = 0;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_HANDSHAKE_FAILURE, false);

	/* A share of a group it did not list (RFC 8446 4.2.8). */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->groups[0] = KTLS_GROUP_SECP256R1;
	c->nr_groups = 1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* A small-order X25519 key: an all-zero secret (RFC 8446 7.4.2). */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->zero_x25519 = true;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* A P-256 point off the curve. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->p_pub[64] ^= 1;
	c->shares[0] = KTLS_GROUP_SECP256R1;
	KUNIT_EXPECT_EQ(test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);
}

static void bad_hello_retry(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	/* Still no share of the group asked for. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_shares = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->hrr);
	KUNIT_EXPECT_EQ(test, c->hrr_group, KTLS_GROUP_X25519);
	tc_send_ccs(c, 1);
	tc_send_client_hello(c);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* A share of another group. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_shares = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->hrr);
	c->shares[0] = KTLS_GROUP_SECP256R1;
	c->nr_shares = 1;
	tc_send_client_hello(c);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* Other suites the second time. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_shares = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->hrr);
	c->shares[0] = c->hrr_group;
	c->nr_shares = 1;
	c->nr_suites = 1;
	tc_send_client_hello(c);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);

	/* Early data offered again. */
	c = tc_init(test, test_engine(test, cfg), cfg->identities[0]);
	c->nr_shares = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->hrr);
	c->shares[0] = c->hrr_group;
	c->nr_shares = 1;
	c->early_data = true;
	tc_send_client_hello(c);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);
}

/* ------------------------------------------- ClientHellos by RFC clause */

/* A fresh client of a fresh engine under @cfg. */
static struct tc *tc_new(struct kunit *test, struct ktls_hs_config *cfg)
{
	return tc_init(test, test_engine(test, cfg), cfg->identities[0]);
}

/* The whole handshake went through, on the group @group. */
static void tc_expect_done(struct tc *c, u16 group, bool hrr)
{
	KUNIT_EXPECT_EQ(c->test, tc_run(c), KTLS_HS_DONE);
	KUNIT_EXPECT_EQ(c->test, c->group, group);
	KUNIT_EXPECT_EQ(c->test, c->hrr, hrr);
	tc_check_done(c);
}

/* The first ClientHello got @alert, in plaintext. */
static void tc_expect_alert(struct tc *c, u8 alert)
{
	KUNIT_EXPECT_EQ(c->test, tc_run(c), KTLS_HS_FAILED);
	tc_check_failed(c, alert, false);
}

struct unk_case {
	const char *name;
	u16 first, step;
	unsigned int nr;
	size_t share;		/* 0: no shares of them */
	u16 known_share;	/* 0: none */
	bool known_group;	/* X25519 listed beside them */
	int alert;		/* 0: done; -1: done after a retry */
};

static const struct unk_case unk_cases[] = {
	{ "EC range, 64-byte shares, X25519 share", 34, 1, 221, 64,
	  KTLS_GROUP_X25519, true, 0 },
	{ "EC range, 64-byte shares, X25519 listed", 34, 1, 221, 64, 0, true,
	  -1 },
	{ "EC range, 64-byte shares only", 34, 1, 221, 64, 0, false,
	  KTLS_ALERT_HANDSHAKE_FAILURE },
	{ "FFDHE range, 256-byte shares, X25519 share", 0x0100, 1, 60, 256,
	  KTLS_GROUP_X25519, true, 0 },
	{ "FFDHE range, 128-byte shares, X25519 listed", 0x0100, 1, 100, 128,
	  0, true, -1 },
	{ "FFDHE range, 256-byte shares only", 0x0100, 1, 60, 256, 0, false,
	  KTLS_ALERT_HANDSHAKE_FAILURE },
	{ "FFDHE groups listed only", 0x0100, 1, 5, 0, 0, false,
	  KTLS_ALERT_HANDSHAKE_FAILURE },
	{ "GREASE, 1-byte shares, P-256 share", 0x0a0a, 0x1010, 16, 1,
	  KTLS_GROUP_SECP256R1, true, 0 },
	{ "GREASE only", 0x0a0a, 0x1010, 16, 1, 0, false,
	  KTLS_ALERT_HANDSHAKE_FAILURE },
	{ "secp384r1 and secp521r1 shares, X25519 listed", 0x0018, 1, 2, 97,
	  0, true, -1 },
	{ "secp384r1 and secp521r1 only", 0x0018, 1, 2, 97, 0, false,
	  KTLS_ALERT_HANDSHAKE_FAILURE },
	{ "x448 share, X25519 share", 0x001e, 1, 1, 56, KTLS_GROUP_X25519,
	  true, 0 },
	{ "x448 only", 0x001e, 1, 1, 56, 0, false,
	  KTLS_ALERT_HANDSHAKE_FAILURE },
	/* Past what the engine buffers (~23 KB): refused, not misread. */
	{ "FFDHE range, 256-byte shares, 31 KB", 0x0100, 1, 120, 256,
	  KTLS_GROUP_X25519, true, KTLS_ALERT_ILLEGAL_PARAMETER },
};

static void unk_case_desc(const struct unk_case *u, char *desc)
{
	strscpy(desc, u->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(unk, unk_cases, unk_case_desc);

/*
 * RFC 8446 4.2.7, 4.2.8: groups and shares we do not recognise are
 * ignored: a share we can use is answered, a group we can use without
 * a share gets a HelloRetryRequest, nothing usable handshake_failure.
 */
static void rfc8446_4_2_8_unknown_groups(struct kunit *test)
{
	const struct unk_case *u = test->param_value;
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c = tc_new(test, cfg);

	c->unk_first = u->first;
	c->unk_step = u->step;
	c->nr_unk = u->nr;
	c->unk_len = u->share;
	c->unk_no_shares = !u->share;
	c->groups[0] = KTLS_GROUP_X25519;
	c->nr_groups = u->known_group;
	if (u->known_share == KTLS_GROUP_SECP256R1)
		c->groups[0] = KTLS_GROUP_SECP256R1;
	c->shares[0] = u->known_share;
	c->nr_shares = !!u->known_share;
	if (u->alert > 0)
		tc_expect_alert(c, u->alert);
	else
		tc_expect_done(c, c->groups[0], u->alert < 0);
}

/*
 * RFC 8446 4.2.8: a share of a group we implement that the client did
 * not list, or two of one group, is illegal_parameter; the same of a
 * group we do not know is ignored.
 */
static void rfc8446_4_2_8_share_list_rules(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	c = tc_new(test, cfg);
	c->shares[1] = KTLS_GROUP_X25519;
	c->nr_shares = 2;
	tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);

	/* An unknown group's share it did not list. */
	c = tc_new(test, cfg);
	c->unk_first = 0x0123;
	c->nr_unk = 1;
	c->unk_len = 64;
	c->unk_unlisted = true;
	tc_expect_done(c, KTLS_GROUP_X25519, false);
}

/*
 * RFC 8446 4.2.8.1, 4.2.8.2, 7.4.2: a share of the wrong length (empty
 * included), a P-256 share not an uncompressed point of the curve, and
 * an X25519 share giving the all-zero secret are illegal_parameter.
 */
static void rfc8446_4_2_8_share_encoding(struct kunit *test)
{
	static const struct {
		u16 group;
		size_t len;
		bool fill;
		u8 byte;
	} bad[] = {
		{ KTLS_GROUP_X25519, 0, false, 0 },
		{ KTLS_GROUP_X25519, 1, true, 0 },
		{ KTLS_GROUP_X25519, 31, false, 0 },
		{ KTLS_GROUP_X25519, 33, false, 0 },
		{ KTLS_GROUP_X25519, 32, true, 0 },
		{ KTLS_GROUP_SECP256R1, 0, false, 0 },
		{ KTLS_GROUP_SECP256R1, 1, true, 0 },
		{ KTLS_GROUP_SECP256R1, 33, false, 0 },
		{ KTLS_GROUP_SECP256R1, 64, false, 0 },
		{ KTLS_GROUP_SECP256R1, 66, false, 0 },
		{ KTLS_GROUP_SECP256R1, 65, true, 0 },
		{ KTLS_GROUP_SECP256R1, 65, true, 0x04 },
		{ KTLS_GROUP_SECP256R1, 65, true, 0xff },
	};
	struct ktls_hs_config *cfg = test_config(test);
	unsigned int i;
	struct tc *c;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c = tc_new(test, cfg);
		c->shares[0] = bad[i].group;
		c->share_len_set = true;
		c->share_len = bad[i].len;
		c->share_fill_set = bad[i].fill;
		c->share_fill = bad[i].byte;
		tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
	}
}

/* ---------------------------------------- post-quantum hybrid groups */

#define TC_HYBRIDS	(KTLS_HS_GROUP_X25519MLKEM768 | \
			 KTLS_HS_GROUP_SECP256R1MLKEM768)

static struct ktls_hs_config *test_config_hybrid(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);

	cfg->groups |= TC_HYBRIDS;
	return cfg;
}

/*
 * A client as browsers and Go are: @group listed first, then X25519 and
 * P-256, with a share of @group and, if @x25519, one of X25519.
 */
static struct tc *tc_hybrid(struct kunit *test, struct ktls_hs_config *cfg,
			    u16 group, bool x25519)
{
	struct tc *c = tc_new(test, cfg);

	c->groups[0] = group;
	c->groups[1] = KTLS_GROUP_X25519;
	c->groups[2] = KTLS_GROUP_SECP256R1;
	c->nr_groups = 3;
	c->shares[0] = group;
	c->shares[1] = KTLS_GROUP_X25519;
	c->nr_shares = x25519 ? 2 : 1;
	return c;
}

/*
 * draft-ietf-tls-ecdhe-mlkem: the handshake completes on each hybrid,
 * our share of the group's length.  The client finds the ciphertext and
 * the ECDH share where the draft puts them, decapsulates with its own
 * key and concatenates the secrets in the draft's order: the Finished
 * and the traffic keys agree only if the server did the same.
 */
static void hybrid_handshake(struct kunit *test)
{
	static const struct {
		u16 group;
		u16 share_len;
	} groups[] = {
		{ KTLS_GROUP_X25519MLKEM768, KTLS_MLKEM768_CT_LEN + 32 },
		{ KTLS_GROUP_SECP256R1MLKEM768, 65 + KTLS_MLKEM768_CT_LEN },
	};
	struct ktls_hs_config *cfg = test_config_hybrid(test);
	unsigned int i, x;
	struct tc *c;

	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		for (x = 0; x < 2; x++) {
			c = tc_hybrid(test, cfg, groups[i].group, x);
			c->suites[0] = x ? KTLS_SUITE_AES_256_GCM_SHA384 :
					   KTLS_SUITE_AES_128_GCM_SHA256;
			tc_expect_done(c, groups[i].group, false);
			KUNIT_EXPECT_EQ(test, c->server_share_len,
					groups[i].share_len);
			KUNIT_EXPECT_EQ(test, ktls_hs_session(c->hs)->group,
					groups[i].group);
		}
	}

	/* A ~1.8 KB hello in records of 100 bytes, then of one byte. */
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, true);
	c->frag = 100;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, false);
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, true);
	c->frag = 1;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, false);

	/*
	 * The key exchange's memory goes in the input buffer beside the
	 * client's share: here, behind 18 KB of other shares, in front of it.
	 */
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->unk_first = 0x0100;
	c->nr_unk = 70;
	c->unk_len = 256;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, false);
}

/*
 * A hybrid share is taken over an ECDH one, but no round trip is spent
 * for a hybrid unless the listener insists (KTLS_HS_GROUP_HYBRID_RETRY),
 * and then only with clients that list one.
 */
static void hybrid_preference(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config_hybrid(test);
	struct tc *c;

	/* The X25519 share first in the client's list: still the hybrid. */
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, true);
	c->shares[0] = KTLS_GROUP_X25519;
	c->shares[1] = KTLS_GROUP_X25519MLKEM768;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, false);

	/* Both hybrids: X25519MLKEM768. */
	c = tc_hybrid(test, cfg, KTLS_GROUP_SECP256R1MLKEM768, true);
	c->groups[1] = KTLS_GROUP_X25519MLKEM768;
	c->shares[1] = KTLS_GROUP_X25519MLKEM768;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, false);

	/* A hybrid listed, an ECDH share only: that share. */
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->shares[0] = KTLS_GROUP_X25519;
	tc_expect_done(c, KTLS_GROUP_X25519, false);
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->shares[0] = KTLS_GROUP_SECP256R1;
	tc_expect_done(c, KTLS_GROUP_SECP256R1, false);

	/* No share: a retry for X25519, the cheaper; for a hybrid if alone. */
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->nr_shares = 0;
	tc_expect_done(c, KTLS_GROUP_X25519, true);
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->nr_groups = 1;
	c->nr_shares = 0;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, true);

	/* Hybrids off: the client's X25519 share. */
	cfg->groups &= ~TC_HYBRIDS;
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, true);
	tc_expect_done(c, KTLS_GROUP_X25519, false);

	/* Insisting: a retry for the hybrid despite the X25519 share... */
	cfg->groups |= TC_HYBRIDS | KTLS_HS_GROUP_HYBRID_RETRY;
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->shares[0] = KTLS_GROUP_X25519;
	tc_expect_done(c, KTLS_GROUP_X25519MLKEM768, true);
	/* ... the other hybrid's share will do ... */
	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, true);
	c->groups[2] = KTLS_GROUP_SECP256R1MLKEM768;
	c->shares[0] = KTLS_GROUP_SECP256R1MLKEM768;
	tc_expect_done(c, KTLS_GROUP_SECP256R1MLKEM768, false);
	/* ... and a client listing no hybrid gets X25519 at once. */
	c = tc_new(test, cfg);
	tc_expect_done(c, KTLS_GROUP_X25519, false);
}

/*
 * A hybrid share of the wrong length (RFC 8446 4.2.8.1), with an
 * encapsulation key failing the FIPS 203 7.2 modulus check, with an
 * X25519 part giving the all-zero secret (7.4.2) or a P-256 part not a
 * point of the curve (4.2.8.2): illegal_parameter.  So are two shares
 * of a hybrid, or one of a hybrid the client did not list (4.2.8).
 */
static void hybrid_bad_shares(struct kunit *test)
{
	static const struct {
		u16 group;
		size_t len;
	} bad_len[] = {
		{ KTLS_GROUP_X25519MLKEM768, 0 },
		{ KTLS_GROUP_X25519MLKEM768, 32 },
		{ KTLS_GROUP_X25519MLKEM768, KTLS_MLKEM768_EK_LEN },
		{ KTLS_GROUP_X25519MLKEM768, KTLS_MLKEM768_EK_LEN + 31 },
		{ KTLS_GROUP_X25519MLKEM768, KTLS_MLKEM768_EK_LEN + 33 },
		{ KTLS_GROUP_X25519MLKEM768, KTLS_MLKEM768_EK_LEN + 65 },
		{ KTLS_GROUP_SECP256R1MLKEM768, 65 },
		{ KTLS_GROUP_SECP256R1MLKEM768, KTLS_MLKEM768_EK_LEN + 32 },
		{ KTLS_GROUP_SECP256R1MLKEM768, KTLS_MLKEM768_EK_LEN + 64 },
		{ KTLS_GROUP_SECP256R1MLKEM768, KTLS_MLKEM768_EK_LEN + 66 },
	};
	static const u16 hybrids[] = { KTLS_GROUP_X25519MLKEM768,
				       KTLS_GROUP_SECP256R1MLKEM768 };
	struct ktls_hs_config *cfg = test_config_hybrid(test);
	unsigned int i;
	struct tc *c;

	for (i = 0; i < ARRAY_SIZE(bad_len); i++) {
		c = tc_hybrid(test, cfg, bad_len[i].group, false);
		c->share_len_set = true;
		c->share_len = bad_len[i].len;
		tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
	}
	for (i = 0; i < ARRAY_SIZE(hybrids); i++) {
		/* Not taken for the X25519 share beside it either. */
		c = tc_hybrid(test, cfg, hybrids[i], true);
		c->bad_ek = true;
		tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);

		c = tc_hybrid(test, cfg, hybrids[i], true);
		c->shares[1] = hybrids[i];
		tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);

		c = tc_hybrid(test, cfg, hybrids[i], false);
		c->groups[0] = KTLS_GROUP_X25519;
		c->nr_groups = 1;
		tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
	}

	c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, false);
	c->zero_x25519 = true;
	tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);

	/* The point's form, then the curve equation. */
	c = tc_hybrid(test, cfg, KTLS_GROUP_SECP256R1MLKEM768, false);
	c->share_fill_set = true;
	c->share_fill = 0x05;
	tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
	c = tc_hybrid(test, cfg, KTLS_GROUP_SECP256R1MLKEM768, false);
	c->share_fill_set = true;
	c->share_fill = 0x04;
	tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
}

/*
 * TLS 1.2 has no key_share, and the hybrids are no ECDHE curves: a 1.2
 * hello listing them first gets X25519, or P-256; listing nothing else,
 * or to a listener allowing nothing else, handshake_failure.
 */
static void hybrid_tls12_ignored(struct kunit *test)
{
	static const struct {
		u16 groups[3];
		unsigned int nr;
		u16 expect;	/* 0: handshake_failure */
	} cases[] = {
		{ { KTLS_GROUP_X25519MLKEM768, KTLS_GROUP_X25519,
		    KTLS_GROUP_SECP256R1 }, 3, KTLS_GROUP_X25519 },
		{ { KTLS_GROUP_X25519MLKEM768, KTLS_GROUP_SECP256R1MLKEM768,
		    KTLS_GROUP_SECP256R1 }, 3, KTLS_GROUP_SECP256R1 },
		{ { KTLS_GROUP_X25519MLKEM768,
		    KTLS_GROUP_SECP256R1MLKEM768 }, 2, 0 },
	};
	struct ktls_hs_config *cfg = test_config_hybrid(test);
	const struct ktls_hs_session *s;
	unsigned int i;
	struct tc *c;

	cfg->versions = KTLS_HS_VERSION_TLS12 | KTLS_HS_VERSION_TLS13;
	cfg->suites |= KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
	cfg->ems_optional = true;
	for (i = 0; i <= ARRAY_SIZE(cases); i++) {
		/* Last, the first hello to a listener of the hybrids alone. */
		if (i == ARRAY_SIZE(cases))
			cfg->groups = TC_HYBRIDS;
		c = tc_hybrid(test, cfg, KTLS_GROUP_X25519MLKEM768, true);
		if (i < ARRAY_SIZE(cases)) {
			memcpy(c->groups, cases[i].groups,
			       sizeof(cases[i].groups));
			c->nr_groups = cases[i].nr;
		}
		c->versions[0] = KTLS_VERSION_TLS12;
		c->nr_versions = 1;
		c->suites[0] = 0xc02b;
		c->nr_suites = 1;
		tc_send_client_hello(c);
		s = ktls_hs_session(c->hs);
		if (i < ARRAY_SIZE(cases) && cases[i].expect) {
			KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs),
					KTLS_HS_RUNNING);
			KUNIT_EXPECT_EQ(test, s->version, TLS_1_2_VERSION);
			KUNIT_EXPECT_EQ(test, s->group, cases[i].expect);
		} else {
			KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs),
					KTLS_HS_FAILED);
			KUNIT_EXPECT_EQ(test, ktls_hs_alert(c->hs),
					KTLS_ALERT_HANDSHAKE_FAILURE);
		}
	}
}

/*
 * RFC 8446 9.2: without a PSK, signature_algorithms and supported_groups
 * are mandatory, and supported_groups and key_share come together:
 * missing_extension.  Without supported_versions it is no TLS 1.3 hello.
 */
static void rfc8446_9_2_mandatory_extensions(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	c = tc_new(test, cfg);
	c->no_key_share = true;
	tc_expect_alert(c, KTLS_ALERT_MISSING_EXTENSION);

	c = tc_new(test, cfg);
	c->no_groups = true;
	tc_expect_alert(c, KTLS_ALERT_MISSING_EXTENSION);

	c = tc_new(test, cfg);
	c->no_groups = true;
	c->no_key_share = true;
	tc_expect_alert(c, KTLS_ALERT_MISSING_EXTENSION);

	c = tc_new(test, cfg);
	c->nr_sigalgs = 0;
	tc_expect_alert(c, KTLS_ALERT_MISSING_EXTENSION);

	c = tc_new(test, cfg);
	c->nr_versions = 0;
	tc_expect_alert(c, KTLS_ALERT_PROTOCOL_VERSION);
}

/*
 * RFC 8446 D.5, 4.1.2: a legacy_version of 0x0300 or lower is refused
 * with protocol_version, whatever supported_versions says and in TLS 1.2
 * too; 0x0301 and 0x0302 are let through (only supported_versions
 * counts in 1.3).
 */
static void rfc8446_d_5_legacy_version(struct kunit *test)
{
	static const u16 low[] = { 0x0000, 0x0001, 0x0002, 0x0100, 0x0200,
				   0x02ff, 0x0300 };
	struct ktls_hs_config *cfg = test_config(test);
	struct ktls_hs_config *cfg12 = test_config(test);
	unsigned int i;
	struct tc *c;

	cfg12->versions = KTLS_HS_VERSION_TLS12 | KTLS_HS_VERSION_TLS13;
	cfg12->suites |= KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
	for (i = 0; i < ARRAY_SIZE(low); i++) {
		c = tc_new(test, cfg);
		c->legacy_set = true;
		c->legacy_version = low[i];
		tc_expect_alert(c, KTLS_ALERT_PROTOCOL_VERSION);

		/* The 1.2 path, with and without supported_versions. */
		c = tc_new(test, cfg12);
		c->legacy_set = true;
		c->legacy_version = low[i];
		c->versions[0] = KTLS_VERSION_TLS12;
		c->nr_versions = 1;
		c->suites[0] = 0xc02b;
		c->nr_suites = 1;
		tc_expect_alert(c, KTLS_ALERT_PROTOCOL_VERSION);

		c = tc_new(test, cfg12);
		c->legacy_set = true;
		c->legacy_version = low[i];
		c->nr_versions = 0;
		c->suites[0] = 0xc02b;
		c->nr_suites = 1;
		tc_expect_alert(c, KTLS_ALERT_PROTOCOL_VERSION);
	}
	for (i = 0x0301; i <= 0x0303; i++) {
		c = tc_new(test, cfg);
		c->legacy_set = true;
		c->legacy_version = i;
		tc_expect_done(c, KTLS_GROUP_X25519, false);
	}
}

/* RFC 8446 4.1.2: legacy_compression_methods is exactly one zero byte. */
static void rfc8446_4_1_2_compression(struct kunit *test)
{
	static const u8 bad[][3] = {
		{ 2, 0, 1 }, { 2, 1, 0 }, { 2, 0, 0 }, { 1, 1 }, { 2, 0x40, 0 },
	};
	struct ktls_hs_config *cfg = test_config(test);
	unsigned int i;
	struct tc *c;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		c = tc_new(test, cfg);
		c->comp = bad[i] + 1;
		c->comp_len = bad[i][0];
		tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
	}
}

/*
 * RFC 6066 3: a server_name that is no DNS host name is illegal_parameter
 * before anything reads it (the session's name stays empty), under every
 * SNI policy.
 */
static void rfc6066_3_server_name(struct kunit *test)
{
	static const char * const bad[] = {
		"a.example.", "a..example", ".a.example", "a_b.example",
		"a.example\r\n", "a\x1b[0m.example", "a b", "a.example\xff",
	};
	struct ktls_hs_config *cfg = test_config(test);
	unsigned int i, p;
	struct tc *c;

	for (p = 0; p < 2; p++) {
		cfg->sni_policy = p ? KTLS_HS_SNI_FALLBACK : KTLS_HS_SNI_DEFAULT;
		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			c = tc_new(test, cfg);
			c->sni = bad[i];
			tc_expect_alert(c, KTLS_ALERT_ILLEGAL_PARAMETER);
			KUNIT_EXPECT_STREQ(test,
					   ktls_hs_session(c->hs)->sni, "");
		}
	}
}

/* Up to the HelloRetryRequest, the second hello to be changed by the caller. */
static struct tc *tc_to_retry(struct kunit *test, struct ktls_hs_config *cfg)
{
	struct tc *c = tc_new(test, cfg);

	c->nr_shares = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_EXPECT_TRUE(test, c->hrr);
	tc_send_ccs(c, 1);
	c->shares[0] = c->hrr_group;
	c->nr_shares = 1;
	return c;
}

static void tc_retry_refused(struct tc *c)
{
	tc_send_client_hello(c);
	tc_check_failed(c, KTLS_ALERT_ILLEGAL_PARAMETER, false);
}

/*
 * RFC 8446 4.1.2: after a HelloRetryRequest the client sends the same
 * ClientHello but for key_share, early_data (removed), cookie,
 * pre_shared_key and padding; any other change is illegal_parameter.
 */
static void rfc8446_4_1_2_retry_unchanged(struct kunit *test)
{
	static const u8 padding[] = { 0x00, 0x15, 0x00, 0x03, 0, 0, 0 };
	static const u8 unknown[] = { 0x44, 0x69, 0x00, 0x01, 0x01 };
	static const u8 comp[] = { 0, 0 };
	struct ktls_hs_config *cfg = test_config(test);
	struct tc *c;

	c = tc_to_retry(test, cfg);
	c->legacy_set = true;
	c->legacy_version = 0x0301;
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->random[7] ^= 1;
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->sid[0] ^= 1;
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->suites[2] = c->suites[1];
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->nr_suites = 2;
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->comp = comp;
	c->comp_len = sizeof(comp);
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->groups[1] = 0x0018;
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->sigalgs[0] = 0x0805;
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->sni = "b.example";
	tc_retry_refused(c);

	c = tc_to_retry(test, cfg);
	c->extra = unknown;
	c->extra_len = sizeof(unknown);
	tc_retry_refused(c);

	/* Padding may come, go or change. */
	c = tc_new(test, cfg);
	c->nr_shares = 0;
	c->extra = padding;
	c->extra_len = sizeof(padding);
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->hrr);
	tc_send_ccs(c, 1);
	c->shares[0] = c->hrr_group;
	c->nr_shares = 1;
	c->extra = NULL;
	c->extra_len = 0;
	tc_send_client_hello(c);
	tc_read(c);
	KUNIT_ASSERT_TRUE(test, c->got_fin);
	tc_send_finished(c, false);
	tc_read(c);
	KUNIT_EXPECT_EQ(test, ktls_hs_status(c->hs), KTLS_HS_DONE);
}

static void api(struct kunit *test)
{
	struct ktls_hs_config *cfg = test_config(test);
	size_t size = ktls_hs_size(cfg);
	struct ktls_hs_keys keys;
	struct ktls_hs *hs;
	void *mem;

	kunit_info(test, "engine with a 300-byte chain: %zu bytes\n", size);
	mem = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	KUNIT_EXPECT_NULL(test, ktls_hs_init(mem, size - 1, cfg));
	cfg->nr_identities = 0;
	KUNIT_EXPECT_EQ(test, ktls_hs_size(cfg), 0);
	KUNIT_EXPECT_NULL(test, ktls_hs_init(mem, size, cfg));
	cfg->nr_identities = 1;

	hs = test_engine(test, cfg);
	KUNIT_EXPECT_EQ(test, ktls_hs_status(hs), KTLS_HS_RUNNING);
	KUNIT_EXPECT_EQ(test, ktls_hs_keys(hs, &keys), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_alert(hs), 0);

	/* A bigger chain needs a bigger engine. */
	cfg->identities[0] = test_identity(test, 0x44, "a.example", 9000, 2);
	KUNIT_EXPECT_GT(test, ktls_hs_size(cfg), size + 2 * 8000);
}

static struct kunit_case hs_engine_cases[] = {
	KUNIT_CASE_PARAM(handshake, hs_gen_params),
	KUNIT_CASE(group_preference),
	KUNIT_CASE(alpn),
	KUNIT_CASE(sni),
	KUNIT_CASE(sni_policy_fallback),
	KUNIT_CASE(large_chain),
	KUNIT_CASE(fragmented_hello),
	KUNIT_CASE(early_data_skipped),
	KUNIT_CASE(bad_finished),
	KUNIT_CASE(bad_records),
	KUNIT_CASE(message_lengths),
	KUNIT_CASE(bad_alert_records),
	KUNIT_CASE(record_limits),
	KUNIT_CASE(bad_ccs),
	KUNIT_CASE(key_change_alignment),
	KUNIT_CASE(bad_hello),
	KUNIT_CASE(bad_hello_retry),
	KUNIT_CASE_PARAM(rfc8446_4_2_8_unknown_groups, unk_gen_params),
	KUNIT_CASE(rfc8446_4_2_8_share_list_rules),
	KUNIT_CASE(rfc8446_4_2_8_share_encoding),
	KUNIT_CASE(hybrid_handshake),
	KUNIT_CASE(hybrid_preference),
	KUNIT_CASE(hybrid_bad_shares),
	KUNIT_CASE(hybrid_tls12_ignored),
	KUNIT_CASE(rfc8446_9_2_mandatory_extensions),
	KUNIT_CASE(rfc8446_d_5_legacy_version),
	KUNIT_CASE(rfc8446_4_1_2_compression),
	KUNIT_CASE(rfc6066_3_server_name),
	KUNIT_CASE(rfc8446_4_1_2_retry_unchanged),
	KUNIT_CASE(rfc8449_record_size_limit),
	KUNIT_CASE(rfc8449_record_size_limit_declined),
	KUNIT_CASE(api),
	{}
};

static struct kunit_suite hs_engine_suite = {
	.name = "ktls_hs_engine",
	.test_cases = hs_engine_cases,
};

kunit_test_suite(hs_engine_suite);
