/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktls-hs internal interfaces: the per-socket context hung off the TCP ULP
 * slot, and the entry points the files of the module call each other by.
 * Nothing here is visible to drivers or to userspace.
 */
#ifndef _KTLS_HS_KTLS_H
#define _KTLS_HS_KTLS_H

#include <linux/rcupdate.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>

/**
 * struct ktls_ctx - state of one socket the "tls" ULP is attached to
 * @sk:		the TCP socket
 * @sk_proto:	the protocol ops we sit in front of (tcp_prot, tcpv6_prot or
 *		whatever sockmap installed); every call we do not handle
 *		goes there, and close() puts it back
 * @rcu:	the context is freed after a grace period, because sock_diag
 *		reads it under RCU without the socket lock
 */
struct ktls_ctx {
	struct sock *sk;
	struct proto *sk_proto;
	struct rcu_head rcu;
};

/*
 * The ULP slot is written only by our init (socket locked, before any
 * other of our ops can run) and cleared only by our close and release,
 * after which none of our proto ops is reachable for this socket.
 */
static inline struct ktls_ctx *ktls_ctx(const struct sock *sk)
{
	return rcu_dereference_protected(inet_csk(sk)->icsk_ulp_data, true);
}

extern struct tcp_ulp_ops ktls_ulp_ops;

void ktls_ulp_setup(void);

int ktls_identity_init(void);
void ktls_identity_exit(void);

#endif /* _KTLS_HS_KTLS_H */
