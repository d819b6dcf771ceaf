// SPDX-License-Identifier: GPL-2.0-only
/*
 * The handshake's half of the hooks in seam.h, for the sockets that have
 * a handshake or are armed listeners: what poll reports, what the data
 * path may do under the socket lock, which record options are refused,
 * and what goes when the context goes.
 */
#include <linux/poll.h>
#include <net/sock.h>

#include "../record/ktls.h"
#include "hs.h"

/* For ktls_hs_gate_locked(): the lock holds the handshake where it is. */
int ktls_hs_conn_gate_locked(struct ktls_hs_conn *conn)
{
	lockdep_assert(lockdep_sock_is_held(conn->sk));
	if (ktls_hs_conn_done(conn))
		return 0;
	return conn->ended ? ktls_hs_conn_error(conn) : -EAGAIN;
}

/* For ktls_hs_poll(), on a socket with a handshake or an armed listener. */
bool ktls_hs_sock_poll(struct ktls_ctx *ctx, struct file *file,
		       struct socket *sock, struct poll_table_struct *wait,
		       __poll_t *mask)
{
	struct ktls_hs_conn *conn = READ_ONCE(ctx->hs);

	if (ctx->hs_listen) {
		*mask = ctx->sk_ops->poll(file, sock, wait) |
			ktls_hs_listen_poll(sock->sk);
		return true;
	}
	if (!conn)
		return false;
	/* Until a per-socket handshake ends, only errors and hangups. */
	if (!READ_ONCE(conn->ended)) {
		*mask = ctx->sk_ops->poll(file, sock, wait) &
			(EPOLLERR | EPOLLHUP | EPOLLRDHUP);
		return true;
	}
	if (!ktls_hs_conn_done(conn)) {
		*mask = ctx->sk_ops->poll(file, sock, wait) | EPOLLERR;
		return true;
	}
	return false;
}

int ktls_hs_option_refused(struct sock *sk, bool record, bool set)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	sock_owned_by_me(sk);
	/* An armed listener has no records of its own. */
	if (ctx->hs_listen && record)
		return -EINVAL;
	/* Keys of a handshake still running would be overwritten. */
	if (set && ctx->hs && !ktls_hs_conn_done(ctx->hs))
		return -EBUSY;
	return 0;
}

/* For ktls_hs_free(): the socket may be gone, ctx->sk is not touched. */
void ktls_hs_sock_free(struct ktls_ctx *ctx)
{
	ktls_hs_conn_free(ctx->hs);
	/*
	 * No lock, and none needed: the settings are replaced only by
	 * setsockopt under the socket lock, and no setsockopt reaches a
	 * context that is being freed (its socket is detached or
	 * destroyed).  A clone that read the settings under RCU took a
	 * reference of its own, or finds none: they are freed after a
	 * grace period.
	 */
	ktls_hs_settings_put(rcu_dereference_protected(ctx->hs_settings, true));
	if (ctx->hs_listen)
		ktls_hs_listen_put(ctx->hs_listen);
}
