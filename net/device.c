// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offload setup and teardown: asking the route's device to take a
 * socket's TX or RX keys (tlsdev_ops->tls_dev_add), the destructor that
 * frees an offloaded socket's context once no skb of it can reach a
 * driver any more (tls_device_sk_destruct), and the netdev notifier that
 * moves the sockets of a device going down to software without losing a
 * byte; and the resyncs of both directions.  This file owns the list of
 * offloaded contexts and the lifetime of an offloaded socket's context.
 *
 * A context is on the list from the offload of its first direction until
 * its socket's destructor, which takes it off and queues its freeing to
 * a work item, because tls_dev_del() may sleep and the destructor may run
 * in softirq.  Both directions use one device, the one drivers find in
 * the context.  The notifier holds a reference on the socket while it
 * works on one, so the destructor cannot run under it.
 *
 * The header set is the one of the in-tree file exporting the same
 * symbols: modversions CRCs depend on it (Documentation/offload.rst).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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

#include "ktls.h"
#include "device.h"

/*
 * Held for reading around tls_dev_add(), for writing by the notifier: a
 * device going down sees every socket added to it before, and no socket
 * is added to it after.
 */
static DECLARE_RWSEM(ktls_device_rwsem);
static DEFINE_SPINLOCK(ktls_device_lock);	/* the two lists */
static LIST_HEAD(ktls_device_list);		/* offloaded, device attached */
static LIST_HEAD(ktls_device_gone_list);	/* device went, socket lives */
static struct workqueue_struct *ktls_device_wq;

static void ktls_device_free_work(struct work_struct *work)
{
	struct ktls_ctx *ctx = container_of(work, struct ktls_ctx, device_work);
	struct net_device *netdev;

	/* Off the list: the notifier can no longer clear it under us. */
	netdev = rcu_dereference_protected(ctx->base.netdev, true);
	if (netdev) {
		if (ctx->base.tx_conf == TLS_HW)
			netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base,
							TLS_OFFLOAD_CTX_DIR_TX);
		if (ctx->base.rx_conf == TLS_HW)
			netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base,
							TLS_OFFLOAD_CTX_DIR_RX);
		dev_put(netdev);
	}
	kfree(ctx->base.priv_ctx_tx);
	ktls_device_rx_free(ctx->base.priv_ctx_rx);
	memzero_explicit(&ctx->base.crypto_send, sizeof(ctx->base.crypto_send));
	memzero_explicit(&ctx->base.tx, sizeof(ctx->base.tx));
	memzero_explicit(&ctx->base.crypto_recv, sizeof(ctx->base.crypto_recv));
	memzero_explicit(&ctx->base.rx, sizeof(ctx->base.rx));
	kfree_rcu(ctx, rcu);
	/* The exit path waits for this work before the module goes. */
	module_put(THIS_MODULE);
}

/**
 * tls_device_sk_destruct() - destructor of an offloaded socket
 * @sk:	the socket, which no skb references any more
 *
 * Runs the destructor the socket had, then gives back what TX offload
 * holds: the records, the software fallback's transform and the ACK hook;
 * the driver's state and the context itself go from a work item.
 */
void tls_device_sk_destruct(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	unsigned long flags;

	ctx->base.sk_destruct(sk);
	if (octx) {
		ktls_device_records_free(octx);
		crypto_free_aead(octx->aead_send);
		octx->aead_send = NULL;
		clean_acked_data_disable(inet_csk(sk));
	}

	spin_lock_irqsave(&ktls_device_lock, flags);
	list_del(&ctx->base.list);
	spin_unlock_irqrestore(&ktls_device_lock, flags);
	INIT_WORK(&ctx->device_work, ktls_device_free_work);
	queue_work(ktls_device_wq, &ctx->device_work);
}
EXPORT_SYMBOL_GPL(tls_device_sk_destruct);

/*
 * The record must begin an skb of its own, so TCP may not append it to
 * the previous one.
 */
void ktls_device_resync(struct sock *sk, struct ktls_ctx *ctx, u32 seq,
			u64 rec_sn)
{
	struct net_device *netdev;
	u8 rcd_sn[TLS_MAX_REC_SEQ_SIZE];
	int err = -ENODEV;

	if (!test_bit(TLS_TX_SYNC_SCHED, &ctx->base.flags))
		return;
	tcp_write_collapse_fence(sk);
	put_unaligned_be64(rec_sn, rcd_sn);
	/* The notifier clears netdev, then waits for RCU, then calls del. */
	rcu_read_lock();
	netdev = rcu_dereference(ctx->base.netdev);
	if (netdev)
		dev_hold(netdev);
	rcu_read_unlock();
	if (netdev) {
		err = netdev->tlsdev_ops->tls_dev_resync(netdev, sk, seq, rcd_sn,
							 TLS_OFFLOAD_CTX_DIR_TX);
		dev_put(netdev);
	}
	/* On failure the driver is asked again at the next record. */
	if (!err)
		clear_bit_unlock(TLS_TX_SYNC_SCHED, &ctx->base.flags);
}

