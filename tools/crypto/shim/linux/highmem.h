/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/highmem.h> as net/record/record.c uses it: a
 * page is PAGE_SIZE bytes of the caller's memory, always mapped.
 */
#ifndef _KTLS_SHIM_LINUX_HIGHMEM_H
#define _KTLS_SHIM_LINUX_HIGHMEM_H

#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define offset_in_page(p)	((unsigned long)(p) & (PAGE_SIZE - 1))

struct page {
	unsigned char data[PAGE_SIZE];
};

#define kmap_local_page(page)	((void *)(page)->data)
#define kunmap_local(addr)	((void)(addr))

#endif
