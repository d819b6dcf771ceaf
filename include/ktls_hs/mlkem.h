/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ML-KEM-768 (FIPS 203), the post-quantum half of the TLS hybrid group
 * X25519MLKEM768: key generation, encapsulation with the section 7.2
 * check of the encapsulation key, and decapsulation with implicit
 * rejection.  Keys and ciphertexts are byte strings in their FIPS 203
 * encodings.
 *
 * Every function is constant time in its secrets, allocates nothing,
 * never sleeps and may be called from softirq.  The polynomial state
 * (some 6 KiB) does not fit a softirq stack: the caller lends it as a
 * struct ktls_mlkem768_scratch, which it may keep anywhere (the
 * handshake's memory pool) and which is wiped before each call returns.
 */
#ifndef _KTLS_HS_MLKEM_H
#define _KTLS_HS_MLKEM_H

#include <linux/types.h>
#include <ktls_hs/keccak.h>

#define KTLS_MLKEM768_EK_LEN	1184	/* ByteEncode12(t) || rho */
#define KTLS_MLKEM768_DK_LEN	2400	/* ByteEncode12(s) || ek || H(ek) || z */
#define KTLS_MLKEM768_CT_LEN	1088	/* 3 x 320 bytes of u, 128 of v */
#define KTLS_MLKEM_SS_LEN	32
#define KTLS_MLKEM_SEED_LEN	32	/* each of d, z and m */

#define KTLS_MLKEM_N		256
#define KTLS_MLKEM768_K		3

/*
 * The working memory of one operation; its members are the business of
 * crypto/mlkem*.c.  The matrix A is never held whole: each row is
 * sampled where it is used, so one row of it is enough.
 */
struct ktls_mlkem768_scratch {
	s16 vec[KTLS_MLKEM768_K][KTLS_MLKEM_N];	/* s, y or u, in the NTT domain */
	s16 a[KTLS_MLKEM768_K][KTLS_MLKEM_N];	/* a row of A, or t or s decoded */
	s16 acc[KTLS_MLKEM_N];			/* the row being summed */
	s16 tmp[KTLS_MLKEM_N];			/* a noise polynomial, or v */
	u8 ct[KTLS_MLKEM768_CT_LEN];		/* decaps: the re-encryption */
	u8 block[3 * KTLS_SHAKE128_RATE];	/* XOF output for sampling */
	struct ktls_keccak xof;
};

#define KTLS_MLKEM768_SCRATCH_SIZE	sizeof(struct ktls_mlkem768_scratch)

/* a fresh key pair from the kernel RNG */
void ktls_mlkem768_keygen(u8 ek[KTLS_MLKEM768_EK_LEN],
			  u8 dk[KTLS_MLKEM768_DK_LEN],
			  struct ktls_mlkem768_scratch *s);

/* ML-KEM.KeyGen_internal: the key pair of the seeds d and z */
void ktls_mlkem768_keygen_derand(u8 ek[KTLS_MLKEM768_EK_LEN],
				 u8 dk[KTLS_MLKEM768_DK_LEN],
				 const u8 d[KTLS_MLKEM_SEED_LEN],
				 const u8 z[KTLS_MLKEM_SEED_LEN],
				 struct ktls_mlkem768_scratch *s);

/*
 * The FIPS 203 section 7.2 input check of a peer's key: @ek_len must be
 * KTLS_MLKEM768_EK_LEN and every 12-bit coefficient below q.  0 or
 * -EINVAL.  The key is public; this need not be constant time, and is.
 */
int ktls_mlkem768_check_ek(const u8 *ek, size_t ek_len);

/*
 * The section 7.3 hash check of a decapsulation key: the H(ek) it holds
 * matches its ek.  Keys from ktls_mlkem768_keygen() pass by construction.
 */
int ktls_mlkem768_check_dk(const u8 dk[KTLS_MLKEM768_DK_LEN]);

/*
 * Encapsulate to @ek with fresh randomness: a ciphertext and a shared
 * secret.  Runs ktls_mlkem768_check_ek() first and returns its -EINVAL
 * on a bad key, writing nothing; 0 otherwise.
 */
int ktls_mlkem768_encaps(u8 ct[KTLS_MLKEM768_CT_LEN], u8 ss[KTLS_MLKEM_SS_LEN],
			 const u8 *ek, size_t ek_len,
			 struct ktls_mlkem768_scratch *s);

/* ML-KEM.Encaps_internal: the same with the randomness @m given, for tests */
int ktls_mlkem768_encaps_derand(u8 ct[KTLS_MLKEM768_CT_LEN],
				u8 ss[KTLS_MLKEM_SS_LEN],
				const u8 *ek, size_t ek_len,
				const u8 m[KTLS_MLKEM_SEED_LEN],
				struct ktls_mlkem768_scratch *s);

/*
 * The shared secret of @ct under @dk.  A ciphertext that does not
 * re-encrypt to itself yields the implicit-rejection secret J(z || ct),
 * indistinguishable to the sender, and still 0: only a @ct_len other
 * than KTLS_MLKEM768_CT_LEN is -EINVAL.  @dk is trusted (our own, or
 * passed through ktls_mlkem768_check_dk()).
 */
int ktls_mlkem768_decaps(u8 ss[KTLS_MLKEM_SS_LEN],
			 const u8 *ct, size_t ct_len,
			 const u8 dk[KTLS_MLKEM768_DK_LEN],
			 struct ktls_mlkem768_scratch *s);

/*
 * A decapsulation key made ready for many decapsulations: its FIPS 203
 * bytes and the matrix A, transposed as re-encryption reads it (at[i][j]
 * is A[j][i]), sampled from rho once instead of at every call.  Some
 * 7 KiB; A is public, dk is not: wipe the whole with memzero_explicit()
 * when done.  Decapsulation with it and with the bytes alone give the
 * same results; a key used once gains nothing from it.
 */
struct ktls_mlkem768_dk_expanded {
	s16 at[KTLS_MLKEM768_K][KTLS_MLKEM768_K][KTLS_MLKEM_N];
	u8 dk[KTLS_MLKEM768_DK_LEN];
};

/* check @dk (ktls_mlkem768_check_dk()) and expand it into @key: 0 or -EINVAL */
int ktls_mlkem768_expand_dk(struct ktls_mlkem768_dk_expanded *key,
			    const u8 dk[KTLS_MLKEM768_DK_LEN],
			    struct ktls_mlkem768_scratch *s);

/* ktls_mlkem768_decaps() under an expanded key */
int ktls_mlkem768_decaps_expanded(u8 ss[KTLS_MLKEM_SS_LEN],
				  const u8 *ct, size_t ct_len,
				  const struct ktls_mlkem768_dk_expanded *key,
				  struct ktls_mlkem768_scratch *s);

#endif /* _KTLS_HS_MLKEM_H */
