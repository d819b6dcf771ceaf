// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLS 1.3 key schedule (RFC 8446 section 7): early, handshake and
 * master secrets, the secrets derived from them over the transcript, the
 * traffic key and IV of each traffic secret, KeyUpdate's next generation,
 * Finished keys and verify_data, and the PSK binder key and resumption
 * PSK of session resumption.
 *
 * The caller owns every secret and decides when it dies; what this file
 * computes on the way (the "derived" salts, Finished keys) it wipes.
 */
#include <crypto/algapi.h>
#include <kunit/visibility.h>
#include <linux/string.h>

#include "kdf_priv.h"

static const char * const ktls_tls13_labels[KTLS_TLS13_SECRET_NR] = {
	[KTLS_TLS13_C_E_TRAFFIC]	= "c e traffic",
	[KTLS_TLS13_E_EXP_MASTER]	= "e exp master",
	[KTLS_TLS13_C_HS_TRAFFIC]	= "c hs traffic",
	[KTLS_TLS13_S_HS_TRAFFIC]	= "s hs traffic",
	[KTLS_TLS13_C_AP_TRAFFIC]	= "c ap traffic",
	[KTLS_TLS13_S_AP_TRAFFIC]	= "s ap traffic",
	[KTLS_TLS13_EXP_MASTER]		= "exp master",
	[KTLS_TLS13_RES_MASTER]		= "res master",
};

/* HKDF-Expand-Label with one of our own, NUL-terminated, labels */
static int ktls_tls13_expand(enum ktls_hash hash, const u8 *secret,
			     size_t secret_len, const char *label,
			     const u8 *ctx, size_t ctx_len, u8 *out,
			     size_t out_len)
{
	return ktls_hkdf_expand_label(hash, secret, secret_len, label,
				      strlen(label), ctx, ctx_len, out,
				      out_len);
}

/* Derive-Secret(Secret, Label, ""); @hash is valid. */
static int ktls_tls13_derive_empty(enum ktls_hash hash, const u8 *secret,
				   size_t secret_len, const char *label,
				   u8 *out, size_t out_len)
{
	return ktls_tls13_derive_secret(hash, secret, secret_len, label,
					strlen(label), ktls_hash_empty(hash),
					ktls_hash_size(hash), out, out_len);
}

/*
 * HKDF-Extract(Derive-Secret(@prev, "derived", ""), @ikm): the step from
 * one stage of the schedule to the next.  An absent @ikm is the 0-value.
 */
static int ktls_tls13_next_stage(enum ktls_hash hash, const u8 *prev,
				 size_t prev_len, const u8 *ikm,
				 size_t ikm_len, u8 *out, size_t out_len)
{
	u8 salt[KTLS_HASH_MAX_SIZE];
	u8 zeros[KTLS_HASH_MAX_SIZE] = {};
	size_t size;
	int err;

	if (!ktls_hash_valid(hash))
		return -EINVAL;
	size = ktls_hash_size(hash);
	if (!ikm) {
		if (ikm_len)
			return -EINVAL;
		ikm = zeros;
		ikm_len = size;
	}

	err = ktls_tls13_derive_empty(hash, prev, prev_len, "derived", salt,
				      size);
	if (!err)
		err = ktls_hkdf_extract(hash, salt, size, ikm, ikm_len, out,
					out_len);
	memzero_explicit(salt, sizeof(salt));
	return err;
}

/*
 * Early Secret = HKDF-Extract(0, PSK), with the 0-value for PSK when
 * there is none (@psk NULL, @psk_len 0).
 */
