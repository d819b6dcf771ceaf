// SPDX-License-Identifier: GPL-2.0-only
/*
 * TX offload of a socket, from the keys' side: the offer of the TX keys
 * to the route's device (ktls_device_tx_offer(), from setsockopt() or
 * the handshake), their installation in a work item, the TX path's
 * switch to device mode at a record boundary once the driver has them,
 * and the way back to software: the driver forgetting the keys, and the
 * TLS 1.3 key updates that make it forget them and take the new ones.
 * The state is ctx->tx_offload (struct ktls_tx_offload_state); the
 * device itself, its claim and tls_dev_add() are the core's (device.c),
 * the records in device form device_tx.c's, their software encryption
 * device_fallback.c's.
 *
 * struct tlsdev_ops has no call to change a key: the driver forgets the
 * old one (tls_dev_del()) and is given the new one (tls_dev_add()) as
 * for a new socket.  Between the two TX runs in software under the new
 * key at once, as a new socket does.  The device's records of the old
 * key stay on the record list, and the fallback encrypts their
 * retransmissions under the old key, until TCP acked the last of them
 * and the driver's tls_dev_del() of the old key returned.  Then the TX
 * path, at its next record, sets a floor at that record's sequence
 * number, and the install work waits a grace period, keys the fallback
 * and the kernel's context with the new key and calls tls_dev_add().  A
 * copy of an old device-form skb can still sit in a qdisc after its data
 * was acked: below the floor the xmit hooks drop such skbs, whose bytes
 * the peer has, rather than hand them to the device or the fallback
 * under the new key; the floor goes once TCP acks past it, when no such
 * copy can be queued any more (the qdisc keeps a flow's packets in
 * order).  A key update that comes while the previous one is still on
 * its way restarts it with the newest keys.  A device that refuses, or
 * goes, leaves TX in software.
 *
 * The entry points run with the socket locked, in process context; the
 * install and forget work items on the core's work queue.
 */
#include <crypto/aead.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/inet_connection_sock.h>
#include <net/tcp.h>
#include <net/tls.h>

#include "../record/ktls.h"
#include "device.h"

/* A fallback transform was built once: its algorithm is registered. */
static bool ktls_device_fb_built;

/**
 * struct ktls_device_leave - a socket giving its device back
 * @work:	tells the driver, off the syscall path
 * @sk:		the socket, held
 */
struct ktls_device_leave {
	struct work_struct work;
	struct sock *sk;
};

static void ktls_device_leave_work(struct work_struct *work)
{
	struct ktls_device_leave *lv =
		container_of(work, struct ktls_device_leave, work);

	struct ktls_ctx *ctx = ktls_ctx(lv->sk);

	ktls_device_forget(ctx, TLS_OFFLOAD_CTX_DIR_TX);
	/* tls_dev_del() returned: see ktls_device_tx_drained(). */
	smp_mb__before_atomic();
	atomic_dec(&ctx->tx_offload.forgetting);
	sock_put(lv->sk);
	kfree(lv);
}

/*
 * The driver forgets the TX keys, from a work item: the TX path cannot
 * wait for tls_dev_del().  Socket locked, process context.
 */
static void ktls_device_tx_forget(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_device_leave *lv;

	lv = kmalloc(sizeof(*lv), GFP_KERNEL);
	if (!lv) {
		ktls_device_forget(ctx, TLS_OFFLOAD_CTX_DIR_TX);
		return;
	}
	/*
	 * The direction's bit goes before the driver is told: a new key
	 * must not be offered until tls_dev_del() returned, or the work's
	 * del could take the new state the concurrent install just added.
	 */
	atomic_inc(&ctx->tx_offload.forgetting);
	sock_hold(sk);
	lv->sk = sk;
	INIT_WORK(&lv->work, ktls_device_leave_work);
	ktls_device_queue(&lv->work);
}

