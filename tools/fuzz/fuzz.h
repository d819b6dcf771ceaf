/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fuzz targets share: the seeded generator behind
 * get_random_bytes() (see tools/crypto/shim/linux/random.h) and the
 * libFuzzer entry point.
 */
#ifndef _KTLS_FUZZ_H
#define _KTLS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Restart the generator: each input replays from the same state. */
void ktls_fuzz_random_seed(uint64_t seed);
void ktls_fuzz_random(void *buf, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#endif
