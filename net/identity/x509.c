// SPDX-License-Identifier: GPL-2.0-only
/*
 * The X.509 certificate fields a TLS server needs from its own chain
 * (RFC 5280): the leaf's subject for people to read, its public key, and
 * its subjectAltName entries to match SNI against.  The walk checks the
 * structure of the whole Certificate so that a chain we accept has no
 * trailing or missing parts; signatures and validity dates are the
 * client's business, not ours.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "x509.h"
#include "der.h"

/* 1.2.840.10045.2.1 and 1.2.840.10045.3.1.7 (RFC 5480) */
const u8 ktls_oid_ec_public_key[7] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
const u8 ktls_oid_prime256v1[8] = { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
/* 1.2.840.113549.1.1.1, only to name it in the message */
static const u8 oid_rsa_encryption[9] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01
};

/* 2.5.29.17 */
static const u8 oid_subject_alt_name[3] = { 0x55, 0x1d, 0x11 };

/* Longest dNSName: 253 characters of text for 255 octets on the wire. */
#define X509_MAX_DNS_NAME	253

static int x509_extensions(struct ktls_x509 *cert, struct ktls_der exts,
			   const char **why)
{
	struct ktls_der list, ext, oid, val;

	if (ktls_der_get(&exts, KTLS_DER_SEQUENCE, &list) || exts.len ||
	    !list.len) {
		*why = "malformed certificate extensions";
		return -EBADMSG;
	}
	while (list.len) {
		if (ktls_der_get(&list, KTLS_DER_SEQUENCE, &ext) ||
		    ktls_der_get(&ext, KTLS_DER_OID, &oid) ||
		    ktls_der_get_optional(&ext, KTLS_DER_BOOLEAN, &val) < 0 ||
		    ktls_der_get(&ext, KTLS_DER_OCTET_STRING, &val) ||
		    ext.len) {
			*why = "malformed certificate extension";
			return -EBADMSG;
		}
		if (!ktls_der_equal(&oid, oid_subject_alt_name,
				    sizeof(oid_subject_alt_name)))
			continue;
		if (cert->san.data) {
			*why = "certificate has two subjectAltName extensions";
			return -EBADMSG;
		}
		if (ktls_der_get(&val, KTLS_DER_SEQUENCE, &cert->san) ||
		    val.len) {
			*why = "malformed subjectAltName";
			return -EBADMSG;
		}
	}
	return 0;
}

/**
 * ktls_x509_parse() - walk one DER certificate
 * @cert:	the fields found, pointing into @der
 * @der:	the certificate, exactly one Certificate SEQUENCE
 * @len:	its length
 * @why:	what was wrong, on error
 *
 * Return: 0, or -EBADMSG if it is not a well-formed certificate.
 */
int ktls_x509_parse(struct ktls_x509 *cert, const u8 *der, size_t len,
		    const char **why)
{
	struct ktls_der top = { .data = der, .len = len };
	struct ktls_der c, tbs, spki, alg, v;
	int err;

	memset(cert, 0, sizeof(*cert));
	if (ktls_der_get(&top, KTLS_DER_SEQUENCE, &c) || top.len ||
	    ktls_der_get(&c, KTLS_DER_SEQUENCE, &tbs) ||
	    ktls_der_get(&c, KTLS_DER_SEQUENCE, &v) ||
	    ktls_der_get(&c, KTLS_DER_BIT_STRING, &v) || c.len) {
		*why = "malformed Certificate";
		return -EBADMSG;
	}

	/* version, serialNumber, signature, issuer, validity, subject */
	if (ktls_der_get_optional(&tbs, KTLS_DER_EXPLICIT(0), &v) < 0 ||
	    ktls_der_get(&tbs, KTLS_DER_INTEGER, &v) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &v) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &v) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &v) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &cert->subject) ||
	    ktls_der_get(&tbs, KTLS_DER_SEQUENCE, &spki)) {
		*why = "malformed tbsCertificate";
		return -EBADMSG;
	}

	if (ktls_der_get(&spki, KTLS_DER_SEQUENCE, &alg) ||
	    ktls_der_get(&spki, KTLS_DER_BIT_STRING, &cert->key) || spki.len ||
	    ktls_der_get(&alg, KTLS_DER_OID, &cert->key_alg)) {
		*why = "malformed subjectPublicKeyInfo";
		return -EBADMSG;
	}
	cert->key_params = alg;

	/* issuerUniqueID and subjectUniqueID mean nothing to TLS. */
	if (ktls_der_get_optional(&tbs, KTLS_DER_CONTEXT(1), &v) < 0 ||
	    ktls_der_get_optional(&tbs, KTLS_DER_CONTEXT(2), &v) < 0) {
		*why = "malformed tbsCertificate";
		return -EBADMSG;
	}
	err = ktls_der_get_optional(&tbs, KTLS_DER_EXPLICIT(3), &v);
	if (err > 0)
		err = x509_extensions(cert, v, why);
	else if (err < 0)
		*why = "malformed certificate extensions";
	if (err)
		return err;
	if (tbs.len) {
		*why = "trailing data in tbsCertificate";
		return -EBADMSG;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_x509_parse);

