// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software RX path: framing TLS records out of the TCP receive queue,
 * decrypting them and handing the plaintext to recvmsg(), splice() and
 * in-kernel readers.  This file owns struct ktls_rx.
 *
 * The framer leaves records in TCP's receive queue: once a record's
 * header shows that all of it is there, it is ready, and the reader
 * decrypts it straight out of TCP's skbs, into its own buffer when the
 * whole plaintext fits and nothing else needs it, or else into a buffer
 * of pages sized for the largest record, which then joins the list of
 * decrypted records (peeked, partially read, or of another content type)
 * while a spare buffer takes its place.  Only when TCP cannot take the
 * rest of a record (receive buffer or window too small) is the record
 * copied out into that buffer as it arrives, from our sk_data_ready or
 * from the reader.  Either way we stop at one record: until a reader
 * takes it, TCP's window is what holds the peer back.  Buffers are
 * recycled, so the steady state allocates nothing.
 *
 * Everything but the lockless readiness checks runs under the socket lock
 * (or in softirq with the socket not owned by a user), and one reader at a
 * time holds the record stream.
 *
 * Where a NIC decrypts RX (device_rx.c), records arrive in plaintext in
 * skbs marked decrypted: a record wholly so is taken as the device left
 * it, one only partly so is turned back into ciphertext and decrypted
 * here, which needs it copied out of TCP's skbs.  The framer also tells
 * the device where records start when it asks.
 *
 * Records are decrypted one at a time, in order, by a reader in process
 * context.  So on the keys of a kernel handshake, a KeyUpdate is followed
 * right where it is decrypted: the next record, framed or not, is not
 * decrypted yet, and setting the new key may sleep.  One split over
 * records is put together as its fragments are decrypted (rx_hs.c).
 */
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

#include "ktls.h"
#include "device.h"

#define KTLS_RX_PAGES		DIV_ROUND_UP(KTLS_REC_MAX, PAGE_SIZE)
/* Pages of a reader's buffer we decrypt into directly; more and we copy. */
#define KTLS_RX_ZC_PAGES	16
/* Scatterlist entries for a record read out of TCP's skbs; more and we copy. */
#define KTLS_RX_SKB_SG		48
/* Idle buffers kept for the next records; more are freed. */
#define KTLS_RX_SPARES		2
/* How long a record of a kernel handshake's keys may wait unread. */
#define KTLS_RX_CHECK_DELAY	msecs_to_jiffies(200)
/* How long the framer waits for memory before it tries again. */
#define KTLS_RX_FILL_DELAY	msecs_to_jiffies(20)

/* rx->sg_dst also holds a whole record buffer. */
static_assert(KTLS_RX_ZC_PAGES >= KTLS_RX_PAGES);

/* What ktls_rx_decrypt() did with a record, besides failing. */
enum {
	KTLS_RX_QUEUED,		/* decrypted in place, at the end of rx->list */
	KTLS_RX_ZC,		/* decrypted into the reader's buffer */
	KTLS_RX_CONSUMED,	/* a handshake record we took: nothing to read */
};

/**
 * struct ktls_rx_rec - one record: being framed, or decrypted
 * @list:	on ktls_rx.list or ktls_rx.spare
 * @off:	where the plaintext not yet read starts, once decrypted
 * @plain:	plaintext bytes not yet read
 * @type:	content type (the inner one in TLS 1.3)
 * @shared:	a reader kept references to @pages: never reuse them
 * @pages:	KTLS_REC_MAX bytes, allocated when first written: a record
 *		left in TCP's queue and decrypted into the reader's buffer
 *		needs none
 */
struct ktls_rx_rec {
	struct list_head list;
	unsigned int off;
	unsigned int plain;
	u8 type;
	bool shared;
	struct page *pages[KTLS_RX_PAGES];
};

