/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/net.h>: the types net/record/record.h names in
 * prototypes no userspace program calls.
 */
#ifndef _KTLS_SHIM_LINUX_NET_H
#define _KTLS_SHIM_LINUX_NET_H

#include <linux/types.h>
#include <sys/types.h>

struct sk_buff;

typedef struct read_descriptor read_descriptor_t;
typedef int (*sk_read_actor_t)(read_descriptor_t *, struct sk_buff *,
			       unsigned int, size_t);
typedef unsigned int __poll_t;

#endif
