/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the handshake reports as it goes: the per-netns counters of
 * /proc/net/ktls_hs_stat and the ktls_hs tracepoints (events.c).  The
 * glue (conn.c, listen.c) calls these at the moments they count.
 */
#ifndef _KTLS_HS_EVENTS_H
#define _KTLS_HS_EVENTS_H

#include <linux/types.h>

struct sock;
struct ktls_hs_conn;

/* Counters of /proc/net/ktls_hs_stat, one "Name value" line each. */
enum ktls_hs_stat {
	KTLS_HS_STAT_STARTED,
	KTLS_HS_STAT_COMPLETED,
	KTLS_HS_STAT_RESUMED,
	KTLS_HS_STAT_FALLBACK,
	KTLS_HS_STAT_DROPPED,		/* a child we could not set up */
	/* a client's record_size_limit unanswered: not one way of ending */
	KTLS_HS_STAT_RECORD_LIMIT_DECLINED,
	KTLS_HS_STAT_FAILED,		/* every failure, the lines below split it */
	KTLS_HS_STAT_TIMED_OUT,
	KTLS_HS_STAT_ABORTED,		/* the socket closed mid-handshake */
	KTLS_HS_STAT_PEER_CLOSED,	/* FIN or reset mid-handshake */
	KTLS_HS_STAT_INTERNAL,		/* our own failure, no alert */
	KTLS_HS_STAT_ALERT_RECEIVED,
	KTLS_HS_STAT_ALERT_SENT_FIRST,	/* then one per alert, events.c */
};

/* The handshake of @conn starts, of a listener's child or per-socket. */
void ktls_hs_ev_start(const struct ktls_hs_conn *conn);
/* It ended for @why (enum ktls_hs_end), the engine still there. */
void ktls_hs_ev_end(const struct ktls_hs_conn *conn, int why);
/* The socket closed while it ran. */
void ktls_hs_ev_aborted(const struct ktls_hs_conn *conn);
/* A child of an armed listener could not run one at all. */
void ktls_hs_ev_dropped(const struct sock *sk);

void ktls_hs_stat_add(const struct sock *sk, unsigned int stat, long delta);

int ktls_hs_events_init(void);
void ktls_hs_events_exit(void);

#endif /* _KTLS_HS_EVENTS_H */
