// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ktls_hs_p256: the P-256 code of crypto/ against published
 * vectors (RFC 6979, NIST CAVP SigVer and ECC CDH, Wycheproof-style
 * invalid inputs, DER edge cases; all in p256_vectors.h, which the
 * userspace tests in tools/crypto share), plus what only the kernel can
 * show: hedged signing and key generation from the kernel RNG, and every
 * entry point running with bottom halves disabled.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/errno.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>
#include <ktls_hs/p256.h>

#include "../p256_internal.h"
#include "p256_vectors.h"

/* Hex to bytes; returns the length, failing the test on bad data. */
static size_t unhex(struct kunit *test, u8 *out, size_t max, const char *hex)
{
	size_t len = strlen(hex) / 2;

	KUNIT_ASSERT_LE(test, len, max);
	KUNIT_ASSERT_EQ(test, hex2bin(out, hex, len), 0);
	return len;
}

/* Big-endian hex to four little-endian limbs. */
static void unhex_limbs(struct kunit *test, u64 v[4], const char *hex)
{
	u8 b[32];
	int i, j;

	KUNIT_ASSERT_EQ(test, unhex(test, b, sizeof(b), hex), sizeof(b));
	for (i = 0; i < 4; i++)
		for (v[i] = 0, j = 0; j < 8; j++)
			v[i] |= (u64)b[31 - 8 * i - j] << (8 * j);
}

/*
 * The field and scalar products at their carry edges, for whichever
 * implementation this kernel runs (portable C, x86-64 mulq or mulx).
 */
static void p256_test_mont_edges(struct kunit *test)
{
	const struct p256_mont_vector *v;
	struct p256_fe fa, fb, fr;
	struct p256_scalar sa, sb, sr;
	u64 want[4];

	for (v = p256_mont_vectors; v < p256_mont_vectors + ARRAY_SIZE(p256_mont_vectors); v++) {
		unhex_limbs(test, want, v->prod);
		if (v->mod == 'p') {
			unhex_limbs(test, fa.v, v->a);
			unhex_limbs(test, fb.v, v->b);
			p256_fe_mul(&fr, &fa, &fb);
			KUNIT_EXPECT_MEMEQ_MSG(test, fr.v, want, sizeof(want), "%s", v->name);
			if (!memcmp(fa.v, fb.v, sizeof(fa.v))) {
				p256_fe_sqr(&fr, &fa);
				KUNIT_EXPECT_MEMEQ_MSG(test, fr.v, want, sizeof(want),
						       "%s, squared", v->name);
			}
		} else {
			unhex_limbs(test, sa.v, v->a);
			unhex_limbs(test, sb.v, v->b);
			p256_scalar_mont_mul(&sr, &sa, &sb);
			KUNIT_EXPECT_MEMEQ_MSG(test, sr.v, want, sizeof(want), "%s", v->name);
		}
	}
}

static void p256_test_public_key(struct kunit *test)
{
	const struct p256_pubkey_vector *v;
	u8 priv[32], pub[65], want[65];

	for (v = p256_pubkey_vectors; v < p256_pubkey_vectors + ARRAY_SIZE(p256_pubkey_vectors);
	     v++) {
		unhex(test, priv, sizeof(priv), v->priv);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_public_key(pub, priv), v->ret, "%s", v->name);
		if (v->ret)
			continue;
		unhex(test, want, sizeof(want), v->pub);
		KUNIT_EXPECT_MEMEQ_MSG(test, pub, want, sizeof(want), "%s", v->name);
	}
}

