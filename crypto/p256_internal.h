/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces of the P-256 code in crypto/: field elements mod p
 * and scalars mod n as four little-endian 64-bit limbs, points in
 * Jacobian coordinates, and the pieces ECDSA and ECDH are built from.
 *
 * Conventions: a "mask" is a u64 that is either 0 or all ones, computed
 * without branches, so that secrets decide values and never control flow
 * or addresses.  Functions that take secrets say so; everything that
 * returns a mask is meant to be combined with other masks and
 * declassified only where the outcome is public anyway.
 */
#ifndef _KTLS_HS_P256_INTERNAL_H
#define _KTLS_HS_P256_INTERNAL_H

#include <linux/types.h>

/*
 * The constant-time check under tools/crypto runs this code under
 * valgrind with the secrets marked undefined; it defines this to mark a
 * value as public again where the algorithm reveals it (a signature, a
 * shared secret, whether a candidate nonce was in range).  In the kernel
 * it does nothing.
 */
#ifndef p256_declassify
#define p256_declassify(ptr, len) do { (void)(ptr); (void)(len); } while (0)
#endif

/* A field element times R = 2^256, mod p, fully reduced. */
struct p256_fe {
	u64 v[4];
};

/* An integer mod n; plain or in Montgomery form, as each user says. */
struct p256_scalar {
	u64 v[4];
};

/* Jacobian (X : Y : Z) standing for (X / Z^2, Y / Z^3); Z == 0 is infinity. */
struct p256_point {
	struct p256_fe x, y, z;
};

/* Affine coordinates of a point other than infinity. */
struct p256_affine {
	struct p256_fe x, y;
};

/* Signed base-32 digits of a scalar, least significant first. */
#define P256_WINDOW_BITS	5
#define P256_WINDOWS		52	/* ceil(257 / 5): room for the final carry */
/* Multiples 1..16 of a point are tabulated for each window. */
#define P256_TABLE_SIZE		16

static inline u64 p256_mask_nonzero(u64 x)
{
	return 0 - ((x | (0 - x)) >> 63);
}

static inline u64 p256_mask_eq(u64 a, u64 b)
{
	return ~p256_mask_nonzero(a ^ b);
}

/* p256_field.c: arithmetic mod p */
extern const struct p256_fe p256_fe_one;
u64 p256_fe_from_bytes(struct p256_fe *r, const u8 in[32]);
void p256_fe_to_bytes(u8 out[32], const struct p256_fe *a);
void p256_fe_add(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b);
void p256_fe_sub(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b);
void p256_fe_neg(struct p256_fe *r, const struct p256_fe *a);
void p256_fe_half(struct p256_fe *r, const struct p256_fe *a);
void p256_fe_mul(struct p256_fe *r, const struct p256_fe *a, const struct p256_fe *b);
void p256_fe_sqr(struct p256_fe *r, const struct p256_fe *a);
void p256_fe_inv(struct p256_fe *r, const struct p256_fe *a);
u64 p256_fe_is_zero(const struct p256_fe *a);
u64 p256_fe_equal(const struct p256_fe *a, const struct p256_fe *b);
void p256_fe_cmov(struct p256_fe *r, const struct p256_fe *a, u64 mask);

/* p256_scalar.c: arithmetic mod n */
u64 p256_scalar_from_bytes(struct p256_scalar *r, const u8 in[32]);
void p256_scalar_from_digest(struct p256_scalar *r, const u8 *digest, size_t len);
void p256_scalar_to_bytes(u8 out[32], const struct p256_scalar *a);
void p256_scalar_add(struct p256_scalar *r, const struct p256_scalar *a,
		     const struct p256_scalar *b);
void p256_scalar_mont_mul(struct p256_scalar *r, const struct p256_scalar *a,
			  const struct p256_scalar *b);
void p256_scalar_to_mont(struct p256_scalar *r, const struct p256_scalar *a);
void p256_scalar_from_mont(struct p256_scalar *r, const struct p256_scalar *a);
void p256_scalar_mont_inv(struct p256_scalar *r, const struct p256_scalar *a);
u64 p256_scalar_is_zero(const struct p256_scalar *a);

/* p256_point.c: formulas, encoding, validation, variable-base multiplication */
void p256_point_double(struct p256_point *r, const struct p256_point *p);
void p256_point_add(struct p256_point *r, const struct p256_point *p,
		    const struct p256_point *q);
u64 p256_point_add_nodbl(struct p256_point *r, const struct p256_point *p,
			 const struct p256_point *q);
void p256_point_add_affine(struct p256_point *r, const struct p256_point *p,
			   const struct p256_affine *q);
void p256_point_from_affine(struct p256_point *r, const struct p256_affine *a);
u64 p256_point_to_affine(struct p256_affine *r, const struct p256_point *p);
u64 p256_affine_from_bytes(struct p256_affine *r, const u8 in[65]);
void p256_affine_to_bytes(u8 out[65], const struct p256_affine *a);
void p256_scalar_recode(s8 d[P256_WINDOWS], const struct p256_scalar *k);
void p256_mul_point(struct p256_point *r, const struct p256_scalar *k,
		    const struct p256_affine *p);

/* p256_base.c: fixed-base multiplication by G */
void p256_mul_base(struct p256_point *r, const struct p256_scalar *k);

/* p256_ecdsa.c: the pieces the KUnit suite checks on their own */
void p256_rfc6979_nonce(u8 k[32], const u8 priv[32], const u8 *digest,
			size_t digest_len, const u8 *extra);
int p256_ecdsa_sign_extra(u8 sig[64], const u8 priv[32], const u8 *digest,
			  size_t digest_len, const u8 *extra);

#endif /* _KTLS_HS_P256_INTERNAL_H */
