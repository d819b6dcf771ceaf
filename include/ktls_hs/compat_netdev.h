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
#include <net/rtnetlink.h>

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

/*
 * rtnl_link_ops.newlink: from 6.15 it takes struct rtnl_newlink_params
 * (the source netns, the attributes and the kind's data); before, those
 * one by one.  ktls_sim_newlink() keeps the 6.15 form: before, the
 * struct is the compat layer's (the fields the driver reads) and
 * KTLS_SIM_NEWLINK_OP names a wrapper of the old form.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
struct rtnl_newlink_params {
	struct net *src_net;
	struct nlattr **tb;
	struct nlattr **data;
};
#endif

int ktls_sim_newlink(struct net_device *dev, struct rtnl_newlink_params *params,
		     struct netlink_ext_ack *extack);

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
static inline int ktls_compat_sim_newlink(struct net *src_net,
					  struct net_device *dev,
					  struct nlattr *tb[],
					  struct nlattr *data[],
					  struct netlink_ext_ack *extack)
{
	struct rtnl_newlink_params params = {
		.src_net = src_net, .tb = tb, .data = data,
	};

	return ktls_sim_newlink(dev, &params, extack);
}

#define KTLS_SIM_NEWLINK_OP	ktls_compat_sim_newlink
#else
#define KTLS_SIM_NEWLINK_OP	ktls_sim_newlink
#endif

#endif /* _KTLS_HS_COMPAT_NETDEV_H */
