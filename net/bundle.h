/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Parsers behind the "ktls_identity" key type: a strict DER reader, PEM
 * armour, the X.509 certificate fields the handshake needs, P-256 private
 * keys, and the bundle that ties them into a struct ktls_identity.
 *
 * Every parser takes a length with its buffer, never reads past it, and
 * on failure returns a negative errno and points *why at a constant
 * string saying what was wrong, for the one-line kernel message.
 */
#ifndef _KTLS_HS_BUNDLE_H
#define _KTLS_HS_BUNDLE_H

#include <linux/types.h>

#include <ktls_hs/identity.h>

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

/**
 * struct ktls_pem - one PEM block
 * @label:	what follows "-----BEGIN ", not NUL terminated
 * @label_len:	its length
 * @body:	the base64 text between the BEGIN and END lines
 * @body_len:	its length
 */
struct ktls_pem {
	const char *label;
	size_t label_len;
	const char *body;
	size_t body_len;
};

int ktls_pem_next(const char **pos, const char *end, struct ktls_pem *blk,
		  const char **why);
int ktls_base64_decode(const char *src, size_t len, u8 *dst, size_t *dst_len,
		       const char **why);

/**
 * struct ktls_x509 - the parts of one certificate we look at
 * @subject:	contents of the subject Name
 * @key_alg:	contents of the subjectPublicKeyInfo algorithm OID
 * @key_params:	the algorithm parameters, tag and length included, or empty
 * @key:	contents of the subjectPublicKey BIT STRING
 * @san:	contents of the subjectAltName GeneralNames, or empty
 */
struct ktls_x509 {
	struct ktls_der subject;
	struct ktls_der key_alg;
	struct ktls_der key_params;
	struct ktls_der key;
	struct ktls_der san;
};

int ktls_x509_parse(struct ktls_x509 *cert, const u8 *der, size_t len,
		    const char **why);
int ktls_x509_p256_key(const struct ktls_x509 *cert,
		       u8 pub[KTLS_IDENTITY_P256_PUB_SIZE], const char **why);
int ktls_x509_next_name(struct ktls_der *san, struct ktls_identity_name *name,
			const char **why);
int ktls_x509_format_name(const struct ktls_der *name, char *buf,
			  size_t size);

int ktls_eckey_parse(const u8 *der, size_t len,
		     u8 priv[KTLS_IDENTITY_P256_PRIV_SIZE],
		     u8 pub[KTLS_IDENTITY_P256_PUB_SIZE], bool *has_pub,
		     const char **why);

extern const u8 ktls_oid_ec_public_key[7];
extern const u8 ktls_oid_prime256v1[8];

/*
 * Exported by crypto/asymmetric_keys but declared only in its private
 * header; we use nothing of the certificate but whether it parses.
 */
struct x509_certificate;
struct x509_certificate *x509_cert_parse(const void *data, size_t datalen);
void x509_free_certificate(struct x509_certificate *cert);

struct ktls_identity *ktls_bundle_parse(const u8 *data, size_t len,
					const char **why);

#endif /* _KTLS_HS_BUNDLE_H */
