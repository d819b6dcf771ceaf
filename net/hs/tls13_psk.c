// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resumption in the TLS 1.3 server: the tickets it issues after a
 * handshake, and the PSK handshake a later ClientHello offering one of
 * them gets.
 *
 * Only psk_dhe_ke (RFC 8446 4.2.9): a resumed handshake still does an
 * (EC)DHE exchange, so its traffic keys are forward secret even if the
 * ticket key leaks; a client offering psk_ke alone gets a full
 * handshake.  No early data is ever accepted: tickets announce no
 * max_early_data_size, EncryptedExtensions never carries early_data and
 * the early records a client sends anyway are skipped (RFC 8446 4.2.10).
 * The anti-replay measures of RFC 8446 8 protect 0-RTT data; without
 * it, a replayed ClientHello gets a fresh ServerHello and goes no
 * further than its replayer's lack of the PSK and (EC)DHE key.  What
 * applies is kept: tickets expire (KTLS_HS_TICKETS lifetime, at most
 * seven days, RFC 8446 4.6.1), and a ticket whose obfuscated age
 * disagrees with ours is not taken (RFC 8446 8.3).
 *
 * A ticket resumes only what was authenticated: the same identity (the
 * SHA-256 of its leaf certificate, which the ClientHello must pick again
 * by its server_name) and the same server_name; and, under a listener
 * that asks for client certificates, a client its trust store still
 * vouches for (ticket_peer.c), or none where one is optional.
 */
#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include "ticket.h"
#include "tls13_psk.h"
#include "wire.h"

/* The hash of a TLS 1.3 suite, which must be the PSK's (RFC 8446 4.2.11). */
static enum ktls_hash ktls_hs_psk_suite_hash(u16 suite)
{
	switch (suite) {
	case KTLS_SUITE_AES_128_GCM_SHA256:
	case KTLS_SUITE_CHACHA20_POLY1305_SHA256:
	case KTLS_SUITE_AES_128_CCM_SHA256:
		return KTLS_HASH_SHA256;
	case KTLS_SUITE_AES_256_GCM_SHA384:
		return KTLS_HASH_SHA384;
	}
	return KTLS_HASH_NONE;
}

/* Whether the ticket in @st may resume the session @ch asks for. */
static bool ktls_hs_psk_usable(const struct ktls_hs_ticket_state *st,
			       const struct ktls_hs_client_hello *ch,
			       const struct ktls_hs_choice *c, u32 obf_age,
			       u64 now_ms)
{
	u32 client_age;
	u64 our_age;

	if (st->version != KTLS_VERSION_TLS13 ||
	    ktls_hs_psk_suite_hash(st->suite) != c->suite->hash ||
	    st->secret_len != ktls_hash_size(c->suite->hash) ||
	    !ktls_hs_ticket_bound(st, c->id, ch))
		return false;

	/* RFC 8446 4.2.11.1: the age is obfuscated mod 2^32. */
	client_age = obf_age - st->age_add;
	our_age = now_ms - st->created_ms;
	return client_age <= our_age + KTLS_HS_PSK_AGE_AHEAD_MS &&
	       our_age <= (u64)client_age + KTLS_HS_PSK_AGE_BEHIND_MS;
}

/* The @index'th binder of @ch. */
static bool ktls_hs_psk_binder(const struct ktls_hs_client_hello *ch,
			       unsigned int index, struct ktls_rd *binder)
{
	struct ktls_rd walk;
	unsigned int i = 0;

	ktls_rd_init(&walk, ch->psk_binders.data, ch->psk_binders.len);
	while (ktls_rd_vec(&walk, 1, binder))
		if (i++ == index)
			return true;
	return false;
}

/* RFC 8446 4.2.11.2 */
static int ktls_hs_psk_check_binder(const struct ktls_hs_client_hello *ch,
				    const u8 *msg,
				    const struct ktls_transcript *t,
				    enum ktls_hash hash,
				    const struct ktls_hs_psk *psk)
{
	u8 early[KTLS_HASH_MAX_SIZE], key[KTLS_HASH_MAX_SIZE];
	u8 th[KTLS_HASH_MAX_SIZE];
	struct ktls_transcript trunc;
	size_t n = psk->len;
	struct ktls_rd binder;
	int err;

	if (!ktls_hs_psk_binder(ch, psk->index, &binder))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	ktls_transcript_clone(&trunc, t);
	err = ktls_transcript_update(&trunc, msg, ch->binders_offset);
	if (!err)
		err = ktls_transcript_digest(&trunc, th, n);
	if (!err)
		err = ktls_tls13_early_secret(hash, psk->secret, n, early, n);
	if (!err)
		err = ktls_tls13_binder_key(hash, early, n, true, key, n);
	if (!err)
		err = ktls_tls13_finished_check(hash, key, n, th, n, binder.p,
						binder.left);
	if (err == -EBADMSG)
		err = KTLS_ALERT_DECRYPT_ERROR;
	ktls_transcript_wipe(&trunc);
	memzero_explicit(early, sizeof(early));
	memzero_explicit(key, sizeof(key));
	return err;
}

