// SPDX-License-Identifier: GPL-2.0-only
/*
 * Certificates presented by a peer, read for RFC 5280 path validation:
 * the signed bytes and the signature, issuer and validity, and the
 * extensions that constrain a path (basicConstraints, keyUsage,
 * extendedKeyUsage, the key identifiers).  The parse is strict, since a
 * peer chooses every byte: DER only, every extension at most once, the
 * two signature algorithm fields identical.  What the certificate means
 * for a path (is it a CA, may it sign for a client) is verify.c's call;
 * this only records it.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "cert.h"

/* 1.2.840.10045.4.3.2 and .3 (RFC 5758), parameters absent */
static const u8 oid_ecdsa_sha256[8] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02 };
static const u8 oid_ecdsa_sha384[8] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03 };
/* 1.2.840.113549.1.1.1 */
static const u8 oid_rsa_encryption[9] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 };

/* The certificate extensions of RFC 5280 4.2.1 we process: 2.5.29.x */
#define CERT_EXT_SKI		14
#define CERT_EXT_KEY_USAGE	15
#define CERT_EXT_SAN		17
#define CERT_EXT_BASIC		19
#define CERT_EXT_AKI		35
#define CERT_EXT_EKU		37

/* 1.3.6.1.5.5.7.3.x, the id-kp purposes */
static const u8 oid_kp[7] = { 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03 };
#define CERT_KP_SERVER_AUTH	1
#define CERT_KP_CLIENT_AUTH	2

/* Larger path lengths mean "no limit" for any path we would build. */
#define CERT_MAX_PATH_LEN	255

/* Days from 1970-01-01 to @y-@m-@d of the proleptic Gregorian calendar. */
static s64 cert_days(unsigned int y, unsigned int m, unsigned int d)
{
	static const u16 before[12] = {
		0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334
	};
	/* Leap days in the years 1 .. y - 1. */
	unsigned int p = y - 1;
	s64 days = 365LL * p + p / 4 - p / 100 + p / 400;
	bool leap = (y % 4 == 0 && y % 100) || y % 400 == 0;

	days += before[m - 1] + (m > 2 && leap) + d - 1;
	/* The same count for 1970-01-01. */
	return days - 719162;
}

static bool cert_digits(const u8 *p, unsigned int n, unsigned int *v)
{
	unsigned int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		*v = *v * 10 + p[i] - '0';
	}
	return true;
}

/**
 * ktls_cert_time() - a UTCTime or GeneralizedTime as seconds since the epoch
 * @val:	the contents of the element
 * @tag:	KTLS_DER_UTC_TIME or KTLS_DER_GENERALIZED_TIME
 * @t:		the time
 *
 * Only the forms RFC 5280 4.1.2.5 allows: UTC ("Z"), seconds present, no
 * fraction.  A two-digit year below 50 is 20YY, else 19YY.
 *
 * Return: 0, or -EBADMSG.
 */
int ktls_cert_time(const struct ktls_der *val, u8 tag, time64_t *t)
{
	static const u8 mdays[12] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	unsigned int y, mo, d, h, mi, s, ylen;
	const u8 *p = val->data;

	if (tag == KTLS_DER_UTC_TIME)
		ylen = 2;
	else if (tag == KTLS_DER_GENERALIZED_TIME)
		ylen = 4;
	else
		return -EBADMSG;
	if (val->len != ylen + 11 || p[ylen + 10] != 'Z')
		return -EBADMSG;
	if (!cert_digits(p, ylen, &y) ||
	    !cert_digits(p + ylen, 2, &mo) ||
	    !cert_digits(p + ylen + 2, 2, &d) ||
	    !cert_digits(p + ylen + 4, 2, &h) ||
	    !cert_digits(p + ylen + 6, 2, &mi) ||
	    !cert_digits(p + ylen + 8, 2, &s))
		return -EBADMSG;
	if (ylen == 2)
		y += y < 50 ? 2000 : 1900;
	if (!y || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    h > 23 || mi > 59 || s > 59)
		return -EBADMSG;
	/* February 29th of a year that has none. */
	if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100) || y % 400 == 0))
		return -EBADMSG;
	*t = cert_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_cert_time);

