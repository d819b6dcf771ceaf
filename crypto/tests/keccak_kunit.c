// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite ktls_hs_keccak: SHA3-256, SHA3-512, SHAKE128 and SHAKE256
 * of crypto/keccak.c against the published answers in keccak_vectors.h
 * (which tools/crypto's kat_keccak shares; it also compares against
 * libcrypto on every length, which only userspace can do).
 */
#include <kunit/test.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <ktls_hs/keccak.h>

#include "keccak_vectors.h"

static void keccak_expect(struct kunit *test, const u8 *got, const char *hex, size_t len,
			  const char *what, const char *name)
{
	u8 want[64];

	KUNIT_ASSERT_EQ(test, strlen(hex), 2 * len);
	KUNIT_ASSERT_EQ(test, hex2bin(want, hex, len), 0);
	KUNIT_EXPECT_MEMEQ_MSG(test, got, want, len, "%s: %s", what, name);
}

static void keccak_absorb_vector(struct ktls_keccak *k, const struct keccak_vector *v)
{
	unsigned int i;

	for (i = 0; i < v->repeat; i++)
		ktls_shake_absorb(k, (const u8 *)v->chunk, v->chunk_len);
}

static void keccak_test_vectors(struct kunit *test)
{
	const struct keccak_vector *v;
	struct ktls_keccak k;
	u8 out[64];

	for (v = keccak_vectors; v < keccak_vectors + ARRAY_SIZE(keccak_vectors); v++) {
		ktls_sha3_init(&k, KTLS_SHA3_256_RATE);
		keccak_absorb_vector(&k, v);
		ktls_sha3_final(&k, out, 32);
		keccak_expect(test, out, v->sha3_256, 32, "SHA3-256", v->name);

		ktls_sha3_init(&k, KTLS_SHA3_512_RATE);
		keccak_absorb_vector(&k, v);
		ktls_sha3_final(&k, out, 64);
		keccak_expect(test, out, v->sha3_512, 64, "SHA3-512", v->name);

		ktls_shake128_init(&k);
		keccak_absorb_vector(&k, v);
		ktls_shake_squeeze(&k, out, 32);
		keccak_expect(test, out, v->shake128, 32, "SHAKE128", v->name);

		ktls_shake256_init(&k);
		keccak_absorb_vector(&k, v);
		ktls_shake_squeeze(&k, out, 64);
		keccak_expect(test, out, v->shake256, 64, "SHAKE256", v->name);
	}
	v = &keccak_vectors[1];
	ktls_sha3_256(out, (const u8 *)v->chunk, v->chunk_len);
	keccak_expect(test, out, v->sha3_256, 32, "ktls_sha3_256()", v->name);
	ktls_sha3_512(out, (const u8 *)v->chunk, v->chunk_len);
	keccak_expect(test, out, v->sha3_512, 64, "ktls_sha3_512()", v->name);
}

/* many squeezes of odd sizes, across blocks, to offset 480 */
static void keccak_test_squeeze(struct kunit *test)
{
	struct ktls_keccak k;
	u8 skip[7], out[32];
	int i;

	ktls_shake128_init(&k);
	for (i = 0; i < KECCAK_SQUEEZE_OFFSET / 7; i++)
		ktls_shake_squeeze(&k, skip, sizeof(skip));
	ktls_shake_squeeze(&k, skip, KECCAK_SQUEEZE_OFFSET % 7);
	ktls_shake_squeeze(&k, out, sizeof(out));
	keccak_expect(test, out, keccak_shake128_squeeze, 32, "SHAKE128", "bytes 480..511");

	ktls_shake256_init(&k);
	for (i = 0; i < KECCAK_SQUEEZE_OFFSET / 32; i++)
		ktls_shake_squeeze(&k, out, sizeof(out));
	ktls_shake_squeeze(&k, out, sizeof(out));
	keccak_expect(test, out, keccak_shake256_squeeze, 32, "SHAKE256", "bytes 480..511");
}

static struct kunit_case keccak_test_cases[] = {
	KUNIT_CASE(keccak_test_vectors),
	KUNIT_CASE(keccak_test_squeeze),
	{}
};

static struct kunit_suite keccak_test_suite = {
	.name = "ktls_hs_keccak",
	.test_cases = keccak_test_cases,
};

kunit_test_suite(keccak_test_suite);
