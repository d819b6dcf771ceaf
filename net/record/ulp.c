// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TCP ULP "tls": attaching to a socket, the protocol ops we place in
 * front of TCP's, and detaching on close.  This file owns the lifetime of
 * struct ktls_ctx; the record layer and the handshake hang their state off
 * it but never allocate or free it.  The ULP "ktls_hs" of armed listeners
 * builds on what is exported here (net/hs/listen_ulp.c); the handshake
 * is otherwise reached only through the hooks of net/hs/seam.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <net/inet_common.h>
#include <net/tcp.h>
#include <kunit/visibility.h>

#include <ktls_hs/compat_net.h>

#include "ktls.h"
#include "../offload/device.h"
#include "../hs/seam.h"

/*
 * Our copies of TCP's protocol ops, one per address family, each built
 * from the pristine TCP proto of that family.  tcpv6_prot is not exported,
 * so ktls_ulp_setup() reads it off a kernel socket it opens once.
 */
static struct proto ktls_prots[KTLS_NR_FAMILIES];
static struct proto *ktls_base_prots[KTLS_NR_FAMILIES];
static struct proto_ops ktls_proto_ops[KTLS_NR_FAMILIES];	/* not const: built at load */
static const struct proto_ops *ktls_base_ops[KTLS_NR_FAMILIES];

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

/**
 * ktls_plain_tx_locked() - may bytes go to TCP as they are?
 * @sk:	a socket of ours, locked by the caller
 *
 * For callers that hold the socket lock and so cannot enter the record
 * layer's TX, which takes the send lock first: they may hand TCP the
 * bytes themselves only where no record is sent (no TX keys) and no
 * handshake holds the socket.
 *
 * Return: true where TCP may take the bytes as they are.
 */
bool ktls_plain_tx_locked(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	sock_owned_by_me(sk);
	return !ktls_hs_gate_locked(ctx) && !ktls_tx_on(ctx);
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

int ktls_prot_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
		      int flags)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	int err;

	err = ktls_hs_gate(sk, ctx, flags & MSG_DONTWAIT);
	if (!err)
		err = ktls_settle(sk, ctx);
	if (err)
		return err;
	if (!ktls_rx_on(ctx))
		return ktls_proto_recvmsg(ctx->sk_proto, sk, msg, len, flags);
	return ktls_recvmsg(sk, msg, len, flags);
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
	__poll_t mask;

	if (ktls_hs_poll(ctx, file, sock, wait, &mask))
		return mask;
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
	err = ktls_hs_gate_locked(ctx);
	if (!err)
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
	ktls_hs_free(ctx);
	if (!ktls_device_owns_ctx(ctx))
		kfree_rcu(ctx, rcu);
}

/**
 * ktls_detach_close() - detach from a socket and close it
 * @sk:		the socket, locked by the caller; unlocked on return
 * @ctx:	its context, freed on return
 * @timeout:	as for the proto's close
 *
 * Detach before handing the socket to TCP's close: from here on the socket
 * is plain TCP again, and sock_diag readers see either the old context
 * (still valid until the grace period ends) or none.
 */
void ktls_detach_close(struct sock *sk, struct ktls_ctx *ctx, long timeout)
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
	ktls_hs_stop(sk, ctx);
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

/**
 * ktls_attach() - wrap a socket in a context of ours
 * @sk:		a TCP socket, locked (TCP_ULP), process context
 * @prots:	the protos to give it, one per enum ktls_family
 * @arm:	if not NULL, sets up what the context needs before it is
 *		published and leaves nothing behind when it fails
 *
 * Only plain TCP sockets of a family we serve: one whose ops someone else
 * replaced (sockmap, another ULP) is not ours to wrap, and the
 * socket-level ops (poll, splice) are replaced as well.
 * Return: 0, or an errno with the socket left as it was.
 */
