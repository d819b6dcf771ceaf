// SPDX-License-Identifier: GPL-2.0-only
/*
 * RX offload, the part that needs no device: which bytes of a record the
 * device decrypted, the recovery of a record it decrypted only in part,
 * and when to tell the device where records start (the three resync modes
 * of enum tls_offload_sync_type).  This file owns struct ktls_rx_offload
 * but its kernel part, which drivers read and write; device_rx_keys.c
 * calls the driver, rx.c frames and decrypts the records.
 *
 * A device marks an skb decrypted when it replaced the ciphertext of the
 * records in it by plaintext.  A record whose every byte came so was
 * authenticated by the device, which checked its tag.  A record that came
 * partly decrypted (the device lost the stream in the middle, a piece was
 * retransmitted around it) was not: the decrypted pieces are turned back
 * into ciphertext and the whole record goes through software.  The
 * devices we take do AES-GCM, whose encryption is counter mode: running
 * the device's key over a decrypted piece at its place in the record
 * gives back the bytes the device was given.
 *
 * Everything here runs with the socket owned, or in softirq on a socket
 * no user owns, one record at a time.
 */
#include <crypto/aead.h>
#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/tcp.h>
#include <net/tls.h>

#include <ktls_hs/compat_skb.h>

#include "../record/ktls.h"
#include "device.h"

struct ktls_rx_offload *ktls_device_rx_alloc(struct ktls_ctx *ctx)
{
	struct ktls_rx_offload *rxo;

	rxo = kzalloc(sizeof(*rxo), GFP_KERNEL);
	if (!rxo)
		return NULL;
	if (ktls_crypto_copy(&rxo->dev_crypto, ctx->prot.cipher,
			     &ctx->rx_crypto)) {
		kfree(rxo);
		return NULL;
	}
	ktls_device_rx_sync_reset(rxo);
	return rxo;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_alloc);

void ktls_device_rx_sync_reset(struct ktls_rx_offload *rxo)
{
	struct tls_offload_context_rx *b = &rxo->base;

	b->resync_type = TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ;
	atomic64_set(&b->resync_req, 0);
	b->resync_async = NULL;
	b->resync_nh_do_now = 0;
	memset(&b->resync_nh, 0, sizeof(b->resync_nh));
	/* Core next hint: failures count from the first record on. */
	b->resync_nh_reset = 1;
}

void ktls_device_rx_free(struct ktls_rx_offload *rxo)
{
	if (!rxo)
		return;
	ktls_crypto_release(&rxo->dev_crypto);
	kfree(rxo);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_free);

void ktls_device_rx_mark(struct ktls_rx_offload *rxo, const struct sk_buff *skb,
			 unsigned int pos, unsigned int len)
{
	/* TCP never merges skbs that differ in this: one flag holds for all. */
	if (!ktls_skb_decrypted(skb) || !len ||
	    WARN_ON_ONCE(pos + len > KTLS_REC_MAX))
		return;
	bitmap_set(rxo->dec, pos, len);
	rxo->nr_dec += len;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_mark);

static void *ktls_device_rx_ptr(struct page *const *pages, unsigned int pos)
{
	return page_address(pages[pos >> PAGE_SHIFT]) + offset_in_page(pos);
}

static unsigned int ktls_device_rx_span(unsigned int pos, unsigned int len)
{
	return min_t(unsigned int, len, PAGE_SIZE - offset_in_page(pos));
}

/* Copy [@start, @end) of a record buffer to another laid out alike. */
static void ktls_device_rx_copy(struct page *const *to,
				struct page *const *from, unsigned int start,
				unsigned int end)
{
	while (start < end) {
		unsigned int n = ktls_device_rx_span(start, end - start);

		memcpy(ktls_device_rx_ptr(to, start),
		       ktls_device_rx_ptr(from, start), n);
		start += n;
	}
}

