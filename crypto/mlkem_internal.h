/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces of ML-KEM-768 in crypto/: polynomials of
 * Z_q[X]/(X^256 + 1), q = 3329, as 256 signed 16-bit coefficients, and
 * the pieces K-PKE is built from.
 *
 * Conventions.  A coefficient is held in some range around zero that
 * each function states, and is brought to [0, q) only to be encoded.
 * Products go through Montgomery reduction (R = 2^16), which multiplies
 * by R^-1: the NTT's constants carry a factor R to cancel it, and the
 * callers that multiply in the NTT domain fix the one R^-1 left over.
 *
 * Constant time: no branch and no memory index depends on a secret, and
 * nothing here divides.  Reducing mod q, compressing (which divides by q
 * in the standard's formula) and decompressing are multiplications and
 * shifts; a `/` or `%` by q would let the compiler emit a `div`, whose
 * timing depends on the operand (KyberSlash).  tools/crypto checks the
 * objects for div instructions.  Branches on public data (rejection
 * sampling from rho, lengths) are fine; where a public value was
 * computed from a secret, mlkem_declassify() says so for the
 * constant-time check under valgrind.
 */
#ifndef _KTLS_HS_MLKEM_INTERNAL_H
#define _KTLS_HS_MLKEM_INTERNAL_H

#include <linux/types.h>
#include <ktls_hs/mlkem.h>

#ifndef mlkem_declassify
#define mlkem_declassify(ptr, len) do { (void)(ptr); (void)(len); } while (0)
#endif

#define MLKEM_N			KTLS_MLKEM_N
#define MLKEM_Q			3329
#define MLKEM_K			KTLS_MLKEM768_K
#define MLKEM_ETA		2	/* eta1 = eta2 for ML-KEM-768 */
#define MLKEM_DU		10
#define MLKEM_DV		4

#define MLKEM_POLY_BYTES	384	/* ByteEncode12 */
#define MLKEM_POLY_DU_BYTES	320	/* ByteEncode10 */
#define MLKEM_POLY_DV_BYTES	128	/* ByteEncode4 */
#define MLKEM_VEC_BYTES		(MLKEM_K * MLKEM_POLY_BYTES)
#define MLKEM_PRF_BYTES		(64 * MLKEM_ETA)
#define MLKEM_SYM_BYTES		32

/*
 * Compress_d(x) = round(2^d x / q) mod 2^d for x in [0, q), d <= 11:
 * the rounding is floor((2^d x + (q - 1) / 2) / q), as q is odd, and the
 * division is a multiplication by ceil(2^36 / q) and a shift, exact for
 * every dividend below 2^36 / (that constant * q - 2^36) = 2^23.6, and
 * ours stay below 2^23.  kat_mlkem checks all x and d against the
 * standard's formula.
 */
#define MLKEM_DIV_Q_MUL		20642679ULL
#define MLKEM_DIV_Q_SHIFT	36

static inline u32 mlkem_compress(u32 x, unsigned int d)
{
	u64 n = ((u64)x << d) + (MLKEM_Q - 1) / 2;

	return (u32)((n * MLKEM_DIV_Q_MUL) >> MLKEM_DIV_Q_SHIFT) & ((1U << d) - 1);
}

/* Decompress_d(y) = round(q y / 2^d): a shift, no division */
static inline s16 mlkem_decompress(u32 y, unsigned int d)
{
	return (s16)((y * MLKEM_Q + (1U << (d - 1))) >> d);
}

/* a in (-q, q) to [0, q) */
static inline s16 mlkem_canonical(s16 a)
{
	return a + ((a >> 15) & MLKEM_Q);
}

/* mlkem_poly.c: arithmetic, the NTT, encodings */
s16 mlkem_barrett_reduce(s16 a);
s16 mlkem_mont_reduce(s32 a);
void mlkem_poly_ntt(s16 r[MLKEM_N]);
void mlkem_poly_invntt(s16 r[MLKEM_N]);
void mlkem_poly_dot(s16 r[MLKEM_N], const s16 a[MLKEM_K][MLKEM_N], const s16 b[MLKEM_K][MLKEM_N]);
void mlkem_poly_reduce(s16 r[MLKEM_N]);
void mlkem_poly_tomont(s16 r[MLKEM_N]);
void mlkem_poly_add(s16 r[MLKEM_N], const s16 a[MLKEM_N]);
void mlkem_poly_sub(s16 r[MLKEM_N], const s16 a[MLKEM_N], const s16 b[MLKEM_N]);
void mlkem_poly_tobytes(u8 out[MLKEM_POLY_BYTES], const s16 a[MLKEM_N]);
void mlkem_poly_frombytes(s16 r[MLKEM_N], const u8 in[MLKEM_POLY_BYTES]);
bool mlkem_poly_bytes_reduced(const u8 in[MLKEM_POLY_BYTES]);
void mlkem_poly_compress_du(u8 out[MLKEM_POLY_DU_BYTES], const s16 a[MLKEM_N]);
void mlkem_poly_decompress_du(s16 r[MLKEM_N], const u8 in[MLKEM_POLY_DU_BYTES]);
void mlkem_poly_compress_dv(u8 out[MLKEM_POLY_DV_BYTES], const s16 a[MLKEM_N]);
void mlkem_poly_decompress_dv(s16 r[MLKEM_N], const u8 in[MLKEM_POLY_DV_BYTES]);
void mlkem_poly_frommsg(s16 r[MLKEM_N], const u8 m[MLKEM_SYM_BYTES]);
void mlkem_poly_tomsg(u8 m[MLKEM_SYM_BYTES], const s16 a[MLKEM_N]);

/* mlkem_sample.c: the matrix and the noise */
void mlkem_sample_ntt(s16 r[MLKEM_N], const u8 rho[MLKEM_SYM_BYTES], u8 i, u8 j,
		      struct ktls_mlkem768_scratch *s);
void mlkem_sample_cbd(s16 r[MLKEM_N], const u8 sigma[MLKEM_SYM_BYTES], u8 nonce,
		      struct ktls_mlkem768_scratch *s);

#endif /* _KTLS_HS_MLKEM_INTERNAL_H */
