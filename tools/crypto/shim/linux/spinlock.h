/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/spinlock.h>: one thread, no locking. */
#ifndef _KTLS_SHIM_LINUX_SPINLOCK_H
#define _KTLS_SHIM_LINUX_SPINLOCK_H

typedef struct {
	int unused;
} spinlock_t;

#define spin_lock_bh(l)		((void)(l))
#define spin_unlock_bh(l)	((void)(l))

#endif