/**
 * ktls_x509_p256_key() - the certificate's public key, if it is P-256
 * @cert:	a parsed certificate
 * @pub:	the key as an uncompressed SEC1 point
 * @why:	what was wrong, on error
 *
 * Return: 0, -ENOPKG for any other algorithm, curve or point form, or
 * -EBADMSG for a malformed key.
 */
int ktls_x509_p256_key(const struct ktls_x509 *cert,
		       u8 pub[KTLS_IDENTITY_P256_PUB_SIZE], const char **why)
{
	struct ktls_der params = cert->key_params, curve;
	const struct ktls_der *key = &cert->key;

	if (!ktls_der_equal(&cert->key_alg, ktls_oid_ec_public_key,
			    sizeof(ktls_oid_ec_public_key))) {
		*why = ktls_der_equal(&cert->key_alg, oid_rsa_encryption,
				      sizeof(oid_rsa_encryption)) ?
		       "leaf certificate has an RSA key, not P-256" :
		       "leaf certificate key is not an EC key";
		return -ENOPKG;
	}
	if (ktls_der_get(&params, KTLS_DER_OID, &curve) || params.len ||
	    !ktls_der_equal(&curve, ktls_oid_prime256v1,
			    sizeof(ktls_oid_prime256v1))) {
		*why = "leaf certificate key is not on the P-256 curve";
		return -ENOPKG;
	}
	/* A BIT STRING starts with its count of unused bits: none here. */
	if (key->len == 1 + 33 && !key->data[0] &&
	    (key->data[1] == 0x02 || key->data[1] == 0x03)) {
		*why = "leaf certificate key is a compressed point";
		return -ENOPKG;
	}
	if (key->len != 1 + KTLS_IDENTITY_P256_PUB_SIZE || key->data[0] ||
	    key->data[1] != 0x04) {
		*why = "malformed P-256 key in leaf certificate";
		return -EBADMSG;
	}
	memcpy(pub, key->data + 1, KTLS_IDENTITY_P256_PUB_SIZE);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_x509_p256_key);

/**
 * ktls_x509_next_name() - the next dNSName or iPAddress of a subjectAltName
 * @san:	the GeneralNames left; advanced past the name returned
 * @name:	the name, pointing into the certificate
 * @why:	what was wrong, on error
 *
 * Other kinds of GeneralName are skipped: TLS servers are named by host.
 *
 * Return: 1 with a name, 0 at the end, or -EBADMSG.
 */
