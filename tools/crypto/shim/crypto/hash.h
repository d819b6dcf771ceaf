/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the crypto API's synchronous hashes
 * (<crypto/hash.h>) as crypto/hash.c, hkdf.c and transcript.c use them:
 * "sha256" and "sha384" on libcrypto's SHA256_CTX and SHA512_CTX,
 * whose exported state fits the 208 bytes the callers keep.
 */
#ifndef _KTLS_SHIM_CRYPTO_HASH_H
#define _KTLS_SHIM_CRYPTO_HASH_H

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <crypto/sha2.h>

struct crypto_shash {
	const char *name;
	unsigned int digestsize;
	unsigned int blocksize;
};

struct shash_desc {
	struct crypto_shash *tfm;
	union {
		SHA256_CTX s256;
		SHA512_CTX s512;
	};
};

#define SHASH_DESC_ON_STACK(desc, t) \
	struct shash_desc __##desc##_ctx = { .tfm = (t) }; \
	struct shash_desc *desc = &__##desc##_ctx

/*
 * SHA512_CTX ends with two ints (bytes buffered, digest length) that
 * follow from the bit count and the algorithm: the state is what comes
 * before them.
 */
#define KTLS_SHIM_SHA512_STATE	offsetof(SHA512_CTX, num)

static inline bool shash_is_256(const struct crypto_shash *tfm)
{
	return tfm->digestsize == SHA256_DIGEST_SIZE;
}

static inline struct crypto_shash *crypto_alloc_shash(const char *name,
						      u32 type, u32 mask)
{
	static struct crypto_shash sha256 = { "sha256", 32, 64 };
	static struct crypto_shash sha384 = { "sha384", 48, 128 };

	if (!strcmp(name, "sha256"))
		return &sha256;
	if (!strcmp(name, "sha384"))
		return &sha384;
	return ERR_PTR(-ENOENT);
}

static inline void crypto_free_shash(struct crypto_shash *tfm)
{
}

static inline unsigned int crypto_shash_digestsize(struct crypto_shash *tfm)
{
	return tfm->digestsize;
}

static inline unsigned int crypto_shash_blocksize(struct crypto_shash *tfm)
{
	return tfm->blocksize;
}

static inline unsigned int crypto_shash_statesize(struct crypto_shash *tfm)
{
	return shash_is_256(tfm) ? sizeof(SHA256_CTX) : KTLS_SHIM_SHA512_STATE;
}

static inline const char *crypto_shash_driver_name(struct crypto_shash *tfm)
{
	return tfm->name;
}

static inline int crypto_shash_init(struct shash_desc *desc)
{
	if (shash_is_256(desc->tfm))
		SHA256_Init(&desc->s256);
	else
		SHA384_Init(&desc->s512);
	return 0;
}

static inline int crypto_shash_update(struct shash_desc *desc, const u8 *data,
				      unsigned int len)
{
	if (shash_is_256(desc->tfm))
		SHA256_Update(&desc->s256, data, len);
	else
		SHA384_Update(&desc->s512, data, len);
	return 0;
}

static inline int crypto_shash_final(struct shash_desc *desc, u8 *out)
{
	if (shash_is_256(desc->tfm))
		SHA256_Final(out, &desc->s256);
	else
		SHA384_Final(out, &desc->s512);
	return 0;
}

static inline int crypto_shash_finup(struct shash_desc *desc, const u8 *data,
				     unsigned int len, u8 *out)
{
	crypto_shash_update(desc, data, len);
	return crypto_shash_final(desc, out);
}

static inline int crypto_shash_export(struct shash_desc *desc, void *out)
{
	memcpy(out, &desc->s256, crypto_shash_statesize(desc->tfm));
	return 0;
}

static inline int crypto_shash_import(struct shash_desc *desc, const void *in)
{
	memcpy(&desc->s256, in, crypto_shash_statesize(desc->tfm));
	if (!shash_is_256(desc->tfm)) {
		desc->s512.num = (desc->s512.Nl >> 3) % SHA512_CBLOCK;
		desc->s512.md_len = SHA384_DIGEST_LENGTH;
	}
	return 0;
}

static inline void shash_desc_zero(struct shash_desc *desc)
{
	memzero_explicit(desc, sizeof(*desc));
}

#endif
