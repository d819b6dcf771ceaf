// SPDX-License-Identifier: GPL-2.0-only
/*
 * P-256 group law and variable-base scalar multiplication: Jacobian
 * doubling and addition for y^2 = x^3 - 3x + b, SEC1 encoding with full
 * validation of untrusted points, and k * P by signed 5-bit windows over a
 * per-call table that is always read whole.
 */
#include <linux/string.h>
#include <linux/types.h>

#include "p256_internal.h"

/* b * R mod p */
static const struct p256_fe p256_b = { {
	0xd89cdf6229c4bddfULL, 0xacf005cd78843090ULL,
	0xe5a220abf7212ed6ULL, 0xdc30061d04874834ULL,
} };

/*
 * Doubling for a = -3 in 3M + 5S's cost but fewer additions than
 * dbl-2001-b: with Y2 = 2Y, alpha = 3 (X - Z^2)(X + Z^2), beta = X Y2^2,
 *   X3 = alpha^2 - 2 beta,  Y3 = alpha (beta - X3) - Y2^4 / 2,  Z3 = Y2 Z.
 * Infinity (Z = 0) maps to Z3 = 0, so it needs no special case.
 */
void p256_point_double(struct p256_point *r, const struct p256_point *p)
{
	struct p256_fe delta, y2, yy, beta, alpha, t0, t1;

	p256_fe_sqr(&delta, &p->z);
	p256_fe_add(&y2, &p->y, &p->y);
	p256_fe_sqr(&yy, &y2);				/* 4 Y^2 */
	p256_fe_mul(&beta, &p->x, &yy);			/* 4 X Y^2 */
	p256_fe_mul(&r->z, &y2, &p->z);

	p256_fe_sub(&t0, &p->x, &delta);
	p256_fe_add(&t1, &p->x, &delta);
	p256_fe_mul(&alpha, &t0, &t1);
	p256_fe_add(&t0, &alpha, &alpha);
	p256_fe_add(&alpha, &t0, &alpha);

	p256_fe_sqr(&t0, &alpha);
	p256_fe_add(&t1, &beta, &beta);
	p256_fe_sub(&r->x, &t0, &t1);

	p256_fe_sub(&t0, &beta, &r->x);
	p256_fe_mul(&t0, &alpha, &t0);
	p256_fe_sqr(&t1, &yy);				/* 16 Y^4 */
	p256_fe_half(&t1, &t1);
	p256_fe_sub(&r->y, &t0, &t1);
}

static void point_cmov(struct p256_point *r, const struct p256_point *a, u64 mask)
{
	p256_fe_cmov(&r->x, &a->x, mask);
	p256_fe_cmov(&r->y, &a->y, mask);
	p256_fe_cmov(&r->z, &a->z, mask);
}

/*
 * r = p + q, add-2007-bl with Z3 = Z1 Z2 H (11M + 5S).  Either input may
 * be infinity.  The formula fails only for p == q (both finite), which it
 * cannot tell from p == -q by itself: the returned mask is set in that
 * case and r is then wrong.  Callers either prove the case away (the
 * scalar multiplications) or use p256_point_add().
 */
u64 p256_point_add_nodbl(struct p256_point *r, const struct p256_point *p,
			 const struct p256_point *q)
{
	struct p256_fe z1z1, z2z2, u1, u2, s1, s2, h, rr, hh, hhh, v, t;
	struct p256_point out;
	u64 p_inf = p256_fe_is_zero(&p->z);
	u64 q_inf = p256_fe_is_zero(&q->z);
	u64 same;

	p256_fe_sqr(&z1z1, &p->z);
	p256_fe_sqr(&z2z2, &q->z);
	p256_fe_mul(&u1, &p->x, &z2z2);
	p256_fe_mul(&u2, &q->x, &z1z1);
	p256_fe_mul(&s1, &p->y, &q->z);
	p256_fe_mul(&s1, &s1, &z2z2);
	p256_fe_mul(&s2, &q->y, &p->z);
	p256_fe_mul(&s2, &s2, &z1z1);
	p256_fe_sub(&h, &u2, &u1);
	p256_fe_sub(&rr, &s2, &s1);
	same = p256_fe_is_zero(&h) & p256_fe_is_zero(&rr) & ~p_inf & ~q_inf;

	p256_fe_sqr(&hh, &h);
	p256_fe_mul(&hhh, &h, &hh);
	p256_fe_mul(&v, &u1, &hh);

	p256_fe_sqr(&out.x, &rr);
	p256_fe_sub(&out.x, &out.x, &hhh);
	p256_fe_sub(&out.x, &out.x, &v);
	p256_fe_sub(&out.x, &out.x, &v);

	p256_fe_sub(&t, &v, &out.x);
	p256_fe_mul(&out.y, &rr, &t);
	p256_fe_mul(&t, &s1, &hhh);
	p256_fe_sub(&out.y, &out.y, &t);

	p256_fe_mul(&out.z, &p->z, &q->z);
	p256_fe_mul(&out.z, &out.z, &h);

	point_cmov(&out, q, p_inf);
	point_cmov(&out, p, q_inf);
	*r = out;
	return same;
}

