// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arithmetic modulo the P-256 prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1,
 * on four 64-bit limbs in Montgomery form (a stands for a * 2^256 mod p).
 *
 * Montgomery reduction suits this prime: -p^-1 mod 2^64 is 1 and the limbs
 * of p are 2^64 - 1, 2^32 - 1, 0 and 2^64 - 2^32 + 1, so each of the four
 * reduction rounds takes the quotient digit straight from the low limb and
 * costs two multiplications.  Every function runs in time independent of
 * its operands: carries become masks, never branches.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/types.h>

#include "p256_internal.h"
#include "p256_mont.h"

#define P256_P1	0x00000000ffffffffULL
#define P256_P3	0xffffffff00000001ULL

/* 2^512 mod p: multiplying by it in Montgomery form converts a into a * R. */
static const struct p256_fe p256_r2 = { {
	0x0000000000000003ULL, 0xfffffffbffffffffULL,
	0xfffffffffffffffeULL, 0x00000004fffffffdULL,
} };

/* 1 in Montgomery form: 2^256 mod p. */
const struct p256_fe p256_fe_one = { {
	0x0000000000000001ULL, 0xffffffff00000000ULL,
	0xffffffffffffffffULL, 0x00000000fffffffeULL,
} };

#ifdef CONFIG_X86_64

static const u64 p256_p1 = P256_P1, p256_p3 = P256_P3;

/* MONT_FINAL mod p; %[p1] and %[p3m] are the limbs that need memory */
#define FE_FINAL(R0, R1, R2, R3, TOP, D0, D1, D2, D3)		\
	MONT_FINAL("$-1", "%[p1]", "$0", "%[p3m]",		\
		   R0, R1, R2, R3, TOP, D0, D1, D2, D3)

/*
 * A reduction round adds m * p with m = T0, spelled out with p's shape:
 * m * (2^64 - 1) + m * (2^32 - 1) * 2^64 is m * 2^96 - m, whose -m clears
 * T0, so T1:T2 gain m << 32 and m >> 32; the top limb's multiple is one
 * mulq by P256_P3.  T4 takes the top limb, its carry goes to T5.
 */
#define FE_ROUND(T0, T1, T2, T3, T4, T5)			\
	"movabsq %[p3], %%rax\n\t"				\
	"mulq %[" #T0 "]\n\t"					\
	"movq %[" #T0 "], %[tmp]\n\t"				\
	"shlq $32, %[tmp]\n\t"					\
	"shrq $32, %[" #T0 "]\n\t"				\
	"addq %[tmp], %[" #T1 "]\n\t"				\
	"adcq %[" #T0 "], %[" #T2 "]\n\t"			\
	"adcq %%rax, %[" #T3 "]\n\t"				\
	"adcq %%rdx, %[" #T4 "]\n\t"				\
	"adcq $0, %[" #T5 "]\n\t"

/* The same round on a window of four limbs; the top one lands in T0. */
#define FE_ROUND_TOP(T0, T1, T2, T3)				\
	"movabsq %[p3], %%rax\n\t"				\
	"mulq %[" #T0 "]\n\t"					\
	"movq %[" #T0 "], %[tmp]\n\t"				\
	"shlq $32, %[tmp]\n\t"					\
	"shrq $32, %[" #T0 "]\n\t"				\
	"addq %[tmp], %[" #T1 "]\n\t"				\
	"adcq %[" #T0 "], %[" #T2 "]\n\t"			\
	"adcq %%rax, %[" #T3 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[" #T0 "]\n\t"

/* a row of a * b[I], I a byte offset; %[bi] holds b[I] */
#define FE_ROW(I, T0, T1, T2, T3, T4, T5)			\
	"xorl %k[" #T5 "], %k[" #T5 "]\n\t"			\
	"movq " #I "(%[bp]), %[bi]\n\t"			\
	MONT_ROW("0(%[ap])", "8(%[ap])", "16(%[ap])", "24(%[ap])",	\
		 bi, T0, T1, T2, T3, T4, T5)

/*
 * Rows and reduction rounds interleave, so the running sum stays within
 * five limbs and a bit (below 2p + p * 2^64 after a row, 2p after its
 * round); the window moves up one register per round and ends in
 * t4 t5 t0 t1 with t2 the bit above.  a below 2^256 and b below p are
 * enough for the bounds, which p256_fe_from_bytes() relies on.
 */
