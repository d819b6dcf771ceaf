// SPDX-License-Identifier: GPL-2.0-only
/*
 * The offload core, shared by both directions: which device a socket's
 * packets leave by and whether it takes the socket's keys, the claim of
 * that one device for a direction and tls_dev_add() under it, the driver
 * forgetting a direction (tls_dev_del()), the destructor that frees an
 * offloaded socket's context once no skb of it can reach a driver any
 * more (tls_device_sk_destruct), the work queue the installs and the
 * freeing run on, and the netdev notifier that moves the sockets of a
 * device going down to software without losing a byte.  This file owns
 * the list of offloaded contexts and the lifetime of an offloaded
 * socket's context.  When each direction goes to the device and back is
 * device_tx_keys.c's and device_rx_keys.c's business: they call in here,
 * nothing here calls them.
 *
 * Both directions use one device, the one drivers find in the context:
 * the first direction to claim a device puts the context on the list and
 * hands it its reference, the other must claim the same.  The context
 * stays on a list until its socket's destructor, which takes it off and
 * queues its freeing to a work item, because tls_dev_del() may sleep and
 * the destructor may run in softirq.  The notifier holds a reference on
 * the socket while it works on one, so the destructor cannot run under
 * it.  The destructor runs in any context, the notifier under RTNL, the
 * rest in process context.
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
#include <kunit/visibility.h>

#include "../record/ktls.h"
#include "device.h"

/*
 * Held for reading around tls_dev_add(), for writing by the notifier: a
 * device going down sees every socket added to it before, and no socket
 * is added to it after.
 */
DECLARE_RWSEM(ktls_device_rwsem);
static DEFINE_SPINLOCK(ktls_device_lock);	/* the two lists */
static LIST_HEAD(ktls_device_list);		/* offloaded, device attached */
static LIST_HEAD(ktls_device_gone_list);	/* device went, socket lives */
static struct workqueue_struct *ktls_device_wq;

/* Tell the driver to forget the directions @dirs of the socket. */
static void ktls_device_del(struct net_device *netdev, struct ktls_ctx *ctx,
			    u8 dirs)
{
	if (dirs & KTLS_DEV_TX)
		netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base,
						TLS_OFFLOAD_CTX_DIR_TX);
	if (dirs & KTLS_DEV_RX)
		netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base,
						TLS_OFFLOAD_CTX_DIR_RX);
}

static void ktls_device_free_work(struct work_struct *work)
{
	struct ktls_ctx *ctx = container_of(work, struct ktls_ctx,
					    dev.free_work);
	struct net_device *netdev;

	/*
	 * No lock, because no writer can reach the context any more: the
	 * claim and unclaim run for a socket somebody holds (a syscall, or
	 * a work item with its own reference), so before the destructor
	 * that queued us; the notifier takes only contexts on
	 * ktls_device_list, off which the destructor took this one under
	 * ktls_device_lock, and holds the socket of any it took before.
	 * Being that work item is the condition.
	 */
	netdev = rcu_dereference_protected(ctx->base.netdev,
					   current_work() == work);
	if (netdev) {
		ktls_device_del(netdev, ctx, ctx->dev.dirs);
		dev_put(netdev);
	}
	kfree(ctx->base.priv_ctx_tx);
	ktls_device_rx_free(ctx->base.priv_ctx_rx);
	memzero_explicit(&ctx->base.crypto_send, sizeof(ctx->base.crypto_send));
	ktls_cctx_wipe(&ctx->base.tx);
	memzero_explicit(&ctx->base.crypto_recv, sizeof(ctx->base.crypto_recv));
	ktls_cctx_wipe(&ctx->base.rx);
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
	/* None where only RX was offered. */
	if (octx) {
		ktls_device_records_free(octx);
		crypto_free_aead(octx->aead_send);
		octx->aead_send = NULL;
		/* Set only if the socket moved to the device. */
		if (ktls_clean_acked_set(sk))
			ktls_clean_acked_disable(sk);
	}

	spin_lock_irqsave(&ktls_device_lock, flags);
	list_del(&ctx->base.list);
	spin_unlock_irqrestore(&ktls_device_lock, flags);
	INIT_WORK(&ctx->dev.free_work, ktls_device_free_work);
	queue_work(ktls_device_wq, &ctx->dev.free_work);
}
EXPORT_SYMBOL_GPL(tls_device_sk_destruct);

/* The device the socket's packets leave by: below a bond, its slave. */
struct net_device *ktls_device_of(struct sock *sk)
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

/*
 * The fields of the kernel's context drivers read, from our keys of
 * direction @dir as they stand now.  The crypto info is the one the keys
 * were set with, but for its record number: drivers take that of the
 * record at the sequence number tls_dev_add() gives them from there, and
 * the socket may have gone through records in software since.
 */
