// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sealed form of a session ticket, and its sealing and opening.
 *
 *	format(1) key_id(4) salt(16) | ChaCha20-Poly1305(state) tag(16)
 *
 * Every ticket is sealed with a key of its own, HKDF-Expand (SHA-256)
 * of the key for its TLS version's tickets and a random salt, under the
 * all-zero nonce: with a fresh key per ticket no nonce is ever used
 * twice, however many tickets a key seals in its period.  The header is
 * the AEAD's additional data, so the format, key id and salt cannot be
 * swapped either.  The key id says which generation of keys sealed it;
 * a ticket of a key rotated out is refused without trying the others.
 *
 * The plaintext, all integers big-endian:
 *
 *	version(2) suite(2) flags(1) created_ms(8) lifetime_s(4)
 *	age_add(4) secret<1..48> id_digest(32) sni<0..255>
 *
 * and in format 3 the peer block after it (ticket_peer.c).  A format-3
 * ticket, some 1.5 KiB, is sealed and opened in the room the handshake
 * lends (struct ktls_hs_ticket_room); a listener that lends none, one
 * without a trust store, takes it for a ticket of an unknown format.
 *
 * A new layout or key schedule takes a new format byte.  A ticket of
 * another format, as a fleet in the middle of an upgrade hands around,
 * is refused before anything else is read of it, and the client does a
 * full handshake.  Allocation-free: tickets are sealed and opened in
 * softirq, inside the handshake.
 *
 * Both versions bind a ticket the same way, to the identity and the
 * server_name of its session, here.
 */
#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include <ktls_hs/aead_lib.h>
#include <ktls_hs/identity.h>
#include <ktls_hs/kdf.h>

#include "codec.h"
#include "messages.h"
#include "ticket.h"
#include "ticket_priv.h"

#define KTLS_HS_TICKET_TAG_LEN	KTLS_LIB_AEAD_TAG_SIZE
/* What HKDF-Expand's info starts with, before the salt. */
static const char ktls_hs_ticket_label[] = "ktls_hs ticket";

/* The keys of a generation that seal tickets of TLS @version, if any. */
static int ktls_hs_ticket_use(u16 version)
{
	switch (version) {
	case KTLS_VERSION_TLS13:
		return KTLS_HS_TICKET_USE_TLS13;
	case KTLS_VERSION_TLS12:
		return KTLS_HS_TICKET_USE_TLS12;
	}
	return -EINVAL;
}

/* The ticket's own AEAD key, from the generation's key and its salt. */
static int ktls_hs_ticket_aead(struct ktls_lib_aead *aead, const u8 *secret,
			       const u8 *salt)
{
	u8 info[sizeof(ktls_hs_ticket_label) - 1 + KTLS_HS_TICKET_SALT_LEN];
	u8 k[CHACHA_KEY_SIZE];
	int err;

	memcpy(info, ktls_hs_ticket_label, sizeof(ktls_hs_ticket_label) - 1);
	memcpy(info + sizeof(ktls_hs_ticket_label) - 1, salt,
	       KTLS_HS_TICKET_SALT_LEN);
	err = ktls_hkdf_expand(KTLS_HASH_SHA256, secret,
			       KTLS_HS_TICKET_SECRET_LEN, info, sizeof(info), k,
			       sizeof(k));
	if (!err)
		err = ktls_lib_aead_setkey(aead, KTLS_LIB_CHACHA20_POLY1305, k,
					   sizeof(k));
	memzero_explicit(k, sizeof(k));
	return err;
}

/*
 * Seal or open @len bytes at @buf in place (@len counts the tag when
 * opening) under the key of the ticket whose header is @hdr.  Apart, so
 * that the AEAD's key schedule is off the callers' frames.
 */
static noinline_for_stack int
ktls_hs_ticket_crypt(const u8 *secret, const u8 *hdr, u8 *buf, size_t len,
		     bool seal)
{
	static const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	struct ktls_lib_aead aead;
	int err;

	err = ktls_hs_ticket_aead(&aead, secret, hdr + 5);
	if (err)
		return err;
	if (seal)
		err = ktls_lib_aead_seal(&aead, nonce, hdr,
					 KTLS_HS_TICKET_HDR_LEN, buf, len);
	else
		err = ktls_lib_aead_open(&aead, nonce, hdr,
					 KTLS_HS_TICKET_HDR_LEN, buf, len);
	ktls_lib_aead_wipe(&aead);
	return err;
}

static size_t ktls_hs_ticket_plain_len(const struct ktls_hs_ticket_state *st)
{
	return 2 + 2 + 1 + 8 + 4 + 4 + 1 + st->secret_len +
	       KTLS_HS_TICKET_DIGEST_LEN + 1 + st->sni_len +
	       (st->peer ? ktls_hs_ticket_peer_len(st->peer) : 0);
}

