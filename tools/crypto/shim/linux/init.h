/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/init.h>: no init sections in a program. */
#ifndef _KTLS_SHIM_LINUX_INIT_H
#define _KTLS_SHIM_LINUX_INIT_H

#define __init
#define __ro_after_init

#endif
