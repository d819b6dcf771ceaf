// SPDX-License-Identifier: GPL-2.0-only
/*
 * One in-kernel server handshake on one TCP socket.  It is driven from
 * the socket's data-ready, write-space and error-report callbacks (the
 * last for a reset or whatever else kills the connection under it): in
 * softirq, or in process context when TCP replays its backlog in
 * release_sock(), with no thread in between.  Bytes are pulled out of
 * TCP's receive queue with tcp_read_sock(), never more than the engine
 * asks for, so what the client sends after its Finished stays queued
 * for the record layer.  Output goes out through TCP's own sendmsg, by
 * reference to a copy in a page fragment where one can be had.  A timer
 * bounds the handshake; when the socket is owned by a process as it
 * fires, the work is left to the release callback.  TCP calls back into
 * us from its own sendmsg, so a run never nests: see
 * ktls_hs_conn_run().
 *
 * Where the first ClientHello may be handed to userspace instead
 * (KTLS_HS_FALLBACK, KTLS_HS_SNI_FALLBACK), the engine is fed copies of
 * what TCP holds and nothing is consumed until the engine answered the
 * hello: a hand-over then leaves every byte the client sent in TCP's
 * queue, in order, for the application's first read.
 *
 * At the end the keys are staged for the record layer, the callbacks
 * given back, and the engine's memory (secrets included) wiped and
 * given back to the pool (pool.c); what remains is the negotiated session, for getsockopt.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bvec.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <trace/events/sock.h>

#include <ktls_hs/compat_net.h>
#include <ktls_hs/identity.h>
#include <ktls_hs/trust.h>

#include "../record/ktls.h"
#include "events.h"
#include "hs.h"
#include "pool.h"

static void ktls_hs_timeout(struct timer_list *t);

static void ktls_hs_cfg_release(struct ktls_hs_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_identities; i++)
		ktls_identity_put(cfg->identities[i]);
	cfg->nr_identities = 0;
	if (cfg->trust)
		ktls_trust_put(cfg->trust);
	cfg->trust = NULL;
}

/*
 * The engine's view of @s: identity keys resolved to what they hold now,
 * so that a key revoked or updated since the listener was armed affects
 * this handshake.  Keys that no longer resolve are skipped; a trust
 * store that no longer resolves fails the handshake (-ENOKEY), which
 * would otherwise let clients through unverified.
 */
static int ktls_hs_cfg_build(struct ktls_hs_config *cfg,
			     const struct ktls_hs_settings *s)
{
	struct ktls_identity *id;
	unsigned int i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < s->nr_keys; i++) {
		id = ktls_identity_get(s->keys[i]);
		if (!IS_ERR(id))
			cfg->identities[cfg->nr_identities++] = id;
	}
	if (!cfg->nr_identities)
		return -ENOKEY;
	cfg->suites = s->suites;
	cfg->groups = s->groups;
	cfg->alpn_len = s->alpn_len;
	memcpy(cfg->alpn, s->alpn, s->alpn_len);
	cfg->versions = s->versions;
	cfg->ems_optional = s->ems_optional;
	cfg->fallback = s->fallback;
	cfg->sni_policy = s->sni_policy;
	/* Held by @s, which the handshake holds. */
	cfg->tickets = s->tickets;
	cfg->ticket_lifetime = s->ticket_lifetime_s;
	if (s->trust_key) {
		cfg->trust = ktls_trust_get(s->trust_key);
		if (IS_ERR(cfg->trust)) {
			cfg->trust = NULL;
			ktls_hs_cfg_release(cfg);
			return -ENOKEY;
		}
		cfg->client_auth = s->client_auth;
		cfg->ca_names = s->client_auth_flags &
				KTLS_HS_CLIENT_AUTH_F_CA_NAMES;
	}
	return 0;
}

