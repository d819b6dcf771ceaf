// SPDX-License-Identifier: GPL-2.0-only
/*
 * RX offload of a socket, from the keys' side: the offer of the RX keys
 * to the route's device (ktls_device_rx_offer(), from setsockopt() or
 * the handshake), their installation in a work item, the resyncs the
 * framer sends the driver (ktls_device_rx_resync()), and the TLS 1.3 key
 * updates.  The device itself, its claim and tls_dev_add() are the
 * core's (device.c); what the device decrypted, and the recovery of what
 * it decrypted in part, device_rx.c's.
 *
 * struct tlsdev_ops has no call to change a key: the driver forgets the
 * old one (tls_dev_del()) and is given the new one (tls_dev_add()) as
 * for a new socket, and in between RX runs in software under the new key
 * at once.  Whatever the device decrypted is still recovered with the
 * old key (device_rx.c, "stale").  The rekey work item deletes the old
 * flow, then notes the right edge of the receive window: the device may
 * have marked bytes below it with the old key, none above.  Once the
 * framer is at a record starting at or past the edge, the flow is added
 * with the new key from the next record on.  So RX runs in software for
 * up to one receive window after each key update.  A key update that
 * comes while the previous one is still on its way restarts it with the
 * newest keys.  A device that refuses, or goes, leaves RX in software.
 *
 * The entry points run with the socket owned, or in softirq on a socket
 * no user owns (the resync, under RCU); the install and rekey work items
 * on the core's work queue take the socket lock.
 */
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <net/tcp.h>
#include <net/tls.h>

#include "../record/ktls.h"
#include "device.h"

/*
 * Give the driver the RX keys in the kernel's context, for the record
 * at TCP sequence @seq.  Takes over the reference on @netdev.  Process
 * context, socket not locked (drivers may sleep, and look the socket up).
 */
static int ktls_device_rx_add(struct sock *sk, struct ktls_ctx *ctx,
			      struct net_device *netdev, u32 seq)
{
	int err;

	down_read(&ktls_device_rwsem);
	err = ktls_device_add(sk, ctx, netdev, TLS_OFFLOAD_CTX_DIR_RX, seq);
	up_read(&ktls_device_rwsem);
	return err;
}

/* Under the socket lock, or in softirq on a socket no user owns. */
static void ktls_device_rx_rekey_queue(struct sock *sk,
				       struct ktls_rx_offload *rxo, u8 state)
{
	rxo->rekey = state;
	sock_hold(sk);
	if (!ktls_device_queue(&rxo->rekey_work))
		sock_put(sk);
}

void ktls_device_rx_rekey(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_rx_offload *rxo = ktls_rx_offload(ctx);

	if (!rxo)
		return;
	/* What the device marked from here on is of the old key. */
	rxo->stale = true;
	/* An install in flight starts this when it is done. */
	if (ctx->rx_conf != KTLS_CONF_HW || ctx->dev.closed)
		return;
	ktls_device_rx_rekey_queue(sk, rxo, KTLS_RX_REKEY_DEL);
}

void ktls_device_rx_rekey_framed(struct sock *sk, struct ktls_rx_offload *rxo,
				 u32 seq)
{
	if (!before(seq, rxo->rekey_edge))
		ktls_device_rx_rekey_queue(sk, rxo, KTLS_RX_REKEY_ADD);
}

/*
 * The device has no RX keys of the socket: RX stays in software.  A
 * socket closed meanwhile was taken out of the counters already.
 */
static void ktls_device_rx_sw(struct sock *sk, struct ktls_ctx *ctx,
			      struct ktls_rx_offload *rxo)
{
	rxo->stale = true;
	rxo->rekey = KTLS_RX_REKEY_NONE;
	if (ctx->rx_conf != KTLS_CONF_HW || ctx->dev.closed)
		return;
	ctx->base.rx_conf = TLS_SW;
	WRITE_ONCE(ctx->rx_conf, KTLS_CONF_SW);
	ktls_stat_add(sk, KTLS_STAT_CURR_RX_DEVICE, -1);
	ktls_stat_inc(sk, KTLS_STAT_CURR_RX_SW);
}