/**
 * struct ktls_rx - RX state of one socket
 * @saved_data_ready: the sk_data_ready we replaced
 * @cur:	the record being framed; NULL only after an allocation failed
 * @len:	bytes of @cur copied from TCP
 * @seq:	TCP sequence number of the first byte of the record
 * @need:	the length of the next record once its header is in, else 0
 * @type:	its outer content type
 * @ready:	the whole record is there, in TCP's queue or in @cur
 * @in_tcp:	it is in TCP's queue
 * @dev_seen:	the device's result for it was taken (a decryption that
 *		ran out of memory is tried again: it must count once)
 * @stopped:	the stream is broken (framing error): nothing more is pulled
 * @key_expired: a KeyUpdate was received, records wait for new keys
 * @reader_present: a reader holds the record stream
 * @closing:	ktls_rx_close() ran: @fill_work must not touch the socket
 * @err:	sticky decryption error
 * @wq:		readers waiting for @reader_present
 * @list:	decrypted records, oldest first
 * @spare:	idle record buffers
 * @nr_spare:	records on @spare
 * @aad:	AAD of the record being decrypted
 * @iv:		its AEAD iv
 * @tail:	where TLS 1.3's inner type lands when decrypting into a reader
 * @sg_rec:	AAD and @cur's pages
 * @sg_skb:	AAD and the record in TCP's skbs
 * @sg_dst:	AAD and the reader's pages, or the pages of the buffer a
 *		record copied out of TCP is decrypted into
 * @zc_pages:	the reader's pages, referenced for the AEAD call
 * @sk:		the socket
 * @fill_work:	gives @cur its pages and frames on, when softirq could not;
 *		tried again a while later if it cannot either
 * @alert_due:	on the keys of a kernel handshake, the fatal alert a
 *		framing error earned, not sent yet (0: none)
 * @alert_err:	the errno the stream fails with once it is sent
 * @alert_work:	sends it from process context, under the socket lock
 * @check_work:	on the keys of a kernel handshake, opens a record left
 *		unread, so that its errors are answered all the same
 * @hs:		on the keys of a kernel TLS 1.3 handshake, the handshake
 *		message whose first fragments came (rx_hs.c); a few bytes
 *		in place, so it goes with the context
 */
struct ktls_rx {
	void (*saved_data_ready)(struct sock *sk);
	struct ktls_rx_rec *cur;
	unsigned int len;
	u32 seq;
	unsigned int need;
	u8 type;
	bool ready;
	bool in_tcp;
	bool dev_seen;
	bool stopped;
	bool key_expired;
	bool reader_present;
	bool closing;
	int err;
	wait_queue_head_t wq;
	struct list_head list;
	struct list_head spare;
	unsigned int nr_spare;

	u8 aad[KTLS_MAX_AAD_LEN];
	u8 iv[KTLS_AEAD_IV_LEN];
	u8 tail;
	struct scatterlist sg_rec[KTLS_RX_PAGES + 2];
	struct scatterlist sg_skb[KTLS_RX_SKB_SG + 1];
	struct scatterlist sg_dst[KTLS_RX_ZC_PAGES + 2];
	struct page *zc_pages[KTLS_RX_ZC_PAGES];
	struct sock *sk;
	struct delayed_work fill_work;
	u8 alert_due;
	int alert_err;
	struct work_struct alert_work;
	struct delayed_work check_work;
	struct ktls_rx_hs hs;
};

static void ktls_rx_rec_free(struct ktls_rx_rec *rec)
{
	unsigned int i;

	for (i = 0; i < KTLS_RX_PAGES; i++)
		if (rec->pages[i])
			put_page(rec->pages[i]);
	kfree(rec);
}

static struct ktls_rx_rec *ktls_rx_rec_alloc(struct ktls_rx *rx)
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
static bool ktls_rx_rec_fill(struct ktls_rx_rec *rec, gfp_t gfp)
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

/* A record was read to its end. */
static void ktls_rx_rec_done(struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	list_del(&rec->list);
	if (rec->shared || rx->nr_spare >= KTLS_RX_SPARES) {
		ktls_rx_rec_free(rec);
		return;
	}
	list_add(&rec->list, &rx->spare);
	rx->nr_spare++;
}

static void *ktls_rx_rec_ptr(struct ktls_rx_rec *rec, unsigned int pos)
{
	return page_address(rec->pages[pos >> PAGE_SHIFT]) + offset_in_page(pos);
}

