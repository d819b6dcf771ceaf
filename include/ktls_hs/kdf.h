/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktls-hs hashes and key derivation for the TLS handshake: the running
 * transcript hash, HMAC, HKDF (RFC 5869), the TLS 1.3 key schedule
 * (RFC 8446 section 7) and the TLS 1.2 PRF (RFC 5246 section 5, with the
 * extended master secret of RFC 7627).
 *
 * Everything here may run in softirq context: nothing sleeps or allocates.
 * The hash transforms are allocated once by ktls_kdf_init() and shared;
 * all per-use state lives in caller memory.  Buffers come with explicit
 * lengths and a secret's length always equals the output length of the
 * hash it belongs to.  Every function that can fail returns 0 or a
 * negative errno (-EINVAL for a bad argument) and leaves no secret behind
 * on the stack.
 */
#ifndef _KTLS_HS_KDF_H
#define _KTLS_HS_KDF_H

#include <linux/types.h>

/* Zeroed memory is no hash: a transcript or key never set up is refused. */
enum ktls_hash {
	KTLS_HASH_NONE,
	KTLS_HASH_SHA256,
	KTLS_HASH_SHA384,
	KTLS_HASH_NR,
};

#define KTLS_HASH_MAX_SIZE	48	/* SHA-384 */
#define KTLS_HASH_MAX_BLOCK	128	/* SHA-384 */

/*
 * Room for the exported running state of either hash.  The SHA-2
 * implementations of 6.1 and 6.12 export their descriptor context, at
 * most a struct sha512_state (208 bytes); newer kernels' shash (7.3's)
 * exports the library's context followed by one byte, the length of
 * the partial block (209).  Rounded up to the alignment;
 * ktls_kdf_init() refuses an implementation that needs more.
 */
#define KTLS_HASH_STATE_SIZE	216

int ktls_kdf_init(void);
void ktls_kdf_exit(void);

/* Output length of @hash in bytes, or -EINVAL. */
int ktls_hash_size(enum ktls_hash hash);
int ktls_hash_digest(enum ktls_hash hash, const u8 *data, size_t len,
		     u8 *out, size_t out_len);

/**
 * struct ktls_transcript - running hash of the handshake messages
 * @hash:	the hash of the negotiated cipher suite or PRF
 * @state:	exported hash state after the messages so far
 *
 * A plain value: it may be copied (ktls_transcript_clone()) to keep the
 * hash at one point of the handshake while the original moves on.
 */
struct ktls_transcript {
	enum ktls_hash hash;
	u8 state[KTLS_HASH_STATE_SIZE] __aligned(8);
};

int ktls_transcript_init(struct ktls_transcript *t, enum ktls_hash hash);
int ktls_transcript_update(struct ktls_transcript *t, const u8 *msg,
			   size_t len);
int ktls_transcript_digest(const struct ktls_transcript *t, u8 *out,
			   size_t out_len);
int ktls_transcript_hrr(struct ktls_transcript *t);
void ktls_transcript_clone(struct ktls_transcript *dst,
			   const struct ktls_transcript *src);
void ktls_transcript_wipe(struct ktls_transcript *t);

/**
 * struct ktls_hmac - an HMAC key, ready to use
 * @hash:	the underlying hash
 * @inner:	hash state after the key XOR ipad block
 * @outer:	hash state after the key XOR opad block
 *
 * The two states are as secret as the key itself: ktls_hmac_wipe() them.
 */
struct ktls_hmac {
	enum ktls_hash hash;
	u8 inner[KTLS_HASH_STATE_SIZE] __aligned(8);
	u8 outer[KTLS_HASH_STATE_SIZE] __aligned(8);
};

int ktls_hmac_setkey(struct ktls_hmac *hmac, enum ktls_hash hash,
		     const u8 *key, size_t key_len);
int ktls_hmac(const struct ktls_hmac *hmac, const u8 *data, size_t len,
	      u8 *out, size_t out_len);
void ktls_hmac_wipe(struct ktls_hmac *hmac);

/* HKDF, RFC 5869; an absent salt (NULL, 0) means HashLen zero bytes. */
int ktls_hkdf_extract(enum ktls_hash hash, const u8 *salt, size_t salt_len,
		      const u8 *ikm, size_t ikm_len, u8 *prk, size_t prk_len);
int ktls_hkdf_expand(enum ktls_hash hash, const u8 *prk, size_t prk_len,
		     const u8 *info, size_t info_len, u8 *out, size_t out_len);

/* Longest label HKDF-Expand-Label takes: 255 minus "tls13 " */
#define KTLS_TLS13_LABEL_MAX	249
#define KTLS_TLS13_CONTEXT_MAX	255

/* HKDF-Expand-Label and Derive-Secret, RFC 8446 section 7.1 */
int ktls_hkdf_expand_label(enum ktls_hash hash, const u8 *secret,
			   size_t secret_len, const char *label,
			   size_t label_len, const u8 *ctx, size_t ctx_len,
			   u8 *out, size_t out_len);