/* The old flow is gone: from where may the device decrypt again. */
static void ktls_device_rx_rekey_del(struct sock *sk, struct ktls_ctx *ctx,
				     struct ktls_rx_offload *rxo)
{
	struct tcp_sock *tp = tcp_sk(sk);

	/* Nothing to delete after a device went, or a key update before. */
	release_sock(sk);
	ktls_device_forget(ctx, TLS_OFFLOAD_CTX_DIR_RX);
	lock_sock(sk);
	/* A newer key update is queued: it starts over. */
	if (rxo->rekey != KTLS_RX_REKEY_DEL)
		return;
	/* Closed: RX state is gone, the destructor deletes what is left. */
	if (ctx->dev.closed) {
		ktls_device_rx_sw(sk, ctx, rxo);
		return;
	}
	rxo->rekey_edge = tp->rcv_nxt + tcp_receive_window(tp);
	rxo->rekey = KTLS_RX_REKEY_EDGE;
	if (!before(ktls_rx_next_seq(sk), rxo->rekey_edge))
		rxo->rekey = KTLS_RX_REKEY_ADD;
}

static void ktls_device_rx_rekey_add(struct sock *sk, struct ktls_ctx *ctx,
				     struct ktls_rx_offload *rxo)
{
	struct net_device *netdev;
	int err;
	u32 seq;

	if (ctx->dev.closed) {
		ktls_device_rx_sw(sk, ctx, rxo);
		return;
	}
	netdev = ktls_device_capable(sk, ctx, NETIF_F_HW_TLS_RX);
	if (!netdev) {
		ktls_device_rx_sw(sk, ctx, rxo);
		return;
	}
	ktls_crypto_release(&rxo->dev_crypto);
	err = ktls_crypto_copy(&rxo->dev_crypto, ctx->prot.cipher,
			       &ctx->rx_crypto);
	if (err) {
		dev_put(netdev);
		ktls_device_rx_sw(sk, ctx, rxo);
		return;
	}
	/* The driver sets its resync mode again; the old one's state went. */
	ktls_device_rx_sync_reset(rxo);
	ktls_device_fill(ctx, TLS_OFFLOAD_CTX_DIR_RX);
	seq = ktls_rx_next_seq(sk);
	rxo->stale = false;
	rxo->rekey = KTLS_RX_REKEY_NONE;
	release_sock(sk);

	err = ktls_device_rx_add(sk, ctx, netdev, seq);
	lock_sock(sk);
	/* A key update meanwhile queued the work again: it deletes this. */
	if (err && rxo->rekey == KTLS_RX_REKEY_NONE)
		ktls_device_rx_sw(sk, ctx, rxo);
	else if (err)
		rxo->stale = true;
}

static void ktls_device_rx_rekey_work(struct work_struct *work)
{
	struct ktls_rx_offload *rxo =
		container_of(work, struct ktls_rx_offload, rekey_work);
	struct sock *sk = rxo->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);

	lock_sock(sk);
	if (ctx->dev.closed)
		rxo->rekey = KTLS_RX_REKEY_NONE;
	if (rxo->rekey == KTLS_RX_REKEY_DEL)
		ktls_device_rx_rekey_del(sk, ctx, rxo);
	if (rxo->rekey == KTLS_RX_REKEY_ADD)
		ktls_device_rx_rekey_add(sk, ctx, rxo);
	release_sock(sk);
	sock_put(sk);
}

static void ktls_device_rx_rekey_init(struct ktls_rx_offload *rxo,
				      struct sock *sk)
{
	rxo->sk = sk;
	INIT_WORK(&rxo->rekey_work, ktls_device_rx_rekey_work);
}

/* RX is on the device: the socket counts as offloaded from here on. */
static void ktls_device_rx_on(struct sock *sk, struct ktls_ctx *ctx)
{
	ctx->base.rx_conf = TLS_HW;
	WRITE_ONCE(ctx->rx_conf, KTLS_CONF_HW);
	ktls_stat_add(sk, KTLS_STAT_CURR_RX_SW, -1);
	ktls_stat_inc(sk, KTLS_STAT_RX_DEVICE);
	ktls_stat_inc(sk, KTLS_STAT_CURR_RX_DEVICE);
}

