/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/slab.h>: libc's allocator. */
#ifndef _KTLS_SHIM_LINUX_SLAB_H
#define _KTLS_SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/string.h>

#define ARCH_KMALLOC_MINALIGN	__alignof__(unsigned long long)

#define GFP_KERNEL	0
#define GFP_ATOMIC	0
#define __GFP_NOWARN	0

#define kmalloc(n, gfp)		malloc(n)
#define kzalloc(n, gfp)		calloc(1, n)
#define kcalloc(n, s, gfp)	calloc(n, s)
#define kmalloc_array(n, s, gfp) calloc(n, s)
#define kvmalloc(n, gfp)	malloc(n)
#define kvzalloc(n, gfp)	calloc(1, n)
#define kfree(p)		free((void *)(p))
#define kvfree(p)		free((void *)(p))

static inline void *kmemdup(const void *src, size_t len, int gfp)
{
	void *p = malloc(len ? len : 1);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline void kfree_sensitive(const void *p)
{
	free((void *)p);
}

static inline void kvfree_sensitive(const void *p, size_t len)
{
	if (p)
		memzero_explicit((void *)p, len);
	free((void *)p);
}

#endif
