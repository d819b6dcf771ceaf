/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the kernel's <linux/types.h> as crypto/p256_*.c
 * use it: the short integer types, __always_inline, and the hook that
 * tells valgrind which values the algorithm makes public.
 */
#ifndef _P256_SHIM_LINUX_TYPES_H
#define _P256_SHIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <valgrind/memcheck.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned __int128 u128;

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

/* the kernel's name for the architecture the assembly paths are for */
#if defined(__x86_64__) && !defined(KTLS_P256_PORTABLE)
#define CONFIG_X86_64 1
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What the kernel's headers bring in everywhere, <linux/types.h> or not. */
#define __aligned(n)		__attribute__((__aligned__(n)))
#undef static_assert
#define static_assert(e, ...)	_Static_assert(e, #e __VA_ARGS__)
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)
#define U8_MAX			UINT8_MAX
#define U16_MAX			UINT16_MAX
#define U32_MAX			UINT32_MAX
#define U64_MAX			UINT64_MAX

/* Under valgrind the constant-time check marks secrets undefined; these are not. */
#define p256_declassify(ptr, len) VALGRIND_MAKE_MEM_DEFINED(ptr, len)
#define mlkem_declassify(ptr, len) VALGRIND_MAKE_MEM_DEFINED(ptr, len)

#endif
