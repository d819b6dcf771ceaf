// SPDX-License-Identifier: GPL-2.0-only
/*
 * ML-KEM-768 (FIPS 203): K-PKE (section 5) and the KEM around it
 * (sections 6 and 7), on the arithmetic of mlkem_poly.c and the samplers
 * of mlkem_sample.c.
 *
 * Memory: the caller's struct ktls_mlkem768_scratch holds every
 * polynomial.  The matrix A is sampled a row at a time where it is
 * used, and each row of u or t is encoded as soon as it is summed, so a
 * vector, a row of A and two working polynomials suffice.  A key that
 * decapsulates many times may keep A instead (struct
 * ktls_mlkem768_dk_expanded): sampling it is some 27 of the 45 Keccak
 * permutations of a decapsulation.  The largest frame is
 * decapsulation's, 304 bytes at -O2 and 288 at -Os (gcc 12, x86-64;
 * tools/crypto checks every function of the ML-KEM and Keccak objects
 * against 512).
 *
 * Secrets: d, z, m and everything derived from them but ek, rho and
 * the ciphertext, which are public and declassified where computed.
 * Decapsulation picks its result by a mask over a comparison of every
 * byte, so the one fact a chosen ciphertext must not reveal, whether it
 * re-encrypts to itself, stays hidden.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/types.h>
#include <ktls_hs/keccak.h>
#include <ktls_hs/mlkem.h>

#include "mlkem_internal.h"

#define MLKEM_DK_PKE_OFF	0
#define MLKEM_DK_EK_OFF		MLKEM_VEC_BYTES
#define MLKEM_DK_H_OFF		(MLKEM_DK_EK_OFF + KTLS_MLKEM768_EK_LEN)
#define MLKEM_DK_Z_OFF		(MLKEM_DK_H_OFF + MLKEM_SYM_BYTES)
#define MLKEM_CT_V_OFF		(MLKEM_K * MLKEM_POLY_DU_BYTES)

static_assert(MLKEM_VEC_BYTES + MLKEM_SYM_BYTES == KTLS_MLKEM768_EK_LEN);
static_assert(MLKEM_DK_Z_OFF + MLKEM_SYM_BYTES == KTLS_MLKEM768_DK_LEN);
static_assert(MLKEM_CT_V_OFF + MLKEM_POLY_DV_BYTES == KTLS_MLKEM768_CT_LEN);

/* G(a || b) = SHA3-512, split into its two 32-byte halves */
static void mlkem_hash_g(u8 out[2 * MLKEM_SYM_BYTES], const u8 *a, size_t a_len,
			 const u8 *b, size_t b_len, struct ktls_mlkem768_scratch *s)
{
	ktls_sha3_init(&s->xof, KTLS_SHA3_512_RATE);
	ktls_shake_absorb(&s->xof, a, a_len);
	ktls_shake_absorb(&s->xof, b, b_len);
	ktls_sha3_final(&s->xof, out, 2 * MLKEM_SYM_BYTES);
}

/*
 * K-PKE.KeyGen (Algorithm 13) from the 32-byte seed d; the encryption
 * key goes to @ek, the decryption key (ByteEncode12 of s) to @dk_pke.
 */
static void mlkem_pke_keygen(u8 ek[KTLS_MLKEM768_EK_LEN], u8 dk_pke[MLKEM_VEC_BYTES],
			     const u8 d[MLKEM_SYM_BYTES], struct ktls_mlkem768_scratch *s)
{
	const u8 k = MLKEM_K;
	u8 seeds[2 * MLKEM_SYM_BYTES];
	const u8 *rho = seeds, *sigma = seeds + MLKEM_SYM_BYTES;
	unsigned int i, j;

	mlkem_hash_g(seeds, d, MLKEM_SYM_BYTES, &k, 1, s);
	/* rho goes out in ek: public from here on */
	mlkem_declassify(seeds, MLKEM_SYM_BYTES);

	for (i = 0; i < MLKEM_K; i++) {
		mlkem_sample_cbd(s->vec[i], sigma, i, s);
		mlkem_poly_ntt(s->vec[i]);
		mlkem_poly_tobytes(dk_pke + i * MLKEM_POLY_BYTES, s->vec[i]);
	}
	/* t[i] = sum_j A[i][j] s[j] + e[i], one row at a time */
	for (i = 0; i < MLKEM_K; i++) {
		for (j = 0; j < MLKEM_K; j++)
			mlkem_sample_ntt(s->a[j], rho, i, j, s);
		mlkem_poly_dot(s->acc, s->a, s->vec);
		mlkem_poly_tomont(s->acc);
		mlkem_sample_cbd(s->tmp, sigma, MLKEM_K + i, s);
		mlkem_poly_ntt(s->tmp);
		mlkem_poly_add(s->acc, s->tmp);
		mlkem_poly_reduce(s->acc);
		mlkem_poly_tobytes(ek + i * MLKEM_POLY_BYTES, s->acc);
	}
	memcpy(ek + MLKEM_VEC_BYTES, rho, MLKEM_SYM_BYTES);
	memzero_explicit(seeds, sizeof(seeds));
}

