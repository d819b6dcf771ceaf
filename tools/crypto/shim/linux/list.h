/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/list.h>: the type only. */
#ifndef _KTLS_SHIM_LINUX_LIST_H
#define _KTLS_SHIM_LINUX_LIST_H

struct list_head {
	struct list_head *next, *prev;
};

#endif