/* TX to software, records in device form to the fallback; then forget. */
static void ktls_device_tx_leave(struct sock *sk, struct ktls_ctx *ctx)
{
	ctx->base.tx_conf = TLS_SW;
	WRITE_ONCE(ctx->tx_conf, KTLS_CONF_SW);
	/*
	 * Device-form records already built are encrypted by the fallback
	 * from here on, under the keys they were built for; drivers no
	 * longer take the socket's skbs for theirs.
	 */
	WRITE_ONCE(sk->sk_validate_xmit_skb, ktls_device_validate_xmit_sw);
	ktls_stat_add(sk, KTLS_STAT_CURR_TX_DEVICE, -1);
	ktls_stat_inc(sk, KTLS_STAT_CURR_TX_SW);
	ktls_device_tx_forget(sk, ctx);
}

/*
 * What the socket needs once it is on the device: the offload context,
 * where the driver keeps its state and the records wait for their ACK,
 * and the software fallback's transform, which encrypts them if they
 * leave by another device.  Allocated here rather than in setsockopt():
 * the transform's allocation and key schedule cost the caller more than
 * the rest of TLS_TX.  The TX path reads the context only once the work
 * published READY, and the destructor cannot run while the work holds
 * the socket, so no lock is needed to set it.
 */
static int ktls_device_tx_prepare(struct ktls_ctx *ctx)
{
	struct tls_offload_context_tx *octx;
	int err;

	if (ctx->base.priv_ctx_tx)	/* the first offer did it */
		return 0;
	octx = ktls_device_octx_alloc(ctx);
	if (!octx)
		return -ENOMEM;
	err = ktls_device_fallback_init(ctx, octx);
	if (err) {
		kfree(octx);
		return err;
	}
	ctx->base.priv_ctx_tx = octx;	/* the driver's state goes there */
	WRITE_ONCE(ktls_device_fb_built, true);
	return 0;
}

/* The install work, re-keying the fallback; *@start_seq for the driver. */
static int ktls_device_tx_rekey_prepare(struct sock *sk, struct ktls_ctx *ctx,
					u32 *start_seq)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	const struct ktls_cipher *cs;
	const u8 *raw;

	/* Every xmit hook that may not have seen the floor is done. */
	synchronize_net();
	lock_sock(sk);
	if (ctx->dev.closed) {
		release_sock(sk);
		return -ESTALE;
	}
	cs = ctx->prot.cipher;
	ktls_device_fill(ctx, TLS_OFFLOAD_CTX_DIR_TX);
	*start_seq = tcp_sk(sk)->write_seq;
	release_sock(sk);
	clear_bit(TLS_TX_SYNC_SCHED, &ctx->base.flags);
	/* Not built yet: ktls_device_tx_prepare() builds it with these. */
	if (!octx)
		return 0;
	/* Nothing encrypts with it: no skb in device form gets past the hooks. */
	raw = (const u8 *)&ctx->base.crypto_send;
	return crypto_aead_setkey(octx->aead_send, raw + cs->key_off,
				  cs->key_len);
}

/* The install work, keys changed while the driver took the old: @err its. */
static void ktls_device_tx_abandoned(struct sock *sk, struct ktls_ctx *ctx,
				     int err)
{
	/* The driver got the old keys: it forgets them first. */
	if (!err)
		ktls_device_forget(ctx, TLS_OFFLOAD_CTX_DIR_TX);
	/* Not if it refused them, or the device went. */
	WRITE_ONCE(ctx->tx_offload.state,
		   !err || err == -ESTALE ? KTLS_TX_DEV_DRAIN :
					    KTLS_TX_DEV_NONE);
}

/*
 * The driver gets the keys and the sequence numbers the socket had when
 * they were set, as upstream gives them.  If the application sent in
 * software meanwhile, the socket moves to the device later than that;
 * the device then sees its first record ahead of where it was told, as
 * after any loss, and finds its place with tls_get_record() (or asks for
 * a resync): records before the marker are not its own.  If the context
 * cannot be set up the socket simply stays in software.
 */
