/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <crypto/chacha.h>: the sizes. */
#ifndef _KTLS_SHIM_CRYPTO_CHACHA_H
#define _KTLS_SHIM_CRYPTO_CHACHA_H

#define CHACHA_KEY_SIZE		32
#define CHACHA_IV_SIZE		16
#define CHACHA_BLOCK_SIZE	64

#endif
