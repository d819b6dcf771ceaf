/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/limits.h>: the kernel's U*_MAX names. */
#ifndef _KTLS_SHIM_LINUX_LIMITS_H
#define _KTLS_SHIM_LINUX_LIMITS_H

#include <limits.h>
#include <stdint.h>

#include <linux/types.h>

#define S32_MAX		INT32_MAX

#endif