/**
 * ktls_hs_conn_alloc() - set up a handshake for @sk, not started yet
 * @sk:		the socket, locked
 * @settings:	what to offer; the handshake takes over the caller's
 *		reference
 * @gfp:	GFP_ATOMIC from softirq
 *
 * Return: the handshake, or an ERR_PTR: -ENOKEY when no identity key
 * resolves any more, -EBUSY when max_handshakes are running, -EMSGSIZE
 * when a key was updated to a chain too large for the pool, -ENOMEM.
 * On error the settings reference is dropped.
 */
struct ktls_hs_conn *ktls_hs_conn_alloc(struct sock *sk,
					struct ktls_hs_settings *settings,
					gfp_t gfp)
{
	struct ktls_hs_conn *conn;
	int err;

	lockdep_assert(lockdep_sock_is_held(sk));
	conn = kzalloc(sizeof(*conn), gfp);
	if (!conn) {
		ktls_hs_settings_put(settings);
		return ERR_PTR(-ENOMEM);
	}
	conn->sk = sk;
	conn->settings = settings;
	INIT_LIST_HEAD(&conn->node);
	timer_setup(&conn->timer, ktls_hs_timeout, 0);

	err = ktls_hs_cfg_build(&conn->cfg, settings);
	if (err)
		goto err_free;
	/* Where a verified client certificate is described, for getsockopt. */
	if (conn->cfg.trust) {
		conn->peer = kzalloc(sizeof(*conn->peer), gfp);
		if (!conn->peer) {
			err = -ENOMEM;
			goto err_free;
		}
	}
	/*
	 * The whole block, not just what the engine needs: what is left
	 * over lets its output take a client's small record_size_limit.
	 */
	conn->mem_size = ktls_hs_pool_block_size(ktls_hs_size(&conn->cfg));
	conn->mem = ktls_hs_pool_alloc(&ktls_hs_engine_pool, conn->mem_size, gfp);
	if (IS_ERR(conn->mem)) {
		err = PTR_ERR(conn->mem);
		conn->mem = NULL;
		goto err_free;
	}
	conn->peeking = conn->cfg.fallback ||
			conn->cfg.sni_policy == KTLS_HS_SNI_FALLBACK;
	conn->engine = ktls_hs_init(conn->mem, conn->mem_size, &conn->cfg);
	/* The pool gave at least ktls_hs_size(): only a bug gets here. */
	if (WARN_ON_ONCE(!conn->engine)) {
		ktls_hs_pool_free(&ktls_hs_engine_pool, conn->mem, conn->mem_size);
		conn->mem = NULL;
		err = -EINVAL;
		goto err_free;
	}
	ktls_hs_set_peer(conn->engine, conn->peer);
	return conn;

err_free:
	ktls_hs_cfg_release(&conn->cfg);
	ktls_hs_settings_put(settings);
	kfree(conn->peer);
	kfree(conn);
	return ERR_PTR(err);
}

static void ktls_hs_data_ready(struct sock *sk);
static void ktls_hs_write_space(struct sock *sk);
static void ktls_hs_error_report(struct sock *sk);

/**
 * ktls_hs_conn_start() - take the socket's callbacks, start the clock
 * @conn:	the handshake
 * @data_ready:	the data-ready callback to give back at the end
 * @write_space: likewise for write space
 *
 * The error-report callback is taken as the socket has it.
 *
 * The socket is locked.  A child of a listener has no struct socket
 * until accept(); TCP's sendmsg may touch one (the NOSPACE bit, the wait
 * queue) when the send buffer fills, so such a child borrows a stub one
 * from the handshake until the end.
 */
