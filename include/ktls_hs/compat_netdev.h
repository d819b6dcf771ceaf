/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, driver part: what the simulated offload NIC
 * (drivers/net/ktls_sim.c) needs of net devices and ethtool.  Apart from
 * <ktls_hs/compat_net.h> because <linux/ethtool.h> defines types that
 * change the modversions CRCs of the offload files that export tls.ko's
 * symbols, which include that header.
 */
#ifndef _KTLS_HS_COMPAT_NETDEV_H
#define _KTLS_HS_COMPAT_NETDEV_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/version.h>

/* Lockless transmit: a field of its own from 6.12 (dev->lltx), NETIF_F_LLTX before. */
static inline void ktls_netdev_set_lltx(struct net_device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	dev->lltx = true;
#else
	dev->features |= NETIF_F_LLTX;
#endif
}

/* One ethtool string: ethtool_puts() from 6.8. */
static inline void ktls_ethtool_puts(u8 **data, const char *str)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	ethtool_puts(data, str);
#else
	ethtool_sprintf(data, "%s", str);
#endif
}

#endif /* _KTLS_HS_COMPAT_NETDEV_H */
