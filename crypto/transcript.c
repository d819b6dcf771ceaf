// SPDX-License-Identifier: GPL-2.0-only
/*
 * The handshake transcript hash: one running hash over the handshake
 * messages, from which TLS 1.3 (Derive-Secret, CertificateVerify,
 * Finished) and TLS 1.2 (Finished, the extended master secret) take
 * snapshots at several points without disturbing it, and the
 * HelloRetryRequest rule of RFC 8446 4.4.1 that replaces the first
 * ClientHello by a synthetic message_hash message.
 *
 * The running state is kept exported in struct ktls_transcript rather than
 * as a live shash_desc, so a transcript is a plain value the handshake can
 * embed and copy; every operation imports it into a descriptor on the
 * stack, which costs a copy of about 200 bytes per handshake message.
 */
#include <kunit/visibility.h>
#include <linux/string.h>

#include "kdf_priv.h"

/* HandshakeType message_hash (RFC 8446 4) */
#define KTLS_MSG_MESSAGE_HASH	254

int ktls_transcript_init(struct ktls_transcript *t, enum ktls_hash hash)
{
	SHASH_DESC_ON_STACK(desc, NULL);
	int err;

	if (!ktls_hash_valid(hash))
		return -EINVAL;

	desc->tfm = ktls_hash_tfm(hash);
	err = crypto_shash_init(desc);
	if (!err)
		err = crypto_shash_export(desc, t->state);
	shash_desc_zero(desc);
	t->hash = err ? KTLS_HASH_NONE : hash;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_transcript_init);

/* Feed one or more whole handshake messages, headers included. */
int ktls_transcript_update(struct ktls_transcript *t, const u8 *msg,
			   size_t len)
{
	SHASH_DESC_ON_STACK(desc, NULL);
	int err;

	if (!ktls_hash_valid(t->hash) || (!msg && len))
		return -EINVAL;

	desc->tfm = ktls_hash_tfm(t->hash);
	err = crypto_shash_import(desc, t->state);
	if (!err)
		err = ktls_hash_update(desc, msg, len);
	/* On failure the transcript keeps its old state. */
	if (!err)
		err = crypto_shash_export(desc, t->state);
	shash_desc_zero(desc);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_transcript_update);

/* Transcript-Hash of the messages so far; the transcript runs on. */
int ktls_transcript_digest(const struct ktls_transcript *t, u8 *out,
			   size_t out_len)
{
	SHASH_DESC_ON_STACK(desc, NULL);
	int err;

	if (!ktls_hash_valid(t->hash) || !out ||
	    !ktls_hash_len_ok(t->hash, out_len))
		return -EINVAL;

	desc->tfm = ktls_hash_tfm(t->hash);
	err = crypto_shash_import(desc, t->state);
	if (!err)
		err = crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_transcript_digest);

/*
 * After a HelloRetryRequest: the transcript so far, ClientHello1 alone,
 * becomes
 *
 *	message_hash || 00 00 Hash.length || Hash(ClientHello1)
 *
 * Call it after ClientHello1 and before the HelloRetryRequest itself.
 */
int ktls_transcript_hrr(struct ktls_transcript *t)
{
	u8 msg[4 + KTLS_HASH_MAX_SIZE];
	size_t size;
	int err;

	if (!ktls_hash_valid(t->hash))
		return -EINVAL;
	size = ktls_hash_size(t->hash);

	msg[0] = KTLS_MSG_MESSAGE_HASH;
	msg[1] = 0;
	msg[2] = 0;
	msg[3] = size;
	err = ktls_transcript_digest(t, msg + 4, size);
	if (!err)
		err = ktls_transcript_init(t, t->hash);
	if (!err)
		err = ktls_transcript_update(t, msg, 4 + size);
	memzero_explicit(msg, sizeof(msg));
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_transcript_hrr);

void ktls_transcript_clone(struct ktls_transcript *dst,
			   const struct ktls_transcript *src)
{
	memcpy(dst, src, sizeof(*dst));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_transcript_clone);

void ktls_transcript_wipe(struct ktls_transcript *t)
{
	/* Zero is KTLS_HASH_NONE: a wiped transcript refuses further use. */
	memzero_explicit(t, sizeof(*t));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_transcript_wipe);
