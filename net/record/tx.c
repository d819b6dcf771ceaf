// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software TX path: turning what the application sends into TLS
 * records and handing them to TCP.  This file owns struct ktls_tx: the
 * open record (plaintext gathered until it is full, or the sender stops
 * saying MSG_MORE), and the short queue of sealed records whose ciphertext
 * TCP has not taken yet.
 *
 * Plaintext is either copied into pages the socket keeps (allocated as
 * its sends first need them), or, for sendfile() and splice()
 * (MSG_SPLICE_PAGES), referenced in the caller's pages.  Ciphertext
 * always goes into separate page frags, so a page-cache page is only ever
 * read.  Sealed records are given to TCP by reference (MSG_SPLICE_PAGES),
 * never copied again.
 *
 * Every entry point runs under the socket lock, and the state is
 * consistent whenever the lock is dropped: we never let TCP sleep with a
 * record half handed over (all pushes are MSG_DONTWAIT) and wait for send
 * buffer space ourselves, between records.  So the key setting, close and
 * the write_space work can act at any time; senders are also serialized
 * among themselves, which keeps each sendmsg() in one piece and spares
 * a crowd of them waking up for every ACK.
 *
 * On the keys of a kernel handshake, key_update.c has our TLS 1.3
 * KeyUpdate sealed here (ktls_tx_handshake()) and switches to the next
 * key right behind it; a sender asks it before each record whether the
 * peer is owed one.
 */
#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <ktls_hs/compat_net.h>

#include "ktls.h"
#include "../offload/device.h"
#include "key_update.h"

#define KTLS_TX_PAGES		DIV_ROUND_UP(KTLS_MAX_PLAINTEXT, PAGE_SIZE)
/* Fragments of one record's plaintext: the record closes when they run out. */
#define KTLS_TX_FRAGS		32
/*
 * Fragments of one record's ciphertext: the first comes from whatever is
 * left of the socket's page frag (at least 32 bytes), the rest from fresh
 * frags, which are order-0 pages in the worst case.
 */
#define KTLS_TX_ENC_FRAGS	(3 + DIV_ROUND_UP(KTLS_MAX_PLAINTEXT + 256, PAGE_SIZE))
/*
 * A device-form record that borrows spliced pages (TLS_TX_ZEROCOPY_RO):
 * one fragment for header and nonce, the plaintext's, and at most two for
 * the inner type and the tag's room.
 */
#define KTLS_TX_BORROW_FRAGS	(KTLS_TX_ENC_FRAGS - 3)
/*
 * Sealed records waiting for TCP.  sendmsg() leaves at most two behind;
 * the third slot lets a rekey seal the open record with the old keys
 * without waiting for the peer to read.
 */
#define KTLS_TX_QUEUE		3
/* Where a record's ciphertext starts in its page: see ktls_tx_add_enc(). */
#define KTLS_TX_ALIGN		64
/* How long queued records wait when TCP had no memory for them. */
#define KTLS_TX_RETRY_DELAY	msecs_to_jiffies(20)

/* A record in device form is tracked in the kernel's struct tls_record_info. */
static_assert(KTLS_TX_ENC_FRAGS <= MAX_SKB_FRAGS);

/**
 * struct ktls_tx_rec - a sealed record, or what TCP has not taken of it
 * @frags:	the ciphertext, header included; each holds a page reference
 * @nr:		fragments in use
 * @next:	first fragment TCP has not fully taken
 * @left:	bytes TCP has not taken
 * @device:	in device form, for the device to encrypt
 */
struct ktls_tx_rec {
	struct bio_vec frags[KTLS_TX_ENC_FRAGS];
	unsigned int nr;
	unsigned int next;
	size_t left;
	bool device;
};

/**
 * struct ktls_tx - TX state of one socket
 * @sk:		the socket
 * @saved_write_space: the sk_write_space we replaced
 * @send_lock:	serializes the senders: sendmsg(), splice_eof(), shutdown
 *		and our KeyUpdate (ktls_tx_lock()), outside the socket lock
 * @work:	pushes queued records once TCP has room again, or a while
 *		after TCP had room but no memory
 * @waiting:	a sender waits for send buffer space and will push itself
 * @closing:	ktls_tx_close() ran: the work must not touch the socket
 * @in_push:	we are inside tcp_sendmsg_locked(), whose write_space calls
 *		must not schedule the work
 * @pushed_device: the last record TCP took was in device form
 * @alert_sent:	an alert of ours went out, or the peer's error alert came:
 *		no close_notify may follow
 * @pages:	our copy of the open record's plaintext, when copied; each
 *		page allocated when a copy first reaches it, kept after
 * @plain:	the open record's plaintext, each fragment holding a reference
 * @nr_plain:	fragments in @plain
 * @plain_len:	bytes in @plain
 * @copy_len:	bytes of @pages in use
 * @splice_len:	bytes of @plain that are the caller's spliced pages
 * @type:	content type of the open record
 * @queue:	sealed records, oldest at @head
 * @head:	oldest record of @queue
 * @count:	records in @queue
 * @aad:	AAD of the record being sealed
 * @tail:	its TLS 1.3 inner content type
 * @iv:		its AEAD iv
 * @sg_src:	AAD, plaintext and inner type
 * @sg_dst:	AAD, then ciphertext and tag
 */
struct ktls_tx {
	struct sock *sk;
	void (*saved_write_space)(struct sock *sk);
	struct mutex send_lock;	/* serializes senders, outside the socket lock */
	struct delayed_work work;
	bool waiting;
	bool closing;
	bool in_push;
	bool pushed_device;
	bool alert_sent;