int ktls_hs_psk_select(const struct ktls_hs_config *cfg,
		       const struct ktls_hs_client_hello *ch, const u8 *msg,
		       const struct ktls_transcript *t,
		       const struct ktls_hs_choice *c,
		       const struct ktls_hs_ticket_room *room,
		       struct ktls_hs_psk *psk)
{
	bool required = cfg->trust &&
			cfg->client_auth == KTLS_HS_CLIENT_AUTH_REQUIRED;
	time64_t now = ktime_get_real_seconds();
	struct ktls_hs_ticket_state st;
	struct ktls_rd walk, identity;
	unsigned int i;
	const u8 *age;
	u64 now_ms;
	int err;

	memset(psk, 0, sizeof(*psk));
	if (!cfg->tickets || !ktls_hs_ch_has(ch, KTLS_EXTB_PRE_SHARED_KEY) ||
	    !ktls_hs_vec_has_u8(&ch->psk_modes, KTLS_PSK_DHE_KE))
		return 0;
	now_ms = ktls_hs_ticket_keys_now(cfg->tickets);

	ktls_rd_init(&walk, ch->psk_identities.data, ch->psk_identities.len);
	for (i = 0; i < KTLS_HS_PSK_TRY_MAX; i++) {
		if (!ktls_rd_vec(&walk, 2, &identity) ||
		    !ktls_rd_bytes(&walk, 4, &age))
			return 0;
		/*
		 * Not ours, of another format, altered, rotated out or
		 * expired: not resumed.
		 */
		if (ktls_hs_ticket_open(cfg->tickets, now_ms,
					KTLS_VERSION_TLS13, identity.p,
					identity.left, room, &st))
			continue;
		if (ktls_hs_psk_usable(&st, ch, c, get_unaligned_be32(age),
				       now_ms) &&
		    ktls_hs_ticket_peer_trusted(&st, cfg->trust, required, now))
			break;
		ktls_hs_ticket_forget(&st);
	}
	if (i == KTLS_HS_PSK_TRY_MAX)
		return 0;

	psk->index = i;
	psk->len = st.secret_len;
	memcpy(psk->secret, st.secret, st.secret_len);
	psk->peer = st.peer;
	memzero_explicit(&st, sizeof(st));
	err = ktls_hs_psk_check_binder(ch, msg, t, c->suite->hash, psk);
	if (err) {
		if (psk->peer)
			memzero_explicit(psk->peer, sizeof(*psk->peer));
		memzero_explicit(psk, sizeof(*psk));
	}
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_psk_select);

int ktls_hs_psk_new_ticket(const struct ktls_hs_config *cfg,
			   enum ktls_hash hash, u16 suite,
			   const u8 *res_master, size_t n,
			   const struct ktls_identity *id, const char *sni,
			   const struct ktls_hs_ticket_room *room,
			   struct ktls_hs_buf *b)
{
	/* One ticket per connection: its nonce need not be more. */
	static const u8 nonce[1];
	struct ktls_hs_ticket_state st = {};
	u8 stack[KTLS_HS_TICKET_MAX_LEN];
	size_t cap = sizeof(stack);
	u8 *ticket = stack;
	int len, err;

	if (room) {
		st.peer = room->peer;
		ticket = room->buf;
		cap = KTLS_HS_TICKET_PEER_MAX_LEN;
	}

	st.version = KTLS_VERSION_TLS13;
	st.suite = suite;
	st.created_ms = ktls_hs_ticket_keys_now(cfg->tickets);
	st.lifetime_s = cfg->ticket_lifetime;
	st.age_add = get_random_u32();
	st.secret_len = n;
	err = ktls_tls13_resumption_psk(hash, res_master, n, nonce,
					sizeof(nonce), st.secret, n);
	if (err)
		goto out;
	len = ktls_hs_ticket_issue(cfg->tickets, &st, id, sni, ticket, cap);
	if (len < 0) {
		err = len;
		goto out;
	}
	err = ktls_hs_build_new_session_ticket(b, st.lifetime_s, st.age_add,
					       nonce, sizeof(nonce), ticket,
					       len);
	memzero_explicit(ticket, len);
out:
	memzero_explicit(&st, sizeof(st));
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_psk_new_ticket);
