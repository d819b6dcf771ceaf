// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software RX path's reader: decrypting the records the framer
 * (rx_framer.c) got ready, checking their content types, and handing the
 * plaintext to recvmsg(), splice() and in-kernel readers.  This file
 * sets struct ktls_rx up and frees it.
 *
 * A record the framer left in TCP's receive queue is decrypted straight
 * out of TCP's skbs, into the reader's own buffer when the whole
 * plaintext fits and nothing else needs it, or else into a buffer of
 * pages sized for the largest record, which then joins the list of
 * decrypted records (peeked, partially read, or of another content type)
 * while a spare buffer takes its place.  A record the framer had to copy
 * out of TCP is decrypted from that buffer into another.  Buffers are
 * recycled, so the steady state allocates nothing.
 *
 * Everything but the lockless readiness checks runs under the socket lock
 * in process context, and one reader at a time holds the record stream.
 *
 * Where a NIC decrypts RX (device_rx.c), records arrive in plaintext in
 * skbs marked decrypted: a record wholly so is taken as the device left
 * it, one only partly so is turned back into ciphertext and decrypted
 * here, which needs it copied out of TCP's skbs.
 *
 * Records are decrypted one at a time, in order, by a reader in process
 * context.  So on the keys of a kernel handshake, a KeyUpdate is followed
 * right where it is decrypted: the next record, framed or not, is not
 * decrypted yet, and setting the new key may sleep.  One split over
 * records is put together as its fragments are decrypted (rx_hs.c).
 */
#include <linux/err.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "rx.h"
#include "../offload/device.h"
#include "key_update.h"

/* How long a record of a kernel handshake's keys may wait unread. */
#define KTLS_RX_CHECK_DELAY	msecs_to_jiffies(200)

/* What ktls_rx_decrypt() did with a record, besides failing. */
enum {
	KTLS_RX_QUEUED,		/* decrypted in place, at the end of rx->list */
	KTLS_RX_ZC,		/* decrypted into the reader's buffer */
	KTLS_RX_CONSUMED,	/* a handshake record we took: nothing to read */
};

static size_t ktls_rx_rec_to_iter(struct ktls_rx_rec *rec, unsigned int pos,
				  size_t len, struct iov_iter *to)
{
	size_t done = 0;

	while (done < len) {
		unsigned int n = ktls_rx_rec_span(pos, len - done);
		size_t got;

		got = copy_page_to_iter(rec->pages[pos >> PAGE_SHIFT],
					offset_in_page(pos), n, to);
		done += got;
		if (got < n)
			break;
		pos += n;
	}
	return done;
}

/*
 * @sg (rx->sg_rec or rx->sg_dst): the AAD, then @len bytes of @rec past
 * the record's header.
 */
static struct scatterlist *ktls_rx_rec_sgl(struct ktls_rx *rx,
					   struct scatterlist *sg,
					   struct ktls_rx_rec *rec,
					   const struct ktls_prot *prot,
					   unsigned int len)
{
	unsigned int nr;

	sg_init_table(sg, KTLS_RX_PAGES + 2);
	sg_set_buf(&sg[0], rx->aad, prot->aad_len);
	nr = ktls_rx_rec_sg(rec, &sg[1], prot->prepend_len, len);
	sg_mark_end(&sg[nr]);
	return sg;
}

/*
 * On the keys of a kernel handshake no TLS library above us answers a
 * record's errors, and the application may never read it: a record left
 * unread for KTLS_RX_CHECK_DELAY is opened by a work item, onto rx->list
 * where the next reader finds it (one record ahead at most), so that an
 * error in it gets its alert all the same.  A reader that keeps up never
 * leaves it anything to do.
 */
void ktls_rx_check_later(struct sock *sk, struct ktls_rx *rx)
{
	if (!ktls_ctx(sk)->keys_from_kernel || rx->closing || rx->stopped)
		return;
	sock_hold(sk);
	if (!schedule_delayed_work(&rx->check_work, KTLS_RX_CHECK_DELAY))
		sock_put(sk);
}

bool ktls_rx_is_readable(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx ? ctx->rx : NULL;

	if (!rx)
		return false;
	return !list_empty_careful(&rx->list) || READ_ONCE(rx->peer_closed) ||
	       (READ_ONCE(rx->ready) && !READ_ONCE(rx->key_expired));
}

__poll_t ktls_poll(struct file *file, struct socket *sock,
		   struct poll_table_struct *wait)
{
	struct sock *sk = sock->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);
	__poll_t mask;

	mask = ctx->sk_ops->poll(file, sock, wait);
	if (!READ_ONCE(ctx->rx))
		return mask;
	/* Errors, EOF and a dead connection are readable as TCP says. */
	if (inet_sk_state_load(sk) != TCP_ESTABLISHED ||
	    READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
		return mask;
	if (!ktls_rx_is_readable(sk))
		mask &= ~(EPOLLIN | EPOLLRDNORM);
	/* After close_notify, as after a FIN, even before the FIN itself. */
	if (READ_ONCE(ctx->rx->peer_closed))
		mask |= EPOLLIN | EPOLLRDNORM | EPOLLRDHUP;
	return mask;
}

/*
 * One reader at a time owns the record stream, also while it sleeps for
 * data.  The others queue exclusively: a reader leaving wakes only the
 * next, and one giving up passes the wake-up on.
 */
static int ktls_rx_reader_acquire(struct sock *sk, struct ktls_rx *rx,
				  bool nonblock)
{
	long timeo = sock_rcvtimeo(sk, nonblock);
	int err = 0;

	/* sk_wait_event() lets go of the socket lock as it sleeps. */
	sock_owned_by_me(sk);
	while (rx->reader_present) {
		DEFINE_WAIT_FUNC(wait, woken_wake_function);

		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		add_wait_queue_exclusive(&rx->wq, &wait);
		sk_wait_event(sk, &timeo, !READ_ONCE(rx->reader_present),
			      &wait);
		remove_wait_queue(&rx->wq, &wait);
		if (!rx->reader_present)
			break;
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
	}
	if (err) {
		if (!rx->reader_present)
			wake_up(&rx->wq);
		return err;
	}
	WRITE_ONCE(rx->reader_present, true);
	return 0;
}