void ktls_hs_conn_start(struct ktls_hs_conn *conn,
			void (*data_ready)(struct sock *sk),
			void (*write_space)(struct sock *sk))
{
	struct sock *sk = conn->sk;

	lockdep_assert(lockdep_sock_is_held(sk));
	write_lock_bh(&sk->sk_callback_lock);
	conn->saved_data_ready = data_ready;
	conn->saved_write_space = write_space;
	conn->saved_error_report = sk->sk_error_report;
	sk->sk_data_ready = ktls_hs_data_ready;
	sk->sk_write_space = ktls_hs_write_space;
	sk->sk_error_report = ktls_hs_error_report;
	conn->saved_allocation = sk->sk_allocation;
	sk->sk_allocation = GFP_ATOMIC;
	/*
	 * tcp_sendmsg_locked() copies into sk_page_frag(), which is the
	 * current task's page frag unless the socket says otherwise.  In
	 * softirq that task is whichever one was interrupted, and it may be
	 * filling that very frag.
	 */
	conn->saved_use_task_frag = sk->sk_use_task_frag;
	sk->sk_use_task_frag = false;
	if (!sk->sk_socket) {
		struct socket *stub = &conn->stub.socket;

		init_waitqueue_head(&stub->wq.wait);
		stub->state = SS_CONNECTED;
		stub->type = SOCK_STREAM;
		stub->sk = sk;
		WRITE_ONCE(sk->sk_socket, stub);
		rcu_assign_pointer(sk->sk_wq, &stub->wq);
		conn->stubbed = true;
	}
	write_unlock_bh(&sk->sk_callback_lock);

	conn->deadline = jiffies + msecs_to_jiffies(conn->settings->timeout_ms);
	sk_reset_timer(sk, &conn->timer, conn->deadline);
	ktls_hs_ev_start(conn);
}

/* Give the socket back what the handshake borrowed. */
static void ktls_hs_conn_unhook(struct ktls_hs_conn *conn)
{
	struct sock *sk = conn->sk;

	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_data_ready == ktls_hs_data_ready)
		sk->sk_data_ready = conn->saved_data_ready;
	if (sk->sk_write_space == ktls_hs_write_space)
		sk->sk_write_space = conn->saved_write_space;
	if (sk->sk_error_report == ktls_hs_error_report)
		sk->sk_error_report = conn->saved_error_report;
	if (conn->saved_allocation)
		sk->sk_allocation = conn->saved_allocation;
	sk->sk_use_task_frag = conn->saved_use_task_frag;
	if (conn->stubbed && sk->sk_socket == &conn->stub.socket) {
		WRITE_ONCE(sk->sk_socket, NULL);
		RCU_INIT_POINTER(sk->sk_wq, NULL);
	}
	conn->stubbed = false;
	write_unlock_bh(&sk->sk_callback_lock);
}

/* Wipe and free the engine and what it referenced. */
static void ktls_hs_conn_drop_engine(struct ktls_hs_conn *conn)
{
	if (!conn->mem)
		return;
	ktls_hs_wipe(conn->engine);
	/* Wiped whole there too. */
	ktls_hs_pool_free(&ktls_hs_engine_pool, conn->mem, conn->mem_size);
	conn->mem = NULL;
	conn->engine = NULL;
	ktls_hs_cfg_release(&conn->cfg);
}

/*
 * Up to a page of output, in a fragment of the CPU's netdev page frag
 * cache, handed to TCP by reference.  TCP's own copy would go into the
 * socket's page frag (sk_frag: the task's is not ours to use in
 * softirq), whose first use allocates, and zeroes, 32 KiB for each new
 * connection; the shared cache zeroes a page once for many flights.
 * Returns what TCP took, or 0 if no fragment could be had.
 */
static int ktls_hs_send_frag(struct sock *sk, int flags, const u8 *buf,
			     size_t len)
{
	struct bio_vec bv[2];
	unsigned int nr = 0;
	size_t off, n;
	u8 *frag;
	int ret;

	len = min_t(size_t, len, PAGE_SIZE);
	frag = netdev_alloc_frag(len);
	if (!frag)
		return 0;
	memcpy(frag, buf, len);
	/* The fragment may straddle two pages of the cache's compound page. */
	for (off = 0; off < len; off += n) {
		n = min_t(size_t, len - off, PAGE_SIZE - offset_in_page(frag + off));
		ktls_bvec_set_virt(&bv[nr++], frag + off, n);
	}
	ret = ktls_tcp_send_pages(sk, bv, nr, len, flags);
	/* TCP holds references of its own to what it took. */
	skb_free_frag(frag);
	return ret;
}

