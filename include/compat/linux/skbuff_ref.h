/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stand-in for <linux/skbuff_ref.h> on kernels that keep skb_frag_ref(),
 * skb_frag_unref() and __skb_frag_ref() in <linux/skbuff.h> (6.1 does).
 * Found only where the kernel lacks the header (see Kbuild).
 */
#ifndef _KTLS_COMPAT_LINUX_SKBUFF_REF_H
#define _KTLS_COMPAT_LINUX_SKBUFF_REF_H

#include <linux/skbuff.h>

#endif
