// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records of a TX-offloaded socket, as the device and its driver see
 * them.  tx.c frames each record in device form (plaintext where the
 * ciphertext will be, room for the tag) and hands it to TCP; this file
 * keeps every such record on the offload context's list, in the kernel's
 * struct tls_record_info, until TCP's ACK covers it, so that a driver
 * can find the record and record number of any sequence number it is
 * asked to (re)transmit: tls_get_record().  A new record is also where
 * a TX resync a driver asked for is served (device_tx_resync.c).
 *
 * The list is written under the socket lock (new records, at the tail)
 * and from TCP's ACK processing (acked records, from the head), read by
 * drivers in their xmit path, all under the context's spinlock.  The
 * first entry is a marker of length 0 ending where the offload started:
 * bytes before it were encrypted in software before the device had the
 * keys.
 *
 * The header set is the one of the in-tree file exporting the same
 * symbols: modversions CRCs depend on it (Documentation/offload.rst).
 */
#include <crypto/aead.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/dst.h>
#include <net/inet_connection_sock.h>
#include <net/tcp.h>
#include <net/tls.h>
#include <linux/skbuff_ref.h>
#include <linux/skmsg.h>
#include <net/tls_prot.h>
#include <linux/unaligned.h>
#include <linux/tracepoint.h>

#include <ktls_hs/compat_skb.h>

#include "../record/ktls.h"
#include "device.h"

static void ktls_device_record_free(struct tls_record_info *rec)
{
	int i;

	for (i = 0; i < rec->num_frags; i++)
		put_page(skb_frag_page(&rec->frags[i]));
	kfree(rec);
}

/* Every record, on the socket's destruction or a failed setup. */
void ktls_device_records_free(struct tls_offload_context_tx *octx)
{
	struct tls_record_info *rec, *tmp;

	list_for_each_entry_safe(rec, tmp, &octx->records_list, list) {
		list_del(&rec->list);
		ktls_device_record_free(rec);
	}
	octx->retransmit_hint = NULL;
}

/**
 * ktls_device_octx_alloc() - the TX offload context of a socket
 * @ctx:	its context
 *
 * The record list stays empty until the socket moves to the device
 * (ktls_device_records_start()).
 * Return: the context, or NULL without memory.
 */
struct tls_offload_context_tx *ktls_device_octx_alloc(struct ktls_ctx *ctx)
{
	struct tls_offload_context_tx *octx;

	octx = kzalloc(ktls_offload_ctx_tx_size(), GFP_KERNEL);
	if (!octx)
		return NULL;
	spin_lock_init(&octx->lock);
	INIT_LIST_HEAD(&octx->records_list);
	octx->ctx = &ctx->base;
	return octx;
}

/**
 * ktls_device_records_start() - the device takes over at a record boundary
 * @octx:	TX offload context, its list empty
 * @seq:	TCP sequence number of the first record in device form
 * @sn:		its record number
 *
 * The list starts with a marker ending at @seq, numbered one below the
 * first record: bytes before it were sealed in software.
 * Return: 0, or -ENOMEM.
 */
int ktls_device_records_start(struct tls_offload_context_tx *octx, u32 seq,
			      u64 sn)
{
	struct tls_record_info *marker;
	unsigned long flags;

	marker = kzalloc(sizeof(*marker), GFP_KERNEL);
	if (!marker)
		return -ENOMEM;
	marker->end_seq = seq;
	spin_lock_irqsave(&octx->lock, flags);
	list_add_tail(&marker->list, &octx->records_list);
	octx->unacked_record_sn = sn - 1;
	spin_unlock_irqrestore(&octx->lock, flags);
	return 0;
}

