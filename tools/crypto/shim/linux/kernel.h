/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/kernel.h> as the parsers and the
 * handshake use it: the helper macros, and printk that prints nothing.
 */
#ifndef _KTLS_SHIM_LINUX_KERNEL_H
#define _KTLS_SHIM_LINUX_KERNEL_H

#include <assert.h>
#include <stdlib.h>
#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <linux/minmax.h>
#include <linux/math.h>
#include <linux/limits.h>
#include <linux/overflow.h>

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define WARN_ON(c)		({ int __c = !!(c); if (__c) abort(); __c; })
#define WARN_ON_ONCE(c)		WARN_ON(c)
#define BUG_ON(c)		do { if (c) abort(); } while (0)
#define container_of(p, t, m)	((t *)((char *)(p) - offsetof(t, m)))
#define fallthrough		__attribute__((__fallthrough__))
#define __packed		__attribute__((__packed__))
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define noinline		__attribute__((__noinline__))
#define noinline_for_stack	noinline
#define KBUILD_MODNAME		"ktls_hs"

#define pr_err(...)		do { } while (0)
#define pr_warn(...)		do { } while (0)
#define pr_info(...)		do { } while (0)
#define pr_debug(...)		do { } while (0)
#define pr_err_ratelimited(...)	do { } while (0)
#define pr_warn_ratelimited(...) do { } while (0)

#endif