static __always_inline void fe_mul_mulq(struct p256_fe *r,
					const struct p256_fe *a,
					const struct p256_fe *b)
{
	u64 t0, t1, t2, t3, t4, t5, tmp, bi, d0, d1;

	asm("xorl %k[t0], %k[t0]\n\t"
	    "xorl %k[t1], %k[t1]\n\t"
	    "xorl %k[t2], %k[t2]\n\t"
	    "xorl %k[t3], %k[t3]\n\t"
	    "xorl %k[t4], %k[t4]\n\t"
	    FE_ROW(0, t0, t1, t2, t3, t4, t5)
	    FE_ROUND(t0, t1, t2, t3, t4, t5)
	    FE_ROW(8, t1, t2, t3, t4, t5, t0)
	    FE_ROUND(t1, t2, t3, t4, t5, t0)
	    FE_ROW(16, t2, t3, t4, t5, t0, t1)
	    FE_ROUND(t2, t3, t4, t5, t0, t1)
	    FE_ROW(24, t3, t4, t5, t0, t1, t2)
	    FE_ROUND(t3, t4, t5, t0, t1, t2)
	    FE_FINAL(t4, t5, t0, t1, t2, d0, d1, tmp, bi)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [tmp] "=&r" (tmp), [bi] "=&r" (bi),
	      [d0] "=&a" (d0), [d1] "=&d" (d1)
	    : [ap] "r" (a->v), [bp] "r" (b->v),
	      "m" (*(const u64 (*)[4])a->v), "m" (*(const u64 (*)[4])b->v),
	      [p1] "m" (p256_p1), [p3m] "m" (p256_p3), [p3] "i" (P256_P3)
	    : "cc");
	r->v[0] = d0;
	r->v[1] = d1;
	r->v[2] = tmp;
	r->v[3] = bi;
}

/*
 * The whole 512-bit square first, then the low half reduced on its own
 * (the four-limb window turns through t0..t3 back to t0..t3), giving a
 * value at most p, plus the high half, below p: one final subtraction.
 */
static __always_inline void fe_sqr_mulq(struct p256_fe *r,
					const struct p256_fe *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, tmp, d0, d1;

	asm(MONT_SQR_WIDE(t0, t1, t2, t3, t4, t5, t6, t7)
	    FE_ROUND_TOP(t0, t1, t2, t3)
	    FE_ROUND_TOP(t1, t2, t3, t0)
	    FE_ROUND_TOP(t2, t3, t0, t1)
	    FE_ROUND_TOP(t3, t0, t1, t2)
	    "addq %[t4], %[t0]\n\t"
	    "adcq %[t5], %[t1]\n\t"
	    "adcq %[t6], %[t2]\n\t"
	    "adcq %[t7], %[t3]\n\t"
	    "movl $0, %k[t4]\n\t"
	    "adcq $0, %[t4]\n\t"
	    FE_FINAL(t0, t1, t2, t3, t4, d0, d1, tmp, t5)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [t6] "=&r" (t6), [t7] "=&r" (t7), [tmp] "=&r" (tmp),
	      [d0] "=&a" (d0), [d1] "=&d" (d1)
	    : [ap] "r" (a->v), "m" (*(const u64 (*)[4])a->v),
	      [p1] "m" (p256_p1), [p3m] "m" (p256_p3), [p3] "i" (P256_P3)
	    : "cc");
	r->v[0] = d0;
	r->v[1] = d1;
	r->v[2] = tmp;
	r->v[3] = t5;
}

/*
 * The round of FE_ROUND with mulx: m * P256_P3 lands in lo:hi and %rdx,
 * free again, holds m << 32.
 */
#define FE_ROUND_ADX(T0, T1, T2, T3, T4, T5)			\
	"movq %[" #T0 "], %%rdx\n\t"				\
	"mulxq %[p3m], %[lo], %[hi]\n\t"			\
	"shlq $32, %%rdx\n\t"					\
	"shrq $32, %[" #T0 "]\n\t"				\
	"addq %%rdx, %[" #T1 "]\n\t"				\
	"adcq %[" #T0 "], %[" #T2 "]\n\t"			\
	"adcq %[lo], %[" #T3 "]\n\t"				\
	"adcq %[hi], %[" #T4 "]\n\t"				\
	"adcq $0, %[" #T5 "]\n\t"