/* r = p + q for any two points, doubling included; constant time. */
void p256_point_add(struct p256_point *r, const struct p256_point *p,
		    const struct p256_point *q)
{
	struct p256_point dbl;
	u64 same;

	p256_point_double(&dbl, p);
	same = p256_point_add_nodbl(r, p, q);
	point_cmov(r, &dbl, same);
}

/*
 * r = p + q with q affine (madd-2007-bl shape, 7M + 4S).  p may be
 * infinity; q must not be, and q must differ from p: the fixed-base
 * multiplication, the only user, never adds a point to itself.
 */
void p256_point_add_affine(struct p256_point *r, const struct p256_point *p,
			   const struct p256_affine *q)
{
	struct p256_fe z1z1, u2, s2, h, rr, hh, hhh, v, t;
	struct p256_point out, qj;
	u64 p_inf = p256_fe_is_zero(&p->z);

	p256_fe_sqr(&z1z1, &p->z);
	p256_fe_mul(&u2, &q->x, &z1z1);
	p256_fe_mul(&s2, &q->y, &p->z);
	p256_fe_mul(&s2, &s2, &z1z1);
	p256_fe_sub(&h, &u2, &p->x);
	p256_fe_sub(&rr, &s2, &p->y);

	p256_fe_sqr(&hh, &h);
	p256_fe_mul(&hhh, &h, &hh);
	p256_fe_mul(&v, &p->x, &hh);

	p256_fe_sqr(&out.x, &rr);
	p256_fe_sub(&out.x, &out.x, &hhh);
	p256_fe_sub(&out.x, &out.x, &v);
	p256_fe_sub(&out.x, &out.x, &v);

	p256_fe_sub(&t, &v, &out.x);
	p256_fe_mul(&out.y, &rr, &t);
	p256_fe_mul(&t, &p->y, &hhh);
	p256_fe_sub(&out.y, &out.y, &t);

	p256_fe_mul(&out.z, &p->z, &h);

	p256_point_from_affine(&qj, q);
	point_cmov(&out, &qj, p_inf);
	*r = out;
}

void p256_point_from_affine(struct p256_point *r, const struct p256_affine *a)
{
	r->x = a->x;
	r->y = a->y;
	r->z = p256_fe_one;
}

/* Returns a mask set when p is not infinity; r is (0, 0) otherwise. */
u64 p256_point_to_affine(struct p256_affine *r, const struct p256_point *p)
{
	struct p256_fe zi, zi2;

	p256_fe_inv(&zi, &p->z);
	p256_fe_sqr(&zi2, &zi);
	p256_fe_mul(&r->x, &p->x, &zi2);
	p256_fe_mul(&zi2, &zi2, &zi);
	p256_fe_mul(&r->y, &p->y, &zi2);
	return ~p256_fe_is_zero(&p->z);
}

/* y^2 == x^3 - 3x + b */
static u64 affine_on_curve(const struct p256_affine *a)
{
	struct p256_fe lhs, rhs, t;

	p256_fe_sqr(&lhs, &a->y);
	p256_fe_sqr(&rhs, &a->x);
	p256_fe_mul(&rhs, &rhs, &a->x);
	p256_fe_add(&t, &a->x, &a->x);
	p256_fe_add(&t, &t, &a->x);
	p256_fe_sub(&rhs, &rhs, &t);
	p256_fe_add(&rhs, &rhs, &p256_b);
	return p256_fe_equal(&lhs, &rhs);
}

/*
 * SEC1 uncompressed point, validated as SP 800-56A 5.6.2.3.3 asks: the
 * 0x04 form (so never infinity, whose encoding is the lone byte 0x00),
 * both coordinates below p, and on the curve.  The cofactor is 1, so
 * that makes it a point of order n.  Returns a mask set when valid.
 */
u64 p256_affine_from_bytes(struct p256_affine *r, const u8 in[65])
{
	u64 ok = p256_mask_eq(in[0], 0x04);

	ok &= p256_fe_from_bytes(&r->x, in + 1);
	ok &= p256_fe_from_bytes(&r->y, in + 33);
	return ok & affine_on_curve(r);
}