/*
 * Hand the engine's output to TCP.  From softirq nothing may wait, so the
 * send does not block; what does not fit waits for write space.  Nagle
 * would hold the tail of a flight until the client ACKs its head, which
 * costs a delayed-ACK timeout per handshake, so it is off for our sends.
 */
static bool ktls_hs_push(struct ktls_hs_conn *conn)
{
	struct sock *sk = conn->sk;
	struct tcp_sock *tp = tcp_sk(sk);
	u8 nonagle = tp->nonagle;
	bool sent = false;
	const u8 *buf;
	size_t len;

	conn->in_push = true;
	tp->nonagle |= TCP_NAGLE_OFF;
	while ((len = ktls_hs_output(conn->engine, &buf))) {
		struct msghdr msg = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };
		struct kvec kv = { .iov_base = (void *)buf, .iov_len = len };
		int ret;

		ret = ktls_hs_send_frag(sk, msg.msg_flags, buf, len);
		if (!ret) {
			/* No fragment: let TCP copy it, as it does for anyone. */
			iov_iter_kvec(&msg.msg_iter, ITER_SOURCE, &kv, 1, len);
			ret = tcp_sendmsg_locked(sk, &msg, len);
		}
		/*
		 * TCP may call back into us from its sendmsg; a run cannot
		 * nest (ktls_hs_conn_run()), so nothing ends the handshake
		 * here.  Should that ever break, stop before the engine.
		 */
		if (ret <= 0 || WARN_ON_ONCE(conn->ended))
			break;
		ktls_hs_output_sent(conn->engine, ret);
		sent = true;
	}
	tp->nonagle = nonagle;
	conn->in_push = false;
	return sent;
}

/* tcp_read_sock() actor: feed the engine what it asks for, no more. */
static int ktls_hs_recv_actor(read_descriptor_t *desc, struct sk_buff *skb,
			      unsigned int offset, size_t len)
{
	struct ktls_hs_conn *conn = desc->arg.data;
	size_t used = 0;

	while (used < len) {
		enum ktls_hs_status st;
		size_t want;
		u8 *buf;

		want = ktls_hs_want(conn->engine, &buf);
		if (!want)
			break;
		want = min(want, len - used);
		if (skb_copy_bits(skb, offset + used, buf, want)) {
			desc->error = -EFAULT;
			break;
		}
		used += want;
		st = ktls_hs_received(conn->engine, want);
		if (st != KTLS_HS_RUNNING)
			break;
	}
	return used;
}

static int ktls_hs_skip_actor(read_descriptor_t *desc, struct sk_buff *skb,
			      unsigned int offset, size_t len)
{
	size_t n = min_t(size_t, len, desc->count);

	desc->count -= n;
	return n;
}

/*
 * The engine answered the first ClientHello: what it was fed is consumed
 * from TCP's queue, and from now on it reads from there, unless the
 * hello is handed over, which leaves the queue as the client filled it.
 */
static void ktls_hs_peek_end(struct ktls_hs_conn *conn)
{
	read_descriptor_t desc = { .count = conn->peeked };

	conn->peeking = false;
	if (ktls_hs_status(conn->engine) == KTLS_HS_HANDED_BACK || !conn->peeked)
		return;
	tcp_read_sock(conn->sk, &desc, ktls_hs_skip_actor);
	/* The bytes were there when we copied them, under the same lock. */
	WARN_ON_ONCE(desc.count);
}

