// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ktls_hs_mlkem: ML-KEM-768 of crypto/mlkem*.c against the
 * vectors of mlkem_vectors.h (CCTV's unlucky-sample vector, Go's CAST,
 * the accumulated test over 100 iterations), compression against its
 * definition, the input checks of FIPS 203 sections 7.2 and 7.3, and
 * every entry point with bottom halves disabled, as the handshake calls
 * them.  tools/crypto runs the same vectors, the accumulated test over
 * 10000 iterations and a differential test against Go in userspace.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/errno.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <ktls_hs/keccak.h>
#include <ktls_hs/mlkem.h>

#include "../mlkem_internal.h"
#include "mlkem_vectors.h"

/* what the cases share, allocated per case: too big for a kernel stack */
struct mlkem_test_bufs {
	struct ktls_mlkem768_scratch scratch;
	u8 ek[KTLS_MLKEM768_EK_LEN];
	u8 dk[KTLS_MLKEM768_DK_LEN];
	u8 ct[KTLS_MLKEM768_CT_LEN];
	struct ktls_mlkem768_dk_expanded key;
};

static struct mlkem_test_bufs *mlkem_bufs(struct kunit *test)
{
	struct mlkem_test_bufs *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}

static void mlkem_unhex(struct kunit *test, u8 *out, const char *hex, size_t len)
{
	KUNIT_ASSERT_EQ(test, strlen(hex), 2 * len);
	KUNIT_ASSERT_EQ(test, hex2bin(out, hex, len), 0);
}

/* the standard's Compress_d and Decompress_d, which divide, for every input */
static void mlkem_test_compress(struct kunit *test)
{
	static const unsigned int ds[] = { 1, 4, 10, 11 };
	unsigned int i, x, d, want;

	for (i = 0; i < ARRAY_SIZE(ds); i++) {
		d = ds[i];
		for (x = 0; x < MLKEM_Q; x++) {
			want = (((2U << d) * x + MLKEM_Q) / (2 * MLKEM_Q)) & ((1U << d) - 1);
			KUNIT_ASSERT_EQ_MSG(test, mlkem_compress(x, d), want, "d %u x %u", d, x);
		}
		for (x = 0; x < 1U << d; x++) {
			want = (2U * MLKEM_Q * x + (1U << d)) / (2U << d);
			KUNIT_ASSERT_EQ_MSG(test, (unsigned int)mlkem_decompress(x, d), want,
					    "d %u y %u", d, x);
		}
	}
}

/* J(z || c), the implicit-rejection secret */
static void mlkem_reject_secret(u8 out[32], const u8 z[32], const u8 *ct)
{
	struct ktls_keccak j;

	ktls_shake256_init(&j);
	ktls_shake_absorb(&j, z, 32);
	ktls_shake_absorb(&j, ct, KTLS_MLKEM768_CT_LEN);
	ktls_shake_squeeze(&j, out, 32);
}

