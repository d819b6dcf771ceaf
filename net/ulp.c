// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TCP ULP "tls": attaching to a socket, the protocol ops we place in
 * front of TCP's, and detaching on close.  This file owns the lifetime of
 * struct ktls_ctx; the record layer and the handshake hang their state off
 * it but never allocate or free it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include <net/tls.h>
#include <kunit/visibility.h>

#include "ktls.h"

enum ktls_family {
	KTLS_INET,
	KTLS_INET6,
	KTLS_NR_FAMILIES,
};

/*
 * Our copies of TCP's protocol ops, one per address family, each built
 * from the pristine TCP proto of that family.  tcpv6_prot is not exported,
 * so ktls_ulp_setup() reads it off a kernel socket it opens once.
 */
static struct proto ktls_prots[KTLS_NR_FAMILIES];
static const struct proto *ktls_base_prots[KTLS_NR_FAMILIES];

static int ktls_setsockopt(struct sock *sk, int level, int optname,
			   sockptr_t optval, unsigned int optlen)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (level != SOL_TLS)
		return ctx->sk_proto->setsockopt(sk, level, optname, optval,
						 optlen);

	/* The record layer, which owns every SOL_TLS option, is not built in yet. */
	return -ENOPROTOOPT;
}

static int ktls_getsockopt(struct sock *sk, int level, int optname,
			   char __user *optval, int __user *optlen)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (level != SOL_TLS)
		return ctx->sk_proto->getsockopt(sk, level, optname, optval,
						 optlen);

	return -ENOPROTOOPT;
}

static void ktls_ctx_free(struct ktls_ctx *ctx)
{
	kfree_rcu(ctx, rcu);
}

/*
 * Detach before handing the socket to TCP's close: from here on the socket
 * is plain TCP again, and sock_diag readers see either the old context
 * (still valid until the grace period ends) or none.
 */
static void ktls_close(struct sock *sk, long timeout)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct proto *base = ctx->sk_proto;

	lock_sock(sk);
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(inet_csk(sk)->icsk_ulp_data, NULL);
	WRITE_ONCE(sk->sk_prot, base);
	write_unlock_bh(&sk->sk_callback_lock);
	release_sock(sk);

	base->close(sk, timeout);
	ktls_ctx_free(ctx);
}

static enum ktls_family ktls_family_of(const struct sock *sk)
{
	return sk->sk_family == AF_INET6 ? KTLS_INET6 : KTLS_INET;
}

static int ktls_init(struct sock *sk)
{
	enum ktls_family family = ktls_family_of(sk);
	struct ktls_ctx *ctx;

	/*
	 * Only established sockets for now: a listener would need its
	 * context cloned into every child, which the ULP does not do yet.
	 */
	if (sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;

	if (!ktls_base_prots[family])
		return -EAFNOSUPPORT;
	/* A socket whose ops someone else replaced (e.g. sockmap) is not ours to wrap. */
	if (READ_ONCE(sk->sk_prot) != ktls_base_prots[family])
		return -EOPNOTSUPP;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->sk = sk;
	ctx->sk_proto = READ_ONCE(sk->sk_prot);

	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(inet_csk(sk)->icsk_ulp_data, ctx);
	WRITE_ONCE(sk->sk_prot, &ktls_prots[family]);
	write_unlock_bh(&sk->sk_callback_lock);

	return 0;
}

/* sockmap swaps the ops under us: remember the new ones as our base. */
static void ktls_update(struct sock *sk, struct proto *p,
			void (*write_space)(struct sock *sk))
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (ctx) {
		ctx->sk_proto = p;
		return;
	}
	WRITE_ONCE(sk->sk_prot, p);
	sk->sk_write_space = write_space;
}

/* Socket destroyed without passing through our close. */
static void ktls_release(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (!ctx)
		return;
	rcu_assign_pointer(inet_csk(sk)->icsk_ulp_data, NULL);
	ktls_ctx_free(ctx);
}

struct tcp_ulp_ops ktls_ulp_ops __read_mostly = {
	.name		= "tls",
	.owner		= THIS_MODULE,
	.init		= ktls_init,
	.update		= ktls_update,
	.release	= ktls_release,
};
EXPORT_SYMBOL_IF_KUNIT(ktls_ulp_ops);

static void ktls_build_prot(enum ktls_family family, const struct proto *base)
{
	struct proto *p = &ktls_prots[family];

	*p = *base;
	p->setsockopt = ktls_setsockopt;
	p->getsockopt = ktls_getsockopt;
	p->close = ktls_close;
	ktls_base_prots[family] = base;
}

/* Returns the TCP proto of @family as a fresh socket gets it, or NULL. */
static const struct proto *ktls_tcp_prot_of(int family)
{
	const struct proto *prot;
	struct socket *sock;

	if (sock_create_kern(&init_net, family, SOCK_STREAM, IPPROTO_TCP,
			     &sock))
		return NULL;
	prot = READ_ONCE(sock->sk->sk_prot);
	sock_release(sock);
	return prot;
}

void ktls_ulp_setup(void)
{
	const struct proto *v6;

	ktls_build_prot(KTLS_INET, &tcp_prot);

	/* IPv6 may be disabled or absent; IPv4 sockets work regardless. */
	v6 = ktls_tcp_prot_of(AF_INET6);
	if (v6)
		ktls_build_prot(KTLS_INET6, v6);
	else
		pr_info("IPv6 TCP unavailable, the ULP serves IPv4 sockets only\n");
}
