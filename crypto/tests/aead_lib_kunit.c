// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the allocation-free AEAD (crypto/aead_lib.c) and of the
 * X25519 wrappers (crypto/x25519.c) over the kernel's curve25519 library.
 *
 * Vectors, transcribed as data from the documents named:
 * - AES-GCM: test cases 1-4 (AES-128) and 13-16 (AES-256) of McGrew and
 *   Viega, "The Galois/Counter Mode of Operation (GCM)", and, for AAD
 *   with an empty plaintext, the first PTlen = 0, AADlen = 128 entries of
 *   NIST's CAVP files gcmEncryptExtIV128.rsp and gcmEncryptExtIV256.rsp.
 * - ChaCha20-Poly1305: RFC 8439 section 2.8.2.
 * - X25519: RFC 7748 section 5.2 (first vector) and section 6.1.
 *
 * Beyond the vectors: every length 0..300 and every AAD length 0..40
 * against the crypto API's "gcm(aes)" and "rfc7539(chacha20,poly1305)"
 * with random keys and data, every single-bit change of a sealed record
 * and its AAD, the argument checks, a run with bottom halves disabled and
 * a rough speed for the log.
 */
#include <kunit/test.h>
#include <crypto/aead.h>
#include <crypto/curve25519.h>
#include <linux/bottom_half.h>
#include <linux/hex.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ktls_hs/aead_lib.h>
#include <ktls_hs/x25519.h>

#define TAG	KTLS_LIB_AEAD_TAG_SIZE
#define CROSS_MAX_LEN	300
#define CROSS_MAX_AAD	40

/* Decode a vector given in hex into test-managed memory. */
static u8 *aead_hex(struct kunit *test, const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	u8 *buf;

	KUNIT_ASSERT_EQ(test, strlen(hex) % 2, 0);
	buf = kunit_kzalloc(test, n + TAG + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, hex2bin(buf, hex, n), 0);
	if (len)
		*len = n;
	return buf;
}

/* Test memory: a keyed context is too big for a KASAN kernel's stack. */
static struct ktls_lib_aead *aead_alloc(struct kunit *test)
{
	struct ktls_lib_aead *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	return a;
}

struct aead_vector {
	const char *name;
	enum ktls_lib_aead_alg alg;
	const char *key;
	const char *nonce;
	const char *aad;
	const char *pt;
	const char *ct;
	const char *tag;
};

#define GCM_SPEC_P \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72" \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GCM_SPEC_C128 \
	"42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e" \
	"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
#define GCM_SPEC_C256 \
	"522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa" \
	"8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
#define GCM_SPEC_K "feffe9928665731c6d6a8f9467308308"
#define GCM_SPEC_IV "cafebabefacedbaddecaf888"
#define GCM_SPEC_A "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define ZERO16 "00000000000000000000000000000000"
#define ZERO12 "000000000000000000000000"

