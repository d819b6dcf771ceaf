// SPDX-License-Identifier: GPL-2.0-only
/*
 * Armed listeners: children of a listening socket run the server
 * handshake in the kernel, and accept() sees only those whose handshake
 * completed.
 *
 * TCP puts every new child into the listener's accept queue and then
 * calls the listener's data-ready callback; ours takes the children
 * whose handshake runs back out of the queue (keeping their request
 * sock) and holds them on a list.  A child whose handshake completes
 * goes back into the accept queue, so that accept(), poll(), blocking,
 * memcg charging and the listener's teardown all stay TCP's own.  The
 * children held count toward the listen backlog, so the backlog bounds
 * the handshakes in progress per listener, as it bounds queued
 * connections.  An accept() racing with us may still dequeue a child in
 * handshake; we then adopt it and hand it over directly when it is done.
 *
 * TCP's accept checks that the queue is not empty and then dequeues,
 * trusting the listener's socket lock to keep other removers out; we
 * take children out from softirq without that lock.  So we never do it
 * while an accept() is inside TCP's accept: a pull that meets one is
 * left to the accept() to do on its way out.
 *
 * Failed children are closed from a work item: closing a socket may
 * sleep, and the handshake ends in softirq.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/inet_connection_sock.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <trace/events/sock.h>

#include <ktls_hs/compat_net.h>

#include "../record/ktls.h"
#include "events.h"
#include "hs.h"

/* Children to close in process context: conns, or bare requests. */
static LIST_HEAD(ktls_hs_reap_conns);
static struct request_sock *ktls_hs_reap_reqs;
static DEFINE_SPINLOCK(ktls_hs_reap_lock);
static void ktls_hs_reap_fn(struct work_struct *work);
static DECLARE_WORK(ktls_hs_reap_work, ktls_hs_reap_fn);

static void ktls_hs_listen_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct ktls_hs_listen, rcu));
}

void ktls_hs_listen_put(struct ktls_hs_listen *l)
{
	if (l && refcount_dec_and_test(&l->ref))
		call_rcu(&l->rcu, ktls_hs_listen_free_rcu);
}

/* The handshake of a child of ours; NULL for a child we could not set up. */
static struct ktls_hs_conn *ktls_hs_child_conn(const struct sock *child)
{
	struct ktls_ctx *ctx;

	if (inet_csk(child)->icsk_ulp_ops != &ktls_ulp_ops)
		return NULL;
	ctx = ktls_ctx(child);
	return ctx ? ctx->hs : NULL;
}

/*
 * The children we hold count toward the listener's sk_ack_backlog.  TCP
 * changes that count only under the accept queue's lock, with a plain
 * read-modify-write, so ours take the same lock: under our own lock
 * alone, an update racing with a child TCP queues on another CPU is
 * lost, and the count no longer drains to zero when the listener stops.
 * Lock order: ours, then the queue's.
 */
static void ktls_hs_backlog_adjust(struct ktls_hs_listen *l, int delta)
{
	struct sock *lsk = l->sk;
	struct request_sock_queue *queue = &inet_csk(lsk)->icsk_accept_queue;

	lockdep_assert_held(&l->lock);
	spin_lock(&queue->rskq_lock);
	WRITE_ONCE(lsk->sk_ack_backlog, lsk->sk_ack_backlog + delta);
	spin_unlock(&queue->rskq_lock);
}

/* Queue a child for closing; @conn may be NULL when only @req has it. */
static void ktls_hs_reap(struct ktls_hs_conn *conn, struct request_sock *req)
{
	spin_lock_bh(&ktls_hs_reap_lock);
	if (conn) {
		list_add_tail(&conn->node, &ktls_hs_reap_conns);
	} else {
		req->dl_next = ktls_hs_reap_reqs;
		ktls_hs_reap_reqs = req;
	}
	spin_unlock_bh(&ktls_hs_reap_lock);
	schedule_work(&ktls_hs_reap_work);
}

static int ktls_hs_discard_actor(read_descriptor_t *desc, struct sk_buff *skb,
				 unsigned int offset, size_t len)
{
	return len;
}

/*
 * Close a child nobody accepted, as its owner would: what the client
 * sent is read and dropped first, so that TCP ends with a FIN after our
 * alert rather than a reset that could overtake it.  Takes over the
 * reference the accept queue held.
 */
