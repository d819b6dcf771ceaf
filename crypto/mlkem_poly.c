// SPDX-License-Identifier: GPL-2.0-only
/*
 * ML-KEM polynomial arithmetic: reduction mod q, the number-theoretic
 * transform and the multiplication of two transformed polynomials (FIPS
 * 203 section 4.3), and the byte encodings with compression (4.2.1).
 * Everything here is straight-line over all 256 coefficients, whatever
 * their values: see mlkem_internal.h for the rules.
 */
#include <linux/types.h>
#include <linux/unaligned.h>

#include "mlkem_internal.h"

#define MLKEM_QINV	(-3327)		/* q^-1 mod 2^16, signed */
#define MLKEM_BARRETT	20159		/* round(2^26 / q) */
#define MLKEM_R2	1353		/* R^2 mod q */
#define MLKEM_INV_F	1441		/* R^2 / 128 mod q: undoes the NTT's 128 and an R^-1 */

/*
 * zeta^BitRev7(k) * R mod q, centred, for zeta = 17 the 256th root of
 * unity the standard fixes.  Entry 0 is not used by the transform; the
 * second half doubles as the multiplication's moduli: pair 2i of
 * coefficients is reduced mod X^2 - zetas[64 + i], pair 2i + 1 mod
 * X^2 + zetas[64 + i] (the gamma of FIPS 203 Algorithm 11, times R).
 */
static const s16 mlkem_zetas[128] = {
	-1044, -758, -359, -1517, 1493, 1422, 287, 202,
	-171, 622, 1577, 182, 962, -1202, -1474, 1468,
	573, -1325, 264, 383, -829, 1458, -1602, -130,
	-681, 1017, 732, 608, -1542, 411, -205, -1571,
	1223, 652, -552, 1015, -1293, 1491, -282, -1544,
	516, -8, -320, -666, -1618, -1162, 126, 1469,
	-853, -90, -271, 830, 107, -1421, -247, -951,
	-398, 961, -1508, -725, 448, -1065, 677, -1275,
	-1103, 430, 555, 843, -1251, 871, 1550, 105,
	422, 587, 177, -235, -291, -460, 1574, 1653,
	-246, 778, 1159, -147, -777, 1483, -602, 1119,
	-1590, 644, -872, 349, 418, 329, -156, -75,
	817, 1097, 603, 610, 1322, -1285, -1465, 384,
	-1215, -136, 1218, -1335, -874, 220, -1187, -1659,
	-1185, -1530, -1278, 794, -1510, -854, -870, 478,
	-108, -308, 996, 991, 958, -1460, 1522, 1628,
};

/* a R^-1 mod q in (-q, q), for |a| < q 2^15 */
s16 mlkem_mont_reduce(s32 a)
{
	s16 t = (s16)a * MLKEM_QINV;

	return (s16)((a - (s32)t * MLKEM_Q) >> 16);
}

/* a mod q, centred: in [-(q - 1) / 2, (q - 1) / 2] for any s16 a */
s16 mlkem_barrett_reduce(s16 a)
{
	s16 t = ((s32)MLKEM_BARRETT * a + (1 << 25)) >> 26;

	return a - t * MLKEM_Q;
}

static inline s16 mlkem_fqmul(s16 a, s16 b)
{
	return mlkem_mont_reduce((s32)a * b);
}

/*
 * FIPS 203 Algorithm 9, in place.  Inputs within (-q, q); each of the
 * seven layers grows the bound by at most q, so 8q < 2^15 holds without
 * reducing in between, and the output is reduced and centred.
 */
void mlkem_poly_ntt(s16 r[MLKEM_N])
{
	unsigned int len, start, j, k = 1;
	s16 zeta, t;

	for (len = 128; len >= 2; len >>= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			zeta = mlkem_zetas[k++];
			for (j = start; j < start + len; j++) {
				t = mlkem_fqmul(zeta, r[j + len]);
				r[j + len] = r[j] - t;
				r[j] = r[j] + t;
			}
		}
	}
	mlkem_poly_reduce(r);
}

/*
 * FIPS 203 Algorithm 10, in place, for inputs within (-q, q).  The
 * differences are multiplied, which bounds them by q again; the sums
 * double each layer, so they are reduced after the third and the sixth
 * (8q < 2^15), not at every layer.  The final scaling by 1/128 also
 * takes out the R^-1 of the products that came before.  Output in
 * (-q, q).
 */
