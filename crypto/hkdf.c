// SPDX-License-Identifier: GPL-2.0-only
/*
 * HMAC (RFC 2104), HKDF (RFC 5869) and the TLS 1.3 wrappers around it,
 * HKDF-Expand-Label and Derive-Secret (RFC 8446 section 7.1).
 *
 * HMAC is computed here over the shared unkeyed hash transforms rather
 * than through "hmac(sha256)": a keyed tfm holds its key in the tfm, so a
 * shared one would need a lock around every setkey+digest, and one tfm per
 * handshake would mean an allocation, which the softirq handshake cannot
 * make.  Instead struct ktls_hmac keeps the hash states after the ipad and
 * opad blocks, exported into caller memory; an HMAC is then import,
 * update, final, import, finup on a descriptor on the stack.
 */
#include <kunit/visibility.h>
#include <linux/string.h>

#include "kdf_priv.h"

#define KTLS_HMAC_IPAD	0x36
#define KTLS_HMAC_OPAD	0x5c

static const char ktls_tls13_prefix[] = "tls13 ";
#define KTLS_TLS13_PREFIX_LEN	(sizeof(ktls_tls13_prefix) - 1)

/* Hash one block and keep the state it leaves, for HMAC's two pads. */
static int ktls_hmac_pad_state(struct shash_desc *desc, const u8 *block,
			       unsigned int len, u8 *state)
{
	int err;

	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_update(desc, block, len);
	if (!err)
		err = crypto_shash_export(desc, state);
	return err;
}

int ktls_hmac_setkey(struct ktls_hmac *hmac, enum ktls_hash hash,
		     const u8 *key, size_t key_len)
{
	SHASH_DESC_ON_STACK(desc, NULL);
	u8 pad[KTLS_HASH_MAX_BLOCK];
	unsigned int block, i;
	int err;

	if (!ktls_hash_valid(hash) || (!key && key_len))
		return -EINVAL;

	block = ktls_hash_block_size(hash);
	desc->tfm = ktls_hash_tfm(hash);
	memset(pad, 0, sizeof(pad));
	if (key_len > block) {
		/* The descriptor serves here too: one less on the stack. */
		err = crypto_shash_init(desc);
		if (!err)
			err = ktls_hash_update(desc, key, key_len);
		if (!err)
			err = crypto_shash_final(desc, pad);
		if (err)
			goto out_desc;
	} else if (key_len) {
		memcpy(pad, key, key_len);
	}

	hmac->hash = hash;
	for (i = 0; i < block; i++)
		pad[i] ^= KTLS_HMAC_IPAD;
	err = ktls_hmac_pad_state(desc, pad, block, hmac->inner);
	if (err)
		goto out_desc;
	for (i = 0; i < block; i++)
		pad[i] ^= KTLS_HMAC_IPAD ^ KTLS_HMAC_OPAD;
	err = ktls_hmac_pad_state(desc, pad, block, hmac->outer);

out_desc:
	shash_desc_zero(desc);
	memzero_explicit(pad, sizeof(pad));
	if (err)
		ktls_hmac_wipe(hmac);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hmac_setkey);

/* Zero is KTLS_HASH_NONE: a wiped key refuses further use. */
void ktls_hmac_wipe(struct ktls_hmac *hmac)
{
	memzero_explicit(hmac, sizeof(*hmac));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hmac_wipe);

/*
 * HMAC over the concatenation of @n spans; @out has room for the output
 * of hmac->hash.  The caller has checked every argument.
 */
int ktls_hmac_spans(const struct ktls_hmac *hmac,
		    const struct ktls_span *spans, unsigned int n, u8 *out)
{
	SHASH_DESC_ON_STACK(desc, NULL);
	u8 inner[KTLS_HASH_MAX_SIZE];
	unsigned int i;
	int err;

	desc->tfm = ktls_hash_tfm(hmac->hash);
	err = crypto_shash_import(desc, hmac->inner);
	for (i = 0; !err && i < n; i++)
		err = ktls_hash_update(desc, spans[i].data, spans[i].len);
	if (!err)
		err = crypto_shash_final(desc, inner);
	if (!err)
		err = crypto_shash_import(desc, hmac->outer);
	if (!err)
		err = crypto_shash_finup(desc, inner, ktls_hash_size(hmac->hash),
					 out);

	memzero_explicit(inner, sizeof(inner));
	shash_desc_zero(desc);
	return err;
}

int ktls_hmac(const struct ktls_hmac *hmac, const u8 *data, size_t len,
	      u8 *out, size_t out_len)
{
	struct ktls_span span = { data, len };

	if (!ktls_hash_valid(hmac->hash) ||
	    !ktls_hash_len_ok(hmac->hash, out_len) || (!data && len))
		return -EINVAL;
	return ktls_hmac_spans(hmac, &span, 1, out);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hmac);

