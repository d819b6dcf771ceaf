/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <ktls_hs/compat_crypto.h>: the shim headers
 * are of the 6.12 library API, so the names stand for its types.
 */
#ifndef _KTLS_SHIM_KTLS_HS_COMPAT_CRYPTO_H
#define _KTLS_SHIM_KTLS_HS_COMPAT_CRYPTO_H

#include <crypto/aes.h>
#include <crypto/sha2.h>

#define ktls_aes_enckey crypto_aes_ctx
#define ktls_sha256_ctx sha256_state

#endif