void mlkem_poly_invntt(s16 r[MLKEM_N])
{
	unsigned int len, start, j, k = 127;
	s16 zeta, t;

	for (len = 2; len <= 128; len <<= 1) {
		for (start = 0; start < MLKEM_N; start += 2 * len) {
			zeta = mlkem_zetas[k--];
			for (j = start; j < start + len; j++) {
				t = r[j];
				r[j] = t + r[j + len];
				r[j + len] = mlkem_fqmul(zeta, r[j + len] - t);
			}
		}
		if (len == 8 || len == 64)
			for (j = 0; j < MLKEM_N; j += 2 * len)
				for (start = j; start < j + len; start++)
					r[start] = mlkem_barrett_reduce(r[start]);
	}
	for (j = 0; j < MLKEM_N; j++)
		r[j] = mlkem_fqmul(r[j], MLKEM_INV_F);
}

/*
 * r = sum_j a[j] * b[j] in the NTT domain (FIPS 203 Algorithms 11 and
 * 12), times R^-1: the inner product of a row of A, or of t or s, with a
 * transformed vector.  The a[j] are in [0, q) as sampled or decoded, the
 * b[j] are reduced NTT outputs, |b| <= q/2.  All six products of a
 * coefficient pair are summed unreduced, each below q^2, and reduced
 * once: 6 q^2 < q 2^15, the bound of Montgomery reduction.  Output in
 * (-q, q).
 */
void mlkem_poly_dot(s16 r[MLKEM_N], const s16 a[MLKEM_K][MLKEM_N], const s16 b[MLKEM_K][MLKEM_N])
{
	unsigned int i, j;
	s32 c0, c1, c2, c3;
	s16 zeta, b1z, b3z;

	for (i = 0; i < MLKEM_N; i += 4) {
		zeta = mlkem_zetas[64 + i / 4];
		c0 = 0;
		c1 = 0;
		c2 = 0;
		c3 = 0;
		for (j = 0; j < MLKEM_K; j++) {
			b1z = mlkem_fqmul(b[j][i + 1], zeta);
			b3z = mlkem_fqmul(b[j][i + 3], -zeta);
			c0 += (s32)a[j][i] * b[j][i] + (s32)a[j][i + 1] * b1z;
			c1 += (s32)a[j][i] * b[j][i + 1] + (s32)a[j][i + 1] * b[j][i];
			c2 += (s32)a[j][i + 2] * b[j][i + 2] + (s32)a[j][i + 3] * b3z;
			c3 += (s32)a[j][i + 2] * b[j][i + 3] + (s32)a[j][i + 3] * b[j][i + 2];
		}
		r[i] = mlkem_mont_reduce(c0);
		r[i + 1] = mlkem_mont_reduce(c1);
		r[i + 2] = mlkem_mont_reduce(c2);
		r[i + 3] = mlkem_mont_reduce(c3);
	}
}

void mlkem_poly_reduce(s16 r[MLKEM_N])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r[i] = mlkem_barrett_reduce(r[i]);
}

/* r * R, taking out the R^-1 of a product; output in (-q, q) */
void mlkem_poly_tomont(s16 r[MLKEM_N])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r[i] = mlkem_fqmul(r[i], MLKEM_R2);
}

void mlkem_poly_add(s16 r[MLKEM_N], const s16 a[MLKEM_N])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r[i] += a[i];
}

void mlkem_poly_sub(s16 r[MLKEM_N], const s16 a[MLKEM_N], const s16 b[MLKEM_N])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N; i++)
		r[i] = a[i] - b[i];
}

/* ByteEncode12 of a reduced, centred polynomial: two coefficients in three bytes */
void mlkem_poly_tobytes(u8 out[MLKEM_POLY_BYTES], const s16 a[MLKEM_N])
{
	unsigned int i;
	u16 t0, t1;

	for (i = 0; i < MLKEM_N / 2; i++) {
		t0 = mlkem_canonical(a[2 * i]);
		t1 = mlkem_canonical(a[2 * i + 1]);
		out[3 * i] = t0;
		out[3 * i + 1] = (t0 >> 8) | (t1 << 4);
		out[3 * i + 2] = t1 >> 4;
	}
}

/* a 12-bit value below 2q, reduced into [0, q) without a branch */
static inline s16 mlkem_csubq(s16 a)
{
	a -= MLKEM_Q;
	return a + ((a >> 15) & MLKEM_Q);
}

/*
 * ByteDecode12, which the standard defines mod q: a coefficient of 4095
 * reads as 766.  Keys are checked for that before use where it matters
 * (mlkem_poly_bytes_reduced()); a secret key decodes the same way.
 */
