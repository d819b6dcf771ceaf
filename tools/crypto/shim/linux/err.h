/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/err.h>: errors carried in pointers. */
#ifndef _KTLS_SHIM_LINUX_ERR_H
#define _KTLS_SHIM_LINUX_ERR_H

#include <stdbool.h>

#define MAX_ERRNO	4095

static inline void *ERR_PTR(long err)
{
	return (void *)err;
}

static inline long PTR_ERR(const void *p)
{
	return (long)p;
}

static inline bool IS_ERR(const void *p)
{
	return (unsigned long)p >= (unsigned long)-MAX_ERRNO;
}

static inline bool IS_ERR_OR_NULL(const void *p)
{
	return !p || IS_ERR(p);
}

#endif
