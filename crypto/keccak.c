// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keccak-f[1600] and the sponge around it (FIPS 202): SHA3-256, SHA3-512,
 * SHAKE128 and SHAKE256.  ML-KEM needs all four, SHAKE with incremental
 * squeeze, and the kernel's crypto API of the releases we build against
 * offers no SHAKE at all.
 *
 * The permutation works on 25 lanes with fixed indices and no tables
 * indexed by data, so it is constant time by construction; the sponge
 * branches only on lengths and offsets, which are public.  The state is
 * little-endian lanes, so bytes are loaded and stored lane by lane on any
 * host.
 */
#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <ktls_hs/keccak.h>

#define KECCAK_ROUNDS	24

/* the padding's domain bits: SHA-3 appends 01, SHAKE 1111 (FIPS 202 6.1, 6.2) */
#define KECCAK_SUFFIX_SHA3	0x06
#define KECCAK_SUFFIX_SHAKE	0x1f

static const u64 keccak_rc[KECCAK_ROUNDS] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* chi on one plane of five lanes, b[0..4] into a[0..4] */
static __always_inline void keccak_chi(u64 *a, const u64 *b)
{
	a[0] = b[0] ^ (~b[1] & b[2]);
	a[1] = b[1] ^ (~b[2] & b[3]);
	a[2] = b[2] ^ (~b[3] & b[4]);
	a[3] = b[3] ^ (~b[4] & b[0]);
	a[4] = b[4] ^ (~b[0] & b[1]);
}

/*
 * Lane x + 5y is a[x + 5y].  Theta, then rho and pi together (lane (x, y)
 * rotated by its offset lands at (y, 2x + 3y)), chi, iota.  The indices
 * are constants throughout, so the compiler keeps lanes in registers
 * where it can.  Frame: 184 bytes at -O2, 208 at -Os (gcc 12, x86-64).
 */
