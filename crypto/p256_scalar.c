// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arithmetic modulo the P-256 group order n, which ECDSA needs for
 * s = k^-1 (e + r d) and for the verifier's u1 and u2.  Products are
 * Montgomery products (a * b / 2^256 mod n) on four 64-bit limbs; callers
 * move in and out of that form explicitly.  Nothing here branches on or
 * indexes by a scalar's value.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/types.h>

#include "p256_internal.h"
#include "p256_mont.h"

#define P256_N_0	0xf3b9cac2fc632551ULL
#define P256_N_1	0xbce6faada7179e84ULL
#define P256_N_2	0xffffffffffffffffULL
#define P256_N_3	0xffffffff00000000ULL

/* -n^-1 mod 2^64 */
#define P256_N0	0xccd1c8aaee00bc4fULL

/* 2^512 mod n */
static const struct p256_scalar p256_n_r2 = { {
	0x83244c95be79eea2ULL, 0x4699799c49bd6fa6ULL,
	0x2845b2392b6bec59ULL, 0x66e12d94f3d95620ULL,
} };

/* r = (top * 2^256 + x) mod n for a value below 2n. */
static __always_inline void scalar_reduce_once(struct p256_scalar *r, u64 x0, u64 x1,
					       u64 x2, u64 x3, u64 top)
{
	u64 d0, d1, d2, d3, borrow = 0, keep;

	d0 = mont_sbb(&borrow, x0, P256_N_0);
	d1 = mont_sbb(&borrow, x1, P256_N_1);
	d2 = mont_sbb(&borrow, x2, P256_N_2);
	d3 = mont_sbb(&borrow, x3, P256_N_3);
	keep = 0 - (borrow & (top ^ 1));
	r->v[0] = (x0 & keep) | (d0 & ~keep);
	r->v[1] = (x1 & keep) | (d1 & ~keep);
	r->v[2] = (x2 & keep) | (d2 & ~keep);
	r->v[3] = (x3 & keep) | (d3 & ~keep);
}

#ifdef CONFIG_X86_64

static const u64 p256_n[4] = { P256_N_0, P256_N_1, P256_N_2, P256_N_3 };
static const u64 p256_n0 = P256_N0;

/*
 * A reduction round: m = T0 * -n^-1 mod 2^64 makes T0 + m * n a multiple
 * of 2^64, so T0 ends up zero and is free for the next row.
 */
#define SC_ROUND(T0, T1, T2, T3, T4, T5)			\
	"movq %[ninv], %[m]\n\t"				\
	"imulq %[" #T0 "], %[m]\n\t"				\
	MONT_ROW("%[n0]", "%[n1]", "%[n2]", "%[n3]", m,	\
		 T0, T1, T2, T3, T4, T5)

/* The same round on a window of four limbs; the top one lands in T0. */
#define SC_ROUND_TOP(T0, T1, T2, T3)				\
	"movq %[ninv], %[m]\n\t"				\
	"imulq %[" #T0 "], %[m]\n\t"				\
	MONT_ROW_TOP("%[n0]", "%[n1]", "%[n2]", "%[n3]", m,	\
		     T0, T1, T2, T3)

/* a row of a * b[I], I a byte offset; %[m] holds b[I] between rounds */
#define SC_ROW(I, T0, T1, T2, T3, T4, T5)			\
	"xorl %k[" #T5 "], %k[" #T5 "]\n\t"			\
	"movq " #I "(%[bp]), %[m]\n\t"			\
	MONT_ROW("0(%[ap])", "8(%[ap])", "16(%[ap])", "24(%[ap])",	\
		 m, T0, T1, T2, T3, T4, T5)

#define SC_FINAL(R0, R1, R2, R3, TOP, D0, D1, D2, D3)		\
	MONT_FINAL("%[n0]", "%[n1]", "%[n2]", "%[n3]",		\
		   R0, R1, R2, R3, TOP, D0, D1, D2, D3)

