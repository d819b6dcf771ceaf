// SPDX-License-Identifier: GPL-2.0-only
/*
 * TLS 1.3 key updates of offloaded sockets.  struct tlsdev_ops has no
 * call to change a key: the driver forgets the old one (tls_dev_del())
 * and is given the new one (tls_dev_add()) as for a new socket.  Between
 * the two the direction runs in software under the new key at once, as
 * a new socket does, and it goes back to the device from a point of the
 * stream where nothing of the old key can be taken for the new:
 *
 * TX: the device's records of the old key stay on the record list, and
 * the fallback encrypts their retransmissions under the old key, until
 * TCP acked the last of them and the driver's tls_dev_del() of the old
 * key returned.  Then the TX path, at its next record, sets a floor at
 * that record's sequence number, and the install work
 * (device.c) waits a grace period, keys the fallback and the kernel's
 * context with the new key and calls tls_dev_add().  A copy of an old
 * device-form skb can still sit in a qdisc after its data was acked:
 * below the floor the xmit hooks drop such skbs, whose bytes the peer
 * has, rather than hand them to the device or the fallback under the
 * new key; the floor goes once TCP acks past it, when no such copy can
 * be queued any more (the qdisc keeps a flow's packets in order).
 *
 * RX: whatever the device decrypted is still recovered with the old key
 * (device_rx.c, "stale").  The work item below deletes the old flow,
 * then notes the right edge of the receive window: the device may have
 * marked bytes below it with the old key, none above.  Once the framer
 * is at a record starting at or past the edge, the flow is added with
 * the new key from the next record on.  So RX runs in software for up to
 * one receive window after each key update.
 *
 * A key update that comes while the previous one is still on its way
 * restarts it with the newest keys.  A device that refuses, or goes,
 * leaves the direction in software.
 */
#include <linux/netdevice.h>
#include <net/tcp.h>
#include <net/tls.h>

#include "ktls.h"
#include "device.h"

/* ---- TX ---- */

void ktls_device_tx_rekey(struct sock *sk, struct ktls_ctx *ctx)
{
	switch (READ_ONCE(ctx->tx_dev)) {
	case KTLS_TX_DEV_PENDING:
		/* The install work sees this at its end (ktls_device_tx_abandoned). */
		if (cmpxchg(&ctx->tx_dev, KTLS_TX_DEV_PENDING,
			    KTLS_TX_DEV_ABANDONED) == KTLS_TX_DEV_PENDING)
			return;
		/* It just ended: the driver has the old keys, or nothing. */
		if (READ_ONCE(ctx->tx_dev) != KTLS_TX_DEV_READY)
			return;
		fallthrough;
	case KTLS_TX_DEV_READY:
		/* Never handed a record: the driver just forgets the keys. */
		WRITE_ONCE(ctx->tx_dev, KTLS_TX_DEV_DRAIN);
		ktls_device_tx_forget(sk, ctx);
		return;
	case KTLS_TX_DEV_ON:
		WRITE_ONCE(ctx->tx_dev, KTLS_TX_DEV_DRAIN);
		ktls_device_tx_leave(sk, ctx);
		return;
	}
	/* NONE stays, DRAIN and ABANDONED take the newest keys anyway. */
}

void ktls_device_tx_abandoned(struct sock *sk, struct ktls_ctx *ctx, int err)
{
	/* The driver got the old keys: it forgets them first. */
	if (!err)
		ktls_device_forget(ctx, TLS_OFFLOAD_CTX_DIR_TX);
	/* Not if it refused them, or the device went. */
	WRITE_ONCE(ctx->tx_dev, !err || err == -ESTALE ? KTLS_TX_DEV_DRAIN :
							  KTLS_TX_DEV_NONE);
}

void ktls_device_tx_drained(struct sock *sk, struct ktls_ctx *ctx, u32 seq)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	u8 dirs = READ_ONCE(ctx->dev_dirs);
	unsigned long flags;
	bool empty = true;

	if (dirs & KTLS_DEV_GONE) {
		WRITE_ONCE(ctx->tx_dev, KTLS_TX_DEV_NONE);
		return;
	}
	/*
	 * The driver has not forgotten the old keys yet: the bit goes
	 * first, then the work waits for RCU and calls tls_dev_del().  An
	 * install that ran meanwhile would have its new state deleted by
	 * that call, and the device would send its records in the clear.
	 */
	if ((dirs & KTLS_DEV_TX) || atomic_read(&ctx->tx_forgetting))
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
	if (inet_csk(sk)->icsk_clean_acked) {
		WRITE_ONCE(ctx->tx_floor, seq);
		WRITE_ONCE(ctx->tx_floor_on, true);
	}
	WRITE_ONCE(ctx->tx_dev, KTLS_TX_DEV_NONE);
	ktls_device_tx_reoffer(sk, ctx);
}

int ktls_device_tx_rekey_prepare(struct sock *sk, struct ktls_ctx *ctx,
				 u32 *start_seq)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	const struct ktls_cipher *cs;
	const u8 *raw;

	/* Every xmit hook that may not have seen the floor is done. */
	synchronize_net();
	lock_sock(sk);
	if (ctx->closed) {
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

/* ---- RX ---- */

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
	if (ctx->rx_conf != KTLS_CONF_HW || ctx->closed)
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
	if (ctx->rx_conf != KTLS_CONF_HW || ctx->closed)
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
	if (ctx->closed) {
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

	if (ctx->closed) {
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
	if (ctx->closed)
		rxo->rekey = KTLS_RX_REKEY_NONE;
	if (rxo->rekey == KTLS_RX_REKEY_DEL)
		ktls_device_rx_rekey_del(sk, ctx, rxo);
	if (rxo->rekey == KTLS_RX_REKEY_ADD)
		ktls_device_rx_rekey_add(sk, ctx, rxo);
	release_sock(sk);
	sock_put(sk);
}

void ktls_device_rx_rekey_init(struct ktls_rx_offload *rxo, struct sock *sk)
{
	rxo->sk = sk;
	INIT_WORK(&rxo->rekey_work, ktls_device_rx_rekey_work);
}