static void ktls_rx_reader_release(struct ktls_rx *rx)
{
	WRITE_ONCE(rx->reader_present, false);
	if (wq_has_sleeper(&rx->wq))
		wake_up(&rx->wq);
	/* What the reader left in TCP is not framed until more comes. */
	if (rx->ready || tcp_inq(rx->sk))
		ktls_rx_check_later(rx->sk, rx);
}

/*
 * Wait until a whole record can be decrypted.  Returns 1 then, 0 at the
 * end of the stream, or an errno.  @copied: the caller already has data
 * to return, so an error is left set for the next call.
 */
static int ktls_rx_wait(struct sock *sk, struct ktls_ctx *ctx,
			struct ktls_rx *rx, bool nonblock, bool copied)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	long timeo = sock_rcvtimeo(sk, nonblock);

	sock_owned_by_me(sk);
	for (;;) {
		if (rx->err)
			return rx->err;
		if (rx->peer_closed)
			return 0;
		if (rx->key_expired)
			return -EKEYEXPIRED;
		if (rx->seq_spent)
			return -EBADMSG;
		if (!rx->cur) {
			rx->cur = ktls_rx_rec_alloc(rx);
			if (!rx->cur)
				return -ENOMEM;
		}
		if (ktls_rx_pull(sk, ctx, rx, false, GFP_KERNEL))
			return -ENOMEM;
		if (rx->ready)
			return 1;

		if (sk->sk_err)
			return copied ? -READ_ONCE(sk->sk_err) : sock_error(sk);
		if (sk->sk_shutdown & RCV_SHUTDOWN || sock_flag(sk, SOCK_DONE))
			return 0;
		if (!timeo)
			return -EAGAIN;

		add_wait_queue(sk_sleep(sk), &wait);
		sk_set_bit(SOCKWQ_ASYNC_WAITDATA, sk);
		sk_wait_event(sk, &timeo,
			      READ_ONCE(rx->ready) || READ_ONCE(sk->sk_err) ||
			      READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN,
			      &wait);
		sk_clear_bit(SOCKWQ_ASYNC_WAITDATA, sk);
		remove_wait_queue(sk_sleep(sk), &wait);
		if (signal_pending(current))
			return sock_intr_errno(timeo);
	}
}

/* The stream is broken for good: every read and write gets @err. */
static int ktls_rx_fail(struct sock *sk, struct ktls_rx *rx, int err)
{
	rx->err = err;
	WRITE_ONCE(sk->sk_err, -err);
	sk_error_report(sk);
	return err;
}

/*
 * The record just opened had the last sequence number: it is delivered,
 * and nothing is framed after it, since the next would reuse a nonce
 * (sequence numbers never wrap: RFC 5246 6.1, RFC 8446 5.3).  Reads get
 * EBADMSG once the delivered data is taken, as with upstream.
 */
static void ktls_rx_seq_spent(struct sock *sk, struct ktls_rx *rx)
{
	rx->stopped = true;
	rx->seq_spent = true;
	WRITE_ONCE(sk->sk_err, EBADMSG);
	sk_error_report(sk);
}

/* A decryption failure breaks the stream for good. */
static int ktls_rx_bad(struct sock *sk, struct ktls_rx *rx, int err)
{
	if (err == -EBADMSG)
		ktls_stat_inc(sk, KTLS_STAT_DECRYPT_ERROR);
	return ktls_rx_fail(sk, rx, err);
}

/*
 * A record that does not open.  On the keys of a kernel handshake we are
 * the TLS implementation, and RFC 8446 5.2 (RFC 5246 7.2.2 for 1.2) has
 * it end the connection with bad_record_mac; with keys from userspace the
 * alert is the application's, as with upstream.
 */
static int ktls_rx_open_failed(struct sock *sk, struct ktls_ctx *ctx,
			       struct ktls_rx *rx, int err)
{
	if (err == -EBADMSG && ctx->keys_from_kernel)
		ktls_tx_alert(sk, KTLS_RX_ALERT_BAD_RECORD_MAC);
	return ktls_rx_bad(sk, rx, err);
}

/*
 * TLS 1.3: a TLSInnerPlaintext of zeros only has no content type; on the
 * keys of a kernel handshake RFC 8446 5.4 has us answer unexpected_message.
 */
static int ktls_rx_no_type(struct sock *sk, struct ktls_ctx *ctx,
			   struct ktls_rx *rx, int err)
{
	if (ctx->keys_from_kernel)
		ktls_tx_alert(sk, KTLS_RX_ALERT_UNEXPECTED);
	return ktls_rx_bad(sk, rx, err);
}

/*
 * Send the alert a framing error earned (ktls_rx_abort()), then fail the
 * stream with its errno.
 */
void ktls_rx_send_alert_due(struct sock *sk)
{
	struct ktls_rx *rx = ktls_ctx(sk)->rx;
	u8 desc;

	sock_owned_by_me(sk);
	if (!rx || !rx->alert_due)
		return;
	desc = rx->alert_due;
	rx->alert_due = 0;
	ktls_tx_alert(sk, desc);
	ktls_rx_fail(sk, rx, rx->alert_err);
}

static void ktls_rx_alert_work(struct work_struct *work)
{
	struct ktls_rx *rx = container_of(work, struct ktls_rx, alert_work);
	struct sock *sk = rx->sk;

	lock_sock(sk);
	/* close() sent it, or the context is going. */
	if (!rx->closing)
		ktls_rx_send_alert_due(sk);
	release_sock(sk);
	sock_put(sk);
}

