// SPDX-License-Identifier: GPL-2.0-only
/*
 * A strict DER reader for identity bundles.  Every byte of a certificate
 * or key we look at is reached through ktls_der_next(), which checks the
 * one thing that matters for memory safety, that an element fits inside
 * its parent, and refuses what DER forbids (indefinite and non-minimal
 * lengths) so that one encoding has one reading.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "der.h"

/* Long-form lengths of more octets than this exceed any bundle we take. */
#define KTLS_DER_MAX_LEN_OCTETS	3

/**
 * ktls_der_next() - take the next element off the front of @d
 * @d:		the bytes left to read; advanced past the element
 * @tag:	its tag
 * @val:	its contents
 *
 * Return: 0, or -EBADMSG when @d does not start with a complete element.
 */
int ktls_der_next(struct ktls_der *d, u8 *tag, struct ktls_der *val)
{
	const u8 *p = d->data;
	size_t left = d->len;
	size_t len;

	if (left < 2)
		return -EBADMSG;
	/* The high-tag-number form appears nowhere we parse structure. */
	if ((p[0] & 0x1f) == 0x1f)
		return -EBADMSG;
	*tag = p[0];
	len = p[1];
	p += 2;
	left -= 2;

	if (len & 0x80) {
		size_t n = len & 0x7f;
		size_t i;

		/* n == 0 is BER's indefinite length. */
		if (n == 0 || n > KTLS_DER_MAX_LEN_OCTETS || n > left)
			return -EBADMSG;
		/* A leading zero octet would make the encoding not minimal. */
		if (p[0] == 0)
			return -EBADMSG;
		len = 0;
		for (i = 0; i < n; i++)
			len = len << 8 | p[i];
		/* Below 128 the short form is the only DER encoding. */
		if (len < 0x80)
			return -EBADMSG;
		p += n;
		left -= n;
	}
	if (len > left)
		return -EBADMSG;

	val->data = p;
	val->len = len;
	d->data = p + len;
	d->len = left - len;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_der_next);

/**
 * ktls_der_get() - take the next element, which must have tag @tag
 * @d:		the bytes left to read
 * @tag:	the tag required
 * @val:	its contents
 *
 * Return: 0, or -EBADMSG if the element is malformed or has another tag.
 */
int ktls_der_get(struct ktls_der *d, u8 tag, struct ktls_der *val)
{
	struct ktls_der rest = *d;
	u8 got;
	int err;

	err = ktls_der_next(&rest, &got, val);
	if (err)
		return err;
	if (got != tag)
		return -EBADMSG;
	*d = rest;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_der_get);

/**
 * ktls_der_get_optional() - take the next element if it has tag @tag
 * @d:		the bytes left to read; left alone if the tag differs
 * @tag:	the tag of the optional element
 * @val:	its contents
 *
 * Return: 1 if it was there, 0 if @d is empty or starts with another
 * tag, or -EBADMSG if the element is malformed.
 */
int ktls_der_get_optional(struct ktls_der *d, u8 tag, struct ktls_der *val)
{
	if (!d->len || d->data[0] != tag)
		return 0;
	return ktls_der_get(d, tag, val) ?: 1;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_der_get_optional);

/* Whether @val holds exactly @len bytes equal to @bytes (an OID, say). */
bool ktls_der_equal(const struct ktls_der *val, const u8 *bytes, size_t len)
{
	return val->len == len && !memcmp(val->data, bytes, len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_der_equal);