static void ktls_hs_close_child(struct sock *child, struct request_sock *req)
{
	read_descriptor_t desc = { .count = 1 };

	if (req)
		ktls_reqsk_put(req);
	lock_sock(child);
	if (child->sk_state != TCP_LISTEN)
		tcp_read_sock(child, &desc, ktls_hs_discard_actor);
	release_sock(child);
	child->sk_prot->close(child, 0);
}

static void ktls_hs_reap_fn(struct work_struct *work)
{
	struct request_sock *reqs, *req;
	struct ktls_hs_conn *conn;
	LIST_HEAD(conns);

	spin_lock_bh(&ktls_hs_reap_lock);
	list_splice_init(&ktls_hs_reap_conns, &conns);
	reqs = ktls_hs_reap_reqs;
	ktls_hs_reap_reqs = NULL;
	spin_unlock_bh(&ktls_hs_reap_lock);

	while (!list_empty(&conns)) {
		conn = list_first_entry(&conns, struct ktls_hs_conn, node);
		list_del_init(&conn->node);
		req = conn->req;
		conn->req = NULL;
		/* Frees @conn, with the child's context. */
		ktls_hs_close_child(conn->sk, req);
		cond_resched();
	}
	while ((req = reqs)) {
		reqs = req->dl_next;
		ktls_hs_close_child(req->sk, req);
		cond_resched();
	}
}

/*
 * Take the children still in handshake out of the accept queue.  Those
 * whose handshake failed before we got to them, and those we could not
 * set up at all, are closed.  Their slots in the backlog stay taken.
 *
 * What a walk leaves in the queue is done, or a Fast Open child; TCP
 * only appends after it, so the next walk starts after the tail the last
 * one saw (@l->seen) and costs the children new since, not the whole
 * queue of done children an application slow to accept() lets grow.
 * Anything else that changes the queue sends the next walk back to its
 * head: accept() dequeueing, a child left in the queue that ends.
 */
static void ktls_hs_listen_pull(struct ktls_hs_listen *l)
{
	struct request_sock_queue *queue = &inet_csk(l->sk)->icsk_accept_queue;
	struct request_sock *req, **pprev, *last = NULL, *taken = NULL;
	struct ktls_hs_conn *conn;

	spin_lock_bh(&l->lock);
	if (l->closing)
		goto out;
	if (l->accepting) {
		l->pull_due = true;
		goto out;
	}
	spin_lock(&queue->rskq_lock);
	last = l->seen;
	pprev = last ? &last->dl_next : &queue->rskq_accept_head;
	while ((req = *pprev)) {
		conn = ktls_hs_child_conn(req->sk);
		/*
		 * Done children are what accept() is for.  A TCP Fast Open
		 * child shares its request with TCP until the handshake's
		 * final ACK, so it stays and accept() adopts it.
		 */
		if ((conn && (conn->state != KTLS_HS_CHILD_QUEUED ||
			      ktls_hs_conn_done(conn))) ||
		    tcp_rsk(req)->tfo_listener) {
			last = req;
			pprev = &req->dl_next;
			continue;
		}
		*pprev = req->dl_next;
		if (queue->rskq_accept_tail == req)
			queue->rskq_accept_tail = last;
		req->dl_next = taken;
		taken = req;
	}
	l->seen = queue->rskq_accept_tail;
	spin_unlock(&queue->rskq_lock);

	while ((req = taken)) {
		taken = req->dl_next;
		req->dl_next = NULL;
		conn = ktls_hs_child_conn(req->sk);
		if (conn && !READ_ONCE(conn->ended)) {
			conn->req = req;
			conn->state = KTLS_HS_CHILD_PULLED;
			list_add_tail(&conn->node, &l->children);
			l->stats.in_progress++;
			continue;
		}
		ktls_hs_backlog_adjust(l, -1);
		if (conn) {
			/* Counted when it ended (ktls_hs_listen_child_end()). */
			conn->state = KTLS_HS_CHILD_GONE;
			conn->req = req;
		} else {
			l->stats.dropped++;
		}
		ktls_hs_reap(conn, req);
	}
out:
	spin_unlock_bh(&l->lock);
}

/* The listener's data-ready callback: TCP queued a child. */
static void ktls_hs_listen_data_ready(struct sock *sk)
{
	struct ktls_hs_listen *l;
	struct ktls_ctx *ctx;

	ktls_trace_sk_data_ready(sk);
	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	l = ctx ? READ_ONCE(ctx->hs_listen) : NULL;
	if (l) {
		ktls_hs_listen_pull(l);
		/* Anything left in the queue is for accept(). */
		if (!reqsk_queue_empty(&inet_csk(sk)->icsk_accept_queue))
			l->saved_data_ready(sk);
	}
	rcu_read_unlock();
}

