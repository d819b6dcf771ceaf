// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known-answer tests of crypto/keccak.c in userspace, in TAP: the vectors
 * of crypto/tests/keccak_vectors.h (the KUnit suite runs the same), and a
 * differential run against OpenSSL's libcrypto: random messages of every
 * length up to a few blocks, absorbed and squeezed in random pieces, so
 * every offset within the rate meets every path of the sponge.
 */
#include <openssl/evp.h>

#include <linux/types.h>
#include <ktls_hs/keccak.h>
#include "keccak_vectors.h"
#include "tap.h"

static void absorb_vector(struct ktls_keccak *k, const struct keccak_vector *v)
{
	unsigned int i;

	for (i = 0; i < v->repeat; i++)
		ktls_shake_absorb(k, (const u8 *)v->chunk, v->chunk_len);
}

static int check(const u8 *got, const char *want_hex, size_t len)
{
	u8 want[64];

	return unhex(want, sizeof(want), want_hex) == len && !memcmp(got, want, len);
}

static void test_vectors(void)
{
	const struct keccak_vector *v;
	struct ktls_keccak k;
	u8 out[64];

	for (v = keccak_vectors; v < keccak_vectors + ARRAY_SIZE(keccak_vectors); v++) {
		ktls_sha3_init(&k, KTLS_SHA3_256_RATE);
		absorb_vector(&k, v);
		ktls_sha3_final(&k, out, 32);
		tap(check(out, v->sha3_256, 32), "SHA3-256: %s", v->name);

		ktls_sha3_init(&k, KTLS_SHA3_512_RATE);
		absorb_vector(&k, v);
		ktls_sha3_final(&k, out, 64);
		tap(check(out, v->sha3_512, 64), "SHA3-512: %s", v->name);

		ktls_shake128_init(&k);
		absorb_vector(&k, v);
		ktls_shake_squeeze(&k, out, 32);
		tap(check(out, v->shake128, 32), "SHAKE128: %s", v->name);

		ktls_shake256_init(&k);
		absorb_vector(&k, v);
		ktls_shake_squeeze(&k, out, 64);
		tap(check(out, v->shake256, 64), "SHAKE256: %s", v->name);
	}
	/* the one-shot calls on the single-chunk vectors */
	v = &keccak_vectors[1];
	ktls_sha3_256(out, (const u8 *)v->chunk, v->chunk_len);
	tap(check(out, v->sha3_256, 32), "ktls_sha3_256(): %s", v->name);
	ktls_sha3_512(out, (const u8 *)v->chunk, v->chunk_len);
	tap(check(out, v->sha3_512, 64), "ktls_sha3_512(): %s", v->name);
}

/* squeezed one odd-sized piece at a time, to offset 480 */
static void test_squeeze(void)
{
	struct ktls_keccak k;
	u8 skip[7], out[32];
	int i;

	ktls_shake128_init(&k);
	for (i = 0; i < KECCAK_SQUEEZE_OFFSET / 7; i++)
		ktls_shake_squeeze(&k, skip, 7);
	ktls_shake_squeeze(&k, skip, KECCAK_SQUEEZE_OFFSET % 7);
	ktls_shake_squeeze(&k, out, 32);
	tap(check(out, keccak_shake128_squeeze, 32), "SHAKE128: %s", "bytes 480..511 in pieces");

	ktls_shake256_init(&k);
	for (i = 0; i < KECCAK_SQUEEZE_OFFSET / 32; i++)
		ktls_shake_squeeze(&k, out, 32);
	ktls_shake_squeeze(&k, out, 32);
	tap(check(out, keccak_shake256_squeeze, 32), "SHAKE256: %s", "bytes 480..511 in pieces");
}

static const EVP_MD *md_of(int which)
{
	static const EVP_MD *(* const md[])(void) = {
		EVP_sha3_256, EVP_sha3_512, EVP_shake128, EVP_shake256,
	};

	return md[which]();
}

static void ours_init(struct ktls_keccak *k, int which)
{
	if (which == 0)
		ktls_sha3_init(k, KTLS_SHA3_256_RATE);
	else if (which == 1)
		ktls_sha3_init(k, KTLS_SHA3_512_RATE);
	else if (which == 2)
		ktls_shake128_init(k);
	else
		ktls_shake256_init(k);
}

/*
 * Every message length 0..599 for each function; pieces of random size
 * in and out; SHAKE output of random length up to 700 bytes.
 */
static void test_openssl(void)
{
	static const char * const names[] = { "SHA3-256", "SHA3-512", "SHAKE128", "SHAKE256" };
	u8 msg[600], ours[700], theirs[700];
	int which, bad, runs;
	size_t len, pos, n, out_len;

	srandom(1);
	for (which = 0; which < 4; which++) {
		bad = 0;
		runs = 0;
		for (len = 0; len < sizeof(msg); len++, runs++) {
			struct ktls_keccak k;
			EVP_MD_CTX *ctx = EVP_MD_CTX_new();

			for (pos = 0; pos < len; pos++)
				msg[pos] = random();
			out_len = which < 2 ? (which ? 64 : 32) : 1 + random() % sizeof(ours);

			ours_init(&k, which);
			for (pos = 0; pos < len; pos += n) {
				n = random() % 200;
				if (n > len - pos)
					n = len - pos;
				ktls_shake_absorb(&k, msg + pos, n);
			}
			for (pos = 0; pos < out_len; pos += n) {
				n = 1 + random() % 200;
				if (n > out_len - pos)
					n = out_len - pos;
				ktls_shake_squeeze(&k, ours + pos, n);
			}

			EVP_DigestInit_ex(ctx, md_of(which), NULL);
			EVP_DigestUpdate(ctx, msg, len);
			if (which < 2)
				EVP_DigestFinal_ex(ctx, theirs, NULL);
			else
				EVP_DigestFinalXOF(ctx, theirs, out_len);
			EVP_MD_CTX_free(ctx);
			bad += !!memcmp(ours, theirs, out_len);
		}
		tap(!bad, "libcrypto: %s agrees on %d messages of 0..%zu bytes in random pieces",
		    names[which], runs, sizeof(msg) - 1);
	}
}

int main(void)
{
	printf("TAP version 13\n");
	test_vectors();
	test_squeeze();
	test_openssl();
	return tap_done();
}
