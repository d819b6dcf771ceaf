/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TX offload to a NIC through the kernel's tlsdev_ops: the entry points
 * device.c (setup, teardown, netdev events), device_tx.c (records in
 * device form and their tracking) and device_fallback.c (software
 * encryption of skbs the device does not encrypt) call each other by,
 * and the TX path (tx.c) and key setting (keys.c) call.  The state is
 * the kernel's struct tls_offload_context_tx, hung off the embedded
 * struct tls_context as drivers expect (Documentation/offload.rst).
 */
#ifndef _KTLS_HS_DEVICE_H
#define _KTLS_HS_DEVICE_H

#include <linux/bvec.h>
#include <linux/errno.h>
#include <linux/types.h>

#include "ktls.h"

struct sock;
struct sk_buff;
struct net_device;
struct tls_offload_context_tx;

/*
 * device.c needs the core's side of offload (the ACK hook, the xmit
 * hook), which only kernels built with CONFIG_TLS_DEVICE have; without
 * it no socket is ever offloaded.  The record list and the fallback
 * build everywhere, and KUnit tests them everywhere.
 */
#if IS_ENABLED(CONFIG_TLS_DEVICE)
int ktls_device_init(void);
void ktls_device_exit(void);
/*
 * TX keys were just installed and the socket runs in software: if the
 * route's device can take them, queue their installation there (the
 * driver may take milliseconds).  Socket locked, process context.
 */
void ktls_device_tx_offer(struct sock *sk, struct ktls_ctx *ctx);
/*
 * The TX path, about to seal a record that TCP will carry from @seq: if
 * the device has the keys by now, the socket moves to device mode with
 * this record.  Socket locked, process context.
 */
void ktls_device_tx_switch(struct sock *sk, struct ktls_ctx *ctx, u32 seq);
/*
 * The TX keys change while the socket is still in software: the device
 * must never take over with the old ones.  Socket locked.
 */
void ktls_device_tx_abandon(struct ktls_ctx *ctx);
/*
 * The TX keys of a socket in device mode change: the records sealed so
 * far keep their device form and are encrypted in software under the
 * keys they were built for; every later one is sealed in software, and
 * the driver is told to forget the socket.  Socket locked, process
 * context.
 */
void ktls_device_tx_leave(struct sock *sk, struct ktls_ctx *ctx);
/*
 * A record numbered @rec_sn starts at TCP sequence @seq: if the driver
 * asked for a resync, give it these.  Socket locked, process context.
 */
void ktls_device_resync(struct sock *sk, struct ktls_ctx *ctx, u32 seq,
			u64 rec_sn);
#else
static inline int ktls_device_init(void)
{
	return 0;
}

static inline void ktls_device_exit(void)
{
}

static inline void ktls_device_tx_offer(struct sock *sk, struct ktls_ctx *ctx)
{
}

static inline void ktls_device_tx_switch(struct sock *sk, struct ktls_ctx *ctx,
					 u32 seq)
{
}

static inline void ktls_device_tx_abandon(struct ktls_ctx *ctx)
{
}

static inline void ktls_device_tx_leave(struct sock *sk, struct ktls_ctx *ctx)
{
}

static inline void ktls_device_resync(struct sock *sk, struct ktls_ctx *ctx,
				      u32 seq, u64 rec_sn)
{
}
#endif

/*
 * From the moment an offload is offered, drivers may read the socket's
 * context: it is freed by the socket's destructor, not the ULP.
 */
static inline bool ktls_device_owns_ctx(const struct ktls_ctx *ctx)
{
	return ctx->base.sk_destruct;
}

/* device_tx.c */
/*
 * Track a record framed for the device, made of @nr fragments of @frags
 * (@len bytes), that TCP will carry from @start_seq.  Takes its own page
 * references.  Socket locked, process context.
 */
int ktls_device_record_add(struct sock *sk, struct ktls_ctx *ctx,
			   const struct bio_vec *frags, unsigned int nr,
			   u32 len, u32 start_seq);
void ktls_device_clean_acked(struct sock *sk, u32 acked_seq);
void ktls_device_records_free(struct tls_offload_context_tx *octx);
struct tls_offload_context_tx *ktls_device_octx_alloc(struct ktls_ctx *ctx);
int ktls_device_records_start(struct tls_offload_context_tx *octx, u32 seq,
			      u64 sn);

/* device_fallback.c */
int ktls_device_fallback_init(struct ktls_ctx *ctx,
			      struct tls_offload_context_tx *octx);
/* Encrypt one device-form record as the fallback does (KUnit). */
int ktls_device_fb_record(struct ktls_ctx *ctx, u8 *rec, unsigned int len,
			  u64 sn);
struct sk_buff *ktls_device_validate_xmit_sw(struct sock *sk,
					     struct net_device *dev,
					     struct sk_buff *skb);

#endif /* _KTLS_HS_DEVICE_H */
