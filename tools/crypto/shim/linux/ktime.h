/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/ktime.h>: the clock, as timekeeping.h has it. */
#ifndef _KTLS_SHIM_LINUX_KTIME_H
#define _KTLS_SHIM_LINUX_KTIME_H

#include <linux/timekeeping.h>

#endif
