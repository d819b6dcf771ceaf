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

static const u64 p256_p[4] = {
	0xffffffffffffffffULL, P256_P1, 0, P256_P3,
};

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
static __always_inline void fe_reduce_once(struct p256_fe *r, const u64 x[4], u64 top)
{
	u64 d[4], borrow = 0, keep;
	int i;

	for (i = 0; i < 4; i++)
		d[i] = sbb(&borrow, x[i], p256_p[i]);
	keep = 0 - (borrow & (top ^ 1));
	for (i = 0; i < 4; i++)
		r->v[i] = (x[i] & keep) | (d[i] & ~keep);
}

/* r = t / 2^256 mod p for t < p * 2^256; t is clobbered. */
static __always_inline void fe_mont_reduce(struct p256_fe *r, u64 t[8])
{
	u64 m, c, top = 0;
	int i;

	for (i = 0; i < 4; i++) {
		m = t[i];
		/* t[i] + m * (2^64 - 1) is m * 2^64: the limb clears, m carries. */
		c = m;
		t[i + 1] = mac(&c, t[i + 1], m, P256_P1);
		t[i + 2] = adc(&c, t[i + 2], 0);
		t[i + 3] = mac(&c, t[i + 3], m, P256_P3);
		/* the carry out of this round lands where the next one ends */
		t[i + 4] = adc(&top, t[i + 4], c);
	}
	fe_reduce_once(r, &t[4], top);
}

void p256_fe_mul(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 t[8], c;
	int i;

	c = 0;
	t[0] = mac(&c, 0, a->v[0], b->v[0]);
	t[1] = mac(&c, 0, a->v[0], b->v[1]);
	t[2] = mac(&c, 0, a->v[0], b->v[2]);
	t[3] = mac(&c, 0, a->v[0], b->v[3]);
	t[4] = c;
	for (i = 1; i < 4; i++) {
		c = 0;
		t[i + 0] = mac(&c, t[i + 0], a->v[i], b->v[0]);
		t[i + 1] = mac(&c, t[i + 1], a->v[i], b->v[1]);
		t[i + 2] = mac(&c, t[i + 2], a->v[i], b->v[2]);
		t[i + 3] = mac(&c, t[i + 3], a->v[i], b->v[3]);
		t[i + 4] = c;
	}
	fe_mont_reduce(r, t);
}

void p256_fe_sqr(struct p256_fe *r, const struct p256_fe *a)
{
	const u64 *x = a->v;
	u64 t[8], c;
	int i;

	/* the products x[i] * x[j], i < j, once ... */
	c = 0;
	t[1] = mac(&c, 0, x[0], x[1]);
	t[2] = mac(&c, 0, x[0], x[2]);
	t[3] = mac(&c, 0, x[0], x[3]);
	t[4] = c;
	c = 0;
	t[3] = mac(&c, t[3], x[1], x[2]);
	t[4] = mac(&c, t[4], x[1], x[3]);
	t[5] = c;
	c = 0;
	t[5] = mac(&c, t[5], x[2], x[3]);
	t[6] = c;
	/* ... doubled ... */
	t[7] = t[6] >> 63;
	for (i = 6; i > 1; i--)
		t[i] = t[i] << 1 | t[i - 1] >> 63;
	t[1] <<= 1;
	t[0] = 0;
	/* ... plus the squares on the diagonal */
	c = 0;
	for (i = 0; i < 4; i++) {
		u128 sq = (u128)x[i] * x[i];

		t[2 * i] = adc(&c, t[2 * i], (u64)sq);
		t[2 * i + 1] = adc(&c, t[2 * i + 1], (u64)(sq >> 64));
	}
	fe_mont_reduce(r, t);
}

void p256_fe_add(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 s[4], c = 0;
	int i;

	for (i = 0; i < 4; i++)
		s[i] = adc(&c, a->v[i], b->v[i]);
	fe_reduce_once(r, s, c);
}

void p256_fe_sub(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b)
{
	u64 d[4], borrow = 0, mask, c = 0;
	int i;

	for (i = 0; i < 4; i++)
		d[i] = sbb(&borrow, a->v[i], b->v[i]);
	/* went negative: add p back */
	mask = 0 - borrow;
	for (i = 0; i < 4; i++)
		r->v[i] = adc(&c, d[i], p256_p[i] & mask);
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
	for (i = 0; i < 4; i++)
		sbb(&borrow, a.v[i], p256_p[i]);
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
