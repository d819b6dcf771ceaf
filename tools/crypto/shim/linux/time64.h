/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/time64.h>. */
#ifndef _KTLS_SHIM_LINUX_TIME64_H
#define _KTLS_SHIM_LINUX_TIME64_H

#include <linux/types.h>

typedef s64 time64_t;

#define MSEC_PER_SEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L

#endif
