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
#include <linux/splice.h>
#include <net/inet_common.h>
#include <net/tcp.h>
#include <kunit/visibility.h>

#include "ktls.h"
#include "device.h"
#include "hs/hs.h"

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
static struct proto ktls_listen_prots[KTLS_NR_FAMILIES];
static struct proto *ktls_base_prots[KTLS_NR_FAMILIES];
static struct proto_ops ktls_proto_ops[KTLS_NR_FAMILIES];	/* not const: built at load */
static const struct proto_ops *ktls_base_ops[KTLS_NR_FAMILIES];

static enum ktls_family ktls_family_of(const struct sock *sk)
{
	return sk->sk_family == AF_INET6 ? KTLS_INET6 : KTLS_INET;
}

static int ktls_setsockopt(struct sock *sk, int level, int optname,
			   sockptr_t optval, unsigned int optlen)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (level == SOL_TCP && optname == TCP_ULP &&
	    ktls_hs_fallback_ulp(sk, optval, optlen))
		return 0;
	if (level != SOL_TLS)
		return ctx->sk_proto->setsockopt(sk, level, optname, optval,
						 optlen);
	return ktls_setsockopt_tls(sk, optname, optval, optlen);
}

static int ktls_getsockopt(struct sock *sk, int level, int optname,
			   char __user *optval, int __user *optlen)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (level != SOL_TLS)
		return ctx->sk_proto->getsockopt(sk, level, optname, optval,
						 optlen);
	return ktls_getsockopt_tls(sk, optname, optval, optlen);
}

/*
 * The data path ops: a direction without keys is plain TCP, so each
 * hands such calls to the ops we were placed in front of.  The conf is set
 * under the socket lock and only ever moves away from BASE.
 */
static bool ktls_tx_on(const struct ktls_ctx *ctx)
{
	return READ_ONCE(ctx->tx_conf) != KTLS_CONF_BASE;
}

static bool ktls_rx_on(const struct ktls_ctx *ctx)
{
	return READ_ONCE(ctx->rx_conf) != KTLS_CONF_BASE;
}

/*
 * A kernel handshake that finished in softirq left its keys staged: the
 * first process-context call on the socket installs them, since that may
 * allocate and sleep.  Calls made with the socket locked use
 * ktls_keys_install_staged() directly.
 */
static int ktls_settle(struct sock *sk, struct ktls_ctx *ctx)
{
	int err;

	if (likely(!ktls_keys_staged(ctx)))
		return 0;
	lock_sock(sk);
	err = ktls_keys_install_staged(sk);
	release_sock(sk);
	return err;
}

/*
 * A per-socket handshake in progress holds the data path: the bytes in
 * TCP's queue are handshake records, not the application's.
 */
static int ktls_hs_gate(struct sock *sk, struct ktls_ctx *ctx, bool nonblock)
{
	struct ktls_hs_conn *conn = READ_ONCE(ctx->hs);

	if (likely(!conn))
		return 0;
	return ktls_hs_conn_wait(sk, conn, nonblock);
}

static int ktls_prot_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	int err;

	err = ktls_hs_gate(sk, ctx, msg->msg_flags & MSG_DONTWAIT);
	if (!err)
		err = ktls_settle(sk, ctx);
	if (err)
		return err;
	if (!ktls_tx_on(ctx))
		return ctx->sk_proto->sendmsg(sk, msg, size);
	return ktls_sendmsg(sk, msg, size);
}

static void ktls_prot_splice_eof(struct socket *sock)
{
	struct ktls_ctx *ctx = ktls_ctx(sock->sk);

	if (ktls_hs_gate(sock->sk, ctx, true) || ktls_settle(sock->sk, ctx))
		return;
	if (ktls_tx_on(ctx))
		ktls_splice_eof(sock);
	else if (ctx->sk_proto->splice_eof)
		ctx->sk_proto->splice_eof(sock);
}

static int ktls_prot_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
			     int flags, int *addr_len)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	int err;

	err = ktls_hs_gate(sk, ctx, flags & MSG_DONTWAIT);
	if (!err)
		err = ktls_settle(sk, ctx);
	if (err)
		return err;
	if (!ktls_rx_on(ctx))
		return ctx->sk_proto->recvmsg(sk, msg, len, flags, addr_len);
	return ktls_recvmsg(sk, msg, len, flags, addr_len);
}

static bool ktls_prot_sock_is_readable(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	return ktls_rx_on(ctx) && ktls_rx_is_readable(sk);
}

static __poll_t ktls_ops_poll(struct file *file, struct socket *sock,
			      struct poll_table_struct *wait)
{
	struct ktls_ctx *ctx = ktls_ctx(sock->sk);
	struct ktls_hs_conn *conn = READ_ONCE(ctx->hs);
	__poll_t mask;

