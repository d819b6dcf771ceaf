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

static const u64 p256_n[4] = {
	0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL,
	0xffffffffffffffffULL, 0xffffffff00000000ULL,
};

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
static void scalar_reduce_once(struct p256_scalar *r, const u64 x[4], u64 top)
{
	u64 d[4], borrow = 0, keep;
	int i;

	for (i = 0; i < 4; i++)
		d[i] = sbb(&borrow, x[i], p256_n[i]);
	keep = 0 - (borrow & (top ^ 1));
	for (i = 0; i < 4; i++)
		r->v[i] = (x[i] & keep) | (d[i] & ~keep);
}

void p256_scalar_mont_mul(struct p256_scalar *r, const struct p256_scalar *a,
			  const struct p256_scalar *b)
{
	u64 t[8] = { 0 }, m, c, top = 0;
	int i, j;

	for (i = 0; i < 4; i++) {
		c = 0;
		for (j = 0; j < 4; j++)
			t[i + j] = mac(&c, t[i + j], a->v[i], b->v[j]);
		t[i + 4] = c;
	}
	for (i = 0; i < 4; i++) {
		m = t[i] * P256_N0;
		c = 0;
		for (j = 0; j < 4; j++)
			t[i + j] = mac(&c, t[i + j], m, p256_n[j]);
		t[i + 4] = adc(&top, t[i + 4], c);
	}
	scalar_reduce_once(r, &t[4], top);
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
	scalar_reduce_once(r, s, c);
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
	int i;

	scalar_load(r, in);
	for (i = 0; i < 4; i++)
		sbb(&borrow, r->v[i], p256_n[i]);
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
	int i;

	for (i = 0; i < take; i++)
		buf[32 - take + i] = digest[i];
	scalar_load(r, buf);
	scalar_reduce_once(r, r->v, 0);
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
		p256_scalar_mont_mul(&acc, &acc, &acc);
		p256_scalar_mont_mul(&acc, &acc, &acc);
		p256_scalar_mont_mul(&acc, &acc, &acc);
		p256_scalar_mont_mul(&acc, &acc, &acc);
		if (nib)
			p256_scalar_mont_mul(&acc, &acc, &pow[nib]);
	}
	*r = acc;
}