/* As p256_fe_mul(): rows and rounds interleaved, the window moving up. */
static __always_inline void scalar_mul_mulq(struct p256_scalar *r,
					    const struct p256_scalar *a,
					    const struct p256_scalar *b)
{
	u64 t0, t1, t2, t3, t4, t5, tmp, m, d0, d1;

	asm("xorl %k[t0], %k[t0]\n\t"
	    "xorl %k[t1], %k[t1]\n\t"
	    "xorl %k[t2], %k[t2]\n\t"
	    "xorl %k[t3], %k[t3]\n\t"
	    "xorl %k[t4], %k[t4]\n\t"
	    SC_ROW(0, t0, t1, t2, t3, t4, t5)
	    SC_ROUND(t0, t1, t2, t3, t4, t5)
	    SC_ROW(8, t1, t2, t3, t4, t5, t0)
	    SC_ROUND(t1, t2, t3, t4, t5, t0)
	    SC_ROW(16, t2, t3, t4, t5, t0, t1)
	    SC_ROUND(t2, t3, t4, t5, t0, t1)
	    SC_ROW(24, t3, t4, t5, t0, t1, t2)
	    SC_ROUND(t3, t4, t5, t0, t1, t2)
	    SC_FINAL(t4, t5, t0, t1, t2, d0, d1, tmp, m)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [tmp] "=&r" (tmp), [m] "=&r" (m),
	      [d0] "=&a" (d0), [d1] "=&d" (d1)
	    : [ap] "r" (a->v), [bp] "r" (b->v),
	      "m" (*(const u64 (*)[4])a->v), "m" (*(const u64 (*)[4])b->v),
	      [n0] "m" (p256_n[0]), [n1] "m" (p256_n[1]),
	      [n2] "m" (p256_n[2]), [n3] "m" (p256_n[3]),
	      [ninv] "m" (p256_n0)
	    : "cc");
	r->v[0] = d0;
	r->v[1] = d1;
	r->v[2] = tmp;
	r->v[3] = m;
}

/* SC_ROUND with mulx: m goes to %rdx, the flags are cleared by the xorl */
#define SC_ROUND_ADX(T0, T1, T2, T3, T4, T5)			\
	"movq %[ninv], %%rdx\n\t"				\
	"imulq %[" #T0 "], %%rdx\n\t"				\
	"xorl %k[zero], %k[zero]\n\t"				\
	MONT_ROW_ADX("%[n0]", "%[n1]", "%[n2]", "%[n3]",	\
		     T0, T1, T2, T3, T4, T5)

#define SC_ROW_ADX(I, T0, T1, T2, T3, T4, T5)			\
	"xorl %k[" #T5 "], %k[" #T5 "]\n\t"			\
	"movq " #I "(%[bp]), %%rdx\n\t"				\
	"xorl %k[zero], %k[zero]\n\t"				\
	MONT_ROW_ADX("0(%[ap])", "8(%[ap])", "16(%[ap])", "24(%[ap])", \
		     T0, T1, T2, T3, T4, T5)

/* scalar_mul_mulq() with mulx rows and rounds */
static __always_inline void scalar_mul_adx(struct p256_scalar *r,
					   const struct p256_scalar *a,
					   const struct p256_scalar *b)
{
	u64 t0, t1, t2, t3, t4, t5, lo, hi, zero, d;

	asm("xorl %k[t0], %k[t0]\n\t"
	    "xorl %k[t1], %k[t1]\n\t"
	    "xorl %k[t2], %k[t2]\n\t"
	    "xorl %k[t3], %k[t3]\n\t"
	    "xorl %k[t4], %k[t4]\n\t"
	    SC_ROW_ADX(0, t0, t1, t2, t3, t4, t5)
	    SC_ROUND_ADX(t0, t1, t2, t3, t4, t5)
	    SC_ROW_ADX(8, t1, t2, t3, t4, t5, t0)
	    SC_ROUND_ADX(t1, t2, t3, t4, t5, t0)
	    SC_ROW_ADX(16, t2, t3, t4, t5, t0, t1)
	    SC_ROUND_ADX(t2, t3, t4, t5, t0, t1)
	    SC_ROW_ADX(24, t3, t4, t5, t0, t1, t2)
	    SC_ROUND_ADX(t3, t4, t5, t0, t1, t2)
	    SC_FINAL(t4, t5, t0, t1, t2, lo, hi, zero, d)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [lo] "=&r" (lo), [hi] "=&r" (hi), [zero] "=&r" (zero),
	      [d] "=&d" (d)
	    : [ap] "r" (a->v), [bp] "r" (b->v),
	      "m" (*(const u64 (*)[4])a->v), "m" (*(const u64 (*)[4])b->v),
	      [n0] "m" (p256_n[0]), [n1] "m" (p256_n[1]),
	      [n2] "m" (p256_n[2]), [n3] "m" (p256_n[3]),
	      [ninv] "m" (p256_n0)
	    : "cc");
	r->v[0] = lo;
	r->v[1] = hi;
	r->v[2] = zero;
	r->v[3] = d;
}

