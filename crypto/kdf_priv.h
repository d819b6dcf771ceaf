/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of crypto/ behind include/ktls_hs/kdf.h share among
 * themselves: the shared hash transforms and HMAC over a message given in
 * pieces, so that HkdfLabel and the PRF seed are never assembled in a
 * buffer.
 */
#ifndef _KTLS_HS_KDF_PRIV_H
#define _KTLS_HS_KDF_PRIV_H

#include <crypto/hash.h>
#include <ktls_hs/kdf.h>

struct ktls_span {
	const void *data;
	size_t len;
};

static inline bool ktls_hash_valid(enum ktls_hash hash)
{
	return hash > KTLS_HASH_NONE && hash < KTLS_HASH_NR;
}

/* True if @len is the output length of @hash, which must be valid. */
static inline bool ktls_hash_len_ok(enum ktls_hash hash, size_t len)
{
	return len == (size_t)ktls_hash_size(hash);
}

unsigned int ktls_hash_block_size(enum ktls_hash hash);
struct crypto_shash *ktls_hash_tfm(enum ktls_hash hash);
const u8 *ktls_hash_empty(enum ktls_hash hash);
int ktls_hash_update(struct shash_desc *desc, const void *data, size_t len);

int ktls_hmac_spans(const struct ktls_hmac *hmac,
		    const struct ktls_span *spans, unsigned int n, u8 *out);

#endif /* _KTLS_HS_KDF_PRIV_H */