int ktls_device_record_add(struct sock *sk, struct ktls_ctx *ctx,
			   const struct bio_vec *frags, unsigned int nr,
			   u32 len, u32 start_seq)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	struct tls_record_info *rec;
	unsigned long flags;
	unsigned int i;

	if (WARN_ON_ONCE(nr > MAX_SKB_FRAGS))
		return -EMSGSIZE;
	rec = kmalloc(sizeof(*rec), sk->sk_allocation);
	if (!rec)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		get_page(frags[i].bv_page);
		ktls_skb_frag_fill(&rec->frags[i], frags[i].bv_page,
				   frags[i].bv_offset, frags[i].bv_len);
	}
	rec->num_frags = nr;
	rec->len = len;
	rec->end_seq = start_seq + len;

	ktls_device_tx_resync(sk, ctx, start_seq, ctx->tx_crypto.seq);
	spin_lock_irqsave(&octx->lock, flags);
	list_add_tail_rcu(&rec->list, &octx->records_list);
	spin_unlock_irqrestore(&octx->lock, flags);
	/* Drivers read the number of the next record here. */
	put_unaligned_be64(ctx->tx_crypto.seq + 1, ctx->base.tx.rec_seq);
	return 0;
}

/*
 * TCP's ACK reached @acked_seq (softirq, socket owned by it): records
 * that end at or before it will never be retransmitted.
 */
void ktls_device_clean_acked(struct sock *sk, u32 acked_seq)
{
	struct tls_context *base = tls_get_ctx(sk);
	struct tls_offload_context_tx *octx;
	struct tls_record_info *rec, *tmp;
	unsigned long flags;
	u64 gone = 0;

	/* The hook is set just before the context, both under the lock. */
	octx = base ? tls_offload_ctx_tx(base) : NULL;
	if (!octx)
		return;
	spin_lock_irqsave(&octx->lock, flags);
	if (octx->retransmit_hint &&
	    !before(acked_seq, octx->retransmit_hint->end_seq))
		octx->retransmit_hint = NULL;
	list_for_each_entry_safe(rec, tmp, &octx->records_list, list) {
		if (before(acked_seq, rec->end_seq))
			break;
		list_del(&rec->list);
		ktls_device_record_free(rec);
		gone++;
	}
	octx->unacked_record_sn += gone;
	spin_unlock_irqrestore(&octx->lock, flags);
	ktls_device_tx_floor_acked(ktls_ctx(sk), acked_seq);
}

/**
 * tls_get_record() - the record that holds a TCP sequence number
 * @context:	TX offload context of the socket, its lock held
 * @seq:	the sequence number
 * @p_record_sn: set to the record's TLS sequence number
 *
 * Drivers call this for every skb that does not continue the record
 * they saw last (a retransmission).  Lookups move forward mostly, so the
 * last record found is remembered and the walk starts there when it can.
 * Return: the record, the start marker for bytes sent before the
 * offload (so @seq may precede the returned record), or NULL if @seq is
 * outside every record still unacknowledged.
 */
struct tls_record_info *tls_get_record(struct tls_offload_context_tx *context,
				       u32 seq, u64 *p_record_sn)
{
	struct tls_record_info *rec = context->retransmit_hint;
	struct tls_record_info *first, *last;
	u64 sn = context->hint_record_sn;

	if (!rec || before(seq, tls_record_start_seq(rec))) {
		first = list_first_entry_or_null(&context->records_list,
						 struct tls_record_info, list);
		if (!first)
			return NULL;
		last = list_last_entry(&context->records_list,
				       struct tls_record_info, list);
		/* The marker covers everything before the offload started. */
		if (!tls_record_is_start_marker(first) &&
		    !between(seq, tls_record_start_seq(first), last->end_seq))
			return NULL;
		rec = first;
		sn = context->unacked_record_sn;
	}

	/* New records are appended while drivers read: see their list_add. */
	rcu_read_lock();
	list_for_each_entry_from_rcu(rec, &context->records_list, list) {
		if (before(seq, rec->end_seq)) {
			if (!context->retransmit_hint ||
			    after(rec->end_seq, context->retransmit_hint->end_seq)) {
				context->retransmit_hint = rec;
				context->hint_record_sn = sn;
			}
			*p_record_sn = sn;
			rcu_read_unlock();
			return rec;
		}
		sn++;
	}
	rcu_read_unlock();
	return NULL;
}
EXPORT_SYMBOL(tls_get_record);