/**
 * tls_offload_tx_resync_request() - a driver lost track of the TX stream
 * @sk:		the socket
 * @got_seq:	the sequence number the driver was given
 * @exp_seq:	the one it expected
 *
 * Any context.  Before its next record the socket calls the driver's
 * tls_dev_resync() with that record's sequence numbers; meanwhile
 * tls_offload_tx_resync_pending() is true.
 */
void tls_offload_tx_resync_request(struct sock *sk, u32 got_seq, u32 exp_seq)
{
	struct tls_context *base = tls_get_ctx(sk);

	/* A second request before the first was served is a driver bug. */
	WARN_ON_ONCE(test_and_set_bit(TLS_TX_SYNC_SCHED, &base->flags));
}
EXPORT_SYMBOL_GPL(tls_offload_tx_resync_request);

/* The device the socket's packets leave by: below a bond, its slave. */
static struct net_device *ktls_device_of(struct sock *sk)
{
	struct net_device *dev = NULL;
	struct dst_entry *dst;

	rcu_read_lock();
	dst = __sk_dst_get(sk);
	if (dst) {
		dev = netdev_sk_get_lowest_dev(dst_dev_rcu(dst), sk);
		dev_hold(dev);
	}
	rcu_read_unlock();
	return dev;
}

/* What devices take: AES-GCM, whose key and iv sit in the kernel's union. */
static bool ktls_device_cipher_ok(u16 type)
{
	return type == TLS_CIPHER_AES_GCM_128 || type == TLS_CIPHER_AES_GCM_256;
}

/* The framing of the kernel's context, the same for both directions. */
static void ktls_device_fill_prot(struct ktls_ctx *ctx)
{
	const struct ktls_prot *prot = &ctx->prot;
	const struct ktls_cipher *cs = prot->cipher;
	struct tls_prot_info *pi = &ctx->base.prot_info;

	pi->version = prot->version;
	pi->cipher_type = cs->type;
	pi->prepend_size = prot->prepend_len;
	pi->tag_size = prot->tag_len;
	pi->overhead_size = prot->overhead;
	pi->iv_size = cs->iv_len;
	pi->salt_size = cs->salt_len;
	pi->rec_seq_size = cs->seq_len;
	pi->aad_size = prot->aad_len;
	pi->tail_size = prot->tail_len;
}

/* The fields of the kernel's context drivers read, from our TX keys. */
static void ktls_device_fill_base(struct ktls_ctx *ctx)
{
	const struct ktls_cipher *cs = ctx->prot.cipher;
	const struct ktls_crypto *c = &ctx->tx_crypto;

	ktls_device_fill_prot(ctx);
	memcpy(&ctx->base.crypto_send, &c->info, cs->info_len);
	memcpy(ctx->base.tx.iv, c->iv, cs->salt_len + cs->iv_len);
	put_unaligned_be64(c->seq, ctx->base.tx.rec_seq);
}

/*
 * The first direction offloaded puts the context on the list and the
 * socket under our destructor, and hands over its device reference; the
 * second finds the same device there and drops its own.  Called under
 * ktls_device_rwsem, read.
 */
static void ktls_device_attach(struct sock *sk, struct ktls_ctx *ctx,
			       struct net_device *netdev)
{
	if (rcu_access_pointer(ctx->base.netdev)) {
		dev_put(netdev);
		return;
	}
	/* From here the socket's context outlives the ULP (see the header). */
	__module_get(THIS_MODULE);
	ctx->base.sk = sk;
	rcu_assign_pointer(ctx->base.netdev, netdev);	/* takes our hold */
	spin_lock_irq(&ktls_device_lock);
	list_add_tail(&ctx->base.list, &ktls_device_list);
	spin_unlock_irq(&ktls_device_lock);
	ctx->base.sk_destruct = sk->sk_destruct;
	/* Readers that test for our destructor then read the context. */
	smp_store_release(&sk->sk_destruct, tls_device_sk_destruct);
}

/*
 * Whether the other direction, if offloaded, is on @netdev: a driver
 * keeps one device per context, and one whose device went is done with.
 */
static bool ktls_device_same(struct ktls_ctx *ctx, bool other_hw,
			     struct net_device *netdev)
{
	return !other_hw || rcu_access_pointer(ctx->base.netdev) == netdev;
}

