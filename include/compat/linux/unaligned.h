/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stand-in for <linux/unaligned.h> on kernels before 6.12, which have the
 * same get_unaligned_*()/put_unaligned_*() helpers in <asm/unaligned.h>.
 * Found only where the kernel lacks the header: Kbuild puts the kernel's
 * include directories before ours (see Kbuild).
 */
#ifndef _KTLS_COMPAT_LINUX_UNALIGNED_H
#define _KTLS_COMPAT_LINUX_UNALIGNED_H

#include <asm/unaligned.h>

#endif