/* row @i of A transposed, A[j][i] for each j, sampled from @rho into @row */
static void mlkem_sample_at_row(s16 row[MLKEM_K][MLKEM_N], const u8 rho[MLKEM_SYM_BYTES],
				unsigned int i, struct ktls_mlkem768_scratch *s)
{
	unsigned int j;

	for (j = 0; j < MLKEM_K; j++)
		mlkem_sample_ntt(row[j], rho, j, i, s);
}

/*
 * K-PKE.Encrypt (Algorithm 14) of the message @m with the randomness
 * @r to an encryption key that has passed the modulus check; A
 * transposed from @at where the caller has it (an expanded key), else
 * sampled a row at a time.
 */
static void mlkem_pke_encrypt(u8 ct[KTLS_MLKEM768_CT_LEN], const u8 ek[KTLS_MLKEM768_EK_LEN],
			      const u8 m[MLKEM_SYM_BYTES], const u8 r[MLKEM_SYM_BYTES],
			      const s16 (*at)[MLKEM_K][MLKEM_N], struct ktls_mlkem768_scratch *s)
{
	const u8 *rho = ek + MLKEM_VEC_BYTES;
	unsigned int i, j;

	for (i = 0; i < MLKEM_K; i++) {
		mlkem_sample_cbd(s->vec[i], r, i, s);
		mlkem_poly_ntt(s->vec[i]);
	}
	/* u[i] = NTT^-1(sum_j A[j][i] y[j]) + e1[i], A transposed */
	for (i = 0; i < MLKEM_K; i++) {
		if (at) {
			mlkem_poly_dot(s->acc, at[i], s->vec);
		} else {
			mlkem_sample_at_row(s->a, rho, i, s);
			mlkem_poly_dot(s->acc, s->a, s->vec);
		}
		mlkem_poly_invntt(s->acc);
		mlkem_sample_cbd(s->tmp, r, MLKEM_K + i, s);
		mlkem_poly_add(s->acc, s->tmp);
		mlkem_poly_reduce(s->acc);
		mlkem_poly_compress_du(ct + i * MLKEM_POLY_DU_BYTES, s->acc);
	}
	/* v = NTT^-1(t . y) + e2 + Decompress1(m) */
	for (j = 0; j < MLKEM_K; j++)
		mlkem_poly_frombytes(s->a[j], ek + j * MLKEM_POLY_BYTES);
	mlkem_poly_dot(s->acc, s->a, s->vec);
	mlkem_poly_invntt(s->acc);
	mlkem_sample_cbd(s->tmp, r, 2 * MLKEM_K, s);
	mlkem_poly_add(s->acc, s->tmp);
	mlkem_poly_frommsg(s->tmp, m);
	mlkem_poly_add(s->acc, s->tmp);
	mlkem_poly_reduce(s->acc);
	mlkem_poly_compress_dv(ct + MLKEM_CT_V_OFF, s->acc);
}

/* K-PKE.Decrypt (Algorithm 15): m = Compress1(v - NTT^-1(s . NTT(u))) */
static void mlkem_pke_decrypt(u8 m[MLKEM_SYM_BYTES], const u8 dk_pke[MLKEM_VEC_BYTES],
			      const u8 ct[KTLS_MLKEM768_CT_LEN], struct ktls_mlkem768_scratch *s)
{
	unsigned int i;

	for (i = 0; i < MLKEM_K; i++) {
		mlkem_poly_decompress_du(s->vec[i], ct + i * MLKEM_POLY_DU_BYTES);
		mlkem_poly_ntt(s->vec[i]);
		mlkem_poly_frombytes(s->a[i], dk_pke + i * MLKEM_POLY_BYTES);
	}
	mlkem_poly_dot(s->acc, s->a, s->vec);
	mlkem_poly_invntt(s->acc);
	mlkem_poly_decompress_dv(s->tmp, ct + MLKEM_CT_V_OFF);
	mlkem_poly_sub(s->acc, s->tmp, s->acc);
	mlkem_poly_reduce(s->acc);
	mlkem_poly_tomsg(m, s->acc);
}

