/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/stddef.h>: the compiler's, and sizeof_field. */
#ifndef _KTLS_SHIM_LINUX_STDDEF_H
#define _KTLS_SHIM_LINUX_STDDEF_H

#include <stdbool.h>
#include <stddef.h>

#define sizeof_field(t, m)	sizeof(((t *)0)->m)

#endif