int ktls_attach(struct sock *sk, struct proto *prots,
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
 * listener is armed through "ktls_hs" instead (net/hs/listen_ulp.c), and
 * its children get their context from ktls_attach_clone().
 */
static int ktls_init(struct sock *sk)
{
	if (sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;
	return ktls_attach(sk, ktls_prots, NULL);
}

/* ULP update: sockmap swaps the ops under us; they become our base. */
void ktls_update(struct sock *sk, struct proto *p,
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

/* ULP release: the socket is destroyed without passing through our close. */
void ktls_release(struct sock *sk)
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
	ktls_hs_release_cb(ctx);
	ctx->sk_proto->release_cb(sk);
}

/**
 * ktls_attach_clone() - give a child of an armed listener a context
 * @newsk:	the child, bh-locked in softirq; plain TCP on entry
 * @lctx:	the listener's context
 * @gfp:	allocation mode TCP gives us (atomic)
 * @arm:	sets up what the child's context needs, leaving nothing
 *		behind when it fails
 *
 * The child gets a context of its own and the ordinary "tls" ULP and
 * proto.  If that fails it is left plain TCP.
 * Return: 0, or an errno.
 */
int ktls_attach_clone(struct sock *newsk, struct ktls_ctx *lctx, gfp_t gfp,
		      int (*arm)(struct ktls_ctx *lctx, struct ktls_ctx *ctx,
				 gfp_t gfp))
{
	struct inet_connection_sock *icsk = inet_csk(newsk);
	struct ktls_ctx *ctx;
	int err;

	lockdep_assert(lockdep_sock_is_held(newsk));
	ctx = kzalloc(sizeof(*ctx), gfp);
	if (!ctx)
		return -ENOMEM;
	ctx->sk = newsk;
	ctx->sk_proto = lctx->sk_proto;
	ctx->sk_ops = lctx->sk_ops;
	err = arm(lctx, ctx, gfp);
	if (err) {
		kfree(ctx);
		return err;
	}
	/* The ULP reference every socket of ours holds on the module. */
	__module_get(THIS_MODULE);
	rcu_assign_pointer(icsk->icsk_ulp_data, ctx);
	icsk->icsk_ulp_ops = &ktls_ulp_ops;
	WRITE_ONCE(newsk->sk_prot, &ktls_prots[ktls_family_of(newsk)]);
	return 0;
}

struct tcp_ulp_ops ktls_ulp_ops __read_mostly = {
	.name		= "tls",
	.owner		= THIS_MODULE,
	.init		= ktls_init,
	.update		= ktls_update,
	.release	= ktls_release,
	.get_info	= KTLS_ULP_GET_INFO_OP,
	.get_info_size	= KTLS_ULP_GET_INFO_SIZE_OP,
};
EXPORT_SYMBOL_IF_KUNIT(ktls_ulp_ops);

/*
 * connect(AF_UNSPEC) would have TCP drop its queues and sequence state
 * under records, keys and a handshake that go on referring to them; the
 * socket is not reused after TLS, as with upstream.
 */
static int ktls_disconnect(struct sock *sk, int flags)
{
	return -EOPNOTSUPP;
}

static void ktls_build_prot(enum ktls_family family, struct proto *base,
			    const struct proto_ops *base_ops)
{
	struct proto_ops *ops = &ktls_proto_ops[family];	/* not const: built here */
	struct proto *p = &ktls_prots[family];

	*p = *base;
	p->setsockopt = ktls_setsockopt;
	p->getsockopt = ktls_getsockopt;
	p->close = ktls_close;
	p->disconnect = ktls_disconnect;
	p->sendmsg = ktls_prot_sendmsg;
	p->splice_eof = ktls_prot_splice_eof;
	p->recvmsg = KTLS_PROT_RECVMSG_OP;
	p->sock_is_readable = ktls_prot_sock_is_readable;
	p->release_cb = ktls_release_cb;
	ktls_compat_prot_init(p);
	ktls_base_prots[family] = base;

	*ops = *base_ops;
	ops->poll = ktls_ops_poll;
	ops->splice_read = ktls_ops_splice_read;
	ops->read_sock = ktls_ops_read_sock;
	ops->shutdown = ktls_ops_shutdown;
	ops->listen = ktls_hs_ops_listen;
	ktls_compat_ops_init(ops);
	ktls_base_ops[family] = base_ops;
}

/**
 * ktls_base_prot() - the TCP proto our protos of a family are built from
 * @family:	the family
 *
 * Return: the proto, or NULL where the family has no TCP.
 */
struct proto *ktls_base_prot(enum ktls_family family)
{
	return ktls_base_prots[family];
}

/**
 * ktls_derive_prot() - a proto of ours for a family, for the caller to adapt
 * @family:	the family
 * @p:		set to the base TCP proto with our socket options in front
 *
 * Return: false where the family has no TCP, @p then untouched.
 */
bool ktls_derive_prot(enum ktls_family family, struct proto *p)
{
	struct proto *base = ktls_base_prots[family];

	if (!base)
		return false;
	*p = *base;
	p->setsockopt = ktls_setsockopt;
	p->getsockopt = ktls_getsockopt;
	return true;
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