	struct page *pages[KTLS_TX_PAGES];
	struct bio_vec plain[KTLS_TX_FRAGS];
	unsigned int nr_plain;
	unsigned int plain_len;
	unsigned int copy_len;
	unsigned int splice_len;
	u8 type;

	struct ktls_tx_rec queue[KTLS_TX_QUEUE];
	unsigned int head;
	unsigned int count;

	u8 aad[KTLS_MAX_AAD_LEN];
	u8 tail;
	u8 iv[KTLS_AEAD_IV_LEN];
	struct scatterlist sg_src[KTLS_TX_FRAGS + 2];
	struct scatterlist sg_dst[KTLS_TX_ENC_FRAGS + 1];
};

static void ktls_tx_drop_plain(struct ktls_tx *tx)
{
	unsigned int i;

	for (i = 0; i < tx->nr_plain; i++)
		put_page(tx->plain[i].bv_page);
	tx->nr_plain = 0;
	tx->plain_len = 0;
	tx->copy_len = 0;
	tx->splice_len = 0;
	tx->type = KTLS_TYPE_DATA;
}

/*
 * Give back the last @n bytes of the open record, which one call just
 * took (@spliced: by reference, else copied), as if it never had.
 */
static void ktls_tx_trim(struct ktls_tx *tx, unsigned int n, bool spliced)
{
	unsigned int keep = tx->plain_len - n, at = 0, i, nr = 0;

	for (i = 0; i < tx->nr_plain; i++) {
		struct bio_vec *bv = &tx->plain[i];

		if (at >= keep) {
			put_page(bv->bv_page);
			continue;
		}
		/* A fragment begun before keeps its reference. */
		bv->bv_len = min(bv->bv_len, keep - at);
		at += bv->bv_len;
		nr = i + 1;
	}
	tx->nr_plain = nr;
	tx->plain_len = keep;
	if (spliced)
		tx->splice_len -= n;
	else
		tx->copy_len -= n;
}

static void ktls_tx_rec_release(struct ktls_tx_rec *rec)
{
	unsigned int i;

	for (i = 0; i < rec->nr; i++)
		put_page(rec->frags[i].bv_page);
	rec->nr = 0;
	rec->next = 0;
	rec->left = 0;
}

/*
 * The cap is read at each use: it only changes under the socket lock
 * with no record open (ktls_tx_record_open()), so a record never holds
 * more than the cap it was filled under.
 */
static bool ktls_tx_open_full(const struct ktls_tx *tx)
{
	return tx->plain_len >= ktls_tx_max_plain(ktls_ctx(tx->sk)) ||
	       tx->nr_plain >= KTLS_TX_FRAGS;
}

/* Append @len bytes at @off of @page to the open record, taking a reference. */
static void ktls_tx_add_frag(struct ktls_tx *tx, struct page *page,
			     unsigned int off, unsigned int len)
{
	struct bio_vec *last = tx->nr_plain ? &tx->plain[tx->nr_plain - 1] : NULL;

	tx->plain_len += len;
	if (last && last->bv_page == page &&
	    last->bv_offset + last->bv_len == off) {
		last->bv_len += len;
		return;
	}
	get_page(page);
	bvec_set_page(&tx->plain[tx->nr_plain++], page, len, off);
}

/* Copy up to @want bytes from @from into the open record. */
static int ktls_tx_copy(struct ktls_tx *tx, struct iov_iter *from,
			size_t want)
{
	size_t done = 0;

	while (done < want && !ktls_tx_open_full(tx)) {
		unsigned int off = offset_in_page(tx->copy_len);
		struct page **slot = &tx->pages[tx->copy_len >> PAGE_SHIFT];
		size_t n = min_t(size_t, want - done, PAGE_SIZE - off);
		size_t got;

		/*
		 * A socket that only sends a little never gets all of them.
		 * Without one, nothing of this round is taken: a round that
		 * does not fill the record leaves it open for the next call,
		 * which a sender told "sent" need not make.
		 */
		if (!*slot) {
			*slot = alloc_page(GFP_KERNEL);
			if (!*slot) {
				ktls_tx_trim(tx, done, false);
				iov_iter_revert(from, done);
				return -ENOMEM;
			}
		}
		got = copy_page_from_iter(*slot, off, n, from);
		if (got) {
			ktls_tx_add_frag(tx, *slot, off, got);
			tx->copy_len += got;
			done += got;
		}
		if (got < n)
			return done ? done : -EFAULT;
	}
	return done;
}

/* Reference up to @want bytes of the caller's pages (MSG_SPLICE_PAGES). */
static int ktls_tx_splice(struct ktls_tx *tx, struct iov_iter *from,
			  size_t want)
{
	size_t done = 0;

	while (done < want && !ktls_tx_open_full(tx)) {
		struct page *page, **pages = &page;
		ssize_t part;
		size_t off;

		part = ktls_iov_iter_extract_pages(from, &pages, want - done,
						   1, &off);
		if (part <= 0)
			return done ? done : (part ?: -EIO);
		if (WARN_ON_ONCE(!sendpage_ok(page))) {
			iov_iter_revert(from, part);
			return done ? done : -EIO;
		}
		ktls_tx_add_frag(tx, page, off, part);
		tx->splice_len += part;
		done += part;
	}
	return done;
}

