/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <crypto/aes.h>: the key schedule's type. */
#ifndef _KTLS_SHIM_CRYPTO_AES_H
#define _KTLS_SHIM_CRYPTO_AES_H

#include <linux/types.h>

#define AES_BLOCK_SIZE		16
#define AES_KEYSIZE_128		16
#define AES_KEYSIZE_256		32
#define AES_MAX_KEYLENGTH_U32	60

struct crypto_aes_ctx {
	u32 key_enc[AES_MAX_KEYLENGTH_U32];
	u32 key_dec[AES_MAX_KEYLENGTH_U32];
	u32 key_length;
};

#endif
