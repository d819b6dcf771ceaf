// SPDX-License-Identifier: GPL-2.0-only
/*
 * P-256 private keys of identity bundles, in the two DER forms OpenSSL
 * writes: SEC1's ECPrivateKey ("EC PRIVATE KEY", RFC 5915) and PKCS#8's
 * PrivateKeyInfo ("PRIVATE KEY", RFC 5958) wrapping one.  Anything that
 * is not a P-256 key is refused with -ENOPKG, naming RSA when it is RSA,
 * since that is the usual mistake.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "eckey.h"
#include "der.h"
#include "x509.h"

/* 1.2.840.113549.1.1.1 */
static const u8 oid_rsa_encryption[9] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01
};

/* ECParameters or AlgorithmIdentifier parameters: the namedCurve P-256. */
static int eckey_curve(struct ktls_der params, const char **why)
{
	struct ktls_der curve;

	if (ktls_der_get(&params, KTLS_DER_OID, &curve) || params.len ||
	    !ktls_der_equal(&curve, ktls_oid_prime256v1,
			    sizeof(ktls_oid_prime256v1))) {
		*why = "private key is not on the P-256 curve";
		return -ENOPKG;
	}
	return 0;
}

static int eckey_sec1(struct ktls_der der, u8 *priv, u8 *pub, bool *has_pub,
		      const char **why)
{
	static const u8 version1[] = { 1 };
	struct ktls_der seq, version, scalar, v, bits;
	int err;

	*has_pub = false;
	if (ktls_der_get(&der, KTLS_DER_SEQUENCE, &seq) || der.len ||
	    ktls_der_get(&seq, KTLS_DER_INTEGER, &version) ||
	    ktls_der_get(&seq, KTLS_DER_OCTET_STRING, &scalar))
		goto malformed;
	if (!ktls_der_equal(&version, version1, sizeof(version1))) {
		*why = "unknown EC private key version";
		return -EBADMSG;
	}

	err = ktls_der_get_optional(&seq, KTLS_DER_EXPLICIT(0), &v);
	if (err < 0)
		goto malformed;
	if (err) {
		err = eckey_curve(v, why);
		if (err)
			return err;
	}
	/* RFC 5915 fixes the length to that of the group order. */
	if (scalar.len != KTLS_IDENTITY_P256_PRIV_SIZE) {
		*why = "private key is not a P-256 scalar";
		return -ENOPKG;
	}

	err = ktls_der_get_optional(&seq, KTLS_DER_EXPLICIT(1), &v);
	if (err < 0)
		goto malformed;
	if (err) {
		if (ktls_der_get(&v, KTLS_DER_BIT_STRING, &bits) || v.len ||
		    bits.len < 2 || bits.data[0])
			goto malformed;
		/* A compressed copy is left unused: ours is computed anyway. */
		if (bits.len == 1 + KTLS_IDENTITY_P256_PUB_SIZE &&
		    bits.data[1] == 0x04) {
			memcpy(pub, bits.data + 1, KTLS_IDENTITY_P256_PUB_SIZE);
			*has_pub = true;
		}
	}
	if (seq.len)
		goto malformed;

	memcpy(priv, scalar.data, KTLS_IDENTITY_P256_PRIV_SIZE);
	return 0;

malformed:
	*why = "malformed EC private key";
	return -EBADMSG;
}

static int eckey_pkcs8(struct ktls_der der, u8 *priv, u8 *pub, bool *has_pub,
		       const char **why)
{
	struct ktls_der seq, version, alg, oid, inner, v;
	int err;

	if (ktls_der_get(&der, KTLS_DER_SEQUENCE, &seq) || der.len ||
	    ktls_der_get(&seq, KTLS_DER_INTEGER, &version) ||
	    ktls_der_get(&seq, KTLS_DER_SEQUENCE, &alg) ||
	    ktls_der_get(&alg, KTLS_DER_OID, &oid) ||
	    ktls_der_get(&seq, KTLS_DER_OCTET_STRING, &inner) ||
	    ktls_der_get_optional(&seq, KTLS_DER_EXPLICIT(0), &v) < 0 ||
	    ktls_der_get_optional(&seq, KTLS_DER_CONTEXT(1), &v) < 0 ||
	    seq.len)
		goto malformed;
	/* v1 (0), or v2 (1) of RFC 5958, which may add the public key. */
	if (version.len != 1 || version.data[0] > 1) {
		*why = "unknown PKCS#8 version";
		return -EBADMSG;
	}
	if (!ktls_der_equal(&oid, ktls_oid_ec_public_key,
			    sizeof(ktls_oid_ec_public_key))) {
		*why = ktls_der_equal(&oid, oid_rsa_encryption,
				      sizeof(oid_rsa_encryption)) ?
		       "private key is RSA, not P-256" :
		       "private key is not an EC key";
		return -ENOPKG;
	}
	err = eckey_curve(alg, why);
	if (err)
		return err;
	return eckey_sec1(inner, priv, pub, has_pub, why);

malformed:
	*why = "malformed PKCS#8 private key";
	return -EBADMSG;
}

/**
 * ktls_eckey_parse() - the scalar of a DER P-256 private key
 * @der:	a SEC1 ECPrivateKey or a PKCS#8 PrivateKeyInfo
 * @len:	its length
 * @priv:	the private scalar, big-endian
 * @pub:	the public key the encoding carries, if it does
 * @has_pub:	whether it does
 * @why:	what was wrong, on error
 *
 * The two forms are told apart by what follows the version: the
 * privateKey OCTET STRING of SEC1 or the AlgorithmIdentifier of PKCS#8.
 * The range of the scalar is checked where the public key is computed.
 *
 * Return: 0, -ENOPKG for another algorithm or curve, or -EBADMSG.
 */
int ktls_eckey_parse(const u8 *der, size_t len,
		     u8 priv[KTLS_IDENTITY_P256_PRIV_SIZE],
		     u8 pub[KTLS_IDENTITY_P256_PUB_SIZE], bool *has_pub,
		     const char **why)
{
	struct ktls_der key = { .data = der, .len = len }, seq, v;
	u8 tag;

	if (ktls_der_get(&key, KTLS_DER_SEQUENCE, &seq) || key.len ||
	    ktls_der_get(&seq, KTLS_DER_INTEGER, &v) ||
	    ktls_der_next(&seq, &tag, &v)) {
		*why = "malformed private key";
		return -EBADMSG;
	}
	key.data = der;
	key.len = len;
	switch (tag) {
	case KTLS_DER_OCTET_STRING:
		return eckey_sec1(key, priv, pub, has_pub, why);
	case KTLS_DER_SEQUENCE:
		return eckey_pkcs8(key, priv, pub, has_pub, why);
	case KTLS_DER_INTEGER:
		/* PKCS#1 RSAPrivateKey: version, then the modulus */
		*why = "private key is RSA, not P-256";
		return -ENOPKG;
	default:
		*why = "malformed private key";
		return -EBADMSG;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktls_eckey_parse);
