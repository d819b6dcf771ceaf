/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the kernel's X25519 library <crypto/curve25519.h>,
 * on libcrypto's X25519.
 */
#ifndef _KTLS_SHIM_CRYPTO_CURVE25519_H
#define _KTLS_SHIM_CRYPTO_CURVE25519_H

#include <linux/types.h>
#include <openssl/evp.h>

#define CURVE25519_KEY_SIZE	32

static inline void curve25519_clamp_secret(u8 secret[CURVE25519_KEY_SIZE])
{
	secret[0] &= 248;
	secret[31] = (secret[31] & 127) | 64;
}

/* false if the shared secret is all zero (a low-order @basepoint). */
static inline bool curve25519(u8 out[CURVE25519_KEY_SIZE],
			      const u8 secret[CURVE25519_KEY_SIZE],
			      const u8 basepoint[CURVE25519_KEY_SIZE])
{
	EVP_PKEY *priv, *peer;
	EVP_PKEY_CTX *ctx = NULL;
	size_t len = CURVE25519_KEY_SIZE;
	u8 acc = 0;
	bool ok = false;
	int i;

	priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, secret,
					    CURVE25519_KEY_SIZE);
	peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, basepoint,
					   CURVE25519_KEY_SIZE);
	if (priv && peer)
		ctx = EVP_PKEY_CTX_new(priv, NULL);
	/* OpenSSL itself refuses an all-zero result: the same answer. */
	if (ctx && EVP_PKEY_derive_init(ctx) > 0 &&
	    EVP_PKEY_derive_set_peer(ctx, peer) > 0 &&
	    EVP_PKEY_derive(ctx, out, &len) > 0 && len == CURVE25519_KEY_SIZE) {
		for (i = 0; i < CURVE25519_KEY_SIZE; i++)
			acc |= out[i];
		ok = acc != 0;
	}
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer);
	EVP_PKEY_free(priv);
	return ok;
}

static inline bool curve25519_generate_public(u8 pub[CURVE25519_KEY_SIZE],
					      const u8 secret[CURVE25519_KEY_SIZE])
{
	static const u8 base[CURVE25519_KEY_SIZE] = { 9 };

	return curve25519(pub, secret, base);
}

#endif
