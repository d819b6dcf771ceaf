// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hash transforms every handshake shares: SHA-256 and SHA-384 from the
 * crypto API, allocated once at module load.  An unkeyed shash tfm holds
 * no per-use state, so any number of handshakes may hash through it at
 * once, each with its own descriptor; keyed HMAC is built on top of it in
 * hkdf.c for that reason.  Also the hash of the empty string, which the
 * TLS 1.3 key schedule needs at every step.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/sha2.h>
#include <kunit/visibility.h>
#include <linux/limits.h>
#include <linux/minmax.h>

#include "kdf_priv.h"

struct ktls_hash_alg {
	const char *name;
	unsigned int size;
	unsigned int block;
};

static const struct ktls_hash_alg ktls_hash_algs[KTLS_HASH_NR] = {
	[KTLS_HASH_SHA256] = { "sha256", SHA256_DIGEST_SIZE, SHA256_BLOCK_SIZE },
	[KTLS_HASH_SHA384] = { "sha384", SHA384_DIGEST_SIZE, SHA384_BLOCK_SIZE },
};

static struct crypto_shash *ktls_hash_tfms[KTLS_HASH_NR];
static u8 ktls_hash_empties[KTLS_HASH_NR][KTLS_HASH_MAX_SIZE];

static_assert(SHA384_DIGEST_SIZE == KTLS_HASH_MAX_SIZE);
static_assert(SHA384_BLOCK_SIZE == KTLS_HASH_MAX_BLOCK);
static_assert(sizeof(struct sha512_state) <= KTLS_HASH_STATE_SIZE);

int ktls_hash_size(enum ktls_hash hash)
{
	if (!ktls_hash_valid(hash))
		return -EINVAL;
	return ktls_hash_algs[hash].size;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hash_size);

unsigned int ktls_hash_block_size(enum ktls_hash hash)
{
	return ktls_hash_algs[hash].block;
}

struct crypto_shash *ktls_hash_tfm(enum ktls_hash hash)
{
	return ktls_hash_tfms[hash];
}

const u8 *ktls_hash_empty(enum ktls_hash hash)
{
	return ktls_hash_empties[hash];
}

/* The crypto API takes unsigned int lengths; our callers pass size_t. */
int ktls_hash_update(struct shash_desc *desc, const void *data, size_t len)
{
	const u8 *p = data;
	int err;

	while (len) {
		unsigned int n = min_t(size_t, len, UINT_MAX);

		err = crypto_shash_update(desc, p, n);
		if (err)
			return err;
		p += n;
		len -= n;
	}
	return 0;
}

int ktls_hash_digest(enum ktls_hash hash, const u8 *data, size_t len,
		     u8 *out, size_t out_len)
{
	SHASH_DESC_ON_STACK(desc, NULL);
	int err;

	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, out_len) ||
	    (!data && len))
		return -EINVAL;

	desc->tfm = ktls_hash_tfms[hash];
	err = crypto_shash_init(desc);
	if (!err)
		err = ktls_hash_update(desc, data, len);
	if (!err)
		err = crypto_shash_final(desc, out);
	/* The data may be a secret (an over-long HMAC key). */
	shash_desc_zero(desc);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hash_digest);

static int ktls_hash_alloc(enum ktls_hash hash)
{
	const struct ktls_hash_alg *alg = &ktls_hash_algs[hash];
	struct crypto_shash *tfm;
	int err;

	tfm = crypto_alloc_shash(alg->name, 0, 0);
	if (IS_ERR(tfm)) {
		pr_err("no %s in the crypto API (%ld)\n", alg->name,
		       PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}

	/*
	 * Transcripts and HMAC keys keep exported states in fixed-size
	 * fields of caller memory, so an implementation with a larger state
	 * than the generic one cannot be used.
	 */
	if (crypto_shash_digestsize(tfm) != alg->size ||
	    crypto_shash_blocksize(tfm) != alg->block ||
	    crypto_shash_statesize(tfm) > KTLS_HASH_STATE_SIZE) {
		pr_err("%s (%s) has an unexpected geometry\n",
		       alg->name, crypto_shash_driver_name(tfm));
		err = -EINVAL;
		goto err_free;
	}
	ktls_hash_tfms[hash] = tfm;

	err = ktls_hash_digest(hash, NULL, 0, ktls_hash_empties[hash],
			       alg->size);
	if (err)
		goto err_clear;
	return 0;

err_clear:
	ktls_hash_tfms[hash] = NULL;
err_free:
	crypto_free_shash(tfm);
	return err;
}

/* Process context, at module load: crypto_alloc_shash() may sleep. */
int ktls_kdf_init(void)
{
	enum ktls_hash hash;
	int err;

	for (hash = KTLS_HASH_NONE + 1; hash < KTLS_HASH_NR; hash++) {
		err = ktls_hash_alloc(hash);
		if (err)
			goto err_free;
	}
	return 0;

err_free:
	ktls_kdf_exit();
	return err;
}

void ktls_kdf_exit(void)
{
	enum ktls_hash hash;

	for (hash = KTLS_HASH_NONE + 1; hash < KTLS_HASH_NR; hash++) {
		crypto_free_shash(ktls_hash_tfms[hash]);
		ktls_hash_tfms[hash] = NULL;
	}
}
