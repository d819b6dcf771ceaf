/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pieces of Montgomery multiplication that p256_field.c (mod p) and
 * p256_scalar.c (mod n) share: carry helpers and the 4 x 4 limb product
 * and square in portable C, and on x86-64 the same steps as inline
 * assembly.  Each file keeps its own reduction, since p's shape makes
 * its rounds much cheaper than n's.
 *
 * The assembly is integer-only (mulq and adc chains, and where the CPU
 * has BMI2 and ADX, mulx with two interleaved carry chains; no FPU or
 * vector registers), so it runs in any context; it has no branches and
 * every address it loads from is fixed.  Which of the two runs depends on
 * the CPU alone, never on data.
 */
#ifndef _KTLS_HS_P256_MONT_H
#define _KTLS_HS_P256_MONT_H

#include <linux/types.h>
#include <ktls_hs/compat.h>
#ifdef CONFIG_X86_64
#include <asm/cpufeature.h>
#endif

/* t + a * b + *carry, whose high half becomes the next carry; never overflows. */
static __always_inline u64 mont_mac(u64 *carry, u64 t, u64 a, u64 b)
{
	u128 r = (u128)a * b + t + *carry;

	*carry = r >> 64;
	return (u64)r;
}

static __always_inline u64 mont_adc(u64 *carry, u64 a, u64 b)
{
	u128 r = (u128)a + b + *carry;

	*carry = r >> 64;
	return (u64)r;
}

static __always_inline u64 mont_sbb(u64 *borrow, u64 a, u64 b)
{
	u128 r = (u128)a - b - *borrow;

	*borrow = (u64)(r >> 64) & 1;
	return (u64)r;
}

#ifdef CONFIG_X86_64

/*
 * The macros below are pieces of one asm statement.  Limbs are named
 * register operands passed by name (T0 is %[T0]), and so is the
 * multiplier X; S0..S3 are operand text, so the other factor may be in
 * memory.  All of them use %rax, %rdx and a scratch operand %[tmp].
 *
 * MONT_ROW_LOW: T0..T3 += (S3:S2:S1:S0) * X but for the top limb of the
 * product, which is left in %rdx with the carry into it pending.
 */
