// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known-answer tests of ML-KEM-768 (crypto/mlkem*.c) in userspace, in
 * TAP: the arithmetic against its definitions over every input (Barrett
 * and Montgomery reduction, compression, the NTT product against
 * schoolbook multiplication), the vectors of crypto/tests/mlkem_vectors.h
 * (the KUnit suite runs the same), the accumulated test over 10000
 * iterations, and the input checks.  The differential run against Go's
 * crypto/mlkem is diff_mlkem.c.
 */
#include <errno.h>

#include <linux/types.h>
#include <ktls_hs/keccak.h>
#include <ktls_hs/mlkem.h>
#include "mlkem_internal.h"
#include "mlkem_vectors.h"
#include "tap.h"

static struct ktls_mlkem768_scratch scratch;
static struct ktls_mlkem768_dk_expanded key;

/*
 * Decapsulation with the key's bytes and with the key expanded: the two
 * must agree in result and secret, so every decaps case below tests both.
 * -EFAULT if they do not.
 */
static int decaps_both(u8 ss[32], const u8 *ct, size_t ct_len, const u8 *dk)
{
	u8 ss2[32];
	int ret = ktls_mlkem768_decaps(ss, ct, ct_len, dk, &scratch);

	if (ktls_mlkem768_expand_dk(&key, dk, &scratch) ||
	    ktls_mlkem768_decaps_expanded(ss2, ct, ct_len, &key, &scratch) != ret ||
	    (!ret && memcmp(ss, ss2, sizeof(ss2))))
		return -EFAULT;
	return ret;
}

static int mod_q(long a)
{
	a %= MLKEM_Q;
	return a < 0 ? a + MLKEM_Q : a;
}

static void test_reduce(void)
{
	long a, bad = 0;
	int r;

	for (a = -32768; a < 32768; a++) {
		r = mlkem_barrett_reduce(a);
		bad += r < -(MLKEM_Q - 1) / 2 || r > (MLKEM_Q - 1) / 2 || mod_q(r) != mod_q(a);
	}
	tap(!bad, "Barrett reduction: all 2^16 inputs centred and congruent");

	/* a R^-1 with R = 2^16: r * 2^16 == a mod q, |r| < q */
	bad = 0;
	for (a = -(long)MLKEM_Q * 32768 + 1; a < (long)MLKEM_Q * 32768; a += 97) {
		r = mlkem_mont_reduce(a);
		bad += r <= -MLKEM_Q || r >= MLKEM_Q || mod_q((long)r * 65536) != mod_q(a);
	}
	tap(!bad, "Montgomery reduction: every 97th input of (-q 2^15, q 2^15)");
}

/* the standard's Compress_d and Decompress_d, with division */
static void test_compress(void)
{
	static const unsigned int ds[] = { 1, 4, 10, 11 };
	unsigned int i, x, want, bad;

	for (i = 0; i < ARRAY_SIZE(ds); i++) {
		unsigned int d = ds[i];

		bad = 0;
		for (x = 0; x < MLKEM_Q; x++) {
			/* round(2^d x / q) = floor((2^(d+1) x + q) / 2q) */
			want = (((2UL << d) * x + MLKEM_Q) / (2 * MLKEM_Q)) & ((1U << d) - 1);
			bad += mlkem_compress(x, d) != want;
		}
		for (x = 0; x < 1U << d; x++) {
			want = (2UL * MLKEM_Q * x + (1U << d)) / (2U << d);
			bad += (unsigned int)mlkem_decompress(x, d) != want;
		}
		tap(!bad, "Compress_%u and Decompress_%u: every input against the definition",
		    d, d);
	}
}

static long pow_q(long b, unsigned int e)
{
	long r = 1;

	for (; e; e >>= 1, b = b * b % MLKEM_Q)
		if (e & 1)
			r = r * b % MLKEM_Q;
	return r;
}

static unsigned int bitrev7(unsigned int i)
{
	unsigned int r = 0, k;

	for (k = 0; k < 7; k++)
		r |= ((i >> k) & 1) << (6 - k);
	return r;
}

/*
 * The inner product in the NTT domain against Algorithms 11 and 12 done
 * in 64 bits, with gamma = 17^(2 BitRev7(i) + 1) computed here; round 0
 * puts every operand at its bound, all products of one sign.
 */
