// SPDX-License-Identifier: GPL-2.0-only
/*
 * hs_mlkem: the ML-KEM-768 of hs_lite's X25519MLKEM768 share (hs_load
 * -L -M), from the module's own crypto/mlkem*.c and crypto/keccak.c
 * built in userspace against tools/crypto's kernel-API shim: Debian 12's
 * OpenSSL 3.0 has no ML-KEM.  Built with -Itools/crypto/shim, apart
 * from hs_lite.c, which sees only the two calls of hs_lite.h.
 */
#include <stdlib.h>

#include <ktls_hs/mlkem.h>

#include "hs_lite.h"

static_assert(LITE_MLKEM_EK_LEN == KTLS_MLKEM768_EK_LEN, "ek");
static_assert(LITE_MLKEM_DK_LEN == KTLS_MLKEM768_DK_LEN, "dk");
static_assert(LITE_MLKEM_CT_LEN == KTLS_MLKEM768_CT_LEN, "ct");

/* ~6 KiB: on the heap, one per thread. */
static __thread struct ktls_mlkem768_scratch *scratch;

static bool have_scratch(void)
{
	if (!scratch)
		scratch = malloc(sizeof(*scratch));
	return scratch;
}

bool lite_mlkem_keygen(uint8_t *ek, uint8_t *dk)
{
	if (!have_scratch())
		return false;
	ktls_mlkem768_keygen(ek, dk, scratch);
	return true;
}

bool lite_mlkem_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk)
{
	return have_scratch() &&
	       !ktls_mlkem768_decaps(ss, ct, LITE_MLKEM_CT_LEN, dk, scratch);
}
