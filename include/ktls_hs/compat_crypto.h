/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, crypto library part: the kernel's AES, ChaCha and
 * SHA-256 library calls crypto/ makes, whose types changed after 6.12.
 * As in <ktls_hs/compat.h>, the version tests live here, nowhere else.
 * The userspace builds of crypto/ have a stand-in for this header in
 * tools/crypto/shim/ (the shim is of the 6.12 API).
 *
 * The boundaries below are checked only at their ends (6.12 and 7.3);
 * a wrong one shows as a compile error on a kernel in between.
 */
#ifndef _KTLS_HS_COMPAT_CRYPTO_H
#define _KTLS_HS_COMPAT_CRYPTO_H

#include <crypto/aes.h>
#include <crypto/chacha.h>
#include <crypto/sha2.h>
#include <linux/string.h>
#include <linux/version.h>

/*
 * An AES key for encryption only.  From 7.0 the library has a type of its
 * own for it (struct aes_enckey, half of the full key); before, the full
 * struct crypto_aes_ctx, whose decryption half is cleared at once.
 * aes_encrypt() takes either on its kernel.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define ktls_aes_enckey aes_enckey

static inline int ktls_aes_enckey_set(struct ktls_aes_enckey *k, const u8 *key,
				      unsigned int key_len)
{
	return aes_prepareenckey(k, key, key_len);
}
#else
#define ktls_aes_enckey crypto_aes_ctx

static inline int ktls_aes_enckey_set(struct ktls_aes_enckey *k, const u8 *key,
				      unsigned int key_len)
{
	int err = aes_expandkey(k, key, key_len);

	/* Only ever encrypting: keep no second copy of the key. */
	memzero_explicit(k->key_dec, sizeof(k->key_dec));
	return err;
}
#endif

/*
 * The ChaCha state: from 6.16 a struct chacha_state, before a bare array
 * of 16 words.  struct ktls_chacha_state is the 6.16 struct, or the same
 * layout of our own, and the two calls take it on either kernel.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define ktls_chacha_state chacha_state
#else
struct ktls_chacha_state {
	u32 x[CHACHA_STATE_WORDS];
};
#endif

/* @key and @iv in the state, as RFC 8439 2.3 lays them out. */
static inline void ktls_chacha_init(struct ktls_chacha_state *st,
				    const u32 *key, const u8 *iv)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
	chacha_init(st, key, iv);
#else
	chacha_init_generic(st->x, key, iv);
#endif
}

/* One block of key stream, then the counter moves on. */
static inline void ktls_chacha_block(struct ktls_chacha_state *st, u8 *out,
				     int nrounds)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
	chacha_block_generic(st, out, nrounds);
#else
	chacha_block_generic(st->x, out, nrounds);
#endif
}

/*
 * A SHA-256 context of the library's sha256_init/_update/_final: struct
 * sha256_ctx from 6.16 (which made those calls take it), struct
 * sha256_state before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
#define ktls_sha256_ctx sha256_ctx
#else
#define ktls_sha256_ctx sha256_state
#endif

#endif /* _KTLS_HS_COMPAT_CRYPTO_H */
