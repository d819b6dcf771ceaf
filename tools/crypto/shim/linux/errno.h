/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/errno.h>: the uapi numbers, which libc shares. */
#include_next <linux/errno.h>