/* a row of a * b[I]; the xorl clears CF and OF for the row's two chains */
#define FE_ROW_ADX(I, T0, T1, T2, T3, T4, T5)			\
	"xorl %k[" #T5 "], %k[" #T5 "]\n\t"			\
	"movq " #I "(%[bp]), %%rdx\n\t"				\
	"xorl %k[zero], %k[zero]\n\t"				\
	MONT_ROW_ADX("0(%[ap])", "8(%[ap])", "16(%[ap])", "24(%[ap])", \
		     T0, T1, T2, T3, T4, T5)

/* fe_mul_mulq() with mulx rows; the same bounds hold */
static __always_inline void fe_mul_adx(struct p256_fe *r,
				       const struct p256_fe *a,
				       const struct p256_fe *b)
{
	u64 t0, t1, t2, t3, t4, t5, lo, hi, zero, d;

	asm("xorl %k[t0], %k[t0]\n\t"
	    "xorl %k[t1], %k[t1]\n\t"
	    "xorl %k[t2], %k[t2]\n\t"
	    "xorl %k[t3], %k[t3]\n\t"
	    "xorl %k[t4], %k[t4]\n\t"
	    FE_ROW_ADX(0, t0, t1, t2, t3, t4, t5)
	    FE_ROUND_ADX(t0, t1, t2, t3, t4, t5)
	    FE_ROW_ADX(8, t1, t2, t3, t4, t5, t0)
	    FE_ROUND_ADX(t1, t2, t3, t4, t5, t0)
	    FE_ROW_ADX(16, t2, t3, t4, t5, t0, t1)
	    FE_ROUND_ADX(t2, t3, t4, t5, t0, t1)
	    FE_ROW_ADX(24, t3, t4, t5, t0, t1, t2)
	    FE_ROUND_ADX(t3, t4, t5, t0, t1, t2)
	    FE_FINAL(t4, t5, t0, t1, t2, lo, hi, zero, d)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [lo] "=&r" (lo), [hi] "=&r" (hi), [zero] "=&r" (zero),
	      [d] "=&d" (d)
	    : [ap] "r" (a->v), [bp] "r" (b->v),
	      "m" (*(const u64 (*)[4])a->v), "m" (*(const u64 (*)[4])b->v),
	      [p1] "m" (p256_p1), [p3m] "m" (p256_p3)
	    : "cc");
	r->v[0] = lo;
	r->v[1] = hi;
	r->v[2] = zero;
	r->v[3] = d;
}

void p256_fe_mul(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	if (mont_have_adx())
		fe_mul_adx(r, a, b);
	else
		fe_mul_mulq(r, a, b);
}
EXPORT_SYMBOL_IF_KUNIT(p256_fe_mul);

/* FE_ROUND_TOP with mulx */
#define FE_ROUND_TOP_ADX(T0, T1, T2, T3)			\
	"movq %[" #T0 "], %%rdx\n\t"				\
	"mulxq %[p3m], %[lo], %[hi]\n\t"			\
	"shlq $32, %%rdx\n\t"					\
	"shrq $32, %[" #T0 "]\n\t"				\
	"addq %%rdx, %[" #T1 "]\n\t"				\
	"adcq %[" #T0 "], %[" #T2 "]\n\t"			\
	"adcq %[lo], %[" #T3 "]\n\t"				\
	"adcq $0, %[hi]\n\t"					\
	"movq %[hi], %[" #T0 "]\n\t"

/* fe_sqr_mulq() with mulx */
static __always_inline void fe_sqr_adx(struct p256_fe *r,
				       const struct p256_fe *a)
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, zero, d;

	asm(MONT_SQR_WIDE_ADX(t0, t1, t2, t3, t4, t5, t6, t7)
	    FE_ROUND_TOP_ADX(t0, t1, t2, t3)
	    FE_ROUND_TOP_ADX(t1, t2, t3, t0)
	    FE_ROUND_TOP_ADX(t2, t3, t0, t1)
	    FE_ROUND_TOP_ADX(t3, t0, t1, t2)
	    "addq %[t4], %[t0]\n\t"
	    "adcq %[t5], %[t1]\n\t"
	    "adcq %[t6], %[t2]\n\t"
	    "adcq %[t7], %[t3]\n\t"
	    "movl $0, %k[t4]\n\t"
	    "adcq $0, %[t4]\n\t"
	    FE_FINAL(t0, t1, t2, t3, t4, lo, hi, zero, d)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [t4] "=&r" (t4), [t5] "=&r" (t5),
	      [t6] "=&r" (t6), [t7] "=&r" (t7), [lo] "=&r" (lo),
	      [hi] "=&r" (hi), [zero] "=&r" (zero), [d] "=&d" (d)
	    : [ap] "r" (a->v), "m" (*(const u64 (*)[4])a->v),
	      [p1] "m" (p256_p1), [p3m] "m" (p256_p3)
	    : "cc");
	r->v[0] = lo;
	r->v[1] = hi;
	r->v[2] = zero;
	r->v[3] = d;
}