static const struct aead_vector aead_vectors[] = {
	{
		.name = "gcm_spec_tc1_empty",
		.alg = KTLS_LIB_AES_GCM,
		.key = ZERO16, .nonce = ZERO12, .aad = "", .pt = "", .ct = "",
		.tag = "58e2fccefa7e3061367f1d57a4e7455a",
	}, {
		.name = "gcm_spec_tc2",
		.alg = KTLS_LIB_AES_GCM,
		.key = ZERO16, .nonce = ZERO12, .aad = "", .pt = ZERO16,
		.ct =
			"0388dace60b6a392f328c2b971b2fe78",
		.tag = "ab6e47d42cec13bdf53a67b21257bddf",
	}, {
		.name = "gcm_spec_tc3",
		.alg = KTLS_LIB_AES_GCM,
		.key = GCM_SPEC_K, .nonce = GCM_SPEC_IV, .aad = "",
		.pt = GCM_SPEC_P "1aafd255",
		.ct = GCM_SPEC_C128 "473f5985",
		.tag = "4d5c2af327cd64a62cf35abd2ba6fab4",
	}, {
		.name = "gcm_spec_tc4_aad",
		.alg = KTLS_LIB_AES_GCM,
		.key = GCM_SPEC_K, .nonce = GCM_SPEC_IV, .aad = GCM_SPEC_A,
		.pt = GCM_SPEC_P, .ct = GCM_SPEC_C128,
		.tag = "5bc94fbc3221a5db94fae95ae7121a47",
	}, {
		.name = "gcm_spec_tc13_empty",
		.alg = KTLS_LIB_AES_GCM,
		.key = ZERO16 ZERO16, .nonce = ZERO12, .aad = "", .pt = "",
		.ct = "", .tag = "530f8afbc74536b9a963b4f1c4cb738b",
	}, {
		.name = "gcm_spec_tc14",
		.alg = KTLS_LIB_AES_GCM,
		.key = ZERO16 ZERO16, .nonce = ZERO12, .aad = "", .pt = ZERO16,
		.ct =
			"cea7403d4d606b6e074ec5d3baf39d18",
		.tag = "d0d1c8a799996bf0265b98b5d48ab919",
	}, {
		.name = "gcm_spec_tc15",
		.alg = KTLS_LIB_AES_GCM,
		.key = GCM_SPEC_K GCM_SPEC_K, .nonce = GCM_SPEC_IV, .aad = "",
		.pt = GCM_SPEC_P "1aafd255",
		.ct = GCM_SPEC_C256 "898015ad",
		.tag = "b094dac5d93471bdec1a502270e3cc6c",
	}, {
		.name = "gcm_spec_tc16_aad",
		.alg = KTLS_LIB_AES_GCM,
		.key = GCM_SPEC_K GCM_SPEC_K, .nonce = GCM_SPEC_IV,
		.aad = GCM_SPEC_A, .pt = GCM_SPEC_P, .ct = GCM_SPEC_C256,
		.tag = "76fc6ece0f4e1768cddf8853bb2d551b",
	}, {
		.name = "cavp_gcm128_aad_only",
		.alg = KTLS_LIB_AES_GCM,
		.key = "77be63708971c4e240d1cb79e8d77feb",
		.nonce = "e0e00f19fed7ba0136a797f3",
		.aad = "7a43ec1d9c0a5a78a0b16533a6213cab", .pt = "", .ct = "",
		.tag = "209fcc8d3675ed938e9c7166709dd946",
	}, {
		.name = "cavp_gcm256_aad_only",
		.alg = KTLS_LIB_AES_GCM,
		.key =
			"78dc4e0aaf52d935c3c01eea57428f00ca1fd475f5da86a49c8dd73d68c8e223",
		.nonce = "d79cf22d504cc793c3fb6c8a",
		.aad = "b96baa8c1c75a671bfb2d08d06be5f36", .pt = "", .ct = "",
		.tag = "3e5d486aa2e30b22e040b85723a06e76",
	}, {
		/*
		 * AES-CCM with TLS's 12-byte nonce and 16-byte tag has no
		 * published vector (RFC 3610's use 13-byte nonces and 8-byte
		 * tags); these were computed with the AESCCM of Python's
		 * cryptography package, on OpenSSL, apart from this code.
		 * A record: a TLS 1.3 header as AAD, 37 bytes of content.
		 */
		.name = "ccm_tls13_record",
		.alg = KTLS_LIB_AES_CCM,
		.key = "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf",
		.nonce = "000102030405060708090a0b",
		.aad = "1703030035",
		.pt =
			"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f4041424344",
		.ct =
			"b97a8bf7d44e9123e43de51e5c89f4c32f6fa458d0b8dab8a5bdadc03d26179665c1348157",
		.tag = "29d9417412a5558539267baf0dc897b0",
	}, {
		.name = "ccm_empty",
		.alg = KTLS_LIB_AES_CCM,
		.key = ZERO16, .nonce = ZERO12, .aad = "", .pt = "", .ct = "",
		.tag = "b9f650fb3c39bb1bee0e291d33f6ae28",
	}, {
		.name = "ccm_aad_only",
		.alg = KTLS_LIB_AES_CCM,
		.key = "404142434445464748494a4b4c4d4e4f",
		.nonce = "101112131415161718191a1b",
		.aad = "0001020304050607", .pt = "", .ct = "",
		.tag = "3ab6ddb101093db8716b73038e19b255",
	}, {
		.name = "ccm_two_blocks",
		.alg = KTLS_LIB_AES_CCM,
		.key = "404142434445464748494a4b4c4d4e4f",
		.nonce = "101112131415161718191a1b",
		.aad = "",
		.pt =
			"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		.ct =
			"c3922189d5973a5abb3ccaccedb7c72b41568af98462aa85743bf1f436da2cc3",
		.tag = "d6bddba21a93392e50ab694821ef7864",
	}, {
		.name = "rfc8439_2_8_2",
		.alg = KTLS_LIB_CHACHA20_POLY1305,
		.key =
			"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
		.nonce = "070000004041424344454647",
		.aad = "50515253c0c1c2c3c4c5c6c7",
		/* "Ladies and Gentlemen of the class of '99: If I could ..." */
		.pt =
			"4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e",
		.ct =
			"d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
		.tag = "1ae10b594f09e26a7e902ecbd0600691",
	},
};