int ktls_device_tx_start(struct sock *sk, struct ktls_ctx *ctx)
{
	struct tls_offload_context_tx *octx;
	struct net_device *netdev;
	int err;

	if (!ktls_device_cipher_ok(ctx->prot.cipher->type))
		return -EOPNOTSUPP;
	netdev = ktls_device_of(sk);
	if (!netdev)
		return -ENODEV;
	err = -EOPNOTSUPP;
	if (!(netdev->features & NETIF_F_HW_TLS_TX) || !netdev->tlsdev_ops)
		goto err_put;

	ktls_device_fill_base(ctx);
	err = -ENOMEM;
	octx = ktls_device_octx_alloc(sk, ctx);
	if (!octx)
		goto err_put;
	err = ktls_device_fallback_init(ctx, octx);
	if (err)
		goto err_octx;

	/* The device starts at a fresh skb: no earlier byte shares one. */
	tcp_write_collapse_fence(sk);
	clean_acked_data_enable(inet_csk(sk), ktls_device_clean_acked);

	down_read(&ktls_device_rwsem);
	/* A device that went down takes no new sockets. */
	err = -ENETDOWN;
	if (!(netdev->flags & IFF_UP))
		goto err_unlock;
	err = -EOPNOTSUPP;
	if (!ktls_device_same(ctx, ctx->base.rx_conf == TLS_HW, netdev))
		goto err_unlock;
	ctx->base.priv_ctx_tx = octx;
	err = netdev->tlsdev_ops->tls_dev_add(netdev, sk, TLS_OFFLOAD_CTX_DIR_TX,
					      &ctx->base.crypto_send.info,
					      tcp_sk(sk)->write_seq);
	if (err)
		goto err_unlock;

	ctx->base.tx_conf = TLS_HW;
	ktls_device_attach(sk, ctx, netdev);
	up_read(&ktls_device_rwsem);

	/* Drivers see the socket as offloaded from this store on. */
	smp_store_release(&sk->sk_validate_xmit_skb, tls_validate_xmit_skb);
	return 0;

err_unlock:
	ctx->base.priv_ctx_tx = NULL;
	up_read(&ktls_device_rwsem);
	clean_acked_data_disable(inet_csk(sk));
	crypto_free_aead(octx->aead_send);
err_octx:
	ktls_device_records_free(octx);
	kfree(octx);
err_put:
	memzero_explicit(&ctx->base.crypto_send, sizeof(ctx->base.crypto_send));
	memzero_explicit(&ctx->base.tx, sizeof(ctx->base.tx));
	if (ctx->base.rx_conf != TLS_HW)
		memset(&ctx->base.prot_info, 0, sizeof(ctx->base.prot_info));
	dev_put(netdev);
	return err;
}

/* The fields of the kernel's context drivers read, from our RX keys. */
static void ktls_device_fill_rx(struct ktls_ctx *ctx)
{
	const struct ktls_cipher *cs = ctx->prot.cipher;
	const struct ktls_crypto *c = &ctx->rx_crypto;

	ktls_device_fill_prot(ctx);
	memcpy(&ctx->base.crypto_recv, &c->info, cs->info_len);
	memcpy(ctx->base.rx.iv, c->iv, cs->salt_len + cs->iv_len);
	put_unaligned_be64(c->seq, ctx->base.rx.rec_seq);
}

/*
 * TLS 1.3 is offered too (upstream offers 1.2 only): the driver reads
 * the version from the crypto info and refuses what it does not do.
 */
