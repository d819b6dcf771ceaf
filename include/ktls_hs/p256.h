/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The P-256 API the rest of ktls_hs uses: ECDHE key pairs and shared
 * secrets, ECDSA signatures over a digest, and the DER form of those
 * signatures that TLS puts on the wire.  Keys and points are byte strings
 * in their SEC1 encodings, so no caller sees field or point types.  Every
 * function is constant time in its secrets, allocates nothing and may be
 * called from softirq.
 */
#ifndef _KTLS_HS_P256_H
#define _KTLS_HS_P256_H

#include <linux/types.h>

#define KTLS_P256_SCALAR_LEN	32
#define KTLS_P256_POINT_LEN	65	/* SEC1 uncompressed: 0x04 || X || Y */
#define KTLS_P256_SIG_LEN	(2 * KTLS_P256_SCALAR_LEN)
/* SEQUENCE { INTEGER r, INTEGER s }, each at most 33 bytes of content */
#define KTLS_P256_SIG_DER_MAX	72

/* pub = priv * G; priv big-endian, 1 <= priv < n, else -EINVAL */
int ktls_p256_public_key(u8 pub[KTLS_P256_POINT_LEN],
			 const u8 priv[KTLS_P256_SCALAR_LEN]);

/* fresh ECDHE key pair from the kernel RNG */
int ktls_p256_ecdh_keygen(u8 priv[KTLS_P256_SCALAR_LEN],
			  u8 pub[KTLS_P256_POINT_LEN]);

/* x coordinate of priv * peer; peer fully validated; -EINVAL on a bad peer point or infinity */
int ktls_p256_ecdh(u8 secret[KTLS_P256_SCALAR_LEN],
		   const u8 priv[KTLS_P256_SCALAR_LEN],
		   const u8 peer[KTLS_P256_POINT_LEN]);

/* r || s big-endian (64 bytes) over a message digest (any length, truncated per FIPS 186) */
int ktls_p256_ecdsa_sign(u8 sig[KTLS_P256_SIG_LEN],
			 const u8 priv[KTLS_P256_SCALAR_LEN],
			 const u8 *digest, size_t digest_len);

/* 0 if valid, -EBADMSG if not, -EINVAL on a malformed key */
int ktls_p256_ecdsa_verify(const u8 pub[KTLS_P256_POINT_LEN],
			   const u8 *digest, size_t digest_len,
			   const u8 sig[KTLS_P256_SIG_LEN]);

/*
 * r || s to a DER Ecdsa-Sig-Value in @der (room for @der_len bytes).
 * Returns the encoded length, or -ENOSPC.
 */
int ktls_p256_sig_to_der(u8 *der, size_t der_len,
			 const u8 sig[KTLS_P256_SIG_LEN]);

/*
 * Strict DER Ecdsa-Sig-Value to r || s.  Returns 0, or -EBADMSG on any
 * encoding that is not the one minimal DER form, or on r or s wider
 * than 32 bytes.  Range checks against n are left to verify.
 */
int ktls_p256_sig_from_der(u8 sig[KTLS_P256_SIG_LEN],
			   const u8 *der, size_t der_len);

#endif /* _KTLS_HS_P256_H */