void p256_fe_sqr(struct p256_fe *r, const struct p256_fe *a)
{
	if (mont_have_adx())
		fe_sqr_adx(r, a);
	else
		fe_sqr_mulq(r, a);
}
EXPORT_SYMBOL_IF_KUNIT(p256_fe_sqr);

void p256_fe_add(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 t0, t1, t2, t3, top, d0, d1, d2, d3;

	asm("movq 0(%[ap]), %[t0]\n\t"
	    "movq 8(%[ap]), %[t1]\n\t"
	    "movq 16(%[ap]), %[t2]\n\t"
	    "movq 24(%[ap]), %[t3]\n\t"
	    "xorl %k[top], %k[top]\n\t"
	    "addq 0(%[bp]), %[t0]\n\t"
	    "adcq 8(%[bp]), %[t1]\n\t"
	    "adcq 16(%[bp]), %[t2]\n\t"
	    "adcq 24(%[bp]), %[t3]\n\t"
	    "adcq $0, %[top]\n\t"
	    FE_FINAL(t0, t1, t2, t3, top, d0, d1, d2, d3)
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [top] "=&r" (top), [d0] "=&r" (d0),
	      [d1] "=&r" (d1), [d2] "=&r" (d2), [d3] "=&r" (d3)
	    : [ap] "r" (a->v), [bp] "r" (b->v),
	      "m" (*(const u64 (*)[4])a->v), "m" (*(const u64 (*)[4])b->v),
	      [p1] "m" (p256_p1), [p3m] "m" (p256_p3)
	    : "cc");
	r->v[0] = d0;
	r->v[1] = d1;
	r->v[2] = d2;
	r->v[3] = d3;
}

/* a - b, plus p when that went negative: p's limbs masked by the borrow */
void p256_fe_sub(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 t0, t1, t2, t3, mask, m1, m3;

	asm("movq 0(%[ap]), %[t0]\n\t"
	    "movq 8(%[ap]), %[t1]\n\t"
	    "movq 16(%[ap]), %[t2]\n\t"
	    "movq 24(%[ap]), %[t3]\n\t"
	    "subq 0(%[bp]), %[t0]\n\t"
	    "sbbq 8(%[bp]), %[t1]\n\t"
	    "sbbq 16(%[bp]), %[t2]\n\t"
	    "sbbq 24(%[bp]), %[t3]\n\t"
	    "sbbq %[mask], %[mask]\n\t"
	    "movl %k[mask], %k[m1]\n\t"
	    "movq %[p3m], %[m3]\n\t"
	    "andq %[mask], %[m3]\n\t"
	    "addq %[mask], %[t0]\n\t"
	    "adcq %[m1], %[t1]\n\t"
	    "adcq $0, %[t2]\n\t"
	    "adcq %[m3], %[t3]\n\t"
	    : [t0] "=&r" (t0), [t1] "=&r" (t1), [t2] "=&r" (t2),
	      [t3] "=&r" (t3), [mask] "=&r" (mask), [m1] "=&r" (m1),
	      [m3] "=&r" (m3)
	    : [ap] "r" (a->v), [bp] "r" (b->v),
	      "m" (*(const u64 (*)[4])a->v), "m" (*(const u64 (*)[4])b->v), [p3m] "m" (p256_p3)
	    : "cc");
	r->v[0] = t0;
	r->v[1] = t1;
	r->v[2] = t2;
	r->v[3] = t3;
}

#else /* !CONFIG_X86_64 */

/*
 * r = (top * 2^256 + x) mod p for a value below 2p: subtract p and keep
 * the difference unless it went negative.
 */