void ktls_mlkem768_keygen_derand(u8 ek[KTLS_MLKEM768_EK_LEN], u8 dk[KTLS_MLKEM768_DK_LEN],
				 const u8 d[KTLS_MLKEM_SEED_LEN], const u8 z[KTLS_MLKEM_SEED_LEN],
				 struct ktls_mlkem768_scratch *s)
{
	mlkem_pke_keygen(ek, dk + MLKEM_DK_PKE_OFF, d, s);
	mlkem_declassify(ek, KTLS_MLKEM768_EK_LEN);
	memcpy(dk + MLKEM_DK_EK_OFF, ek, KTLS_MLKEM768_EK_LEN);
	ktls_sha3_256(dk + MLKEM_DK_H_OFF, ek, KTLS_MLKEM768_EK_LEN);
	memcpy(dk + MLKEM_DK_Z_OFF, z, KTLS_MLKEM_SEED_LEN);
	memzero_explicit(s, sizeof(*s));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_keygen_derand);

void ktls_mlkem768_keygen(u8 ek[KTLS_MLKEM768_EK_LEN], u8 dk[KTLS_MLKEM768_DK_LEN],
			  struct ktls_mlkem768_scratch *s)
{
	u8 dz[2 * KTLS_MLKEM_SEED_LEN];

	get_random_bytes(dz, sizeof(dz));
	ktls_mlkem768_keygen_derand(ek, dk, dz, dz + KTLS_MLKEM_SEED_LEN, s);
	memzero_explicit(dz, sizeof(dz));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_keygen);

int ktls_mlkem768_check_ek(const u8 *ek, size_t ek_len)
{
	unsigned int i;
	bool ok = true;

	if (ek_len != KTLS_MLKEM768_EK_LEN)
		return -EINVAL;
	for (i = 0; i < MLKEM_K; i++)
		ok &= mlkem_poly_bytes_reduced(ek + i * MLKEM_POLY_BYTES);
	return ok ? 0 : -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_check_ek);

int ktls_mlkem768_check_dk(const u8 dk[KTLS_MLKEM768_DK_LEN])
{
	u8 h[KTLS_SHA3_256_DIGEST_SIZE], diff = 0;
	unsigned int i;

	ktls_sha3_256(h, dk + MLKEM_DK_EK_OFF, KTLS_MLKEM768_EK_LEN);
	for (i = 0; i < sizeof(h); i++)
		diff |= h[i] ^ dk[MLKEM_DK_H_OFF + i];
	/* whether the key is consistent is no secret; the hash it holds is */
	mlkem_declassify(&diff, sizeof(diff));
	return diff ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_check_dk);

/* ML-KEM.Encaps_internal (Algorithm 17): (K, r) = G(m || H(ek)) */
int ktls_mlkem768_encaps_derand(u8 ct[KTLS_MLKEM768_CT_LEN], u8 ss[KTLS_MLKEM_SS_LEN],
				const u8 *ek, size_t ek_len, const u8 m[KTLS_MLKEM_SEED_LEN],
				struct ktls_mlkem768_scratch *s)
{
	u8 h[KTLS_SHA3_256_DIGEST_SIZE], kr[2 * MLKEM_SYM_BYTES];
	int ret;

	ret = ktls_mlkem768_check_ek(ek, ek_len);
	if (ret)
		return ret;
	ktls_sha3_256(h, ek, KTLS_MLKEM768_EK_LEN);
	mlkem_hash_g(kr, m, KTLS_MLKEM_SEED_LEN, h, sizeof(h), s);
	mlkem_pke_encrypt(ct, ek, m, kr + MLKEM_SYM_BYTES, NULL, s);
	mlkem_declassify(ct, KTLS_MLKEM768_CT_LEN);
	memcpy(ss, kr, KTLS_MLKEM_SS_LEN);
	memzero_explicit(kr, sizeof(kr));
	memzero_explicit(s, sizeof(*s));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_encaps_derand);

int ktls_mlkem768_encaps(u8 ct[KTLS_MLKEM768_CT_LEN], u8 ss[KTLS_MLKEM_SS_LEN],
			 const u8 *ek, size_t ek_len, struct ktls_mlkem768_scratch *s)
{
	u8 m[KTLS_MLKEM_SEED_LEN];
	int ret;

	get_random_bytes(m, sizeof(m));
	ret = ktls_mlkem768_encaps_derand(ct, ss, ek, ek_len, m, s);
	memzero_explicit(m, sizeof(m));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_encaps);