void mlkem_poly_frombytes(s16 r[MLKEM_N], const u8 in[MLKEM_POLY_BYTES])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		r[2 * i] = mlkem_csubq((in[3 * i] | (in[3 * i + 1] << 8)) & 0xfff);
		r[2 * i + 1] = mlkem_csubq((in[3 * i + 1] >> 4) | (in[3 * i + 2] << 4));
	}
}

/*
 * The modulus check of FIPS 203 section 7.2: every coefficient already
 * below q.  Used on public keys only, yet without a data-dependent
 * branch all the same.
 */
bool mlkem_poly_bytes_reduced(const u8 in[MLKEM_POLY_BYTES])
{
	unsigned int i;
	u32 bad = 0;

	for (i = 0; i < MLKEM_N / 2; i++) {
		u32 t0 = (in[3 * i] | (in[3 * i + 1] << 8)) & 0xfff;
		u32 t1 = (in[3 * i + 1] >> 4) | (in[3 * i + 2] << 4);

		/* the top bit of x - q is set iff x < q */
		bad |= ~(t0 - MLKEM_Q) | ~(t1 - MLKEM_Q);
	}
	return !(bad >> 31);
}

/* Compress10 and ByteEncode10: four coefficients in five bytes */
void mlkem_poly_compress_du(u8 out[MLKEM_POLY_DU_BYTES], const s16 a[MLKEM_N])
{
	unsigned int i, j;
	u16 t[4];

	for (i = 0; i < MLKEM_N / 4; i++) {
		for (j = 0; j < 4; j++)
			t[j] = mlkem_compress(mlkem_canonical(a[4 * i + j]), MLKEM_DU);
		out[5 * i] = t[0];
		out[5 * i + 1] = (t[0] >> 8) | (t[1] << 2);
		out[5 * i + 2] = (t[1] >> 6) | (t[2] << 4);
		out[5 * i + 3] = (t[2] >> 4) | (t[3] << 6);
		out[5 * i + 4] = t[3] >> 2;
	}
}

void mlkem_poly_decompress_du(s16 r[MLKEM_N], const u8 in[MLKEM_POLY_DU_BYTES])
{
	const u8 *b;
	unsigned int i;

	for (i = 0; i < MLKEM_N / 4; i++) {
		b = in + 5 * i;
		r[4 * i] = mlkem_decompress((b[0] | (b[1] << 8)) & 0x3ff, MLKEM_DU);
		r[4 * i + 1] = mlkem_decompress(((b[1] >> 2) | (b[2] << 6)) & 0x3ff, MLKEM_DU);
		r[4 * i + 2] = mlkem_decompress(((b[2] >> 4) | (b[3] << 4)) & 0x3ff, MLKEM_DU);
		r[4 * i + 3] = mlkem_decompress((b[3] >> 6) | (b[4] << 2), MLKEM_DU);
	}
}

/* Compress4 and ByteEncode4: two coefficients a byte */
void mlkem_poly_compress_dv(u8 out[MLKEM_POLY_DV_BYTES], const s16 a[MLKEM_N])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N / 2; i++)
		out[i] = mlkem_compress(mlkem_canonical(a[2 * i]), MLKEM_DV) |
			 mlkem_compress(mlkem_canonical(a[2 * i + 1]), MLKEM_DV) << 4;
}

void mlkem_poly_decompress_dv(s16 r[MLKEM_N], const u8 in[MLKEM_POLY_DV_BYTES])
{
	unsigned int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		r[2 * i] = mlkem_decompress(in[i] & 15, MLKEM_DV);
		r[2 * i + 1] = mlkem_decompress(in[i] >> 4, MLKEM_DV);
	}
}

/* Decompress1(ByteDecode1(m)): a bit b becomes b * round(q / 2), by a mask */
void mlkem_poly_frommsg(s16 r[MLKEM_N], const u8 m[MLKEM_SYM_BYTES])
{
	unsigned int i, j;

	for (i = 0; i < MLKEM_SYM_BYTES; i++)
		for (j = 0; j < 8; j++)
			r[8 * i + j] = (0 - ((m[i] >> j) & 1)) & ((MLKEM_Q + 1) / 2);
}

/* ByteEncode1(Compress1(a)) of a polynomial within (-q, q) */
void mlkem_poly_tomsg(u8 m[MLKEM_SYM_BYTES], const s16 a[MLKEM_N])
{
	unsigned int i, j;
	u8 b;

	for (i = 0; i < MLKEM_SYM_BYTES; i++) {
		b = 0;
		for (j = 0; j < 8; j++)
			b |= mlkem_compress(mlkem_canonical(a[8 * i + j]), 1) << j;
		m[i] = b;
	}
}
