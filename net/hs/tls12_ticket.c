// SPDX-License-Identifier: GPL-2.0-only
/*
 * Session tickets of the TLS 1.2 server (RFC 5077): the ticket a full
 * handshake ends with, and whether the ticket of a later ClientHello
 * resumes its session.  The state machine (tls12_server.c) calls in
 * here; tickets are sealed and bound to their identity and server_name
 * by ticket.c, as those of TLS 1.3 are.
 *
 * A ticket carries the session's master secret, its suite and whether
 * it used the extended master secret (RFC 7627).  Only sessions with it
 * get a ticket: RFC 7627 5.3 says a server should not resume the others
 * at all.  A resumed session keeps its ticket: a fresh one would seal
 * the same master secret again, and would make it live past the
 * lifetime its full handshake gave it.
 *
 * A ticket that is not ours, altered, expired, of a key rotated out, of
 * another format, version, suite, identity or server_name is not taken, and a
 * full handshake follows: a ticket is only a hint (RFC 5077 3.4).  So is
 * one whose client certificate the listener's trust store no longer
 * vouches for, or one without a certificate where the listener requires
 * one (ticket_peer.c).  The one alert is RFC 7627 5.3's, for a session
 * with the extended master secret offered without it.
 */
#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "messages.h"
#include "ticket.h"
#include "tls12.h"

/* The suite of @st, if the client offers it again and we still allow it. */
static const struct ktls_hs12_suite *
ktls_hs12_ticket_suite(const struct ktls_hs_config *cfg,
		       const struct ktls_hs_client_hello *ch,
		       const struct ktls_hs_ticket_state *st)
{
	const struct ktls_hs12_suite *s = ktls_hs12_suite_find(st->suite);

	/* RFC 5246 7.4.1.2: the client offers the session's suite again. */
	if (!s || !(cfg->suites & s->bit) ||
	    !ktls_hs_vec_has_u16(&ch->suites, st->suite))
		return NULL;
	return s;
}

/*
 * RFC 7627 5.3: whether the session of @st resumes with the hello @ch
 * as far as the extended master secret goes; 0, or the alert.
 */
static int ktls_hs12_ticket_ems(const struct ktls_hs_ticket_state *st,
				const struct ktls_hs_client_hello *ch,
				bool *resume)
{
	bool ems = ktls_hs_ch_has(ch, KTLS_EXTB_EXTENDED_MASTER_SECRET);

	*resume = false;
	if (st->flags & KTLS_HS_TICKET_EMS) {
		if (!ems)
			return KTLS_ALERT_HANDSHAKE_FAILURE;
		*resume = true;
		return 0;
	}
	/* Never made here; a hello with it gets a full handshake. */
	return ems ? 0 : KTLS_ALERT_HANDSHAKE_FAILURE;
}

int ktls_hs12_ticket_select(const struct ktls_hs_config *cfg,
			    const struct ktls_hs_client_hello *ch,
			    const struct ktls_identity *id,
			    const struct ktls_hs_ticket_room *room,
			    struct ktls_hs12_resumption *r)
{
	bool required = cfg->trust &&
			cfg->client_auth == KTLS_HS_CLIENT_AUTH_REQUIRED;
	const struct ktls_hs12_suite *suite;
	struct ktls_hs_ticket_state st;
	bool resume = false;
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (!cfg->tickets || !ktls_hs_ch_has(ch, KTLS_EXTB_SESSION_TICKET) ||
	    !ch->session_ticket.len)
		return 0;
	if (ktls_hs_ticket_open(cfg->tickets,
				ktls_hs_ticket_keys_now(cfg->tickets),
				KTLS_VERSION_TLS12, ch->session_ticket.data,
				ch->session_ticket.len, room, &st))
		return 0;
	if (st.secret_len != KTLS_TLS12_MASTER_SIZE)
		goto out;
	suite = ktls_hs12_ticket_suite(cfg, ch, &st);
	if (!suite || !ktls_hs_ticket_bound(&st, id, ch) ||
	    !ktls_hs_ticket_peer_trusted(&st, cfg->trust, required,
					 ktime_get_real_seconds()))
		goto out;
	err = ktls_hs12_ticket_ems(&st, ch, &resume);
	if (!resume)
		goto out;
	r->suite = suite;
	memcpy(r->master, st.secret, KTLS_TLS12_MASTER_SIZE);
	r->peer = st.peer;
	/* The peer stays where it was opened: the session's now. */
	st.peer = NULL;
out:
	ktls_hs_ticket_forget(&st);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_ticket_select);

int ktls_hs12_ticket_new(const struct ktls_hs_config *cfg, u16 suite,
			 const u8 *master, bool ems,
			 const struct ktls_identity *id, const char *sni,
			 const struct ktls_hs_ticket_room *room,
			 struct ktls_hs_buf *b)
{
	struct ktls_hs_ticket_state st = {};
	u8 stack[KTLS_HS_TICKET_MAX_LEN];
	size_t cap = sizeof(stack);
	u8 *ticket = stack;
	u32 lifetime;
	int len, err;

	if (room) {
		st.peer = room->peer;
		ticket = room->buf;
		cap = KTLS_HS_TICKET_PEER_MAX_LEN;
	}

	st.version = KTLS_VERSION_TLS12;
	st.suite = suite;
	st.flags = ems ? KTLS_HS_TICKET_EMS : 0;
	st.created_ms = ktls_hs_ticket_keys_now(cfg->tickets);
	st.lifetime_s = cfg->ticket_lifetime;
	st.secret_len = KTLS_TLS12_MASTER_SIZE;
	memcpy(st.secret, master, KTLS_TLS12_MASTER_SIZE);
	len = ktls_hs_ticket_issue(cfg->tickets, &st, id, sni, ticket, cap);
	lifetime = st.lifetime_s;
	memzero_explicit(&st, sizeof(st));
	/*
	 * No ticket after all (the operator's key was revoked, the client's
	 * certificate is about to expire): the ServerHello announced one,
	 * so RFC 5077 3.3's empty one takes it back.
	 */
	if (len == -ENOKEY)
		return ktls_hs12_build_new_session_ticket(b, 0, ticket, 0);
	if (len < 0)
		return len;
	/* RFC 5077 3.3: the hint is the lifetime the ticket was sealed with. */
	err = ktls_hs12_build_new_session_ticket(b, lifetime, ticket, len);
	memzero_explicit(ticket, len);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_ticket_new);
