/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/bitops.h>: the rotations. */
#ifndef _KTLS_SHIM_LINUX_BITOPS_H
#define _KTLS_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

static inline u64 rol64(u64 word, unsigned int shift)
{
	return (word << (shift & 63)) | (word >> ((-shift) & 63));
}

#endif