/*
 * Feed the engine copies of the bytes TCP holds past those fed already,
 * without consuming any, until it answered the first hello (its first
 * output, or another status).  Returns how many bytes were fed.
 *
 * The search starts from the tail: the bytes not fed yet are the newest,
 * and a client trickling a hello in tiny segments would make a walk from
 * the head quadratic.
 */
static int ktls_hs_peek(struct ktls_hs_conn *conn)
{
	struct sk_buff_head *queue = &conn->sk->sk_receive_queue;
	u32 seq = tcp_sk(conn->sk)->copied_seq + conn->peeked;
	const u8 *unused;
	struct sk_buff *skb;
	int fed = 0;

	skb_queue_reverse_walk(queue, skb)
		if (!after(TCP_SKB_CB(skb)->seq, seq))
			break;
	if (skb == (struct sk_buff *)queue)
		skb = skb_peek(queue);
	if (!skb)
		return 0;

	skb_queue_walk_from(queue, skb) {
		u32 off = seq - TCP_SKB_CB(skb)->seq;

		/* A Fast Open SYN's sequence number is not a byte. */
		if (TCP_SKB_CB(skb)->tcp_flags & TCPHDR_SYN)
			off--;
		while (off < skb->len) {
			size_t want;
			u8 *buf;

			want = ktls_hs_want(conn->engine, &buf);
			if (!want)
				goto out;
			want = min_t(size_t, want, skb->len - off);
			if (skb_copy_bits(skb, off, buf, want))
				goto out;
			off += want;
			seq += want;
			conn->peeked += want;
			fed += want;
			if (ktls_hs_received(conn->engine, want) != KTLS_HS_RUNNING ||
			    ktls_hs_output(conn->engine, &unused))
				goto out;
		}
	}
out:
	if (ktls_hs_status(conn->engine) != KTLS_HS_RUNNING ||
	    ktls_hs_output(conn->engine, &unused))
		ktls_hs_peek_end(conn);
	return fed;
}

/*
 * The errno a failed handshake leaves the socket and its waiters: the
 * socket's own when TCP set one (ECONNRESET on a reset, ETIMEDOUT when
 * it gave up retransmitting), else ETIMEDOUT at our deadline and EPROTO
 * for the rest: an alert, or a peer that closed before the end.
 */
static int ktls_hs_end_errno(const struct ktls_hs_conn *conn,
			     enum ktls_hs_end why)
{
	int err = READ_ONCE(conn->sk->sk_err) ?: conn->tcp_err;

	if (err)
		return err;
	return why == KTLS_HS_END_TIMEOUT ? ETIMEDOUT : EPROTO;
}

static void ktls_hs_conn_end(struct ktls_hs_conn *conn, enum ktls_hs_end why)
{
	struct sock *sk = conn->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_hs_keys keys;
	int err;

	if (why == KTLS_HS_END_DONE) {
		err = ktls_hs_keys(conn->engine, &keys);
		if (!err)
			err = ktls_keys_stage(ctx, &keys.tx, &keys.rx,
					      &keys.secrets, keys.max_plain);
		memzero_explicit(&keys, sizeof(keys));
		if (err) {
			pr_warn_ratelimited("handshake keys refused: %d\n", err);
			why = KTLS_HS_END_FAILED;
		} else {
			memcpy(&conn->session, ktls_hs_session(conn->engine),
			       sizeof(conn->session));
		}
	}
	ktls_hs_ev_end(conn, why);
	conn->end = why;
	if (why != KTLS_HS_END_DONE && why != KTLS_HS_END_FALLBACK)
		conn->err = ktls_hs_end_errno(conn, why);
	/* Pairs with ktls_hs_conn_done(): @end, @err are read after @ended. */
	smp_store_release(&conn->ended, true);
	sk_stop_timer(sk, &conn->timer);
	/* Our error report is off the socket before we call it below. */
	ktls_hs_conn_unhook(conn);
	ktls_hs_conn_drop_engine(conn);

	if (conn->listen) {
		ktls_hs_listen_child_end(conn);
		return;
	}
	/* Per-socket: whoever waits in poll(), recv() or send() wakes up. */
	if (conn->err) {
		/* TCP's own error, when it set one, stays. */
		WRITE_ONCE(sk->sk_err, conn->err);
		sk_error_report(sk);
	} else {
		sk->sk_data_ready(sk);
		sk->sk_write_space(sk);
	}
}