int ktls_tls13_derive_secret(enum ktls_hash hash, const u8 *secret,
			     size_t secret_len, const char *label,
			     size_t label_len, const u8 *transcript_hash,
			     size_t hash_len, u8 *out, size_t out_len);

/*
 * The secrets Derive-Secret makes from the early, handshake and master
 * secrets, with the transcript each one is taken over (RFC 8446 7.1).
 */
enum ktls_tls13_secret {
	KTLS_TLS13_C_E_TRAFFIC,		/* early: ClientHello */
	KTLS_TLS13_E_EXP_MASTER,	/* early: ClientHello */
	KTLS_TLS13_C_HS_TRAFFIC,	/* handshake: ..ServerHello */
	KTLS_TLS13_S_HS_TRAFFIC,	/* handshake: ..ServerHello */
	KTLS_TLS13_C_AP_TRAFFIC,	/* master: ..server Finished */
	KTLS_TLS13_S_AP_TRAFFIC,	/* master: ..server Finished */
	KTLS_TLS13_EXP_MASTER,		/* master: ..server Finished */
	KTLS_TLS13_RES_MASTER,		/* master: ..client Finished */
	KTLS_TLS13_SECRET_NR,
};

/* TLS 1.3 key schedule, RFC 8446 sections 4.4.4, 4.6.1, 4.6.3, 7.1, 7.3 */
int ktls_tls13_early_secret(enum ktls_hash hash, const u8 *psk,
			    size_t psk_len, u8 *out, size_t out_len);
int ktls_tls13_handshake_secret(enum ktls_hash hash, const u8 *early,
				size_t early_len, const u8 *shared,
				size_t shared_len, u8 *out, size_t out_len);
int ktls_tls13_master_secret(enum ktls_hash hash, const u8 *hs_secret,
			     size_t hs_len, u8 *out, size_t out_len);
int ktls_tls13_derive(enum ktls_hash hash, enum ktls_tls13_secret which,
		      const u8 *secret, size_t secret_len,
		      const u8 *transcript_hash, size_t hash_len,
		      u8 *out, size_t out_len);
int ktls_tls13_traffic_keys(enum ktls_hash hash, const u8 *secret,
			    size_t secret_len, u8 *key, size_t key_len,
			    u8 *iv, size_t iv_len);
int ktls_tls13_next_secret(enum ktls_hash hash, const u8 *secret,
			   size_t secret_len, u8 *out, size_t out_len);
int ktls_tls13_finished_key(enum ktls_hash hash, const u8 *base_key,
			    size_t base_len, u8 *out, size_t out_len);
int ktls_tls13_finished(enum ktls_hash hash, const u8 *base_key,
			size_t base_len, const u8 *transcript_hash,
			size_t hash_len, u8 *verify_data, size_t vd_len);
int ktls_tls13_finished_check(enum ktls_hash hash, const u8 *base_key,
			      size_t base_len, const u8 *transcript_hash,
			      size_t hash_len, const u8 *verify_data,
			      size_t vd_len);
int ktls_tls13_binder_key(enum ktls_hash hash, const u8 *early,
			  size_t early_len, bool resumption, u8 *out,
			  size_t out_len);
int ktls_tls13_resumption_psk(enum ktls_hash hash, const u8 *res_master,
			      size_t rm_len, const u8 *nonce,
			      size_t nonce_len, u8 *out, size_t out_len);

/* TLS 1.2, RFC 5246 and RFC 7627 */
#define KTLS_TLS12_RANDOM_SIZE		32
#define KTLS_TLS12_MASTER_SIZE		48
#define KTLS_TLS12_VERIFY_DATA_SIZE	12

int ktls_tls12_prf(enum ktls_hash hash, const u8 *secret, size_t secret_len,
		   const char *label, size_t label_len, const u8 *seed,
		   size_t seed_len, u8 *out, size_t out_len);
int ktls_tls12_master_secret(enum ktls_hash hash, const u8 *pms,
			     size_t pms_len,
			     const u8 client_random[KTLS_TLS12_RANDOM_SIZE],
			     const u8 server_random[KTLS_TLS12_RANDOM_SIZE],
			     u8 *out, size_t out_len);
int ktls_tls12_extended_master_secret(enum ktls_hash hash, const u8 *pms,
				      size_t pms_len, const u8 *session_hash,
				      size_t hash_len, u8 *out,
				      size_t out_len);
int ktls_tls12_key_block(enum ktls_hash hash, const u8 *master,
			 size_t master_len,
			 const u8 client_random[KTLS_TLS12_RANDOM_SIZE],
			 const u8 server_random[KTLS_TLS12_RANDOM_SIZE],
			 u8 *out, size_t out_len);
int ktls_tls12_finished(enum ktls_hash hash, const u8 *master,
			size_t master_len, bool from_server,
			const u8 *transcript_hash, size_t hash_len,
			u8 *verify_data, size_t vd_len);

#endif /* _KTLS_HS_KDF_H */
