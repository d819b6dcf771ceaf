// SPDX-License-Identifier: GPL-2.0-only
/*
 * Arithmetic modulo the P-256 group order n, which ECDSA needs for
 * s = k^-1 (e + r d) and for the verifier's u1 and u2.  Products are
 * Montgomery products (a * b / 2^256 mod n) on four 64-bit limbs; callers
 * move in and out of that form explicitly.  Nothing here branches on or
 * indexes by a scalar's value.
 */
#include <linux/types.h>

#include "p256_internal.h"

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

/* r = (top * 2^256 + x) mod n for a value below 2n. */
static __always_inline void scalar_reduce_once(struct p256_scalar *r, u64 x0, u64 x1,
					       u64 x2, u64 x3, u64 top)
{
	u64 d0, d1, d2, d3, borrow = 0, keep;

	d0 = sbb(&borrow, x0, P256_N_0);
	d1 = sbb(&borrow, x1, P256_N_1);
	d2 = sbb(&borrow, x2, P256_N_2);
	d3 = sbb(&borrow, x3, P256_N_3);
	keep = 0 - (borrow & (top ^ 1));
	r->v[0] = (x0 & keep) | (d0 & ~keep);
	r->v[1] = (x1 & keep) | (d1 & ~keep);
	r->v[2] = (x2 & keep) | (d2 & ~keep);
	r->v[3] = (x3 & keep) | (d3 & ~keep);
}

/*
 * One Montgomery round on the window t0..t4: add m * n with m chosen so
 * that t0 becomes zero; *top collects the carry out of t4.
 */
static __always_inline void scalar_mont_round(u64 t0, u64 *t1, u64 *t2, u64 *t3,
					      u64 *t4, u64 *top)
{
	u64 m = t0 * P256_N0, c = 0;

	mac(&c, t0, m, P256_N_0);
	*t1 = mac(&c, *t1, m, P256_N_1);
	*t2 = mac(&c, *t2, m, P256_N_2);
	*t3 = mac(&c, *t3, m, P256_N_3);
	*t4 = adc(top, *t4, c);
}

/* r = t / 2^256 mod n for t < n * 2^256, t given as eight limbs. */
static __always_inline void scalar_mont_reduce(struct p256_scalar *r, u64 t0, u64 t1,
					       u64 t2, u64 t3, u64 t4, u64 t5,
					       u64 t6, u64 t7)
{
	u64 top = 0, c;

	scalar_mont_round(t0, &t1, &t2, &t3, &t4, &top);
	c = top;
	top = 0;
	t5 = adc(&top, t5, c);
	scalar_mont_round(t1, &t2, &t3, &t4, &t5, &top);
	c = top;
	top = 0;
	t6 = adc(&top, t6, c);
	scalar_mont_round(t2, &t3, &t4, &t5, &t6, &top);
	c = top;
	top = 0;
	t7 = adc(&top, t7, c);
	scalar_mont_round(t3, &t4, &t5, &t6, &t7, &top);
	scalar_reduce_once(r, t4, t5, t6, t7, top);
}

void p256_scalar_mont_mul(struct p256_scalar *r, const struct p256_scalar *a,
			  const struct p256_scalar *b)
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
	scalar_mont_reduce(r, t0, t1, t2, t3, t4, t5, t6, t7);
}

static void scalar_mont_sqr(struct p256_scalar *r, const struct p256_scalar *a)
{
	const u64 x0 = a->v[0], x1 = a->v[1], x2 = a->v[2], x3 = a->v[3];
	u64 t0, t1, t2, t3, t4, t5, t6, t7, c;
	u128 sq;

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
	t7 = t6 >> 63;
	t6 = t6 << 1 | t5 >> 63;
	t5 = t5 << 1 | t4 >> 63;
	t4 = t4 << 1 | t3 >> 63;
	t3 = t3 << 1 | t2 >> 63;
	t2 = t2 << 1 | t1 >> 63;
	t1 <<= 1;
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
	scalar_mont_reduce(r, t0, t1, t2, t3, t4, t5, t6, t7);
}

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
		s[i] = adc(&c, a->v[i], b->v[i]);
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
	sbb(&borrow, r->v[0], P256_N_0);
	sbb(&borrow, r->v[1], P256_N_1);
	sbb(&borrow, r->v[2], P256_N_2);
	sbb(&borrow, r->v[3], P256_N_3);
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

/*
 * r = a^(n - 2) = 1/a, both in Montgomery form, by fixed 4-bit windows
 * over the public exponent: the table index comes from the exponent,
 * never from a.
 */
void p256_scalar_mont_inv(struct p256_scalar *r, const struct p256_scalar *a)
{
	static const u64 e[4] = {
		0xf3b9cac2fc63254fULL, 0xbce6faada7179e84ULL,
		0xffffffffffffffffULL, 0xffffffff00000000ULL,
	};
	struct p256_scalar pow[16], acc;
	int i, nib;

	p256_scalar_to_mont(&pow[0], &(struct p256_scalar){ { 1, 0, 0, 0 } });
	pow[1] = *a;
	for (i = 2; i < 16; i++)
		p256_scalar_mont_mul(&pow[i], &pow[i - 1], a);

	acc = pow[0];
	for (i = 63; i >= 0; i--) {
		nib = (e[i / 16] >> (4 * (i % 16))) & 15;
		scalar_mont_sqr(&acc, &acc);
		scalar_mont_sqr(&acc, &acc);
		scalar_mont_sqr(&acc, &acc);
		scalar_mont_sqr(&acc, &acc);
		if (nib)
			p256_scalar_mont_mul(&acc, &acc, &pow[nib]);
	}
	*r = acc;
}