/* A DER BOOLEAN: one octet, 0x00 or 0xff. */
static int cert_bool(const struct ktls_der *val, bool *b)
{
	if (val->len != 1 || (val->data[0] && val->data[0] != 0xff))
		return -EBADMSG;
	*b = val->data[0];
	return 0;
}

/* BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLen INTEGER OPTIONAL } */
static int cert_basic(struct ktls_cert *cert, struct ktls_der val)
{
	struct ktls_der seq, v;
	unsigned int i;
	bool ca = false;
	int err;

	if (ktls_der_get(&val, KTLS_DER_SEQUENCE, &seq) || val.len)
		return -EBADMSG;
	err = ktls_der_get_optional(&seq, KTLS_DER_BOOLEAN, &v);
	if (err < 0 || (err && cert_bool(&v, &ca)))
		return -EBADMSG;
	cert->is_ca = ca;
	err = ktls_der_get_optional(&seq, KTLS_DER_INTEGER, &v);
	if (err < 0 || seq.len)
		return -EBADMSG;
	if (err) {
		/* Non-negative, minimal, and meaningless without cA. */
		if (!v.len || v.data[0] & 0x80 || !ca ||
		    (v.len > 1 && !v.data[0] && !(v.data[1] & 0x80)))
			return -EBADMSG;
		cert->path_len = 0;
		for (i = 0; i < v.len; i++) {
			if (cert->path_len >= CERT_MAX_PATH_LEN)
				break;
			cert->path_len = min(cert->path_len * 256 + v.data[i],
					     CERT_MAX_PATH_LEN);
		}
	}
	cert->has_bc = true;
	return 0;
}

/* KeyUsage ::= BIT STRING; the first 16 bits are all that are named. */
static int cert_key_usage(struct ktls_cert *cert, struct ktls_der val)
{
	struct ktls_der bits;

	if (ktls_der_get(&val, KTLS_DER_BIT_STRING, &bits) || val.len ||
	    bits.len < 2 || bits.len > 3 || bits.data[0] > 7)
		return -EBADMSG;
	cert->ku = bits.data[1] << 8 | (bits.len > 2 ? bits.data[2] : 0);
	cert->has_ku = true;
	return 0;
}

/* ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId */
static int cert_eku(struct ktls_cert *cert, struct ktls_der val)
{
	static const u8 any[4] = { 0x55, 0x1d, 0x25, 0x00 };
	struct ktls_der seq, oid;

	if (ktls_der_get(&val, KTLS_DER_SEQUENCE, &seq) || val.len || !seq.len)
		return -EBADMSG;
	while (seq.len) {
		if (ktls_der_get(&seq, KTLS_DER_OID, &oid) || !oid.len)
			return -EBADMSG;
		if (ktls_der_equal(&oid, any, sizeof(any))) {
			cert->eku |= KTLS_CERT_EKU_ANY;
		} else if (oid.len == sizeof(oid_kp) + 1 &&
			   !memcmp(oid.data, oid_kp, sizeof(oid_kp))) {
			if (oid.data[sizeof(oid_kp)] == CERT_KP_CLIENT_AUTH)
				cert->eku |= KTLS_CERT_EKU_CLIENT_AUTH;
			else if (oid.data[sizeof(oid_kp)] == CERT_KP_SERVER_AUTH)
				cert->eku |= KTLS_CERT_EKU_SERVER_AUTH;
		}
	}
	cert->has_eku = true;
	return 0;
}

/* AuthorityKeyIdentifier: only the [0] keyIdentifier is used. */
static int cert_aki(struct ktls_cert *cert, struct ktls_der val)
{
	struct ktls_der seq;

	if (ktls_der_get(&val, KTLS_DER_SEQUENCE, &seq) || val.len ||
	    ktls_der_get_optional(&seq, KTLS_DER_CONTEXT(0), &cert->aki) < 0)
		return -EBADMSG;
	return 0;
}

static int cert_extension(struct ktls_cert *cert, const struct ktls_der *oid,
			  struct ktls_der val, bool critical, u64 *seen)
{
	static const u8 id_ce[2] = { 0x55, 0x1d };
	unsigned int which;

