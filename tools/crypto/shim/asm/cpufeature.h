/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the kernel's <asm/cpufeature.h> as crypto/p256_*.c
 * use it: cpu_feature_enabled() asks the compiler's CPU probe.  Building with
 * KTLS_P256_NO_ADX reports every feature missing, to test the plain mulq
 * path on any host; KTLS_P256_FORCE_ADX reports every feature present,
 * for the constant-time check: valgrind runs mulx, adcx and adox but
 * hides ADX from the probe.
 */
#ifndef _P256_SHIM_ASM_CPUFEATURE_H
#define _P256_SHIM_ASM_CPUFEATURE_H

#define X86_FEATURE_BMI2	"bmi2"
#define X86_FEATURE_ADX		"adx"

#if defined(KTLS_P256_NO_ADX)
#define cpu_feature_enabled(f)	0
#elif defined(KTLS_P256_FORCE_ADX)
#define cpu_feature_enabled(f)	1
#else
#define cpu_feature_enabled(f)	__builtin_cpu_supports(f)
#endif

#endif
