/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The socket side of the in-kernel server handshake: the settings an
 * armed listener (or a per-socket handshake) was given (config.c), one
 * handshake in progress on a socket (conn.c), and the armed listener
 * that runs handshakes on its children before accept() sees them
 * (listen.c, its ULP in listen_ulp.c).  The protocol itself is the engine's (engine.h).
 */
#ifndef _KTLS_HS_HS_H
#define _KTLS_HS_HS_H

#include <linux/key.h>
#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <uapi/linux/ktls_hs.h>

#include "engine.h"
#include "seam.h"

struct sock;
struct ktls_ctx;
struct request_sock;
struct ktls_hs_listen;
struct proto_accept_arg;
struct ktls_peer_cert;

/**
 * struct ktls_hs_settings - what setsockopt configured; immutable once
 * published, replaced (RCU) as a whole on every change
 * @ref:	holders: the socket that configured it, handshakes started
 *		from it
 * @keys:	identity keys, referenced; each handshake resolves them to
 *		identities when it starts, so a revoked or updated key
 *		affects new handshakes only
 * @nr_keys:	how many
 * @suites:	KTLS_HS_SUITE_* of the uapi
 * @groups:	KTLS_HS_GROUP_* of the uapi
 * @timeout_ms:	a handshake not done by then is dropped
 * @versions:	KTLS_HS_VERSION_* of the uapi
 * @ems_optional: TLS 1.2 clients without extended master secret pass
 * @alpn_len:	bytes of @alpn, a protocol_name_list; 0 = no ALPN
 * @fallback:	KTLS_HS_FALLBACK: hand over what we cannot serve
 * @sni_policy:	KTLS_HS_SNI_* of the uapi
 * @tickets:	ticket key group, referenced; NULL: no tickets
 * @ticket_lifetime_s, @ticket_group, @ticket_rotate_s, @ticket_flags:
 *		KTLS_HS_TICKETS as set, for getsockopt
 * @trust_key:	the "ktls_trust" key client certificates are verified
 *		against, referenced; NULL: none is asked for
 * @client_auth: KTLS_HS_CLIENT_AUTH_* mode of the uapi
 * @client_auth_flags: KTLS_HS_CLIENT_AUTH_F_* of the uapi
 * @rcu:	freed after a grace period: clones read it under RCU
 */
struct ktls_hs_settings {
	refcount_t ref;
	struct key *keys[KTLS_HS_IDENTITIES_MAX];
	unsigned int nr_keys;
	u32 suites;
	u32 groups;
	u32 timeout_ms;
	u32 versions;
	bool ems_optional;
	u16 alpn_len;
	u8 alpn[KTLS_HS_ALPN_MAX];
	bool fallback;
	u8 sni_policy;
	struct ktls_hs_ticket_keys *tickets;
	u32 ticket_lifetime_s;
	u32 ticket_group;
	u32 ticket_rotate_s;
	u32 ticket_flags;
	struct key *trust_key;
	u32 client_auth;
	u32 client_auth_flags;
	struct rcu_head rcu;
};

/* config.c */
struct ktls_hs_settings *ktls_hs_settings_get(struct ktls_hs_settings __rcu **slot);
void ktls_hs_settings_put(struct ktls_hs_settings *s);
bool ktls_hs_is_settings_option(int optname);
int ktls_hs_settings_set(struct sock *sk,
			 struct ktls_hs_settings __rcu **slot, int optname,
			 sockptr_t optval, unsigned int optlen);
int ktls_hs_settings_rotate(struct sock *sk,
			    struct ktls_hs_settings __rcu **slot);
int ktls_hs_settings_get_opt(const struct ktls_hs_settings *s, int optname,
			     char __user *optval, int __user *optlen);

/* Why a handshake ended without keys. */
enum ktls_hs_end {
	KTLS_HS_END_DONE,
	KTLS_HS_END_FAILED,	/* an alert was sent or received */
	KTLS_HS_END_TIMEOUT,
	KTLS_HS_END_DROPPED,	/* no memory, too many handshakes */
	/* Handed to userspace with the ClientHello unread (KTLS_HS_FALLBACK). */
	KTLS_HS_END_FALLBACK,
};