	if (ctx->hs_listen)
		return ctx->sk_ops->poll(file, sock, wait) |
		       ktls_hs_listen_poll(sock->sk);
	/* Until a per-socket handshake ends, only errors and hangups. */
	if (conn && !READ_ONCE(conn->ended)) {
		mask = ctx->sk_ops->poll(file, sock, wait);
		return mask & (EPOLLERR | EPOLLHUP | EPOLLRDHUP);
	}
	if (conn && !ktls_hs_conn_done(conn))
		return ctx->sk_ops->poll(file, sock, wait) | EPOLLERR;
	/* On failure sk_err is set, and the base poll reports it. */
	ktls_settle(sock->sk, ctx);
	if (!ktls_rx_on(ctx))
		return ctx->sk_ops->poll(file, sock, wait);
	return ktls_poll(file, sock, wait);
}

static ssize_t ktls_ops_splice_read(struct socket *sock, loff_t *ppos,
				    struct pipe_inode_info *pipe, size_t len,
				    unsigned int flags)
{
	struct ktls_ctx *ctx = ktls_ctx(sock->sk);
	int err;

	err = ktls_hs_gate(sock->sk, ctx, flags & SPLICE_F_NONBLOCK);
	if (!err)
		err = ktls_settle(sock->sk, ctx);
	if (err)
		return err;
	if (!ktls_rx_on(ctx))
		return ctx->sk_ops->splice_read(sock, ppos, pipe, len, flags);
	return ktls_splice_read(sock, ppos, pipe, len, flags);
}

static int ktls_ops_read_sock(struct sock *sk, read_descriptor_t *desc,
			      sk_read_actor_t recv_actor)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	int err;

	/* The caller holds the socket lock: a handshake cannot be waited for. */
	lockdep_assert(lockdep_sock_is_held(sk));
	if (ctx->hs && !ktls_hs_conn_done(ctx->hs))
		return ctx->hs->ended ? ktls_hs_conn_error(ctx->hs) : -EAGAIN;
	err = ktls_keys_install_staged(sk);
	if (err)
		return err;
	if (!ktls_rx_on(ctx))
		return ctx->sk_ops->read_sock(sk, desc, recv_actor);
	return ktls_read_sock(sk, desc, recv_actor);
}

/*
 * Not a proto op: inet_shutdown() sets SEND_SHUTDOWN before it calls the
 * proto's shutdown, and TCP refuses our records from then on.  What the
 * application sent under MSG_MORE goes out ahead of the FIN.
 */
static int ktls_ops_shutdown(struct socket *sock, int how)
{
	struct ktls_ctx *ctx = ktls_ctx(sock->sk);
	int err;

	if (ktls_tx_on(ctx) && (how == SHUT_WR || how == SHUT_RDWR)) {
		err = ktls_tx_shutdown(sock->sk);
		if (err)
			return err;
	}
	return ctx->sk_ops->shutdown(sock, how);
}

/*
 * Take the context out of the per-netns counters.  The socket must still
 * be alive: on close that is before TCP's close, whose last sock_put()
 * frees a socket that is already in TCP_CLOSE (a peer's reset).
 */
static void ktls_ctx_uncount(struct ktls_ctx *ctx)
{
	struct sock *sk = ctx->sk;

	if (ctx->tx_conf == KTLS_CONF_SW)
		ktls_stat_add(sk, KTLS_STAT_CURR_TX_SW, -1);
	else if (ctx->tx_conf == KTLS_CONF_HW)
		ktls_stat_add(sk, KTLS_STAT_CURR_TX_DEVICE, -1);
	if (ctx->rx_conf == KTLS_CONF_SW)
		ktls_stat_add(sk, KTLS_STAT_CURR_RX_SW, -1);
	else if (ctx->rx_conf == KTLS_CONF_HW)
		ktls_stat_add(sk, KTLS_STAT_CURR_RX_DEVICE, -1);
}

/*
 * The socket may be gone already: nothing here may touch ctx->sk.  The
 * context of an offloaded socket itself stays, its ULP slot set: the
 * socket's destructor frees it (device.c).
 */
static void ktls_ctx_free(struct ktls_ctx *ctx)
{
	if (ctx->tx)
		ktls_tx_free(ctx);
	if (ctx->rx)
		ktls_rx_free(ctx);
	ktls_crypto_free(ctx);
	ktls_hs_conn_free(ctx->hs);
	/*
	 * No lock: nothing writes the slot of a context that is going, and a
	 * clone that read it under RCU took a reference of its own, or finds
	 * none (the settings are freed after a grace period).
	 */
	ktls_hs_settings_put(rcu_dereference_protected(ctx->hs_settings, true));
	if (ctx->hs_listen)
		ktls_hs_listen_put(ctx->hs_listen);
	if (!ktls_device_owns_ctx(ctx))
		kfree_rcu(ctx, rcu);
}

