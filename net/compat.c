// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compat layer's helpers that are too large to inline: each stands in
 * for an interface that older kernels lack, and is built only for them
 * (see <ktls_hs/compat.h> and <ktls_hs/compat_net.h>, which declare them
 * and hold every version test).  For the newest API this file is empty.
 */
#include <linux/bvec.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <ktls_hs/compat.h>
#include <ktls_hs/compat_net.h>

#include "hs/hs.h"
#include "record/ktls.h"

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
/*
 * Before 6.5 TCP takes pages by reference one page a call.  All but the
 * last call say MSG_SENDPAGE_NOTLAST, so that TCP pushes once, after the
 * last page, as it does after one tcp_sendmsg_locked() from 6.5 on; the
 * last carries the caller's MSG_MORE.  MSG_SENDPAGE_DECRYPTED marks the
 * skbs TCP starts for device-form bytes, as from 6.5 on.  What
 * tcp_sendmsg_locked() of 6.5 does first for spliced pages is done here
 * too: the app-limited check, and a copy where the route cannot gather
 * (no NETIF_F_SG), which its tcp_sendmsg_locked() makes of the pages.
 */
int ktls_tcp_send_pages(struct sock *sk, struct bio_vec *bv, unsigned int nr,
			size_t len, int flags)
{
	size_t done = 0;
	unsigned int i;

	sock_owned_by_me(sk);
	if (!(sk->sk_route_caps & NETIF_F_SG)) {
		struct msghdr msg = { .msg_flags = flags };

		iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bv, nr, len);
		return tcp_sendmsg_locked(sk, &msg, len);
	}
	tcp_rate_check_app_limited(sk);
	for (i = 0; i < nr && done < len; i++) {
		size_t n = min_t(size_t, bv[i].bv_len, len - done);
		int f = flags;
		ssize_t ret;

		if (!n)
			continue;
		if (done + n < len)
			f |= MSG_SENDPAGE_NOTLAST;
		ret = do_tcp_sendpages(sk, bv[i].bv_page, bv[i].bv_offset, n, f);
		if (ret <= 0)
			return done ? done : ret;
		done += ret;
		/* Out of room or memory: TCP pushed what it took. */
		if (ret < n)
			break;
	}
	return done;
}

/*
 * The proto's sendpage() before 6.5: one page of a splice or sendfile(),
 * passed on as the sendmsg() that 6.5 and later make of it, so that TX
 * has one path on every kernel.  More pages of the same splice to come
 * (MSG_SENDPAGE_NOTLAST) are MSG_MORE to sendmsg(): the record stays
 * open, and splice_eof() closes it once the splice ends.
 */
int ktls_compat_sendpage(struct sock *sk, struct page *page, int offset,
			 size_t size, int flags)
{
	struct msghdr msg = {};
	struct bio_vec bv;

	if (flags & MSG_SENDPAGE_NOTLAST)
		flags = (flags & ~MSG_SENDPAGE_NOTLAST) | MSG_MORE;
	msg.msg_flags = flags | MSG_SPLICE_PAGES;
	bvec_set_page(&bv, page, size, offset);
	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, &bv, 1, size);
	return sk->sk_prot->sendmsg(sk, &msg, size);
}

/* proto_ops.sendpage_locked() before 6.5: see <ktls_hs/compat_net.h>. */
int ktls_compat_sendpage_locked(struct sock *sk, struct page *page,
				int offset, size_t size, int flags)
{
	if (!ktls_plain_tx_locked(sk))
		return -EOPNOTSUPP;
	return tcp_sendpage_locked(sk, page, offset, size, flags);
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
/* Shrinkers before 6.7: ours to allocate, and registered by name. */
struct shrinker *ktls_shrinker_alloc(const char *name)
{
	struct ktls_compat_shrinker *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	s->name = kstrdup_const(name, GFP_KERNEL);
	if (!s->name) {
		kfree(s);
		return NULL;
	}
	return &s->shrinker;
}

int ktls_shrinker_register(struct shrinker *shrinker)
{
	struct ktls_compat_shrinker *s =
		container_of(shrinker, struct ktls_compat_shrinker, shrinker);
	int err;

	err = register_shrinker(shrinker, "%s", s->name);
	s->registered = !err;
	return err;
}

/* As shrinker_free(): waits for a scan that runs. */
void ktls_shrinker_free(struct shrinker *shrinker)
{
	struct ktls_compat_shrinker *s;

	if (!shrinker)
		return;
	s = container_of(shrinker, struct ktls_compat_shrinker, shrinker);
	if (s->registered)
		unregister_shrinker(shrinker);
	kfree_const(s->name);
	kfree(s);
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
/* An armed listener's accept() in the form of the proto op before 6.10. */
struct sock *ktls_compat_listen_accept(struct sock *sk, int flags, int *err,
				       bool kern)
{
	struct proto_accept_arg arg = { .flags = flags, .kern = kern };
	struct sock *child;

	child = ktls_hs_listen_accept(sk, &arg);
	*err = arg.err;
	return child;
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
/* The ULP's inet_diag callbacks in their form before 6.13. */
int ktls_compat_diag_get_info(struct sock *sk, struct sk_buff *skb)
{
	return ktls_diag_get_info(sk, skb, false);
}

size_t ktls_compat_diag_get_info_size(const struct sock *sk)
{
	return ktls_diag_get_info_size(sk, false);
}
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 0, 0)
/* The proto's recvmsg() in its form before 7.0; TCP never sets @addr_len. */
int ktls_compat_prot_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
			     int flags, int *addr_len)
{
	return ktls_prot_recvmsg(sk, msg, len, flags);
}
#endif

#ifdef KTLS_NO_REQSK_FREE
/*
 * Free a request sock nobody holds any more, as the core does: its
 * protocol's own state first, then the reference it holds on its
 * listener, a SYN saved for getsockopt(TCP_SAVED_SYN), and its memory,
 * which came from its protocol's cache.
 */
void ktls_reqsk_free(struct request_sock *req)
{
	const struct request_sock_ops *ops = req->rsk_ops;

	if (ops->destructor)
		ops->destructor(req);
	if (req->rsk_listener)
		sock_put(req->rsk_listener);
	kfree(req->saved_syn);
	kmem_cache_free(ops->slab, req);
}
#endif

#ifdef KTLS_NO_REQSK_QUEUE_ADD
/*
 * Put a request back at the tail of its listener's accept queue, as TCP
 * queues a new one: under the queue's lock, which also orders the
 * backlog count (net/hs/listen.c takes it for its own adjustments).
 * The caller holds the listener's handshake state open, so the listener
 * cannot have stopped, and inet_csk_listen_stop() will find the request
 * there if it stops later.
 */
void ktls_reqsk_queue_add(struct sock *lsk, struct request_sock *req,
			  struct sock *child)
{
	struct request_sock_queue *queue = &inet_csk(lsk)->icsk_accept_queue;

	spin_lock(&queue->rskq_lock);
	WARN_ON_ONCE(lsk->sk_state != TCP_LISTEN);
	req->sk = child;
	req->dl_next = NULL;
	if (queue->rskq_accept_head)
		queue->rskq_accept_tail->dl_next = req;
	else
		WRITE_ONCE(queue->rskq_accept_head, req);
	queue->rskq_accept_tail = req;
	sk_acceptq_added(lsk);
	spin_unlock(&queue->rskq_lock);
}
#endif
