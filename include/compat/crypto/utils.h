/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stand-in for <crypto/utils.h> on kernels that declare crypto_memneq()
 * and crypto_xor() in <crypto/algapi.h> (6.1 does).  Found only where the
 * kernel lacks the header (see Kbuild).
 */
#ifndef _KTLS_COMPAT_CRYPTO_UTILS_H
#define _KTLS_COMPAT_CRYPTO_UTILS_H

#include <crypto/algapi.h>

#endif