int ktls_tls13_early_secret(enum ktls_hash hash, const u8 *psk,
			    size_t psk_len, u8 *out, size_t out_len)
{
	u8 zeros[KTLS_HASH_MAX_SIZE] = {};

	if (!ktls_hash_valid(hash))
		return -EINVAL;
	if (!psk) {
		if (psk_len)
			return -EINVAL;
		psk = zeros;
		psk_len = ktls_hash_size(hash);
	}
	return ktls_hkdf_extract(hash, NULL, 0, psk, psk_len, out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_early_secret);

/* @shared is the (EC)DHE shared secret; a PSK-only handshake passes NULL. */
int ktls_tls13_handshake_secret(enum ktls_hash hash, const u8 *early,
				size_t early_len, const u8 *shared,
				size_t shared_len, u8 *out, size_t out_len)
{
	return ktls_tls13_next_stage(hash, early, early_len, shared,
				     shared_len, out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_handshake_secret);

int ktls_tls13_master_secret(enum ktls_hash hash, const u8 *hs_secret,
			     size_t hs_len, u8 *out, size_t out_len)
{
	return ktls_tls13_next_stage(hash, hs_secret, hs_len, NULL, 0, out,
				     out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_master_secret);

int ktls_tls13_derive(enum ktls_hash hash, enum ktls_tls13_secret which,
		      const u8 *secret, size_t secret_len,
		      const u8 *transcript_hash, size_t hash_len,
		      u8 *out, size_t out_len)
{
	const char *label;

	if ((unsigned int)which >= KTLS_TLS13_SECRET_NR)
		return -EINVAL;
	label = ktls_tls13_labels[which];
	return ktls_tls13_derive_secret(hash, secret, secret_len, label,
					strlen(label), transcript_hash,
					hash_len, out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_derive);

/*
 * The record protection key and IV of one traffic secret (RFC 8446 7.3).
 * The lengths are the AEAD's; the IV is at least 8 bytes (RFC 8446 5.3).
 */
int ktls_tls13_traffic_keys(enum ktls_hash hash, const u8 *secret,
			    size_t secret_len, u8 *key, size_t key_len,
			    u8 *iv, size_t iv_len)
{
	int err;

	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, secret_len) ||
	    !key_len || iv_len < 8)
		return -EINVAL;

	err = ktls_tls13_expand(hash, secret, secret_len, "key", NULL, 0, key,
				key_len);
	if (err)
		return err;
	err = ktls_tls13_expand(hash, secret, secret_len, "iv", NULL, 0, iv,
				iv_len);
	if (err)
		memzero_explicit(key, key_len);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_traffic_keys);

/*
 * application_traffic_secret_N+1 for KeyUpdate (RFC 8446 7.2).  @out may
 * be @secret itself, so the old generation is gone once this returns.
 */
int ktls_tls13_next_secret(enum ktls_hash hash, const u8 *secret,
			   size_t secret_len, u8 *out, size_t out_len)
{
	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, secret_len) ||
	    !ktls_hash_len_ok(hash, out_len))
		return -EINVAL;
	return ktls_tls13_expand(hash, secret, secret_len, "traffic upd", NULL,
				 0, out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_next_secret);

/* finished_key from a handshake traffic secret or a binder key (4.4.4) */
int ktls_tls13_finished_key(enum ktls_hash hash, const u8 *base_key,
			    size_t base_len, u8 *out, size_t out_len)
{
	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, base_len) ||
	    !ktls_hash_len_ok(hash, out_len))
		return -EINVAL;
	return ktls_tls13_expand(hash, base_key, base_len, "finished", NULL, 0,
				 out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_finished_key);

/*
 * verify_data = HMAC(finished_key, Transcript-Hash(...)).  The same
 * computation gives a PSK binder from the binder key and the hash of the
 * truncated ClientHello.
 */
int ktls_tls13_finished(enum ktls_hash hash, const u8 *base_key,
			size_t base_len, const u8 *transcript_hash,
			size_t hash_len, u8 *verify_data, size_t vd_len)
{
	u8 fkey[KTLS_HASH_MAX_SIZE];
	struct ktls_hmac hmac;
	size_t size;
	int err;

	if (!ktls_hash_valid(hash) || !transcript_hash ||
	    !ktls_hash_len_ok(hash, hash_len) ||
	    !ktls_hash_len_ok(hash, vd_len))
		return -EINVAL;
	size = ktls_hash_size(hash);

	err = ktls_tls13_finished_key(hash, base_key, base_len, fkey, size);
	if (err)
		goto out;
	err = ktls_hmac_setkey(&hmac, hash, fkey, size);
	if (err)
		goto out;
	err = ktls_hmac(&hmac, transcript_hash, hash_len, verify_data, vd_len);
	ktls_hmac_wipe(&hmac);
out:
	memzero_explicit(fkey, sizeof(fkey));
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_finished);

/*
 * Check a peer's Finished (or binder) in constant time: 0 if it matches,
 * -EBADMSG if not, so the caller sends decrypt_error.
 */
int ktls_tls13_finished_check(enum ktls_hash hash, const u8 *base_key,
			      size_t base_len, const u8 *transcript_hash,
			      size_t hash_len, const u8 *verify_data,
			      size_t vd_len)
{
	u8 expect[KTLS_HASH_MAX_SIZE];
	int err;

	if (!ktls_hash_valid(hash) || !verify_data)
		return -EINVAL;
	/* A verify_data of the wrong length is a mismatch, not a bug. */
	if (!ktls_hash_len_ok(hash, vd_len))
		return -EBADMSG;

	err = ktls_tls13_finished(hash, base_key, base_len, transcript_hash,
				  hash_len, expect, vd_len);
	if (!err && crypto_memneq(expect, verify_data, vd_len))
		err = -EBADMSG;
	memzero_explicit(expect, sizeof(expect));
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_finished_check);

/* binder_key: "res binder" for resumption PSKs, "ext binder" otherwise */
int ktls_tls13_binder_key(enum ktls_hash hash, const u8 *early,
			  size_t early_len, bool resumption, u8 *out,
			  size_t out_len)
{
	if (!ktls_hash_valid(hash))
		return -EINVAL;
	return ktls_tls13_derive_empty(hash, early, early_len,
				       resumption ? "res binder" : "ext binder",
				       out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_binder_key);

/* The PSK of the ticket sent with @nonce (RFC 8446 4.6.1) */
int ktls_tls13_resumption_psk(enum ktls_hash hash, const u8 *res_master,
			      size_t rm_len, const u8 *nonce,
			      size_t nonce_len, u8 *out, size_t out_len)
{
	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, rm_len) ||
	    !ktls_hash_len_ok(hash, out_len))
		return -EINVAL;
	return ktls_tls13_expand(hash, res_master, rm_len, "resumption", nonce,
				 nonce_len, out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_resumption_psk);
