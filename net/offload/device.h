/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offload to a NIC through the kernel's tlsdev_ops, split by direction
 * around a shared core:
 *   device.c		the core: the device and its claim, tls_dev_add()
 *			and _del(), the destructor, the netdev notifier
 *   device_tx_keys.c	TX to the device and back, TX key updates
 *   device_tx.c	the records in device form, tls_get_record()
 *   device_tx_resync.c	the TX resync a driver asks for
 *   device_fallback.c	software encryption of skbs no device encrypts
 *   device_rx_keys.c	RX to the device and back, RX resync, key updates
 *   device_rx.c	what the device decrypted, its recovery
 * The direction files call the core and the leaves (device_tx.c,
 * device_rx.c, device_fallback.c), the core calls only the leaves, and
 * the leaves call nothing of offload but the TX resync.  The TX and RX
 * paths (tx.c, rx.c) and key setting (keys.c) call the entry points.
 * The state is the kernel's struct tls_offload_context_tx and
 * struct tls_offload_context_rx, hung off the embedded struct
 * tls_context as drivers expect (Documentation/offload.rst).
 */
#ifndef _KTLS_HS_DEVICE_H
#define _KTLS_HS_DEVICE_H

#include <linux/bitmap.h>
#include <linux/bvec.h>
#include <linux/errno.h>
#include <linux/scatterlist.h>
#include <linux/tcp.h>
#include <linux/types.h>
#include <net/tcp.h>

#include "../record/ktls.h"

struct sock;
struct sk_buff;
struct net_device;
struct tls_offload_context_tx;

/**
 * struct ktls_rx_offload - RX offload state of one socket
 * @base:	the kernel's context, first: priv_ctx_rx points here, and
 *		drivers reach @base.driver_state and the resync fields
 *		through the inlines of <net/tls.h>.  @base.sw stays zero
 * @room:	the driver's state, on kernels that keep it behind @base
 *		(the compat layer; empty where it is inside)
 * @dev_crypto:	the key the device was given, its iv, and in @dev_crypto.seq
 *		the number the device gives the record being framed.  A TLS
 *		1.3 key update moves our RX key on but not the device's:
 *		what the device decrypted is still recovered with this one
 * @stale:	our RX key is no longer @dev_crypto's: the device decrypts
 *		nothing right any more, so nothing it marks is trusted
 * @nr_dec:	bytes of the record being framed that came decrypted, when
 *		it is copied out of TCP (@dec marks which)
 * @dec:	one bit per byte of that record
 * @sg_src:	AAD and the record, for its recovery
 * @sg_dst:	AAD and the scratch buffer, likewise
 * @aad:	AAD of the recovery pass (not checked, but the AEAD wants one)
 * @iv:		its iv
 * @sk:		the socket, for @rekey_work
 * @rekey:	where a key update of the socket stands (device_rx_keys.c):
 *		enum ktls_rx_rekey, under the socket lock
 * @rekey_edge:	TCP sequence number from which nothing is marked
 *		decrypted under the old key
 * @rekey_work:	tells the driver the new key
 */
struct ktls_rx_offload {
	struct tls_offload_context_rx base;
	struct ktls_compat_rx_room room;
	struct ktls_crypto dev_crypto;
	bool stale;
	unsigned int nr_dec;
	unsigned long dec[BITS_TO_LONGS(KTLS_REC_MAX)];
	struct scatterlist sg_src[DIV_ROUND_UP(KTLS_REC_MAX, PAGE_SIZE) + 2];
	struct scatterlist sg_dst[DIV_ROUND_UP(KTLS_REC_MAX, PAGE_SIZE) + 2];
	u8 aad[KTLS_MAX_AAD_LEN];
	u8 iv[KTLS_AEAD_IV_LEN];
	struct sock *sk;
	u8 rekey;
	u32 rekey_edge;
	struct work_struct rekey_work;
};

/* A driver's writes to @base.driver_state end within @room at the latest. */
static_assert(offsetof(struct ktls_rx_offload, base.driver_state) +
	      TLS_DRIVER_STATE_SIZE_RX <=
	      offsetof(struct ktls_rx_offload, room) +
	      sizeof(struct ktls_compat_rx_room));

enum ktls_rx_rekey {
	KTLS_RX_REKEY_NONE,
	KTLS_RX_REKEY_DEL,	/* the driver is to forget the old key */
	KTLS_RX_REKEY_EDGE,	/* wait for the framer at rekey_edge */
	KTLS_RX_REKEY_ADD,	/* the driver is to get the new key */
};

/* The RX offload state of @ctx, NULL while RX is not offloaded. */
static inline struct ktls_rx_offload *ktls_rx_offload(const struct ktls_ctx *ctx)
{
	return ctx->base.priv_ctx_rx;
}