static void ktls_device_tx_install_work(struct work_struct *work)
{
	struct ktls_device_install *inst =
		container_of(work, struct ktls_device_install, work);
	struct net_device *netdev = inst->netdev;
	struct sock *sk = inst->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);
	int err = -ESTALE;

	if (READ_ONCE(ctx->tx_offload.state) != KTLS_TX_DEV_PENDING)
		goto out;
	/* Before the claim: a notifier may hand TX to the fallback then. */
	err = 0;
	if (inst->rekey)
		err = ktls_device_tx_rekey_prepare(sk, ctx, &inst->start_seq);
	if (!err)
		err = ktls_device_tx_prepare(ctx);
	if (err)
		goto out;
	down_read(&ktls_device_rwsem);
	err = ktls_device_add(sk, ctx, netdev, TLS_OFFLOAD_CTX_DIR_TX,
			      inst->start_seq);
	netdev = NULL;	/* the add took our reference */
	/* The TX path moves over at its next record. */
	if (!err)
		cmpxchg(&ctx->tx_offload.state, KTLS_TX_DEV_PENDING,
			KTLS_TX_DEV_READY);
	up_read(&ktls_device_rwsem);
out:
	if (err)
		cmpxchg(&ctx->tx_offload.state, KTLS_TX_DEV_PENDING,
			KTLS_TX_DEV_NONE);
	/* The keys changed while the driver took them: it takes the next. */
	if (READ_ONCE(ctx->tx_offload.state) == KTLS_TX_DEV_ABANDONED)
		ktls_device_tx_abandoned(sk, ctx, err);
	dev_put(netdev);
	/* May be the last reference: the destructor then frees the rest. */
	sock_put(sk);
	kfree(inst);
}

/*
 * Queue the install of the socket's TX keys.  @rekey: they replace keys
 * a device had before, which it forgot (a key update, see the top of
 * this file); the install work takes them from the socket then, once no
 * skb the fallback would encrypt under the old ones can still be on its
 * way out.  Socket locked, process context.
 */
static void ktls_device_tx_install(struct sock *sk, struct ktls_ctx *ctx,
				   bool rekey)
{
	struct ktls_device_install *inst;

	inst = ktls_device_install_new(sk, ctx, NETIF_F_HW_TLS_TX);
	if (!inst)
		return;
	inst->rekey = rekey;
	if (!rekey) {
		/* Nothing was sent under the keys yet: these are exact. */
		ktls_device_fill(ctx, TLS_OFFLOAD_CTX_DIR_TX);
		/*
		 * The first transform after boot may have to build the
		 * synchronous algorithm, crypto manager self-test included;
		 * every install (and the driver's own allocations) would
		 * wait for it in the work.  The first offer builds it here
		 * instead, as the first software key builds the software
		 * layer's.
		 */
		if (!READ_ONCE(ktls_device_fb_built) &&
		    ktls_device_tx_prepare(ctx))
			goto err_fill;
		inst->start_seq = tcp_sk(sk)->write_seq;
		ktls_device_own(sk, ctx);
	}
	WRITE_ONCE(ctx->tx_offload.state, KTLS_TX_DEV_PENDING);
	ktls_device_install_queue(inst, sk, ktls_device_tx_install_work);
	return;

err_fill:
	memzero_explicit(&ctx->base.crypto_send, sizeof(ctx->base.crypto_send));
	ktls_cctx_wipe(&ctx->base.tx);
	if (!ctx->base.priv_ctx_rx)
		memset(&ctx->base.prot_info, 0, sizeof(ctx->base.prot_info));
	ktls_device_install_free(inst);
}

void ktls_device_tx_offer(struct sock *sk, struct ktls_ctx *ctx)
{
	ktls_device_tx_install(sk, ctx, false);
}

static void ktls_device_tx_reoffer(struct sock *sk, struct ktls_ctx *ctx)
{
	ktls_device_tx_install(sk, ctx, true);
}