/* @sg[0] the AAD, then @len bytes of @pages at @pos; returns entries used. */
static unsigned int ktls_device_rx_sg(struct ktls_rx_offload *rxo,
				      struct scatterlist *sg,
				      const struct ktls_prot *prot,
				      struct page *const *pages,
				      unsigned int pos, unsigned int len)
{
	unsigned int nr = 1;

	sg_init_table(sg, ARRAY_SIZE(rxo->sg_src));
	sg_set_buf(&sg[0], rxo->aad, prot->aad_len);
	while (len) {
		unsigned int n = ktls_device_rx_span(pos, len);

		sg_set_page(&sg[nr++], pages[pos >> PAGE_SHIFT], n,
			    offset_in_page(pos));
		pos += n;
		len -= n;
	}
	sg_mark_end(&sg[nr - 1]);
	return nr;
}

int ktls_device_rx_recover(struct ktls_rx_offload *rxo,
			   const struct ktls_prot *prot, struct page *const *rec,
			   struct page *const *scratch, unsigned int len)
{
	unsigned int body = len - prot->prepend_len - prot->tag_len;
	unsigned int end = prot->prepend_len + body, start, stop;
	u8 hdr[KTLS_HEADER_LEN + KTLS_MAX_NONCE_LEN];
	int err;

	/* The framer never asks for these; a caller that does gets told. */
	if (len > KTLS_REC_MAX || len < prot->prepend_len + prot->tag_len)
		return -EINVAL;
	memcpy(hdr, ktls_device_rx_ptr(rec, 0), prot->prepend_len);
	ktls_record_iv(rxo->iv, prot, &rxo->dev_crypto, hdr + KTLS_HEADER_LEN);
	ktls_record_aad(rxo->aad, prot, rxo->dev_crypto.seq, hdr[0], body);

	/* Header and tag were never touched; only the body is. */
	ktls_device_rx_sg(rxo, rxo->sg_src, prot, rec, prot->prepend_len, body);
	ktls_device_rx_sg(rxo, rxo->sg_dst, prot, scratch, prot->prepend_len,
			  body + prot->tag_len);
	err = ktls_aead_crypt(&rxo->dev_crypto, prot, true, rxo->sg_src,
			      rxo->sg_dst, body, rxo->iv);
	if (err)
		return err;

	for (start = find_next_bit(rxo->dec, end, prot->prepend_len);
	     start < end; start = find_next_bit(rxo->dec, end, stop)) {
		stop = find_next_zero_bit(rxo->dec, end, start);
		ktls_device_rx_copy(rec, scratch, start, stop);
	}
	/*
	 * All ciphertext now: if decrypting it runs out of memory, the next
	 * try must take it as it is, not turn its pieces over again.
	 */
	bitmap_clear(rxo->dec, 0, len);
	rxo->nr_dec = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_recover);

void ktls_device_rx_next(struct ktls_rx_offload *rxo,
			 const struct ktls_prot *prot, unsigned int len)
{
	if (rxo->nr_dec) {
		bitmap_clear(rxo->dec, 0, min_t(unsigned int, len, KTLS_REC_MAX));
		rxo->nr_dec = 0;
	}
	/* At the last number the software path fails the socket. */
	ktls_record_advance(prot, &rxo->dev_crypto);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_next);

/*
 * TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC.  The driver opens a window of
 * sequence numbers where it saw something like a header and takes its
 * time to find out which it was; meanwhile the headers that pass in the
 * window are logged, and those after counted, so that the number of the
 * one it names at the end is known.
 */