static void p256_test_rfc6979(struct kunit *test)
{
	const struct p256_sign_vector *v;
	u8 priv[32], pub[65], digest[64], k[32], want_k[32], sig[64], want[64];
	size_t len;

	unhex(test, priv, sizeof(priv), p256_rfc6979_key.priv);
	unhex(test, pub, sizeof(pub), p256_rfc6979_key.pub);
	for (v = p256_rfc6979_vectors; v < p256_rfc6979_vectors + ARRAY_SIZE(p256_rfc6979_vectors);
	     v++) {
		len = unhex(test, digest, sizeof(digest), v->digest);
		unhex(test, want_k, sizeof(want_k), v->k);
		unhex(test, want, sizeof(want), v->sig);

		p256_rfc6979_nonce(k, priv, digest, len, NULL);
		KUNIT_EXPECT_MEMEQ_MSG(test, k, want_k, sizeof(k), "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, p256_ecdsa_sign_extra(sig, priv, digest, len, NULL), 0,
				    "%s", v->name);
		KUNIT_EXPECT_MEMEQ_MSG(test, sig, want, sizeof(sig), "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_ecdsa_verify(pub, digest, len, sig), 0,
				    "%s", v->name);
	}
}

static void p256_test_verify(struct kunit *test)
{
	const struct p256_verify_vector *v;
	u8 pub[65], digest[64], sig[64];
	size_t len;

	for (v = p256_verify_vectors; v < p256_verify_vectors + ARRAY_SIZE(p256_verify_vectors);
	     v++) {
		unhex(test, pub, sizeof(pub), v->pub);
		len = unhex(test, digest, sizeof(digest), v->digest);
		unhex(test, sig, sizeof(sig), v->sig);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_ecdsa_verify(pub, digest, len, sig), v->ret,
				    "%s", v->name);
	}
}

static void p256_test_ecdh(struct kunit *test)
{
	const struct p256_ecdh_vector *v;
	u8 priv[32], peer[65], secret[32], want[32];

	for (v = p256_ecdh_vectors; v < p256_ecdh_vectors + ARRAY_SIZE(p256_ecdh_vectors); v++) {
		unhex(test, priv, sizeof(priv), v->priv);
		unhex(test, peer, sizeof(peer), v->peer);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_ecdh(secret, priv, peer), v->ret,
				    "%s", v->name);
		if (v->ret)
			continue;
		unhex(test, want, sizeof(want), v->secret);
		KUNIT_EXPECT_MEMEQ_MSG(test, secret, want, sizeof(want), "%s", v->name);
	}
}

static void p256_test_der(struct kunit *test)
{
	const struct p256_der_vector *v;
	u8 der[80], out[80], sig[64], want[64];
	size_t len;

	for (v = p256_der_vectors; v < p256_der_vectors + ARRAY_SIZE(p256_der_vectors); v++) {
		len = unhex(test, der, sizeof(der), v->der);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_sig_from_der(sig, der, len), v->ret,
				    "%s", v->name);
		if (v->ret)
			continue;
		unhex(test, want, sizeof(want), v->sig);
		KUNIT_EXPECT_MEMEQ_MSG(test, sig, want, sizeof(want), "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_sig_to_der(out, sizeof(out), want), (int)len,
				    "%s", v->name);
		KUNIT_EXPECT_MEMEQ_MSG(test, out, der, len, "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, ktls_p256_sig_to_der(out, len - 1, want), -ENOSPC,
				    "%s", v->name);
	}
}

/* Fresh randomness every time: signatures differ, and both verify. */
static void p256_test_hedged_sign(struct kunit *test)
{
	u8 priv[32], pub[65], digest[32], s1[64], s2[64], zero[32] = { 0 };

	unhex(test, priv, sizeof(priv), p256_rfc6979_key.priv);
	unhex(test, pub, sizeof(pub), p256_rfc6979_key.pub);
	memset(digest, 0xa5, sizeof(digest));
	KUNIT_ASSERT_EQ(test, ktls_p256_ecdsa_sign(s1, priv, digest, sizeof(digest)), 0);
	KUNIT_ASSERT_EQ(test, ktls_p256_ecdsa_sign(s2, priv, digest, sizeof(digest)), 0);
	KUNIT_EXPECT_NE(test, memcmp(s1, s2, sizeof(s1)), 0);
	KUNIT_EXPECT_EQ(test, ktls_p256_ecdsa_verify(pub, digest, sizeof(digest), s1), 0);
	KUNIT_EXPECT_EQ(test, ktls_p256_ecdsa_verify(pub, digest, sizeof(digest), s2), 0);
	/* an empty digest is e = 0, still a valid message */
	KUNIT_EXPECT_EQ(test, ktls_p256_ecdsa_sign(s1, priv, digest, 0), 0);
	KUNIT_EXPECT_EQ(test, ktls_p256_ecdsa_verify(pub, digest, 0, s1), 0);
	KUNIT_EXPECT_EQ(test, ktls_p256_ecdsa_sign(s1, zero, digest, sizeof(digest)), -EINVAL);
}

