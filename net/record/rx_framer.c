// SPDX-License-Identifier: GPL-2.0-only
/*
 * The RX framer: TCP's bytes into whole TLS records, as tls_strp.c is to
 * upstream's tls_sw.c.  It owns the record buffers (struct ktls_rx_rec:
 * pages for one record, recycled through a short list of spares), the
 * parsing of record headers and what a bad one earns, the walk over
 * TCP's receive queue, and the fields of struct ktls_rx that say where
 * the next record is (cur, len, seq, need, type, ready, in_tcp,
 * dev_seen, stopped) along with our sk_data_ready and fill_work.
 *
 * A record is left in TCP's queue when TCP can hold all of it; else it
 * is copied into rx->cur as it arrives, so the window never closes on a
 * record half in.  Either way the framer stops at one record and sets
 * rx->ready; until the reader takes it, TCP's window holds the peer back.
 *
 * It runs in three contexts, always with the socket's receive queue
 * stable: ktls_rx_data_ready() in softirq on a socket no user owns (or
 * from the owner's backlog processing), with GFP_ATOMIC; fill_work, which
 * takes the socket lock and gets the pages softirq could not; and the
 * reader (rx.c) in process context under the socket lock.
 *
 * The reader drives it through a handful of calls (rx.h): ktls_rx_pull()
 * frames the next record, ktls_rx_next() lets the framed one go once it
 * was decrypted or queued, ktls_rx_copy_out() takes it out of TCP's queue
 * after all (too scattered to decrypt from there, or decrypted by a
 * device in part), and the ktls_rx_tcp_*() calls read the framed record
 * where it lies in TCP's queue.  The framer calls back only
 * ktls_rx_check_later() (rx.c), when a record got ready that nobody may
 * come to read.  A header that breaks the stream stops the framer; the
 * alert it earned is left in rx->alert_due for rx.c's alert_work to send
 * from process context.  Where a NIC decrypts RX, the framer also marks what it
 * copies and tells the device where records start when it asks.
 */
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <ktls_hs/compat_net.h>

#include "rx.h"
#include "../offload/device.h"

/* Idle buffers kept for the next records; more are freed. */
#define KTLS_RX_SPARES		2
/* How long the framer waits for memory before it tries again. */
#define KTLS_RX_FILL_DELAY	msecs_to_jiffies(20)

void ktls_rx_rec_free(struct ktls_rx_rec *rec)
{
	unsigned int i;

	for (i = 0; i < KTLS_RX_PAGES; i++)
		if (rec->pages[i])
			put_page(rec->pages[i]);
	kfree(rec);
}

struct ktls_rx_rec *ktls_rx_rec_alloc(struct ktls_rx *rx)
{
	struct ktls_rx_rec *rec;

	rec = list_first_entry_or_null(&rx->spare, struct ktls_rx_rec, list);
	if (rec) {
		list_del(&rec->list);
		rx->nr_spare--;
		return rec;
	}

	return kzalloc(sizeof(*rec), GFP_KERNEL);
}

/*
 * Pages for all of @rec before anything is written into it; false if one
 * could not be had (those allocated stay).
 */
bool ktls_rx_rec_fill(struct ktls_rx_rec *rec, gfp_t gfp)
{
	unsigned int i;

	for (i = 0; i < KTLS_RX_PAGES; i++) {
		if (rec->pages[i])
			continue;
		rec->pages[i] = alloc_page(gfp);
		if (!rec->pages[i])
			return false;
	}
	return true;
}

/* A buffer borrowed for a moment, or read out, goes back to the spares. */
void ktls_rx_rec_put(struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	if (rx->nr_spare >= KTLS_RX_SPARES) {
		ktls_rx_rec_free(rec);
		return;
	}
	list_add(&rec->list, &rx->spare);
	rx->nr_spare++;
}

/* A record was read to its end. */
void ktls_rx_rec_done(struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	list_del(&rec->list);
	if (rec->shared) {
		ktls_rx_rec_free(rec);
		return;
	}
	ktls_rx_rec_put(rx, rec);
}

void ktls_rx_rec_read(struct ktls_rx_rec *rec, unsigned int pos, u8 *to,
		      unsigned int len)
{
	while (len) {
		unsigned int n = ktls_rx_rec_span(pos, len);

		memcpy(to, ktls_rx_rec_ptr(rec, pos), n);
		to += n;
		pos += n;
		len -= n;
	}
}