static void test_dot(void)
{
	static s16 a[MLKEM_K][MLKEM_N], b[MLKEM_K][MLKEM_N], c[MLKEM_N];
	int i, j, round, bad = 0;

	srandom(3);
	for (round = 0; round < 100; round++) {
		for (j = 0; j < MLKEM_K; j++)
			for (i = 0; i < MLKEM_N; i++) {
				a[j][i] = round ? random() % MLKEM_Q : MLKEM_Q - 1;
				b[j][i] = round ? (long)(random() % MLKEM_Q) - (MLKEM_Q - 1) / 2 :
					  (i & 2 ? -1 : 1) * (MLKEM_Q - 1) / 2;
			}
		mlkem_poly_dot(c, a, b);
		for (i = 0; i < MLKEM_N; i += 2) {
			long gamma = pow_q(17, 2 * bitrev7(i / 2) + 1), w0 = 0, w1 = 0;

			for (j = 0; j < MLKEM_K; j++) {
				w0 += (long)a[j][i] * b[j][i] +
				      (long)a[j][i + 1] * b[j][i + 1] % MLKEM_Q * gamma;
				w1 += (long)a[j][i] * b[j][i + 1] + (long)a[j][i + 1] * b[j][i];
			}
			bad += c[i] <= -MLKEM_Q || c[i] >= MLKEM_Q ||
			       mod_q((long)c[i] * 65536) != mod_q(w0);
			bad += c[i + 1] <= -MLKEM_Q || c[i + 1] >= MLKEM_Q ||
			       mod_q((long)c[i + 1] * 65536) != mod_q(w1);
		}
	}
	tap(!bad, "NTT-domain inner product: 100 against the definition, one at the bounds");
}

/*
 * NTT^-1(sum_j NTT(a_j) o NTT(b_j)) against sum_j a_j b_j mod (X^256 + 1)
 * in schoolbook form; round 0 has every input at the bound q - 1.
 */
static void test_ntt_product(void)
{
	static s16 a[MLKEM_K][MLKEM_N], b[MLKEM_K][MLKEM_N], c[MLKEM_N];
	long want[MLKEM_N];
	int i, j, k, round, bad = 0;

	srandom(2);
	for (round = 0; round < 10; round++) {
		memset(want, 0, sizeof(want));
		for (k = 0; k < MLKEM_K; k++) {
			for (i = 0; i < MLKEM_N; i++) {
				long ra = (long)(random() % (2 * MLKEM_Q - 1)) - (MLKEM_Q - 1);
				long rb = (long)(random() % (2 * MLKEM_Q - 1)) - (MLKEM_Q - 1);

				a[k][i] = round ? ra : MLKEM_Q - 1;
				b[k][i] = round ? rb : -(MLKEM_Q - 1);
			}
			for (i = 0; i < MLKEM_N; i++)
				for (j = 0; j < MLKEM_N; j++) {
					long p = (long)a[k][i] * b[k][j];

					if (i + j < MLKEM_N)
						want[i + j] += p;
					else
						want[i + j - MLKEM_N] -= p;
				}
			mlkem_poly_ntt(a[k]);
			mlkem_poly_ntt(b[k]);
		}
		mlkem_poly_dot(c, a, b);
		mlkem_poly_invntt(c);
		for (i = 0; i < MLKEM_N; i++)
			bad += c[i] <= -MLKEM_Q || c[i] >= MLKEM_Q || mod_q(c[i]) != mod_q(want[i]);
	}
	tap(!bad, "NTT product: 10 inner products of 3 against schoolbook multiplication");
}