/*
 * Reference up to @want bytes of the sender's own memory, for a record
 * sealed before sendmsg() returns: encryption reads the plaintext right
 * where the application wrote it, saving a copy.
 */
static int ktls_tx_pin(struct ktls_tx *tx, struct iov_iter *from,
		       size_t want)
{
	struct page *pages[8];
	size_t done = 0;

	while (done < want && !ktls_tx_open_full(tx)) {
		unsigned int max = min_t(unsigned int, ARRAY_SIZE(pages),
					 KTLS_TX_FRAGS - tx->nr_plain);
		unsigned int i = 0;
		size_t off;
		ssize_t got;

		got = iov_iter_get_pages2(from, pages, want - done, max, &off);
		if (got <= 0)
			return done ? done : (got ?: -EFAULT);
		done += got;
		while (got > 0) {
			unsigned int n = min_t(size_t, got, PAGE_SIZE - off);

			ktls_tx_add_frag(tx, pages[i], off, n);
			put_page(pages[i++]);
			got -= n;
			off = 0;
		}
	}
	return done;
}

/*
 * Take @len bytes of ciphertext room from the socket's page frag into
 * @rec.  The first fragment is at least 32 bytes (sk_page_frag_refill()
 * guarantees that much), so the header and explicit nonce fit in it.
 *
 * With @prepend (the header and nonce's length) the first fragment starts
 * up to KTLS_TX_ALIGN - 1 bytes further on, so that what follows the
 * header is aligned: the cipher's walk over the destination then meets
 * each page end on a whole block (a ChaCha20 block is 64 bytes) and never
 * has to bounce a block that straddles two pages through a buffer of
 * its own.  The source is the sender's, as it comes.  Only records that
 * cross pages anyway are worth it: the gap also keeps TCP from merging
 * the record's first fragment with the previous one, which for small
 * records costs more skb fragments than the walk saves.
 */
static int ktls_tx_add_enc(struct sock *sk, struct ktls_tx_rec *rec,
			   size_t len, unsigned int prepend)
{
	struct page_frag *pfrag = sk_page_frag(sk);

	while (len) {
		unsigned int n;

		if (rec->nr == KTLS_TX_ENC_FRAGS ||
		    !sk_page_frag_refill(sk, pfrag)) {
			ktls_tx_rec_release(rec);
			return -ENOMEM;
		}
		if (!rec->nr && prepend) {
			unsigned int start = ALIGN(pfrag->offset + prepend,
						   KTLS_TX_ALIGN) - prepend;

			if (start + KTLS_TX_ALIGN <= pfrag->size)
				pfrag->offset = start;
		}
		n = min_t(size_t, len, pfrag->size - pfrag->offset);
		get_page(pfrag->page);
		bvec_set_page(&rec->frags[rec->nr++], pfrag->page, n,
			      pfrag->offset);
		pfrag->offset += n;
		len -= n;
	}
	return 0;
}

static int ktls_tx_alloc_enc(struct sock *sk, struct ktls_tx_rec *rec,
			     size_t len, unsigned int prepend)
{
	rec->nr = 0;
	return ktls_tx_add_enc(sk, rec, len, prepend);
}

/*
 * TLS_TX_ZEROCOPY_RO: the application promised not to change what it
 * splices while TCP may still send it, so a device-form record of spliced
 * pages only needs no copy of its own; it is the pages themselves
 * between a fragment for the header and nonce and one for the inner type
 * and the tag's room.
 */
static bool ktls_tx_may_borrow(const struct ktls_ctx *ctx,
			       const struct ktls_tx *tx)
{
	return ctx->zerocopy_sendfile && tx->plain_len &&
	       tx->splice_len == tx->plain_len &&
	       tx->nr_plain <= KTLS_TX_BORROW_FRAGS;
}

static int ktls_tx_borrow(struct sock *sk, struct ktls_tx *tx,
			  struct ktls_tx_rec *rec, const struct ktls_prot *prot)
{
	unsigned int i, trailer;
	int err;

	/* At least 32 bytes: header and nonce take one fragment. */
	err = ktls_tx_alloc_enc(sk, rec, prot->prepend_len, 0);
	if (err)
		return err;
	for (i = 0; i < tx->nr_plain; i++) {
		get_page(tx->plain[i].bv_page);
		rec->frags[rec->nr++] = tx->plain[i];
	}
	trailer = rec->nr;
	err = ktls_tx_add_enc(sk, rec, prot->tail_len + prot->tag_len, 0);
	if (err) {
		ktls_tx_rec_release(rec);
		return err;
	}
	for (i = trailer; i < rec->nr; i++)
		memzero_page(rec->frags[i].bv_page, rec->frags[i].bv_offset,
			     rec->frags[i].bv_len);
	/* The TLS 1.3 inner type opens the trailer. */
	if (prot->tail_len)
		memcpy_to_page(rec->frags[trailer].bv_page,
			       rec->frags[trailer].bv_offset, &tx->type, 1);
	return 0;
}

/*
 * Device form of the open record (TX offload): the plaintext and the
 * TLS 1.3 inner type where the ciphertext goes, zeros where the tag goes,
 * for the device to encrypt on its way out.  The plaintext is copied,
 * from spliced pages too (but see ktls_tx_borrow()): the record must not
 * change while it may be retransmitted, since the device and the software
 * fallback both read it again then.
 */
