// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLS 1.2 PRF (RFC 5246 section 5) and what the handshake makes with
 * it: the master secret, classic (RFC 5246 8.1) or extended (RFC 7627 4),
 * the key_block (RFC 5246 6.3) and Finished verify_data (RFC 5246 7.4.9).
 * The hash is the cipher suite's PRF hash, SHA-256 or SHA-384.
 */
#include <kunit/visibility.h>
#include <linux/string.h>

#include "kdf_priv.h"

/* Most seed pieces any caller here passes: two randoms. */
#define KTLS_PRF_SEED_SPANS	2

/*
 * P_hash(secret, label + seed), seed given in pieces:
 *
 *	A(0) = label + seed, A(i) = HMAC(secret, A(i-1))
 *	output = HMAC(secret, A(1) + label + seed) +
 *		 HMAC(secret, A(2) + label + seed) + ...
 */
static int ktls_p_hash(enum ktls_hash hash, const u8 *secret,
		       size_t secret_len, const char *label, size_t label_len,
		       const struct ktls_span *seed, unsigned int n_seed,
		       u8 *out, size_t out_len)
{
	struct ktls_span spans[KTLS_PRF_SEED_SPANS + 2];
	u8 a[KTLS_HASH_MAX_SIZE], block[KTLS_HASH_MAX_SIZE];
	struct ktls_span a_span = { a, 0 };
	struct ktls_hmac hmac;
	unsigned int size, i;
	size_t done;
	int err;

	if (!ktls_hash_valid(hash) || (!secret && secret_len) || !label ||
	    !label_len || !out || !out_len)
		return -EINVAL;
	size = ktls_hash_size(hash);

	err = ktls_hmac_setkey(&hmac, hash, secret, secret_len);
	if (err)
		return err;

	/* spans[0] is A(i); A(1) is the HMAC of the rest alone. */
	spans[1].data = label;
	spans[1].len = label_len;
	for (i = 0; i < n_seed; i++)
		spans[i + 2] = seed[i];

	err = ktls_hmac_spans(&hmac, spans + 1, n_seed + 1, a);
	a_span.len = size;
	spans[0] = a_span;
	for (done = 0; !err && done < out_len; done += size) {
		err = ktls_hmac_spans(&hmac, spans, n_seed + 2, block);
		if (err)
			break;
		memcpy(out + done, block, min_t(size_t, size, out_len - done));
		if (done + size < out_len)
			err = ktls_hmac_spans(&hmac, &a_span, 1, a);
	}

	memzero_explicit(a, sizeof(a));
	memzero_explicit(block, sizeof(block));
	ktls_hmac_wipe(&hmac);
	if (err)
		memzero_explicit(out, out_len);
	return err;
}

/* P_hash with one of our own, NUL-terminated, labels */
static int ktls_prf(enum ktls_hash hash, const u8 *secret, size_t secret_len,
		    const char *label, const struct ktls_span *seed,
		    unsigned int n_seed, u8 *out, size_t out_len)
{
	return ktls_p_hash(hash, secret, secret_len, label, strlen(label),
			   seed, n_seed, out, out_len);
}

int ktls_tls12_prf(enum ktls_hash hash, const u8 *secret, size_t secret_len,
		   const char *label, size_t label_len, const u8 *seed,
		   size_t seed_len, u8 *out, size_t out_len)
{
	struct ktls_span span = { seed, seed_len };

	if (!seed && seed_len)
		return -EINVAL;
	return ktls_p_hash(hash, secret, secret_len, label, label_len, &span,
			   1, out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls12_prf);

/* master_secret = PRF(pms, "master secret", client + server random) */
int ktls_tls12_master_secret(enum ktls_hash hash, const u8 *pms,
			     size_t pms_len,
			     const u8 client_random[KTLS_TLS12_RANDOM_SIZE],
			     const u8 server_random[KTLS_TLS12_RANDOM_SIZE],
			     u8 *out, size_t out_len)
{
	struct ktls_span seed[] = {
		{ client_random, KTLS_TLS12_RANDOM_SIZE },
		{ server_random, KTLS_TLS12_RANDOM_SIZE },
	};

	if (!pms || !pms_len || !client_random || !server_random ||
	    out_len != KTLS_TLS12_MASTER_SIZE)
		return -EINVAL;
	return ktls_prf(hash, pms, pms_len, "master secret", seed,
			ARRAY_SIZE(seed), out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls12_master_secret);

/*
 * RFC 7627: PRF(pms, "extended master secret", session_hash), the
 * session_hash being the transcript hash through ClientKeyExchange.
 */
int ktls_tls12_extended_master_secret(enum ktls_hash hash, const u8 *pms,
				      size_t pms_len, const u8 *session_hash,
				      size_t hash_len, u8 *out,
				      size_t out_len)
{
	struct ktls_span seed = { session_hash, hash_len };

	if (!ktls_hash_valid(hash) || !pms || !pms_len || !session_hash ||
	    !ktls_hash_len_ok(hash, hash_len) ||
	    out_len != KTLS_TLS12_MASTER_SIZE)
		return -EINVAL;
	return ktls_prf(hash, pms, pms_len, "extended master secret", &seed, 1,
			out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls12_extended_master_secret);

/*
 * key_block = PRF(master, "key expansion", server + client random): note
 * the randoms in the other order than for the master secret.  @out_len is
 * what the cipher suite needs (for AEAD suites, two keys and two IVs).
 */
int ktls_tls12_key_block(enum ktls_hash hash, const u8 *master,
			 size_t master_len,
			 const u8 client_random[KTLS_TLS12_RANDOM_SIZE],
			 const u8 server_random[KTLS_TLS12_RANDOM_SIZE],
			 u8 *out, size_t out_len)
{
	struct ktls_span seed[] = {
		{ server_random, KTLS_TLS12_RANDOM_SIZE },
		{ client_random, KTLS_TLS12_RANDOM_SIZE },
	};

	if (!master || master_len != KTLS_TLS12_MASTER_SIZE ||
	    !client_random || !server_random)
		return -EINVAL;
	return ktls_prf(hash, master, master_len, "key expansion", seed,
			ARRAY_SIZE(seed), out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls12_key_block);

/*
 * verify_data = PRF(master, finished_label, Hash(handshake_messages)),
 * 12 bytes for every cipher suite we support.  The caller compares a
 * peer's with crypto_memneq().
 */
int ktls_tls12_finished(enum ktls_hash hash, const u8 *master,
			size_t master_len, bool from_server,
			const u8 *transcript_hash, size_t hash_len,
			u8 *verify_data, size_t vd_len)
{
	struct ktls_span seed = { transcript_hash, hash_len };

	if (!ktls_hash_valid(hash) || !master ||
	    master_len != KTLS_TLS12_MASTER_SIZE || !transcript_hash ||
	    !ktls_hash_len_ok(hash, hash_len) ||
	    vd_len != KTLS_TLS12_VERIFY_DATA_SIZE)
		return -EINVAL;
	return ktls_prf(hash, master, master_len,
			from_server ? "server finished" : "client finished",
			&seed, 1, verify_data, vd_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls12_finished);