/* Feed the engine what TCP holds and send its answers until neither moves. */
static void ktls_hs_conn_step(struct ktls_hs_conn *conn)
{
	struct sock *sk = conn->sk;
	enum ktls_hs_status st;
	read_descriptor_t desc;
	const u8 *buf;
	bool sent;
	int copied;

	do {
		sent = ktls_hs_push(conn);
		if (conn->ended)
			return;
		if (conn->peeking) {
			copied = ktls_hs_peek(conn);
		} else {
			desc.arg.data = conn;
			desc.error = 0;
			desc.count = 1;
			desc.written = 0;
			copied = tcp_read_sock(sk, &desc, ktls_hs_recv_actor);
		}
		st = ktls_hs_status(conn->engine);
	} while (st == KTLS_HS_RUNNING && (copied > 0 || sent));
	/* The last flight, or the alert of a failure. */
	ktls_hs_push(conn);
	if (conn->ended)
		return;

	/*
	 * A session ticket follows the handshake under the first traffic
	 * key, ahead of anything the record layer sends: it must all be
	 * out before the record layer takes over.  Write space brings us
	 * back; the timeout bounds the wait.
	 */
	if (st == KTLS_HS_DONE && ktls_hs_output(conn->engine, &buf) &&
	    !sk->sk_err && !(sk->sk_shutdown & SEND_SHUTDOWN))
		return;

	if (st == KTLS_HS_DONE) {
		ktls_hs_conn_end(conn, KTLS_HS_END_DONE);
	} else if (st == KTLS_HS_FAILED) {
		ktls_hs_conn_end(conn, KTLS_HS_END_FAILED);
	} else if (st == KTLS_HS_HANDED_BACK) {
		ktls_hs_conn_end(conn, KTLS_HS_END_FALLBACK);
	} else if (sk->sk_err || conn->tcp_err ||
		   (sk->sk_shutdown & RCV_SHUTDOWN)) {
		/* The client reset or closed mid-handshake: nothing more comes. */
		ktls_hs_conn_end(conn, KTLS_HS_END_FAILED);
	}
}

/**
 * ktls_hs_conn_run() - run the handshake on what TCP holds
 * @conn:	the handshake
 *
 * The socket is locked: bh-locked in softirq or owned by the caller.
 *
 * One run at a time.  When the socket is owned, tcp_sendmsg_locked()
 * replays its backlog every 16 new skbs (sk_flush_backlog()), and with it
 * our data-ready callback and the release callback: a run nested in our
 * own send would send again what the engine has not been told is sent,
 * and could end the handshake, freeing the engine, under the send.  So a
 * callback that finds a run on the stack leaves the work to it, and the
 * runner steps again until none is left.
 */
void ktls_hs_conn_run(struct ktls_hs_conn *conn)
{
	lockdep_assert(lockdep_sock_is_held(conn->sk));
	if (conn->ended)
		return;
	if (conn->running) {
		conn->again = true;
		return;
	}
	conn->running = true;
	do {
		conn->again = false;
		ktls_hs_conn_step(conn);
	} while (conn->again && !conn->ended);
	conn->running = false;
}

static struct ktls_hs_conn *ktls_hs_conn_of(const struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	return ctx ? ctx->hs : NULL;
}

static void ktls_hs_data_ready(struct sock *sk)
{
	struct ktls_hs_conn *conn = ktls_hs_conn_of(sk);

	ktls_trace_sk_data_ready(sk);
	if (conn)
		ktls_hs_conn_run(conn);
}