static void ktls_tx_frame(struct ktls_tx *tx, struct ktls_tx_rec *rec,
			  const struct ktls_prot *prot)
{
	unsigned int f = 0, off = prot->prepend_len, i;

	/* Skip the fragments the header and nonce filled. */
	while (off >= rec->frags[f].bv_len)
		off -= rec->frags[f++].bv_len;

	for (i = 0; i <= tx->nr_plain; i++) {
		const struct bio_vec *src = &tx->plain[i];
		unsigned int done = 0, len = i < tx->nr_plain ? src->bv_len :
					     prot->tail_len + prot->tag_len;

		while (done < len) {
			struct bio_vec *dst = &rec->frags[f];
			unsigned int n = min(len - done, dst->bv_len - off);

			if (i < tx->nr_plain)
				memcpy_page(dst->bv_page, dst->bv_offset + off,
					    src->bv_page, src->bv_offset + done,
					    n);
			else
				memzero_page(dst->bv_page, dst->bv_offset + off,
					     n);
			done += n;
			off += n;
			if (off == dst->bv_len) {
				f++;
				off = 0;
			}
		}
	}
	if (prot->tail_len) {
		/* The inner type is the first byte after the plaintext. */
		unsigned int pos = prot->prepend_len + tx->plain_len;

		for (f = 0; pos >= rec->frags[f].bv_len; f++)
			pos -= rec->frags[f].bv_len;
		memcpy_to_page(rec->frags[f].bv_page,
			       rec->frags[f].bv_offset + pos, &tx->type, 1);
	}
}

/* TCP's sequence number of the first byte of the record at queue slot @n. */
static u32 ktls_tx_seq_of(struct sock *sk, const struct ktls_tx *tx,
			  unsigned int n)
{
	u32 seq = tcp_sk(sk)->write_seq;
	unsigned int i;

	for (i = 0; i < n; i++)
		seq += tx->queue[(tx->head + i) % KTLS_TX_QUEUE].left;
	return seq;
}

/*
 * Seal the open record into the next free slot of the queue: header and
 * nonce written in clear, plaintext (and the TLS 1.3 inner type)
 * encrypted behind them.  The caller makes sure a slot is free.
 */
/*
 * The last sequence number is never used: no record could follow it
 * (ktls_record_advance()), and upstream fails the socket with EBADMSG as
 * it seals that record, so TCP never sends it.  Every write from here on
 * gets EBADMSG; a TLS 1.3 sender rekeys long before (RFC 8446 5.5).
 */
static int ktls_tx_seq_spent(struct sock *sk)
{
	WRITE_ONCE(sk->sk_err, EBADMSG);
	sk_error_report(sk);
	return -EBADMSG;
}

static int ktls_tx_seal(struct sock *sk, struct ktls_ctx *ctx,
			struct ktls_tx *tx)
{
	const struct ktls_prot *prot = &ctx->prot;
	struct ktls_crypto *c = &ctx->tx_crypto;
	struct ktls_tx_rec *rec;
	unsigned int inner, body, i, n;
	u8 hdr[KTLS_HEADER_LEN + KTLS_MAX_NONCE_LEN];
	struct scatterlist *sg;
	bool tls13 = prot->version == TLS_1_3_VERSION;
	bool borrow;
	int err;

	/* The record's sequence number is the socket's, taken under its lock. */
	sock_owned_by_me(sk);
	if (WARN_ON_ONCE(tx->count == KTLS_TX_QUEUE))
		return -ENOSPC;
	if (unlikely(c->seq == U64_MAX))
		return ktls_tx_seq_spent(sk);
	rec = &tx->queue[(tx->head + tx->count) % KTLS_TX_QUEUE];

	inner = tx->plain_len + prot->tail_len;
	body = prot->nonce_len + inner + prot->tag_len;

	/* The device got the keys off the syscall path: it takes over here. */
	if (ctx->tx_conf == KTLS_CONF_SW) {
		u8 dev = READ_ONCE(ctx->tx_offload.state);

		if (dev == KTLS_TX_DEV_READY)
			ktls_device_tx_switch(sk, ctx,
					      ktls_tx_seq_of(sk, tx, tx->count));
		else if (dev == KTLS_TX_DEV_DRAIN)
			ktls_device_tx_drained(sk, ctx,
					       ktls_tx_seq_of(sk, tx, tx->count));
	}
	rec->device = ctx->tx_conf == KTLS_CONF_HW;
	borrow = rec->device && ktls_tx_may_borrow(ctx, tx);
	if (borrow)
		err = ktls_tx_borrow(sk, tx, rec, prot);
	else
		err = ktls_tx_alloc_enc(sk, rec, KTLS_HEADER_LEN + body,
					!rec->device && body >= PAGE_SIZE ?
					prot->prepend_len : 0);
	if (err)
		return err;

	ktls_record_header(hdr, tls13 ? KTLS_TYPE_DATA : tx->type, body);
	memcpy(hdr + KTLS_HEADER_LEN, c->iv + prot->cipher->salt_len,
	       prot->nonce_len);
	memcpy_to_page(rec->frags[0].bv_page, rec->frags[0].bv_offset, hdr,
		       prot->prepend_len);

	if (rec->device) {
		/* Borrowed pages are in place already. */
		if (!borrow)
			ktls_tx_frame(tx, rec, prot);
		err = ktls_device_record_add(sk, ctx, rec->frags, rec->nr,
					     KTLS_HEADER_LEN + body,
					     ktls_tx_seq_of(sk, tx, tx->count));
		if (err) {
			ktls_tx_rec_release(rec);
			return err;
		}
		goto sealed;
	}