static void aead_vector_desc(const struct aead_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(aead_vector, aead_vectors, aead_vector_desc);

/*
 * Seal the plaintext and compare with ciphertext and tag, then open the
 * result, once with the buffer aligned and once one byte off.
 */
static void aead_test_vector(struct kunit *test)
{
	const struct aead_vector *v = test->param_value;
	struct ktls_lib_aead *a = aead_alloc(test);
	size_t key_len, nonce_len, aad_len, pt_len, ct_len, tag_len, off;
	u8 *key, *nonce, *aad, *pt, *ct, *tag, *buf;

	key = aead_hex(test, v->key, &key_len);
	nonce = aead_hex(test, v->nonce, &nonce_len);
	aad = aead_hex(test, v->aad, &aad_len);
	pt = aead_hex(test, v->pt, &pt_len);
	ct = aead_hex(test, v->ct, &ct_len);
	tag = aead_hex(test, v->tag, &tag_len);
	KUNIT_ASSERT_EQ(test, nonce_len, KTLS_LIB_AEAD_NONCE_SIZE);
	KUNIT_ASSERT_EQ(test, pt_len, ct_len);
	KUNIT_ASSERT_EQ(test, tag_len, TAG);
	buf = kunit_kzalloc(test, pt_len + TAG + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);

	KUNIT_ASSERT_EQ(test, ktls_lib_aead_setkey(a, v->alg, key, key_len), 0);
	for (off = 0; off < 2; off++) {
		memcpy(buf + off, pt, pt_len);
		KUNIT_ASSERT_EQ(test, ktls_lib_aead_seal(a, nonce,
							 aad_len ? aad : NULL,
							 aad_len, buf + off,
							 pt_len), 0);
		KUNIT_EXPECT_MEMEQ(test, buf + off, ct, ct_len);
		KUNIT_EXPECT_MEMEQ(test, buf + off + pt_len, tag, TAG);
		KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce,
							 aad_len ? aad : NULL,
							 aad_len, buf + off,
							 pt_len + TAG), 0);
		KUNIT_EXPECT_MEMEQ(test, buf + off, pt, pt_len);
	}
	ktls_lib_aead_wipe(a);
}

/* The algorithms the randomized tests run, and the crypto API's names. */
struct aead_variant {
	const char *name;
	enum ktls_lib_aead_alg alg;
	const char *api_name;
	size_t key_len;
};

static const struct aead_variant aead_variants[] = {
	{ "aes128_gcm", KTLS_LIB_AES_GCM, "gcm(aes)", 16 },
	{ "aes256_gcm", KTLS_LIB_AES_GCM, "gcm(aes)", 32 },
	{ "chacha20_poly1305", KTLS_LIB_CHACHA20_POLY1305,
	  "rfc7539(chacha20,poly1305)", 32 },
	{ "aes128_ccm", KTLS_LIB_AES_CCM, "ccm(aes)", 16 },
};