void p256_scalar_mont_mul(struct p256_scalar *r, const struct p256_scalar *a,
			  const struct p256_scalar *b)
{
	if (mont_have_adx())
		scalar_mul_adx(r, a, b);
	else
		scalar_mul_mulq(r, a, b);
}
EXPORT_SYMBOL_IF_KUNIT(p256_scalar_mont_mul);

/*
 * As p256_fe_sqr(): the low half reduced alone is at most n, the high
 * half is below n, so one final subtraction.
 */
static __always_inline void scalar_sqr_mulq(struct p256_scalar *r,
					    const struct p256_scalar *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, tmp, m, d0, d1;

	asm(MONT_SQR_WIDE(t0, t1, t2, t3, t4, t5, t6, t7)
	    SC_ROUND_TOP(t0, t1, t2, t3)
	    SC_ROUND_TOP(t1, t2, t3, t0)
	    SC_ROUND_TOP(t2, t3, t0, t1)
	    SC_ROUND_TOP(t3, t0, t1, t2)
	    "addq %[t4], %[t0]\n\t"
	    "adcq %[t5], %[t1]\n\t"
	    "adcq %[t6], %[t2]\n\t"
	    "adcq %[t7], %[t3]\n\t"
	    "movl $0, %k[t4]\n\t"
	    "adcq $0, %[t4]\n\t"
	    SC_FINAL(t0, t1, t2, t3, t4, d0, d1, tmp, t5)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [t6] "=&r" (t6), [t7] "=&r" (t7), [tmp] "=&r" (tmp),
	      [m] "=&r" (m), [d0] "=&a" (d0), [d1] "=&d" (d1)
	    : [ap] "r" (a->v), "m" (*(const u64 (*)[4])a->v),
	      [n0] "m" (p256_n[0]), [n1] "m" (p256_n[1]),
	      [n2] "m" (p256_n[2]), [n3] "m" (p256_n[3]),
	      [ninv] "m" (p256_n0)
	    : "cc");
	r->v[0] = d0;
	r->v[1] = d1;
	r->v[2] = tmp;
	r->v[3] = t5;
}

/*
 * SC_ROUND_TOP with mulx: m * n goes in along both carry chains and the
 * top limb, with what is left of both carries, lands in T0.
 */
#define SC_ROUND_TOP_ADX(T0, T1, T2, T3)			\
	"movq %[ninv], %%rdx\n\t"				\
	"imulq %[" #T0 "], %%rdx\n\t"				\
	"xorl %k[zero], %k[zero]\n\t"				\
	"mulxq %[n0], %[lo], %[hi]\n\t"				\
	"adcxq %[lo], %[" #T0 "]\n\t"				\
	"adoxq %[hi], %[" #T1 "]\n\t"				\
	"mulxq %[n1], %[lo], %[hi]\n\t"				\
	"adcxq %[lo], %[" #T1 "]\n\t"				\
	"adoxq %[hi], %[" #T2 "]\n\t"				\
	"mulxq %[n2], %[lo], %[hi]\n\t"				\
	"adcxq %[lo], %[" #T2 "]\n\t"				\
	"adoxq %[hi], %[" #T3 "]\n\t"				\
	"mulxq %[n3], %[lo], %[hi]\n\t"				\
	"adcxq %[lo], %[" #T3 "]\n\t"				\
	"adoxq %[zero], %[hi]\n\t"				\
	"adcxq %[zero], %[hi]\n\t"				\
	"movq %[hi], %[" #T0 "]\n\t"

/* scalar_sqr_mulq() with mulx */
static __always_inline void scalar_sqr_adx(struct p256_scalar *r,
					   const struct p256_scalar *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, zero, d;

	asm(MONT_SQR_WIDE_ADX(t0, t1, t2, t3, t4, t5, t6, t7)
	    SC_ROUND_TOP_ADX(t0, t1, t2, t3)
	    SC_ROUND_TOP_ADX(t1, t2, t3, t0)
	    SC_ROUND_TOP_ADX(t2, t3, t0, t1)
	    SC_ROUND_TOP_ADX(t3, t0, t1, t2)
	    "addq %[t4], %[t0]\n\t"
	    "adcq %[t5], %[t1]\n\t"
	    "adcq %[t6], %[t2]\n\t"
	    "adcq %[t7], %[t3]\n\t"
	    "movl $0, %k[t4]\n\t"
	    "adcq $0, %[t4]\n\t"
	    SC_FINAL(t0, t1, t2, t3, t4, lo, hi, zero, d)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [t6] "=&r" (t6), [t7] "=&r" (t7), [lo] "=&r" (lo),
	      [hi] "=&r" (hi), [zero] "=&r" (zero), [d] "=&d" (d)
	    : [ap] "r" (a->v), "m" (*(const u64 (*)[4])a->v),
	      [n0] "m" (p256_n[0]), [n1] "m" (p256_n[1]),
	      [n2] "m" (p256_n[2]), [n3] "m" (p256_n[3]),
	      [ninv] "m" (p256_n0)
	    : "cc");
	r->v[0] = lo;
	r->v[1] = hi;
	r->v[2] = zero;
	r->v[3] = d;
}

