/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stand-in for <linux/hex.h> on kernels that keep hex2bin() and bin2hex()
 * in <linux/kernel.h> (6.1 does; 7.x has them in <linux/hex.h> only).
 * Found only where the kernel lacks the header (see Kbuild).
 */
#ifndef _KTLS_COMPAT_LINUX_HEX_H
#define _KTLS_COMPAT_LINUX_HEX_H

#include <linux/kernel.h>

#endif