/* ktls_ctx.dev.dirs (device.c), under its lock */
#define KTLS_DEV_TX	BIT(TLS_OFFLOAD_CTX_DIR_TX)	/* driver has TX state */
#define KTLS_DEV_RX	BIT(TLS_OFFLOAD_CTX_DIR_RX)	/* driver has RX state */
#define KTLS_DEV_GONE	BIT(2)	/* a device went down under the socket */
#define KTLS_DEV_DIRS	(KTLS_DEV_TX | KTLS_DEV_RX)

/*
 * device.c and the files that move each direction to the device and
 * back need the core's side of offload (the ACK hook, the xmit hook,
 * tlsdev_ops), which only kernels built with CONFIG_TLS_DEVICE have;
 * without it no socket is ever offloaded.  The record list and the fallback
 * build everywhere, and KUnit tests them everywhere.
 */
#if IS_ENABLED(CONFIG_TLS_DEVICE)
/* device.c */
int ktls_device_init(void);
void ktls_device_exit(void);

/* device_tx_keys.c */
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
 * The TX keys are about to change (a TLS 1.3 key update): the socket
 * goes on in software, and back to the device with the new keys once it
 * can.  Socket locked, process context.
 */
void ktls_device_tx_rekey(struct sock *sk, struct ktls_ctx *ctx);
/*
 * TX keys changed since the socket was on the device: about to seal the
 * record that TCP will carry from @seq, in software.  Socket locked,
 * process context.
 */
void ktls_device_tx_drained(struct sock *sk, struct ktls_ctx *ctx, u32 seq);

/* device_tx_resync.c */
/*
 * A record numbered @rec_sn starts at TCP sequence @seq: if the driver
 * asked for a resync, give it these.  Socket locked, process context.
 */
void ktls_device_tx_resync(struct sock *sk, struct ktls_ctx *ctx, u32 seq,
			   u64 rec_sn);

/* device_rx_keys.c */
/*
 * The RX keys changed (a TLS 1.3 key update): what the device decrypted
 * is no longer trusted, and it gets the new keys once it can.  Socket
 * owned, or softirq.
 */
void ktls_device_rx_rekey(struct sock *sk, struct ktls_ctx *ctx);
/* The framer, with rxo->rekey at KTLS_RX_REKEY_EDGE, framed at @seq. */
void ktls_device_rx_rekey_framed(struct sock *sk, struct ktls_rx_offload *rxo,
				 u32 seq);
/*
 * RX keys were just installed and the socket runs in software: if the
 * route's device can take them, queue their installation there; RX moves
 * to the device once the driver has them.  Socket locked, process
 * context.
 */
void ktls_device_rx_offer(struct sock *sk, struct ktls_ctx *ctx);
/*
 * Tell the device that the record at TCP sequence @seq is numbered
 * @rec_sn (tls_dev_resync).  Any context, socket owned or in softirq.
 */
void ktls_device_rx_resync(struct sock *sk, struct ktls_ctx *ctx, u32 seq,
			   u64 rec_sn);

/* device.c, the core both directions call */
/*
 * Held for reading around tls_dev_add() and around a direction's move
 * to the device, for writing by the notifier: a device going down sees
 * every socket added to it before, and no socket is added to it after.
 */
extern struct rw_semaphore ktls_device_rwsem;
/* One device per socket for both directions (and KUnit). */
int ktls_device_claim(struct ktls_ctx *ctx, struct net_device *netdev, u8 dir);
void ktls_device_unclaim(struct ktls_ctx *ctx, u8 dir);
struct net_device *ktls_device_of(struct sock *sk);
struct net_device *ktls_device_capable(struct sock *sk, struct ktls_ctx *ctx,
				       netdev_features_t feature);
void ktls_device_fill(struct ktls_ctx *ctx, enum tls_offload_ctx_dir dir);
/* The first offer of either direction: the context is the destructor's. */
void ktls_device_own(struct sock *sk, struct ktls_ctx *ctx);
/* Claim @netdev for @dir and tls_dev_add(); under ktls_device_rwsem. */
int ktls_device_add(struct sock *sk, struct ktls_ctx *ctx,
		    struct net_device *netdev, enum tls_offload_ctx_dir dir,
		    u32 seq);
/* The driver forgets the keys of @dir if it has them.  Process context. */
void ktls_device_forget(struct ktls_ctx *ctx, enum tls_offload_ctx_dir dir);
/* On the core's unbound work queue, which the module's exit drains. */
bool ktls_device_queue(struct work_struct *work);

/**
 * struct ktls_device_install - one tls_dev_add() in flight
 * @work:	runs it, off the syscall path
 * @sk:		the socket, held
 * @netdev:	the device, held
 * @start_seq:	TCP sequence number the device is told it starts at
 * @rekey:	TX keys changed since the socket was on a device: the
 *		fallback takes the new ones too (device_tx_keys.c)
 */
struct ktls_device_install {
	struct work_struct work;
	struct sock *sk;
	struct net_device *netdev;
	u32 start_seq;
	bool rekey;
};