/*
 * TCP set sk_err: a reset, a retransmission or keepalive timeout, an
 * abort (tcp_done_with_error() reports after tcp_done()), a disconnect.
 * None of them comes with data or write space, so nothing else would run
 * the handshake, and nothing more comes from the client: the step sees
 * sk_err and ends it with that errno.  Called in softirq with the socket
 * bh-locked, or from its backlog or TCP's release callback while it is
 * owned, as data-ready is, so the rules of ktls_hs_conn_run() hold: a run
 * found on the stack (TCP's sendmsg flushing the backlog under our push)
 * finishes the job.  Nothing of TCP reads the socket's struct socket
 * after this returns, so a child ends here, unlike in write-space.
 *
 * Not sk_state_change: TCP calls it in tcp_done() just before this, on
 * a FIN (which comes with data-ready too, the step seeing RCV_SHUTDOWN)
 * and on transitions that mean nothing to us, such as a child's
 * SYN_RECV to ESTABLISHED; this one comes exactly when sk_err is set.
 *
 * The end of the handshake gives the socket its own callback back before
 * it reports, so that report never comes back here; whoever hooked the
 * socket before us hears of the error all the same.
 */
static void ktls_hs_error_report(struct sock *sk)
{
	struct ktls_hs_conn *conn = ktls_hs_conn_of(sk);
	void (*report)(struct sock *sk);
	int err;

	if (!conn)
		return;
	/*
	 * Our own send may take sk_err (sock_error()) before the step
	 * looks: TCP's sendmsg flushes the backlog that brought the reset,
	 * then fails with the error and clears it.
	 */
	err = READ_ONCE(sk->sk_err);
	if (err && !conn->ended)
		conn->tcp_err = err;
	/* Ours until the handshake is freed, with the socket's context. */
	report = conn->saved_error_report;
	ktls_hs_conn_run(conn);
	report(sk);
}

/*
 * Room in the send buffer again: the rest of a flight may go.
 *
 * tcp_check_space() reads sk->sk_socket again once this returns.  A
 * listener's child runs on our stub socket, which the end of the
 * handshake takes back, so a child's run is left to its timer, at once.
 */
static void ktls_hs_write_space(struct sock *sk)
{
	struct ktls_hs_conn *conn = ktls_hs_conn_of(sk);

	/* TCP's sendmsg calls us from within our own push. */
	if (!conn || conn->in_push || conn->ended)
		return;
	if (conn->stubbed) {
		set_bit(KTLS_HS_DEFER_WRITE, &conn->deferred);
		sk_reset_timer(sk, &conn->timer, jiffies);
		return;
	}
	ktls_hs_conn_run(conn);
}

/*
 * The timer fired: for the run the write-space callback left it, after
 * which it waits for the deadline again, or at the deadline.
 */
static void ktls_hs_conn_tick(struct ktls_hs_conn *conn)
{
	if (conn->ended)
		return;
	if (test_and_clear_bit(KTLS_HS_DEFER_WRITE, &conn->deferred)) {
		ktls_hs_conn_run(conn);
		if (!conn->ended)
			sk_reset_timer(conn->sk, &conn->timer, conn->deadline);
		return;
	}
	ktls_hs_conn_end(conn, KTLS_HS_END_TIMEOUT);
}

static void ktls_hs_timeout(struct timer_list *t)
{
	struct ktls_hs_conn *conn = ktls_timer_container_of(conn, t, timer);
	struct sock *sk = conn->sk;

	/*
	 * The timer holds a reference on the socket, and the handshake is
	 * freed only after a grace period, which this softirq is part of.
	 */
	bh_lock_sock(sk);
	if (ktls_hs_conn_of(sk) == conn) {
		if (sock_owned_by_user(sk))
			set_bit(KTLS_HS_DEFER_TIMER, &conn->deferred);
		else
			ktls_hs_conn_tick(conn);
	}
	bh_unlock_sock(sk);
	sock_put(sk);
}