void ktls_device_tx_switch(struct sock *sk, struct ktls_ctx *ctx, u32 seq)
{
	struct tls_offload_context_tx *octx;
	bool on = false, again = false;

	if (cmpxchg(&ctx->tx_offload.state, KTLS_TX_DEV_READY,
		    KTLS_TX_DEV_ON) != KTLS_TX_DEV_READY)
		return;
	/* The install work set it before it published READY. */
	octx = tls_offload_ctx_tx(&ctx->base);
	/* Against the notifier: the device is either still there or gone. */
	down_read(&ktls_device_rwsem);
	if ((READ_ONCE(ctx->dev.dirs) & KTLS_DEV_TX) &&
	    !ktls_device_records_start(octx, seq, ctx->tx_crypto.seq)) {
		/* Set since a first time on the device, before a key update. */
		again = ktls_clean_acked_set(sk);
		if (!again)
			ktls_clean_acked_enable(sk, ktls_device_clean_acked);
		ctx->base.tx_conf = TLS_HW;
		WRITE_ONCE(ctx->tx_conf, KTLS_CONF_HW);
		/* Drivers see the socket as offloaded from this store on. */
		smp_store_release(&sk->sk_validate_xmit_skb,
				  tls_validate_xmit_skb);
		on = true;
	}
	up_read(&ktls_device_rwsem);
	if (!on) {
		WRITE_ONCE(ctx->tx_offload.state, KTLS_TX_DEV_NONE);
		return;
	}
	ktls_stat_add(sk, KTLS_STAT_CURR_TX_SW, -1);
	ktls_stat_inc(sk, KTLS_STAT_CURR_TX_DEVICE);
	/* A socket counts once however often its keys change. */
	if (!again)
		ktls_stat_inc(sk, KTLS_STAT_TX_DEVICE);
}

void ktls_device_tx_rekey(struct sock *sk, struct ktls_ctx *ctx)
{
	switch (READ_ONCE(ctx->tx_offload.state)) {
	case KTLS_TX_DEV_PENDING:
		/* The install work sees this at its end (ktls_device_tx_abandoned). */
		if (cmpxchg(&ctx->tx_offload.state, KTLS_TX_DEV_PENDING,
			    KTLS_TX_DEV_ABANDONED) == KTLS_TX_DEV_PENDING)
			return;
		/* It just ended: the driver has the old keys, or nothing. */
		if (READ_ONCE(ctx->tx_offload.state) != KTLS_TX_DEV_READY)
			return;
		fallthrough;
	case KTLS_TX_DEV_READY:
		/* Never handed a record: the driver just forgets the keys. */
		WRITE_ONCE(ctx->tx_offload.state, KTLS_TX_DEV_DRAIN);
		ktls_device_tx_forget(sk, ctx);
		return;
	case KTLS_TX_DEV_ON:
		WRITE_ONCE(ctx->tx_offload.state, KTLS_TX_DEV_DRAIN);
		ktls_device_tx_leave(sk, ctx);
		return;
	}
	/* NONE stays, DRAIN and ABANDONED take the newest keys anyway. */
}

void ktls_device_tx_drained(struct sock *sk, struct ktls_ctx *ctx, u32 seq)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	u8 dirs = READ_ONCE(ctx->dev.dirs);
	unsigned long flags;
	bool empty = true;

	if (dirs & KTLS_DEV_GONE) {
		WRITE_ONCE(ctx->tx_offload.state, KTLS_TX_DEV_NONE);
		return;
	}
	/*
	 * The driver has not forgotten the old keys yet: the bit goes
	 * first, then the work waits for RCU and calls tls_dev_del().  An
	 * install that ran meanwhile would have its new state deleted by
	 * that call, and the device would send its records in the clear.
	 */
	if ((dirs & KTLS_DEV_TX) || atomic_read(&ctx->tx_offload.forgetting))
		return;
	/* None if the keys changed before the first install began. */
	if (octx) {
		spin_lock_irqsave(&octx->lock, flags);
		empty = list_empty(&octx->records_list);
		spin_unlock_irqrestore(&octx->lock, flags);
	}
	if (!empty)
		return;
	/* No skb of the old keys is in device form from @seq on. */
	if (ktls_clean_acked_set(sk)) {
		WRITE_ONCE(ctx->tx_offload.floor, seq);
		WRITE_ONCE(ctx->tx_offload.floor_on, true);
	}
	WRITE_ONCE(ctx->tx_offload.state, KTLS_TX_DEV_NONE);
	ktls_device_tx_reoffer(sk, ctx);
}