/* Deferred work (conn->deferred bits). */
enum {
	/* The timer fired while the socket was owned: release_cb's to do. */
	KTLS_HS_DEFER_TIMER,
	/* Write space for a child on the stub socket: the timer's to do. */
	KTLS_HS_DEFER_WRITE,
};

/* Where a child of an armed listener is, as far as the listener knows. */
enum ktls_hs_child_state {
	KTLS_HS_CHILD_QUEUED,	/* in TCP's accept queue, as TCP put it */
	KTLS_HS_CHILD_PULLED,	/* on the listener's list, with its request */
	KTLS_HS_CHILD_ADOPTED,	/* on the list; accept() took it early */
	KTLS_HS_CHILD_HANDOFF,	/* done, waiting for accept() on @handoff */
	KTLS_HS_CHILD_GONE,	/* back in the queue, or being closed */
};

/**
 * struct ktls_hs_conn - one server handshake on one socket
 * @sk:		the socket
 * @listen:	the armed listener the socket is a child of, or NULL for a
 *		per-socket handshake; the child holds a reference on the
 *		listening socket while it is in the listener's hands
 * @req:	for a pulled child: its request sock, kept so that the
 *		child can go back into the accept queue when done
 * @node:	on the listener's @children or @handoff list
 * @state:	enum ktls_hs_child_state, under the listener's lock
 * @settings:	what the handshake offers (referenced)
 * @cfg:	the engine's view of @settings, identities resolved
 * @engine:	the engine, in @mem (@mem_size bytes); NULL once ended
 * @timer:	handshake timeout; also runs what write space left (conn.c)
 * @deadline:	when the handshake times out, in jiffies
 * @deferred:	KTLS_HS_DEFER_* bits, work left for later
 * @end:	why the handshake ended, once @ended
 * @err:	once @ended without keys: the positive errno the socket's
 *		calls give for good (ktls_hs_conn_error())
 * @tcp_err:	sk_err as TCP reported it to our error-report callback
 * @ended:	set once, when the handshake ends
 * @in_push:	sending: TCP may call our write-space callback
 * @running:	a handshake step is on the stack: others leave it @again
 * @again:	something came in while @running: the runner steps again
 * @peeking:	the first ClientHello may be handed over: the engine is fed
 *		copies, TCP's queue left as it is (conn.c)
 * @peeked:	bytes of TCP's queue fed to the engine so far while @peeking
 * @stubbed:	@stub stands in for the struct socket a child lacks
 * @saved_data_ready, @saved_write_space, @saved_error_report,
 * @saved_allocation, @saved_use_task_frag: what the socket had before;
 *		the error report tells us of a reset; sends from softirq
 *		need GFP_ATOMIC, and the socket's own page frag rather than
 *		that of whatever task the softirq interrupted
 * @stub:	see ktls_hs_conn_start(); a whole socket_alloc, zeroed, since
 *		/proc/net/tcp and sock_diag read the inode of sk_socket
 * @session:	negotiated parameters, copied when the engine is done
 * @peer:	the client's certificate, as the engine verified it
 *		(@session.peer_verified); allocated when a trust store is
 *		configured
 * @rcu:	freed after a grace period (timer, the stub's wait queue)
 */
struct ktls_hs_conn {
	struct sock *sk;
	struct ktls_hs_listen *listen;
	struct request_sock *req;
	struct list_head node;
	enum ktls_hs_child_state state;
	struct ktls_hs_settings *settings;
	struct ktls_hs_config cfg;
	struct ktls_hs *engine;
	void *mem;
	size_t mem_size;
	struct timer_list timer;
	unsigned long deadline;
	unsigned long deferred;
	enum ktls_hs_end end;
	int err;
	int tcp_err;
	bool ended;
	bool in_push;
	bool running;
	bool again;
	bool peeking;
	u32 peeked;
	bool stubbed;
	void (*saved_data_ready)(struct sock *sk);
	void (*saved_write_space)(struct sock *sk);
	void (*saved_error_report)(struct sock *sk);
	gfp_t saved_allocation;
	bool saved_use_task_frag;
	struct socket_alloc stub;
	struct ktls_hs_session session;
	struct ktls_peer_cert *peer;
	struct rcu_head rcu;
};

/* conn.c */
struct ktls_hs_conn *ktls_hs_conn_alloc(struct sock *sk,
					struct ktls_hs_settings *settings,
					gfp_t gfp);