/*
 * Detach before handing the socket to TCP's close: from here on the socket
 * is plain TCP again, and sock_diag readers see either the old context
 * (still valid until the grace period ends) or none.  Releases the
 * socket lock.
 */
static void ktls_detach_close(struct sock *sk, struct ktls_ctx *ctx, long timeout)
{
	struct proto *base = ctx->sk_proto;

	sock_owned_by_me(sk);
	write_lock_bh(&sk->sk_callback_lock);
	/* Drivers read an offloaded socket's context until its destructor. */
	if (ktls_device_owns_ctx(ctx))
		ctx->dev.closed = true;
	else
		rcu_assign_pointer(inet_csk(sk)->icsk_ulp_data, NULL);
	WRITE_ONCE(sk->sk_prot, base);
	write_unlock_bh(&sk->sk_callback_lock);
	release_sock(sk);

	ktls_ctx_uncount(ctx);
	base->close(sk, timeout);
	ktls_ctx_free(ctx);
}

static void ktls_close(struct sock *sk, long timeout)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	lock_sock(sk);
	/* A handshake still running stops here, its callbacks given back. */
	if (ctx->hs)
		ktls_hs_conn_stop(ctx->hs);
	/* An alert the record layer owes the peer goes out before close. */
	if (ktls_rx_on(ctx))
		ktls_rx_send_alert_due(sk);
	/* What the application wrote goes out before TCP's FIN. */
	if (ktls_tx_on(ctx))
		ktls_tx_close(sk, timeout);
	if (ktls_rx_on(ctx))
		ktls_rx_close(sk);
	ktls_detach_close(sk, ctx, timeout);
}

/*
 * Wrap @sk in a context of ours and the proto @prots gives for its family.
 * @arm, if any, sets up what the context needs before it is published and
 * leaves nothing behind when it fails.  Only plain TCP sockets of a family
 * we serve: one whose ops someone else replaced (sockmap, another ULP) is
 * not ours to wrap, and the socket-level ops (poll, splice) are replaced
 * as well.
 */
static int ktls_attach(struct sock *sk, struct proto *prots,
		       int (*arm)(struct sock *sk, struct ktls_ctx *ctx))
{
	enum ktls_family family = ktls_family_of(sk);
	struct ktls_ctx *ctx;
	int err;

	/* TCP_ULP: tcp_set_ulp() under the socket lock, process context. */
	sock_owned_by_me(sk);
	if (!sk->sk_socket || sk->sk_socket->ops != ktls_base_ops[family])
		return -EOPNOTSUPP;
	if (!ktls_base_prots[family])
		return -EAFNOSUPPORT;
	if (READ_ONCE(sk->sk_prot) != ktls_base_prots[family])
		return -EOPNOTSUPP;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->sk = sk;
	ctx->sk_proto = READ_ONCE(sk->sk_prot);
	ctx->sk_ops = sk->sk_socket->ops;
	if (arm) {
		err = arm(sk, ctx);
		if (err) {
			kfree(ctx);
			return err;
		}
	}

	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(inet_csk(sk)->icsk_ulp_data, ctx);
	WRITE_ONCE(sk->sk_prot, &prots[family]);
	WRITE_ONCE(sk->sk_socket->ops, &ktls_proto_ops[family]);
	write_unlock_bh(&sk->sk_callback_lock);
	return 0;
}

/*
 * TCP_ULP "tls": established sockets only, as upstream defines it.  A
 * listener is armed through "ktls_hs" instead (ktls_listen_init()), and
 * its children get their context from ktls_clone().
 */
