/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <linux/timekeeping.h>: the wall clock.  The
 * fuzzers (KTLS_FUZZ) read a fixed one of their own, so that a
 * reproducer replays the same verification.
 */
#ifndef _KTLS_SHIM_LINUX_TIMEKEEPING_H
#define _KTLS_SHIM_LINUX_TIMEKEEPING_H

#include <time.h>

#include <linux/time64.h>

#ifdef KTLS_FUZZ
time64_t ktls_fuzz_now(void);
#define ktime_get_real_seconds()	ktls_fuzz_now()
#else
static inline time64_t ktime_get_real_seconds(void)
{
	return time(NULL);
}
#endif

#endif