static void ktls_hs_ticket_encode(const struct ktls_hs_ticket_state *st,
				  u8 *p)
{
	put_unaligned_be16(st->version, p);
	put_unaligned_be16(st->suite, p + 2);
	p[4] = st->flags;
	put_unaligned_be64(st->created_ms, p + 5);
	put_unaligned_be32(st->lifetime_s, p + 13);
	put_unaligned_be32(st->age_add, p + 17);
	p += 21;
	*p++ = st->secret_len;
	memcpy(p, st->secret, st->secret_len);
	p += st->secret_len;
	memcpy(p, st->id_digest, KTLS_HS_TICKET_DIGEST_LEN);
	p += KTLS_HS_TICKET_DIGEST_LEN;
	*p++ = st->sni_len;
	memcpy(p, st->sni, st->sni_len);
	p += st->sni_len;
	if (st->peer)
		ktls_hs_ticket_peer_encode(st->peer, p);
}

/*
 * The plaintext is authentic; still, lengths are checked as for any
 * input.  The peer block, which format 3 has after the rest, goes to
 * @peer; @peer NULL: there must be none.
 */
static bool ktls_hs_ticket_decode(const u8 *p, size_t len,
				  struct ktls_peer_cert *peer,
				  struct ktls_hs_ticket_state *st)
{
	const u8 *end = p + len;

	if (len < 22)
		return false;
	st->version = get_unaligned_be16(p);
	st->suite = get_unaligned_be16(p + 2);
	st->flags = p[4];
	st->created_ms = get_unaligned_be64(p + 5);
	st->lifetime_s = get_unaligned_be32(p + 13);
	st->age_add = get_unaligned_be32(p + 17);
	p += 21;
	st->secret_len = *p++;
	if (!st->secret_len || st->secret_len > sizeof(st->secret) ||
	    end - p < st->secret_len + KTLS_HS_TICKET_DIGEST_LEN + 1)
		return false;
	memcpy(st->secret, p, st->secret_len);
	p += st->secret_len;
	memcpy(st->id_digest, p, KTLS_HS_TICKET_DIGEST_LEN);
	p += KTLS_HS_TICKET_DIGEST_LEN;
	st->sni_len = *p++;
	if (end - p < st->sni_len || (!peer && end - p != st->sni_len))
		return false;
	memcpy(st->sni, p, st->sni_len);
	p += st->sni_len;
	if (!peer)
		return true;
	if (!ktls_hs_ticket_peer_decode(p, end - p, peer))
		return false;
	st->peer = peer;
	return true;
}

int ktls_hs_ticket_seal(struct ktls_hs_ticket_keys *k, u64 now_ms,
			const struct ktls_hs_ticket_state *st, u8 *out,
			size_t cap)
{
	int use = ktls_hs_ticket_use(st->version);
	struct ktls_hs_ticket_key key;
	size_t plain;
	int err;

	if (use < 0 || !st->secret_len || st->secret_len > sizeof(st->secret) ||
	    st->sni_len > sizeof(st->sni))
		return -EINVAL;
	plain = ktls_hs_ticket_plain_len(st);
	if (cap < KTLS_HS_TICKET_HDR_LEN + plain + KTLS_HS_TICKET_TAG_LEN)
		return -EINVAL;

	if (!ktls_hs_ticket_keys_current(k, now_ms, &key))
		return -ENOKEY;
	out[0] = st->peer ? KTLS_HS_TICKET_FORMAT_PEER : KTLS_HS_TICKET_FORMAT;
	put_unaligned_be32(key.id, out + 1);
	get_random_bytes(out + 5, KTLS_HS_TICKET_SALT_LEN);
	ktls_hs_ticket_encode(st, out + KTLS_HS_TICKET_HDR_LEN);
	err = ktls_hs_ticket_crypt(key.secret[use], out,
				   out + KTLS_HS_TICKET_HDR_LEN, plain, true);
	memzero_explicit(&key, sizeof(key));
	if (err) {
		memzero_explicit(out, KTLS_HS_TICKET_HDR_LEN + plain);
		return err;
	}
	return KTLS_HS_TICKET_HDR_LEN + plain + KTLS_HS_TICKET_TAG_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_seal);

/*
 * Whether @st is within its lifetime at @now_ms.  Made a little ahead of
 * our clock, by a machine whose clock is ahead, it counts as made now.
 */