/* The peer broke the protocol: tell it, if we can, and fail the stream. */
static int ktls_rx_fatal(struct sock *sk, struct ktls_rx *rx, int err,
			 u8 alert)
{
	ktls_tx_alert(sk, alert);
	return ktls_rx_fail(sk, rx, err);
}

/*
 * An alert on the keys of a kernel handshake, for an application that
 * knows nothing of TLS.  close_notify ends the stream as a FIN does: the
 * data before it is read, then EOF, and the records after it are never
 * framed (RFC 8446 6.1: data after a closure alert is ignored).
 * user_canceled only announces a close_notify (RFC 8446 6.1).  Every
 * other alert is an error alert whatever its level, unknown ones too
 * (RFC 8446 6), and reads as a reset.  TLS 1.2 leaves what a warning
 * does to the receiver (RFC 5246 7.2: the connection "can continue
 * normally"; 7.2.2 ends it only on fatal ones), and the only one a peer
 * may rightly send us is no_renegotiation, which needs a HelloRequest we
 * never send: a warning is ignored, as the application could do no
 * better with it.
 */
static int ktls_rx_alert(struct sock *sk, struct ktls_ctx *ctx,
			 struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	u8 alert[KTLS_ALERT_LEN];

	ktls_rx_rec_read(rec, rec->off, alert, sizeof(alert));
	switch (alert[1]) {
	case KTLS_RX_ALERT_CLOSE_NOTIFY:
		rx->stopped = true;
		WRITE_ONCE(rx->peer_closed, true);
		return KTLS_RX_CONSUMED;
	case KTLS_RX_ALERT_USER_CANCELED:
		return KTLS_RX_CONSUMED;
	}
	if (ctx->prot.version != TLS_1_3_VERSION &&
	    alert[0] == KTLS_ALERT_WARNING_LEVEL)
		return KTLS_RX_CONSUMED;
	/*
	 * The alert is taken off TCP's queue, so that the application's
	 * close() ends the connection with a FIN, not a reset for unread
	 * bytes; reads fail from here on all the same.
	 */
	ktls_tx_peer_alerted(sk);
	rx->stopped = true;
	ktls_rx_fail(sk, rx, -ECONNRESET);
	return KTLS_RX_CONSUMED;
}

/*
 * A record decrypted on the keys of a kernel handshake carries an alert,
 * a handshake message or application data (RFC 8446 5, RFC 5246 6), and
 * an alert record one Alert: never empty nor fragmented (RFC 8446 5.1).
 * Between the fragments of a handshake message nothing else may come
 * (RFC 8446 5.1).
 */
static int ktls_rx_check_type(struct sock *sk, struct ktls_rx *rx,
			      const struct ktls_rx_rec *rec)
{
	if (ktls_rx_hs_pending(&rx->hs) && rec->type != KTLS_TYPE_HANDSHAKE)
		return ktls_rx_fatal(sk, rx, -EPROTO, KTLS_RX_ALERT_UNEXPECTED);

	switch (rec->type) {
	case KTLS_TYPE_ALERT:
		if (rec->plain != KTLS_ALERT_LEN)
			return ktls_rx_fatal(sk, rx, -EBADMSG,
					     KTLS_RX_ALERT_DECODE_ERROR);
		return 0;
	case KTLS_TYPE_HANDSHAKE:
	case KTLS_TYPE_DATA:
		return 0;
	default:
		return ktls_rx_fatal(sk, rx, -EPROTO, KTLS_RX_ALERT_UNEXPECTED);
	}
}

/*
 * A handshake record on the keys of a kernel TLS 1.3 handshake: the next
 * piece of the post-handshake messages (rx_hs.c says which the peer may
 * send, and puts one split over records together).  A whole KeyUpdate
 * ended the record: key_update.c moves RX to the peer's next key before
 * the next record is decrypted.  Errors fail the stream with their
 * alert: -EPROTO (unexpected_message) or -EBADMSG (decode_error,
 * illegal_parameter).
 */
static int ktls_rx_post_hs(struct sock *sk, struct ktls_ctx *ctx,
			   struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	u8 peek[KTLS_RX_HS_PEEK];
	unsigned int n = min_t(unsigned int, rec->plain, sizeof(peek));
	u8 alert;
	int ret, err;

	sock_owned_by_me(sk);
	ktls_rx_rec_read(rec, rec->off, peek, n);
	ret = ktls_rx_hs_feed(&rx->hs, peek, n, &alert);
	if (ret < 0)
		return ktls_rx_fatal(sk, rx, ret, alert);
	if (ret == KTLS_RX_HS_MORE)
		return 0;

	err = ktls_key_update_received(sk, ctx,
				       ret == KTLS_RX_HS_UPDATE_REQUESTED);
	if (err)
		rx->err = err;
	return err;
}

/*
 * What the device decrypted of the framed record: all of it (1), or none
 * (0); a record it decrypted in part is copied out of TCP, its decrypted
 * pieces turned back into ciphertext, and then it counts as none.  Or an
 * errno.  A record the device decrypted after our key moved on is not
 * taken as it is: the device had the old key.
 */
static int ktls_rx_device(struct sock *sk, struct ktls_ctx *ctx,
			  struct ktls_rx *rx, struct ktls_rx_offload *rxo)
{
	unsigned int dec = rxo->nr_dec;
	struct ktls_rx_rec *scratch;
	u32 seq;
	u64 sn;
	int err;

	if (rx->in_tcp)
		dec = ktls_rx_tcp_decrypted(sk, rx->need);
	if (!rx->dev_seen &&
	    ktls_device_rx_result(rxo, rx->seq, rx->need, dec,
				  tcp_inq(sk) > (rx->in_tcp ? rx->need : 0),
				  &seq, &sn))
		ktls_device_rx_resync(sk, ctx, seq, sn);
	rx->dev_seen = true;
	if (!dec)
		return 0;
	if (dec == rx->need && !rxo->stale)
		return 1;

