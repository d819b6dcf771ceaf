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
#include <linux/types.h>

#include "p256_internal.h"

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

/* t + a * b + *carry, whose high half becomes the next carry; never overflows. */
static __always_inline u64 mac(u64 *carry, u64 t, u64 a, u64 b)
{
	u128 r = (u128)a * b + t + *carry;

	*carry = r >> 64;
	return (u64)r;
}

static __always_inline u64 adc(u64 *carry, u64 a, u64 b)
{
	u128 r = (u128)a + b + *carry;

	*carry = r >> 64;
	return (u64)r;
}

static __always_inline u64 sbb(u64 *borrow, u64 a, u64 b)
{
	u128 r = (u128)a - b - *borrow;

	*borrow = (u64)(r >> 64) & 1;
	return (u64)r;
}

/*
 * r = (top * 2^256 + x) mod p for a value below 2p: subtract p and keep
 * the difference unless it went negative.
 */
static __always_inline void fe_reduce_once(struct p256_fe *r, u64 x0, u64 x1,
					   u64 x2, u64 x3, u64 top)
{
	u64 d0, d1, d2, d3, borrow = 0, keep;

	d0 = sbb(&borrow, x0, ~0ULL);
	d1 = sbb(&borrow, x1, P256_P1);
	d2 = sbb(&borrow, x2, 0);
	d3 = sbb(&borrow, x3, P256_P3);
	keep = 0 - (borrow & (top ^ 1));
	r->v[0] = (x0 & keep) | (d0 & ~keep);
	r->v[1] = (x1 & keep) | (d1 & ~keep);
	r->v[2] = (x2 & keep) | (d2 & ~keep);
	r->v[3] = (x3 & keep) | (d3 & ~keep);
}

/*
 * One Montgomery round: add m * p to the window t0..t4 with m = t0, which
 * clears t0 (t0 + m * (2^64 - 1) is m * 2^64, so the limb drops and m
 * carries).  *top collects the carry out of t4 for the next round.
 */
static __always_inline void fe_mont_round(u64 t0, u64 *t1, u64 *t2, u64 *t3,
					  u64 *t4, u64 *top)
{
	u64 c = t0;

	*t1 = mac(&c, *t1, t0, P256_P1);
	*t2 = adc(&c, *t2, 0);
	*t3 = mac(&c, *t3, t0, P256_P3);
	*t4 = adc(top, *t4, c);
}

/* r = t / 2^256 mod p for t < p * 2^256, t given as eight limbs. */
static __always_inline void fe_mont_reduce(struct p256_fe *r, u64 t0, u64 t1,
					   u64 t2, u64 t3, u64 t4, u64 t5,
					   u64 t6, u64 t7)
{
	u64 top = 0, c;

	fe_mont_round(t0, &t1, &t2, &t3, &t4, &top);
	fe_mont_round(t1, &t2, &t3, &t4, &t5, &top);
	/* the carry out of a round lands where the next round ends */
	c = top;
	top = 0;
	t6 = adc(&top, t6, c);
	fe_mont_round(t2, &t3, &t4, &t5, &t6, &top);
	c = top;
	top = 0;
	t7 = adc(&top, t7, c);
	fe_mont_round(t3, &t4, &t5, &t6, &t7, &top);
	fe_reduce_once(r, t4, t5, t6, t7, top);
}

void p256_fe_mul(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	const u64 a0 = a->v[0], a1 = a->v[1], a2 = a->v[2], a3 = a->v[3];
	const u64 b0 = b->v[0], b1 = b->v[1], b2 = b->v[2], b3 = b->v[3];
	u64 t0, t1, t2, t3, t4, t5, t6, t7, c;

	c = 0;
	t0 = mac(&c, 0, a0, b0);
	t1 = mac(&c, 0, a0, b1);
	t2 = mac(&c, 0, a0, b2);
	t3 = mac(&c, 0, a0, b3);
	t4 = c;
	c = 0;
	t1 = mac(&c, t1, a1, b0);
	t2 = mac(&c, t2, a1, b1);
	t3 = mac(&c, t3, a1, b2);
	t4 = mac(&c, t4, a1, b3);
	t5 = c;
	c = 0;
	t2 = mac(&c, t2, a2, b0);
	t3 = mac(&c, t3, a2, b1);
	t4 = mac(&c, t4, a2, b2);
	t5 = mac(&c, t5, a2, b3);
	t6 = c;
	c = 0;
	t3 = mac(&c, t3, a3, b0);
	t4 = mac(&c, t4, a3, b1);
	t5 = mac(&c, t5, a3, b2);
	t6 = mac(&c, t6, a3, b3);
	t7 = c;
	fe_mont_reduce(r, t0, t1, t2, t3, t4, t5, t6, t7);
}

