/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The X.509 certificate fields the handshake needs (x509.c), and the
 * object identifiers of a P-256 key that eckey.c checks as well.
 *
 * Like every parser of an identity, it takes a length with its buffer,
 * never reads past it, and on failure returns a negative errno and points
 * *why at a constant string saying what was wrong, for the one-line
 * kernel message.
 */
#ifndef _KTLS_HS_IDENTITY_X509_H
#define _KTLS_HS_IDENTITY_X509_H

#include <linux/types.h>

#include <ktls_hs/identity.h>

#include "der.h"

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

extern const u8 ktls_oid_ec_public_key[7];
extern const u8 ktls_oid_prime256v1[8];

/*
 * Exported by crypto/asymmetric_keys but declared only in its private
 * header; we use nothing of the certificate but whether it parses.
 */
struct x509_certificate;
struct x509_certificate *x509_cert_parse(const void *data, size_t datalen);
void x509_free_certificate(struct x509_certificate *cert);

#endif /* _KTLS_HS_IDENTITY_X509_H */