void ktls_device_fill(struct ktls_ctx *ctx, enum tls_offload_ctx_dir dir)
{
	bool tx = dir == TLS_OFFLOAD_CTX_DIR_TX;
	const struct ktls_cipher *cs = ctx->prot.cipher;
	const struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	struct cipher_context *cc = tx ? &ctx->base.tx : &ctx->base.rx;
	u8 *info = (u8 *)(tx ? &ctx->base.crypto_send : &ctx->base.crypto_recv);

	ktls_device_fill_prot(ctx);
	ktls_cctx_bind(cc, &ctx->compat, tx);
	memcpy(info, &c->info, cs->info_len);
	put_unaligned_be64(c->seq, info + cs->seq_off);
	memcpy(cc->iv, c->iv, cs->salt_len + cs->iv_len);
	put_unaligned_be64(c->seq, cc->rec_seq);
}

/*
 * From the first offer of either direction on, drivers may read the
 * socket's context: it lives until the socket's destructor, which we
 * chain in front of the socket's own.  Socket locked.
 */
void ktls_device_own(struct sock *sk, struct ktls_ctx *ctx)
{
	if (ctx->base.sk_destruct)
		return;
	__module_get(THIS_MODULE);
	ctx->base.sk = sk;
	INIT_LIST_HEAD(&ctx->base.list);
	ctx->base.sk_destruct = sk->sk_destruct;
	/* Readers that test for our destructor then read the context. */
	smp_store_release(&sk->sk_destruct, tls_device_sk_destruct);
}

/*
 * Direction @dir is about to be added to @netdev: a driver keeps one
 * device per context, so the first direction puts the context on the
 * list with @netdev, and the other must be on the same one.  Takes over
 * the caller's reference on @netdev, whatever the outcome.  Under
 * ktls_device_rwsem, read, so that no notifier runs before the add.
 */
int ktls_device_claim(struct ktls_ctx *ctx, struct net_device *netdev, u8 dir)
{
	struct net_device *cur;
	int err = 0;

	spin_lock_irq(&ktls_device_lock);
	cur = rcu_dereference_protected(ctx->base.netdev,
					lockdep_is_held(&ktls_device_lock));
	if (ctx->dev.dirs & KTLS_DEV_GONE) {
		err = -ENETDOWN;
	} else if (!cur) {
		rcu_assign_pointer(ctx->base.netdev, netdev);
		list_move_tail(&ctx->base.list, &ktls_device_list);
		netdev = NULL;	/* the context's reference now */
	} else if (cur != netdev) {
		err = -EOPNOTSUPP;
	}
	if (!err)
		WRITE_ONCE(ctx->dev.dirs, ctx->dev.dirs | dir);
	spin_unlock_irq(&ktls_device_lock);
	dev_put(netdev);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_claim);

/*
 * The driver does not hold @dir (any more): the last direction gives the
 * device back.  Under ktls_device_rwsem, read.
 */
void ktls_device_unclaim(struct ktls_ctx *ctx, u8 dir)
{
	struct net_device *netdev = NULL;

	spin_lock_irq(&ktls_device_lock);
	WRITE_ONCE(ctx->dev.dirs, ctx->dev.dirs & ~dir);
	if (!(ctx->dev.dirs & KTLS_DEV_DIRS)) {
		netdev = rcu_dereference_protected(ctx->base.netdev,
						   lockdep_is_held(&ktls_device_lock));
		rcu_assign_pointer(ctx->base.netdev, NULL);
		list_del_init(&ctx->base.list);
	}
	spin_unlock_irq(&ktls_device_lock);
	dev_put(netdev);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_unclaim);

/*
 * The route's device, held, if it is up and takes keys of the socket's
 * suite in the direction of @feature (NETIF_F_HW_TLS_TX or _RX).
 */
struct net_device *ktls_device_capable(struct sock *sk, struct ktls_ctx *ctx,
				       netdev_features_t feature)
{
	struct net_device *netdev;

	if (!ktls_device_cipher_ok(ctx->prot.cipher->type))
		return NULL;
	netdev = ktls_device_of(sk);
	if (netdev && (!(netdev->features & feature) ||
		       !netdev->tlsdev_ops || !(netdev->flags & IFF_UP))) {
		dev_put(netdev);
		netdev = NULL;
	}
	return netdev;
}

/*
 * Give the driver the keys of direction @dir in the kernel's context,
 * for the record at TCP sequence @seq, on @netdev unless it went down
 * (it takes no new sockets then).  Takes over the caller's reference on
 * @netdev, whatever the outcome.  Process context, socket not locked
 * (drivers may sleep, and look the socket up).
 */