static void scalar_mont_sqr(struct p256_scalar *r, const struct p256_scalar *a)
{
	if (mont_have_adx())
		scalar_sqr_adx(r, a);
	else
		scalar_sqr_mulq(r, a);
}

#else /* !CONFIG_X86_64 */

/*
 * One Montgomery round on the low half alone: add m * n to u0..u3 with m
 * chosen so that u0 becomes zero; the carry out is the window's new top
 * limb.  (u + m n) / 2^64 < 2^192 + n < 2^256, so it never overflows.
 */
static __always_inline u64 scalar_mont_round(u64 u0, u64 *u1, u64 *u2, u64 *u3)
{
	u64 m = u0 * P256_N0, c = 0;

	mont_mac(&c, u0, m, P256_N_0);
	*u1 = mont_mac(&c, *u1, m, P256_N_1);
	*u2 = mont_mac(&c, *u2, m, P256_N_2);
	*u3 = mont_mac(&c, *u3, m, P256_N_3);
	return c;
}

/*
 * r = t / 2^256 mod n for t = a * b, a < 2^256 and b < n: as for p, the
 * low half reduced alone is at most n and the high half below n.
 */
static __always_inline void scalar_mont_reduce(struct p256_scalar *r, const u64 t[8])
{
	u64 u0 = t[0], u1 = t[1], u2 = t[2], u3 = t[3], c = 0;

	u0 = scalar_mont_round(u0, &u1, &u2, &u3);
	u1 = scalar_mont_round(u1, &u2, &u3, &u0);
	u2 = scalar_mont_round(u2, &u3, &u0, &u1);
	u3 = scalar_mont_round(u3, &u0, &u1, &u2);
	u0 = mont_adc(&c, u0, t[4]);
	u1 = mont_adc(&c, u1, t[5]);
	u2 = mont_adc(&c, u2, t[6]);
	u3 = mont_adc(&c, u3, t[7]);
	scalar_reduce_once(r, u0, u1, u2, u3, c);
}

void p256_scalar_mont_mul(struct p256_scalar *r, const struct p256_scalar *a,
			  const struct p256_scalar *b)
{
	u64 t[8];

	mont_mul_wide(t, a->v, b->v);
	scalar_mont_reduce(r, t);
}
EXPORT_SYMBOL_IF_KUNIT(p256_scalar_mont_mul);

static void scalar_mont_sqr(struct p256_scalar *r, const struct p256_scalar *a)
{
	u64 t[8];

	mont_sqr_wide(t, a->v);
	scalar_mont_reduce(r, t);
}

#endif /* CONFIG_X86_64 */

void p256_scalar_to_mont(struct p256_scalar *r, const struct p256_scalar *a)
{
	p256_scalar_mont_mul(r, a, &p256_n_r2);
}

void p256_scalar_from_mont(struct p256_scalar *r, const struct p256_scalar *a)
{
	static const struct p256_scalar one = { { 1, 0, 0, 0 } };

	p256_scalar_mont_mul(r, a, &one);
}

void p256_scalar_add(struct p256_scalar *r, const struct p256_scalar *a,
		     const struct p256_scalar *b)
{
	u64 s[4], c = 0;
	int i;

	for (i = 0; i < 4; i++)
		s[i] = mont_adc(&c, a->v[i], b->v[i]);
	scalar_reduce_once(r, s[0], s[1], s[2], s[3], c);
}

