/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A strict DER reader (der.c): definite lengths in their shortest form,
 * single-byte tags, nothing read past the window it is given.
 */
#ifndef _KTLS_HS_IDENTITY_DER_H
#define _KTLS_HS_IDENTITY_DER_H

#include <linux/types.h>

/* Universal and context-specific tags, in their single-byte form. */
#define KTLS_DER_BOOLEAN	0x01
#define KTLS_DER_INTEGER	0x02
#define KTLS_DER_BIT_STRING	0x03
#define KTLS_DER_OCTET_STRING	0x04
#define KTLS_DER_NULL		0x05
#define KTLS_DER_OID		0x06
#define KTLS_DER_UTF8_STRING	0x0c
#define KTLS_DER_PRINTABLE_STRING 0x13
#define KTLS_DER_T61_STRING	0x14
#define KTLS_DER_IA5_STRING	0x16
#define KTLS_DER_UTC_TIME	0x17
#define KTLS_DER_GENERALIZED_TIME 0x18
#define KTLS_DER_SEQUENCE	0x30
#define KTLS_DER_SET		0x31
#define KTLS_DER_CONTEXT(n)	(0x80 | (n))	/* implicit, primitive */
#define KTLS_DER_EXPLICIT(n)	(0xa0 | (n))	/* explicit, constructed */

/**
 * struct ktls_der - a window onto DER bytes, consumed from the front
 * @data:	first byte not yet read
 * @len:	bytes left
 */
struct ktls_der {
	const u8 *data;
	size_t len;
};

int ktls_der_next(struct ktls_der *d, u8 *tag, struct ktls_der *val);
int ktls_der_get(struct ktls_der *d, u8 tag, struct ktls_der *val);
int ktls_der_get_optional(struct ktls_der *d, u8 tag, struct ktls_der *val);
bool ktls_der_equal(const struct ktls_der *val, const u8 *bytes, size_t len);

#endif /* _KTLS_HS_IDENTITY_DER_H */