static void aead_variant_desc(const struct aead_variant *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(aead_variant, aead_variants, aead_variant_desc);

static void aead_free_tfm(void *tfm)
{
	crypto_free_aead(tfm);
}

/* What the crypto API makes of @pt: @out gets ciphertext and tag. */
static int aead_api_seal(struct crypto_aead *tfm, const u8 *nonce,
			 const u8 *aad, size_t aad_len, const u8 *pt,
			 size_t len, u8 *scratch, u8 *out)
{
	u8 iv[16] = {};
	struct aead_request *req;
	struct scatterlist sg;
	DECLARE_CRYPTO_WAIT(wait);
	int err;

	req = aead_request_alloc(tfm, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	/*
	 * ccm(aes) takes the whole counter block A_0: the flags byte L - 1
	 * (RFC 3610 2.3), the nonce and a zero counter.
	 */
	if (!strcmp(crypto_tfm_alg_name(crypto_aead_tfm(tfm)), "ccm(aes)")) {
		iv[0] = 15 - KTLS_LIB_AEAD_NONCE_SIZE - 1;
		memcpy(iv + 1, nonce, KTLS_LIB_AEAD_NONCE_SIZE);
	} else {
		memcpy(iv, nonce, KTLS_LIB_AEAD_NONCE_SIZE);
	}
	memcpy(scratch, aad, aad_len);
	memcpy(scratch + aad_len, pt, len);
	sg_init_one(&sg, scratch, aad_len + len + TAG);
	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &wait);
	aead_request_set_crypt(req, &sg, &sg, len, iv);
	aead_request_set_ad(req, aad_len);
	err = crypto_wait_req(crypto_aead_encrypt(req), &wait);
	aead_request_free(req);
	if (!err)
		memcpy(out, scratch + aad_len, len + TAG);
	return err;
}

/* Buffers of one cross-check run, on the heap for the same reason. */
struct aead_cross {
	struct ktls_lib_aead a;
	u8 key[32];
	u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	u8 aad[CROSS_MAX_AAD];
	u8 pt[CROSS_MAX_LEN];
	u8 scratch[CROSS_MAX_AAD + CROSS_MAX_LEN + TAG];
	u8 ref[CROSS_MAX_LEN + TAG];
	u8 buf[CROSS_MAX_LEN + TAG + 1];
};

/* Seal with both, compare, and open ours back; return false on mismatch. */
static bool aead_cross_one(struct kunit *test, struct crypto_aead *tfm,
			   const struct aead_variant *v, size_t len,
			   size_t aad_len, struct aead_cross *c)
{
	u8 *p = c->buf + (len & 1);	/* odd lengths also run unaligned */
	bool ok = true;

	get_random_bytes(c->key, v->key_len);
	get_random_bytes(c->nonce, sizeof(c->nonce));
	get_random_bytes(c->aad, aad_len);
	get_random_bytes(c->pt, len);

	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(tfm, c->key, v->key_len), 0);
	KUNIT_ASSERT_EQ(test, aead_api_seal(tfm, c->nonce, c->aad, aad_len,
					    c->pt, len, c->scratch, c->ref), 0);
	KUNIT_ASSERT_EQ(test, ktls_lib_aead_setkey(&c->a, v->alg, c->key,
						   v->key_len), 0);
	memcpy(p, c->pt, len);
	KUNIT_ASSERT_EQ(test, ktls_lib_aead_seal(&c->a, c->nonce, c->aad,
						 aad_len, p, len), 0);
	if (memcmp(p, c->ref, len + TAG)) {
		KUNIT_FAIL(test, "%s seal differs at len %zu aad %zu", v->name,
			   len, aad_len);
		ok = false;
	}
	if (ktls_lib_aead_open(&c->a, c->nonce, c->aad, aad_len, p,
			       len + TAG) ||
	    memcmp(p, c->pt, len)) {
		KUNIT_FAIL(test, "%s open fails at len %zu aad %zu", v->name,
			   len, aad_len);
		ok = false;
	}
	ktls_lib_aead_wipe(&c->a);
	return ok;
}

/*
 * Every plaintext length 0..300 (each with two AAD lengths) and every AAD
 * length 0..40 (each with two plaintext lengths), against the crypto API.
 */