	if (rx->in_tcp) {
		err = ktls_rx_copy_out(sk, ctx, rx);
		if (err)
			return err;
	}
	scratch = ktls_rx_rec_alloc(rx);
	if (!scratch)
		return -ENOMEM;
	if (!ktls_rx_rec_fill(scratch, GFP_KERNEL)) {
		ktls_rx_rec_put(rx, scratch);
		return -ENOMEM;
	}
	err = ktls_device_rx_recover(rxo, &ctx->prot, rx->cur->pages,
				     scratch->pages, rx->need);
	ktls_rx_rec_put(rx, scratch);
	if (err)
		return err;
	ktls_stat_inc(sk, KTLS_STAT_DECRYPT_RETRY);
	return 0;
}

/*
 * Decrypt the framed record into @to, which has room for all of its
 * plaintext.  Returns the plaintext length, -EAGAIN if the record must
 * be decrypted in place instead (the buffer is unfit, or a TLS 1.3
 * record turned out not to be unpadded data), or an errno.
 */
static int ktls_rx_decrypt_zc(struct sock *sk, struct ktls_ctx *ctx,
			      struct ktls_rx *rx, struct scatterlist *src,
			      struct iov_iter *to, unsigned int cryptlen)
{
	const struct ktls_prot *prot = &ctx->prot;
	unsigned int plain = cryptlen - prot->tag_len - prot->tail_len;
	struct scatterlist *sg = rx->sg_dst;
	unsigned int npages = 0, i;
	struct iov_iter probe = *to;
	size_t done = 0;
	int err = 0;

	iov_iter_truncate(&probe, plain);
	if (iov_iter_npages(&probe, KTLS_RX_ZC_PAGES + 1) > KTLS_RX_ZC_PAGES)
		return -EAGAIN;

	sg_init_table(sg, KTLS_RX_ZC_PAGES + 2);
	sg_set_buf(&sg[0], rx->aad, prot->aad_len);
	while (done < plain) {
		size_t off;
		ssize_t got;

		got = iov_iter_get_pages2(to, &rx->zc_pages[npages], plain - done,
					  KTLS_RX_ZC_PAGES - npages, &off);
		if (got <= 0) {
			err = -EAGAIN;
			goto out;
		}
		done += got;
		while (got > 0) {
			unsigned int n = min_t(size_t, got, PAGE_SIZE - off);

			sg_set_page(&sg[1 + npages], rx->zc_pages[npages], n,
				    off);
			npages++;
			got -= n;
			off = 0;
		}
	}
	if (prot->tail_len)
		sg_set_buf(&sg[1 + npages], &rx->tail, 1);
	sg_mark_end(&sg[npages + prot->tail_len]);

	err = ktls_aead_crypt(&ctx->rx_crypto, prot, false, src, sg,
			      cryptlen, rx->iv);
	if (!err && prot->tail_len && rx->tail != KTLS_TYPE_DATA) {
		/* Padding, or a control record: redo it the slow way. */
		if (!rx->tail)
			ktls_stat_inc(sk, KTLS_STAT_RX_NO_PAD_VIOLATION);
		ktls_stat_inc(sk, KTLS_STAT_DECRYPT_RETRY);
		err = -EAGAIN;
	}
out:
	for (i = 0; i < npages; i++)
		put_page(rx->zc_pages[i]);
	if (err) {
		iov_iter_revert(to, done);
		return err;
	}
	return plain;
}

/*
 * A decryption that ran out of memory changed nothing the next try needs:
 * the ciphertext is where it was (ktls_rx_decrypt()), the sequence number
 * has not moved, and the caller gets -ENOMEM, or what it read before.
 * Any other failure is the record's (authentication) or the stream's,
 * and fails it for good.
 */
static int ktls_rx_crypt_failed(struct sock *sk, struct ktls_ctx *ctx,
				struct ktls_rx *rx, int err)
{
	if (err == -ENOMEM)
		return err;
	return ktls_rx_open_failed(sk, ctx, rx, err);
}

/*
 * What is left to do with the plaintext of the framed record, now in
 * @rec: find its type, check it, follow a KeyUpdate, or queue it.
 */
static int ktls_rx_opened(struct sock *sk, struct ktls_ctx *ctx,
			  struct ktls_rx *rx, struct ktls_rx_rec *rec,
			  u8 outer, unsigned int inner)
{
	const struct ktls_prot *prot = &ctx->prot;
	unsigned int pos;
	int err;

	rec->type = outer;
	pos = prot->prepend_len + inner;
	if (prot->version == TLS_1_3_VERSION) {
		err = ktls_record_inner_type(rec->pages, prot->prepend_len, pos,
					     &rec->type);
		if (err < 0)
			return ktls_rx_no_type(sk, ctx, rx, err);
		pos = err;
	}
	rec->off = prot->prepend_len;
	rec->plain = pos - prot->prepend_len;
	if (!ktls_record_advance(prot, &ctx->rx_crypto))
		ktls_rx_seq_spent(sk, rx);
	if (ctx->keys_from_kernel) {
		err = ktls_rx_check_type(sk, rx, rec);
		if (err)
			return err;
		if (rec->type == KTLS_TYPE_ALERT)
			return ktls_rx_alert(sk, ctx, rx, rec);
	}

	/*
	 * The kernel's TLS 1.2 handshake never renegotiates (RFC 5746 is
	 * only indicated): a ClientHello, or anything else of the
	 * handshake, ends the connection rather than reach an application
	 * that cannot answer it.
	 */
	if (ctx->keys_from_kernel && prot->version != TLS_1_3_VERSION &&
	    rec->type == KTLS_TYPE_HANDSHAKE)
		return ktls_rx_fatal(sk, rx, -EPROTO, KTLS_RX_ALERT_UNEXPECTED);
	if (ctx->secrets && rec->type == KTLS_TYPE_HANDSHAKE) {
		err = ktls_rx_post_hs(sk, ctx, rx, rec);
		return err ?: KTLS_RX_CONSUMED;
	}
	list_add_tail(&rec->list, &rx->list);
	ktls_key_update_queued(sk, ctx, rx, rec);
	return KTLS_RX_QUEUED;
}