static __always_inline void fe_reduce_once(struct p256_fe *r, u64 x0, u64 x1,
					   u64 x2, u64 x3, u64 top)
{
	u64 d0, d1, d2, d3, borrow = 0, keep;

	d0 = mont_sbb(&borrow, x0, ~0ULL);
	d1 = mont_sbb(&borrow, x1, P256_P1);
	d2 = mont_sbb(&borrow, x2, 0);
	d3 = mont_sbb(&borrow, x3, P256_P3);
	keep = 0 - (borrow & (top ^ 1));
	r->v[0] = (x0 & keep) | (d0 & ~keep);
	r->v[1] = (x1 & keep) | (d1 & ~keep);
	r->v[2] = (x2 & keep) | (d2 & ~keep);
	r->v[3] = (x3 & keep) | (d3 & ~keep);
}

/*
 * One Montgomery round on the low half alone: add m * p to u0..u3 with
 * m = u0, which clears u0 (u0 + m * (2^64 - 1) is m * 2^64, so the limb
 * drops and m carries); the carry out is the window's new top limb.
 * (u + m p) / 2^64 < 2^192 + p < 2^256, so that limb never overflows.
 */
static __always_inline u64 fe_mont_round(u64 u0, u64 *u1, u64 *u2, u64 *u3)
{
	u64 c = u0;

	*u1 = mont_mac(&c, *u1, u0, P256_P1);
	*u2 = mont_adc(&c, *u2, 0);
	*u3 = mont_mac(&c, *u3, u0, P256_P3);
	return c;
}

/*
 * r = t / 2^256 mod p for t = a * b, a < 2^256 and b < p.  The low half
 * reduced on its own (the window turning through u0..u3 back to u0..u3)
 * is at most p and the high half is below p, so the sum needs one
 * conditional subtraction.
 */
static __always_inline void fe_mont_reduce(struct p256_fe *r, const u64 t[8])
{
	u64 u0 = t[0], u1 = t[1], u2 = t[2], u3 = t[3], c = 0;

	u0 = fe_mont_round(u0, &u1, &u2, &u3);
	u1 = fe_mont_round(u1, &u2, &u3, &u0);
	u2 = fe_mont_round(u2, &u3, &u0, &u1);
	u3 = fe_mont_round(u3, &u0, &u1, &u2);
	u0 = mont_adc(&c, u0, t[4]);
	u1 = mont_adc(&c, u1, t[5]);
	u2 = mont_adc(&c, u2, t[6]);
	u3 = mont_adc(&c, u3, t[7]);
	fe_reduce_once(r, u0, u1, u2, u3, c);
}

void p256_fe_mul(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 t[8];

	mont_mul_wide(t, a->v, b->v);
	fe_mont_reduce(r, t);
}
EXPORT_SYMBOL_IF_KUNIT(p256_fe_mul);

void p256_fe_sqr(struct p256_fe *r, const struct p256_fe *a)
{
	u64 t[8];

	mont_sqr_wide(t, a->v);
	fe_mont_reduce(r, t);
}
EXPORT_SYMBOL_IF_KUNIT(p256_fe_sqr);

void p256_fe_add(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 s0, s1, s2, s3, c = 0;

	s0 = mont_adc(&c, a->v[0], b->v[0]);
	s1 = mont_adc(&c, a->v[1], b->v[1]);
	s2 = mont_adc(&c, a->v[2], b->v[2]);
	s3 = mont_adc(&c, a->v[3], b->v[3]);
	fe_reduce_once(r, s0, s1, s2, s3, c);
}

void p256_fe_sub(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 d0, d1, d2, d3, borrow = 0, mask, c = 0;

	d0 = mont_sbb(&borrow, a->v[0], b->v[0]);
	d1 = mont_sbb(&borrow, a->v[1], b->v[1]);
	d2 = mont_sbb(&borrow, a->v[2], b->v[2]);
	d3 = mont_sbb(&borrow, a->v[3], b->v[3]);
	/* went negative: add p back */
	mask = 0 - borrow;
	r->v[0] = mont_adc(&c, d0, mask);
	r->v[1] = mont_adc(&c, d1, P256_P1 & mask);
	r->v[2] = mont_adc(&c, d2, 0);
	r->v[3] = mont_adc(&c, d3, P256_P3 & mask);
}

#endif /* CONFIG_X86_64 */

/* r = a / 2: a + p when a is odd, then one shift right (257 bits). */
void p256_fe_half(struct p256_fe *r, const struct p256_fe *a)
{
	u64 mask = 0 - (a->v[0] & 1), c = 0, t0, t1, t2, t3;

	t0 = mont_adc(&c, a->v[0], mask);
	t1 = mont_adc(&c, a->v[1], P256_P1 & mask);
	t2 = mont_adc(&c, a->v[2], 0);
	t3 = mont_adc(&c, a->v[3], P256_P3 & mask);
	r->v[0] = t0 >> 1 | t1 << 63;
	r->v[1] = t1 >> 1 | t2 << 63;
	r->v[2] = t2 >> 1 | t3 << 63;
	r->v[3] = t3 >> 1 | c << 63;
}