	ktls_record_iv(tx->iv, prot, c, c->iv + prot->cipher->salt_len);
	ktls_record_aad(tx->aad, prot, c->seq, tx->type, inner);
	tx->tail = tx->type;

	sg = tx->sg_src;
	sg_init_table(sg, tx->nr_plain + 1 + prot->tail_len);
	sg_set_buf(sg++, tx->aad, prot->aad_len);
	for (i = 0; i < tx->nr_plain; i++)
		sg_set_page(sg++, tx->plain[i].bv_page, tx->plain[i].bv_len,
			    tx->plain[i].bv_offset);
	if (prot->tail_len)
		sg_set_buf(sg, &tx->tail, 1);

	/* The ciphertext (and tag) lands right after the header and nonce. */
	sg = tx->sg_dst;
	n = rec->frags[0].bv_len > prot->prepend_len;
	sg_init_table(sg, 1 + rec->nr - 1 + n);
	sg_set_buf(sg++, tx->aad, prot->aad_len);
	if (n)
		sg_set_page(sg++, rec->frags[0].bv_page,
			    rec->frags[0].bv_len - prot->prepend_len,
			    rec->frags[0].bv_offset + prot->prepend_len);
	for (i = 1; i < rec->nr; i++)
		sg_set_page(sg++, rec->frags[i].bv_page, rec->frags[i].bv_len,
			    rec->frags[i].bv_offset);

	err = ktls_aead_crypt(c, prot, true, tx->sg_src, tx->sg_dst, inner,
			      tx->iv);
	if (err) {
		ktls_tx_rec_release(rec);
		return err;
	}

sealed:
	/* Cannot wrap: the last number is refused above. */
	ktls_record_advance(prot, c);
	rec->next = 0;
	rec->left = KTLS_HEADER_LEN + body;
	WRITE_ONCE(tx->count, tx->count + 1);
	ktls_tx_drop_plain(tx);
	return 0;
}

/* TCP took @n bytes of @rec. */
static void ktls_tx_rec_consume(struct ktls_tx_rec *rec, size_t n)
{
	rec->left -= n;
	while (n) {
		struct bio_vec *bv = &rec->frags[rec->next];
		unsigned int step = min_t(size_t, n, bv->bv_len);

		bv->bv_offset += step;
		bv->bv_len -= step;
		n -= step;
		if (!bv->bv_len)
			rec->next++;
	}
}

static void ktls_tx_push_later(struct sock *sk, struct ktls_tx *tx,
			       unsigned long delay)
{
	if (READ_ONCE(tx->closing))
		return;
	sock_hold(sk);
	if (!schedule_delayed_work(&tx->work, delay))
		sock_put(sk);
}

/*
 * Hand the queued records to TCP, without ever sleeping in TCP.  Returns
 * 0 once the queue is empty, -EAGAIN if TCP has no room, or TCP's error.
 * @more: the caller has more records to send right after these.
 */
static int ktls_tx_push(struct sock *sk, struct ktls_tx *tx, bool more)
{
	sock_owned_by_me(sk);
	while (tx->count) {
		struct ktls_tx_rec *rec = &tx->queue[tx->head];
		int flags = MSG_DONTWAIT | MSG_NOSIGNAL |
			    (rec->device ? MSG_SENDPAGE_DECRYPTED : 0);
		int ret;

		/*
		 * TCP appends to its last skb without looking at the mark:
		 * device-form bytes and ciphertext must never share one.
		 */
		if (rec->device != tx->pushed_device) {
			ktls_tcp_collapse_fence(sk);
			tx->pushed_device = rec->device;
		}

		if (more || tx->count > 1)
			flags |= MSG_MORE;

		tx->in_push = true;
		ret = ktls_tcp_send_pages(sk, rec->frags + rec->next,
					  rec->nr - rec->next, rec->left, flags);
		tx->in_push = false;
		if (ret <= 0) {
			/*
			 * Room but no skb: TCP ran out of memory, and with
			 * nothing in flight no ACK calls write_space.  The
			 * records were reported sent: try again soon.
			 */
			if (ret == -EAGAIN && sk_stream_memory_free(sk))
				ktls_tx_push_later(sk, tx, KTLS_TX_RETRY_DELAY);
			return ret ?: -EAGAIN;
		}

		ktls_tx_rec_consume(rec, ret);
		if (rec->left)
			continue;
		ktls_tx_rec_release(rec);
		tx->head = (tx->head + 1) % KTLS_TX_QUEUE;
		WRITE_ONCE(tx->count, tx->count - 1);
	}
	return 0;
}

static int ktls_tx_wait(struct sock *sk, struct ktls_tx *tx, long *timeo)
{
	int err;

	/* sk_stream_wait_memory() lets go of the socket lock as it sleeps. */
	sock_owned_by_me(sk);
	WRITE_ONCE(tx->waiting, true);
	err = sk_stream_wait_memory(sk, timeo);
	WRITE_ONCE(tx->waiting, false);
	return err;
}

/*
 * Wait for TCP to take queued records until at most @keep are left.
 * Returns 0, or an errno (-EAGAIN once *@timeo is spent).
 */
static int ktls_tx_drain(struct sock *sk, struct ktls_tx *tx,
			 unsigned int keep, long *timeo, bool more)
{
	int err;

	for (;;) {
		err = ktls_tx_push(sk, tx, more);
		if (tx->count <= keep)
			return 0;
		if (err != -EAGAIN)
			return err;
		err = ktls_tx_wait(sk, tx, timeo);
		if (err)
			return err;
	}
}