static void aead_test_cross_api(struct kunit *test)
{
	const struct aead_variant *v = test->param_value;
	struct crypto_aead *tfm;
	struct aead_cross *c;
	size_t len, aad_len;
	unsigned int runs = 0;

	tfm = crypto_alloc_aead(v->api_name, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tfm);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aead_free_tfm,
							tfm), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(tfm, TAG), 0);
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);

	for (len = 0; len <= CROSS_MAX_LEN; len++) {
		aad_len = len % (CROSS_MAX_AAD + 1);
		if (!aead_cross_one(test, tfm, v, len, aad_len, c))
			return;
		aad_len = CROSS_MAX_AAD - aad_len;
		if (!aead_cross_one(test, tfm, v, len, aad_len, c))
			return;
		runs += 2;
	}
	for (aad_len = 0; aad_len <= CROSS_MAX_AAD; aad_len++) {
		/* Around one and two blocks of either cipher. */
		if (!aead_cross_one(test, tfm, v, 15 + aad_len, aad_len, c))
			return;
		if (!aead_cross_one(test, tfm, v, 127 + aad_len / 8, aad_len, c))
			return;
		runs += 2;
	}
	kunit_info(test, "%s: %u random messages agree with %s\n", v->name,
		   runs, v->api_name);
}

static void aead_random_key(struct kunit *test, struct ktls_lib_aead *a,
			    const struct aead_variant *v)
{
	u8 key[32];

	get_random_bytes(key, v->key_len);
	KUNIT_ASSERT_EQ(test, ktls_lib_aead_setkey(a, v->alg, key, v->key_len),
			0);
	memzero_explicit(key, sizeof(key));
}

/*
 * Flip each bit of a sealed record (ciphertext and tag), of its AAD and of
 * its nonce in turn: open must fail with -EBADMSG and leave the buffer
 * zeroed.  Lengths 0 (a bare tag) and 37 (a partial block).
 */
static void aead_test_tamper(struct kunit *test)
{
	static const size_t lens[] = { 0, 37 };
	const struct aead_variant *v = test->param_value;
	u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE], aad[13], sealed[37 + TAG];
	u8 buf[37 + TAG], pt[37];
	struct ktls_lib_aead *a = aead_alloc(test);
	unsigned int i, k, bad = 0;
	size_t len;

	aead_random_key(test, a, v);
	get_random_bytes(nonce, sizeof(nonce));
	get_random_bytes(aad, sizeof(aad));
	for (k = 0; k < ARRAY_SIZE(lens); k++) {
		len = lens[k];
		get_random_bytes(pt, len);
		memcpy(sealed, pt, len);
		KUNIT_ASSERT_EQ(test, ktls_lib_aead_seal(a, nonce, aad,
							 sizeof(aad), sealed,
							 len), 0);

		for (i = 0; i < (len + TAG) * 8; i++) {
			memcpy(buf, sealed, len + TAG);
			buf[i / 8] ^= 1 << (i % 8);
			if (ktls_lib_aead_open(a, nonce, aad, sizeof(aad), buf,
					       len + TAG) != -EBADMSG ||
			    memchr_inv(buf, 0, len + TAG))
				bad++;
		}
		for (i = 0; i < sizeof(aad) * 8; i++) {
			memcpy(buf, sealed, len + TAG);
			aad[i / 8] ^= 1 << (i % 8);
			if (ktls_lib_aead_open(a, nonce, aad, sizeof(aad), buf,
					       len + TAG) != -EBADMSG ||
			    memchr_inv(buf, 0, len + TAG))
				bad++;
			aad[i / 8] ^= 1 << (i % 8);
		}
		for (i = 0; i < sizeof(nonce) * 8; i++) {
			memcpy(buf, sealed, len + TAG);
			nonce[i / 8] ^= 1 << (i % 8);
			if (ktls_lib_aead_open(a, nonce, aad, sizeof(aad), buf,
					       len + TAG) != -EBADMSG ||
			    memchr_inv(buf, 0, len + TAG))
				bad++;
			nonce[i / 8] ^= 1 << (i % 8);
		}
		/* AAD dropped, and the record cut short by one byte. */
		memcpy(buf, sealed, len + TAG);
		KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce, NULL, 0,
							 buf, len + TAG),
				-EBADMSG);
		KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, len + TAG), NULL);
		memcpy(buf, sealed, len + TAG);
		KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce, aad,
							 sizeof(aad), buf,
							 len + TAG - 1),
				-EBADMSG);
		KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, len + TAG - 1),
				    NULL);

		/* The untouched record still opens. */
		memcpy(buf, sealed, len + TAG);
		KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce, aad,
							 sizeof(aad), buf,
							 len + TAG), 0);
		KUNIT_EXPECT_MEMEQ(test, buf, pt, len);
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%u altered records accepted or not wiped",
			    bad);
	ktls_lib_aead_wipe(a);
}