void ktls_hs_conn_start(struct ktls_hs_conn *conn,
			void (*data_ready)(struct sock *sk),
			void (*write_space)(struct sock *sk));
void ktls_hs_conn_run(struct ktls_hs_conn *conn);
void ktls_hs_conn_free(struct ktls_hs_conn *conn);

/*
 * The handshake ended and left the socket to the application: with keys,
 * or handed over without (KTLS_HS_END_FALLBACK), the data path then
 * being plain TCP.
 */
static inline bool ktls_hs_conn_done(const struct ktls_hs_conn *conn)
{
	/* Pairs with the release in ktls_hs_conn_end(). */
	return smp_load_acquire(&conn->ended) &&
	       (conn->end == KTLS_HS_END_DONE ||
		conn->end == KTLS_HS_END_FALLBACK);
}

/*
 * What the socket's calls give once its handshake failed: the socket's
 * own error (ECONNRESET after a reset), ETIMEDOUT at the handshake
 * timeout, EPROTO on an alert or a peer that closed mid-handshake.
 * For a handshake seen ended (under the socket lock, or after
 * ktls_hs_conn_done()) without leaving the socket to the application.
 */
static inline int ktls_hs_conn_error(const struct ktls_hs_conn *conn)
{
	return -(conn->err ?: EPROTO);
}

/* The handshake handed the socket over with its ClientHello unread. */
static inline bool ktls_hs_conn_fallen_back(const struct ktls_hs_conn *conn)
{
	/* Pairs with the release in ktls_hs_conn_end(), as above. */
	return smp_load_acquire(&conn->ended) &&
	       conn->end == KTLS_HS_END_FALLBACK;
}

/**
 * struct ktls_hs_listen - an armed listener
 * @sk:		the listening socket
 * @ref:	the listener's context and every child's handshake hold one
 * @lock:	guards the lists, @closing, @stats and children's @state
 *		(taken in softirq)
 * @children:	children whose handshake runs (struct ktls_hs_conn.node)
 * @handoff:	children done that accept() took before we could move
 *		them out of the queue, so they cannot go back into it
 * @closing:	the listener stopped listening: its children are closed
 * @accepting:	accept() calls inside TCP's accept right now; the queue
 *		is not ours to take children out of meanwhile
 * @pull_due:	a pull was put off for them; the last one out does it
 * @seen:	the accept queue's tail after the last pull, where the next
 *		starts; NULL: from the head (under @lock and the queue's)
 * @saved_data_ready: the listener's own callback, for waking accept()
 * @stats:	counters for KTLS_HS_STATS
 * @rcu:	freed after a grace period: softirq finds it through the
 *		listener without a reference
 */
struct ktls_hs_listen {
	struct sock *sk;
	refcount_t ref;
	spinlock_t lock;		/* see above: lists, state, stats */
	struct list_head children;
	struct list_head handoff;
	bool closing;
	unsigned int accepting;
	bool pull_due;
	struct request_sock *seen;
	void (*saved_data_ready)(struct sock *sk);
	struct ktls_hs_listen_stats stats;
	struct rcu_head rcu;
};

/* listen.c */
int ktls_hs_listen_arm(struct sock *sk, struct ktls_ctx *ctx);
int ktls_hs_listen_clone(struct ktls_ctx *lctx, struct ktls_ctx *ctx, gfp_t gfp);
struct sock *ktls_hs_listen_accept(struct sock *sk, struct proto_accept_arg *arg);
__poll_t ktls_hs_listen_poll(struct sock *sk);
void ktls_hs_listen_child_end(struct ktls_hs_conn *conn);
void ktls_hs_listen_stop(struct sock *sk);
void ktls_hs_listen_restart(struct sock *sk);
void ktls_hs_listen_release(struct sock *sk, struct ktls_ctx *ctx);
void ktls_hs_listen_put(struct ktls_hs_listen *l);
int ktls_hs_listen_stats(struct sock *sk, char __user *optval,
			 int __user *optlen);
void ktls_hs_listen_exit(void);

/* listen_ulp.c: the ULP "ktls_hs" of armed listeners */
extern struct tcp_ulp_ops ktls_hs_ulp_ops;
void ktls_hs_listen_setup(void);

#endif /* _KTLS_HS_HS_H */
