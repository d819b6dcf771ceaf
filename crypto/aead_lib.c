// SPDX-License-Identifier: GPL-2.0-only
/*
 * The allocation-free AEAD of include/ktls_hs/aead_lib.h, for the records
 * the handshake seals and opens itself in softirq context.
 *
 * AES-GCM (NIST SP 800-38D, 96-bit IV): the AES block function is the
 * kernel's AES library; CTR mode and GHASH are here.  GHASH multiplies in
 * GF(2^128) without any table, since a table indexed by data mixed with
 * the hash key leaks that key through the cache; carry-less products are
 * instead built from integer multiplies (ktls_clmul64()).
 *
 * ChaCha20-Poly1305 (RFC 8439 section 2.8): the ChaCha20 block function
 * and the Poly1305 core of the kernel's generic library, which, unlike
 * the architecture versions, never touch the FPU.  The block function is
 * used rather than chacha_crypt_generic() because it is built into every
 * kernel, so the module needs no extra library module for ChaCha20.
 *
 * AES-CCM (RFC 3610, NIST SP 800-38C, the TLS parameters of RFC 8446
 * 5.3 and RFC 6655: 12-byte nonce, so 3-byte lengths, 16-byte tag): the
 * CBC-MAC and CTR mode are here, over the same AES block function.
 *
 * Every open path verifies the tag before decrypting, so a forged record
 * never puts plaintext into the caller's buffer.  CCM authenticates the
 * plaintext, so its check decrypts one block at a time into a scratch
 * block, and only a record that passes is decrypted in place.
 */
#include <crypto/utils.h>
#include <crypto/internal/poly1305.h>
#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <ktls_hs/aead_lib.h>
#include <ktls_hs/compat.h>

#define KTLS_GCM_BLOCK		16
/* Counter block 1 masks the tag; the keystream starts at block 2. */
#define KTLS_GCM_CTR_TAG	1
#define KTLS_GCM_CTR_FIRST	2
#define KTLS_CHACHA_ROUNDS	20
/* Block 0 gives the one-time Poly1305 key; the keystream starts at 1. */
#define KTLS_CHACHA_CTR_FIRST	1
/* RFC 3610 2.2: the flags of B_0 and A_i, for L = 3 and M = 16. */
#define KTLS_CCM_L		(15 - KTLS_LIB_AEAD_NONCE_SIZE)
#define KTLS_CCM_FLAG_ADATA	0x40
#define KTLS_CCM_FLAGS_B0	((KTLS_LIB_AEAD_TAG_SIZE - 2) / 2 << 3 | \
				 (KTLS_CCM_L - 1))
#define KTLS_CCM_FLAGS_A	(KTLS_CCM_L - 1)
/* Counter block 0 masks the tag; the keystream starts at block 1. */
#define KTLS_CCM_CTR_FIRST	1
/* RFC 3610 2.2: AAD lengths up to 2^16 - 2^8 take two bytes. */
#define KTLS_CCM_AAD_SHORT	(0x10000 - 0x100)