static void mlkem_test_vectors(struct kunit *test)
{
	struct mlkem_test_bufs *b = mlkem_bufs(test);
	const struct mlkem_vector *v;
	u8 d[32], z[32], m[32], want[32], h[32], ss[32];

	for (v = mlkem_vectors; v < mlkem_vectors + ARRAY_SIZE(mlkem_vectors); v++) {
		mlkem_unhex(test, d, v->d, 32);
		mlkem_unhex(test, z, v->z, 32);
		mlkem_unhex(test, m, v->m, 32);
		ktls_mlkem768_keygen_derand(b->ek, b->dk, d, z, &b->scratch);
		if (v->ek_hash) {
			mlkem_unhex(test, want, v->ek_hash, 32);
			ktls_sha3_256(h, b->ek, sizeof(b->ek));
			KUNIT_EXPECT_MEMEQ_MSG(test, h, want, 32, "%s: ek", v->name);
		}
		if (v->dk_hash) {
			mlkem_unhex(test, want, v->dk_hash, 32);
			ktls_sha3_256(h, b->dk, sizeof(b->dk));
			KUNIT_EXPECT_MEMEQ_MSG(test, h, want, 32, "%s: dk", v->name);
		}
		KUNIT_EXPECT_EQ_MSG(test, ktls_mlkem768_check_dk(b->dk), 0, "%s", v->name);

		mlkem_unhex(test, want, v->ss, 32);
		KUNIT_EXPECT_EQ(test, ktls_mlkem768_encaps_derand(b->ct, ss, b->ek, sizeof(b->ek),
								  m, &b->scratch), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, ss, want, 32, "%s: encaps", v->name);
		if (v->ct_hash) {
			mlkem_unhex(test, want, v->ct_hash, 32);
			ktls_sha3_256(h, b->ct, sizeof(b->ct));
			KUNIT_EXPECT_MEMEQ_MSG(test, h, want, 32, "%s: ciphertext", v->name);
			mlkem_unhex(test, want, v->ss, 32);
		}
		KUNIT_EXPECT_EQ(test, ktls_mlkem768_decaps(ss, b->ct, sizeof(b->ct), b->dk,
							   &b->scratch), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, ss, want, 32, "%s: decaps", v->name);
		KUNIT_EXPECT_EQ(test, ktls_mlkem768_expand_dk(&b->key, b->dk, &b->scratch), 0);
		KUNIT_EXPECT_EQ(test, ktls_mlkem768_decaps_expanded(ss, b->ct, sizeof(b->ct),
								    &b->key, &b->scratch), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, ss, want, 32, "%s: decaps, expanded key", v->name);

		/* a flipped bit: the rejection secret, not K */
		b->ct[100] ^= 0x10;
		mlkem_reject_secret(h, z, b->ct);
		KUNIT_EXPECT_EQ(test, ktls_mlkem768_decaps(ss, b->ct, sizeof(b->ct), b->dk,
							   &b->scratch), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, ss, h, 32, "%s: implicit rejection", v->name);
		KUNIT_EXPECT_MEMNEQ_MSG(test, ss, want, 32, "%s: implicit rejection", v->name);
		KUNIT_EXPECT_EQ(test, ktls_mlkem768_decaps_expanded(ss, b->ct, sizeof(b->ct),
								    &b->key, &b->scratch), 0);
		KUNIT_EXPECT_MEMEQ_MSG(test, ss, h, 32, "%s: implicit rejection, expanded key",
				       v->name);
	}
}

