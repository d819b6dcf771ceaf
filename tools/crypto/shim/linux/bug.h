/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace shim: WARN_ON() and friends come with <linux/kernel.h>. */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H
#include <linux/kernel.h>
#endif
