/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/random.h>: get_random_bytes() from
 * getrandom(2).  Its output is secret, so under valgrind it is marked
 * undefined: key generation and the hedged nonces are then checked for
 * constant time like any other secret.  The fuzzers (KTLS_FUZZ) draw
 * from a seeded generator of their own instead, so that a reproducer
 * replays the same handshake.
 */
#ifndef _P256_SHIM_LINUX_RANDOM_H
#define _P256_SHIM_LINUX_RANDOM_H

#include <stdlib.h>
#include <sys/random.h>
#include <valgrind/memcheck.h>

#ifdef KTLS_FUZZ
void ktls_fuzz_random(void *buf, size_t len);
#define get_random_bytes(buf, len)	ktls_fuzz_random(buf, len)
#define get_random_u32()		({ u32 __r; ktls_fuzz_random(&__r, 4); __r; })
#else
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

#endif
