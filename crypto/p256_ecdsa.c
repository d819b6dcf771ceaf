// SPDX-License-Identifier: GPL-2.0-only
/*
 * ECDSA over P-256 (FIPS 186-5) on a caller-supplied digest.
 *
 * Signing nonces are hedged: the RFC 6979 HMAC_DRBG seeded with the key
 * and the digest, with 32 fresh random bytes as the "additional data" its
 * section 3.6 allows.  A broken RNG then still gives the deterministic,
 * safe nonce, and a fault or a repeated message under a good RNG does not
 * repeat the nonce.  With no extra data (p256_ecdsa_sign_extra(), used by
 * the KUnit vectors) the nonce is exactly RFC 6979's.
 */
#include <crypto/sha2.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/types.h>
#include <ktls_hs/compat_crypto.h>
#include <ktls_hs/p256.h>

#include "p256_internal.h"

struct p256_hmac {
	struct ktls_sha256_ctx inner, outer;
};

/* The HMAC_DRBG state of RFC 6979 3.2: key K, value V. */
struct p256_drbg {
	u8 k[SHA256_DIGEST_SIZE];
	u8 v[SHA256_DIGEST_SIZE];
	bool used;
};

static void hmac_init(struct p256_hmac *h, const u8 key[SHA256_DIGEST_SIZE])
{
	u8 pad[SHA256_BLOCK_SIZE];
	int i;

	memset(pad, 0x36, sizeof(pad));
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		pad[i] ^= key[i];
	sha256_init(&h->inner);
	sha256_update(&h->inner, pad, sizeof(pad));
	memset(pad, 0x5c, sizeof(pad));
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		pad[i] ^= key[i];
	sha256_init(&h->outer);
	sha256_update(&h->outer, pad, sizeof(pad));
	memzero_explicit(pad, sizeof(pad));
}

static void hmac_final(struct p256_hmac *h, u8 out[SHA256_DIGEST_SIZE])
{
	sha256_final(&h->inner, out);
	sha256_update(&h->outer, out, SHA256_DIGEST_SIZE);
	sha256_final(&h->outer, out);
}

/*
 * K = HMAC_K(V || sep || x || h || extra), V = HMAC_K(V): steps d-g of
 * RFC 6979 3.2 when x is given, step h.3 (with sep 0) when it is not.
 */
static void drbg_update(struct p256_drbg *d, u8 sep, const u8 *x,
			const u8 *h1, const u8 *extra)
{
	struct p256_hmac h;

	hmac_init(&h, d->k);
	sha256_update(&h.inner, d->v, sizeof(d->v));
	sha256_update(&h.inner, &sep, 1);
	if (x) {
		sha256_update(&h.inner, x, 32);
		sha256_update(&h.inner, h1, 32);
		if (extra)
			sha256_update(&h.inner, extra, 32);
	}
	hmac_final(&h, d->k);

	hmac_init(&h, d->k);
	sha256_update(&h.inner, d->v, sizeof(d->v));
	hmac_final(&h, d->v);
	memzero_explicit(&h, sizeof(h));
}

static void drbg_init(struct p256_drbg *d, const u8 x[32], const u8 h1[32],
		      const u8 *extra)
{
	memset(d->v, 0x01, sizeof(d->v));
	memset(d->k, 0x00, sizeof(d->k));
	d->used = false;
	drbg_update(d, 0x00, x, h1, extra);
	drbg_update(d, 0x01, x, h1, extra);
}

/*
 * The next candidate k in [1, n - 1] (step h).  qlen equals hlen here, so
 * one HMAC block is one candidate.  Whether a candidate was in range is
 * declassified: a rejected value is thrown away and tells nothing about
 * the one that is used.
 */
static void drbg_next(struct p256_drbg *d, struct p256_scalar *k)
{
	struct p256_hmac h;
	u64 ok;

	if (d->used)
		drbg_update(d, 0x00, NULL, NULL, NULL);
	d->used = true;
	for (;;) {
		hmac_init(&h, d->k);
		sha256_update(&h.inner, d->v, sizeof(d->v));
		hmac_final(&h, d->v);
		ok = p256_scalar_from_bytes(k, d->v);
		p256_declassify(&ok, sizeof(ok));
		if (ok)
			break;
		drbg_update(d, 0x00, NULL, NULL, NULL);
	}
	memzero_explicit(&h, sizeof(h));
}

/* The first nonce of the DRBG, for the RFC 6979 known answers. */
void p256_rfc6979_nonce(u8 k[32], const u8 priv[32], const u8 *digest,
			size_t digest_len, const u8 *extra)
{
	struct p256_drbg d;
	struct p256_scalar e, kk;
	u8 h1[32];

	p256_scalar_from_digest(&e, digest, digest_len);
	p256_scalar_to_bytes(h1, &e);
	drbg_init(&d, priv, h1, extra);
	drbg_next(&d, &kk);
	p256_scalar_to_bytes(k, &kk);
	memzero_explicit(&d, sizeof(d));
	memzero_explicit(&kk, sizeof(kk));
}
EXPORT_SYMBOL_IF_KUNIT(p256_rfc6979_nonce);

/* s = k^-1 (e + r d) mod n; every input is in plain form. */
static void ecdsa_s(struct p256_scalar *s, const struct p256_scalar *k,
		    const struct p256_scalar *e, const struct p256_scalar *r,
		    const struct p256_scalar *d)
{
	struct p256_scalar km, kinv, rd, sum;

	p256_scalar_to_mont(&km, k);
	p256_scalar_mont_inv(&kinv, &km);		/* k^-1 R */
	p256_scalar_to_mont(&rd, d);
	p256_scalar_mont_mul(&rd, &rd, r);		/* r d */
	p256_scalar_add(&sum, e, &rd);
	p256_scalar_mont_mul(s, &kinv, &sum);		/* k^-1 (e + r d) */
	memzero_explicit(&km, sizeof(km));
	memzero_explicit(&kinv, sizeof(kinv));
	memzero_explicit(&rd, sizeof(rd));
	memzero_explicit(&sum, sizeof(sum));
}

