/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, network part: what the kernels ktls_hs.ko builds for
 * do differently in sockets, TCP and skbs, one named helper each.  As in
 * <ktls_hs/compat.h>, the version tests live here (and in net/compat.c,
 * for helpers too large to inline), nowhere else; the build for the
 * newest API compiles each helper to the call it stands for.
 */
#ifndef _KTLS_HS_COMPAT_NET_H
#define _KTLS_HS_COMPAT_NET_H

#include <linux/bvec.h>
#include <linux/skbuff.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <trace/events/sock.h>

#include <ktls_hs/compat.h>
#include <ktls_hs/compat_skb.h>

/*
 * Giving TCP pages by reference.  From 6.5 on, tcp_sendmsg_locked()
 * takes a bio_vec iterator by reference under MSG_SPLICE_PAGES (and
 * marks new skbs decrypted under MSG_SENDPAGE_DECRYPTED).  Before, only
 * do_tcp_sendpages() takes pages by reference, one page a call; its
 * tcp_sendmsg_locked() ignores MSG_SPLICE_PAGES (which Debian's 6.1
 * defines) and copies.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
/**
 * ktls_tcp_send_pages() - hand TCP @len bytes of @bv by reference
 * @sk:		the socket, locked
 * @bv:		the pages; TCP takes references of its own
 * @nr:		entries of @bv
 * @len:	bytes in them
 * @flags:	MSG_DONTWAIT, MSG_NOSIGNAL, MSG_MORE, MSG_SENDPAGE_DECRYPTED
 *
 * Return: the bytes TCP took (it may take fewer), or its error.
 */
static inline int ktls_tcp_send_pages(struct sock *sk, struct bio_vec *bv,
				      unsigned int nr, size_t len, int flags)
{
	struct msghdr msg = { .msg_flags = flags | MSG_SPLICE_PAGES };

	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bv, nr, len);
	return tcp_sendmsg_locked(sk, &msg, len);
}
#else
int ktls_tcp_send_pages(struct sock *sk, struct bio_vec *bv, unsigned int nr,
			size_t len, int flags);
#endif

/*
 * Keeping TCP from appending to the skb at the tail of its queues, so
 * that bytes of different kinds (device-form and ciphertext) never share
 * one: tcp_write_collapse_fence() from 6.10; before, the same mark on
 * the tail skb, which tcp_skb_can_collapse_to() reads on both.
 */
static inline void ktls_tcp_collapse_fence(struct sock *sk)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	tcp_write_collapse_fence(sk);
#else
	struct sk_buff *tail = tcp_write_queue_tail(sk);

	if (!tail)
		tail = tcp_rtx_queue_tail(sk);
	if (tail)
		TCP_SKB_CB(tail)->eor = 1;
#endif
}

/*
 * Referencing the pages of a kernel (bio_vec) iterator without taking
 * references: iov_iter_extract_pages() from 6.3.  Before, only
 * iov_iter_get_pages2(), which takes one per page; the caller's
 * iterator holds the pages for the call, so they are dropped at once.
 * Only for iterators that are not user-backed.
 */
static inline ssize_t ktls_iov_iter_extract_pages(struct iov_iter *i,
						  struct page ***pages,
						  size_t maxsize,
						  unsigned int maxpages,
						  size_t *offset)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return iov_iter_extract_pages(i, pages, maxsize, maxpages, 0, offset);
#else
	ssize_t got = iov_iter_get_pages2(i, *pages, maxsize, maxpages, offset);
	size_t left = got > 0 ? got + *offset : 0;
	unsigned int n = 0;

	for (; left; n++) {
		put_page((*pages)[n]);
		left -= min_t(size_t, left, PAGE_SIZE);
	}
	return got;
#endif
}

/* A bio_vec of kernel memory in one page: bvec_set_virt() from 6.3. */
static inline void ktls_bvec_set_virt(struct bio_vec *bv, void *vaddr,
				      unsigned int len)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	bvec_set_virt(bv, vaddr, len);
#else
	bvec_set_page(bv, virt_to_page(vaddr), len, offset_in_page(vaddr));
#endif
}

/*
 * sendfile() and splice() to a socket: from 6.5 they reach the proto's
 * sendmsg() with MSG_SPLICE_PAGES.  Before, they reach its sendpage(),
 * one page a call, with MSG_SENDPAGE_NOTLAST while more pages follow;
 * net/compat.c turns each call into the sendmsg() of 6.5 on, so the
 * record layer has one TX path.  Debian's 6.1 has splice_eof() already,
 * which closes the record once the splice ends, as from 6.5 on.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
int ktls_compat_sendpage(struct sock *sk, struct page *page, int offset,
			 size_t size, int flags);
#endif

/* What a proto of ours needs on this kernel beyond the ops of 6.12. */
static inline void ktls_compat_prot_init(struct proto *p)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
	p->sendpage = ktls_compat_sendpage;
#endif
}

