/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/tls.h>: the uapi header is all of it. */
#include_next <linux/tls.h>