	if (oid->len != 3 || memcmp(oid->data, id_ce, sizeof(id_ce))) {
		cert->unknown_critical |= critical;
		return 0;
	}
	which = oid->data[2];
	/* RFC 5280 4.2: no extension appears more than once. */
	if (which < 64) {
		if (*seen & (1ULL << which))
			return -EBADMSG;
		*seen |= (1ULL << which);
	}
	switch (which) {
	case CERT_EXT_BASIC:
		return cert_basic(cert, val);
	case CERT_EXT_KEY_USAGE:
		return cert_key_usage(cert, val);
	case CERT_EXT_EKU:
		return cert_eku(cert, val);
	case CERT_EXT_AKI:
		return cert_aki(cert, val);
	case CERT_EXT_SKI:
		if (ktls_der_get(&val, KTLS_DER_OCTET_STRING, &cert->ski) ||
		    val.len)
			return -EBADMSG;
		return 0;
	case CERT_EXT_SAN:
		if (ktls_der_get(&val, KTLS_DER_SEQUENCE, &cert->x.san) ||
		    val.len)
			return -EBADMSG;
		return 0;
	default:
		/*
		 * Name constraints, policies and the rest: a CA that makes
		 * them critical wants a verifier that enforces them.
		 */
		cert->unknown_critical |= critical;
		return 0;
	}
}

static int cert_extensions(struct ktls_cert *cert, struct ktls_der exts)
{
	struct ktls_der list, ext, oid, crit, val;
	bool critical;
	u64 seen = 0;
	int err;

	if (ktls_der_get(&exts, KTLS_DER_SEQUENCE, &list) || exts.len ||
	    !list.len)
		return -EBADMSG;
	while (list.len) {
		critical = false;
		if (ktls_der_get(&list, KTLS_DER_SEQUENCE, &ext) ||
		    ktls_der_get(&ext, KTLS_DER_OID, &oid))
			return -EBADMSG;
		err = ktls_der_get_optional(&ext, KTLS_DER_BOOLEAN, &crit);
		if (err < 0 || (err && cert_bool(&crit, &critical)) ||
		    ktls_der_get(&ext, KTLS_DER_OCTET_STRING, &val) || ext.len)
			return -EBADMSG;
		err = cert_extension(cert, &oid, val, critical, &seen);
		if (err)
			return err;
	}
	return 0;
}

/* The hash of an ECDSA AlgorithmIdentifier we verify, or NONE. */
static enum ktls_hash cert_sig_hash(struct ktls_der alg)
{
	struct ktls_der oid;

	/* RFC 5758 3.2: the parameters field is absent. */
	if (ktls_der_get(&alg, KTLS_DER_OID, &oid) || alg.len)
		return KTLS_HASH_NONE;
	if (ktls_der_equal(&oid, oid_ecdsa_sha256, sizeof(oid_ecdsa_sha256)))
		return KTLS_HASH_SHA256;
	if (ktls_der_equal(&oid, oid_ecdsa_sha384, sizeof(oid_ecdsa_sha384)))
		return KTLS_HASH_SHA384;
	return KTLS_HASH_NONE;
}

static int cert_validity(struct ktls_cert *cert, struct ktls_der val)
{
	struct ktls_der t;
	u8 tag;

	if (ktls_der_next(&val, &tag, &t) ||
	    ktls_cert_time(&t, tag, &cert->not_before) ||
	    ktls_der_next(&val, &tag, &t) ||
	    ktls_cert_time(&t, tag, &cert->not_after) || val.len)
		return -EBADMSG;
	return 0;
}

static int cert_spki(struct ktls_cert *cert, struct ktls_der spki)
{
	struct ktls_der alg;

	if (ktls_der_get(&spki, KTLS_DER_SEQUENCE, &alg) ||
	    ktls_der_get(&spki, KTLS_DER_BIT_STRING, &cert->x.key) ||
	    spki.len || ktls_der_get(&alg, KTLS_DER_OID, &cert->x.key_alg))
		return -EBADMSG;
	cert->x.key_params = alg;
	return 0;
}