/*
 * Sign with @extra (32 bytes, or NULL for plain RFC 6979) as the DRBG's
 * additional data.
 */
int p256_ecdsa_sign_extra(u8 sig[64], const u8 priv[32], const u8 *digest,
			  size_t digest_len, const u8 *extra)
{
	struct p256_scalar d, e, k, r, s;
	struct p256_drbg drbg;
	struct p256_point kg;
	struct p256_affine ka;
	u8 h1[32], rx[32];
	u64 ok;
	int ret = 0;

	ok = p256_scalar_from_bytes(&d, priv);
	p256_declassify(&ok, sizeof(ok));
	if (!ok) {
		ret = -EINVAL;
		goto out;
	}
	p256_scalar_from_digest(&e, digest, digest_len);
	p256_scalar_to_bytes(h1, &e);
	drbg_init(&drbg, priv, h1, extra);
	for (;;) {
		drbg_next(&drbg, &k);
		p256_mul_base(&kg, &k);
		/* k != 0 mod n, so k G is finite */
		p256_point_to_affine(&ka, &kg);
		p256_fe_to_bytes(rx, &ka.x);
		p256_scalar_from_digest(&r, rx, sizeof(rx));
		/* r and s are the signature: public from here on */
		p256_declassify(&r, sizeof(r));
		if (p256_scalar_is_zero(&r))
			continue;
		ecdsa_s(&s, &k, &e, &r, &d);
		p256_declassify(&s, sizeof(s));
		if (!p256_scalar_is_zero(&s))
			break;
	}
	p256_scalar_to_bytes(sig, &r);
	p256_scalar_to_bytes(sig + 32, &s);
out:
	memzero_explicit(&d, sizeof(d));
	memzero_explicit(&k, sizeof(k));
	memzero_explicit(&drbg, sizeof(drbg));
	memzero_explicit(&kg, sizeof(kg));
	memzero_explicit(&ka, sizeof(ka));
	memzero_explicit(rx, sizeof(rx));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(p256_ecdsa_sign_extra);

int ktls_p256_ecdsa_sign(u8 sig[KTLS_P256_SIG_LEN],
			 const u8 priv[KTLS_P256_SCALAR_LEN],
			 const u8 *digest, size_t digest_len)
{
	u8 extra[32];
	int ret;

	get_random_bytes(extra, sizeof(extra));
	ret = p256_ecdsa_sign_extra(sig, priv, digest, digest_len, extra);
	memzero_explicit(extra, sizeof(extra));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_ecdsa_sign);

/* p - n: r + n is another candidate x coordinate when r is below it */
static const u8 p256_p_minus_n[32] = {
	[16] = 0x43, 0x19, 0x05, 0x53, 0x58, 0xe8, 0x61, 0x7b,
	0x0c, 0x46, 0x35, 0x3d, 0x03, 0x9c, 0xda, 0xae,
};

/* n * R mod p, n as a field element */
static const struct p256_fe p256_n_fe = { {
	0x9ad169483335f568ULL, 0x89b1054463fe9931ULL,
	0x9c0166ce652e96b7ULL, 0x98648c200fe30febULL,
} };

/*
 * Public inputs only, so plain branches.  The final comparison is done
 * in Jacobian form, r Z^2 == X, which spares an inversion.
 */
int ktls_p256_ecdsa_verify(const u8 pub[KTLS_P256_POINT_LEN],
			   const u8 *digest, size_t digest_len,
			   const u8 sig[KTLS_P256_SIG_LEN])
{
	struct p256_scalar r, s, e, w, u1, u2;
	struct p256_point p1, p2;
	struct p256_affine q;
	struct p256_fe rf, z2, t;

	if (!p256_affine_from_bytes(&q, pub))
		return -EINVAL;
	if (!p256_scalar_from_bytes(&r, sig) ||
	    !p256_scalar_from_bytes(&s, sig + 32))
		return -EBADMSG;
	p256_scalar_from_digest(&e, digest, digest_len);

	p256_scalar_to_mont(&w, &s);
	p256_scalar_mont_inv(&w, &w);			/* s^-1 R */
	p256_scalar_mont_mul(&u1, &e, &w);		/* e s^-1 */
	p256_scalar_mont_mul(&u2, &r, &w);		/* r s^-1 */
	p256_mul_base(&p1, &u1);
	p256_mul_point(&p2, &u2, &q);
	p256_point_add(&p1, &p1, &p2);
	if (p256_fe_is_zero(&p1.z))
		return -EBADMSG;

	/* x(R) mod n == r: x(R) is r or, if that is still below p, r + n */
	p256_fe_from_bytes(&rf, sig);
	p256_fe_sqr(&z2, &p1.z);
	p256_fe_mul(&t, &rf, &z2);
	if (p256_fe_equal(&t, &p1.x))
		return 0;
	if (memcmp(sig, p256_p_minus_n, 32) >= 0)
		return -EBADMSG;
	p256_fe_add(&rf, &rf, &p256_n_fe);
	p256_fe_mul(&t, &rf, &z2);
	return p256_fe_equal(&t, &p1.x) ? 0 : -EBADMSG;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_ecdsa_verify);
