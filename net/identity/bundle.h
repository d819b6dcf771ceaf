/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The bundle a "ktls_identity" key is loaded from (bundle.c): PEM
 * certificates, leaf first, and the leaf's private key, tied into a
 * struct ktls_identity.
 *
 * Like every parser of an identity, it takes a length with its buffer,
 * never reads past it, and on failure returns a negative errno and points
 * *why at a constant string saying what was wrong, for the one-line
 * kernel message.
 */
#ifndef _KTLS_HS_IDENTITY_BUNDLE_H
#define _KTLS_HS_IDENTITY_BUNDLE_H

#include <linux/types.h>

#include <ktls_hs/identity.h>

struct ktls_identity *ktls_bundle_parse(const u8 *data, size_t len,
					const char **why);

#endif /* _KTLS_HS_IDENTITY_BUNDLE_H */