/*
 * The driver has not taken the keys: RX stays in software.  Socket
 * locked.  A socket closed meanwhile keeps its state for the destructor.
 */
static void ktls_device_rx_drop(struct ktls_ctx *ctx)
{
	if (ctx->dev.closed)
		return;
	ktls_device_rx_free(ctx->base.priv_ctx_rx);
	ctx->base.priv_ctx_rx = NULL;
	memzero_explicit(&ctx->base.crypto_recv, sizeof(ctx->base.crypto_recv));
	memzero_explicit(&ctx->base.rx, sizeof(ctx->base.rx));
}

/*
 * RX moves to the device while the socket goes on in software.  Its RX
 * offload state is in place, under the socket lock, before the driver
 * has the keys, so whatever the device marks decrypted from then on is
 * taken as such.  The device is told the record the socket frames next
 * and its number; records that passed it before it had the keys come up
 * as ciphertext, are decrypted in software, and the device finds the
 * stream after them as after a loss, by a resync.  A key update on the
 * way is caught like any other (the offload state goes stale).
 *
 * TLS 1.3 is offered too (upstream offers 1.2 only): the driver reads the
 * version from the crypto info and refuses what it does not do.
 */
static void ktls_device_rx_install_work(struct work_struct *work)
{
	struct ktls_device_install *inst =
		container_of(work, struct ktls_device_install, work);
	struct net_device *netdev = inst->netdev;
	struct sock *sk = inst->sk;
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_rx_offload *rxo;
	int err = -ESTALE;
	u32 seq;

	lock_sock(sk);
	if (ctx->dev.closed)
		goto out_unlock;
	err = -ENOMEM;
	rxo = ktls_device_rx_alloc(ctx);
	if (!rxo)
		goto out_unlock;
	ktls_device_rx_rekey_init(rxo, sk);
	ktls_device_fill(ctx, TLS_OFFLOAD_CTX_DIR_RX);
	seq = ktls_rx_next_seq(sk);
	ctx->base.priv_ctx_rx = rxo;
	release_sock(sk);

	err = ktls_device_rx_add(sk, ctx, netdev, seq);
	netdev = NULL;	/* the add took our reference */

	lock_sock(sk);
	if (err) {
		ktls_device_rx_drop(ctx);
	} else if (!ctx->dev.closed) {
		ktls_device_rx_on(sk, ctx);
		/* The keys changed while the driver took them. */
		if (rxo->stale)
			ktls_device_rx_rekey(sk, ctx);
	}
out_unlock:
	release_sock(sk);
	dev_put(netdev);
	/* May be the last reference: the destructor then frees the rest. */
	sock_put(sk);
	kfree(inst);
}

void ktls_device_rx_offer(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_device_install *inst;

	inst = ktls_device_install_new(sk, ctx, NETIF_F_HW_TLS_RX);
	if (!inst)
		return;
	ktls_device_own(sk, ctx);
	ktls_device_install_queue(inst, sk, ktls_device_rx_install_work);
}

/*
 * Under RCU, as tls.ko calls it: drivers answer from their RX path and
 * may not sleep here.  The notifier clears netdev, then waits for RCU,
 * then calls tls_dev_del(), so no resync reaches a deleted flow.
 */
void ktls_device_rx_resync(struct sock *sk, struct ktls_ctx *ctx, u32 seq,
			   u64 rec_sn)
{
	struct net_device *netdev;
	u8 rcd_sn[TLS_MAX_REC_SEQ_SIZE];

	put_unaligned_be64(rec_sn, rcd_sn);
	rcu_read_lock();
	netdev = rcu_dereference(ctx->base.netdev);
	if (netdev && !test_bit(TLS_RX_DEV_DEGRADED, &ctx->base.flags)) {
		netdev->tlsdev_ops->tls_dev_resync(netdev, sk, seq, rcd_sn,
						   TLS_OFFLOAD_CTX_DIR_RX);
		ktls_stat_inc(sk, KTLS_STAT_RX_DEVICE_RESYNC);
	}
	rcu_read_unlock();
}