static void aead_test_bad_args(struct kunit *test)
{
	static const size_t gcm_bad[] = { 0, 1, 15, 17, 24, 31, 33, 64 };
	static const size_t chacha_bad[] = { 0, 16, 31, 33 };
	u8 key[64] = {}, nonce[KTLS_LIB_AEAD_NONCE_SIZE] = {};
	u8 buf[8 + TAG], aad[4] = {};
	struct ktls_lib_aead *a = aead_alloc(test), *zero = aead_alloc(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gcm_bad); i++) {
		KUNIT_EXPECT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AES_GCM,
							   key, gcm_bad[i]),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, a->alg, KTLS_LIB_AEAD_NONE);
	}
	for (i = 0; i < ARRAY_SIZE(chacha_bad); i++)
		KUNIT_EXPECT_EQ(test,
				ktls_lib_aead_setkey(a, KTLS_LIB_CHACHA20_POLY1305,
						     key, chacha_bad[i]),
				-EINVAL);
	/* AES-CCM: TLS_AES_128_CCM_SHA256 only, and its 3-byte lengths. */
	for (i = 0; i < ARRAY_SIZE(gcm_bad); i++)
		KUNIT_EXPECT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AES_CCM,
							   key, gcm_bad[i]),
				-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AES_CCM, key, 32),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AES_CCM, key, 16),
			0);
	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_seal(a, nonce, NULL, 0, buf,
						 KTLS_LIB_AEAD_CCM_MAX_LEN + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, buf[0], 0xaa);
	ktls_lib_aead_wipe(a);

	KUNIT_EXPECT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AEAD_NONE, key,
						   16), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_setkey(a, 77, key, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AES_GCM, NULL,
						   16), -EINVAL);

	/* Never keyed: refused, and open still wipes. */
	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_seal(zero, nonce, NULL, 0, buf, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, buf[0], 0xaa);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(zero, nonce, NULL, 0, buf,
						 sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, sizeof(buf)), NULL);

	/* Keyed, then wiped: refused again. */
	KUNIT_ASSERT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_AES_GCM, key,
						   16), 0);
	ktls_lib_aead_wipe(a);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(a, 0, sizeof(*a)), NULL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_seal(a, nonce, NULL, 0, buf, 8),
			-EINVAL);

	/* Shorter than a tag, AAD length without AAD, absurd lengths. */
	KUNIT_ASSERT_EQ(test, ktls_lib_aead_setkey(a, KTLS_LIB_CHACHA20_POLY1305,
						   key, 32), 0);
	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce, NULL, 0, buf,
						 TAG - 1), -EBADMSG);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, TAG - 1), NULL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce, NULL, 0, NULL, 0),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_seal(a, nonce, NULL, 4, buf, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_seal(a, nonce, aad,
						 (size_t)KTLS_LIB_AEAD_MAX_LEN + 1,
						 buf, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_seal(a, nonce, aad, sizeof(aad),
						 buf,
						 (size_t)KTLS_LIB_AEAD_MAX_LEN + 1),
			-EINVAL);
	memset(buf, 0xaa, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ktls_lib_aead_open(a, nonce, NULL, 4, buf,
						 sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, memchr_inv(buf, 0, sizeof(buf)), NULL);
	ktls_lib_aead_wipe(a);
}

/*
 * The handshake seals and opens from softirq: each algorithm, with bottom
 * halves disabled, which makes any sleep or GFP_KERNEL allocation in the
 * path a splat on a debug kernel.
 */
static void aead_test_softirq_context(struct kunit *test)
{
	static const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE] = { 1, 2, 3 };
	u8 key[32], aad[5], buf[100 + TAG], pt[100];
	struct ktls_lib_aead *a = aead_alloc(test);
	unsigned int i;
	int err[ARRAY_SIZE(aead_variants)][2];

	get_random_bytes(key, sizeof(key));
	get_random_bytes(aad, sizeof(aad));
	get_random_bytes(pt, sizeof(pt));
	for (i = 0; i < ARRAY_SIZE(aead_variants); i++) {
		memcpy(buf, pt, sizeof(pt));
		local_bh_disable();
		err[i][0] = ktls_lib_aead_setkey(a, aead_variants[i].alg, key,
						 aead_variants[i].key_len);
		if (!err[i][0])
			err[i][0] = ktls_lib_aead_seal(a, nonce, aad,
						       sizeof(aad), buf,
						       sizeof(pt));
		err[i][1] = ktls_lib_aead_open(a, nonce, aad, sizeof(aad),
					       buf, sizeof(buf));
		ktls_lib_aead_wipe(a);
		local_bh_enable();
		KUNIT_EXPECT_EQ(test, err[i][0], 0);
		KUNIT_EXPECT_EQ(test, err[i][1], 0);
		KUNIT_EXPECT_MEMEQ(test, buf, pt, sizeof(pt));
	}
}