u64 p256_scalar_is_zero(const struct p256_scalar *a)
{
	return ~p256_mask_nonzero(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

static void scalar_load(struct p256_scalar *r, const u8 in[32])
{
	int i, j;

	for (i = 0; i < 4; i++) {
		r->v[i] = 0;
		for (j = 0; j < 8; j++)
			r->v[i] |= (u64)in[31 - 8 * i - j] << (8 * j);
	}
}

/*
 * Big-endian bytes, as given.  Returns a mask set when 1 <= r < n, the
 * range of private keys and nonces; the value is loaded either way.
 */
u64 p256_scalar_from_bytes(struct p256_scalar *r, const u8 in[32])
{
	u64 borrow = 0;

	scalar_load(r, in);
	mont_sbb(&borrow, r->v[0], P256_N_0);
	mont_sbb(&borrow, r->v[1], P256_N_1);
	mont_sbb(&borrow, r->v[2], P256_N_2);
	mont_sbb(&borrow, r->v[3], P256_N_3);
	return (0 - borrow) & ~p256_scalar_is_zero(r);
}

/*
 * The integer e of FIPS 186-5 6.4.1: the leftmost 256 bits of the digest
 * (all of it when it is shorter), reduced mod n.  A single subtraction is
 * enough since n > 2^255.
 */
void p256_scalar_from_digest(struct p256_scalar *r, const u8 *digest, size_t len)
{
	u8 buf[32] = { 0 };
	size_t take = len < 32 ? len : 32;
	size_t i;

	for (i = 0; i < take; i++)
		buf[32 - take + i] = digest[i];
	scalar_load(r, buf);
	scalar_reduce_once(r, r->v[0], r->v[1], r->v[2], r->v[3], 0);
}

void p256_scalar_to_bytes(u8 out[32], const struct p256_scalar *a)
{
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 8; j++)
			out[31 - 8 * i - j] = (u8)(a->v[i] >> (8 * j));
}

/* bit i of the low 128 bits of n - 2 */
static int inv_low_bit(int i)
{
	static const u64 low[2] = { 0xf3b9cac2fc63254fULL, 0xbce6faada7179e84ULL };

	return low[i / 64] >> (i % 64) & 1;
}

static void scalar_sqr_n(struct p256_scalar *r, const struct p256_scalar *a, int n)
{
	scalar_mont_sqr(r, a);
	while (--n > 0)
		scalar_mont_sqr(r, r);
}

/*
 * r = a^(n - 2) = 1/a, both in Montgomery form.  The exponent is public:
 * the sequence of operations follows its bits, never a.  Its top half,
 * ffffffff 00000000 ffffffff ffffffff, comes from x32 = a^(2^32 - 1) by
 * squarings; the bottom half by sliding windows of up to four bits over
 * the odd powers a^1 .. a^15.  That is 256 squarings and 41
 * multiplications, against 70 for plain 4-bit windows.
 */
void p256_scalar_mont_inv(struct p256_scalar *r, const struct p256_scalar *a)
{
	struct p256_scalar odd[8], x2, x4, x8, x16, x32, t;
	int i, j, k, w;

	/* xN = a^(2^N - 1) */
	scalar_mont_sqr(&t, a);
	p256_scalar_mont_mul(&x2, &t, a);
	scalar_sqr_n(&t, &x2, 2);
	p256_scalar_mont_mul(&x4, &t, &x2);
	scalar_sqr_n(&t, &x4, 4);
	p256_scalar_mont_mul(&x8, &t, &x4);
	scalar_sqr_n(&t, &x8, 8);
	p256_scalar_mont_mul(&x16, &t, &x8);
	scalar_sqr_n(&t, &x16, 16);
	p256_scalar_mont_mul(&x32, &t, &x16);

	/* odd[i] = a^(2i + 1), t = a^2 */
	scalar_mont_sqr(&t, a);
	odd[0] = *a;
	for (i = 1; i < 8; i++)
		p256_scalar_mont_mul(&odd[i], &odd[i - 1], &t);

	scalar_sqr_n(&t, &x32, 64);
	p256_scalar_mont_mul(&t, &t, &x32);
	scalar_sqr_n(&t, &t, 32);
	p256_scalar_mont_mul(&t, &t, &x32);

	i = 127;
	while (i >= 0) {
		if (!inv_low_bit(i)) {
			scalar_mont_sqr(&t, &t);
			i--;
			continue;
		}
		/* the window i..j, j as low as three bits down, ends in a set bit */
		j = i > 3 ? i - 3 : 0;
		while (!inv_low_bit(j))
			j++;
		for (w = 0, k = i; k >= j; k--)
			w = w << 1 | inv_low_bit(k);
		scalar_sqr_n(&t, &t, i - j + 1);
		p256_scalar_mont_mul(&t, &t, &odd[w >> 1]);
		i = j - 1;
	}
	*r = t;
}
