// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TCP ULP "ktls_hs", which arms a listening socket: its proto, built
 * from ours (ulp.c) with accept, close and disconnect of the armed
 * listener (listen.c), and the birth of its children, which leave it
 * with the ordinary "tls" ULP.  The context of a listener lives and dies
 * as any other in ulp.c.
 */
#include <linux/module.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <ktls_hs/compat_net.h>

#include "../record/ktls.h"
#include "hs.h"

static struct proto ktls_listen_prots[KTLS_NR_FAMILIES];

static void ktls_listen_close(struct sock *sk, long timeout)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	ktls_hs_listen_stop(sk);
	lock_sock(sk);
	ktls_hs_listen_release(sk, ctx);
	ktls_detach_close(sk, ctx, timeout);
}

/* shutdown(SHUT_RD) of a listener stops it listening, like close. */
static int ktls_listen_disconnect(struct sock *sk, int flags)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (sk->sk_state == TCP_LISTEN)
		ktls_hs_listen_stop(sk);
	return ctx->sk_proto->disconnect(sk, flags);
}

/* listen() again after a disconnect: the listener takes children again. */
int ktls_hs_ops_listen(struct socket *sock, int backlog)
{
	struct ktls_ctx *ctx = ktls_ctx(sock->sk);
	int err;

	err = ctx->sk_ops->listen(sock, backlog);
	if (!err && ctx->hs_listen) {
		lock_sock(sock->sk);
		ktls_hs_listen_restart(sock->sk);
		release_sock(sock->sk);
	}
	return err;
}

/*
 * TCP_ULP "ktls_hs" arms a listening socket.  "tls" on a listener stays
 * -ENOTCONN, as upstream defines it: applications and the upstream
 * selftest rely on that.
 */
static int ktls_listen_init(struct sock *sk)
{
	if (sk->sk_state != TCP_LISTEN)
		return -EINVAL;
	return ktls_attach(sk, ktls_listen_prots, ktls_hs_listen_arm);
}

/*
 * A child of an armed listener, in softirq, the child locked.  TCP copied
 * the listener's ULP, context pointer and proto into it; the child gets
 * a context of its own and the ordinary "tls" ULP and proto.  If that
 * fails it is left plain TCP, and the listener closes it before accept()
 * sees it.
 */
static void ktls_clone(const struct request_sock *req, struct sock *newsk,
		       const gfp_t priority)
{
	struct inet_connection_sock *icsk = inet_csk(newsk);
	struct proto *base = ktls_base_prot(ktls_family_of(newsk));
	struct ktls_ctx *lctx;

	/* sk_clone_lock() returns the child bh-locked. */
	lctx = rcu_dereference_protected(icsk->icsk_ulp_data,
					 lockdep_sock_is_held(newsk));
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	icsk->icsk_ulp_ops = NULL;
	/* Freeing goes by the creator: not a proto in our module. */
	WRITE_ONCE(newsk->sk_prot, base);
	newsk->sk_prot_creator = base;
	/* The listener is closing, and TCP will close its queued children. */
	if (!lctx)
		return;
	newsk->sk_data_ready = lctx->hs_listen->saved_data_ready;
	ktls_attach_clone(newsk, lctx, priority, ktls_hs_listen_clone);
}

struct tcp_ulp_ops ktls_hs_ulp_ops __read_mostly = {
	.name		= "ktls_hs",
	.owner		= THIS_MODULE,
	.init		= ktls_listen_init,
	.update		= ktls_update,
	.release	= ktls_release,
	.clone		= ktls_clone,
};

/* After ktls_ulp_setup(), which finds the TCP protos ours are built on. */
void ktls_hs_listen_setup(void)
{
	enum ktls_family family;
	struct proto *p;

	for (family = 0; family < KTLS_NR_FAMILIES; family++) {
		p = &ktls_listen_prots[family];
		if (!ktls_derive_prot(family, p))
			continue;
		p->close = ktls_listen_close;
		p->disconnect = ktls_listen_disconnect;
		p->accept = KTLS_LISTEN_ACCEPT_OP;
	}
}