/* Go's TestAccumulated over 100 iterations, see mlkem_vectors.h */
static void mlkem_test_accumulated(struct kunit *test)
{
	const struct mlkem_accumulated *a = &mlkem_accumulated[0];
	struct mlkem_test_bufs *b = mlkem_bufs(test);
	struct ktls_keccak *s, *o;
	u8 seed[64], m[32], ss[32], ss2[32], digest[32], want[32];
	unsigned int i;

	s = kunit_kzalloc(test, 2 * sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	o = s + 1;
	ktls_shake128_init(s);
	ktls_shake128_init(o);
	for (i = 0; i < a->iterations; i++) {
		ktls_shake_squeeze(s, seed, sizeof(seed));
		ktls_mlkem768_keygen_derand(b->ek, b->dk, seed, seed + 32, &b->scratch);
		ktls_shake_absorb(o, b->ek, sizeof(b->ek));
		ktls_shake_squeeze(s, m, sizeof(m));
		KUNIT_ASSERT_EQ(test, ktls_mlkem768_encaps_derand(b->ct, ss, b->ek, sizeof(b->ek),
								  m, &b->scratch), 0);
		ktls_shake_absorb(o, b->ct, sizeof(b->ct));
		ktls_shake_absorb(o, ss, sizeof(ss));
		ktls_mlkem768_decaps(ss2, b->ct, sizeof(b->ct), b->dk, &b->scratch);
		KUNIT_ASSERT_MEMEQ(test, ss, ss2, sizeof(ss));
		ktls_shake_squeeze(s, b->ct, sizeof(b->ct));
		ktls_mlkem768_decaps(ss2, b->ct, sizeof(b->ct), b->dk, &b->scratch);
		ktls_shake_absorb(o, ss2, sizeof(ss2));
	}
	ktls_shake_squeeze(o, digest, sizeof(digest));
	mlkem_unhex(test, want, a->digest, 32);
	KUNIT_EXPECT_MEMEQ(test, digest, want, sizeof(want));
}

/* coefficient @i of ek's t set to @v */
static void mlkem_set_coeff(u8 *ek, unsigned int i, unsigned int v)
{
	u8 *p = ek + 3 * (i / 2);

	if (i & 1) {
		p[1] = (p[1] & 0x0f) | (v << 4);
		p[2] = v >> 4;
	} else {
		p[0] = v;
		p[1] = (p[1] & 0xf0) | (v >> 8);
	}
}

/* FIPS 203 7.2 (modulus and length of ek) and 7.3 (H(ek) in dk, length of c) */
static void mlkem_test_checks(struct kunit *test)
{
	static const unsigned int coeffs[] = { 0, 1, 255, 256, 511, 767 };
	struct mlkem_test_bufs *b = mlkem_bufs(test);
	u8 d[32] = { 1 }, z[32] = { 2 }, ss[32], zero[32] = { 0 };
	unsigned int i;

	ktls_mlkem768_keygen_derand(b->ek, b->dk, d, z, &b->scratch);
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_check_ek(b->ek, KTLS_MLKEM768_EK_LEN), 0);
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_check_ek(b->ek, KTLS_MLKEM768_EK_LEN - 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_check_ek(b->ek, 0), -EINVAL);

	for (i = 0; i < ARRAY_SIZE(coeffs); i++) {
		u8 save[3];

		memcpy(save, b->ek + 3 * (coeffs[i] / 2), 3);
		mlkem_set_coeff(b->ek, coeffs[i], MLKEM_Q - 1);
		KUNIT_EXPECT_EQ_MSG(test, ktls_mlkem768_check_ek(b->ek, KTLS_MLKEM768_EK_LEN), 0,
				    "coefficient %u = q - 1", coeffs[i]);
		mlkem_set_coeff(b->ek, coeffs[i], MLKEM_Q);
		memset(ss, 0, sizeof(ss));
		KUNIT_EXPECT_EQ_MSG(test, ktls_mlkem768_encaps(b->ct, ss, b->ek,
							       KTLS_MLKEM768_EK_LEN, &b->scratch),
				    -EINVAL, "coefficient %u = q", coeffs[i]);
		KUNIT_EXPECT_MEMEQ(test, ss, zero, sizeof(ss));
		mlkem_set_coeff(b->ek, coeffs[i], 4095);
		KUNIT_EXPECT_EQ_MSG(test, ktls_mlkem768_check_ek(b->ek, KTLS_MLKEM768_EK_LEN),
				    -EINVAL, "coefficient %u = 4095", coeffs[i]);
		memcpy(b->ek + 3 * (coeffs[i] / 2), save, 3);
	}

	KUNIT_EXPECT_EQ(test, ktls_mlkem768_check_dk(b->dk), 0);
	b->dk[KTLS_MLKEM768_DK_LEN - 64] ^= 1;
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_check_dk(b->dk), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_expand_dk(&b->key, b->dk, &b->scratch), -EINVAL);
	b->dk[KTLS_MLKEM768_DK_LEN - 64] ^= 1;

	KUNIT_EXPECT_EQ(test, ktls_mlkem768_decaps(ss, b->ct, KTLS_MLKEM768_CT_LEN - 1, b->dk,
						   &b->scratch), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_expand_dk(&b->key, b->dk, &b->scratch), 0);
	KUNIT_EXPECT_EQ(test, ktls_mlkem768_decaps_expanded(ss, b->ct, KTLS_MLKEM768_CT_LEN + 1,
							    &b->key, &b->scratch), -EINVAL);
}

/*
 * The handshake encapsulates from softirq: every entry point with bottom
 * halves off, so DEBUG_ATOMIC_SLEEP would catch a sleep or allocation;
 * the kernel RNG's keys and messages also get a round trip here.
 */
static void mlkem_test_softirq_context(struct kunit *test)
{
	struct mlkem_test_bufs *b = mlkem_bufs(test);
	u8 ss[32], ss2[32];
	int ret = 0;

	local_bh_disable();
	ktls_mlkem768_keygen(b->ek, b->dk, &b->scratch);
	ret |= ktls_mlkem768_encaps(b->ct, ss, b->ek, sizeof(b->ek), &b->scratch);
	ret |= ktls_mlkem768_decaps(ss2, b->ct, sizeof(b->ct), b->dk, &b->scratch);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_MEMEQ(test, ss, ss2, sizeof(ss));
	local_bh_disable();
	ret |= ktls_mlkem768_expand_dk(&b->key, b->dk, &b->scratch);
	ret |= ktls_mlkem768_decaps_expanded(ss2, b->ct, sizeof(b->ct), &b->key, &b->scratch);
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_MEMEQ(test, ss, ss2, sizeof(ss));
}

static struct kunit_case mlkem_test_cases[] = {
	KUNIT_CASE(mlkem_test_compress),
	KUNIT_CASE(mlkem_test_vectors),
	KUNIT_CASE(mlkem_test_accumulated),
	KUNIT_CASE(mlkem_test_checks),
	KUNIT_CASE(mlkem_test_softirq_context),
	{}
};

static struct kunit_suite mlkem_test_suite = {
	.name = "ktls_hs_mlkem",
	.test_cases = mlkem_test_cases,
};

kunit_test_suite(mlkem_test_suite);