static void ktls_hs_listen_wake(struct ktls_hs_listen *l)
{
	/* The listener may be closing: its memory lasts a grace period. */
	rcu_read_lock();
	l->saved_data_ready(l->sk);
	rcu_read_unlock();
}

/**
 * ktls_hs_listen_child_end() - a child's handshake ended
 * @conn:	the child's handshake, ended; the child is locked
 *
 * A done child goes back into the accept queue (or to the handoff list
 * if accept() adopted it) and accept() is woken; a failed one is closed.
 * Once the listener is closing, its teardown owns the child.
 */
void ktls_hs_listen_child_end(struct ktls_hs_conn *conn)
{
	struct ktls_hs_listen *l = conn->listen;
	/* A hand-over goes to accept() like a completed handshake. */
	bool done = ktls_hs_conn_done(conn);
	struct request_sock *req = NULL;
	bool wake = false, pull = false, reap = false;
	struct sock *lsk = l->sk;

	lockdep_assert(lockdep_sock_is_held(conn->sk));
	spin_lock_bh(&l->lock);
	if (l->closing)
		goto out;
	if (done) {
		l->stats.completed++;
		l->stats.resumed += conn->session.resumed;
	} else if (conn->end == KTLS_HS_END_TIMEOUT) {
		l->stats.timed_out++;
	} else {
		l->stats.failed++;
	}

	switch (conn->state) {
	case KTLS_HS_CHILD_PULLED:
		list_del_init(&conn->node);
		l->stats.in_progress--;
		req = conn->req;
		conn->req = NULL;
		conn->state = KTLS_HS_CHILD_GONE;
		/* The queue counts it again, or it leaves for good. */
		ktls_hs_backlog_adjust(l, -1);
		if (done) {
			/* Not closing, so still listening: the add succeeds. */
			ktls_reqsk_queue_add(lsk, req, conn->sk);
			wake = true;
		} else {
			conn->req = req;
			reap = true;
		}
		break;
	case KTLS_HS_CHILD_ADOPTED:
		l->stats.in_progress--;
		if (done) {
			list_move_tail(&conn->node, &l->handoff);
			conn->state = KTLS_HS_CHILD_HANDOFF;
			wake = true;
		} else {
			list_del_init(&conn->node);
			ktls_hs_backlog_adjust(l, -1);
			conn->state = KTLS_HS_CHILD_GONE;
			reap = true;
		}
		break;
	case KTLS_HS_CHILD_QUEUED:
		/* Still in the accept queue: let accept() have it, or pull it. */
		wake = done;
		pull = !done;
		/* It may sit before where the last walk ended. */
		if (pull)
			l->seen = NULL;
		break;
	default:
		break;
	}
out:
	spin_unlock_bh(&l->lock);
	if (reap)
		ktls_hs_reap(conn, NULL);
	if (pull)
		ktls_hs_listen_pull(l);
	if (wake)
		ktls_hs_listen_wake(l);
}

/* A child done after accept() adopted it. */
static struct sock *ktls_hs_take_handoff(struct ktls_hs_listen *l)
{
	struct ktls_hs_conn *conn;
	struct sock *child = NULL;

	spin_lock_bh(&l->lock);
	conn = list_first_entry_or_null(&l->handoff, struct ktls_hs_conn, node);
	if (conn) {
		list_del_init(&conn->node);
		conn->state = KTLS_HS_CHILD_GONE;
		ktls_hs_backlog_adjust(l, -1);
		child = conn->sk;
	}
	spin_unlock_bh(&l->lock);
	return child;
}

/*
 * accept() got @child from the queue.  True if it may have it: its
 * handshake is done and its keys are now installed.  Otherwise the child
 * is adopted until its handshake ends, or closed.
 */