static int ktls_init(struct sock *sk)
{
	if (sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;
	return ktls_attach(sk, ktls_prots, NULL);
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

	/* Closed already, and the context waits for the destructor. */
	if (!ctx || ctx->dev.closed)
		return;
	if (!ktls_device_owns_ctx(ctx))
		rcu_assign_pointer(inet_csk(sk)->icsk_ulp_data, NULL);
	ktls_ctx_uncount(ctx);
	ktls_ctx_free(ctx);
}

/* Work a handshake's timer left while a process owned the socket. */
static void ktls_release_cb(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (!ctx) {
		ktls_base_prots[ktls_family_of(sk)]->release_cb(sk);
		return;
	}
	if (ctx->hs)
		ktls_hs_conn_release_cb(ctx->hs);
	ctx->sk_proto->release_cb(sk);
}

/*
 * Armed listeners (net/hs/listen.c).  Their context lives and dies like
 * any other here; their proto adds accept, close and disconnect.
 */
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

static struct sock *ktls_listen_accept(struct sock *sk,
				       struct proto_accept_arg *arg)
{
	return ktls_hs_listen_accept(sk, arg);
}

/* listen() again after a disconnect: the listener takes children again. */
static int ktls_ops_listen(struct socket *sock, int backlog)
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
	enum ktls_family family = ktls_family_of(newsk);
	struct ktls_ctx *lctx, *ctx;

	/* sk_clone_lock() returns the child bh-locked. */
	lctx = rcu_dereference_protected(icsk->icsk_ulp_data,
					 lockdep_sock_is_held(newsk));
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	icsk->icsk_ulp_ops = NULL;
	/* Freeing goes by the creator: not a proto in our module. */
	WRITE_ONCE(newsk->sk_prot, ktls_base_prots[family]);
	newsk->sk_prot_creator = ktls_base_prots[family];
	/* The listener is closing, and TCP will close its queued children. */
	if (!lctx)
		return;
	newsk->sk_data_ready = lctx->hs_listen->saved_data_ready;

	ctx = kzalloc(sizeof(*ctx), priority);
	if (!ctx)
		return;
	ctx->sk = newsk;
	ctx->sk_proto = lctx->sk_proto;
	ctx->sk_ops = lctx->sk_ops;
	if (ktls_hs_listen_clone(lctx, ctx, priority)) {
		kfree(ctx);
		return;
	}
	/* The ULP reference every socket of ours holds on the module. */
	__module_get(THIS_MODULE);
	rcu_assign_pointer(icsk->icsk_ulp_data, ctx);
	icsk->icsk_ulp_ops = &ktls_ulp_ops;
	WRITE_ONCE(newsk->sk_prot, &ktls_prots[family]);
}

struct tcp_ulp_ops ktls_ulp_ops __read_mostly = {
	.name		= "tls",
	.owner		= THIS_MODULE,
	.init		= ktls_init,
	.update		= ktls_update,
	.release	= ktls_release,
	.get_info	= ktls_diag_get_info,
	.get_info_size	= ktls_diag_get_info_size,
};
EXPORT_SYMBOL_IF_KUNIT(ktls_ulp_ops);

struct tcp_ulp_ops ktls_hs_ulp_ops __read_mostly = {
	.name		= "ktls_hs",
	.owner		= THIS_MODULE,
	.init		= ktls_listen_init,
	.update		= ktls_update,
	.release	= ktls_release,
	.clone		= ktls_clone,
};

static void ktls_build_prot(enum ktls_family family, struct proto *base,
			    const struct proto_ops *base_ops)
{
	struct proto_ops *ops = &ktls_proto_ops[family];	/* not const: built here */
	struct proto *p = &ktls_prots[family];

	*p = *base;
	p->setsockopt = ktls_setsockopt;
	p->getsockopt = ktls_getsockopt;
	p->close = ktls_close;
	p->sendmsg = ktls_prot_sendmsg;
	p->splice_eof = ktls_prot_splice_eof;
	p->recvmsg = ktls_prot_recvmsg;
	p->sock_is_readable = ktls_prot_sock_is_readable;
	p->release_cb = ktls_release_cb;
	ktls_base_prots[family] = base;

	p = &ktls_listen_prots[family];
	*p = *base;
	p->setsockopt = ktls_setsockopt;
	p->getsockopt = ktls_getsockopt;
	p->close = ktls_listen_close;
	p->disconnect = ktls_listen_disconnect;
	p->accept = ktls_listen_accept;

	*ops = *base_ops;
	ops->poll = ktls_ops_poll;
	ops->splice_read = ktls_ops_splice_read;
	ops->read_sock = ktls_ops_read_sock;
	ops->shutdown = ktls_ops_shutdown;
	ops->listen = ktls_ops_listen;
	ktls_base_ops[family] = base_ops;
}

/*
 * The TCP proto and socket ops of @family as a fresh socket gets them;
 * false where the family has no TCP.
 */
static bool ktls_tcp_ops_of(int family, struct proto **prot,
			    const struct proto_ops **ops)
{
	struct socket *sock;

	if (sock_create_kern(&init_net, family, SOCK_STREAM, IPPROTO_TCP,
			     &sock))
		return false;
	*prot = READ_ONCE(sock->sk->sk_prot);
	*ops = sock->ops;
	sock_release(sock);
	return true;
}

void ktls_ulp_setup(void)
{
	const struct proto_ops *ops;
	struct proto *prot;

	ktls_build_prot(KTLS_INET, &tcp_prot, &inet_stream_ops);

	/* IPv6 may be disabled or absent; IPv4 sockets work regardless. */
	if (ktls_tcp_ops_of(AF_INET6, &prot, &ops))
		ktls_build_prot(KTLS_INET6, prot, ops);
	else
		pr_info("IPv6 TCP unavailable, the ULP serves IPv4 sockets only\n");
}
