// SPDX-License-Identifier: GPL-2.0-only
/*
 * Just enough of X.509 (RFC 5280) in DER for `ktls identity show`: the
 * subject, issuer, validity end, subjectAltName and the key's algorithm
 * of a certificate.  The kernel validated the chain when it took it;
 * this only reads, and every length is checked against what holds it
 * in der_next(), the one place that reads a header.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "ktls.h"

struct der {
	const unsigned char *p;
	size_t len;
};

#define DER_SEQUENCE	0x30
#define DER_SET		0x31
#define DER_OID		0x06
#define DER_OCTETS	0x04
#define DER_BOOLEAN	0x01
#define DER_UTCTIME	0x17
#define DER_GENTIME	0x18
#define DER_CTX(n)	(0xa0 | (n))	/* constructed, context-specific */
#define DER_SAN_DNS	0x82
#define DER_SAN_IP	0x87

/* One TLV off the front of @d: its tag, and its contents in @out. */
static int der_next(struct der *d, unsigned char *tag, struct der *out)
{
	size_t len, hdr = 2, i, n;

	if (d->len < 2 || (d->p[0] & 0x1f) == 0x1f)
		return -1;
	*tag = d->p[0];
	len = d->p[1];
	if (len & 0x80) {
		n = len & 0x7f;
		if (!n || n > 3 || d->len < 2 + n)
			return -1;
		for (len = 0, i = 0; i < n; i++)
			len = len << 8 | d->p[2 + i];
		hdr += n;
	}
	if (len > d->len - hdr)
		return -1;
	out->p = d->p + hdr;
	out->len = len;
	d->p += hdr + len;
	d->len -= hdr + len;
	return 0;
}

static int der_expect(struct der *d, unsigned char want, struct der *out)
{
	unsigned char tag;

	if (der_next(d, &tag, out) || tag != want)
		return -1;
	return 0;
}

static bool oid_is(const struct der *oid, const char *bytes, size_t len)
{
	return oid->len == len && !memcmp(oid->p, bytes, len);
}

/* Append to a NUL-terminated @buf of @size, truncating. */
static void put(char *buf, size_t size, const char *s, size_t len)
{
	size_t have = strlen(buf);

	if (have + 1 >= size)
		return;
	if (len > size - have - 1)
		len = size - have - 1;
	memcpy(buf + have, s, len);
	buf[have + len] = '\0';
}

/* A string value, its non-printable bytes as '?'. */
static void put_printable(char *buf, size_t size, const struct der *v)
{
	char c;
	size_t i;

	for (i = 0; i < v->len; i++) {
		c = (v->p[i] >= 0x20 && v->p[i] < 0x7f) ? v->p[i] : '?';
		put(buf, size, &c, 1);
	}
}

/* An OID in dotted form; its first subidentifier holds two arcs. */
static void put_oid(char *buf, size_t size, const struct der *oid)
{
	unsigned long arc = 0;
	bool first = true;
	char num[48];
	size_t i;

	for (i = 0; i < oid->len; i++) {
		arc = arc << 7 | (oid->p[i] & 0x7f);
		if (oid->p[i] & 0x80)
			continue;
		if (first)
			snprintf(num, sizeof(num), "%lu.%lu", arc < 80 ? arc / 40 : 2,
				 arc < 80 ? arc % 40 : arc - 80);
		else
			snprintf(num, sizeof(num), ".%lu", arc);
		put(buf, size, num, strlen(num));
		first = false;
		arc = 0;
	}
}

static const struct {
	const char *oid;
	size_t len;
	const char *name;
} rdn_names[] = {
	{ "\x55\x04\x03", 3, "CN" },
	{ "\x55\x04\x06", 3, "C" },
	{ "\x55\x04\x07", 3, "L" },
	{ "\x55\x04\x08", 3, "ST" },
	{ "\x55\x04\x0a", 3, "O" },
	{ "\x55\x04\x0b", 3, "OU" },
	{ "\x55\x04\x05", 3, "serialNumber" },
};

/* A Name as "CN=www.example.test, O=Example". */
static int put_name(char *buf, size_t size, struct der name)
{
	struct der rdn, atv, oid, val;
	unsigned char tag;
	size_t i;

	buf[0] = '\0';
	while (name.len) {
		if (der_expect(&name, DER_SET, &rdn))
			return -1;
		while (rdn.len) {
			if (der_expect(&rdn, DER_SEQUENCE, &atv) ||
			    der_expect(&atv, DER_OID, &oid) ||
			    der_next(&atv, &tag, &val))
				return -1;
			if (buf[0])
				put(buf, size, ", ", 2);
			for (i = 0; i < ARRAY_SIZE(rdn_names); i++)
				if (oid_is(&oid, rdn_names[i].oid, rdn_names[i].len))
					break;
			if (i < ARRAY_SIZE(rdn_names)) {
				put(buf, size, rdn_names[i].name,
				    strlen(rdn_names[i].name));
			} else {
				char dotted[64] = "";

				put_oid(dotted, sizeof(dotted), &oid);
				put(buf, size, dotted, strlen(dotted));
			}
			put(buf, size, "=", 1);
			put_printable(buf, size, &val);
		}
	}
	return 0;
}