static bool ktls_hs_accept_child(struct ktls_hs_listen *l, struct sock *child)
{
	struct ktls_hs_conn *conn = ktls_hs_child_conn(child);
	bool closing;

	if (!conn) {
		ktls_hs_close_child(child, NULL);
		return false;
	}
	spin_lock_bh(&l->lock);
	closing = l->closing;
	if (!closing && !READ_ONCE(conn->ended)) {
		conn->state = KTLS_HS_CHILD_ADOPTED;
		list_add_tail(&conn->node, &l->children);
		ktls_hs_backlog_adjust(l, 1);
		l->stats.in_progress++;
		spin_unlock_bh(&l->lock);
		return false;
	}
	conn->state = KTLS_HS_CHILD_GONE;
	spin_unlock_bh(&l->lock);

	if (closing || !ktls_hs_conn_done(conn)) {
		ktls_hs_close_child(child, NULL);
		return false;
	}
	/* On failure sk_err is set, and the application sees it first. */
	lock_sock(child);
	ktls_keys_install_staged(child);
	release_sock(child);
	return true;
}

static bool ktls_hs_accept_ready(struct sock *sk, struct ktls_hs_listen *l)
{
	return !reqsk_queue_empty(&inet_csk(sk)->icsk_accept_queue) ||
	       !list_empty_careful(&l->handoff) ||
	       READ_ONCE(sk->sk_state) != TCP_LISTEN;
}

static int ktls_hs_accept_wait(struct sock *sk, struct ktls_hs_listen *l,
			       long *timeo)
{
	DEFINE_WAIT(wait);

	/* Exclusive, as TCP's: one child wakes one accept(). */
	prepare_to_wait_exclusive(sk_sleep(sk), &wait, TASK_INTERRUPTIBLE);
	if (!ktls_hs_accept_ready(sk, l))
		*timeo = schedule_timeout(*timeo);
	finish_wait(sk_sleep(sk), &wait);
	if (signal_pending(current))
		return sock_intr_errno(*timeo);
	if (READ_ONCE(sk->sk_state) != TCP_LISTEN)
		return -EINVAL;
	if (!*timeo && !ktls_hs_accept_ready(sk, l))
		return -EAGAIN;
	return 0;
}

/*
 * TCP's accept, which must not see us take children out of the queue
 * while it runs (see the top of the file).  It does not block: the
 * caller asks for O_NONBLOCK and waits itself.
 */
static struct sock *ktls_hs_tcp_accept(struct ktls_ctx *ctx,
				       struct ktls_hs_listen *l,
				       struct proto_accept_arg *arg)
{
	struct sock *child;
	bool pull;

	spin_lock_bh(&l->lock);
	l->accepting++;
	/* It may dequeue the request the last walk ended at. */
	l->seen = NULL;
	spin_unlock_bh(&l->lock);

	child = ktls_proto_accept(ctx->sk_proto, l->sk, arg);

	spin_lock_bh(&l->lock);
	pull = !--l->accepting && l->pull_due;
	if (pull)
		l->pull_due = false;
	spin_unlock_bh(&l->lock);
	if (pull)
		ktls_hs_listen_pull(l);
	return child;
}

/**
 * ktls_hs_listen_accept() - proto accept of an armed listener
 * @sk:		the listener
 * @arg:	as for inet_csk_accept()
 *
 * TCP's accept does the dequeueing; this only waits (TCP's own wait
 * would not see the handoff list) and checks what it got.
 */
struct sock *ktls_hs_listen_accept(struct sock *sk, struct proto_accept_arg *arg)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_hs_listen *l = ctx->hs_listen;
	long timeo = sock_rcvtimeo(sk, arg->flags & O_NONBLOCK);
	int flags = arg->flags;
	struct sock *child;
	int err;

	for (;;) {
		child = ktls_hs_take_handoff(l);
		if (!child) {
			arg->flags = flags | O_NONBLOCK;
			child = ktls_hs_tcp_accept(ctx, l, arg);
			arg->flags = flags;
			if (!child && arg->err != -EAGAIN)
				return NULL;
		}
		if (child) {
			if (ktls_hs_accept_child(l, child))
				return child;
			continue;
		}
		err = timeo ? ktls_hs_accept_wait(sk, l, &timeo) : -EAGAIN;
		if (err) {
			arg->err = err;
			return NULL;
		}
	}
}

/* EPOLLIN for children on the handoff list; TCP reports the queue. */
__poll_t ktls_hs_listen_poll(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (!list_empty_careful(&ctx->hs_listen->handoff))
		return EPOLLIN | EPOLLRDNORM;
	return 0;
}

/**
 * ktls_hs_listen_clone() - a child of the armed listener is born
 * @lctx:	the listener's context
 * @ctx:	the child's new context
 * @gfp:	allocation mode TCP gives us (atomic)
 *
 * In softirq, the child locked, the listener not.
 * Return: 0, or an errno when the child cannot run a handshake.
 */
