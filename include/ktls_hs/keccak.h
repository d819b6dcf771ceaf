/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Keccak-f[1600] and the FIPS 202 functions ML-KEM is built from: SHA3-256,
 * SHA3-512, and the extendable-output SHAKE128 and SHAKE256 with
 * incremental absorb and squeeze.  The kernel's crypto API of the
 * releases we build against has SHA-3 but no SHAKE, so these are ours.
 *
 * Everything is constant time in the data absorbed and squeezed (the
 * lengths are public), allocates nothing and may be called from softirq.
 */
#ifndef _KTLS_HS_KECCAK_H
#define _KTLS_HS_KECCAK_H

#include <linux/types.h>

#define KTLS_KECCAK_LANES		25
/* rate in bytes: the capacity is twice the security level */
#define KTLS_SHAKE128_RATE		168
#define KTLS_SHAKE256_RATE		136
#define KTLS_SHA3_256_RATE		136
#define KTLS_SHA3_512_RATE		72
#define KTLS_SHA3_256_DIGEST_SIZE	32
#define KTLS_SHA3_512_DIGEST_SIZE	64

/*
 * A sponge: the state, its rate, and the byte offset within the rate
 * where the next absorb or squeeze goes.  @suffix is the domain bits
 * the padding starts with (SHA-3 or SHAKE); @squeezing is set once the
 * padding has been applied, and absorbing after that is a bug.
 */
struct ktls_keccak {
	u64 st[KTLS_KECCAK_LANES];
	unsigned int rate;
	unsigned int pos;
	u8 suffix;
	bool squeezing;
};

void ktls_keccak_f1600(u64 st[KTLS_KECCAK_LANES]);

void ktls_shake128_init(struct ktls_keccak *k);
void ktls_shake256_init(struct ktls_keccak *k);
void ktls_shake_absorb(struct ktls_keccak *k, const u8 *in, size_t len);
/* the first squeeze pads; any number of calls of any length follow */
void ktls_shake_squeeze(struct ktls_keccak *k, u8 *out, size_t len);

void ktls_sha3_256(u8 out[KTLS_SHA3_256_DIGEST_SIZE], const u8 *in, size_t len);
void ktls_sha3_512(u8 out[KTLS_SHA3_512_DIGEST_SIZE], const u8 *in, size_t len);

/*
 * The parts of a hash for callers that absorb from several buffers:
 * init with the rate, absorb, then one final that writes @len bytes.
 */
void ktls_sha3_init(struct ktls_keccak *k, unsigned int rate);
void ktls_sha3_final(struct ktls_keccak *k, u8 *out, size_t len);

#endif /* _KTLS_HS_KECCAK_H */
