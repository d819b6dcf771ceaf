// SPDX-License-Identifier: GPL-2.0-only
/*
 * ML-KEM sampling (FIPS 203 section 4.2.2): the entries of the matrix A
 * from the public seed rho by rejection sampling on SHAKE128 output, and
 * the secret and noise polynomials from the centred binomial
 * distribution (eta = 2) over SHAKE256 output.
 *
 * The rejection loop branches on its XOF bytes: those are a function of
 * rho, which the encapsulation key carries in the clear.  The binomial
 * sampler handles secrets and is bit arithmetic only.
 */
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <ktls_hs/keccak.h>

#include "mlkem_internal.h"

/* the XOF output squeezed first: enough for a whole entry almost always */
#define MLKEM_SAMPLE_BLOCKS	3

/*
 * FIPS 203 Algorithm 7, SampleNTT(rho || j || i), which is entry (i, j)
 * of A: three bytes give two 12-bit candidates, each kept if below q.
 * 576 candidates from the first three blocks fall short of 256 with
 * probability below 2^-37; a fourth block and more follow as needed.
 * Frame: 64 bytes at -O2, 80 at -Os (gcc 12, x86-64).
 */
void mlkem_sample_ntt(s16 r[MLKEM_N], const u8 rho[MLKEM_SYM_BYTES], u8 i, u8 j,
		      struct ktls_mlkem768_scratch *s)
{
	const u8 idx[2] = { j, i };
	unsigned int n = 0, pos, len;
	u16 d1, d2;

	ktls_shake128_init(&s->xof);
	ktls_shake_absorb(&s->xof, rho, MLKEM_SYM_BYTES);
	ktls_shake_absorb(&s->xof, idx, sizeof(idx));
	len = MLKEM_SAMPLE_BLOCKS * KTLS_SHAKE128_RATE;
	ktls_shake_squeeze(&s->xof, s->block, len);
	for (pos = 0; n < MLKEM_N; pos += 3) {
		if (pos == len) {
			len = KTLS_SHAKE128_RATE;
			ktls_shake_squeeze(&s->xof, s->block, len);
			pos = 0;
		}
		d1 = (s->block[pos] | (s->block[pos + 1] << 8)) & 0xfff;
		d2 = (s->block[pos + 1] >> 4) | (s->block[pos + 2] << 4);
		if (d1 < MLKEM_Q)
			r[n++] = d1;
		if (d2 < MLKEM_Q && n < MLKEM_N)
			r[n++] = d2;
	}
}

/*
 * PRF_2(sigma, nonce) = SHAKE256(sigma || nonce) for 128 bytes, then
 * FIPS 203 Algorithm 8 for eta = 2: coefficient i is the sum of bits 4i
 * and 4i + 1 minus that of bits 4i + 2 and 4i + 3, which one addition of
 * the even and odd bits of a word computes for 16 bit pairs at once.
 * Output in [-2, 2].  Frame: 64 bytes at -O2, 48 at -Os (gcc 12, x86-64).
 */
void mlkem_sample_cbd(s16 r[MLKEM_N], const u8 sigma[MLKEM_SYM_BYTES], u8 nonce,
		      struct ktls_mlkem768_scratch *s)
{
	unsigned int i, j;
	u32 t, d;

	ktls_shake256_init(&s->xof);
	ktls_shake_absorb(&s->xof, sigma, MLKEM_SYM_BYTES);
	ktls_shake_absorb(&s->xof, &nonce, 1);
	ktls_shake_squeeze(&s->xof, s->block, MLKEM_PRF_BYTES);
	for (i = 0; i < MLKEM_PRF_BYTES / 4; i++) {
		t = get_unaligned_le32(s->block + 4 * i);
		d = (t & 0x55555555) + ((t >> 1) & 0x55555555);
		for (j = 0; j < 8; j++)
			r[8 * i + j] = (s16)((d >> (4 * j)) & 3) - (s16)((d >> (4 * j + 2)) & 3);
	}
}