void p256_fe_sqr(struct p256_fe *r, const struct p256_fe *a)
{
	const u64 x0 = a->v[0], x1 = a->v[1], x2 = a->v[2], x3 = a->v[3];
	u64 t0, t1, t2, t3, t4, t5, t6, t7, c;
	u128 sq;

	/* the products x[i] * x[j], i < j, once ... */
	c = 0;
	t1 = mac(&c, 0, x0, x1);
	t2 = mac(&c, 0, x0, x2);
	t3 = mac(&c, 0, x0, x3);
	t4 = c;
	c = 0;
	t3 = mac(&c, t3, x1, x2);
	t4 = mac(&c, t4, x1, x3);
	t5 = c;
	c = 0;
	t5 = mac(&c, t5, x2, x3);
	t6 = c;
	/* ... doubled ... */
	t7 = t6 >> 63;
	t6 = t6 << 1 | t5 >> 63;
	t5 = t5 << 1 | t4 >> 63;
	t4 = t4 << 1 | t3 >> 63;
	t3 = t3 << 1 | t2 >> 63;
	t2 = t2 << 1 | t1 >> 63;
	t1 <<= 1;
	/* ... plus the squares on the diagonal */
	c = 0;
	sq = (u128)x0 * x0;
	t0 = (u64)sq;
	t1 = adc(&c, t1, (u64)(sq >> 64));
	sq = (u128)x1 * x1;
	t2 = adc(&c, t2, (u64)sq);
	t3 = adc(&c, t3, (u64)(sq >> 64));
	sq = (u128)x2 * x2;
	t4 = adc(&c, t4, (u64)sq);
	t5 = adc(&c, t5, (u64)(sq >> 64));
	sq = (u128)x3 * x3;
	t6 = adc(&c, t6, (u64)sq);
	t7 = adc(&c, t7, (u64)(sq >> 64));
	fe_mont_reduce(r, t0, t1, t2, t3, t4, t5, t6, t7);
}

void p256_fe_add(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 s0, s1, s2, s3, c = 0;

	s0 = adc(&c, a->v[0], b->v[0]);
	s1 = adc(&c, a->v[1], b->v[1]);
	s2 = adc(&c, a->v[2], b->v[2]);
	s3 = adc(&c, a->v[3], b->v[3]);
	fe_reduce_once(r, s0, s1, s2, s3, c);
}

void p256_fe_sub(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 d0, d1, d2, d3, borrow = 0, mask, c = 0;

	d0 = sbb(&borrow, a->v[0], b->v[0]);
	d1 = sbb(&borrow, a->v[1], b->v[1]);
	d2 = sbb(&borrow, a->v[2], b->v[2]);
	d3 = sbb(&borrow, a->v[3], b->v[3]);
	/* went negative: add p back */
	mask = 0 - borrow;
	r->v[0] = adc(&c, d0, mask);
	r->v[1] = adc(&c, d1, P256_P1 & mask);
	r->v[2] = adc(&c, d2, 0);
	r->v[3] = adc(&c, d3, P256_P3 & mask);
}

/* r = a / 2: a + p when a is odd, then one shift right (257 bits). */
void p256_fe_half(struct p256_fe *r, const struct p256_fe *a)
{
	u64 mask = 0 - (a->v[0] & 1), c = 0, t0, t1, t2, t3;

	t0 = adc(&c, a->v[0], mask);
	t1 = adc(&c, a->v[1], P256_P1 & mask);
	t2 = adc(&c, a->v[2], 0);
	t3 = adc(&c, a->v[3], P256_P3 & mask);
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
	sbb(&borrow, a.v[0], ~0ULL);
	sbb(&borrow, a.v[1], P256_P1);
	sbb(&borrow, a.v[2], 0);
	sbb(&borrow, a.v[3], P256_P3);
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