/*
 * The device left the plaintext where it found the ciphertext: into
 * rx->cur with it if it lies in TCP's queue; the record's header, with
 * the explicit nonce, into @hdr.
 */
static int ktls_rx_device_plain(struct sock *sk, struct ktls_rx *rx,
				const struct ktls_prot *prot, u8 *hdr)
{
	struct ktls_rx_rec *rec = rx->cur;

	if (rx->in_tcp) {
		if (!ktls_rx_rec_fill(rec, GFP_KERNEL))
			return -ENOMEM;
		if (ktls_rx_tcp_to_rec(sk, rec, rx->need - prot->tag_len))
			return ktls_rx_bad(sk, rx, -EIO);
	}
	ktls_rx_rec_read(rec, 0, hdr, prot->prepend_len);
	return 0;
}

/*
 * The AAD and then the ciphertext of the framed record: in TCP's skbs
 * where it lies there, unless they are too scattered to map, else in
 * rx->cur.  The record's header, with the explicit nonce, into @hdr.
 */
static struct scatterlist *ktls_rx_src(struct sock *sk, struct ktls_ctx *ctx,
				       struct ktls_rx *rx, u8 *hdr,
				       unsigned int cryptlen)
{
	const struct ktls_prot *prot = &ctx->prot;
	int nr, err;

	if (rx->in_tcp) {
		sg_init_table(rx->sg_skb, KTLS_RX_SKB_SG + 1);
		sg_set_buf(&rx->sg_skb[0], rx->aad, prot->aad_len);
		nr = ktls_rx_tcp_read(sk, 0, hdr, prot->prepend_len);
		if (!nr)
			nr = ktls_rx_tcp_sgvec(sk, prot->prepend_len, cryptlen,
					       rx->sg_skb, 1, KTLS_RX_SKB_SG + 1);
		if (nr > 0) {
			sg_mark_end(&rx->sg_skb[nr - 1]);
			return rx->sg_skb;
		}
		/* Too scattered: copy it out after all. */
		err = ktls_rx_copy_out(sk, ctx, rx);
		if (err)
			return ERR_PTR(ktls_rx_crypt_failed(sk, ctx, rx, err));
	}
	ktls_rx_rec_read(rx->cur, 0, hdr, prot->prepend_len);
	return ktls_rx_rec_sgl(rx, rx->sg_rec, rx->cur, prot, cryptlen);
}

/*
 * Decrypt @src into a record buffer: rx->cur, for a record in TCP's
 * queue, which never needed its pages; else a second buffer, so that
 * the ciphertext in rx->cur is never written over.
 */
static struct ktls_rx_rec *ktls_rx_open(struct sock *sk, struct ktls_ctx *ctx,
					struct ktls_rx *rx,
					struct scatterlist *src,
					unsigned int cryptlen)
{
	const struct ktls_prot *prot = &ctx->prot;
	struct ktls_rx_rec *out;
	int err;

	out = rx->in_tcp ? rx->cur : ktls_rx_rec_alloc(rx);
	if (!out)
		return ERR_PTR(-ENOMEM);
	if (!ktls_rx_rec_fill(out, GFP_KERNEL)) {
		err = -ENOMEM;
		goto put;
	}
	err = ktls_aead_crypt(&ctx->rx_crypto, prot, false, src,
			      ktls_rx_rec_sgl(rx, rx->sg_dst, out, prot, cryptlen),
			      cryptlen, rx->iv);
	if (!err)
		return out;
	err = ktls_rx_crypt_failed(sk, ctx, rx, err);
put:
	if (out != rx->cur)
		ktls_rx_rec_put(rx, out);
	return ERR_PTR(err);
}

/*
 * The framed record's plaintext is in @out: check it, then queue it or
 * take it here.  Either way the framer moves on to the next record,
 * which needs a buffer of its own if rx->cur went to rx->list.
 */
static int ktls_rx_finish(struct sock *sk, struct ktls_ctx *ctx,
			  struct ktls_rx *rx, struct ktls_rx_rec *out,
			  u8 outer, unsigned int inner)
{
	int ret = ktls_rx_opened(sk, ctx, rx, out, outer, inner);

	if (ret == KTLS_RX_QUEUED) {
		if (out == rx->cur)
			rx->cur = ktls_rx_rec_alloc(rx);
		ktls_rx_next(sk, rx);
		return ret;
	}
	if (out != rx->cur)
		ktls_rx_rec_put(rx, out);
	if (ret == KTLS_RX_CONSUMED)
		ktls_rx_next(sk, rx);
	return ret;
}

/*
 * Decrypt the framed record.  With @to, the plaintext may go straight
 * there: returns KTLS_RX_ZC then, its length in *@zc_len.  Otherwise the
 * plaintext goes into a record buffer moved to the end of rx->list
 * (KTLS_RX_QUEUED), unless it was a handshake or alert record the keys
 * of a kernel handshake take here (KTLS_RX_CONSUMED; an error alert fails
 * the stream all the same).  Or an errno: -ENOMEM leaves the record
 * framed for the next call to decrypt.
 *
 * The ciphertext is never written over.  The AEAD may run out of memory
 * half way (a cipher walk bounces a block that straddles pages through a
 * buffer it allocates) with part of its output written: in place, the
 * record would be lost.  So a record in TCP's queue is decrypted out of
 * TCP's skbs, and one copied out into rx->cur into a second buffer, after
 * which rx->cur frames the next record; every allocation comes before
 * the AEAD call or is the AEAD's own.  A device that decrypted a record
 * in part only had it copied out and turned back into ciphertext in a
 * scratch buffer, the copy changed only once that worked.
 */