/* 64 x 64 -> 128-bit integer product. */
static inline void ktls_mul64(u64 a, u64 b, u64 *hi, u64 *lo)
{
#ifdef CONFIG_ARCH_SUPPORTS_INT128
	u128 p = (u128)a * b;

	*hi = p >> 64;
	*lo = p;
#else
	u64 p00 = (u64)(u32)a * (u32)b;
	u64 p01 = (u64)(u32)a * (b >> 32);
	u64 p10 = (a >> 32) * (u32)b;
	u64 p11 = (a >> 32) * (b >> 32);
	u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;

	*lo = mid << 32 | (u32)p00;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/*
 * Bits 0, 5, 10, ..., 60 and that pattern moved up by 1..4: the five
 * residue classes mod 5 of the bit positions of a u64.
 */
#define KTLS_CLMUL_M0	0x1084210842108421ULL
static const u64 ktls_clmul_mask[5] = {
	KTLS_CLMUL_M0, KTLS_CLMUL_M0 << 1, KTLS_CLMUL_M0 << 2,
	KTLS_CLMUL_M0 << 3, KTLS_CLMUL_M0 << 4,
};

static inline void ktls_clmul_acc(u64 *zh, u64 *zl, u64 a, u64 b)
{
	u64 ph, pl;

	ktls_mul64(a, b, &ph, &pl);
	*zh ^= ph;
	*zl ^= pl;
}

/*
 * Carry-less product of two 64-bit polynomials, in constant time.
 *
 * Split each operand into its five residue classes of bit positions.  The
 * integer product of one class of @x by one class of @y has set bits
 * only in columns of a single class (the sum of the two, mod 5), and a
 * column sums at most 13 one-bits, which needs five bits: the carries out
 * of a column end in the four bits between it and the next column of
 * that class.  Bit k of that product is therefore the XOR of its column,
 * which is what the carry-less product has there.  XOR the 25 partial
 * products into five accumulators by class and keep, from each, only the
 * bits of its class.  Every step is an integer multiply, XOR or AND.
 *
 * The products are spelled out rather than looped over: with constant
 * indices the accumulators stay in registers, which doubles the speed.
 */
static void ktls_clmul64(u64 x, u64 y, u64 *hi, u64 *lo)
{
	u64 xs[5], ys[5], zh[5] = {}, zl[5] = {};
	unsigned int i;

	for (i = 0; i < 5; i++) {
		xs[i] = x & ktls_clmul_mask[i];
		ys[i] = y & ktls_clmul_mask[i];
	}
	/* Accumulator c collects the classes i and j with i + j = c mod 5. */
	ktls_clmul_acc(&zh[0], &zl[0], xs[0], ys[0]);
	ktls_clmul_acc(&zh[0], &zl[0], xs[1], ys[4]);
	ktls_clmul_acc(&zh[0], &zl[0], xs[2], ys[3]);
	ktls_clmul_acc(&zh[0], &zl[0], xs[3], ys[2]);
	ktls_clmul_acc(&zh[0], &zl[0], xs[4], ys[1]);
	ktls_clmul_acc(&zh[1], &zl[1], xs[0], ys[1]);
	ktls_clmul_acc(&zh[1], &zl[1], xs[1], ys[0]);
	ktls_clmul_acc(&zh[1], &zl[1], xs[2], ys[4]);
	ktls_clmul_acc(&zh[1], &zl[1], xs[3], ys[3]);
	ktls_clmul_acc(&zh[1], &zl[1], xs[4], ys[2]);
	ktls_clmul_acc(&zh[2], &zl[2], xs[0], ys[2]);
	ktls_clmul_acc(&zh[2], &zl[2], xs[1], ys[1]);
	ktls_clmul_acc(&zh[2], &zl[2], xs[2], ys[0]);
	ktls_clmul_acc(&zh[2], &zl[2], xs[3], ys[4]);
	ktls_clmul_acc(&zh[2], &zl[2], xs[4], ys[3]);
	ktls_clmul_acc(&zh[3], &zl[3], xs[0], ys[3]);
	ktls_clmul_acc(&zh[3], &zl[3], xs[1], ys[2]);
	ktls_clmul_acc(&zh[3], &zl[3], xs[2], ys[1]);
	ktls_clmul_acc(&zh[3], &zl[3], xs[3], ys[0]);
	ktls_clmul_acc(&zh[3], &zl[3], xs[4], ys[4]);
	ktls_clmul_acc(&zh[4], &zl[4], xs[0], ys[4]);
	ktls_clmul_acc(&zh[4], &zl[4], xs[1], ys[3]);
	ktls_clmul_acc(&zh[4], &zl[4], xs[2], ys[2]);
	ktls_clmul_acc(&zh[4], &zl[4], xs[3], ys[1]);
	ktls_clmul_acc(&zh[4], &zl[4], xs[4], ys[0]);

	*hi = 0;
	*lo = 0;
	for (i = 0; i < 5; i++) {
		/* Bit 64 + p is in class i when p is in class i + 1 (64 = 4 mod 5). */
		*hi |= zh[i] & ktls_clmul_mask[(i + 1) % 5];
		*lo |= zl[i] & ktls_clmul_mask[i];
	}
}

/*
 * @y = @y * @h in GHASH's field, both as big-endian halves ([0] holds
 * bytes 0-7).  GCM numbers polynomial coefficients from the most
 * significant bit, so an element read big-endian is its polynomial bit
 * reversed, and the integer carry-less product of two reversed 128-bit
 * values is the reversed 255-bit product one bit short of a 256-bit
 * word.  One Karatsuba step makes it three 64-bit products.
 */
static void ktls_gf128_mul(u64 y[2], const u64 h[2])
{
	u64 a1, a0, b1, b0, m1, m0, z3, z2, z1, z0, e;

	ktls_clmul64(y[0], h[0], &a1, &a0);
	ktls_clmul64(y[1], h[1], &b1, &b0);
	ktls_clmul64(y[0] ^ y[1], h[0] ^ h[1], &m1, &m0);
	m1 ^= a1 ^ b1;
	m0 ^= a0 ^ b0;

	z3 = a1;
	z2 = a0 ^ m1;
	z1 = b1 ^ m0;
	z0 = b0;

	/* Realign: z3:z2 now holds degrees 0..127, z1:z0 degrees 128..255. */
	z3 = z3 << 1 | z2 >> 63;
	z2 = z2 << 1 | z1 >> 63;
	z1 = z1 << 1 | z0 >> 63;
	z0 <<= 1;

	/*
	 * Reduce by x^128 = x^7 + x^2 + x + 1.  In reversed order multiplying
	 * by x^s is a right shift by s; the bits it pushes out of the low end
	 * (degrees 128 and up, at most 7 of them from the last word) are
	 * folded once more at the top before the shifts, where they land
	 * below degree 128 for good.
	 */
	e = z0 << 63 ^ z0 << 62 ^ z0 << 57;
	z1 ^= e;
	y[0] = z3 ^ z1 ^ z1 >> 1 ^ z1 >> 2 ^ z1 >> 7;
	y[1] = z2 ^ z0 ^ (z0 >> 1 | z1 << 63) ^ (z0 >> 2 | z1 << 62) ^
	       (z0 >> 7 | z1 << 57);
}

/* Absorb @len bytes into the GHASH state, the last block zero-padded. */
static void ktls_ghash(u64 y[2], const u64 h[2], const u8 *p, size_t len)
{
	u8 last[KTLS_GCM_BLOCK];

	for (; len >= KTLS_GCM_BLOCK; p += KTLS_GCM_BLOCK, len -= KTLS_GCM_BLOCK) {
		y[0] ^= get_unaligned_be64(p);
		y[1] ^= get_unaligned_be64(p + 8);
		ktls_gf128_mul(y, h);
	}
	if (len) {
		memset(last, 0, sizeof(last));
		memcpy(last, p, len);
		y[0] ^= get_unaligned_be64(last);
		y[1] ^= get_unaligned_be64(last + 8);
		ktls_gf128_mul(y, h);
	}
}

/* AES of counter block @ctr: the nonce, then the counter big-endian. */
static void ktls_gcm_counter_block(const struct ktls_lib_aead *a,
				   const u8 *nonce, u32 ctr, u8 *out)
{
	memcpy(out, nonce, KTLS_LIB_AEAD_NONCE_SIZE);
	put_unaligned_be32(ctr, out + KTLS_LIB_AEAD_NONCE_SIZE);
	aes_encrypt(&a->gcm.aes, out, out);
}

static void ktls_gcm_ctr(const struct ktls_lib_aead *a, const u8 *nonce,
			 u8 *buf, size_t len)
{
	u8 ks[KTLS_GCM_BLOCK];
	u32 ctr = KTLS_GCM_CTR_FIRST;
	size_t n;

	for (; len; buf += n, len -= n) {
		n = min_t(size_t, len, KTLS_GCM_BLOCK);
		ktls_gcm_counter_block(a, nonce, ctr++, ks);
		crypto_xor(buf, ks, n);
	}
	memzero_explicit(ks, sizeof(ks));
}

static void ktls_gcm_tag(const struct ktls_lib_aead *a, const u8 *nonce,
			 const u8 *aad, size_t aad_len, const u8 *ct,
			 size_t ct_len, u8 *tag)
{
	u64 y[2] = {};

	ktls_ghash(y, a->gcm.h, aad, aad_len);
	ktls_ghash(y, a->gcm.h, ct, ct_len);
	/* The lengths block counts bits; both lengths are at most U32_MAX. */
	y[0] ^= (u64)aad_len * BITS_PER_BYTE;
	y[1] ^= (u64)ct_len * BITS_PER_BYTE;
	ktls_gf128_mul(y, a->gcm.h);

	ktls_gcm_counter_block(a, nonce, KTLS_GCM_CTR_TAG, tag);
	put_unaligned_be64(get_unaligned_be64(tag) ^ y[0], tag);
	put_unaligned_be64(get_unaligned_be64(tag + 8) ^ y[1], tag + 8);
	memzero_explicit(y, sizeof(y));
}

static void ktls_chacha20_init(const struct ktls_lib_aead *a, const u8 *nonce,
			       u32 ctr, struct ktls_chacha_state *state)
{
	u8 iv[CHACHA_IV_SIZE];

	put_unaligned_le32(ctr, iv);
	memcpy(iv + sizeof(u32), nonce, KTLS_LIB_AEAD_NONCE_SIZE);
	ktls_chacha_init(state, a->chacha_key, iv);
}

static void ktls_chacha20_xor(const struct ktls_lib_aead *a, const u8 *nonce,
			      u8 *buf, size_t len)
{
	struct ktls_chacha_state state;
	u8 ks[CHACHA_BLOCK_SIZE];
	size_t n;

	ktls_chacha20_init(a, nonce, KTLS_CHACHA_CTR_FIRST, &state);
	for (; len; buf += n, len -= n) {
		n = min_t(size_t, len, CHACHA_BLOCK_SIZE);
		ktls_chacha_block(&state, ks, KTLS_CHACHA_ROUNDS);
		crypto_xor(buf, ks, n);
	}
	memzero_explicit(&state, sizeof(state));
	memzero_explicit(ks, sizeof(ks));
}

/* Absorb @len bytes into Poly1305 as whole blocks, the last zero-padded. */
static void ktls_poly1305_padded(struct ktls_poly1305 *mac, const u8 *p,
				 size_t len)
{
	u8 last[POLY1305_BLOCK_SIZE];
	size_t full = len / POLY1305_BLOCK_SIZE;

	/* RFC 8439 pads to whole blocks, so each one has the 2^128 bit. */
	if (full)
		ktls_poly1305_blocks(mac, p, full);
	len %= POLY1305_BLOCK_SIZE;
	if (len) {
		memset(last, 0, sizeof(last));
		memcpy(last, p + full * POLY1305_BLOCK_SIZE, len);
		ktls_poly1305_blocks(mac, last, 1);
	}
}

static void ktls_chacha20_poly1305_tag(const struct ktls_lib_aead *a,
				       const u8 *nonce, const u8 *aad,
				       size_t aad_len, const u8 *ct,
				       size_t ct_len, u8 *tag)
{
	struct ktls_chacha_state state;
	u8 block0[CHACHA_BLOCK_SIZE];
	struct ktls_poly1305 mac;
	u8 lens[POLY1305_BLOCK_SIZE];

	/* The one-time key: r then s, the first 32 bytes of block 0. */
	ktls_chacha20_init(a, nonce, 0, &state);
	ktls_chacha_block(&state, block0, KTLS_CHACHA_ROUNDS);
	ktls_poly1305_init(&mac, block0);

	ktls_poly1305_padded(&mac, aad, aad_len);
	ktls_poly1305_padded(&mac, ct, ct_len);
	put_unaligned_le64(aad_len, lens);
	put_unaligned_le64(ct_len, lens + 8);
	ktls_poly1305_blocks(&mac, lens, 1);
	ktls_poly1305_final(&mac, tag);

	memzero_explicit(&state, sizeof(state));
	memzero_explicit(block0, sizeof(block0));
}

/* AES of CCM counter block A_@ctr (RFC 3610 2.3). */
static void ktls_ccm_counter_block(const struct ktls_lib_aead *a,
				   const u8 *nonce, u32 ctr, u8 *out)
{
	out[0] = KTLS_CCM_FLAGS_A;
	memcpy(out + 1, nonce, KTLS_LIB_AEAD_NONCE_SIZE);
	put_unaligned_be24(ctr, out + 1 + KTLS_LIB_AEAD_NONCE_SIZE);
	aes_encrypt(&a->ccm_aes, out, out);
}

static void ktls_ccm_ctr(const struct ktls_lib_aead *a, const u8 *nonce,
			 u8 *buf, size_t len)
{
	u8 ks[AES_BLOCK_SIZE];
	u32 ctr = KTLS_CCM_CTR_FIRST;
	size_t n;

	for (; len; buf += n, len -= n) {
		n = min_t(size_t, len, AES_BLOCK_SIZE);
		ktls_ccm_counter_block(a, nonce, ctr++, ks);
		crypto_xor(buf, ks, n);
	}
	memzero_explicit(ks, sizeof(ks));
}

/* One CBC-MAC step over @n <= 16 bytes, zero-padded to a block. */
static void ktls_ccm_absorb(const struct ktls_lib_aead *a, u8 *x,
			    const u8 *p, size_t n)
{
	crypto_xor(x, p, n);
	aes_encrypt(&a->ccm_aes, x, x);
}

/* B_0, then the AAD behind its length encoding, zero-padded (2.2). */
static void ktls_ccm_mac_head(const struct ktls_lib_aead *a, const u8 *nonce,
			      const u8 *aad, size_t aad_len, size_t len, u8 *x)
{
	u8 blk[AES_BLOCK_SIZE] = {};
	size_t n, pre;

	x[0] = KTLS_CCM_FLAGS_B0 | (aad_len ? KTLS_CCM_FLAG_ADATA : 0);
	memcpy(x + 1, nonce, KTLS_LIB_AEAD_NONCE_SIZE);
	put_unaligned_be24(len, x + 1 + KTLS_LIB_AEAD_NONCE_SIZE);
	aes_encrypt(&a->ccm_aes, x, x);
	if (!aad_len)
		return;

	if (aad_len < KTLS_CCM_AAD_SHORT) {
		put_unaligned_be16(aad_len, blk);
		pre = 2;
	} else {
		blk[0] = 0xff;
		blk[1] = 0xfe;
		put_unaligned_be32(aad_len, blk + 2);
		pre = 6;
	}
	n = min_t(size_t, aad_len, AES_BLOCK_SIZE - pre);
	memcpy(blk + pre, aad, n);
	ktls_ccm_absorb(a, x, blk, pre + n);
	for (aad += n, aad_len -= n; aad_len; aad += n, aad_len -= n) {
		n = min_t(size_t, aad_len, AES_BLOCK_SIZE);
		ktls_ccm_absorb(a, x, aad, n);
	}
}

/*
 * The tag of @len bytes at @data: plaintext, or, if @ct, ciphertext that
 * is decrypted block by block into scratch for the MAC and left as is.
 */
static void ktls_ccm_tag(const struct ktls_lib_aead *a, const u8 *nonce,
			 const u8 *aad, size_t aad_len, const u8 *data,
			 size_t len, bool ct, u8 *tag)
{
	u8 x[AES_BLOCK_SIZE], blk[AES_BLOCK_SIZE];
	u32 ctr = KTLS_CCM_CTR_FIRST;
	size_t n;

	ktls_ccm_mac_head(a, nonce, aad, aad_len, len, x);
	for (; len; data += n, len -= n) {
		n = min_t(size_t, len, AES_BLOCK_SIZE);
		if (ct) {
			ktls_ccm_counter_block(a, nonce, ctr++, blk);
			crypto_xor(blk, data, n);
			ktls_ccm_absorb(a, x, blk, n);
		} else {
			ktls_ccm_absorb(a, x, data, n);
		}
	}
	ktls_ccm_counter_block(a, nonce, 0, tag);
	crypto_xor(tag, x, AES_BLOCK_SIZE);
	memzero_explicit(x, sizeof(x));
	memzero_explicit(blk, sizeof(blk));
}

int ktls_lib_aead_setkey(struct ktls_lib_aead *a, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len)
{
	u8 h[KTLS_GCM_BLOCK] = {};
	unsigned int i;

	ktls_lib_aead_wipe(a);
	if (!key)
		return -EINVAL;

	switch (alg) {
	case KTLS_LIB_AES_GCM:
		/* TLS 1.3 has no AES-192 suite. */
		if (key_len != AES_KEYSIZE_128 && key_len != AES_KEYSIZE_256)
			return -EINVAL;
		if (ktls_aes_enckey_set(&a->gcm.aes, key, key_len))
			goto err_wipe;
		aes_encrypt(&a->gcm.aes, h, h);
		a->gcm.h[0] = get_unaligned_be64(h);
		a->gcm.h[1] = get_unaligned_be64(h + 8);
		memzero_explicit(h, sizeof(h));
		break;
	case KTLS_LIB_AES_CCM:
		/* TLS_AES_128_CCM_SHA256 is the only CCM suite we take. */
		if (key_len != AES_KEYSIZE_128)
			return -EINVAL;
		if (ktls_aes_enckey_set(&a->ccm_aes, key, key_len))
			goto err_wipe;
		break;
	case KTLS_LIB_CHACHA20_POLY1305:
		if (key_len != CHACHA_KEY_SIZE)
			return -EINVAL;
		for (i = 0; i < ARRAY_SIZE(a->chacha_key); i++)
			a->chacha_key[i] = get_unaligned_le32(key + 4 * i);
		break;
	default:
		return -EINVAL;
	}
	a->alg = alg;
	return 0;

err_wipe:
	ktls_lib_aead_wipe(a);
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_lib_aead_setkey);

/* Whether @a is keyed and the lengths are within the documented bounds. */
static bool ktls_lib_aead_args_ok(const struct ktls_lib_aead *a,
				  const u8 *aad, size_t aad_len, size_t len)
{
	if (a->alg != KTLS_LIB_AES_GCM && a->alg != KTLS_LIB_CHACHA20_POLY1305 &&
	    a->alg != KTLS_LIB_AES_CCM)
		return false;
	if (!aad && aad_len)
		return false;
	if (a->alg == KTLS_LIB_AES_CCM && len > KTLS_LIB_AEAD_CCM_MAX_LEN)
		return false;
	return aad_len <= KTLS_LIB_AEAD_MAX_LEN && len <= KTLS_LIB_AEAD_MAX_LEN;
}

int ktls_lib_aead_seal(const struct ktls_lib_aead *a,
		       const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE],
		       const u8 *aad, size_t aad_len, u8 *buf, size_t len)
{
	if (!ktls_lib_aead_args_ok(a, aad, aad_len, len))
		return -EINVAL;

	if (a->alg == KTLS_LIB_AES_GCM) {
		ktls_gcm_ctr(a, nonce, buf, len);
		ktls_gcm_tag(a, nonce, aad, aad_len, buf, len, buf + len);
	} else if (a->alg == KTLS_LIB_AES_CCM) {
		ktls_ccm_tag(a, nonce, aad, aad_len, buf, len, false,
			     buf + len);
		ktls_ccm_ctr(a, nonce, buf, len);
	} else {
		ktls_chacha20_xor(a, nonce, buf, len);
		ktls_chacha20_poly1305_tag(a, nonce, aad, aad_len, buf, len,
					   buf + len);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_lib_aead_seal);

int ktls_lib_aead_open(const struct ktls_lib_aead *a,
		       const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE],
		       const u8 *aad, size_t aad_len, u8 *buf, size_t len)
{
	u8 tag[KTLS_LIB_AEAD_TAG_SIZE];
	size_t ct_len;
	int err;

	if (len < KTLS_LIB_AEAD_TAG_SIZE) {
		err = ktls_lib_aead_args_ok(a, aad, aad_len, 0) ? -EBADMSG :
								  -EINVAL;
		goto err_wipe;
	}
	ct_len = len - KTLS_LIB_AEAD_TAG_SIZE;
	if (!ktls_lib_aead_args_ok(a, aad, aad_len, ct_len)) {
		err = -EINVAL;
		goto err_wipe;
	}

	if (a->alg == KTLS_LIB_AES_GCM)
		ktls_gcm_tag(a, nonce, aad, aad_len, buf, ct_len, tag);
	else if (a->alg == KTLS_LIB_AES_CCM)
		ktls_ccm_tag(a, nonce, aad, aad_len, buf, ct_len, true, tag);
	else
		ktls_chacha20_poly1305_tag(a, nonce, aad, aad_len, buf, ct_len,
					   tag);
	if (crypto_memneq(tag, buf + ct_len, sizeof(tag))) {
		memzero_explicit(tag, sizeof(tag));
		err = -EBADMSG;
		goto err_wipe;
	}
	memzero_explicit(tag, sizeof(tag));

	if (a->alg == KTLS_LIB_AES_GCM)
		ktls_gcm_ctr(a, nonce, buf, ct_len);
	else if (a->alg == KTLS_LIB_AES_CCM)
		ktls_ccm_ctr(a, nonce, buf, ct_len);
	else
		ktls_chacha20_xor(a, nonce, buf, ct_len);
	return 0;

err_wipe:
	if (len)
		memzero_explicit(buf, len);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_lib_aead_open);

void ktls_lib_aead_wipe(struct ktls_lib_aead *a)
{
	memzero_explicit(a, sizeof(*a));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_lib_aead_wipe);
