/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktls-hs AEAD for the handshake's own records: AES-GCM (128 and 256-bit
 * keys), AES-CCM (128-bit key, RFC 3610 / NIST SP 800-38C) and
 * ChaCha20-Poly1305 (RFC 8439), all with TLS 1.3's 96-bit nonce and
 * 16-byte tag.
 *
 * The kernel handshake seals and opens its records in softirq context,
 * where the crypto API cannot serve it: allocating a transform may sleep
 * and keying the generic GCM template allocates.  These functions are
 * built on the kernel's library primitives instead; they never sleep,
 * never allocate and never use the FPU, and all state lives in struct
 * ktls_lib_aead, a plain value in caller memory.  The record layer keeps
 * using the crypto API for application data.
 */
#ifndef _KTLS_HS_AEAD_LIB_H
#define _KTLS_HS_AEAD_LIB_H

#include <crypto/aes.h>
#include <crypto/chacha.h>
#include <linux/bits.h>
#include <linux/types.h>
#include <ktls_hs/compat_crypto.h>

#define KTLS_LIB_AEAD_NONCE_SIZE	12
#define KTLS_LIB_AEAD_TAG_SIZE		16

/*
 * Longest message one call may seal or open.  Either cipher's block
 * counter covers far more; this bound only keeps every length a u32 and
 * is orders of magnitude above a TLS record.
 */
#define KTLS_LIB_AEAD_MAX_LEN		U32_MAX
/*
 * AES-CCM with a 12-byte nonce leaves 3 bytes for the message length
 * (RFC 3610 2.1, L = 3): its messages stop here instead.
 */
#define KTLS_LIB_AEAD_CCM_MAX_LEN	(BIT(24) - 1)

/* Zeroed memory is no key: a context never keyed, or wiped, is refused. */
enum ktls_lib_aead_alg {
	KTLS_LIB_AEAD_NONE,
	KTLS_LIB_AES_GCM,
	KTLS_LIB_CHACHA20_POLY1305,
	KTLS_LIB_AES_CCM,
};

/**
 * struct ktls_lib_aead - a keyed AEAD
 * @alg:	the algorithm, or %KTLS_LIB_AEAD_NONE before setkey
 * @gcm.aes:	AES key schedule
 * @gcm.h:	the GHASH key H = AES_K(0^128), as two big-endian halves
 * @chacha_key:	the ChaCha20 key as the cipher's eight state words
 * @ccm_aes:	AES key schedule of AES-CCM
 *
 * Holds key material and no pointers, so it may be copied, kept in a
 * handshake's per-CPU pool and cleared with ktls_lib_aead_wipe().
 */
struct ktls_lib_aead {
	enum ktls_lib_aead_alg alg;
	union {
		struct {
			struct ktls_aes_enckey aes;
			u64 h[2];
		} gcm;
		u32 chacha_key[CHACHA_KEY_SIZE / sizeof(u32)];
		struct ktls_aes_enckey ccm_aes;
	};
};

/*
 * Key @a for @alg: a 16 or 32-byte key for AES-GCM, a 16-byte key for
 * AES-CCM, a 32-byte key for ChaCha20-Poly1305.  -EINVAL for another length or algorithm, leaving
 * @a unkeyed.
 */
int ktls_lib_aead_setkey(struct ktls_lib_aead *a, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len);

/*
 * Encrypt the @len bytes at @buf in place and write the tag to
 * @buf + @len, so @buf must have room for @len + KTLS_LIB_AEAD_TAG_SIZE
 * bytes.  @aad may be NULL when @aad_len is 0.  -EINVAL if @a is not keyed
 * or @len exceeds KTLS_LIB_AEAD_MAX_LEN (KTLS_LIB_AEAD_CCM_MAX_LEN for
 * AES-CCM); @buf is then left untouched.
 */
int ktls_lib_aead_seal(const struct ktls_lib_aead *a,
		       const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE],
		       const u8 *aad, size_t aad_len, u8 *buf, size_t len);

/*
 * Authenticate and decrypt in place: @len counts the tag, the plaintext
 * is the first @len - KTLS_LIB_AEAD_TAG_SIZE bytes of @buf.  The tag is
 * checked, in constant time, before anything is decrypted.  -EBADMSG if
 * it does not match or @len is shorter than a tag, -EINVAL if @a is not
 * keyed or @len exceeds KTLS_LIB_AEAD_MAX_LEN + KTLS_LIB_AEAD_TAG_SIZE
 * (KTLS_LIB_AEAD_CCM_MAX_LEN + KTLS_LIB_AEAD_TAG_SIZE for AES-CCM).
 * On any failure all @len bytes of @buf are zeroed, so that a caller
 * that ignores the error finds neither plaintext nor attacker-chosen
 * bytes there.
 */
int ktls_lib_aead_open(const struct ktls_lib_aead *a,
		       const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE],
		       const u8 *aad, size_t aad_len, u8 *buf, size_t len);

/* Clear the key material; @a is unkeyed afterwards. */
void ktls_lib_aead_wipe(struct ktls_lib_aead *a);

#endif /* _KTLS_HS_AEAD_LIB_H */
