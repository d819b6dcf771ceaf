/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/rcupdate.h>: one thread, no grace periods. */
#ifndef _KTLS_SHIM_LINUX_RCUPDATE_H
#define _KTLS_SHIM_LINUX_RCUPDATE_H

#include <linux/slab.h>

struct rcu_head {
	void *next;
};

#define kfree_rcu(p, field)	kfree(p)

#endif
