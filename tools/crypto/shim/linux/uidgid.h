/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/uidgid.h>. */
#ifndef _KTLS_SHIM_LINUX_UIDGID_H
#define _KTLS_SHIM_LINUX_UIDGID_H

#include <linux/types.h>

typedef struct {
	u32 val;
} kuid_t;

#endif
