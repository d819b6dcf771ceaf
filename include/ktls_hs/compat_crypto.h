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
#include <crypto/internal/poly1305.h>
#include <crypto/sha2.h>
#include <linux/string.h>
#include <linux/unaligned.h>
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

/*
 * Poly1305 over whole 16-byte blocks (the AEAD pads to them).  The
 * generic core (poly1305_core_*()), which never touches the FPU, is
 * used where the kernel has it: up to 6.x wherever the library is
 * built; in 7.x only where the architecture has no code of its own or
 * something (Adiantum) selects it.  Elsewhere the library's one-shot
 * API, whose architecture code uses the FPU only where the context
 * allows.  This is a test of the configuration, not of the version.
 */
#if IS_REACHABLE(CONFIG_CRYPTO_LIB_POLY1305_GENERIC)
struct ktls_poly1305 {
	struct poly1305_core_key key;
	struct poly1305_state acc;
	u32 s[4];
};

/* @otk: the 32-byte one-time key, r then s. */
static inline void ktls_poly1305_init(struct ktls_poly1305 *p, const u8 *otk)
{
	unsigned int i;

	poly1305_core_setkey(&p->key, otk);
	for (i = 0; i < ARRAY_SIZE(p->s); i++)
		p->s[i] = get_unaligned_le32(otk + POLY1305_BLOCK_SIZE + 4 * i);
	poly1305_core_init(&p->acc);
}

static inline void ktls_poly1305_blocks(struct ktls_poly1305 *p, const u8 *src,
					unsigned int nblocks)
{
	poly1305_core_blocks(&p->acc, &p->key, src, nblocks, 1);
}

/* The tag; @p is wiped. */
static inline void ktls_poly1305_final(struct ktls_poly1305 *p, u8 *tag)
{
	poly1305_core_emit(&p->acc, p->s, tag);
	memzero_explicit(p, sizeof(*p));
}
#else
struct ktls_poly1305 {
	struct poly1305_desc_ctx desc;
};

static inline void ktls_poly1305_init(struct ktls_poly1305 *p, const u8 *otk)
{
	poly1305_init(&p->desc, otk);
}

static inline void ktls_poly1305_blocks(struct ktls_poly1305 *p, const u8 *src,
					unsigned int nblocks)
{
	poly1305_update(&p->desc, src, nblocks * POLY1305_BLOCK_SIZE);
}

static inline void ktls_poly1305_final(struct ktls_poly1305 *p, u8 *tag)
{
	poly1305_final(&p->desc, tag);
	memzero_explicit(p, sizeof(*p));
}
#endif

#endif /* _KTLS_HS_COMPAT_CRYPTO_H */