/**
 * ktls_hs_conn_release_cb() - work the timer left for release_sock()
 * @conn:	the handshake of the socket being released
 */
void ktls_hs_conn_release_cb(struct ktls_hs_conn *conn)
{
	/*
	 * From a backlog flush inside a run's send: the timeout waits for
	 * the release_sock() that ends the owner's section, after the run.
	 */
	if (conn->running)
		return;
	if (test_and_clear_bit(KTLS_HS_DEFER_TIMER, &conn->deferred))
		ktls_hs_conn_tick(conn);
}

/**
 * ktls_hs_conn_stop() - the socket closes while the handshake runs
 * @conn:	the handshake
 *
 * Socket locked.  No listener or waiter is told: the socket is going.
 */
void ktls_hs_conn_stop(struct ktls_hs_conn *conn)
{
	if (conn->ended)
		return;
	ktls_hs_ev_aborted(conn);
	conn->end = KTLS_HS_END_FAILED;
	/* Pairs with ktls_hs_conn_done(): @end is read after @ended. */
	smp_store_release(&conn->ended, true);
	sk_stop_timer(conn->sk, &conn->timer);
	ktls_hs_conn_unhook(conn);
	ktls_hs_conn_drop_engine(conn);
}

/**
 * ktls_hs_conn_wait() - wait for a per-socket handshake to end
 * @sk:		the socket, unlocked
 * @conn:	its handshake
 * @nonblock:	do not wait: -EAGAIN while it runs
 *
 * Return: 0 once it ended with keys; once it failed, for good, the
 * socket's own error (-ECONNRESET after a reset), -ETIMEDOUT at the
 * handshake timeout or -EPROTO (ktls_hs_conn_error()); -EAGAIN, or
 * -EINTR/-ERESTARTSYS on a signal.
 */
int ktls_hs_conn_wait(struct sock *sk, struct ktls_hs_conn *conn,
		      bool nonblock)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	long timeo;
	int err = 0;

	if (!READ_ONCE(conn->ended)) {
		timeo = nonblock ? 0 : MAX_SCHEDULE_TIMEOUT;
		lock_sock(sk);
		add_wait_queue(sk_sleep(sk), &wait);
		while (!READ_ONCE(conn->ended)) {
			if (!timeo) {
				err = -EAGAIN;
				break;
			}
			if (signal_pending(current)) {
				err = sock_intr_errno(timeo);
				break;
			}
			/* Releases the lock: the backlog runs the handshake. */
			sk_wait_event(sk, &timeo, READ_ONCE(conn->ended), &wait);
		}
		remove_wait_queue(sk_sleep(sk), &wait);
		release_sock(sk);
		if (err)
			return err;
	}
	if (ktls_hs_conn_done(conn))
		return 0;
	return ktls_hs_conn_error(conn);
}

static void ktls_hs_conn_free_rcu(struct rcu_head *head)
{
	struct ktls_hs_conn *conn = container_of(head, struct ktls_hs_conn, rcu);

	kfree(conn->peer);
	kfree(conn);
}

/**
 * ktls_hs_conn_free() - end and free a handshake with its socket
 * @conn:	the handshake, or NULL
 *
 * Called when the socket's context goes, in any context.  The timer may
 * be running on another CPU; it finds the context gone and leaves, and
 * the handshake's memory outlives it by a grace period.
 */
void ktls_hs_conn_free(struct ktls_hs_conn *conn)
{
	if (!conn)
		return;
	ktls_hs_conn_stop(conn);
	ktls_hs_settings_put(conn->settings);
	if (conn->listen)
		ktls_hs_listen_put(conn->listen);
	/* The stub socket's wait queue may still be seen under RCU. */
	call_rcu(&conn->rcu, ktls_hs_conn_free_rcu);
}
