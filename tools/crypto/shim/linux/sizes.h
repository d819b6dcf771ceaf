/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/sizes.h>. */
#ifndef _KTLS_SHIM_LINUX_SIZES_H
#define _KTLS_SHIM_LINUX_SIZES_H

#define SZ_1K	0x400
#define SZ_2K	0x800
#define SZ_4K	0x1000
#define SZ_8K	0x2000
#define SZ_16K	0x4000
#define SZ_32K	0x8000
#define SZ_64K	0x10000

#endif