/* Seal the open record, if it holds anything, and push what TCP takes. */
static int ktls_tx_close_open(struct sock *sk, struct ktls_ctx *ctx,
			      struct ktls_tx *tx, long *timeo, bool more)
{
	int err;

	if (!tx->plain_len)
		return ktls_tx_push(sk, tx, more);

	err = ktls_tx_drain(sk, tx, KTLS_TX_QUEUE - 1, timeo, more);
	if (err)
		return err;
	err = ktls_tx_seal(sk, ctx, tx);
	if (err)
		return err;
	return ktls_tx_push(sk, tx, more);
}

/*
 * A record of another type than the open one: SOL_TLS/TLS_SET_RECORD_TYPE
 * in a sendmsg() without MSG_MORE.  The open record goes out first.
 */
static int ktls_tx_cmsg(struct sock *sk, struct ktls_ctx *ctx,
			struct msghdr *msg, u8 *type, long *timeo)
{
	struct cmsghdr *cmsg;
	bool found = false;
	int err;

	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_TLS)
			continue;
		if (cmsg->cmsg_type != TLS_SET_RECORD_TYPE ||
		    cmsg->cmsg_len < CMSG_LEN(sizeof(u8)) ||
		    msg->msg_flags & MSG_MORE)
			return -EINVAL;
		*type = *(u8 *)CMSG_DATA(cmsg);
		found = true;
	}
	if (!found)
		return -EINVAL;

	err = ktls_tx_close_open(sk, ctx, ctx->tx, timeo, true);
	return err == -EAGAIN ? 0 : err;
}

/*
 * One record of @type holding @data, behind whatever is open or queued.
 * Returns 0 once it is sealed (TCP may take it later), or an errno with
 * nothing of it sealed; -EAGAIN once *@timeo is spent.
 */
static int ktls_tx_control(struct sock *sk, struct ktls_ctx *ctx,
			   struct ktls_tx *tx, u8 type, const void *data,
			   size_t len, long *timeo)
{
	struct kvec kv = { .iov_base = (void *)data, .iov_len = len };
	struct iov_iter from;
	int err;

	err = ktls_tx_close_open(sk, ctx, tx, timeo, true);
	if (err && err != -EAGAIN)
		return err;
	err = ktls_tx_drain(sk, tx, KTLS_TX_QUEUE - 1, timeo, true);
	if (err)
		return err;

	iov_iter_kvec(&from, ITER_SOURCE, &kv, 1, len);
	tx->type = type;
	err = ktls_tx_copy(tx, &from, len);
	if (err == (int)len)
		err = ktls_tx_seal(sk, ctx, tx);
	else if (err >= 0)
		err = -EFAULT;
	if (err) {
		ktls_tx_drop_plain(tx);
		return err;
	}
	err = ktls_tx_push(sk, tx, false);
	return err == -EAGAIN ? 0 : err;
}

/**
 * ktls_tx_handshake() - one handshake record, behind whatever is open or queued
 * @sk:		the socket, locked, senders serialized (ktls_tx_lock())
 * @msg:	the record's content
 * @len:	its length, at most a record's
 * @timeo:	how long to wait for send buffer space; what is left of it
 *
 * Sealed under the current TX key before this returns: the caller may
 * switch keys right after (key_update.c).
 * Return: 0 once it is sealed (TCP may take it later), or an errno with
 * nothing of it sealed; -EAGAIN once *@timeo is spent.
 */
int ktls_tx_handshake(struct sock *sk, const void *msg, size_t len,
		      long *timeo)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx = ctx->tx;

	/* Senders are serialized: none may seal under a key about to retire. */
	lockdep_assert_held(&tx->send_lock);
	sock_owned_by_me(sk);
	if (sk->sk_err)
		return -sk->sk_err;
	if (sk->sk_shutdown & SEND_SHUTDOWN)
		return -EPIPE;
	return ktls_tx_control(sk, ctx, tx, KTLS_TYPE_HANDSHAKE, msg, len,
			       timeo);
}

/**
 * ktls_tx_lock() - serialize with the other senders, then lock the socket
 * @sk:		the socket, unlocked; its TX path is set up
 *
 * Return: 0 with both held, or -EINTR with neither.
 */
int ktls_tx_lock(struct sock *sk)
{
	int err;

	err = mutex_lock_interruptible(&ktls_ctx(sk)->tx->send_lock);
	if (err)
		return err;
	lock_sock(sk);
	return 0;
}

void ktls_tx_unlock(struct sock *sk)
{
	release_sock(sk);
	mutex_unlock(&ktls_ctx(sk)->tx->send_lock);
}

/*
 * A fatal alert from the RX path.  The reader must not wait for the peer
 * to read, so the alert is dropped when the send queue is full: the
 * connection ends either way.
 */
void ktls_tx_alert(struct sock *sk, u8 desc)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	const u8 msg[2] = { KTLS_ALERT_FATAL_LEVEL, desc };
	long timeo = 0;

	sock_owned_by_me(sk);
	if (!ctx->tx || sk->sk_err || sk->sk_shutdown & SEND_SHUTDOWN)
		return;
	ctx->tx->alert_sent = true;
	ktls_tx_control(sk, ctx, ctx->tx, KTLS_TYPE_ALERT, msg, sizeof(msg),
			&timeo);
}

/*
 * The peer ended the connection with an error alert: after it we send
 * no alert, close_notify included (RFC 8446 6.2).
 */
