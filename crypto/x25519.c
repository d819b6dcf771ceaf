// SPDX-License-Identifier: GPL-2.0-only
/*
 * X25519 key pairs and shared secrets for the handshake, over the
 * kernel's curve25519 library (the BMI2/ADX code where the CPU has it,
 * the generic code otherwise); what this file adds is the TLS rules:
 * clamped private keys from the kernel RNG and the refusal of an
 * all-zero shared secret.
 */
#include <crypto/curve25519.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/random.h>
#include <linux/string.h>

#include <ktls_hs/x25519.h>

static_assert(KTLS_X25519_KEY_LEN == CURVE25519_KEY_SIZE);

int ktls_x25519_keygen(u8 priv[KTLS_X25519_KEY_LEN],
		       u8 pub[KTLS_X25519_KEY_LEN])
{
	/*
	 * Not curve25519_generate_secret(): it waits for the RNG to be
	 * seeded, and a handshake in softirq must not wait.
	 */
	get_random_bytes(priv, KTLS_X25519_KEY_LEN);
	curve25519_clamp_secret(priv);
	if (!curve25519_generate_public(pub, priv)) {
		/* Unreachable for a clamped key, which is never zero. */
		memzero_explicit(priv, KTLS_X25519_KEY_LEN);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_x25519_keygen);

int ktls_x25519(u8 secret[KTLS_X25519_KEY_LEN],
		const u8 priv[KTLS_X25519_KEY_LEN],
		const u8 peer[KTLS_X25519_KEY_LEN])
{
	/* curve25519() compares the result with zero in constant time. */
	if (!curve25519(secret, priv, peer)) {
		memzero_explicit(secret, KTLS_X25519_KEY_LEN);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_x25519);
