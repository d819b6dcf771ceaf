/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * All the record layer knows of the in-kernel handshake: the hooks it
 * calls where a handshake may own the socket (the data path, poll, close,
 * free and the SOL_TLS options).  Keys go the other way, through
 * ktls_keys_stage() and ktls_keys_install_staged().  On a socket that
 * never started a handshake each hook is one well-predicted branch; the
 * work behind it is in seam.c.
 */
#ifndef _KTLS_HS_SEAM_H
#define _KTLS_HS_SEAM_H

#include <linux/compiler.h>
#include <linux/poll.h>
#include <linux/sockptr.h>
#include <net/sock.h>

#include "../record/ktls.h"

struct ktls_hs_conn;

/* The slow halves of the hooks below (conn.c, seam.c). */
int ktls_hs_conn_wait(struct sock *sk, struct ktls_hs_conn *conn,
		      bool nonblock);
int ktls_hs_conn_gate_locked(struct ktls_hs_conn *conn);
bool ktls_hs_sock_poll(struct ktls_ctx *ctx, struct file *file,
		       struct socket *sock, struct poll_table_struct *wait,
		       __poll_t *mask);
void ktls_hs_conn_stop(struct ktls_hs_conn *conn);
void ktls_hs_conn_release_cb(struct ktls_hs_conn *conn);
void ktls_hs_sock_free(struct ktls_ctx *ctx);

/**
 * ktls_hs_gate() - may the data path run now?
 * @sk:		the socket, unlocked; process context, may sleep
 * @ctx:	its context
 * @nonblock:	do not wait for a handshake in progress
 *
 * A per-socket handshake in progress holds the data path: the bytes in
 * TCP's queue are handshake records, not the application's.
 * Return: 0 to go on; -EAGAIN, -EINTR/-ERESTARTSYS while the handshake
 * runs; its error, for good, once it failed.
 */
static inline int ktls_hs_gate(struct sock *sk, struct ktls_ctx *ctx,
			       bool nonblock)
{
	/* Pairs with the WRITE_ONCE() that starts a per-socket handshake. */
	struct ktls_hs_conn *conn = READ_ONCE(ctx->hs);

	if (likely(!conn))
		return 0;
	return ktls_hs_conn_wait(sk, conn, nonblock);
}

/**
 * ktls_hs_gate_locked() - ktls_hs_gate() for a caller holding the lock
 * @ctx:	the context of a socket the caller locked (read_sock)
 *
 * The lock keeps the handshake from advancing, so it is not waited for.
 * Return: 0 to go on; -EAGAIN while the handshake runs; its error once
 * it failed.
 */
static inline int ktls_hs_gate_locked(struct ktls_ctx *ctx)
{
	if (likely(!ctx->hs))
		return 0;
	return ktls_hs_conn_gate_locked(ctx->hs);
}

/**
 * ktls_hs_poll() - the handshake's say in poll()
 * @ctx:	the context; no lock, as poll takes none
 * @file:	as for proto_ops.poll
 * @sock:	the socket
 * @wait:	the poll table
 * @mask:	the events, when the handshake decided them
 *
 * An armed listener adds the children it handed off; a socket whose
 * handshake runs or failed reports only errors and hangups.
 * Return: true when @mask is the answer, false when the record layer's
 * poll gives it.
 */
static inline bool ktls_hs_poll(struct ktls_ctx *ctx, struct file *file,
				struct socket *sock,
				struct poll_table_struct *wait, __poll_t *mask)
{
	if (likely(!READ_ONCE(ctx->hs) && !ctx->hs_listen))
		return false;
	return ktls_hs_sock_poll(ctx, file, sock, wait, mask);
}

/**
 * ktls_hs_stop() - close() stops a handshake still running
 * @sk:		the socket, locked by the caller (close)
 * @ctx:	its context
 *
 * The handshake's callbacks are given back to the socket.
 */
static inline void ktls_hs_stop(struct sock *sk, struct ktls_ctx *ctx)
{
	sock_owned_by_me(sk);
	if (unlikely(ctx->hs))
		ktls_hs_conn_stop(ctx->hs);
}

/**
 * ktls_hs_release_cb() - work a handshake's timer left for the owner
 * @ctx:	the context of a socket whose owner releases it (release_cb)
 */
static inline void ktls_hs_release_cb(struct ktls_ctx *ctx)
{
	if (unlikely(ctx->hs))
		ktls_hs_conn_release_cb(ctx->hs);
}

/**
 * ktls_hs_free() - free what the handshake hung off a context
 * @ctx:	a context being freed; no lock, its socket may be gone
 */
static inline void ktls_hs_free(struct ktls_ctx *ctx)
{
	if (unlikely(ctx->hs || rcu_access_pointer(ctx->hs_settings) ||
		     ctx->hs_listen))
		ktls_hs_sock_free(ctx);
}

/*
 * SOL_TLS options (sockopt.c of the handshake), the socket unlocked:
 * ktls_hs_is_option() says which are the handshake's, set and get
 * handle those.
 */
bool ktls_hs_is_option(int optname);
int ktls_hs_setsockopt(struct sock *sk, int optname, sockptr_t optval,
		       unsigned int optlen);
int ktls_hs_getsockopt(struct sock *sk, int optname, char __user *optval,
		       int __user *optlen);

/**
 * ktls_hs_option_refused() - does the handshake refuse a record option?
 * @sk:		the socket, locked
 * @record:	the option acts on the connection's records (TLS_TX, ...)
 * @set:	setsockopt rather than getsockopt
 *
 * An armed listener has no records of its own; the keys of a handshake
 * still running would be overwritten.
 * Return: 0, -EINVAL or -EBUSY.
 */
int ktls_hs_option_refused(struct sock *sk, bool record, bool set);

/**
 * ktls_hs_fallback_ulp() - TCP_ULP "tls" again on a socket handed over
 * @sk:		the socket, unlocked
 * @optval:	the ULP name asked for
 * @optlen:	its length
 *
 * Return: true when the request succeeds as it is.
 */
bool ktls_hs_fallback_ulp(struct sock *sk, sockptr_t optval,
			  unsigned int optlen);

/**
 * ktls_hs_ops_listen() - listen() of every socket of ours
 * @sock:	the socket, unlocked
 * @backlog:	as for listen()
 *
 * A disconnected armed listener that listens again takes children
 * again.  Every socket shares it, since accept() gives a listener's
 * socket ops to its children.
 * Return: as TCP's listen().
 */
int ktls_hs_ops_listen(struct socket *sock, int backlog);

#endif /* _KTLS_HS_SEAM_H */