/* version, serialNumber, signature, issuer, validity, subject, key, ... */
static int cert_tbs(struct ktls_cert *cert, struct ktls_der tbs,
		    const struct ktls_der *sig_alg, const char **why)
{
	struct ktls_der v, alg, validity, spki;
	int err;

	*why = "malformed tbsCertificate";
	err = ktls_der_get_optional(&tbs, KTLS_DER_EXPLICIT(0), &v);
	if (err < 0)
		return err;
	if (err) {
		/* DER omits the default v1, and v3 is the last there is. */
		if (ktls_der_get(&v, KTLS_DER_INTEGER, &alg) || v.len ||
		    alg.len != 1 || alg.data[0] < 1 || alg.data[0] > 2)
			return -EBADMSG;
		cert->version = alg.data[0];
	}
	if (ktls_der_get(&tbs, KTLS_DER_INTEGER, &v) || !v.len ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &alg) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &cert->issuer) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &validity) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &cert->x.subject) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &spki))
		return -EBADMSG;
	/* RFC 5280 4.1.1.2: the signed copy must name the same algorithm. */
	if (alg.len != sig_alg->len || memcmp(alg.data, sig_alg->data, alg.len)) {
		*why = "signature algorithm differs from the signed one";
		return -EBADMSG;
	}
	if (cert_validity(cert, validity)) {
		*why = "malformed certificate validity";
		return -EBADMSG;
	}
	if (cert_spki(cert, spki)) {
		*why = "malformed subjectPublicKeyInfo";
		return -EBADMSG;
	}
	if (ktls_der_get_optional(&tbs, KTLS_DER_CONTEXT(1), &v) < 0 ||
	    ktls_der_get_optional(&tbs, KTLS_DER_CONTEXT(2), &v) < 0)
		return -EBADMSG;
	err = ktls_der_get_optional(&tbs, KTLS_DER_EXPLICIT(3), &v);
	if (err < 0)
		return err;
	if (err) {
		if (cert->version != 2 || cert_extensions(cert, v)) {
			*why = "malformed certificate extensions";
			return -EBADMSG;
		}
	}
	if (tbs.len) {
		*why = "trailing data in tbsCertificate";
		return -EBADMSG;
	}
	return 0;
}

/**
 * ktls_cert_parse() - read one DER certificate for path validation
 * @cert:	the fields found, pointing into @der
 * @der:	exactly one Certificate
 * @len:	its length
 * @why:	what was wrong, on error
 *
 * An unknown signature algorithm or key type is not an error here: it
 * shows as KTLS_HASH_NONE in @cert->sig_hash and in @cert->x.key_alg.
 *
 * Return: 0 (and *@why NULL), or -EBADMSG if it is not a well-formed
 * certificate.
 */
int ktls_cert_parse(struct ktls_cert *cert, const u8 *der, size_t len,
		    const char **why)
{
	struct ktls_der top = { .data = der, .len = len };
	struct ktls_der c, tbs, tbs_body, sig_alg, sig;
	int err;

	memset(cert, 0, sizeof(*cert));
	cert->path_len = KTLS_CERT_NO_PATH_LEN;
	if (ktls_der_get(&top, KTLS_DER_SEQUENCE, &c) || top.len) {
		*why = "malformed Certificate";
		return -EBADMSG;
	}
	cert->tbs.data = c.data;
	if (ktls_der_get(&c, KTLS_DER_SEQUENCE, &tbs_body) ||
	    ktls_der_get(&c, KTLS_DER_SEQUENCE, &sig_alg) ||
	    ktls_der_get(&c, KTLS_DER_BIT_STRING, &sig) || c.len ||
	    !sig.len || sig.data[0]) {
		*why = "malformed Certificate";
		return -EBADMSG;
	}
	tbs = tbs_body;
	cert->tbs.len = tbs_body.data + tbs_body.len - cert->tbs.data;
	cert->sig.data = sig.data + 1;
	cert->sig.len = sig.len - 1;
	cert->sig_hash = cert_sig_hash(sig_alg);

	err = cert_tbs(cert, tbs, &sig_alg, why);
	if (!err)
		*why = NULL;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_cert_parse);

/* Whether the certificate's key is RSA, to say so when refusing it. */
bool ktls_cert_is_rsa(const struct ktls_cert *cert)
{
	return ktls_der_equal(&cert->x.key_alg, oid_rsa_encryption,
			      sizeof(oid_rsa_encryption));
}
