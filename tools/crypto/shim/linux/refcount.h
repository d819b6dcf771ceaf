/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/refcount.h>: one thread, a plain count. */
#ifndef _KTLS_SHIM_LINUX_REFCOUNT_H
#define _KTLS_SHIM_LINUX_REFCOUNT_H

#include <stdbool.h>

typedef struct {
	int refs;
} refcount_t;

static inline void refcount_set(refcount_t *r, int n)
{
	r->refs = n;
}

static inline void refcount_inc(refcount_t *r)
{
	r->refs++;
}

static inline bool refcount_dec_and_test(refcount_t *r)
{
	return --r->refs == 0;
}

#endif