static int ktls_rx_decrypt(struct sock *sk, struct ktls_ctx *ctx,
			   struct ktls_rx *rx, struct iov_iter *to,
			   size_t *zc_len)
{
	struct ktls_rx_offload *rxo = ktls_rx_offload(ctx);
	const struct ktls_prot *prot = &ctx->prot;
	struct ktls_crypto *c = &ctx->rx_crypto;
	unsigned int cryptlen = rx->need - prot->prepend_len;
	unsigned int inner = cryptlen - prot->tag_len;
	u8 hdr[KTLS_HEADER_LEN + KTLS_MAX_NONCE_LEN];
	struct scatterlist *src;
	struct ktls_rx_rec *out;
	int err;

	/* One reader at a time decrypts, in order, and may sleep doing so. */
	sock_owned_by_me(sk);
	if (rxo) {
		err = ktls_rx_device(sk, ctx, rx, rxo);
		if (err < 0)
			return ktls_rx_crypt_failed(sk, ctx, rx, err);
		if (err) {
			err = ktls_rx_device_plain(sk, rx, prot, hdr);
			if (err)
				return err;
			return ktls_rx_finish(sk, ctx, rx, rx->cur, hdr[0],
					      inner);
		}
	}

	src = ktls_rx_src(sk, ctx, rx, hdr, cryptlen);
	if (IS_ERR(src))
		return PTR_ERR(src);
	ktls_record_iv(rx->iv, prot, c, hdr + KTLS_HEADER_LEN);
	ktls_record_aad(rx->aad, prot, c->seq, hdr[0], inner);

	/* Data between handshake fragments must reach no reader. */
	if (to && inner >= prot->tail_len && !ktls_rx_hs_pending(&rx->hs)) {
		err = ktls_rx_decrypt_zc(sk, ctx, rx, src, to, cryptlen);
		if (err >= 0) {
			*zc_len = err;
			if (!ktls_record_advance(prot, c))
				ktls_rx_seq_spent(sk, rx);
			ktls_rx_next(sk, rx);
			return KTLS_RX_ZC;
		}
		if (err != -EAGAIN)
			return ktls_rx_crypt_failed(sk, ctx, rx, err);
	}

	out = ktls_rx_open(sk, ctx, rx, src, cryptlen);
	if (IS_ERR(out))
		return PTR_ERR(out);
	return ktls_rx_finish(sk, ctx, rx, out, hdr[0], inner);
}

/*
 * Open what nobody reads (ktls_rx_check_later()): handshake records are
 * taken (a KeyUpdate followed, or its fragments put together), and the
 * records behind them framed on, up to the first other record, which
 * waits on rx->list; an error fails the stream with its alert, as in a
 * reader.
 */
static void ktls_rx_check_work(struct work_struct *work)
{
	struct ktls_rx *rx = container_of(to_delayed_work(work),
					  struct ktls_rx, check_work);
	struct sock *sk = rx->sk;
	struct ktls_ctx *ctx;
	int err = 0;

	lock_sock(sk);
	ctx = ktls_ctx(sk);
	while (!rx->closing && !rx->reader_present && !rx->err &&
	       !rx->key_expired && rx->cur && list_empty(&rx->list)) {
		if (!rx->ready)
			err = ktls_rx_pull(sk, ctx, rx, false, GFP_KERNEL);
		if (!rx->ready)
			break;
		err = ktls_rx_decrypt(sk, ctx, rx, NULL, NULL);
		if (err != KTLS_RX_CONSUMED)
			break;
	}
	/* Out of memory: the record is still there, to be opened later. */
	if (err == -ENOMEM)
		ktls_rx_check_later(sk, rx);
	release_sock(sk);
	sock_put(sk);
}

/*
 * @n bytes of @rec were read.  Returns true if that was the last of it:
 * the buffer is done with, and @rec no longer to be touched.
 */
static bool ktls_rx_rec_consume(struct ktls_rx *rx, struct ktls_rx_rec *rec,
				unsigned int n)
{
	rec->off += n;
	rec->plain -= n;
	if (rec->plain)
		return false;
	ktls_rx_rec_done(rx, rec);
	return true;
}

/* The content type of what this recvmsg() returns: known from here on. */
static int ktls_rx_put_type(struct msghdr *msg, u8 *control, u8 type)
{
	*control = type;
	return put_cmsg(msg, SOL_TLS, TLS_GET_RECORD_TYPE, sizeof(*control),
			control);
}

/*
 * Copy decrypted records from @rec on into @msg, up to @len bytes.  All
 * records one call returns have the same content type, reported by cmsg
 * (*@control, 0 until known); a control record is returned alone, and not
 * at all to a reader who cannot be told its type.  Returns the bytes
 * copied or an errno; *@stop: do not read further records in this call.
 */
static int ktls_rx_copy(struct ktls_rx *rx, struct ktls_rx_rec *rec,
			struct msghdr *msg, size_t len, int flags,
			u8 *control, bool *stop)
{
	struct ktls_rx_rec *next;
	size_t copied = 0;

	list_for_each_entry_safe_from(rec, next, &rx->list, list) {
		size_t n, got;

		if (!*control) {
			int err;

			err = ktls_rx_put_type(msg, control, rec->type);
			if (*control != KTLS_TYPE_DATA &&
			    (err || msg->msg_flags & MSG_CTRUNC)) {
				*stop = true;
				return -EIO;
			}
		} else if (*control != rec->type) {
			*stop = true;
			break;
		}
		if (copied >= len)
			break;

		n = min_t(size_t, len - copied, rec->plain);
		got = ktls_rx_rec_to_iter(rec, rec->off, n, &msg->msg_iter);
		copied += got;
		if (!(flags & MSG_PEEK) && ktls_rx_rec_consume(rx, rec, got))
			msg->msg_flags |= MSG_EOR;
		if (got < n) {
			*stop = true;
			return copied ?: -EFAULT;
		}
		if (*control != KTLS_TYPE_DATA) {
			*stop = true;
			break;
		}
	}
	return copied;
}