void p256_fe_neg(struct p256_fe *r, const struct p256_fe *a)
{
	static const struct p256_fe zero;

	p256_fe_sub(r, &zero, a);
}

u64 p256_fe_is_zero(const struct p256_fe *a)
{
	return ~p256_mask_nonzero(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

u64 p256_fe_equal(const struct p256_fe *a, const struct p256_fe *b)
{
	struct p256_fe d;

	p256_fe_sub(&d, a, b);
	return p256_fe_is_zero(&d);
}

/* r = mask ? a : r */
void p256_fe_cmov(struct p256_fe *r, const struct p256_fe *a, u64 mask)
{
	int i;

	for (i = 0; i < 4; i++)
		r->v[i] ^= mask & (r->v[i] ^ a->v[i]);
}

/*
 * Big-endian bytes to Montgomery form.  Returns a mask that is set when
 * the input was below p; r is then valid, otherwise its value is some
 * reduction the caller must not use.
 */
u64 p256_fe_from_bytes(struct p256_fe *r, const u8 in[32])
{
	struct p256_fe a;
	u64 borrow = 0;
	int i, j;

	for (i = 0; i < 4; i++) {
		a.v[i] = 0;
		for (j = 0; j < 8; j++)
			a.v[i] |= (u64)in[31 - 8 * i - j] << (8 * j);
	}
	mont_sbb(&borrow, a.v[0], ~0ULL);
	mont_sbb(&borrow, a.v[1], P256_P1);
	mont_sbb(&borrow, a.v[2], 0);
	mont_sbb(&borrow, a.v[3], P256_P3);
	p256_fe_mul(r, &a, &p256_r2);
	return 0 - borrow;
}

void p256_fe_to_bytes(u8 out[32], const struct p256_fe *a)
{
	static const struct p256_fe one = { { 1, 0, 0, 0 } };
	struct p256_fe x;
	int i, j;

	/* a Montgomery product with 1 divides by R and leaves x < p */
	p256_fe_mul(&x, a, &one);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 8; j++)
			out[31 - 8 * i - j] = (u8)(x.v[i] >> (8 * j));
}

static void fe_sqr_n(struct p256_fe *r, const struct p256_fe *a, int n)
{
	p256_fe_sqr(r, a);
	while (--n > 0)
		p256_fe_sqr(r, r);
}

/*
 * r = a^(p - 2) = 1/a (0 for a == 0), by a fixed addition chain: the
 * exponent is public, so the sequence of operations is the same for every
 * input.  xN below is a^(2^N - 1).
 */
void p256_fe_inv(struct p256_fe *r, const struct p256_fe *a)
{
	struct p256_fe x2, x3, x6, x12, x15, x30, x32, t;

	fe_sqr_n(&t, a, 1);
	p256_fe_mul(&x2, &t, a);
	fe_sqr_n(&t, &x2, 1);
	p256_fe_mul(&x3, &t, a);
	fe_sqr_n(&t, &x3, 3);
	p256_fe_mul(&x6, &t, &x3);
	fe_sqr_n(&t, &x6, 6);
	p256_fe_mul(&x12, &t, &x6);
	fe_sqr_n(&t, &x12, 3);
	p256_fe_mul(&x15, &t, &x3);
	fe_sqr_n(&t, &x15, 15);
	p256_fe_mul(&x30, &t, &x15);
	fe_sqr_n(&t, &x30, 2);
	p256_fe_mul(&x32, &t, &x2);

	/* p - 2 = ffffffff 00000001 [96 zero bits] ffffffff ffffffff fffffffd */
	fe_sqr_n(&t, &x32, 32);
	p256_fe_mul(&t, &t, a);
	fe_sqr_n(&t, &t, 128);
	p256_fe_mul(&t, &t, &x32);
	fe_sqr_n(&t, &t, 32);
	p256_fe_mul(&t, &t, &x32);
	fe_sqr_n(&t, &t, 30);
	p256_fe_mul(&t, &t, &x30);
	fe_sqr_n(&t, &t, 2);
	p256_fe_mul(r, &t, a);
}