/* Bytes from @pos to the end of its page. */
static unsigned int ktls_rx_rec_span(unsigned int pos, unsigned int len)
{
	return min_t(unsigned int, len, PAGE_SIZE - offset_in_page(pos));
}

static void ktls_rx_rec_read(struct ktls_rx_rec *rec, unsigned int pos,
			     u8 *to, unsigned int len)
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
static unsigned int ktls_rx_rec_sg(struct ktls_rx_rec *rec,
				   struct scatterlist *sg, unsigned int pos,
				   unsigned int len)
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
	if (skb_is_decrypted(skb))
		*dec += len;
	return 0;
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
static int ktls_rx_pull(struct sock *sk, struct ktls_ctx *ctx,
			struct ktls_rx *rx, bool copy, gfp_t gfp)
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
		u8 hdr[KTLS_HEADER_LEN], *to = hdr;
		int need;

		if (inq >= KTLS_HEADER_LEN &&
		    !ktls_rx_tcp_walk(sk, 0, KTLS_HEADER_LEN, ktls_rx_tcp_copy,
				      &to)) {
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

/* The framed record is gone (read or moved to the list). */
static void ktls_rx_next(struct sock *sk, struct ktls_rx *rx)
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
 * On the keys of a kernel handshake no TLS library above us answers a
 * record's errors, and the application may never read it: a record left
 * unread for KTLS_RX_CHECK_DELAY is opened by a work item, onto rx->list
 * where the next reader finds it (one record ahead at most), so that an
 * error in it gets its alert all the same.  A reader that keeps up never
 * leaves it anything to do.
 */
static void ktls_rx_check_later(struct sock *sk, struct ktls_rx *rx)
{
	if (!ktls_ctx(sk)->keys_from_kernel || rx->closing || rx->stopped)
		return;
	sock_hold(sk);
	if (!schedule_delayed_work(&rx->check_work, KTLS_RX_CHECK_DELAY))
		sock_put(sk);
}

/*
 * The record TCP cannot hold stalls until its pages are had: the window
 * is closed on it, so no more bytes come to call us again.  Nor is any
 * record framed while rx->cur is missing (no buffer could be had when
 * the last one was queued), and a reader that polls would wait for good.
 * Keep trying, @delay after the last try.
 */
static void ktls_rx_fill_later(struct sock *sk, struct ktls_rx *rx,
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

static void ktls_rx_data_ready(struct sock *sk)
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

bool ktls_rx_is_readable(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx = ctx ? ctx->rx : NULL;

	if (!rx)
		return false;
	return !list_empty_careful(&rx->list) ||
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

	for (;;) {
		if (rx->err)
			return rx->err;
		if (rx->key_expired)
			return -EKEYEXPIRED;
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

/* A TLS 1.3 KeyUpdate ends the current keys: nothing more until new ones. */
static void ktls_rx_check_key_update(struct sock *sk, struct ktls_ctx *ctx,
				     struct ktls_rx *rx,
				     struct ktls_rx_rec *rec)
{
	u8 hs_type;

	if (ctx->prot.version != TLS_1_3_VERSION ||
	    rec->type != KTLS_TYPE_HANDSHAKE || !rec->plain)
		return;
	ktls_rx_rec_read(rec, rec->off, &hs_type, 1);
	if (hs_type != KTLS_KEY_UPDATE_TYPE)
		return;
	WRITE_ONCE(rx->key_expired, true);
	ktls_stat_inc(sk, KTLS_STAT_RX_REKEY_RECEIVED);
}

/* The peer broke the protocol: tell it, if we can, and fail the stream. */
static int ktls_rx_fatal(struct sock *sk, struct ktls_rx *rx, int err,
			 u8 alert)
{
	ktls_tx_alert(sk, alert);
	return ktls_rx_fail(sk, rx, err);
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
 * ended the record: the next record is under the peer's next key.  Errors
 * fail the stream with their alert: -EPROTO (unexpected_message) or
 * -EBADMSG (decode_error, illegal_parameter).
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

	ktls_stat_inc(sk, KTLS_STAT_RX_REKEY_RECEIVED);
	err = ktls_keys_next(sk, false);
	if (err) {
		rx->err = err;
		return err;
	}
	/* Our RX key moved on; the device's did not. */
	ktls_device_rx_rekey(sk, ctx);
	/*
	 * Answered before our next record.  However often the peer asks,
	 * one answer is due at most, and only when we send anyway: asking
	 * cannot make us send more than the application does.
	 */
	if (ret == KTLS_RX_HS_UPDATE_REQUESTED)
		WRITE_ONCE(ctx->key_update_due, true);
	return 0;
}

/* A buffer borrowed for a moment goes back to the spares. */
static void ktls_rx_rec_put(struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	if (rx->nr_spare >= KTLS_RX_SPARES) {
		ktls_rx_rec_free(rec);
		return;
	}
	list_add(&rec->list, &rx->spare);
	rx->nr_spare++;
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

	if (rx->in_tcp) {
		dec = 0;
		ktls_rx_tcp_walk(sk, 0, rx->need, ktls_rx_tcp_dec, &dec);
	}
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
		if (!ktls_rx_rec_fill(rx->cur, GFP_KERNEL))
			return -ENOMEM;
		rx->in_tcp = false;
		rx->need = 0;
		WRITE_ONCE(rx->ready, false);
		ktls_rx_pull(sk, ctx, rx, true, GFP_KERNEL);
		if (!rx->ready)
			return -EIO;
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
	ktls_record_advance(prot, &ctx->rx_crypto);
	if (ctx->keys_from_kernel) {
		err = ktls_rx_check_type(sk, rx, rec);
		if (err)
			return err;
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
	ktls_rx_check_key_update(sk, ctx, rx, rec);
	return KTLS_RX_QUEUED;
}

/*
 * Decrypt the framed record.  With @to, the plaintext may go straight
 * there: returns KTLS_RX_ZC then, its length in *@zc_len.  Otherwise the
 * plaintext goes into a record buffer moved to the end of rx->list
 * (KTLS_RX_QUEUED), unless it was a handshake record the keys of a
 * kernel handshake take here (KTLS_RX_CONSUMED).  Or an errno: -ENOMEM leaves
 * the record framed for the next call to decrypt.
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
	struct ktls_rx_rec *rec = rx->cur, *out;
	u8 hdr[KTLS_HEADER_LEN + KTLS_MAX_NONCE_LEN];
	unsigned int cryptlen, inner;
	struct scatterlist *src = NULL;
	int err;

	cryptlen = rx->need - prot->prepend_len;
	inner = cryptlen - prot->tag_len;

	if (rxo) {
		err = ktls_rx_device(sk, ctx, rx, rxo);
		if (err < 0)
			return ktls_rx_crypt_failed(sk, ctx, rx, err);
		if (err) {
			/* The device left the plaintext where it found the ciphertext. */
			if (rx->in_tcp) {
				struct ktls_rx_to_rec t = { .rec = rec };

				if (!ktls_rx_rec_fill(rec, GFP_KERNEL))
					return -ENOMEM;
				err = ktls_rx_tcp_walk(sk, 0, rx->need - prot->tag_len,
						       ktls_rx_tcp_rec, &t);
				if (err)
					return ktls_rx_bad(sk, rx, -EIO);
			}
			ktls_rx_rec_read(rec, 0, hdr, prot->prepend_len);
			out = rec;
			goto plain;
		}
	}

	if (!rx->in_tcp)
		src = ktls_rx_rec_sgl(rx, rx->sg_rec, rec, prot, cryptlen);
	if (rx->in_tcp) {
		struct ktls_rx_sgvec v = {
			.sg = rx->sg_skb, .nr = 1, .max = KTLS_RX_SKB_SG + 1,
		};
		u8 *to_hdr = hdr;

		sg_init_table(rx->sg_skb, KTLS_RX_SKB_SG + 1);
		sg_set_buf(&rx->sg_skb[0], rx->aad, prot->aad_len);
		err = ktls_rx_tcp_walk(sk, 0, prot->prepend_len,
				       ktls_rx_tcp_copy, &to_hdr);
		if (!err)
			err = ktls_rx_tcp_walk(sk, prot->prepend_len, cryptlen,
					       ktls_rx_tcp_sg, &v);
		if (!err) {
			sg_mark_end(&rx->sg_skb[v.nr - 1]);
			src = rx->sg_skb;
		} else {
			/* Too scattered: copy it out after all. */
			if (!ktls_rx_rec_fill(rec, GFP_KERNEL))
				return -ENOMEM;
			rx->in_tcp = false;
			rx->need = 0;
			WRITE_ONCE(rx->ready, false);
			ktls_rx_pull(sk, ctx, rx, true, GFP_KERNEL);
			if (!rx->ready)
				return ktls_rx_bad(sk, rx, -EIO);
			src = ktls_rx_rec_sgl(rx, rx->sg_rec, rec, prot, cryptlen);
		}
	}
	if (!rx->in_tcp)
		ktls_rx_rec_read(rec, 0, hdr, prot->prepend_len);

	ktls_record_iv(rx->iv, prot, c, hdr + KTLS_HEADER_LEN);
	ktls_record_aad(rx->aad, prot, c->seq, hdr[0], inner);

	/* Data between handshake fragments must reach no reader. */
	if (to && inner >= prot->tail_len && !ktls_rx_hs_pending(&rx->hs)) {
		err = ktls_rx_decrypt_zc(sk, ctx, rx, src, to, cryptlen);
		if (err >= 0) {
			*zc_len = err;
			ktls_record_advance(prot, c);
			ktls_rx_next(sk, rx);
			return KTLS_RX_ZC;
		}
		if (err != -EAGAIN)
			return ktls_rx_crypt_failed(sk, ctx, rx, err);
	}

	/* TCP's records never needed rx->cur's pages: it takes the plaintext. */
	out = rx->in_tcp ? rec : ktls_rx_rec_alloc(rx);
	if (!out)
		return -ENOMEM;
	if (!ktls_rx_rec_fill(out, GFP_KERNEL)) {
		err = -ENOMEM;
		goto put;
	}
	err = ktls_aead_crypt(c, prot, false, src,
			      ktls_rx_rec_sgl(rx, rx->sg_dst, out, prot, cryptlen),
			      cryptlen, rx->iv);
	if (err) {
		err = ktls_rx_crypt_failed(sk, ctx, rx, err);
		goto put;
	}

plain:
	err = ktls_rx_opened(sk, ctx, rx, out, hdr[0], inner);
	if (err < 0 || err == KTLS_RX_CONSUMED)
		goto put;
	/* The record buffer went to rx->list: the next record needs one. */
	if (out == rec)
		rx->cur = ktls_rx_rec_alloc(rx);
	ktls_rx_next(sk, rx);
	return err;

put:
	if (out != rec)
		ktls_rx_rec_put(rx, out);
	if (err == KTLS_RX_CONSUMED)
		ktls_rx_next(sk, rx);
	return err;
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

			*control = rec->type;
			err = put_cmsg(msg, SOL_TLS, TLS_GET_RECORD_TYPE,
				       sizeof(*control), control);
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
		if (!(flags & MSG_PEEK)) {
			rec->off += got;
			rec->plain -= got;
			if (!rec->plain) {
				ktls_rx_rec_done(rx, rec);
				msg->msg_flags |= MSG_EOR;
			}
		}
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

int ktls_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags,
		 int *addr_len)
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
			if (!control) {
				control = KTLS_TYPE_DATA;
				put_cmsg(msg, SOL_TLS, TLS_GET_RECORD_TYPE,
					 sizeof(control), &control);
			}
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
	if (ret > 0) {
		rec->off += ret;
		rec->plain -= ret;
		if (!rec->plain)
			ktls_rx_rec_done(rx, rec);
	}
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
		rec->off += used;
		rec->plain -= used;
		if (!rec->plain)
			ktls_rx_rec_done(rx, rec);
	}

	ktls_rx_reader_release(rx);
	return copied ?: err;
}

int ktls_rx_init(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx *rx;

	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return -ENOMEM;
	INIT_LIST_HEAD(&rx->list);
	INIT_LIST_HEAD(&rx->spare);
	init_waitqueue_head(&rx->wq);
	rx->sk = sk;
	INIT_DELAYED_WORK(&rx->fill_work, ktls_rx_fill_work);
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