int ktls_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	const struct ktls_prot *prot = &ctx->prot;
	struct ktls_rx *rx = ctx->rx;
	bool peek = flags & MSG_PEEK;
	bool stop = false;
	size_t copied = 0;
	u8 control = 0;
	int target;
	int err;

	if (unlikely(flags & MSG_ERRQUEUE))
		return sock_recv_errqueue(sk, msg, len, SOL_IP, IP_RECVERR);

	lock_sock(sk);
	err = ktls_rx_reader_acquire(sk, rx, flags & MSG_DONTWAIT);
	if (err)
		goto out_unlock;

	if (!list_empty(&rx->list)) {
		err = ktls_rx_copy(rx, list_first_entry(&rx->list,
							struct ktls_rx_rec, list),
				   msg, len, flags, &control, &stop);
		if (err < 0)
			goto out;
		copied = err;
		err = 0;
	}

	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	while (!stop && copied < len) {
		struct ktls_rx_rec *rec;
		struct iov_iter *zc = NULL;
		size_t zc_len;
		u8 type;

		if (rx->cur)
			ktls_rx_pull(sk, ctx, rx, false, GFP_KERNEL);
		if (copied >= target && !rx->ready)
			break;
		err = ktls_rx_wait(sk, ctx, rx, flags & MSG_DONTWAIT, copied);
		if (err <= 0)
			break;

		/*
		 * Straight into the reader's buffer when it takes the whole
		 * record and nobody needs the plaintext again.  TLS 1.3 hides
		 * the type and padding inside: only try when told to expect
		 * none (TLS_RX_EXPECT_NO_PAD), and redo it if wrong.
		 */
		type = rx->type;
		if (!peek && user_backed_iter(&msg->msg_iter) &&
		    (!control || control == KTLS_TYPE_DATA) &&
		    type == KTLS_TYPE_DATA &&
		    (prot->version != TLS_1_3_VERSION || ctx->rx_no_pad) &&
		    rx->need - prot->overhead <= len - copied)
			zc = &msg->msg_iter;

		err = ktls_rx_decrypt(sk, ctx, rx, zc, &zc_len);
		if (err < 0)
			break;
		if (err == KTLS_RX_CONSUMED) {
			err = 0;
			continue;
		}
		if (err == KTLS_RX_ZC) {
			if (!control)
				ktls_rx_put_type(msg, &control, KTLS_TYPE_DATA);
			copied += zc_len;
			msg->msg_flags |= MSG_EOR;
			err = 0;
			continue;
		}

		rec = list_last_entry(&rx->list, struct ktls_rx_rec, list);
		err = ktls_rx_copy(rx, rec, msg, len - copied, flags, &control,
				   &stop);
		if (err < 0)
			break;
		copied += err;
		err = 0;
	}

out:
	ktls_rx_reader_release(rx);
out_unlock:
	release_sock(sk);
	return copied ?: err;
}

static void ktls_rx_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

/* Copy @len bytes of @rec into fresh pages handed to @pipe. */
static ssize_t ktls_rx_splice(struct ktls_rx_rec *rec,
			      struct pipe_inode_info *pipe, size_t len)
{
	struct page *pages[KTLS_RX_PAGES];
	struct partial_page partial[KTLS_RX_PAGES];
	struct splice_pipe_desc spd = {
		.pages = pages,
		.partial = partial,
		.nr_pages_max = KTLS_RX_PAGES,
		.ops = &nosteal_pipe_buf_ops,
		.spd_release = ktls_rx_spd_release,
	};
	unsigned int pos = rec->off;

	while (len && spd.nr_pages < KTLS_RX_PAGES) {
		unsigned int n = min_t(size_t, len, PAGE_SIZE);
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page)
			break;
		ktls_rx_rec_read(rec, pos, page_address(page), n);
		pages[spd.nr_pages] = page;
		partial[spd.nr_pages].offset = 0;
		partial[spd.nr_pages].len = n;
		spd.nr_pages++;
		pos += n;
		len -= n;
	}
	if (!spd.nr_pages)
		return -ENOMEM;
	return splice_to_pipe(pipe, &spd);
}

/*
 * The next record in the list, decrypting one if there is none.  Returns
 * 1 and the record, 0 at the end of the stream, or an errno.
 */
static int ktls_rx_first(struct sock *sk, struct ktls_ctx *ctx,
			 struct ktls_rx *rx, bool nonblock, bool copied,
			 struct ktls_rx_rec **rec)
{
	int err;

	while (list_empty(&rx->list)) {
		err = ktls_rx_wait(sk, ctx, rx, nonblock, copied);
		if (err <= 0)
			return err;
		err = ktls_rx_decrypt(sk, ctx, rx, NULL, NULL);
		if (err < 0)
			return err;
	}
	*rec = list_first_entry(&rx->list, struct ktls_rx_rec, list);
	return 1;
}