void ktls_tx_peer_alerted(struct sock *sk)
{
	struct ktls_tx *tx = ktls_ctx(sk)->tx;

	sock_owned_by_me(sk);
	if (tx)
		tx->alert_sent = true;
}

/*
 * On the keys of a kernel handshake no TLS library tells the peer that
 * the application is done writing: the end of its stream (close(),
 * shutdown(SHUT_WR)) sends close_notify behind the data (RFC 8446 6.1,
 * RFC 5246 7.2.1), once, and never after another alert.
 */
static void ktls_tx_close_notify(struct sock *sk, struct ktls_ctx *ctx,
				 struct ktls_tx *tx, long *timeo)
{
	const u8 msg[KTLS_ALERT_LEN] = { KTLS_ALERT_WARNING_LEVEL,
					 KTLS_RX_ALERT_CLOSE_NOTIFY };

	sock_owned_by_me(sk);
	if (!ctx->keys_from_kernel || tx->alert_sent || sk->sk_err ||
	    sk->sk_shutdown & SEND_SHUTDOWN)
		return;
	tx->alert_sent = true;
	ktls_tx_control(sk, ctx, tx, KTLS_TYPE_ALERT, msg, sizeof(msg), timeo);
}

static int ktls_sendmsg_locked(struct sock *sk, struct msghdr *msg)
{
	long timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	bool eor = !(msg->msg_flags & MSG_MORE);
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx = ctx->tx;
	u8 type = KTLS_TYPE_DATA;
	unsigned int max_plain;
	ssize_t copied = 0;
	int err = 0;

	lockdep_assert_held(&tx->send_lock);
	sock_owned_by_me(sk);
	if (msg->msg_controllen) {
		err = ktls_tx_cmsg(sk, ctx, msg, &type, &timeo);
		if (err)
			return err;
	}

	while (msg_data_left(msg)) {
		size_t want;
		int n;

		if (sk->sk_err) {
			err = -sk->sk_err;
			break;
		}
		if (sk->sk_shutdown & SEND_SHUTDOWN) {
			err = -EPIPE;
			break;
		}
		/* Checked on every round: a reader may take a request as we wait. */
		err = ktls_key_update_answer(sk, ctx, &timeo);
		if (err)
			break;

		/* Keep a slot for the record we are about to fill. */
		if (tx->count >= KTLS_TX_QUEUE - 1 ||
		    !sk_stream_memory_free(sk)) {
			err = ktls_tx_push(sk, tx, true);
			if (err && err != -EAGAIN)
				break;
			if (tx->count >= KTLS_TX_QUEUE - 1 ||
			    !sk_stream_memory_free(sk)) {
				err = ktls_tx_wait(sk, tx, &timeo);
				if (err)
					break;
				continue;
			}
		}

		/* A record holds one type: close a data record before a control one. */
		if (tx->plain_len && tx->type != type) {
			err = ktls_tx_close_open(sk, ctx, tx, &timeo, true);
			if (err && err != -EAGAIN)
				break;
			continue;
		}
		tx->type = type;

		/* Read after every wait: the socket lock was let go. */
		max_plain = ktls_tx_max_plain(ctx);
		want = min_t(size_t, msg_data_left(msg),
			     max_plain - tx->plain_len);
		if (!tx->plain_len && user_backed_iter(&msg->msg_iter) &&
		    !(msg->msg_flags & MSG_SPLICE_PAGES) &&
		    (want == max_plain ||
		     (eor && want == msg_data_left(msg)))) {
			n = ktls_tx_pin(tx, &msg->msg_iter, want);
			if (n > 0) {
				err = ktls_tx_seal(sk, ctx, tx);
				if (err) {
					/* Never keep the sender's pages past the call. */
					iov_iter_revert(&msg->msg_iter, n);
					ktls_tx_drop_plain(tx);
					break;
				}
				copied += n;
				err = ktls_tx_push(sk, tx, msg_data_left(msg));
				if (err && err != -EAGAIN)
					break;
				err = 0;
				continue;
			}
		}
		if (msg->msg_flags & MSG_SPLICE_PAGES)
			n = ktls_tx_splice(tx, &msg->msg_iter, want);
		else
			n = ktls_tx_copy(tx, &msg->msg_iter, want);
		if (n < 0) {
			err = n;
			break;
		}

		if (ktls_tx_open_full(tx) || (eor && !msg_data_left(msg))) {
			err = ktls_tx_seal(sk, ctx, tx);
			if (err) {
				/*
				 * Bytes we report taken must go out without
				 * another call: a sender that waits for the
				 * answer makes none.  So what this round took
				 * is given back, and the open record is as
				 * the calls before left it.
				 */
				ktls_tx_trim(tx, n,
					     msg->msg_flags & MSG_SPLICE_PAGES);
				iov_iter_revert(&msg->msg_iter, n);
				break;
			}
			copied += n;
			err = ktls_tx_push(sk, tx, msg_data_left(msg));
			if (err && err != -EAGAIN)
				break;
			err = 0;
			continue;
		}
		copied += n;
	}

	if (copied)
		return copied;
	return sk_stream_error(sk, msg->msg_flags, err);
}

int ktls_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	int ret;

	if (msg->msg_flags & ~(MSG_MORE | MSG_DONTWAIT | MSG_NOSIGNAL |
			       MSG_CMSG_COMPAT | MSG_SPLICE_PAGES | MSG_EOR |
			       MSG_SENDPAGE_NOPOLICY))
		return -EOPNOTSUPP;
	if ((msg->msg_flags & (MSG_MORE | MSG_EOR)) == (MSG_MORE | MSG_EOR))
		return -EINVAL;

	ret = ktls_tx_lock(sk);
	if (ret)
		return ret;
	ret = ktls_sendmsg_locked(sk, msg);
	ktls_tx_unlock(sk);
	return ret;
}