/* Fill @sg with @len bytes of @rec at @pos; returns the entries used. */
unsigned int ktls_rx_rec_sg(struct ktls_rx_rec *rec, struct scatterlist *sg,
			    unsigned int pos, unsigned int len)
{
	unsigned int nr = 0;

	while (len) {
		unsigned int n = ktls_rx_rec_span(pos, len);

		sg_set_page(&sg[nr++], rec->pages[pos >> PAGE_SHIFT], n,
			    offset_in_page(pos));
		pos += n;
		len -= n;
	}
	return nr;
}

/*
 * The alert a record header earned (RFC 8446 5, 5.1, 5.2; RFC 5246 6.2),
 * by the errno upstream's framer gives it, which the stream fails with.
 */
static u8 ktls_rx_frame_alert(const struct ktls_prot *prot, int err)
{
	switch (err) {
	case -EMSGSIZE:
		return KTLS_RX_ALERT_RECORD_OVERFLOW;
	case -EBADMSG:
		/* Shorter than a tag: it cannot authenticate. */
		return KTLS_RX_ALERT_BAD_RECORD_MAC;
	case -EINVAL:
		/* A legacy_record_version other than 0x0303, as OpenSSL says. */
		return prot->version == TLS_1_3_VERSION ?
		       KTLS_RX_ALERT_DECODE_ERROR :
		       KTLS_RX_ALERT_PROTOCOL_VERSION;
	default:
		return KTLS_RX_ALERT_UNEXPECTED;
	}
}

/*
 * The stream cannot be framed any more: report @err once, like TCP errors.
 * On the keys of a kernel handshake no TLS library above us can tell the
 * peer, so the record layer does: the framer may run in softirq, where
 * nothing may be sent, so the work item (or close(), whichever comes
 * first) sends the alert, and only then fails the socket, since TCP sends
 * nothing on a socket with an error.
 */
static void ktls_rx_abort(struct sock *sk, struct ktls_rx *rx, int err)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	rx->stopped = true;
	if (ctx->keys_from_kernel && !rx->closing) {
		rx->alert_due = ktls_rx_frame_alert(&ctx->prot, err);
		rx->alert_err = err;
		sock_hold(sk);
		if (!schedule_work(&rx->alert_work))
			sock_put(sk);
		return;
	}
	WRITE_ONCE(sk->sk_err, -err);
	sk_error_report(sk);
}

/*
 * On the keys of a kernel handshake, only the record types the RFC lets
 * the peer send now: application_data outside in TLS 1.3 (RFC 8446 5:
 * a ChangeCipherSpec after the handshake is an unexpected record);
 * alert, handshake and application_data in TLS 1.2 (RFC 5246 6).  The
 * content type is checked before anything else of the header.
 */
static int ktls_rx_parse_header(const struct ktls_ctx *ctx, const u8 *hdr)
{
	if (ctx->keys_from_kernel) {
		if (ctx->prot.version == TLS_1_3_VERSION ?
		    hdr[0] != KTLS_TYPE_DATA :
		    hdr[0] != KTLS_TYPE_DATA && hdr[0] != KTLS_TYPE_ALERT &&
		    hdr[0] != KTLS_TYPE_HANDSHAKE)
			return -EPROTO;
	}
	return ktls_record_parse_header(&ctx->prot, hdr);
}

struct ktls_rx_frame {
	struct ktls_ctx *ctx;
	struct ktls_rx *rx;
	int err;
};

/* tcp_read_sock() actor: copy into the record being framed, no further. */
static int ktls_rx_frame_actor(read_descriptor_t *desc, struct sk_buff *skb,
			       unsigned int offset, size_t len)
{
	struct ktls_rx_frame *f = desc->arg.data;
	struct ktls_rx_offload *rxo = ktls_rx_offload(f->ctx);
	struct ktls_rx *rx = f->rx;
	size_t done = 0;

	while (done < len && !rx->ready) {
		unsigned int want = (rx->need ?: KTLS_HEADER_LEN) - rx->len;
		unsigned int n = ktls_rx_rec_span(rx->len,
						  min_t(size_t, want, len - done));
		int ret;

		if (skb_copy_bits(skb, offset + done,
				  ktls_rx_rec_ptr(rx->cur, rx->len), n))
			break;
		if (!rx->len)
			rx->seq = TCP_SKB_CB(skb)->seq + offset + done;
		if (rxo)
			ktls_device_rx_mark(rxo, skb, rx->len, n);
		rx->len += n;
		done += n;

		if (!rx->need && rx->len == KTLS_HEADER_LEN) {
			u8 hdr[KTLS_HEADER_LEN];

			ktls_rx_rec_read(rx->cur, 0, hdr, KTLS_HEADER_LEN);
			ret = ktls_rx_parse_header(f->ctx, hdr);
			if (ret < 0) {
				f->err = ret;
				desc->count = 0;
				break;
			}
			rx->need = ret;
			rx->type = hdr[0];
		}
		if (rx->need && rx->len == rx->need) {
			rx->ready = true;
			desc->count = 0;
		}
	}
	return done;
}

