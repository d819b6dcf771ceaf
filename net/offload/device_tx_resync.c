// SPDX-License-Identifier: GPL-2.0-only
/*
 * TX resync: a driver that lost track of the TX stream asks for it
 * (tls_offload_tx_resync_request(), any context), and before the next
 * record the TX path gives it that record's sequence numbers
 * (tls_dev_resync()), socket locked, process context.  Apart from the
 * record list (device_tx.c), which calls it for each record, because
 * only kernels with CONFIG_TLS_DEVICE have the driver's side of it.
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

#include <ktls_hs/compat_net.h>

#include "../record/ktls.h"
#include "device.h"

/*
 * The record must begin an skb of its own, so TCP may not append it to
 * the previous one.
 */
void ktls_device_tx_resync(struct sock *sk, struct ktls_ctx *ctx, u32 seq,
			   u64 rec_sn)
{
	struct net_device *netdev;
	u8 rcd_sn[TLS_MAX_REC_SEQ_SIZE];
	int err = -ENODEV;

	if (!test_bit(TLS_TX_SYNC_SCHED, &ctx->base.flags))
		return;
	ktls_tcp_collapse_fence(sk);
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