int ktls_device_add(struct sock *sk, struct ktls_ctx *ctx,
		    struct net_device *netdev, enum tls_offload_ctx_dir dir,
		    u32 seq)
{
	struct tls_crypto_info *info = dir == TLS_OFFLOAD_CTX_DIR_TX ?
				       &ctx->base.crypto_send.info :
				       &ctx->base.crypto_recv.info;
	struct net_device *dev;
	int err;

	lockdep_assert_held_read(&ktls_device_rwsem);
	if (!(netdev->flags & IFF_UP)) {
		dev_put(netdev);
		return -ENETDOWN;
	}
	err = ktls_device_claim(ctx, netdev, BIT(dir));
	if (err)
		return err;
	/*
	 * Our claim holds it: the notifier waits for the rwsem we hold,
	 * and the other direction's claim or unclaim leaves it as it is
	 * while our bit is set.  Drivers set their state (and RX resync
	 * mode) from here.
	 */
	dev = rcu_dereference_protected(ctx->base.netdev,
					lockdep_is_held(&ktls_device_rwsem) &&
					(READ_ONCE(ctx->dev.dirs) & BIT(dir)));
	err = dev->tlsdev_ops->tls_dev_add(dev, sk, dir, info, seq);
	if (err)
		ktls_device_unclaim(ctx, BIT(dir));
	return err;
}

/*
 * Whoever clears the direction's bit tells the driver.  The other
 * direction, if offloaded, stays on the device and keeps the context's
 * reference; this one holds its own until tls_dev_del().
 */
void ktls_device_forget(struct ktls_ctx *ctx, enum tls_offload_ctx_dir dir)
{
	struct net_device *netdev = NULL;
	u8 bit = BIT(dir);

	/* The notifier holds it for writing while it takes sockets off. */
	down_read(&ktls_device_rwsem);
	spin_lock_irq(&ktls_device_lock);
	if (ctx->dev.dirs & bit) {
		netdev = rcu_dereference_protected(ctx->base.netdev,
						   lockdep_is_held(&ktls_device_lock));
		dev_hold(netdev);
	}
	spin_unlock_irq(&ktls_device_lock);
	if (netdev)
		ktls_device_unclaim(ctx, bit);
	up_read(&ktls_device_rwsem);
	if (!netdev)
		return;
	/*
	 * No skb of the socket is in the driver's xmit after this, and no
	 * RX resync of ours in the driver.
	 */
	synchronize_net();
	netdev->tlsdev_ops->tls_dev_del(netdev, &ctx->base, dir);
	dev_put(netdev);
}

bool ktls_device_queue(struct work_struct *work)
{
	return queue_work(ktls_device_wq, work);
}

/*
 * An install for the socket's keys in the direction of @feature
 * (NETIF_F_HW_TLS_TX or _RX), holding the route's device, or NULL if
 * that device cannot take them.  Process context.
 */
struct ktls_device_install *ktls_device_install_new(struct sock *sk,
						    struct ktls_ctx *ctx,
						    netdev_features_t feature)
{
	struct ktls_device_install *inst;
	struct net_device *netdev;

	netdev = ktls_device_capable(sk, ctx, feature);
	if (!netdev)
		return NULL;
	inst = kzalloc(sizeof(*inst), GFP_KERNEL);
	if (!inst) {
		dev_put(netdev);
		return NULL;
	}
	inst->netdev = netdev;
	return inst;
}

/* An install given up before it was queued. */
void ktls_device_install_free(struct ktls_device_install *inst)
{
	dev_put(inst->netdev);
	kfree(inst);
}

/*
 * Run @fn on @inst off the syscall path.  Holds @sk for it: @fn gives
 * the socket and the device back, and frees @inst.
 */
void ktls_device_install_queue(struct ktls_device_install *inst,
			       struct sock *sk, work_func_t fn)
{
	sock_hold(sk);
	inst->sk = sk;
	INIT_WORK(&inst->work, fn);
	queue_work(ktls_device_wq, &inst->work);
}

/*
 * @netdev goes down or away: every socket offloaded to it continues in
 * software.  Records keep their device form; the xmit hook now encrypts
 * every skb, retransmissions included, so the stream goes on unchanged.
 * On RX what the device decrypted before is still taken (rx.c), and the
 * rest is decrypted in software; the device is asked for nothing more,
 * and neither it nor another takes the socket again.
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
		u8 dirs;

		spin_lock_irq(&ktls_device_lock);
		dirs = ctx->dev.dirs;
		WRITE_ONCE(ctx->dev.dirs, KTLS_DEV_GONE);
		rcu_assign_pointer(ctx->base.netdev, NULL);
		spin_unlock_irq(&ktls_device_lock);
		if (dirs & KTLS_DEV_TX)
			WRITE_ONCE(ctx->sk->sk_validate_xmit_skb,
				   ktls_device_validate_xmit_sw);
		set_bit(TLS_RX_DEV_DEGRADED, &ctx->base.flags);
		/*
		 * No skb of the socket is in the driver's xmit after this,
		 * and no RX resync of ours in the driver.
		 */
		synchronize_net();
		ktls_device_del(netdev, ctx, dirs);
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

	/*
	 * Unbound: an install queued from setsockopt() or a handshake would
	 * otherwise wake a worker on the caller's CPU, which then runs the
	 * driver's tls_dev_add() before the caller is back in userspace.
	 */
	ktls_device_wq = alloc_workqueue("ktls_hs_device", WQ_UNBOUND, 0);
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
