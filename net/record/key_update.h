/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TLS 1.3 KeyUpdate (key_update.c): what the RX path calls when one
 * arrives, what the TX path calls before each record it builds, and the
 * KTLS_HS_REKEY entry.  All of it runs in process context under the
 * socket lock, except ktls_key_update_send(), which takes the locks.
 */
#ifndef _KTLS_HS_KEY_UPDATE_H
#define _KTLS_HS_KEY_UPDATE_H

#include <linux/types.h>

struct sock;
struct ktls_ctx;
struct ktls_rx;
struct ktls_rx_rec;

/* A record queued for the application, on keys it set itself. */
void ktls_key_update_queued(struct sock *sk, struct ktls_ctx *ctx,
			    struct ktls_rx *rx, struct ktls_rx_rec *rec);
/* A whole KeyUpdate of the peer, on the keys of a kernel handshake. */
int ktls_key_update_received(struct sock *sk, struct ktls_ctx *ctx,
			     bool requested);
/* The answer the peer asked for, if one is owed; senders serialized. */
int ktls_key_update_answer(struct sock *sk, struct ktls_ctx *ctx,
			   long *timeo);
/* KTLS_HS_REKEY: our KeyUpdate now; takes the locks. */
int ktls_key_update_send(struct sock *sk, bool request);

#endif /* _KTLS_HS_KEY_UPDATE_H */