static void test_vectors(void)
{
	static u8 ek[KTLS_MLKEM768_EK_LEN], dk[KTLS_MLKEM768_DK_LEN], ct[KTLS_MLKEM768_CT_LEN];
	const struct mlkem_vector *v;
	u8 d[32], z[32], m[32], want[32], h[32], ss[32], ss2[32];
	struct ktls_keccak j;

	for (v = mlkem_vectors; v < mlkem_vectors + ARRAY_SIZE(mlkem_vectors); v++) {
		unhex(d, 32, v->d);
		unhex(z, 32, v->z);
		unhex(m, 32, v->m);
		ktls_mlkem768_keygen_derand(ek, dk, d, z, &scratch);
		ktls_sha3_256(h, ek, sizeof(ek));
		if (v->ek_hash) {
			unhex(want, 32, v->ek_hash);
			tap(!memcmp(h, want, 32), "%s: keygen: ek (by its hash)", v->name);
		}
		if (v->dk_hash) {
			unhex(want, 32, v->dk_hash);
			ktls_sha3_256(h, dk, sizeof(dk));
			tap(!memcmp(h, want, 32), "%s: keygen: dk (by its hash)", v->name);
			ktls_sha3_256(h, ek, sizeof(ek));
		}
		tap(!memcmp(dk + 1152, ek, sizeof(ek)) && !memcmp(dk + 2336, h, 32) &&
		    !memcmp(dk + 2368, z, 32) && !ktls_mlkem768_check_dk(dk),
		    "%s: keygen: dk holds ek, H(ek) and z", v->name);

		unhex(want, 32, v->ss);
		tap(!ktls_mlkem768_encaps_derand(ct, ss, ek, sizeof(ek), m, &scratch) &&
		    !memcmp(ss, want, 32), "%s: encaps: K", v->name);
		if (v->ct_hash) {
			unhex(h, 32, v->ct_hash);
			ktls_sha3_256(want, ct, sizeof(ct));
			tap(!memcmp(h, want, 32), "%s: encaps: ciphertext (by its hash)", v->name);
			unhex(want, 32, v->ss);
		}
		tap(!decaps_both(ss2, ct, sizeof(ct), dk) &&
		    !memcmp(ss2, want, 32), "%s: decaps: K", v->name);

		/* implicit rejection of the ciphertext with its last bit flipped */
		ct[sizeof(ct) - 1] ^= 0x80;
		ktls_shake256_init(&j);
		ktls_shake_absorb(&j, z, 32);
		ktls_shake_absorb(&j, ct, sizeof(ct));
		ktls_shake_squeeze(&j, h, 32);
		tap(!decaps_both(ss2, ct, sizeof(ct), dk) &&
		    !memcmp(ss2, h, 32) && memcmp(ss2, want, 32),
		    "%s: decaps of a modified ciphertext: J(z || c')", v->name);
		ct[0] ^= 1;
		ct[sizeof(ct) - 1] ^= 0x80;
		ktls_shake256_init(&j);
		ktls_shake_absorb(&j, z, 32);
		ktls_shake_absorb(&j, ct, sizeof(ct));
		ktls_shake_squeeze(&j, h, 32);
		tap(!decaps_both(ss2, ct, sizeof(ct), dk) &&
		    !memcmp(ss2, h, 32), "%s: decaps of a modified u: J(z || c')", v->name);
	}
}

/* Go's TestAccumulated, see mlkem_vectors.h */
static void test_accumulated(const struct mlkem_accumulated *a)
{
	static u8 ek[KTLS_MLKEM768_EK_LEN], dk[KTLS_MLKEM768_DK_LEN], ct[KTLS_MLKEM768_CT_LEN];
	struct ktls_keccak s, o;
	u8 seed[64], m[32], ss[32], ss2[32], digest[32], want[32];
	unsigned int i, bad = 0;

	ktls_shake128_init(&s);
	ktls_shake128_init(&o);
	for (i = 0; i < a->iterations; i++) {
		ktls_shake_squeeze(&s, seed, sizeof(seed));
		ktls_mlkem768_keygen_derand(ek, dk, seed, seed + 32, &scratch);
		ktls_shake_absorb(&o, ek, sizeof(ek));
		ktls_shake_squeeze(&s, m, sizeof(m));
		bad += !!ktls_mlkem768_encaps_derand(ct, ss, ek, sizeof(ek), m, &scratch);
		ktls_shake_absorb(&o, ct, sizeof(ct));
		ktls_shake_absorb(&o, ss, sizeof(ss));
		decaps_both(ss2, ct, sizeof(ct), dk);
		bad += !!memcmp(ss, ss2, sizeof(ss));
		ktls_shake_squeeze(&s, ct, sizeof(ct));
		decaps_both(ss2, ct, sizeof(ct), dk);
		ktls_shake_absorb(&o, ss2, sizeof(ss2));
	}
	ktls_shake_squeeze(&o, digest, sizeof(digest));
	unhex(want, sizeof(want), a->digest);
	tap(!bad && !memcmp(digest, want, sizeof(want)),
	    "accumulated: %u iterations of keygen, encaps, decaps and rejection", a->iterations);
}