ssize_t ktls_splice_read(struct socket *sock, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags)
{
	struct sock *sk = sock->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx->rx;
	bool nonblock = flags & SPLICE_F_NONBLOCK;
	struct ktls_rx_rec *rec;
	ssize_t ret;

	lock_sock(sk);
	ret = ktls_rx_reader_acquire(sk, rx, nonblock);
	if (ret)
		goto out_unlock;

	ret = ktls_rx_first(sk, ctx, rx, nonblock, false, &rec);
	if (ret <= 0)
		goto out;
	/* A pipe cannot say what content type it carries. */
	if (rec->type != KTLS_TYPE_DATA) {
		ret = -EINVAL;
		goto out;
	}
	if (!rec->plain) {
		ktls_rx_rec_done(rx, rec);
		ret = 0;
		goto out;
	}
	ret = ktls_rx_splice(rec, pipe, min_t(size_t, len, rec->plain));
	if (ret > 0)
		ktls_rx_rec_consume(rx, rec, ret);
out:
	ktls_rx_reader_release(rx);
out_unlock:
	release_sock(sk);
	return ret;
}

/* Wrap the plaintext of @rec in an skb sharing its pages, for read_sock(). */
static struct sk_buff *ktls_rx_rec_skb(struct ktls_rx_rec *rec)
{
	unsigned int pos = rec->off, left = rec->plain;
	struct sk_buff *skb;
	int i = 0;

	skb = alloc_skb(0, GFP_KERNEL);
	if (!skb)
		return NULL;
	while (left) {
		unsigned int n = ktls_rx_rec_span(pos, left);
		struct page *page = rec->pages[pos >> PAGE_SHIFT];

		get_page(page);
		skb_fill_page_desc(skb, i++, page, offset_in_page(pos), n);
		pos += n;
		left -= n;
	}
	skb->len = rec->plain;
	skb->data_len = rec->plain;
	skb->truesize += rec->plain;
	return skb;
}

/* The reader kept references to our pages: they are its now. */
static void ktls_rx_rec_check_shared(struct ktls_rx_rec *rec)
{
	unsigned int i;

	for (i = 0; i < KTLS_RX_PAGES; i++)
		if (rec->pages[i] && page_ref_count(rec->pages[i]) != 1)
			rec->shared = true;
}

int ktls_read_sock(struct sock *sk, read_descriptor_t *desc,
		   sk_read_actor_t recv_actor)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx->rx;
	struct ktls_rx_rec *rec;
	struct sk_buff *skb;
	int copied = 0;
	int err, used;

	/* Unlike recvmsg(), read_sock() is called with the socket locked. */
	sock_owned_by_me(sk);
	err = ktls_rx_reader_acquire(sk, rx, true);
	if (err)
		return err;

	while (desc->count) {
		err = ktls_rx_first(sk, ctx, rx, true, copied, &rec);
		if (err <= 0)
			break;
		/* read_sock() has no way to carry a content type either. */
		if (rec->type != KTLS_TYPE_DATA) {
			err = -EINVAL;
			break;
		}
		if (!rec->plain) {
			ktls_rx_rec_done(rx, rec);
			continue;
		}
		skb = ktls_rx_rec_skb(rec);
		if (!skb) {
			err = -ENOMEM;
			break;
		}
		used = recv_actor(desc, skb, 0, rec->plain);
		consume_skb(skb);
		ktls_rx_rec_check_shared(rec);
		if (used <= 0) {
			err = used;
			break;
		}
		used = min_t(unsigned int, used, rec->plain);
		copied += used;
		ktls_rx_rec_consume(rx, rec, used);
	}

	ktls_rx_reader_release(rx);
	return copied ?: err;
}

int ktls_rx_init(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx;

	sock_owned_by_me(sk);
	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return -ENOMEM;
	INIT_LIST_HEAD(&rx->list);
	INIT_LIST_HEAD(&rx->spare);
	init_waitqueue_head(&rx->wq);
	rx->sk = sk;
	ktls_rx_framer_init(rx);
	INIT_WORK(&rx->alert_work, ktls_rx_alert_work);
	INIT_DELAYED_WORK(&rx->check_work, ktls_rx_check_work);
	rx->cur = ktls_rx_rec_alloc(rx);
	if (!rx->cur) {
		kfree(rx);
		return -ENOMEM;
	}

	write_lock_bh(&sk->sk_callback_lock);
	rx->saved_data_ready = sk->sk_data_ready;
	WRITE_ONCE(ctx->rx, rx);
	sk->sk_data_ready = ktls_rx_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);

	/* Records may have arrived before the keys. */
	ktls_rx_pull(sk, ctx, rx, false, GFP_KERNEL);
	if (rx->ready || tcp_inq(sk))
		ktls_rx_check_later(sk, rx);
	return 0;
}

void ktls_rx_rekeyed(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx->rx;

	sock_owned_by_me(sk);
	if (!rx)
		return;
	ktls_device_rx_rekey(sk, ctx);
	WRITE_ONCE(rx->key_expired, false);
	if (ktls_rx_pull(sk, ctx, rx, false, GFP_KERNEL))
		ktls_rx_fill_later(sk, rx, 0);
	if (rx->ready)
		rx->saved_data_ready(sk);
}

void ktls_rx_close(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx->rx;

	sock_owned_by_me(sk);
	if (!rx)
		return;
	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_data_ready = rx->saved_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
	rx->closing = true;
}

void ktls_rx_free(struct ktls_ctx *ctx)
{
	struct ktls_rx *rx = ctx->rx;
	struct ktls_rx_rec *rec, *next;

	if (!rx)
		return;
	/* Set in ktls_rx_close(), or the socket never got this far. */
	WRITE_ONCE(rx->closing, true);
	if (cancel_delayed_work_sync(&rx->fill_work))
		sock_put(rx->sk);
	if (cancel_work_sync(&rx->alert_work))
		sock_put(rx->sk);
	if (cancel_delayed_work_sync(&rx->check_work))
		sock_put(rx->sk);
	list_for_each_entry_safe(rec, next, &rx->list, list)
		ktls_rx_rec_free(rec);
	list_for_each_entry_safe(rec, next, &rx->spare, list)
		ktls_rx_rec_free(rec);
	if (rx->cur)
		ktls_rx_rec_free(rx->cur);
	kfree(rx);
	ctx->rx = NULL;
}
