/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * X25519 (RFC 7748) for the handshake's key exchange, in the shape of the
 * P-256 ECDHE calls of p256.h: keys are the 32-byte strings TLS puts in
 * a key_share.  The arithmetic is the kernel's curve25519 library, which
 * allocates nothing and may be called from softirq.
 */
#ifndef _KTLS_HS_X25519_H
#define _KTLS_HS_X25519_H

#include <linux/types.h>

#define KTLS_X25519_KEY_LEN	32

/* fresh key pair from the kernel RNG; the private key comes out clamped */
int ktls_x25519_keygen(u8 priv[KTLS_X25519_KEY_LEN],
		       u8 pub[KTLS_X25519_KEY_LEN]);

/*
 * The shared secret of @priv and the peer's public key; -EINVAL if it is
 * all zeros (a small-order peer key), which RFC 8446 section 7.4.2 says
 * to refuse.  @secret is zeroed then.
 */
int ktls_x25519(u8 secret[KTLS_X25519_KEY_LEN],
		const u8 priv[KTLS_X25519_KEY_LEN],
		const u8 peer[KTLS_X25519_KEY_LEN]);

#endif /* _KTLS_HS_X25519_H */
