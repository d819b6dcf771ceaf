/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <crypto/utils.h>: crypto_memneq().  The
 * handshake fuzzer's pass-through build (KTLS_FUZZ_PASSTHROUGH, see
 * Documentation/testing.rst) makes every secret comparison succeed, so that
 * Finished, binders and tags made up by the fuzzer are accepted.
 */
#ifndef _KTLS_SHIM_CRYPTO_UTILS_H
#define _KTLS_SHIM_CRYPTO_UTILS_H

#include <linux/string.h>

static inline int crypto_memneq(const void *a, const void *b, size_t n)
{
#ifdef KTLS_FUZZ_PASSTHROUGH
	return 0;
#else
	const volatile unsigned char *p = a, *q = b;
	unsigned char d = 0;

	while (n--)
		d |= *p++ ^ *q++;
	return d != 0;
#endif
}

#endif