static bool ktls_device_rx_async(struct tls_offload_resync_async *ra, u32 seq,
				 u64 sn, u32 *rseq, u64 *rsn)
{
	s64 req = atomic64_read(&ra->req);
	u32 req_seq = req >> 32;
	u16 i;

	if (!req)
		return false;
	if (req & RESYNC_REQ_ASYNC) {
		u32 req_end = req_seq + ((req >> 16) & 0xffff);

		if (before(seq, req_seq))
			return false;
		/* Open for 64K records: the driver lost its answer. */
		if (ra->rcd_delta == USHRT_MAX) {
			tls_offload_rx_resync_async_request_cancel(ra);
			return false;
		}
		if (!after(seq, req_end) &&
		    ra->loglen < TLS_DEVICE_RESYNC_ASYNC_LOGMAX)
			ra->log[ra->loglen++] = seq;
		ra->rcd_delta++;
		return false;
	}

	for (i = 0; i < ra->loglen; i++) {
		if (ra->log[i] != req_seq)
			continue;
		if (!atomic64_try_cmpxchg(&ra->req, &req, 0))
			break;
		*rseq = req_seq;
		*rsn = sn - (ra->rcd_delta - i);
		ra->loglen = 0;
		ra->rcd_delta = 0;
		return true;
	}
	ra->loglen = 0;
	ra->rcd_delta = 0;
	if (req_seq != seq || !atomic64_try_cmpxchg(&ra->req, &req, 0))
		return false;
	*rseq = seq;
	*rsn = sn;
	return true;
}

bool ktls_device_rx_framed(struct ktls_rx_offload *rxo, u32 seq, u32 len,
			   bool next_in, u32 *rseq, u64 *rsn)
{
	struct tls_offload_context_rx *b = &rxo->base;
	u64 sn = rxo->dev_crypto.seq;
	s64 req;

	/* After a key update the device has nothing left to decrypt. */
	if (rxo->stale)
		return false;

	switch (b->resync_type) {
	case TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ:
		/* tls.ko's convention: the sequence number of header byte 4. */
		req = atomic64_read(&b->resync_req);
		if (!req || (u32)(req >> 32) != seq + KTLS_HEADER_LEN - 1 ||
		    !atomic64_try_cmpxchg(&b->resync_req, &req, 0))
			return false;
		*rseq = seq + KTLS_HEADER_LEN - 1;
		*rsn = sn;
		return true;
	case TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT:
		/* The next header passed the device already: wait for one. */
		if (!b->resync_nh_do_now || next_in)
			return false;
		b->resync_nh_do_now = 0;
		*rseq = seq + len;
		*rsn = sn + 1;
		return true;
	case TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC:
		if (!b->resync_async)
			return false;
		return ktls_device_rx_async(b->resync_async, seq, sn, rseq, rsn);
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_framed);

/*
 * TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT: the device finds no record start
 * by itself, the core tells it one after a run of records it did not
 * decrypt, at growing intervals while that goes on.
 */
bool ktls_device_rx_result(struct ktls_rx_offload *rxo, u32 seq, u32 len,
			   u32 dec, bool next_in, u32 *rseq, u64 *rsn)
{
	struct tls_offload_context_rx *b = &rxo->base;

	if (dec) {
		b->resync_nh_reset = 1;
		return false;
	}
	if (b->resync_type != TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT ||
	    b->resync_nh_do_now || rxo->stale)
		return false;
	if (b->resync_nh_reset) {
		b->resync_nh_reset = 0;
		b->resync_nh.decrypted_failed = 1;
		b->resync_nh.decrypted_tgt = TLS_DEVICE_RESYNC_NH_START_IVAL;
		return false;
	}
	if (++b->resync_nh.decrypted_failed <= b->resync_nh.decrypted_tgt)
		return false;
	if (b->resync_nh.decrypted_tgt < TLS_DEVICE_RESYNC_NH_MAX_IVAL)
		b->resync_nh.decrypted_tgt *= 2;
	else
		b->resync_nh.decrypted_tgt += TLS_DEVICE_RESYNC_NH_MAX_IVAL;
	/* The framer tells it at a record whose next header is not in. */
	if (next_in) {
		b->resync_nh_do_now = 1;
		return false;
	}
	*rseq = seq + len;
	*rsn = rxo->dev_crypto.seq + 1;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_rx_result);