/* UTCTime or GeneralizedTime, as "YYYY-MM-DD HH:MM:SS UTC". */
static int put_time(char *buf, size_t size, struct der *validity)
{
	unsigned char tag;
	struct der t;
	const char *s;
	char year[5];

	if (der_next(validity, &tag, &t))
		return -1;
	s = (const char *)t.p;
	if (tag == DER_UTCTIME && t.len == 13) {
		snprintf(year, sizeof(year), "%s%.2s", s[0] < '5' ? "20" : "19", s);
		s += 2;
	} else if (tag == DER_GENTIME && t.len == 15) {
		snprintf(year, sizeof(year), "%.4s", s);
		s += 4;
	} else {
		return -1;
	}
	snprintf(buf, size, "%s-%.2s-%.2s %.2s:%.2s:%.2s UTC", year, s, s + 2,
		 s + 4, s + 6, s + 8);
	return 0;
}

static void put_key_type(char *buf, size_t size, struct der spki)
{
	struct der alg, oid, param;
	unsigned char tag;

	snprintf(buf, size, "unknown");
	if (der_expect(&spki, DER_SEQUENCE, &alg) ||
	    der_expect(&alg, DER_OID, &oid))
		return;
	if (oid_is(&oid, "\x2a\x86\x48\xce\x3d\x02\x01", 7)) {
		snprintf(buf, size, "EC");
		if (der_next(&alg, &tag, &param) || tag != DER_OID)
			return;
		if (oid_is(&param, "\x2a\x86\x48\xce\x3d\x03\x01\x07", 8))
			snprintf(buf, size, "EC P-256");
		else if (oid_is(&param, "\x2b\x81\x04\x00\x22", 5))
			snprintf(buf, size, "EC P-384");
		else if (oid_is(&param, "\x2b\x81\x04\x00\x23", 5))
			snprintf(buf, size, "EC P-521");
	} else if (oid_is(&oid, "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01", 9)) {
		snprintf(buf, size, "RSA");
	} else if (oid_is(&oid, "\x2b\x65\x70", 3)) {
		snprintf(buf, size, "Ed25519");
	}
}

/* subjectAltName's DNS and IP names, comma separated. */
static void put_san(char *buf, size_t size, struct der names)
{
	struct der name;
	unsigned char tag;
	char ip[64];

	while (names.len && !der_next(&names, &tag, &name)) {
		if (buf[0])
			put(buf, size, ",", 1);
		if (tag == DER_SAN_DNS) {
			put(buf, size, "DNS:", 4);
			put_printable(buf, size, &name);
		} else if (tag == DER_SAN_IP && (name.len == 4 || name.len == 16)) {
			memcpy(ip, "IP:", 3);
			inet_ntop(name.len == 4 ? AF_INET : AF_INET6, name.p,
				  ip + 3, sizeof(ip) - 3);
			put(buf, size, ip, strlen(ip));
		} else {
			put(buf, size, "other", 5);
		}
	}
}

static void parse_extensions(struct ktls_cert_info *info, struct der exts)
{
	struct der seq, ext, oid, val, names;
	unsigned char tag;

	if (der_expect(&exts, DER_SEQUENCE, &seq))
		return;
	while (seq.len) {
		if (der_expect(&seq, DER_SEQUENCE, &ext) ||
		    der_expect(&ext, DER_OID, &oid) ||
		    der_next(&ext, &tag, &val))
			return;
		if (tag == DER_BOOLEAN && der_next(&ext, &tag, &val))
			return;
		if (tag != DER_OCTETS || !oid_is(&oid, "\x55\x1d\x11", 3))
			continue;
		if (!der_expect(&val, DER_SEQUENCE, &names))
			put_san(info->dns, sizeof(info->dns), names);
	}
}

/**
 * ktls_x509_parse() - the fields show prints, of the certificate at @der
 * @der:	DER, starting with a certificate
 * @len:	bytes at @der, the certificate and what follows it
 * @info:	filled in; @info->len is the certificate's own length
 *
 * Return: 0, or -1 when @der does not start with a certificate.
 */
int ktls_x509_parse(const unsigned char *der, size_t len,
		    struct ktls_cert_info *info)
{
	struct der d = { der, len }, cert, tbs, field, validity, spki;
	unsigned char tag;

	memset(info, 0, sizeof(*info));
	if (der_expect(&d, DER_SEQUENCE, &cert))
		return -1;
	info->len = len - d.len;
	if (der_expect(&cert, DER_SEQUENCE, &tbs) ||
	    der_next(&tbs, &tag, &field))
		return -1;
	/* [0] version, then the serial; or the serial at once (v1) */
	if (tag == DER_CTX(0) && der_next(&tbs, &tag, &field))
		return -1;
	if (der_expect(&tbs, DER_SEQUENCE, &field) ||	/* signature */
	    der_expect(&tbs, DER_SEQUENCE, &field) ||	/* issuer */
	    put_name(info->issuer, sizeof(info->issuer), field) ||
	    der_expect(&tbs, DER_SEQUENCE, &validity) ||
	    der_next(&validity, &tag, &field) ||	/* notBefore */
	    put_time(info->not_after, sizeof(info->not_after), &validity) ||
	    der_expect(&tbs, DER_SEQUENCE, &field) ||	/* subject */
	    put_name(info->subject, sizeof(info->subject), field) ||
	    der_expect(&tbs, DER_SEQUENCE, &spki))
		return -1;
	put_key_type(info->key_type, sizeof(info->key_type), spki);
	while (tbs.len && !der_next(&tbs, &tag, &field))
		if (tag == DER_CTX(3))
			parse_extensions(info, field);
	return 0;
}