/*
 * Walk TCP's receive queue from @off bytes past what was read, calling
 * @fn on each piece, for @len bytes.  The queue is stable: we hold the
 * socket lock, or run in softirq on a socket no user owns.
 */
static int ktls_rx_tcp_walk(struct sock *sk, unsigned int off,
			    unsigned int len,
			    int (*fn)(struct sk_buff *skb, unsigned int off,
				      unsigned int len, void *arg),
			    void *arg)
{
	u32 seq = tcp_sk(sk)->copied_seq + off;
	struct sk_buff *skb;

	skb_queue_walk(&sk->sk_receive_queue, skb) {
		u32 o = seq - TCP_SKB_CB(skb)->seq;
		unsigned int n;
		int err;

		if (!len)
			break;
		if (o >= skb->len)
			continue;
		n = min(len, skb->len - o);
		err = fn(skb, o, n, arg);
		if (err)
			return err;
		seq += n;
		len -= n;
	}
	return len ? -EAGAIN : 0;
}

static int ktls_rx_tcp_copy(struct sk_buff *skb, unsigned int off,
			    unsigned int len, void *arg)
{
	u8 **to = arg;
	int err;

	err = skb_copy_bits(skb, off, *to, len);
	*to += len;
	return err;
}

struct ktls_rx_sgvec {
	struct scatterlist *sg;
	unsigned int nr;
	unsigned int max;
};

/* An upper bound of the entries skb_to_sgvec() needs for @skb. */
static unsigned int ktls_rx_skb_nsg(struct sk_buff *skb, int depth)
{
	unsigned int nr = 1 + skb_shinfo(skb)->nr_frags;
	struct sk_buff *frag;

	skb_walk_frags(skb, frag)
		nr += depth ? ktls_rx_skb_nsg(frag, depth - 1) : KTLS_RX_SKB_SG;
	return nr;
}

static int ktls_rx_tcp_sg(struct sk_buff *skb, unsigned int off,
			  unsigned int len, void *arg)
{
	struct ktls_rx_sgvec *v = arg;
	int nr;

	if (v->nr + ktls_rx_skb_nsg(skb, 2) > v->max)
		return -EMSGSIZE;
	nr = skb_to_sgvec(skb, v->sg + v->nr, off, len);
	if (nr < 0)
		return nr;
	if (nr)
		sg_unmark_end(&v->sg[v->nr + nr - 1]);
	v->nr += nr;
	return 0;
}

struct ktls_rx_to_rec {
	struct ktls_rx_rec *rec;
	unsigned int pos;
};

/* Copy out of TCP's skbs into a record buffer, from its start on. */
static int ktls_rx_tcp_rec(struct sk_buff *skb, unsigned int off,
			   unsigned int len, void *arg)
{
	struct ktls_rx_to_rec *t = arg;

	while (len) {
		unsigned int n = ktls_rx_rec_span(t->pos, len);
		int err;

		err = skb_copy_bits(skb, off, ktls_rx_rec_ptr(t->rec, t->pos), n);
		if (err)
			return err;
		off += n;
		t->pos += n;
		len -= n;
	}
	return 0;
}

/* Count the bytes that came decrypted from the device. */
static int ktls_rx_tcp_dec(struct sk_buff *skb, unsigned int off,
			   unsigned int len, void *arg)
{
	unsigned int *dec = arg;

	/* TCP never merges skbs that differ in this: one flag holds for all. */
	if (ktls_skb_decrypted(skb))
		*dec += len;
	return 0;
}

/*
 * The framed record while it lies in TCP's queue, for the reader: @len
 * bytes from @off into @to, or from its start into @rec, or mapped into
 * @sg after the @nr entries in use (no more than @max in all: returns
 * how many then are, -EMSGSIZE if it is too scattered).
 */