/* splice() or sendfile() ended without SPLICE_F_MORE: close the record. */
void ktls_splice_eof(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx = ctx->tx;
	long timeo;

	if (!READ_ONCE(tx->plain_len))
		return;
	mutex_lock(&tx->send_lock);
	lock_sock(sk);
	if (tx->plain_len) {
		timeo = sock_sndtimeo(sk, false);
		ktls_tx_close_open(sk, ctx, tx, &timeo, false);
	}
	release_sock(sk);
	mutex_unlock(&tx->send_lock);
}

/* Whether plaintext waits in an open record (MSG_MORE, or a splice). */
bool ktls_tx_record_open(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);

	sock_owned_by_me(sk);
	return ctx->tx && ctx->tx->plain_len;
}

int ktls_tx_flush(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	long timeo = sock_sndtimeo(sk, false);
	int err;

	sock_owned_by_me(sk);
	if (!ctx->tx)
		return 0;
	err = ktls_tx_close_open(sk, ctx, ctx->tx, &timeo, false);
	return err == -EAGAIN ? 0 : err;
}

/*
 * inet_shutdown() marks the socket SEND_SHUTDOWN before TCP queues its
 * FIN, and from then on TCP takes nothing more from us: so the open
 * record and every sealed one must be in TCP's hands first.  Waits for
 * send buffer space within SO_SNDTIMEO, as a blocking send() would.
 */
int ktls_tx_shutdown(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx = ctx->tx;
	long timeo;
	int err;

	err = mutex_lock_interruptible(&tx->send_lock);
	if (err)
		return err;
	lock_sock(sk);
	timeo = sock_sndtimeo(sk, false);
	err = ktls_tx_close_open(sk, ctx, tx, &timeo, false);
	if (!err || err == -EAGAIN) {
		ktls_tx_close_notify(sk, ctx, tx, &timeo);
		err = ktls_tx_drain(sk, tx, 0, &timeo, false);
	}
	/*
	 * A socket that can no longer send (reset, or shut down before)
	 * loses what is queued either way; TCP's shutdown reports its state.
	 */
	if (sk->sk_err || (sk->sk_shutdown & SEND_SHUTDOWN))
		err = 0;
	release_sock(sk);
	mutex_unlock(&tx->send_lock);
	return err;
}

static void ktls_tx_work(struct work_struct *work)
{
	struct ktls_tx *tx = container_of(to_delayed_work(work),
					  struct ktls_tx, work);
	struct sock *sk = tx->sk;

	lock_sock(sk);
	if (!tx->closing)
		ktls_tx_push(sk, tx, false);
	release_sock(sk);
	sock_put(sk);
}

/*
 * TCP freed send buffer space.  Records we queued while it was full go
 * out from process context, since tcp_sendmsg_locked() may allocate.
 */
static void ktls_tx_write_space(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx = ctx->tx;

	if (!tx->in_push && READ_ONCE(tx->count) && !READ_ONCE(tx->waiting))
		ktls_tx_push_later(sk, tx, 0);
	tx->saved_write_space(sk);
}

int ktls_tx_init(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx;

	sock_owned_by_me(sk);
	tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	if (!tx)
		return -ENOMEM;
	tx->sk = sk;
	tx->type = KTLS_TYPE_DATA;
	mutex_init(&tx->send_lock);
	INIT_DELAYED_WORK(&tx->work, ktls_tx_work);

	write_lock_bh(&sk->sk_callback_lock);
	tx->saved_write_space = sk->sk_write_space;
	ctx->tx = tx;
	sk->sk_write_space = ktls_tx_write_space;
	write_unlock_bh(&sk->sk_callback_lock);
	return 0;
}

void ktls_tx_close(struct sock *sk, long timeout)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_tx *tx = ctx->tx;
	long timeo = sock_sndtimeo(sk, false);

	sock_owned_by_me(sk);
	if (!tx)
		return;

	/* Like TCP's own close, whatever was sent goes out, within SO_SNDTIMEO. */
	if (!sk->sk_err) {
		int err = ktls_tx_close_open(sk, ctx, tx, &timeo, false);

		if (!err || err == -EAGAIN) {
			ktls_tx_close_notify(sk, ctx, tx, &timeo);
			ktls_tx_drain(sk, tx, 0, &timeo, false);
		}
	}

	write_lock_bh(&sk->sk_callback_lock);
	WRITE_ONCE(tx->closing, true);
	sk->sk_write_space = tx->saved_write_space;
	write_unlock_bh(&sk->sk_callback_lock);
}

void ktls_tx_free(struct ktls_ctx *ctx)
{
	struct ktls_tx *tx = ctx->tx;
	unsigned int i;

	if (!tx)
		return;
	WRITE_ONCE(tx->closing, true);
	if (cancel_delayed_work_sync(&tx->work))
		sock_put(tx->sk);

	ktls_tx_drop_plain(tx);
	for (i = 0; i < KTLS_TX_QUEUE; i++)
		ktls_tx_rec_release(&tx->queue[i]);
	for (i = 0; i < KTLS_TX_PAGES; i++)
		if (tx->pages[i])
			__free_page(tx->pages[i]);
	mutex_destroy(&tx->send_lock);
	kfree(tx);
	ctx->tx = NULL;
}