int ktls_x509_next_name(struct ktls_der *san, struct ktls_identity_name *name,
			const char **why)
{
	struct ktls_der val;
	size_t i;
	u8 tag;

	while (san->len) {
		if (ktls_der_next(san, &tag, &val)) {
			*why = "malformed subjectAltName";
			return -EBADMSG;
		}
		switch (tag) {
		case KTLS_DER_CONTEXT(2):
			if (!val.len || val.len > X509_MAX_DNS_NAME) {
				*why = "subjectAltName dNSName of bad length";
				return -EBADMSG;
			}
			/* IA5String; a host name has no spaces or controls. */
			for (i = 0; i < val.len; i++) {
				if (val.data[i] <= 0x20 || val.data[i] >= 0x7f) {
					*why = "subjectAltName dNSName is not printable";
					return -EBADMSG;
				}
			}
			name->type = KTLS_IDENTITY_NAME_DNS;
			break;
		case KTLS_DER_CONTEXT(7):
			if (val.len != 4 && val.len != 16) {
				*why = "subjectAltName iPAddress of bad length";
				return -EBADMSG;
			}
			name->type = KTLS_IDENTITY_NAME_IP;
			break;
		default:
			continue;
		}
		name->name = val.data;
		name->len = val.len;
		return 1;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_x509_next_name);

/* A bounded string builder that keeps counting past its end, as snprintf. */
struct x509_text {
	char *buf;
	size_t size;
	size_t len;
};

static void x509_putc(struct x509_text *t, char c)
{
	if (t->len + 1 < t->size)
		t->buf[t->len] = c;
	t->len++;
}

static void x509_puts(struct x509_text *t, const char *s)
{
	while (*s)
		x509_putc(t, *s++);
}

static void x509_put_num(struct x509_text *t, u64 n)
{
	char digits[20];
	int i = 0;

	do {
		digits[i++] = '0' + n % 10;
		n /= 10;
	} while (n);
	while (i)
		x509_putc(t, digits[--i]);
}

/* Dotted decimal, for attribute types we have no short name for. */
static int x509_put_oid(struct x509_text *t, const struct ktls_der *oid)
{
	u64 arc = 0;
	bool first = true;
	size_t i;

	if (!oid->len || oid->data[oid->len - 1] & 0x80)
		return -EBADMSG;
	for (i = 0; i < oid->len; i++) {
		/* A leading 0x80 would pad an arc, which DER forbids. */
		if (!arc && oid->data[i] == 0x80)
			return -EBADMSG;
		if (arc >> 56)
			return -EBADMSG;
		arc = arc << 7 | (oid->data[i] & 0x7f);
		if (oid->data[i] & 0x80)
			continue;
		if (first) {
			/* The first subidentifier packs two arcs. */
			x509_put_num(t, arc < 80 ? arc / 40 : 2);
			x509_putc(t, '.');
			arc -= arc < 80 ? arc / 40 * 40 : 80;
			first = false;
		} else {
			x509_putc(t, '.');
		}
		x509_put_num(t, arc);
		arc = 0;
	}
	return 0;
}

static const struct {
	u8 oid[9];
	u8 len;
	const char *name;
} x509_attr_names[] = {
	{ { 0x55, 0x04, 0x03 }, 3, "CN" },
	{ { 0x55, 0x04, 0x05 }, 3, "serialNumber" },
	{ { 0x55, 0x04, 0x06 }, 3, "C" },
	{ { 0x55, 0x04, 0x07 }, 3, "L" },
	{ { 0x55, 0x04, 0x08 }, 3, "ST" },
	{ { 0x55, 0x04, 0x0a }, 3, "O" },
	{ { 0x55, 0x04, 0x0b }, 3, "OU" },
	{ { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x01 }, 9,
	  "emailAddress" },
};

static int x509_put_attr(struct x509_text *t, struct ktls_der atv)
{
	static const char hex[] = "0123456789abcdef";
	struct ktls_der oid, val;
	size_t i;
	u8 tag;
	int err;

	if (ktls_der_get(&atv, KTLS_DER_OID, &oid) ||
	    ktls_der_next(&atv, &tag, &val) || atv.len)
		return -EBADMSG;

	for (i = 0; i < ARRAY_SIZE(x509_attr_names); i++) {
		if (ktls_der_equal(&oid, x509_attr_names[i].oid,
				   x509_attr_names[i].len))
			break;
	}
	if (i < ARRAY_SIZE(x509_attr_names)) {
		x509_puts(t, x509_attr_names[i].name);
	} else {
		err = x509_put_oid(t, &oid);
		if (err)
			return err;
	}
	x509_putc(t, '=');

	switch (tag) {
	case KTLS_DER_UTF8_STRING:
	case KTLS_DER_PRINTABLE_STRING:
	case KTLS_DER_T61_STRING:
	case KTLS_DER_IA5_STRING:
		/* Controls would break the one-line forms in /proc/keys. */
		for (i = 0; i < val.len; i++)
			x509_putc(t, val.data[i] < 0x20 || val.data[i] == 0x7f ?
				  '?' : val.data[i]);
		break;
	default:
		/* BMPString and the like: the RFC 4514 hex form. */
		x509_putc(t, '#');
		for (i = 0; i < val.len; i++) {
			x509_putc(t, hex[val.data[i] >> 4]);
			x509_putc(t, hex[val.data[i] & 15]);
		}
		break;
	}
	return 0;
}

/**
 * ktls_x509_format_name() - a Name as one line of text
 * @name:	contents of a Name SEQUENCE
 * @buf:	output, NUL terminated if @size is not zero
 * @size:	room in @buf
 *
 * Attributes come in certificate order, "CN=host, O=org", with '+'
 * between the parts of a multi-valued RDN.
 *
 * Return: the length of the whole text (it was cut short if this is
 * @size or more), or -EBADMSG if @name is malformed.
 */
int ktls_x509_format_name(const struct ktls_der *name, char *buf, size_t size)
{
	struct x509_text t = { .buf = buf, .size = size };
	struct ktls_der rdns = *name, rdn, atv;
	int err;

	while (rdns.len) {
		if (ktls_der_get(&rdns, KTLS_DER_SET, &rdn) || !rdn.len)
			return -EBADMSG;
		if (t.len)
			x509_puts(&t, ", ");
		while (rdn.len) {
			if (ktls_der_get(&rdn, KTLS_DER_SEQUENCE, &atv))
				return -EBADMSG;
			err = x509_put_attr(&t, atv);
			if (err)
				return err;
			if (rdn.len)
				x509_putc(&t, '+');
		}
	}
	if (size)
		buf[min(t.len, size - 1)] = '\0';
	return t.len;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_x509_format_name);
