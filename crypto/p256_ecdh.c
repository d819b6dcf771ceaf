// SPDX-License-Identifier: GPL-2.0-only
/*
 * P-256 key pairs and ECDH (SP 800-56A "ECC CDH" primitive): the shared
 * secret is the x coordinate of priv * peer, after the peer's point has
 * been fully validated.  Private keys are secret throughout; only the
 * outcomes that are public anyway (a key out of range, the resulting
 * public key or secret) are declassified for the constant-time check.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/types.h>
#include <ktls_hs/p256.h>

#include "p256_internal.h"

int ktls_p256_public_key(u8 pub[KTLS_P256_POINT_LEN],
			 const u8 priv[KTLS_P256_SCALAR_LEN])
{
	struct p256_scalar k;
	struct p256_point p;
	struct p256_affine a;
	u64 ok;
	int ret = 0;

	ok = p256_scalar_from_bytes(&k, priv);
	p256_declassify(&ok, sizeof(ok));
	if (!ok) {
		ret = -EINVAL;
		goto out;
	}
	p256_mul_base(&p, &k);
	/* 1 <= k < n: never infinity */
	p256_point_to_affine(&a, &p);
	p256_affine_to_bytes(pub, &a);
	p256_declassify(pub, KTLS_P256_POINT_LEN);
out:
	memzero_explicit(&k, sizeof(k));
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(&a, sizeof(a));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_public_key);

/*
 * Rejection sampling (FIPS 186-5 A.2.2): a 32-byte draw is outside
 * [1, n - 1] with probability below 2^-32; redraw rather than reduce, so
 * the key is uniform.
 */
int ktls_p256_ecdh_keygen(u8 priv[KTLS_P256_SCALAR_LEN],
			  u8 pub[KTLS_P256_POINT_LEN])
{
	struct p256_scalar k;
	u64 ok;

	do {
		get_random_bytes(priv, KTLS_P256_SCALAR_LEN);
		ok = p256_scalar_from_bytes(&k, priv);
		p256_declassify(&ok, sizeof(ok));
	} while (!ok);
	memzero_explicit(&k, sizeof(k));
	return ktls_p256_public_key(pub, priv);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_ecdh_keygen);

int ktls_p256_ecdh(u8 secret[KTLS_P256_SCALAR_LEN],
		   const u8 priv[KTLS_P256_SCALAR_LEN],
		   const u8 peer[KTLS_P256_POINT_LEN])
{
	struct p256_scalar k;
	struct p256_affine q, a;
	struct p256_point p;
	u64 ok;
	int ret = -EINVAL;

	/* the peer's point is public: plain branches */
	if (!p256_affine_from_bytes(&q, peer))
		return -EINVAL;
	ok = p256_scalar_from_bytes(&k, priv);
	p256_declassify(&ok, sizeof(ok));
	if (!ok)
		goto out;
	p256_mul_point(&p, &k, &q);
	ok = p256_point_to_affine(&a, &p);
	p256_declassify(&ok, sizeof(ok));
	/* cannot be infinity for a point of order n and 1 <= k < n; still checked */
	if (!ok)
		goto out;
	p256_fe_to_bytes(secret, &a.x);
	p256_declassify(secret, KTLS_P256_SCALAR_LEN);
	ret = 0;
out:
	memzero_explicit(&k, sizeof(k));
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(&a, sizeof(a));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_ecdh);
