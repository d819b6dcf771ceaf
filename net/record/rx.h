/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The internals of the software RX path that its two halves share: the
 * framer (rx_framer.c), which turns TCP's bytes into whole records, and
 * the reader (rx.c), which decrypts them and hands the plaintext on.
 * Both work on struct ktls_rx, one per socket; rx_framer.c says which
 * fields are whose and in which context each side runs.  The entry
 * points the rest of the module sees are in record.h.
 */
#ifndef _KTLS_HS_RX_H
#define _KTLS_HS_RX_H

#include <linux/list.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ktls.h"

#define KTLS_RX_PAGES		DIV_ROUND_UP(KTLS_REC_MAX, PAGE_SIZE)
/* Pages of a reader's buffer we decrypt into directly; more and we copy. */
#define KTLS_RX_ZC_PAGES	16
/* Scatterlist entries for a record read out of TCP's skbs; more and we copy. */
#define KTLS_RX_SKB_SG		48

/* rx->sg_dst also holds a whole record buffer. */
static_assert(KTLS_RX_ZC_PAGES >= KTLS_RX_PAGES);

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
 * @stopped:	the stream is broken (framing error) or ended (close_notify):
 *		nothing more is pulled
 * @key_expired: a KeyUpdate was received, records wait for new keys
 * @seq_spent:	the last record opened had the last sequence number: what
 *		follows is never opened, reads end in EBADMSG
 * @reader_present: a reader holds the record stream
 * @closing:	ktls_rx_close() ran: @fill_work must not touch the socket
 * @peer_closed: the peer's close_notify was read: EOF from here on, and
 *		no record after it is framed
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
	bool seq_spent;
	bool reader_present;
	bool closing;
	bool peer_closed;
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

static inline void *ktls_rx_rec_ptr(struct ktls_rx_rec *rec, unsigned int pos)
{
	return page_address(rec->pages[pos >> PAGE_SHIFT]) + offset_in_page(pos);
}

/* Bytes from @pos to the end of its page. */
static inline unsigned int ktls_rx_rec_span(unsigned int pos, unsigned int len)
{
	return min_t(unsigned int, len, PAGE_SIZE - offset_in_page(pos));
}

/* rx_framer.c: record buffers */
struct ktls_rx_rec *ktls_rx_rec_alloc(struct ktls_rx *rx);
bool ktls_rx_rec_fill(struct ktls_rx_rec *rec, gfp_t gfp);
void ktls_rx_rec_put(struct ktls_rx *rx, struct ktls_rx_rec *rec);
void ktls_rx_rec_done(struct ktls_rx *rx, struct ktls_rx_rec *rec);
void ktls_rx_rec_free(struct ktls_rx_rec *rec);
void ktls_rx_rec_read(struct ktls_rx_rec *rec, unsigned int pos, u8 *to,
		      unsigned int len);
unsigned int ktls_rx_rec_sg(struct ktls_rx_rec *rec, struct scatterlist *sg,
			    unsigned int pos, unsigned int len);

/* rx_framer.c: framing */
void ktls_rx_framer_init(struct ktls_rx *rx);
void ktls_rx_data_ready(struct sock *sk);
int ktls_rx_pull(struct sock *sk, struct ktls_ctx *ctx, struct ktls_rx *rx,
		 bool copy, gfp_t gfp);
int ktls_rx_copy_out(struct sock *sk, struct ktls_ctx *ctx,
		     struct ktls_rx *rx);
void ktls_rx_next(struct sock *sk, struct ktls_rx *rx);
void ktls_rx_fill_later(struct sock *sk, struct ktls_rx *rx,
			unsigned long delay);

/* rx_framer.c: the framed record while it is in TCP's receive queue */
int ktls_rx_tcp_read(struct sock *sk, unsigned int off, u8 *to,
		     unsigned int len);
int ktls_rx_tcp_to_rec(struct sock *sk, struct ktls_rx_rec *rec,
		       unsigned int len);
int ktls_rx_tcp_sgvec(struct sock *sk, unsigned int off, unsigned int len,
		      struct scatterlist *sg, unsigned int nr, unsigned int max);
unsigned int ktls_rx_tcp_decrypted(struct sock *sk, unsigned int len);

/* rx.c */
void ktls_rx_check_later(struct sock *sk, struct ktls_rx *rx);

#endif /* _KTLS_HS_RX_H */