int ktls_rx_tcp_read(struct sock *sk, unsigned int off, u8 *to,
		     unsigned int len)
{
	return ktls_rx_tcp_walk(sk, off, len, ktls_rx_tcp_copy, &to);
}

int ktls_rx_tcp_to_rec(struct sock *sk, struct ktls_rx_rec *rec,
		       unsigned int len)
{
	struct ktls_rx_to_rec t = { .rec = rec };

	return ktls_rx_tcp_walk(sk, 0, len, ktls_rx_tcp_rec, &t);
}

int ktls_rx_tcp_sgvec(struct sock *sk, unsigned int off, unsigned int len,
		      struct scatterlist *sg, unsigned int nr, unsigned int max)
{
	struct ktls_rx_sgvec v = { .sg = sg, .nr = nr, .max = max };
	int err;

	err = ktls_rx_tcp_walk(sk, off, len, ktls_rx_tcp_sg, &v);
	return err ?: v.nr;
}

/* How many of the first @len bytes in TCP's queue the device decrypted. */
unsigned int ktls_rx_tcp_decrypted(struct sock *sk, unsigned int len)
{
	unsigned int dec = 0;

	ktls_rx_tcp_walk(sk, 0, len, ktls_rx_tcp_dec, &dec);
	return dec;
}

/* Parse a record header; a broken stream stops the framer. */
static int ktls_rx_header(struct sock *sk, struct ktls_ctx *ctx,
			  struct ktls_rx *rx, const u8 *hdr)
{
	int need = ktls_rx_parse_header(ctx, hdr);

	if (need < 0)
		ktls_rx_abort(sk, rx, need);
	return need;
}

/*
 * A record is framed: answer the device's resync request if it is about
 * this record.  @next_in: TCP holds bytes past it.
 */
static void ktls_rx_framed(struct sock *sk, struct ktls_ctx *ctx,
			   struct ktls_rx *rx, bool next_in)
{
	struct ktls_rx_offload *rxo = ktls_rx_offload(ctx);
	u32 seq;
	u64 sn;

	if (!rxo)
		return;
	/* After a key update: the device gets the new key from here on. */
	if (rxo->rekey == KTLS_RX_REKEY_EDGE)
		ktls_device_rx_rekey_framed(sk, rxo, rx->seq);
	/*
	 * The driver's async resync state goes with tls_dev_del(), which a
	 * device going down calls a grace period after setting the flag.
	 */
	rcu_read_lock();
	if (!test_bit(TLS_RX_DEV_DEGRADED, &ctx->base.flags) &&
	    ktls_device_rx_framed(rxo, rx->seq, rx->need, next_in, &seq, &sn))
		ktls_device_rx_resync(sk, ctx, seq, sn);
	rcu_read_unlock();
}

/*
 * Get the next record ready: leave it in TCP's queue if TCP can hold all
 * of it, or else (or with @copy) copy it out into rx->cur as it arrives,
 * rx->cur's pages allocated with @gfp first.  Returns -ENOMEM if they
 * could not be, or there is no rx->cur, else 0 (whether or not a record
 * is ready).
 */
int ktls_rx_pull(struct sock *sk, struct ktls_ctx *ctx, struct ktls_rx *rx,
		 bool copy, gfp_t gfp)
{
	struct ktls_rx_frame f = { .ctx = ctx, .rx = rx };
	read_descriptor_t desc = { .arg.data = &f, .count = 1 };

	if (rx->ready || rx->stopped)
		return 0;
	/* No buffer was had for the record after the last one. */
	if (!rx->cur)
		return -ENOMEM;

	if (!rx->len && !copy) {
		int inq = tcp_inq(sk);
		u8 hdr[KTLS_HEADER_LEN];
		int need;

		if (inq >= KTLS_HEADER_LEN &&
		    !ktls_rx_tcp_read(sk, 0, hdr, KTLS_HEADER_LEN)) {
			need = ktls_rx_header(sk, ctx, rx, hdr);
			if (need < 0)
				return 0;
			if (inq >= need) {
				rx->need = need;
				rx->type = hdr[0];
				rx->seq = tcp_sk(sk)->copied_seq;
				rx->in_tcp = true;
				WRITE_ONCE(rx->ready, true);
				ktls_rx_framed(sk, ctx, rx, inq > need);
				return 0;
			}
		}
		/* Without pressure, TCP will take the rest of the record. */
		if (!tcp_epollin_ready(sk, INT_MAX))
			return 0;
	}

	if (!ktls_rx_rec_fill(rx->cur, gfp))
		return -ENOMEM;
	tcp_read_sock(sk, &desc, ktls_rx_frame_actor);
	if (f.err)
		ktls_rx_abort(sk, rx, f.err);
	else if (rx->ready && !copy)
		ktls_rx_framed(sk, ctx, rx, tcp_inq(sk) > 0);
	return 0;
}