/*
 * kernel_sendpage_locked() before 6.5: the socket op sendpage_locked(),
 * for callers that hold the socket lock (skb_send_sock_locked()).
 * TCP's would put the page on the wire as it is, beside our records;
 * our TX takes the send lock before the socket lock, so it cannot run
 * under the caller's.  net/compat.c refuses it where records are sent
 * or a handshake holds the socket, and passes it to TCP elsewhere, as
 * a socket without keys is plain TCP.  From 6.5 there is no such op.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
int ktls_compat_sendpage_locked(struct sock *sk, struct page *page,
				int offset, size_t size, int flags);
#endif

/*
 * Request socks of an armed listener's children.  While a child's
 * handshake runs, net/hs/listen.c holds its request out of the accept
 * queue, then puts it back (done) or frees it with the child (failed).
 * Kernels up to 6.12 give modules both calls (__reqsk_free() inline in
 * <net/request_sock.h>); 7.x keeps them to the core.  Kbuild defines
 * KTLS_NO_REQSK_FREE / KTLS_NO_REQSK_QUEUE_ADD where the kernel does, and
 * net/compat.c stands in.
 */
#ifdef KTLS_NO_REQSK_FREE
void ktls_reqsk_free(struct request_sock *req);
#endif

/* Drop a reference to @req, freeing it with the last. */
static inline void ktls_reqsk_put(struct request_sock *req)
{
#ifdef KTLS_NO_REQSK_FREE
	if (refcount_dec_and_test(&req->rsk_refcnt))
		ktls_reqsk_free(req);
#else
	reqsk_put(req);
#endif
}

/*
 * Append @req, whose child is @child, to the accept queue of @lsk, which
 * must still be listening (the caller knows it is not closing): only
 * then does the kernel's call leave @req and @child to the queue alone.
 */
#ifdef KTLS_NO_REQSK_QUEUE_ADD
void ktls_reqsk_queue_add(struct sock *lsk, struct request_sock *req,
			  struct sock *child);
#else
static inline void ktls_reqsk_queue_add(struct sock *lsk,
					struct request_sock *req,
					struct sock *child)
{
	inet_csk_reqsk_queue_add(lsk, req, child);
}
#endif

/* What the socket ops of ours need on this kernel beyond those of 6.12. */
static inline void ktls_compat_ops_init(struct proto_ops *ops)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
	ops->sendpage_locked = ktls_compat_sendpage_locked;
#endif
}

/*
 * The sk_data_ready tracepoint, which a socket's own data-ready callback
 * fires, as TCP's does: there from 6.3 on, nothing to fire before.
 */
static inline void ktls_trace_sk_data_ready(struct sock *sk)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	trace_sk_data_ready(sk);
#endif
}

/*
 * The proto's accept().  From 6.10 it takes struct proto_accept_arg
 * (flags in, error out); before, the flags, an error pointer and kern
 * one by one.  Ours keep the 6.10 form: before it, the struct is the
 * compat layer's, a base proto's accept is called through
 * ktls_proto_accept(), and ours is installed through
 * KTLS_LISTEN_ACCEPT_OP, which names a wrapper of the old form there.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
struct proto_accept_arg {
	int flags;
	int err;
	bool kern;
};

struct sock *ktls_compat_listen_accept(struct sock *sk, int flags, int *err,
				       bool kern);
#define KTLS_LISTEN_ACCEPT_OP	ktls_compat_listen_accept
#else
#define KTLS_LISTEN_ACCEPT_OP	ktls_hs_listen_accept
#endif

static inline struct sock *ktls_proto_accept(struct proto *prot,
					     struct sock *sk,
					     struct proto_accept_arg *arg)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	return prot->accept(sk, arg);
#else
	return prot->accept(sk, arg->flags, &arg->err, arg->kern);
#endif
}

/*
 * The proto's recvmsg().  Until 7.0 it also takes an int *addr_len,
 * which TCP never sets.  Ours keeps the 7.0 form: a base proto's is
 * called through ktls_proto_recvmsg(), and ours is installed through
 * KTLS_PROT_RECVMSG_OP, which names a wrapper of the old form there.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 0, 0)
int ktls_compat_prot_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
			     int flags, int *addr_len);
#define KTLS_PROT_RECVMSG_OP	ktls_compat_prot_recvmsg
#else
#define KTLS_PROT_RECVMSG_OP	ktls_prot_recvmsg
#endif

static inline int ktls_proto_recvmsg(struct proto *prot, struct sock *sk,
				     struct msghdr *msg, size_t len, int flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
	return prot->recvmsg(sk, msg, len, flags);
#else
	int addr_len = 0;

	return prot->recvmsg(sk, msg, len, flags, &addr_len);
#endif
}

/*
 * The ULP's inet_diag callbacks: from 6.13 they are told whether the
 * reader has CAP_NET_ADMIN.  Ours keep that form; before, they are
 * installed through wrappers that say no.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
int ktls_compat_diag_get_info(struct sock *sk, struct sk_buff *skb);
size_t ktls_compat_diag_get_info_size(const struct sock *sk);
#define KTLS_ULP_GET_INFO_OP		ktls_compat_diag_get_info
#define KTLS_ULP_GET_INFO_SIZE_OP	ktls_compat_diag_get_info_size
#else
#define KTLS_ULP_GET_INFO_OP		ktls_diag_get_info
#define KTLS_ULP_GET_INFO_SIZE_OP	ktls_diag_get_info_size
#endif

#endif /* _KTLS_HS_COMPAT_NET_H */