int ktls_hkdf_extract(enum ktls_hash hash, const u8 *salt, size_t salt_len,
		      const u8 *ikm, size_t ikm_len, u8 *prk, size_t prk_len)
{
	struct ktls_hmac hmac;
	int err;

	/*
	 * No salt is HashLen zero bytes (RFC 5869 2.2), which HMAC pads to
	 * the same block as an empty key: nothing to special-case.
	 */
	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, prk_len) ||
	    (!ikm && ikm_len))
		return -EINVAL;

	err = ktls_hmac_setkey(&hmac, hash, salt, salt_len);
	if (err)
		return err;
	err = ktls_hmac(&hmac, ikm, ikm_len, prk, prk_len);
	ktls_hmac_wipe(&hmac);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hkdf_extract);

/*
 * HKDF-Expand with the info given in spans: T(i) = HMAC(PRK, T(i-1) |
 * info | i).  @out may overlap @prk: the key is taken before any output
 * is written, which KeyUpdate relies on to replace a secret in place.
 */
static int ktls_hkdf_expand_spans(enum ktls_hash hash, const u8 *prk,
				  size_t prk_len,
				  const struct ktls_span *info,
				  unsigned int n_info, u8 *out,
				  size_t out_len)
{
	struct ktls_span spans[8];
	u8 block[KTLS_HASH_MAX_SIZE];
	unsigned int size, i;
	struct ktls_hmac hmac;
	u8 counter = 0;
	size_t done;
	int err;

	if (!ktls_hash_valid(hash) || !prk || !out || !out_len)
		return -EINVAL;
	size = ktls_hash_size(hash);
	/* RFC 5869 2.3: PRK of at least HashLen, at most 255 blocks out. */
	if (prk_len < size || out_len > 255 * size)
		return -EINVAL;
	if (WARN_ON_ONCE(n_info + 2 > ARRAY_SIZE(spans)))
		return -EINVAL;

	err = ktls_hmac_setkey(&hmac, hash, prk, prk_len);
	if (err)
		return err;

	/* spans[0] is T(i-1), empty for T(1); the counter goes last. */
	spans[0].data = block;
	spans[0].len = 0;
	for (i = 0; i < n_info; i++)
		spans[i + 1] = info[i];
	spans[n_info + 1].data = &counter;
	spans[n_info + 1].len = 1;

	for (done = 0; done < out_len; done += size) {
		counter++;
		err = ktls_hmac_spans(&hmac, spans, n_info + 2, block);
		if (err)
			break;
		spans[0].len = size;
		memcpy(out + done, block, min_t(size_t, size, out_len - done));
	}

	memzero_explicit(block, sizeof(block));
	ktls_hmac_wipe(&hmac);
	if (err)
		memzero_explicit(out, out_len);
	return err;
}

int ktls_hkdf_expand(enum ktls_hash hash, const u8 *prk, size_t prk_len,
		     const u8 *info, size_t info_len, u8 *out, size_t out_len)
{
	struct ktls_span span = { info, info_len };

	if (!info && info_len)
		return -EINVAL;
	return ktls_hkdf_expand_spans(hash, prk, prk_len, &span, 1, out,
				      out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hkdf_expand);

/*
 * struct {
 *	uint16 length = Length;
 *	opaque label<7..255> = "tls13 " + Label;
 *	opaque context<0..255> = Context;
 * } HkdfLabel;
 *
 * fed to HKDF-Expand piece by piece, never assembled.
 */
int ktls_hkdf_expand_label(enum ktls_hash hash, const u8 *secret,
			   size_t secret_len, const char *label,
			   size_t label_len, const u8 *ctx, size_t ctx_len,
			   u8 *out, size_t out_len)
{
	u8 head[3], ctx_head;
	struct ktls_span info[5] = {
		{ head, sizeof(head) },
		{ ktls_tls13_prefix, KTLS_TLS13_PREFIX_LEN },
		{ label, label_len },
		{ &ctx_head, 1 },
		{ ctx, ctx_len },
	};

	if (!label || !label_len || label_len > KTLS_TLS13_LABEL_MAX ||
	    (!ctx && ctx_len) || ctx_len > KTLS_TLS13_CONTEXT_MAX ||
	    out_len > U16_MAX)
		return -EINVAL;

	head[0] = out_len >> 8;
	head[1] = out_len & 0xff;
	head[2] = KTLS_TLS13_PREFIX_LEN + label_len;
	ctx_head = ctx_len;
	return ktls_hkdf_expand_spans(hash, secret, secret_len, info,
				      ARRAY_SIZE(info), out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hkdf_expand_label);

/*
 * Derive-Secret(Secret, Label, Messages) with Transcript-Hash(Messages)
 * already computed by the caller, who usually has it from a transcript
 * snapshot anyway.
 */
int ktls_tls13_derive_secret(enum ktls_hash hash, const u8 *secret,
			     size_t secret_len, const char *label,
			     size_t label_len, const u8 *transcript_hash,
			     size_t hash_len, u8 *out, size_t out_len)
{
	if (!ktls_hash_valid(hash) || !ktls_hash_len_ok(hash, secret_len) ||
	    !transcript_hash || !ktls_hash_len_ok(hash, hash_len) ||
	    !ktls_hash_len_ok(hash, out_len))
		return -EINVAL;
	return ktls_hkdf_expand_label(hash, secret, secret_len, label,
				      label_len, transcript_hash, hash_len,
				      out, out_len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_tls13_derive_secret);