/*
 * The framed record, ready in TCP's queue, cannot be used from there
 * after all: copy it out into rx->cur.  All of it is in, so a copying
 * pull gets it ready again at once; -EIO if not (the queue changed under
 * us), -ENOMEM if rx->cur got no pages, leaving the record in TCP.
 */
int ktls_rx_copy_out(struct sock *sk, struct ktls_ctx *ctx,
		     struct ktls_rx *rx)
{
	if (!ktls_rx_rec_fill(rx->cur, GFP_KERNEL))
		return -ENOMEM;
	rx->in_tcp = false;
	rx->need = 0;
	WRITE_ONCE(rx->ready, false);
	ktls_rx_pull(sk, ctx, rx, true, GFP_KERNEL);
	return rx->ready ? 0 : -EIO;
}

/* The framed record is gone (read or moved to the list). */
void ktls_rx_next(struct sock *sk, struct ktls_rx *rx)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	if (ktls_rx_offload(ctx))
		ktls_device_rx_next(ktls_rx_offload(ctx), &ctx->prot, rx->need);
	if (rx->in_tcp)
		tcp_read_done(sk, rx->need);
	rx->in_tcp = false;
	rx->dev_seen = false;
	rx->len = 0;
	rx->need = 0;
	WRITE_ONCE(rx->ready, false);
}

/*
 * The record TCP cannot hold stalls until its pages are had: the window
 * is closed on it, so no more bytes come to call us again.  Nor is any
 * record framed while rx->cur is missing (no buffer could be had when
 * the last one was queued), and a reader that polls would wait for good.
 * Keep trying, @delay after the last try.
 */
void ktls_rx_fill_later(struct sock *sk, struct ktls_rx *rx,
			unsigned long delay)
{
	sock_hold(sk);
	if (!schedule_delayed_work(&rx->fill_work, delay))
		sock_put(sk);
}

static void ktls_rx_fill_work(struct work_struct *work)
{
	struct ktls_rx *rx = container_of(to_delayed_work(work),
					  struct ktls_rx, fill_work);
	struct sock *sk = rx->sk;
	bool was_ready;

	lock_sock(sk);
	was_ready = rx->ready;
	if (rx->closing)
		goto out;
	if (!rx->cur)
		rx->cur = ktls_rx_rec_alloc(rx);
	if (ktls_rx_pull(sk, ktls_ctx(sk), rx, false, GFP_KERNEL)) {
		ktls_rx_fill_later(sk, rx, KTLS_RX_FILL_DELAY);
	} else if (!was_ready && rx->ready) {
		rx->saved_data_ready(sk);
		ktls_rx_check_later(sk, rx);
	}
out:
	release_sock(sk);
	sock_put(sk);
}

void ktls_rx_data_ready(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx->rx;
	bool was_ready = rx->ready;

	/*
	 * Either softirq with the socket not owned, or the owner processing
	 * its backlog: RX state is consistent whenever the lock is let go.
	 * A record TCP cannot hold must be copied out as it comes, or the
	 * window closes on it: if no page could be had here, the work item
	 * gets them and copies on.
	 */
	if (ktls_rx_pull(sk, ctx, rx, false, GFP_ATOMIC | __GFP_NOWARN))
		ktls_rx_fill_later(sk, rx, 0);
	if (!was_ready && rx->ready) {
		rx->saved_data_ready(sk);
		ktls_rx_check_later(sk, rx);
	}
}

u32 ktls_rx_next_seq(struct sock *sk)
{
	struct ktls_rx *rx = ktls_ctx(sk)->rx;

	/* What was copied out of TCP of the next record is past copied_seq. */
	return tcp_sk(sk)->copied_seq - rx->len;
}

/* The framer's part of setting up @rx; rx.c does the rest. */
void ktls_rx_framer_init(struct ktls_rx *rx)
{
	INIT_DELAYED_WORK(&rx->fill_work, ktls_rx_fill_work);
}