int ktls_device_rx_start(struct sock *sk, struct ktls_ctx *ctx, u32 seq)
{
	struct ktls_rx_offload *rxo;
	struct net_device *netdev;
	int err;

	if (!ktls_device_cipher_ok(ctx->prot.cipher->type))
		return -EOPNOTSUPP;
	netdev = ktls_device_of(sk);
	if (!netdev)
		return -ENODEV;
	err = -EOPNOTSUPP;
	if (!(netdev->features & NETIF_F_HW_TLS_RX) || !netdev->tlsdev_ops)
		goto err_put;
	err = -ENOMEM;
	rxo = ktls_device_rx_alloc(ctx);
	if (!rxo)
		goto err_put;
	ktls_device_fill_rx(ctx);

	down_read(&ktls_device_rwsem);
	err = -ENETDOWN;
	if (!(netdev->flags & IFF_UP))
		goto err_unlock;
	err = -EOPNOTSUPP;
	if (!ktls_device_same(ctx, ctx->base.tx_conf == TLS_HW, netdev))
		goto err_unlock;
	/* Drivers set their state and resync mode in it from tls_dev_add(). */
	ctx->base.priv_ctx_rx = rxo;
	err = netdev->tlsdev_ops->tls_dev_add(netdev, sk, TLS_OFFLOAD_CTX_DIR_RX,
					      &ctx->base.crypto_recv.info, seq);
	if (err)
		goto err_unlock;

	ctx->base.rx_conf = TLS_HW;
	ktls_device_attach(sk, ctx, netdev);
	up_read(&ktls_device_rwsem);
	return 0;

err_unlock:
	ctx->base.priv_ctx_rx = NULL;
	up_read(&ktls_device_rwsem);
	ktls_device_rx_free(rxo);
err_put:
	memzero_explicit(&ctx->base.crypto_recv, sizeof(ctx->base.crypto_recv));
	memzero_explicit(&ctx->base.rx, sizeof(ctx->base.rx));
	dev_put(netdev);
	return err;
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

/*
 * @netdev goes down or away: every socket offloaded to it continues in
 * software.  Records keep their device form; the xmit hook now encrypts
 * every skb, retransmissions included, so the stream goes on unchanged.
 * On RX what the device decrypted before is still taken (rx.c), and the
 * rest is decrypted in software; the device is asked for nothing more.
 */
static void ktls_device_down(struct net_device *netdev)
{
	struct ktls_ctx *ctx, *tmp;
	LIST_HEAD(gone);

	down_write(&ktls_device_rwsem);
	spin_lock_irq(&ktls_device_lock);
	list_for_each_entry_safe(ctx, tmp, &ktls_device_list, base.list) {
		/* A socket already dying keeps its state until its destructor. */
		if (rcu_access_pointer(ctx->base.netdev) != netdev ||
		    !refcount_inc_not_zero(&ctx->sk->sk_refcnt))
			continue;
		list_move(&ctx->base.list, &gone);
	}
	spin_unlock_irq(&ktls_device_lock);

	list_for_each_entry_safe(ctx, tmp, &gone, base.list) {
		if (ctx->base.tx_conf == TLS_HW)
			WRITE_ONCE(ctx->sk->sk_validate_xmit_skb,
				   ktls_device_validate_xmit_sw);
		rcu_assign_pointer(ctx->base.netdev, NULL);
		set_bit(TLS_RX_DEV_DEGRADED, &ctx->base.flags);
		/*
		 * No skb of the socket is in the driver's xmit after this,
		 * and no RX resync of ours in the driver.
		 */
		synchronize_net();
		if (ctx->base.tx_conf == TLS_HW)
			netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base,
							TLS_OFFLOAD_CTX_DIR_TX);
		if (ctx->base.rx_conf == TLS_HW)
			netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base,
							TLS_OFFLOAD_CTX_DIR_RX);
		dev_put(netdev);

		spin_lock_irq(&ktls_device_lock);
		list_move_tail(&ctx->base.list, &ktls_device_gone_list);
		spin_unlock_irq(&ktls_device_lock);
		sock_put(ctx->sk);
	}
	up_write(&ktls_device_rwsem);
}

static int ktls_device_event(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (!dev->tlsdev_ops &&
	    !(dev->features & (NETIF_F_HW_TLS_TX | NETIF_F_HW_TLS_RX)))
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_FEAT_CHANGE:
		/* A bond passes its slaves' ops through; it has none itself. */
		if (netif_is_bond_master(dev))
			return NOTIFY_DONE;
		/* Advertising TX offload without the ops to add and del it. */
		if ((dev->features & NETIF_F_HW_TLS_TX) &&
		    (!dev->tlsdev_ops || !dev->tlsdev_ops->tls_dev_add ||
		     !dev->tlsdev_ops->tls_dev_del))
			return notifier_from_errno(-EINVAL);
		/* RX needs the resync on top: devices lose the stream. */
		if ((dev->features & NETIF_F_HW_TLS_RX) &&
		    (!dev->tlsdev_ops || !dev->tlsdev_ops->tls_dev_add ||
		     !dev->tlsdev_ops->tls_dev_del ||
		     !dev->tlsdev_ops->tls_dev_resync))
			return notifier_from_errno(-EINVAL);
		return NOTIFY_DONE;
	case NETDEV_DOWN:
	case NETDEV_UNREGISTER:
		ktls_device_down(dev);
		return NOTIFY_DONE;
	}
	return NOTIFY_DONE;
}

static struct notifier_block ktls_device_notifier = {
	.notifier_call = ktls_device_event,
};

int ktls_device_init(void)
{
	int err;

	ktls_device_wq = alloc_workqueue("ktls_hs_device", 0, 0);
	if (!ktls_device_wq)
		return -ENOMEM;
	err = register_netdevice_notifier(&ktls_device_notifier);
	if (err)
		destroy_workqueue(ktls_device_wq);
	return err;
}

void ktls_device_exit(void)
{
	unregister_netdevice_notifier(&ktls_device_notifier);
	/* Each context held a module reference: all of them are freed. */
	destroy_workqueue(ktls_device_wq);
	clean_acked_data_flush();
}