/* Not a benchmark: the order of magnitude, for the log. */
static void aead_test_speed(struct kunit *test)
{
	const struct aead_variant *v = test->param_value;
	static const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	const unsigned int rounds = 256, len = 1024;
	struct ktls_lib_aead *a = aead_alloc(test);
	u64 start, seal_ns, open_ns;
	unsigned int i;
	u8 *buf;
	int err = 0;

	buf = kunit_kzalloc(test, len + TAG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	aead_random_key(test, a, v);

	start = ktime_get_ns();
	for (i = 0; i < rounds; i++)
		err |= ktls_lib_aead_seal(a, nonce, NULL, 0, buf, len);
	seal_ns = ktime_get_ns() - start ?: 1;
	start = ktime_get_ns();
	for (i = 0; i < rounds && !err; i++) {
		err |= ktls_lib_aead_open(a, nonce, NULL, 0, buf, len + TAG);
		/* Sealed again so that each open sees a valid record. */
		err |= ktls_lib_aead_seal(a, nonce, NULL, 0, buf, len);
	}
	open_ns = ktime_get_ns() - start ?: 1;
	KUNIT_EXPECT_EQ(test, err, 0);
	kunit_info(test, "%s: seal of 1 KiB %llu KB/s, open+seal %llu KB/s\n",
		   v->name, (u64)rounds * len * 1000000 / seal_ns,
		   (u64)rounds * len * 1000000 / open_ns);
	ktls_lib_aead_wipe(a);
}

static struct kunit_case aead_lib_cases[] = {
	KUNIT_CASE_PARAM(aead_test_vector, aead_vector_gen_params),
	KUNIT_CASE_PARAM(aead_test_cross_api, aead_variant_gen_params),
	KUNIT_CASE_PARAM(aead_test_tamper, aead_variant_gen_params),
	KUNIT_CASE(aead_test_bad_args),
	KUNIT_CASE(aead_test_softirq_context),
	KUNIT_CASE_PARAM(aead_test_speed, aead_variant_gen_params),
	{}
};

static struct kunit_suite aead_lib_suite = {
	.name = "ktls_hs_aead_lib",
	.test_cases = aead_lib_cases,
};

/* RFC 7748: section 5.2, first vector, then the section 6.1 example. */
static const char x25519_scalar[] =
	"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4";
static const char x25519_u[] =
	"e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c";
static const char x25519_want[] =
	"c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552";
static const char x25519_alice[] =
	"77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
static const char x25519_alice_pub[] =
	"8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
static const char x25519_bob[] =
	"5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
static const char x25519_bob_pub[] =
	"de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
static const char x25519_shared[] =
	"4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

/*
 * X25519 through the module's wrappers of curve25519(), as the handshake
 * calls it: RFC 7748's single-step vector, both sides of its
 * Diffie-Hellman example, and the all-zero result a small-order peer key
 * forces, which must be refused.
 */
static void x25519_test_rfc7748(struct kunit *test)
{
	u8 out[KTLS_X25519_KEY_LEN], zero[KTLS_X25519_KEY_LEN] = {};
	const u8 *scalar, *u, *want;
	const u8 *alice, *alice_pub, *bob, *bob_pub, *shared;

	scalar = aead_hex(test, x25519_scalar, NULL);
	u = aead_hex(test, x25519_u, NULL);
	want = aead_hex(test, x25519_want, NULL);
	KUNIT_EXPECT_EQ(test, ktls_x25519(out, scalar, u), 0);
	KUNIT_EXPECT_MEMEQ(test, out, want, sizeof(out));

	alice = aead_hex(test, x25519_alice, NULL);
	alice_pub = aead_hex(test, x25519_alice_pub, NULL);
	bob = aead_hex(test, x25519_bob, NULL);
	bob_pub = aead_hex(test, x25519_bob_pub, NULL);
	shared = aead_hex(test, x25519_shared, NULL);
	KUNIT_EXPECT_EQ(test, ktls_x25519(out, alice, curve25519_base_point), 0);
	KUNIT_EXPECT_MEMEQ(test, out, alice_pub, sizeof(out));
	KUNIT_EXPECT_EQ(test, ktls_x25519(out, bob, curve25519_base_point), 0);
	KUNIT_EXPECT_MEMEQ(test, out, bob_pub, sizeof(out));
	KUNIT_EXPECT_EQ(test, ktls_x25519(out, alice, bob_pub), 0);
	KUNIT_EXPECT_MEMEQ(test, out, shared, sizeof(out));
	KUNIT_EXPECT_EQ(test, ktls_x25519(out, bob, alice_pub), 0);
	KUNIT_EXPECT_MEMEQ(test, out, shared, sizeof(out));

	/* u = 0 has order 1: every scalar maps it to 0. */
	memset(out, 0xaa, sizeof(out));
	KUNIT_EXPECT_EQ(test, ktls_x25519(out, alice, zero), -EINVAL);
	KUNIT_EXPECT_MEMEQ(test, out, zero, sizeof(out));
}

/* Two fresh key pairs, made with bottom halves off, agree. */
static void x25519_test_keygen(struct kunit *test)
{
	u8 priv1[KTLS_X25519_KEY_LEN], pub1[KTLS_X25519_KEY_LEN];
	u8 priv2[KTLS_X25519_KEY_LEN], pub2[KTLS_X25519_KEY_LEN];
	u8 s1[KTLS_X25519_KEY_LEN], s2[KTLS_X25519_KEY_LEN];
	u8 pub[KTLS_X25519_KEY_LEN];
	int err[4];

	local_bh_disable();
	err[0] = ktls_x25519_keygen(priv1, pub1);
	err[1] = ktls_x25519_keygen(priv2, pub2);
	err[2] = ktls_x25519(s1, priv1, pub2);
	err[3] = ktls_x25519(s2, priv2, pub1);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, err[0], 0);
	KUNIT_EXPECT_EQ(test, err[1], 0);
	KUNIT_EXPECT_EQ(test, err[2], 0);
	KUNIT_EXPECT_EQ(test, err[3], 0);
	KUNIT_EXPECT_MEMEQ(test, s1, s2, sizeof(s1));
	KUNIT_EXPECT_MEMNEQ(test, pub1, pub2, sizeof(pub1));

	/* Clamped as RFC 7748 section 5 decodes it. */
	KUNIT_EXPECT_EQ(test, priv1[0] & 7, 0);
	KUNIT_EXPECT_EQ(test, priv1[31] & 0xc0, 0x40);
	KUNIT_EXPECT_EQ(test, ktls_x25519(pub, priv1, curve25519_base_point), 0);
	KUNIT_EXPECT_MEMEQ(test, pub, pub1, sizeof(pub));
}

static struct kunit_case x25519_cases[] = {
	KUNIT_CASE(x25519_test_rfc7748),
	KUNIT_CASE(x25519_test_keygen),
	{}
};

static struct kunit_suite x25519_suite = {
	.name = "ktls_hs_x25519",
	.test_cases = x25519_cases,
};

kunit_test_suites(&aead_lib_suite, &x25519_suite);
