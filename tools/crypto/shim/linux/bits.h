/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/bits.h>. */
#ifndef _KTLS_SHIM_LINUX_BITS_H
#define _KTLS_SHIM_LINUX_BITS_H

#define BIT(n)		(1UL << (n))
#define BIT_ULL(n)	(1ULL << (n))

#endif
