/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/math.h>. */
#ifndef _KTLS_SHIM_LINUX_MATH_H
#define _KTLS_SHIM_LINUX_MATH_H

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_up(x, y)		((((x) - 1) | ((y) - 1)) + 1)
#define round_down(x, y)	((x) & ~((y) - 1))
#define ALIGN(x, a)		round_up(x, a)
#define IS_ALIGNED(x, a)	(((x) & ((typeof(x))(a) - 1)) == 0)

#endif