int ktls_hs_listen_clone(struct ktls_ctx *lctx, struct ktls_ctx *ctx, gfp_t gfp)
{
	struct ktls_hs_listen *l = lctx->hs_listen;
	struct ktls_hs_settings *settings;
	struct ktls_hs_conn *conn;

	lockdep_assert(lockdep_sock_is_held(ctx->sk));
	settings = ktls_hs_settings_get(&lctx->hs_settings);
	if (!settings) {
		ktls_hs_ev_dropped(ctx->sk);
		return -ENOKEY;
	}
	conn = ktls_hs_conn_alloc(ctx->sk, settings, gfp);
	if (IS_ERR(conn)) {
		ktls_hs_ev_dropped(ctx->sk);
		return PTR_ERR(conn);
	}
	refcount_inc(&l->ref);
	conn->listen = l;
	conn->state = KTLS_HS_CHILD_QUEUED;
	ctx->hs = conn;
	ktls_hs_conn_start(conn, l->saved_data_ready, ctx->sk->sk_write_space);
	return 0;
}

/**
 * ktls_hs_listen_arm() - make a listening socket an armed listener
 * @sk:		the listener, locked
 * @ctx:	its new context
 */
int ktls_hs_listen_arm(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_hs_listen *l;

	sock_owned_by_me(sk);
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->sk = sk;
	refcount_set(&l->ref, 1);
	spin_lock_init(&l->lock);
	INIT_LIST_HEAD(&l->children);
	INIT_LIST_HEAD(&l->handoff);

	write_lock_bh(&sk->sk_callback_lock);
	l->saved_data_ready = sk->sk_data_ready;
	ctx->hs_listen = l;
	sk->sk_data_ready = ktls_hs_listen_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	return 0;
}

/**
 * ktls_hs_listen_stop() - the listener stops listening
 * @sk:		the listener
 *
 * From close, and from a disconnect (shutdown of the read side), before
 * TCP tears down its queue.  Children in handshake are closed; the ones
 * still in TCP's queue are TCP's to close.
 */
void ktls_hs_listen_stop(struct sock *sk)
{
	struct ktls_hs_listen *l = ktls_ctx(sk)->hs_listen;
	struct ktls_hs_conn *conn, *tmp;
	LIST_HEAD(gone);

	spin_lock_bh(&l->lock);
	l->closing = true;
	list_splice_init(&l->children, &gone);
	list_splice_init(&l->handoff, &gone);
	list_for_each_entry_safe(conn, tmp, &gone, node) {
		list_del_init(&conn->node);
		if (conn->state == KTLS_HS_CHILD_PULLED ||
		    conn->state == KTLS_HS_CHILD_ADOPTED ||
		    conn->state == KTLS_HS_CHILD_HANDOFF)
			ktls_hs_backlog_adjust(l, -1);
		conn->state = KTLS_HS_CHILD_GONE;
		ktls_hs_reap(conn, NULL);
	}
	l->stats.in_progress = 0;
	spin_unlock_bh(&l->lock);
}

/**
 * ktls_hs_listen_restart() - a disconnected listener may listen again
 * @sk:		the listener, locked, listening again
 */
void ktls_hs_listen_restart(struct sock *sk)
{
	struct ktls_hs_listen *l = ktls_ctx(sk)->hs_listen;

	sock_owned_by_me(sk);
	spin_lock_bh(&l->lock);
	l->closing = false;
	/* TCP tore its queue down meanwhile. */
	l->seen = NULL;
	spin_unlock_bh(&l->lock);
}

/*
 * The listener is closing: give back its callback.  The context's free
 * drops the context's reference.
 */
void ktls_hs_listen_release(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_hs_listen *l = ctx->hs_listen;

	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_data_ready == ktls_hs_listen_data_ready)
		sk->sk_data_ready = l->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* getsockopt(KTLS_HS_STATS) */
int ktls_hs_listen_stats(struct sock *sk, char __user *optval,
			 int __user *optlen)
{
	struct ktls_hs_listen *l = ktls_ctx(sk)->hs_listen;
	struct ktls_hs_listen_stats st;
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(st))
		return -EINVAL;
	spin_lock_bh(&l->lock);
	st = l->stats;
	spin_unlock_bh(&l->lock);
	if (put_user(sizeof(st), optlen) || copy_to_user(optval, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

void ktls_hs_listen_exit(void)
{
	flush_work(&ktls_hs_reap_work);
}
