/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A peer's certificate, read for path validation (cert.c): everything
 * RFC 5280 section 6 looks at, where x509.c reads only what a server
 * needs of its own chain.  Fields point into the DER they were parsed
 * from; nothing is allocated, so a parse may run in softirq.
 *
 * Like every parser of an identity, it takes a length with its buffer,
 * never reads past it, and on failure returns a negative errno and points
 * *why at a constant string saying what was wrong.
 */
#ifndef _KTLS_HS_IDENTITY_CERT_H
#define _KTLS_HS_IDENTITY_CERT_H

#include <linux/time64.h>
#include <linux/types.h>

#include <ktls_hs/kdf.h>

#include "der.h"
#include "x509.h"

/* keyUsage bits (RFC 5280 4.2.1.3), bit 0 the first of the BIT STRING */
#define KTLS_CERT_KU_DIGITAL_SIGNATURE	0x8000
#define KTLS_CERT_KU_KEY_CERT_SIGN	0x0400

/* extendedKeyUsage purposes we look for */
#define KTLS_CERT_EKU_CLIENT_AUTH	0x01
#define KTLS_CERT_EKU_SERVER_AUTH	0x02
#define KTLS_CERT_EKU_ANY		0x04

/* No pathLenConstraint: any number of intermediates may follow. */
#define KTLS_CERT_NO_PATH_LEN		-1

/**
 * struct ktls_cert - one certificate, as path validation sees it
 * @x:		subject, key and subjectAltName, as struct ktls_x509
 * @tbs:	the whole tbsCertificate element, header included: what the
 *		issuer signed
 * @sig:	signatureValue, the BIT STRING contents after its
 *		unused-bits octet
 * @sig_hash:	the hash of an ECDSA signature algorithm we know
 *		(ecdsa-with-SHA256 or -SHA384), else KTLS_HASH_NONE
 * @issuer:	contents of the issuer Name
 * @not_before:	start of validity, seconds since the epoch
 * @not_after:	end of validity, inclusive
 * @ski:	subjectKeyIdentifier, or empty
 * @aki:	authorityKeyIdentifier's keyIdentifier, or empty
 * @version:	0 for v1 .. 2 for v3
 * @is_ca:	basicConstraints with cA TRUE
 * @has_bc:	basicConstraints present
 * @has_ku:	keyUsage present
 * @has_eku:	extendedKeyUsage present
 * @unknown_critical: a critical extension we do not process
 * @path_len:	pathLenConstraint, or KTLS_CERT_NO_PATH_LEN
 * @ku:		KTLS_CERT_KU_* bits
 * @eku:	KTLS_CERT_EKU_* bits
 */
struct ktls_cert {
	struct ktls_x509 x;
	struct ktls_der tbs;
	struct ktls_der sig;
	enum ktls_hash sig_hash;
	struct ktls_der issuer;
	time64_t not_before;
	time64_t not_after;
	struct ktls_der ski;
	struct ktls_der aki;
	u8 version;
	bool is_ca;
	bool has_bc;
	bool has_ku;
	bool has_eku;
	bool unknown_critical;
	s16 path_len;
	u16 ku;
	u8 eku;
};

/* cert.c */
int ktls_cert_parse(struct ktls_cert *cert, const u8 *der, size_t len,
		    const char **why);
int ktls_cert_time(const struct ktls_der *val, u8 tag, time64_t *t);
bool ktls_cert_is_rsa(const struct ktls_cert *cert);

#endif /* _KTLS_HS_IDENTITY_CERT_H */
