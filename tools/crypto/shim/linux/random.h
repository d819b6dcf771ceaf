/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/random.h>: get_random_bytes() from
 * getrandom(2).  Its output is secret, so under valgrind it is marked
 * undefined: key generation and the hedged nonces are then checked for
 * constant time like any other secret.
 */
#ifndef _P256_SHIM_LINUX_RANDOM_H
#define _P256_SHIM_LINUX_RANDOM_H

#include <stdlib.h>
#include <sys/random.h>
#include <valgrind/memcheck.h>

static inline void get_random_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0)
			abort();
		p += n;
		len -= n;
	}
	VALGRIND_MAKE_MEM_UNDEFINED(buf, p - (unsigned char *)buf);
}

#endif