#define MONT_ROW_LOW(S0, S1, S2, S3, X, T0, T1, T2, T3)	\
	"movq " S0 ", %%rax\n\t"				\
	"mulq %[" #X "]\n\t"					\
	"addq %%rax, %[" #T0 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[tmp]\n\t"				\
	"movq " S1 ", %%rax\n\t"				\
	"mulq %[" #X "]\n\t"					\
	"addq %[tmp], %%rax\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"addq %%rax, %[" #T1 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[tmp]\n\t"				\
	"movq " S2 ", %%rax\n\t"				\
	"mulq %[" #X "]\n\t"					\
	"addq %[tmp], %%rax\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"addq %%rax, %[" #T2 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[tmp]\n\t"				\
	"movq " S3 ", %%rax\n\t"				\
	"mulq %[" #X "]\n\t"					\
	"addq %[tmp], %%rax\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"addq %%rax, %[" #T3 "]\n\t"

/*
 * MONT_ROW: T0..T5 += (S3:S2:S1:S0) * X.  The caller proves that the sum
 * fits, so the carry out of T5 is always zero.
 */
#define MONT_ROW(S0, S1, S2, S3, X, T0, T1, T2, T3, T4, T5)	\
	MONT_ROW_LOW(S0, S1, S2, S3, X, T0, T1, T2, T3)		\
	"adcq %%rdx, %[" #T4 "]\n\t"				\
	"adcq $0, %[" #T5 "]\n\t"

/*
 * MONT_ROW_TOP: T0..T3 += (S3:S2:S1:S0) * X with the top limb stored in
 * T0, for a reduction round whose caller proves that the sum fits in
 * T1..T3 and one limb more; T0 itself became zero.
 */
#define MONT_ROW_TOP(S0, S1, S2, S3, X, T0, T1, T2, T3)	\
	MONT_ROW_LOW(S0, S1, S2, S3, X, T0, T1, T2, T3)		\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[" #T0 "]\n\t"

/*
 * MONT_ROW_ADX: T0..T5 += (S3:S2:S1:S0) * %rdx with mulx, the low halves
 * of the products carried along CF (adcx) and the high halves along OF
 * (adox), so the two additions into each limb do not wait for each
 * other.  The caller clears T5 and both flags and holds zero in %[zero];
 * as for MONT_ROW, it proves the sum fits.
 */
#define MONT_ROW_ADX(S0, S1, S2, S3, T0, T1, T2, T3, T4, T5)	\
	"mulxq " S0 ", %[lo], %[hi]\n\t"			\
	"adcxq %[lo], %[" #T0 "]\n\t"				\
	"adoxq %[hi], %[" #T1 "]\n\t"				\
	"mulxq " S1 ", %[lo], %[hi]\n\t"			\
	"adcxq %[lo], %[" #T1 "]\n\t"				\
	"adoxq %[hi], %[" #T2 "]\n\t"				\
	"mulxq " S2 ", %[lo], %[hi]\n\t"			\
	"adcxq %[lo], %[" #T2 "]\n\t"				\
	"adoxq %[hi], %[" #T3 "]\n\t"				\
	"mulxq " S3 ", %[lo], %[hi]\n\t"			\
	"adcxq %[lo], %[" #T3 "]\n\t"				\
	"adoxq %[hi], %[" #T4 "]\n\t"				\
	"adcxq %[zero], %[" #T4 "]\n\t"			\
	"adoxq %[zero], %[" #T5 "]\n\t"			\
	"adcxq %[zero], %[" #T5 "]\n\t"

/*
 * MONT_SQR_WIDE with mulx: the cross products, then one pass that
 * doubles them along CF while the diagonal squares go in along OF.  Uses
 * %rdx, %[lo], %[hi] and %[zero].
 */
#define MONT_SQR_WIDE_ADX(T0, T1, T2, T3, T4, T5, T6, T7)	\
	"movq 0(%[ap]), %%rdx\n\t"			\
	"mulxq 8(%[ap]), %[" #T1 "], %[" #T2 "]\n\t"	\
	"mulxq 16(%[ap]), %[lo], %[" #T3 "]\n\t"	\
	"addq %[lo], %[" #T2 "]\n\t"			\
	"mulxq 24(%[ap]), %[lo], %[" #T4 "]\n\t"	\
	"adcq %[lo], %[" #T3 "]\n\t"			\
	"adcq $0, %[" #T4 "]\n\t"			\
	"movq 8(%[ap]), %%rdx\n\t"			\
	"xorl %k[" #T5 "], %k[" #T5 "]\n\t"		\
	"xorl %k[zero], %k[zero]\n\t"			\
	"mulxq 16(%[ap]), %[lo], %[hi]\n\t"		\
	"adcxq %[lo], %[" #T3 "]\n\t"			\
	"adoxq %[hi], %[" #T4 "]\n\t"			\
	"mulxq 24(%[ap]), %[lo], %[hi]\n\t"		\
	"adcxq %[lo], %[" #T4 "]\n\t"			\
	"adoxq %[hi], %[" #T5 "]\n\t"			\
	"adcxq %[zero], %[" #T5 "]\n\t"			\
	"movq 16(%[ap]), %%rdx\n\t"			\
	"mulxq 24(%[ap]), %[lo], %[" #T6 "]\n\t"	\
	"addq %[lo], %[" #T5 "]\n\t"			\
	"adcq $0, %[" #T6 "]\n\t"			\
	"xorl %k[" #T7 "], %k[" #T7 "]\n\t"		\
	"movq 0(%[ap]), %%rdx\n\t"			\
	"xorl %k[zero], %k[zero]\n\t"			\
	"mulxq %%rdx, %[" #T0 "], %[hi]\n\t"		\
	"adcxq %[" #T1 "], %[" #T1 "]\n\t"		\
	"adoxq %[hi], %[" #T1 "]\n\t"			\
	"movq 8(%[ap]), %%rdx\n\t"			\
	"mulxq %%rdx, %[lo], %[hi]\n\t"			\
	"adcxq %[" #T2 "], %[" #T2 "]\n\t"		\
	"adoxq %[lo], %[" #T2 "]\n\t"			\
	"adcxq %[" #T3 "], %[" #T3 "]\n\t"		\
	"adoxq %[hi], %[" #T3 "]\n\t"			\
	"movq 16(%[ap]), %%rdx\n\t"			\
	"mulxq %%rdx, %[lo], %[hi]\n\t"			\
	"adcxq %[" #T4 "], %[" #T4 "]\n\t"		\
	"adoxq %[lo], %[" #T4 "]\n\t"			\
	"adcxq %[" #T5 "], %[" #T5 "]\n\t"		\
	"adoxq %[hi], %[" #T5 "]\n\t"			\
	"movq 24(%[ap]), %%rdx\n\t"			\
	"mulxq %%rdx, %[lo], %[hi]\n\t"			\
	"adcxq %[" #T6 "], %[" #T6 "]\n\t"		\
	"adoxq %[lo], %[" #T6 "]\n\t"			\
	"adcxq %[zero], %[" #T7 "]\n\t"			\
	"adoxq %[hi], %[" #T7 "]\n\t"

/* Whether the mulx rows can run: a property of the CPU, never of data. */
static __always_inline bool mont_have_adx(void)
{
	return cpu_feature_enabled(X86_FEATURE_BMI2) &&
	       cpu_feature_enabled(X86_FEATURE_ADX);
}

/*
 * The 512-bit square of the four limbs at %[ap] into T0..T7: the six
 * cross products once, doubled, plus the four on the diagonal.  mulq
 * clobbers the carry flag, so between the diagonal terms the carry waits
 * in %[tmp] as 0 or -1 and negq turns it back into the flag.
 */
#define MONT_SQR_WIDE(T0, T1, T2, T3, T4, T5, T6, T7)		\
	"movq 8(%[ap]), %%rax\n\t"				\
	"mulq 0(%[ap])\n\t"					\
	"movq %%rax, %[" #T1 "]\n\t"				\
	"movq %%rdx, %[" #T2 "]\n\t"				\
	"movq 16(%[ap]), %%rax\n\t"				\
	"mulq 0(%[ap])\n\t"					\
	"addq %%rax, %[" #T2 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[" #T3 "]\n\t"				\
	"movq 24(%[ap]), %%rax\n\t"				\
	"mulq 0(%[ap])\n\t"					\
	"addq %%rax, %[" #T3 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[" #T4 "]\n\t"				\
	"movq 16(%[ap]), %%rax\n\t"				\
	"mulq 8(%[ap])\n\t"					\
	"addq %%rax, %[" #T3 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[tmp]\n\t"				\
	"movq 24(%[ap]), %%rax\n\t"				\
	"mulq 8(%[ap])\n\t"					\
	"addq %[tmp], %%rax\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"addq %%rax, %[" #T4 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[" #T5 "]\n\t"				\
	"movq 24(%[ap]), %%rax\n\t"				\
	"mulq 16(%[ap])\n\t"					\
	"addq %%rax, %[" #T5 "]\n\t"				\
	"adcq $0, %%rdx\n\t"					\
	"movq %%rdx, %[" #T6 "]\n\t"				\
	"movq $0, %[" #T7 "]\n\t"				\
	"addq %[" #T1 "], %[" #T1 "]\n\t"			\
	"adcq %[" #T2 "], %[" #T2 "]\n\t"			\
	"adcq %[" #T3 "], %[" #T3 "]\n\t"			\
	"adcq %[" #T4 "], %[" #T4 "]\n\t"			\
	"adcq %[" #T5 "], %[" #T5 "]\n\t"			\
	"adcq %[" #T6 "], %[" #T6 "]\n\t"			\
	"adcq $0, %[" #T7 "]\n\t"				\
	"movq 0(%[ap]), %%rax\n\t"				\
	"mulq %%rax\n\t"					\
	"movq %%rax, %[" #T0 "]\n\t"				\
	"movq %%rdx, %[tmp]\n\t"				\
	"movq 8(%[ap]), %%rax\n\t"				\
	"mulq %%rax\n\t"					\
	"addq %[tmp], %[" #T1 "]\n\t"				\
	"adcq %%rax, %[" #T2 "]\n\t"				\
	"adcq %%rdx, %[" #T3 "]\n\t"				\
	"sbbq %[tmp], %[tmp]\n\t"				\
	"movq 16(%[ap]), %%rax\n\t"				\
	"mulq %%rax\n\t"					\
	"negq %[tmp]\n\t"					\
	"adcq %%rax, %[" #T4 "]\n\t"				\
	"adcq %%rdx, %[" #T5 "]\n\t"				\
	"sbbq %[tmp], %[tmp]\n\t"				\
	"movq 24(%[ap]), %%rax\n\t"				\
	"mulq %%rax\n\t"					\
	"negq %[tmp]\n\t"					\
	"adcq %%rax, %[" #T6 "]\n\t"				\
	"adcq %%rdx, %[" #T7 "]\n\t"

/*
 * (D3:D2:D1:D0) = (TOP:R3:R2:R1:R0) mod m for a value below 2m, with
 * (M3:M2:M1:M0) the modulus as operand text: subtract m and take the
 * value back with cmov when that borrowed, so the choice is made by the
 * carry flag, never by a branch.  TOP is clobbered.
 */
#define MONT_FINAL(M0, M1, M2, M3, R0, R1, R2, R3, TOP, D0, D1, D2, D3) \
	"movq %[" #R0 "], %[" #D0 "]\n\t"			\
	"movq %[" #R1 "], %[" #D1 "]\n\t"			\
	"movq %[" #R2 "], %[" #D2 "]\n\t"			\
	"movq %[" #R3 "], %[" #D3 "]\n\t"			\
	"subq " M0 ", %[" #D0 "]\n\t"				\
	"sbbq " M1 ", %[" #D1 "]\n\t"				\
	"sbbq " M2 ", %[" #D2 "]\n\t"				\
	"sbbq " M3 ", %[" #D3 "]\n\t"				\
	"sbbq $0, %[" #TOP "]\n\t"				\
	"cmovcq %[" #R0 "], %[" #D0 "]\n\t"			\
	"cmovcq %[" #R1 "], %[" #D1 "]\n\t"			\
	"cmovcq %[" #R2 "], %[" #D2 "]\n\t"			\
	"cmovcq %[" #R3 "], %[" #D3 "]\n\t"

#else /* !CONFIG_X86_64 */

/*
 * t = a * b as eight limbs, by rows of a[i] * b.  Written out: GCC keeps
 * the limbs in registers only when nothing is left to a loop.
 */
static __always_inline void mont_mul_wide(u64 t[8], const u64 a[4], const u64 b[4])
{
	u64 c;

	c = 0;
	t[0] = mont_mac(&c, 0, a[0], b[0]);
	t[1] = mont_mac(&c, 0, a[0], b[1]);
	t[2] = mont_mac(&c, 0, a[0], b[2]);
	t[3] = mont_mac(&c, 0, a[0], b[3]);
	t[4] = c;
	c = 0;
	t[1] = mont_mac(&c, t[1], a[1], b[0]);
	t[2] = mont_mac(&c, t[2], a[1], b[1]);
	t[3] = mont_mac(&c, t[3], a[1], b[2]);
	t[4] = mont_mac(&c, t[4], a[1], b[3]);
	t[5] = c;
	c = 0;
	t[2] = mont_mac(&c, t[2], a[2], b[0]);
	t[3] = mont_mac(&c, t[3], a[2], b[1]);
	t[4] = mont_mac(&c, t[4], a[2], b[2]);
	t[5] = mont_mac(&c, t[5], a[2], b[3]);
	t[6] = c;
	c = 0;
	t[3] = mont_mac(&c, t[3], a[3], b[0]);
	t[4] = mont_mac(&c, t[4], a[3], b[1]);
	t[5] = mont_mac(&c, t[5], a[3], b[2]);
	t[6] = mont_mac(&c, t[6], a[3], b[3]);
	t[7] = c;
}

/* t = a^2 as eight limbs: the products a[i] a[j], i < j, doubled, plus the diagonal */
static __always_inline void mont_sqr_wide(u64 t[8], const u64 a[4])
{
	u64 c;
	u128 sq;

	c = 0;
	t[1] = mont_mac(&c, 0, a[0], a[1]);
	t[2] = mont_mac(&c, 0, a[0], a[2]);
	t[3] = mont_mac(&c, 0, a[0], a[3]);
	t[4] = c;
	c = 0;
	t[3] = mont_mac(&c, t[3], a[1], a[2]);
	t[4] = mont_mac(&c, t[4], a[1], a[3]);
	t[5] = c;
	c = 0;
	t[5] = mont_mac(&c, t[5], a[2], a[3]);
	t[6] = c;
	t[7] = t[6] >> 63;
	t[6] = t[6] << 1 | t[5] >> 63;
	t[5] = t[5] << 1 | t[4] >> 63;
	t[4] = t[4] << 1 | t[3] >> 63;
	t[3] = t[3] << 1 | t[2] >> 63;
	t[2] = t[2] << 1 | t[1] >> 63;
	t[1] <<= 1;
	c = 0;
	sq = (u128)a[0] * a[0];
	t[0] = (u64)sq;
	t[1] = mont_adc(&c, t[1], (u64)(sq >> 64));
	sq = (u128)a[1] * a[1];
	t[2] = mont_adc(&c, t[2], (u64)sq);
	t[3] = mont_adc(&c, t[3], (u64)(sq >> 64));
	sq = (u128)a[2] * a[2];
	t[4] = mont_adc(&c, t[4], (u64)sq);
	t[5] = mont_adc(&c, t[5], (u64)(sq >> 64));
	sq = (u128)a[3] * a[3];
	t[6] = mont_adc(&c, t[6], (u64)sq);
	t[7] = mont_adc(&c, t[7], (u64)(sq >> 64));
}

#endif /* CONFIG_X86_64 */

#endif /* _KTLS_HS_P256_MONT_H */
