/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * P-256 private keys (eckey.c): SEC 1 ECPrivateKey, bare or inside a
 * PKCS #8 PrivateKeyInfo.
 *
 * Like every parser of an identity, it takes a length with its buffer,
 * never reads past it, and on failure returns a negative errno and points
 * *why at a constant string saying what was wrong, for the one-line
 * kernel message.
 */
#ifndef _KTLS_HS_IDENTITY_ECKEY_H
#define _KTLS_HS_IDENTITY_ECKEY_H

#include <linux/types.h>

#include <ktls_hs/identity.h>

int ktls_eckey_parse(const u8 *der, size_t len,
		     u8 priv[KTLS_IDENTITY_P256_PRIV_SIZE],
		     u8 pub[KTLS_IDENTITY_P256_PUB_SIZE], bool *has_pub,
		     const char **why);

#endif /* _KTLS_HS_IDENTITY_ECKEY_H */
