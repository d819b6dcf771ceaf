/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/string.h>: libc's (strncasecmp too), plus memzero_explicit(). */
#ifndef _P256_SHIM_LINUX_STRING_H
#define _P256_SHIM_LINUX_STRING_H

#include <string.h>
#include <strings.h>

/* Stores through a volatile pointer, which the compiler may not drop. */
static inline void memzero_explicit(void *s, size_t count)
{
	volatile unsigned char *p = s;

	while (count--)
		*p++ = 0;
}

#endif