/* FIPS 203 7.2 and 7.3: the input checks */
static void test_checks(void)
{
	static u8 ek[KTLS_MLKEM768_EK_LEN + 1], dk[KTLS_MLKEM768_DK_LEN];
	static u8 ct[KTLS_MLKEM768_CT_LEN], ct0[KTLS_MLKEM768_CT_LEN];
	u8 d[32] = { 1 }, z[32] = { 2 }, m[32] = { 3 }, ss[32], ss0[32] = { 0 };
	int i, bad = 0;

	ktls_mlkem768_keygen_derand(ek, dk, d, z, &scratch);
	tap(ktls_mlkem768_check_ek(ek, KTLS_MLKEM768_EK_LEN) == 0, "check_ek: our key passes");
	tap(ktls_mlkem768_check_ek(ek, KTLS_MLKEM768_EK_LEN - 1) == -EINVAL &&
	    ktls_mlkem768_check_ek(ek, KTLS_MLKEM768_EK_LEN + 1) == -EINVAL &&
	    ktls_mlkem768_encaps(ct, ss, ek, KTLS_MLKEM768_EK_LEN + 1, &scratch) == -EINVAL,
	    "check_ek and encaps: 1183 and 1185 bytes refused");

	/* each of the 768 coefficients in turn set to q, then to 4095; q - 1 is fine */
	for (i = 0; i < 768; i++) {
		u8 save[3];
		u8 *p = ek + 3 * (i / 2);
		unsigned int v;

		memcpy(save, p, 3);
		for (v = MLKEM_Q - 1; v <= 4095; v += v == MLKEM_Q ? 4095 - MLKEM_Q : 1) {
			if (i & 1) {
				p[1] = (p[1] & 0x0f) | (v << 4);
				p[2] = v >> 4;
			} else {
				p[0] = v;
				p[1] = (p[1] & 0xf0) | (v >> 8);
			}
			memset(ct, 0, sizeof(ct));
			memset(ss, 0, sizeof(ss));
			if (v == MLKEM_Q - 1)
				bad += ktls_mlkem768_check_ek(ek, KTLS_MLKEM768_EK_LEN) != 0;
			else
				bad += ktls_mlkem768_encaps_derand(ct, ss, ek, KTLS_MLKEM768_EK_LEN,
								   m, &scratch) != -EINVAL ||
				       memcmp(ct, ct0, sizeof(ct)) || memcmp(ss, ss0, sizeof(ss));
		}
		memcpy(p, save, 3);
	}
	tap(!bad, "encaps: a coefficient of q or 4095 anywhere refused, nothing written");

	tap(ktls_mlkem768_check_dk(dk) == 0, "check_dk: our key passes");
	dk[2336] ^= 1;
	tap(ktls_mlkem768_check_dk(dk) == -EINVAL &&
	    ktls_mlkem768_expand_dk(&key, dk, &scratch) == -EINVAL,
	    "check_dk and expand_dk: a wrong H(ek) refused");
	dk[2336] ^= 1;
	dk[1152] ^= 1;
	tap(ktls_mlkem768_check_dk(dk) == -EINVAL, "check_dk: a modified ek refused");
	dk[1152] ^= 1;

	tap(decaps_both(ss, ct, KTLS_MLKEM768_CT_LEN - 1, dk) == -EINVAL &&
	    decaps_both(ss, ct, KTLS_MLKEM768_CT_LEN + 1, dk) == -EINVAL,
	    "decaps: 1087 and 1089 bytes refused");
}

/* fresh keys and messages from the RNG: each round trip agrees */
static void test_random(void)
{
	static u8 ek[KTLS_MLKEM768_EK_LEN], dk[KTLS_MLKEM768_DK_LEN], ct[KTLS_MLKEM768_CT_LEN];
	u8 ss[32], ss2[32], prev[32] = { 0 };
	int i, bad = 0;

	for (i = 0; i < 200; i++) {
		ktls_mlkem768_keygen(ek, dk, &scratch);
		bad += ktls_mlkem768_encaps(ct, ss, ek, sizeof(ek), &scratch) != 0;
		bad += decaps_both(ss2, ct, sizeof(ct), dk) != 0;
		bad += memcmp(ss, ss2, 32) != 0 || !memcmp(ss, prev, 32);
		memcpy(prev, ss, 32);
	}
	tap(!bad, "random: 200 fresh key pairs, encapsulations and decapsulations agree");
}

int main(void)
{
	const struct mlkem_accumulated *a;

	printf("TAP version 13\n");
	test_reduce();
	test_compress();
	test_dot();
	test_ntt_product();
	test_vectors();
	test_checks();
	test_random();
	for (a = mlkem_accumulated; a < mlkem_accumulated + ARRAY_SIZE(mlkem_accumulated); a++)
		test_accumulated(a);
	return tap_done();
}