/*
 * ML-KEM.Decaps_internal (Algorithm 18): decrypt, re-encrypt, and return
 * K' if the ciphertexts match, J(z || c) if not.  A transposed from @at
 * if given.
 */
static int mlkem_decaps(u8 ss[KTLS_MLKEM_SS_LEN], const u8 *ct, size_t ct_len,
			const u8 dk[KTLS_MLKEM768_DK_LEN], const s16 (*at)[MLKEM_K][MLKEM_N],
			struct ktls_mlkem768_scratch *s)
{
	const u8 *ek = dk + MLKEM_DK_EK_OFF;
	u8 m[MLKEM_SYM_BYTES], kr[2 * MLKEM_SYM_BYTES], kbar[KTLS_MLKEM_SS_LEN];
	unsigned int i;
	u8 diff = 0, mask;

	if (ct_len != KTLS_MLKEM768_CT_LEN)
		return -EINVAL;
	/* the ek inside a decapsulation key is as public as any other */
	mlkem_declassify(ek, KTLS_MLKEM768_EK_LEN);

	mlkem_pke_decrypt(m, dk + MLKEM_DK_PKE_OFF, ct, s);
	mlkem_hash_g(kr, m, sizeof(m), dk + MLKEM_DK_H_OFF, MLKEM_SYM_BYTES, s);

	ktls_shake256_init(&s->xof);
	ktls_shake_absorb(&s->xof, dk + MLKEM_DK_Z_OFF, MLKEM_SYM_BYTES);
	ktls_shake_absorb(&s->xof, ct, KTLS_MLKEM768_CT_LEN);
	ktls_shake_squeeze(&s->xof, kbar, sizeof(kbar));

	mlkem_pke_encrypt(s->ct, ek, m, kr + MLKEM_SYM_BYTES, at, s);
	for (i = 0; i < KTLS_MLKEM768_CT_LEN; i++)
		diff |= ct[i] ^ s->ct[i];
#ifdef KTLS_MLKEM_CT_CANARY
	/*
	 * Only in tools/crypto's CT_CANARY=1 build: the classic leak of
	 * implicit rejection, a branch on whether the ciphertext matched,
	 * which the constant-time check must report.
	 */
	if (!diff)
		memcpy(kbar, kr, sizeof(kbar));
#endif
	/* all ones if the ciphertexts differ, from the top bit of 0 - diff */
	mask = (u8)(0 - ((0U - diff) >> 31));
	for (i = 0; i < KTLS_MLKEM_SS_LEN; i++)
		ss[i] = (kbar[i] & mask) | (kr[i] & ~mask);

	memzero_explicit(m, sizeof(m));
	memzero_explicit(kr, sizeof(kr));
	memzero_explicit(kbar, sizeof(kbar));
	memzero_explicit(s, sizeof(*s));
	return 0;
}

int ktls_mlkem768_decaps(u8 ss[KTLS_MLKEM_SS_LEN], const u8 *ct, size_t ct_len,
			 const u8 dk[KTLS_MLKEM768_DK_LEN], struct ktls_mlkem768_scratch *s)
{
	return mlkem_decaps(ss, ct, ct_len, dk, NULL, s);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_decaps);

int ktls_mlkem768_expand_dk(struct ktls_mlkem768_dk_expanded *key,
			    const u8 dk[KTLS_MLKEM768_DK_LEN], struct ktls_mlkem768_scratch *s)
{
	const u8 *rho = key->dk + MLKEM_DK_EK_OFF + MLKEM_VEC_BYTES;
	unsigned int i;
	int ret;

	ret = ktls_mlkem768_check_dk(dk);
	if (ret)
		return ret;
	memcpy(key->dk, dk, KTLS_MLKEM768_DK_LEN);
	mlkem_declassify(key->dk + MLKEM_DK_EK_OFF, KTLS_MLKEM768_EK_LEN);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_sample_at_row(key->at[i], rho, i, s);
	memzero_explicit(s, sizeof(*s));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_expand_dk);

int ktls_mlkem768_decaps_expanded(u8 ss[KTLS_MLKEM_SS_LEN], const u8 *ct, size_t ct_len,
				  const struct ktls_mlkem768_dk_expanded *key,
				  struct ktls_mlkem768_scratch *s)
{
	return mlkem_decaps(ss, ct, ct_len, key->dk, key->at, s);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_mlkem768_decaps_expanded);