/* Two fresh key pairs agree on one secret. */
static void p256_test_keygen(struct kunit *test)
{
	u8 a[32], apub[65], b[32], bpub[65], s1[32], s2[32], chk[65];

	KUNIT_ASSERT_EQ(test, ktls_p256_ecdh_keygen(a, apub), 0);
	KUNIT_ASSERT_EQ(test, ktls_p256_ecdh_keygen(b, bpub), 0);
	KUNIT_EXPECT_NE(test, memcmp(a, b, sizeof(a)), 0);
	KUNIT_ASSERT_EQ(test, ktls_p256_public_key(chk, a), 0);
	KUNIT_EXPECT_MEMEQ(test, chk, apub, sizeof(chk));
	KUNIT_ASSERT_EQ(test, ktls_p256_ecdh(s1, a, bpub), 0);
	KUNIT_ASSERT_EQ(test, ktls_p256_ecdh(s2, b, apub), 0);
	KUNIT_EXPECT_MEMEQ(test, s1, s2, sizeof(s1));
}

/*
 * k * G two ways, the fixed-base table and the variable-base windows on
 * G's encoding, for random k: the x coordinates must agree.
 */
static void p256_test_base_vs_variable(struct kunit *test)
{
	const char *g_hex = NULL;
	u8 g[65], k[32], pub[65], x[32];
	int i;

	/* the vector for k = 1 holds G */
	for (i = 0; i < ARRAY_SIZE(p256_pubkey_vectors); i++)
		if (!strcmp(p256_pubkey_vectors[i].name, "k = 1"))
			g_hex = p256_pubkey_vectors[i].pub;
	KUNIT_ASSERT_NOT_NULL(test, g_hex);
	unhex(test, g, sizeof(g), g_hex);
	for (i = 0; i < 32; i++) {
		KUNIT_ASSERT_EQ(test, ktls_p256_ecdh_keygen(k, pub), 0);
		KUNIT_ASSERT_EQ(test, ktls_p256_ecdh(x, k, g), 0);
		KUNIT_EXPECT_MEMEQ(test, x, pub + 1, sizeof(x));
	}
}

/*
 * The handshake may run from softirq: every entry point, with bottom
 * halves off, so DEBUG_ATOMIC_SLEEP would catch a sleep or allocation.
 */
static void p256_test_softirq_context(struct kunit *test)
{
	u8 a[32], apub[65], b[32], bpub[65], s[32], sig[64], digest[32] = { 1 };
	int ret = 0;

	local_bh_disable();
	ret |= ktls_p256_ecdh_keygen(a, apub);
	ret |= ktls_p256_ecdh_keygen(b, bpub);
	ret |= ktls_p256_ecdh(s, a, bpub);
	ret |= ktls_p256_ecdsa_sign(sig, a, digest, sizeof(digest));
	ret |= ktls_p256_ecdsa_verify(apub, digest, sizeof(digest), sig);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
}

static struct kunit_case p256_test_cases[] = {
	KUNIT_CASE(p256_test_mont_edges),
	KUNIT_CASE(p256_test_public_key),
	KUNIT_CASE(p256_test_rfc6979),
	KUNIT_CASE(p256_test_verify),
	KUNIT_CASE(p256_test_ecdh),
	KUNIT_CASE(p256_test_der),
	KUNIT_CASE(p256_test_hedged_sign),
	KUNIT_CASE(p256_test_keygen),
	KUNIT_CASE(p256_test_base_vs_variable),
	KUNIT_CASE(p256_test_softirq_context),
	{}
};

static struct kunit_suite p256_test_suite = {
	.name = "ktls_hs_p256",
	.test_cases = p256_test_cases,
};

kunit_test_suite(p256_test_suite);