static bool ktls_hs_ticket_fresh(struct ktls_hs_ticket_state *st,
				 u64 now_ms)
{
	if (st->created_ms > now_ms) {
		if (st->created_ms - now_ms > KTLS_HS_TICKET_SKEW_MS)
			return false;
		st->created_ms = now_ms;
	}
	return now_ms - st->created_ms < (u64)st->lifetime_s * MSEC_PER_SEC;
}

int ktls_hs_ticket_open(struct ktls_hs_ticket_keys *k, u64 now_ms,
			u16 version, const u8 *in, size_t len,
			const struct ktls_hs_ticket_room *room,
			struct ktls_hs_ticket_state *st)
{
	u8 stack[KTLS_HS_TICKET_PLAIN_MAX + KTLS_HS_TICKET_TAG_LEN];
	int use = ktls_hs_ticket_use(version);
	struct ktls_peer_cert *peer = NULL;
	struct ktls_hs_ticket_key key;
	size_t body, max = KTLS_HS_TICKET_MAX_LEN;
	u8 *buf = stack;
	int err;

	memset(st, 0, sizeof(*st));
	/* The format first: nothing else of another format means a thing. */
	if (len && in[0] == KTLS_HS_TICKET_FORMAT_PEER && room) {
		peer = room->peer;
		buf = room->buf;
		max = KTLS_HS_TICKET_PEER_MAX_LEN;
	} else if (len && in[0] != KTLS_HS_TICKET_FORMAT) {
		return -EBADMSG;
	}
	if (use < 0 || len < KTLS_HS_TICKET_HDR_LEN + KTLS_HS_TICKET_TAG_LEN ||
	    len > max)
		return -EBADMSG;
	if (!ktls_hs_ticket_keys_find(k, now_ms, get_unaligned_be32(in + 1),
				      &key))
		return -ENOKEY;
	body = len - KTLS_HS_TICKET_HDR_LEN;
	memcpy(buf, in + KTLS_HS_TICKET_HDR_LEN, body);
	err = ktls_hs_ticket_crypt(key.secret[use], in, buf, body, false);
	memzero_explicit(&key, sizeof(key));
	/* Sealed with the key of @version, so of it: checked all the same. */
	if (!err && (!ktls_hs_ticket_decode(buf, body - KTLS_HS_TICKET_TAG_LEN,
					    peer, st) ||
		     st->version != version))
		err = -EBADMSG;
	memzero_explicit(buf, body);
	if (!err && !ktls_hs_ticket_fresh(st, now_ms))
		err = -EKEYEXPIRED;
	if (err) {
		if (peer)
			memzero_explicit(peer, sizeof(*peer));
		memzero_explicit(st, sizeof(*st));
	}
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_open);

void ktls_hs_ticket_forget(struct ktls_hs_ticket_state *st)
{
	if (st->peer)
		memzero_explicit(st->peer, sizeof(*st->peer));
	memzero_explicit(st, sizeof(*st));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_forget);

static int ktls_hs_ticket_id_digest(const struct ktls_identity *id, u8 *out)
{
	return ktls_hash_digest(KTLS_HASH_SHA256, id->certs[0].der,
				id->certs[0].len, out,
				KTLS_HS_TICKET_DIGEST_LEN);
}

int ktls_hs_ticket_issue(struct ktls_hs_ticket_keys *k,
			 struct ktls_hs_ticket_state *st,
			 const struct ktls_identity *id, const char *sni,
			 u8 *out, size_t cap)
{
	int err;

	if (st->peer) {
		st->lifetime_s = ktls_hs_ticket_peer_lifetime(st->peer,
							      st->lifetime_s,
							      ktime_get_real_seconds());
		if (!st->lifetime_s)
			return -ENOKEY;
	}
	st->sni_len = strnlen(sni, KTLS_HS_TICKET_SNI_MAX);
	memcpy(st->sni, sni, st->sni_len);
	err = ktls_hs_ticket_id_digest(id, st->id_digest);
	if (err)
		return err;
	return ktls_hs_ticket_seal(k, st->created_ms, st, out, cap);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_issue);

bool ktls_hs_ticket_bound(const struct ktls_hs_ticket_state *st,
			  const struct ktls_identity *id,
			  const struct ktls_hs_client_hello *ch)
{
	u8 digest[KTLS_HS_TICKET_DIGEST_LEN];
	size_t sni_len = 0;

	if (ktls_hs_ch_has(ch, KTLS_EXTB_SERVER_NAME))
		sni_len = ch->server_name.len;
	if (st->sni_len != sni_len ||
	    memcmp(st->sni, ch->server_name.data, sni_len))
		return false;
	return !ktls_hs_ticket_id_digest(id, digest) &&
	       !memcmp(digest, st->id_digest, sizeof(digest));
}