void p256_affine_to_bytes(u8 out[65], const struct p256_affine *a)
{
	out[0] = 0x04;
	p256_fe_to_bytes(out + 1, &a->x);
	p256_fe_to_bytes(out + 33, &a->y);
}

/*
 * Signed windows: k = sum d[i] 2^(5i) with -16 <= d[i] <= 16.  Each
 * window's value plus the incoming carry is 0..32; above 16 it becomes
 * v - 32 and carries one.  The top window holds bit 255 and the last
 * carry, so d[51] is 0, 1 or 2.  Branch-free: k is secret.
 */
void p256_scalar_recode(s8 d[P256_WINDOWS], const struct p256_scalar *k)
{
	u32 carry = 0, v;
	int i, bit, limb, off;

	for (i = 0; i < P256_WINDOWS; i++) {
		bit = i * P256_WINDOW_BITS;
		limb = bit / 64;
		off = bit % 64;
		v = 0;
		if (limb < 4) {
			v = k->v[limb] >> off;
			if (off > 64 - P256_WINDOW_BITS && limb < 3)
				v |= k->v[limb + 1] << (64 - off);
		}
		v = (v & 31) + carry;
		carry = (16 - v) >> 31;
		d[i] = (s8)(v - (carry << 5));
	}
}

/* |d| and a mask set when d < 0. */
static inline u32 digit_abs(s8 d, u64 *neg)
{
	u32 m = 0 - ((u32)(s32)d >> 31);

	*neg = 0 - (u64)(m & 1);
	return ((u32)(s32)d ^ m) - m;
}

/* r = idx * P from t[i] = (i + 1) P, idx 0..16, reading every entry. */
static void table_select(struct p256_point *r, const struct p256_point t[P256_TABLE_SIZE],
			 u32 idx)
{
	int i, j;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < P256_TABLE_SIZE; i++) {
		u64 m = p256_mask_eq(idx, i + 1);

		for (j = 0; j < 4; j++) {
			r->x.v[j] |= t[i].x.v[j] & m;
			r->y.v[j] |= t[i].y.v[j] & m;
			r->z.v[j] |= t[i].z.v[j] & m;
		}
	}
}

static void point_select_digit(struct p256_point *r,
			       const struct p256_point t[P256_TABLE_SIZE], s8 d)
{
	struct p256_fe ny;
	u64 neg;
	u32 a = digit_abs(d, &neg);

	table_select(r, t, a);
	p256_fe_neg(&ny, &r->y);
	p256_fe_cmov(&r->y, &ny, neg);
}

/*
 * r = k * P for 0 <= k < n and P a validated point, in constant time.
 *
 * Why the additions never hit the doubling case: before adding d[i] P
 * the accumulator is A P with A = 32 K, where K = sum_{j>i} d[j] 2^(5(j-i-1))
 * is k's top part rounded, 0 <= K.  A P == d[i] P needs A - d[i] == 0 or
 * == +-n.  A - d[i] == 0 forces A == d[i] == 0 (|d[i]| <= 16 < 32): both
 * infinity, which the addition handles.  A - d[i] = +-n can only happen
 * in the last window, where A + d[i] = k; then k = n + 2 d[i] with
 * d[i] < 0 and d[i] == k mod 32 in signed form, i.e. d[i] == 17 + 2 d[i]
 * mod 32 since n == 17 mod 32: d[i] == 15, a contradiction.
 */
void p256_mul_point(struct p256_point *r, const struct p256_scalar *k,
		    const struct p256_affine *p)
{
	struct p256_point t[P256_TABLE_SIZE], acc, sel;
	s8 d[P256_WINDOWS];
	int i, j;

	/* (i + 1) P; the sums are of distinct small multiples */
	p256_point_from_affine(&t[0], p);
	for (i = 1; i < P256_TABLE_SIZE; i++) {
		if (i & 1)
			p256_point_double(&t[i], &t[i / 2]);
		else
			p256_point_add_affine(&t[i], &t[i - 1], p);
	}

	p256_scalar_recode(d, k);
	point_select_digit(&acc, t, d[P256_WINDOWS - 1]);
	for (i = P256_WINDOWS - 2; i >= 0; i--) {
		for (j = 0; j < P256_WINDOW_BITS; j++)
			p256_point_double(&acc, &acc);
		point_select_digit(&sel, t, d[i]);
		p256_point_add_nodbl(&acc, &acc, &sel);
	}
	*r = acc;
	memzero_explicit(d, sizeof(d));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(&sel, sizeof(sel));
}
