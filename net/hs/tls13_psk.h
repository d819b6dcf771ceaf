/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Session resumption of the TLS 1.3 server (RFC 8446 2.2, 4.2.11,
 * 4.6.1): which of a client's tickets, if any, resumes its session, and
 * the NewSessionTicket the server sends after a handshake.  The state
 * machine (tls13_server.c) calls in here; tickets are sealed in ticket.c.
 */
#ifndef _KTLS_HS_TLS13_PSK_H
#define _KTLS_HS_TLS13_PSK_H

#include <ktls_hs/kdf.h>

#include "negotiate.h"
#include "ticket.h"

struct ktls_identity;

/* Identities of one ClientHello tried at most: bounds the work per hello. */
#define KTLS_HS_PSK_TRY_MAX	4

/*
 * Tolerance of the client's ticket age against ours (RFC 8446 8.3), in
 * ms.  The client sees the ticket a round trip after we made it, and
 * some clients count in seconds; a ticket whose age is off by more is
 * not resumed (a full handshake follows).
 */
#define KTLS_HS_PSK_AGE_AHEAD_MS	2000
#define KTLS_HS_PSK_AGE_BEHIND_MS	10000

/*
 * A NewSessionTicket at most, header included; the larger one for a
 * ticket with a peer block, which only listeners that ask for client
 * certificates issue.
 */
#define KTLS_HS_NST_MAX		(KTLS_HS_MSG_HDR_LEN + 4 + 4 + 1 + 1 + 2 + \
				 KTLS_HS_TICKET_MAX_LEN + 2)
#define KTLS_HS_NST_PEER_MAX	(KTLS_HS_NST_MAX + KTLS_HS_TICKET_PEER_MAX)

/**
 * struct ktls_hs_psk - the ticket a ClientHello resumes
 * @index:	its place in the client's identities
 * @len:	bytes of @secret; 0: no ticket is taken
 * @secret:	the PSK
 * @peer:	the client certificate the ticket carried, in the room's
 *		peer; NULL: none
 */
struct ktls_hs_psk {
	u16 index;
	u8 len;
	u8 secret[KTLS_HASH_MAX_SIZE];
	struct ktls_peer_cert *peer;
};

/*
 * Choose the ticket @ch resumes under @cfg and the choice @c, and check
 * its binder over @t (the transcript before @ch, at @msg) and the
 * truncated @ch.  Tickets with a client certificate are opened in
 * @room, NULL for a listener without a trust store (which takes none).
 * 0 with @psk->len 0 for a full handshake, 0 with the PSK, or the
 * alert: decrypt_error for a wrong binder.
 */
int ktls_hs_psk_select(const struct ktls_hs_config *cfg,
		       const struct ktls_hs_client_hello *ch, const u8 *msg,
		       const struct ktls_transcript *t,
		       const struct ktls_hs_choice *c,
		       const struct ktls_hs_ticket_room *room,
		       struct ktls_hs_psk *psk);

/*
 * Append a NewSessionTicket to @b for the session of @res_master (the
 * resumption master secret, @n bytes of @hash), authenticated with @id
 * for the client's @sni ("" if none), with @suite; with @room, for the
 * client certificate @room->peer.  -ENOKEY: the session gets no ticket.
 */
int ktls_hs_psk_new_ticket(const struct ktls_hs_config *cfg,
			   enum ktls_hash hash, u16 suite,
			   const u8 *res_master, size_t n,
			   const struct ktls_identity *id, const char *sni,
			   const struct ktls_hs_ticket_room *room,
			   struct ktls_hs_buf *b);

#endif /* _KTLS_HS_TLS13_PSK_H */