void ktls_keccak_f1600(u64 a[KTLS_KECCAK_LANES])
{
	u64 b[KTLS_KECCAK_LANES], c[5], d[5];
	int r;

	for (r = 0; r < KECCAK_ROUNDS; r++) {
		c[0] = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
		c[1] = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
		c[2] = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
		c[3] = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
		c[4] = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
		d[0] = c[4] ^ rol64(c[1], 1);
		d[1] = c[0] ^ rol64(c[2], 1);
		d[2] = c[1] ^ rol64(c[3], 1);
		d[3] = c[2] ^ rol64(c[4], 1);
		d[4] = c[3] ^ rol64(c[0], 1);

		b[0] = a[0] ^ d[0];
		b[10] = rol64(a[1] ^ d[1], 1);
		b[20] = rol64(a[2] ^ d[2], 62);
		b[5] = rol64(a[3] ^ d[3], 28);
		b[15] = rol64(a[4] ^ d[4], 27);
		b[16] = rol64(a[5] ^ d[0], 36);
		b[1] = rol64(a[6] ^ d[1], 44);
		b[11] = rol64(a[7] ^ d[2], 6);
		b[21] = rol64(a[8] ^ d[3], 55);
		b[6] = rol64(a[9] ^ d[4], 20);
		b[7] = rol64(a[10] ^ d[0], 3);
		b[17] = rol64(a[11] ^ d[1], 10);
		b[2] = rol64(a[12] ^ d[2], 43);
		b[12] = rol64(a[13] ^ d[3], 25);
		b[22] = rol64(a[14] ^ d[4], 39);
		b[23] = rol64(a[15] ^ d[0], 41);
		b[8] = rol64(a[16] ^ d[1], 45);
		b[18] = rol64(a[17] ^ d[2], 15);
		b[3] = rol64(a[18] ^ d[3], 21);
		b[13] = rol64(a[19] ^ d[4], 8);
		b[14] = rol64(a[20] ^ d[0], 18);
		b[24] = rol64(a[21] ^ d[1], 2);
		b[9] = rol64(a[22] ^ d[2], 61);
		b[19] = rol64(a[23] ^ d[3], 56);
		b[4] = rol64(a[24] ^ d[4], 14);

		keccak_chi(a, b);
		keccak_chi(a + 5, b + 5);
		keccak_chi(a + 10, b + 10);
		keccak_chi(a + 15, b + 15);
		keccak_chi(a + 20, b + 20);
		a[0] ^= keccak_rc[r];
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktls_keccak_f1600);

static void keccak_init(struct ktls_keccak *k, unsigned int rate, u8 suffix)
{
	memset(k->st, 0, sizeof(k->st));
	k->rate = rate;
	k->pos = 0;
	k->suffix = suffix;
	k->squeezing = false;
}

void ktls_shake128_init(struct ktls_keccak *k)
{
	keccak_init(k, KTLS_SHAKE128_RATE, KECCAK_SUFFIX_SHAKE);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_shake128_init);

void ktls_shake256_init(struct ktls_keccak *k)
{
	keccak_init(k, KTLS_SHAKE256_RATE, KECCAK_SUFFIX_SHAKE);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_shake256_init);

void ktls_sha3_init(struct ktls_keccak *k, unsigned int rate)
{
	keccak_init(k, rate, KECCAK_SUFFIX_SHA3);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_sha3_init);

static void keccak_xor_byte(struct ktls_keccak *k, unsigned int pos, u8 b)
{
	k->st[pos >> 3] ^= (u64)b << ((pos & 7) << 3);
}

void ktls_shake_absorb(struct ktls_keccak *k, const u8 *in, size_t len)
{
	unsigned int pos = k->pos;

	while (len) {
		/* whole lanes while aligned to one, else byte by byte */
		if (!(pos & 7) && len >= 8) {
			k->st[pos >> 3] ^= get_unaligned_le64(in);
			pos += 8;
			in += 8;
			len -= 8;
		} else {
			keccak_xor_byte(k, pos++, *in++);
			len--;
		}
		if (pos == k->rate) {
			ktls_keccak_f1600(k->st);
			pos = 0;
		}
	}
	k->pos = pos;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_shake_absorb);

/* pad10*1 after the domain bits, then squeeze from the first byte */
static void keccak_pad(struct ktls_keccak *k)
{
	keccak_xor_byte(k, k->pos, k->suffix);
	keccak_xor_byte(k, k->rate - 1, 0x80);
	ktls_keccak_f1600(k->st);
	k->pos = 0;
	k->squeezing = true;
}

void ktls_shake_squeeze(struct ktls_keccak *k, u8 *out, size_t len)
{
	unsigned int pos;

	if (!k->squeezing)
		keccak_pad(k);
	pos = k->pos;
	while (len) {
		if (pos == k->rate) {
			ktls_keccak_f1600(k->st);
			pos = 0;
		}
		if (!(pos & 7) && len >= 8) {
			put_unaligned_le64(k->st[pos >> 3], out);
			pos += 8;
			out += 8;
			len -= 8;
		} else {
			*out++ = k->st[pos >> 3] >> ((pos & 7) << 3);
			pos++;
			len--;
		}
	}
	k->pos = pos;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_shake_squeeze);

void ktls_sha3_final(struct ktls_keccak *k, u8 *out, size_t len)
{
	ktls_shake_squeeze(k, out, len);
	memzero_explicit(k, sizeof(*k));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_sha3_final);

void ktls_sha3_256(u8 out[KTLS_SHA3_256_DIGEST_SIZE], const u8 *in, size_t len)
{
	struct ktls_keccak k;

	ktls_sha3_init(&k, KTLS_SHA3_256_RATE);
	ktls_shake_absorb(&k, in, len);
	ktls_sha3_final(&k, out, KTLS_SHA3_256_DIGEST_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_sha3_256);

void ktls_sha3_512(u8 out[KTLS_SHA3_512_DIGEST_SIZE], const u8 *in, size_t len)
{
	struct ktls_keccak k;

	ktls_sha3_init(&k, KTLS_SHA3_512_RATE);
	ktls_shake_absorb(&k, in, len);
	ktls_sha3_final(&k, out, KTLS_SHA3_512_DIGEST_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_sha3_512);
