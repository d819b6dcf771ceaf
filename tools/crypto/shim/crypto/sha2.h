/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the kernel's lib/crypto SHA-256 interface
 * (<crypto/sha2.h> in 6.12), mapped onto libcrypto's SHA256_*, and the
 * SHA-384 sizes the crypto API's users need.
 */
#ifndef _P256_SHIM_CRYPTO_SHA2_H
#define _P256_SHIM_CRYPTO_SHA2_H

#include <linux/types.h>

#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64
#define SHA384_DIGEST_SIZE	48
#define SHA384_BLOCK_SIZE	128

/* The kernel's, for the size check in crypto/hash.c. */
struct sha512_state {
	u64 state[8];
	u64 count[2];
	u8 buf[SHA384_BLOCK_SIZE];
};

struct sha256_state {
	SHA256_CTX ctx;
};

static inline void sha256_init(struct sha256_state *s)
{
	SHA256_Init(&s->ctx);
}

static inline void sha256_update(struct sha256_state *s, const u8 *data, unsigned int len)
{
	SHA256_Update(&s->ctx, data, len);
}

static inline void sha256_final(struct sha256_state *s, u8 *out)
{
	SHA256_Final(out, &s->ctx);
}

static inline void sha256(const u8 *data, unsigned int len, u8 *out)
{
	SHA256(data, len, out);
}

#endif
