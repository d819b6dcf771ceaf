/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/minmax.h>. */
#ifndef _KTLS_SHIM_LINUX_MINMAX_H
#define _KTLS_SHIM_LINUX_MINMAX_H

#define min(a, b)	({ __auto_type __a = (a); __auto_type __b = (b); __a < __b ? __a : __b; })
#define max(a, b)	({ __auto_type __a = (a); __auto_type __b = (b); __a > __b ? __a : __b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	clamp((t)(v), (t)(lo), (t)(hi))

#endif