/* Installs (tls_dev_add() in a work item) of either direction. */
struct ktls_device_install *ktls_device_install_new(struct sock *sk,
						    struct ktls_ctx *ctx,
						    netdev_features_t feature);
void ktls_device_install_free(struct ktls_device_install *inst);
void ktls_device_install_queue(struct ktls_device_install *inst,
			       struct sock *sk, work_func_t fn);
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

static inline void ktls_device_tx_rekey(struct sock *sk, struct ktls_ctx *ctx)
{
}

static inline void ktls_device_tx_drained(struct sock *sk, struct ktls_ctx *ctx,
					  u32 seq)
{
}

static inline void ktls_device_rx_rekey(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_rx_offload *rxo = ktls_rx_offload(ctx);

	if (rxo)
		rxo->stale = true;
}

static inline void ktls_device_rx_rekey_framed(struct sock *sk,
					       struct ktls_rx_offload *rxo,
					       u32 seq)
{
}

static inline void ktls_device_tx_resync(struct sock *sk,
					 struct ktls_ctx *ctx, u32 seq,
					 u64 rec_sn)
{
}

static inline void ktls_device_rx_offer(struct sock *sk, struct ktls_ctx *ctx)
{
}

static inline void ktls_device_rx_resync(struct sock *sk, struct ktls_ctx *ctx,
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

/*
 * An skb in device form below the floor is a copy of a record of older
 * keys, which TCP acked: nobody is to encrypt it under the new ones.  The
 * xmit path, any context.
 */
static inline bool ktls_device_tx_stale(const struct ktls_ctx *ctx,
					const struct sk_buff *skb)
{
	const struct ktls_tx_offload_state *txo = &ctx->tx_offload;

	return READ_ONCE(txo->floor_on) &&
	       before(ntohl(tcp_hdr(skb)->seq), READ_ONCE(txo->floor));
}

/*
 * TCP acked up to @acked_seq, past the floor: a copy of an skb sent
 * before it left the qdisc already.  Softirq, or the socket owned.
 */
static inline void ktls_device_tx_floor_acked(struct ktls_ctx *ctx,
					      u32 acked_seq)
{
	struct ktls_tx_offload_state *txo = &ctx->tx_offload;

	if (READ_ONCE(txo->floor_on) && after(acked_seq, txo->floor))
		WRITE_ONCE(txo->floor_on, false);
}

/* device_fallback.c */
int ktls_device_fallback_init(struct ktls_ctx *ctx,
			      struct tls_offload_context_tx *octx);
/* Encrypt one device-form record as the fallback does (KUnit). */
int ktls_device_fb_record(struct ktls_ctx *ctx, u8 *rec, unsigned int len,
			  u64 sn);
struct sk_buff *ktls_device_validate_xmit_sw(struct sock *sk,
					     struct net_device *dev,
					     struct sk_buff *skb);

/* device_rx.c */
struct ktls_rx_offload *ktls_device_rx_alloc(struct ktls_ctx *ctx);
void ktls_device_rx_free(struct ktls_rx_offload *rxo);
/* The resync state of a flow no driver has been given yet. */
void ktls_device_rx_sync_reset(struct ktls_rx_offload *rxo);
/* Bytes [@pos, @pos + @len) of the record came from @skb. */
void ktls_device_rx_mark(struct ktls_rx_offload *rxo, const struct sk_buff *skb,
			 unsigned int pos, unsigned int len);
/*
 * Turn what the device decrypted of the record of @len bytes in @rec back
 * into ciphertext, through @scratch (as large), so that software can
 * decrypt and authenticate the whole record.  Process context.  @rec is
 * written only once that cannot fail any more, and then nothing of it is
 * marked decrypted.
 */
int ktls_device_rx_recover(struct ktls_rx_offload *rxo,
			   const struct ktls_prot *prot, struct page *const *rec,
			   struct page *const *scratch, unsigned int len);
/* The record is done with: the next one, in the device's numbering. */
void ktls_device_rx_next(struct ktls_rx_offload *rxo,
			 const struct ktls_prot *prot, unsigned int len);
/*
 * The record of @len bytes at TCP sequence @seq is framed; @next_in: bytes
 * after it are in TCP already.  True if the device is to be told the
 * record at *@rseq is numbered *@rsn (the three resync modes of
 * enum tls_offload_sync_type).  Socket owned, or softirq.
 */
bool ktls_device_rx_framed(struct ktls_rx_offload *rxo, u32 seq, u32 len,
			   bool next_in, u32 *rseq, u64 *rsn);
/*
 * The device decrypted @dec bytes of that record, all (@dec == @len),
 * some or none.  True if the device is to be told where a record starts
 * (core next hint), as with ktls_device_rx_framed().
 */
bool ktls_device_rx_result(struct ktls_rx_offload *rxo, u32 seq, u32 len,
			   u32 dec, bool next_in, u32 *rseq, u64 *rsn);

#endif /* _KTLS_HS_DEVICE_H */
