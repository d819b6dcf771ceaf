/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, core kernel part: what the kernels ktls_hs.ko builds
 * for (Debian's 6.1 and 6.12, and newer) do differently outside the
 * network stack.  Each difference has a named helper here.  This header,
 * the other include/ktls_hs/compat_*.h and net/compat.c are the only
 * places that test the kernel version; the rest of the module calls the
 * helpers.  The build for the newest API compiles each helper
 * to what it replaced.
 *
 * Headers that older kernels lack or keep elsewhere have stand-ins in
 * include/compat/ instead (see Kbuild).  The userspace builds of crypto/
 * and the fuzzers have a stand-in for this header in tools/crypto/shim/.
 */
#ifndef _KTLS_HS_COMPAT_H
#define _KTLS_HS_COMPAT_H

#include <linux/atomic.h>	/* 6.1's <linux/shrinker.h> needs it first */
#include <linux/container_of.h>
#include <linux/shrinker.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/version.h>

/*
 * u128: <linux/types.h> has it from 6.5 ("types: Introduce [us]128"),
 * where the architecture has 128-bit integers.  Only used under
 * CONFIG_ARCH_SUPPORTS_INT128, as in the kernel.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0) && defined(CONFIG_ARCH_SUPPORTS_INT128)
typedef unsigned __int128 u128;
#endif

/*
 * A workqueue bound to CPUs, the default before 7.x, is asked for by
 * name there (WQ_PERCPU: neither it nor WQ_UNBOUND warns).  Kernels
 * without the flag get 0, their default; Kbuild tells which.
 */
#ifdef KTLS_NO_WQ_PERCPU
#define KTLS_WQ_PERCPU	0
#else
#define KTLS_WQ_PERCPU	WQ_PERCPU
#endif

/*
 * The structure holding a timer_list, in its callback: from_timer()
 * became timer_container_of() in 6.16, and the old name went away.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define ktls_timer_container_of(var, timer, field) \
	timer_container_of(var, timer, field)
#else
#define ktls_timer_container_of(var, timer, field) \
	from_timer(var, timer, field)
#endif

/*
 * A string field of a trace event, in TP_fast_assign(): from 6.10 on
 * __assign_str() takes the field alone, since __string() named the
 * source already; before, it takes the source again.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define ktls_assign_str(field, src)	__assign_str(field)
#else
#define ktls_assign_str(field, src)	__assign_str(field, src)
#endif

/*
 * Shrinkers.  From 6.7 on they are allocated by the core (shrinker_alloc(),
 * shrinker_register(), which cannot fail, and shrinker_free()) and carry
 * a private_data pointer.  Before, the caller embeds struct shrinker,
 * register_shrinker() may fail, and unregister_shrinker() undoes it: the
 * compat layer embeds it in a struct of its own with the pointer.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
static inline struct shrinker *ktls_shrinker_alloc(const char *name)
{
	return shrinker_alloc(0, "%s", name);
}

static inline int ktls_shrinker_register(struct shrinker *shrinker)
{
	shrinker_register(shrinker);
	return 0;
}

static inline void ktls_shrinker_free(struct shrinker *shrinker)
{
	shrinker_free(shrinker);
}

static inline void ktls_shrinker_set_private(struct shrinker *shrinker,
					     void *data)
{
	shrinker->private_data = data;
}

static inline void *ktls_shrinker_private(struct shrinker *shrinker)
{
	return shrinker->private_data;
}
#else
/**
 * struct ktls_compat_shrinker - a shrinker as the core allocates it from 6.7
 * @shrinker:	what register_shrinker() takes
 * @private_data: the owner's pointer
 * @name:	its name, for register_shrinker()
 * @registered:	register_shrinker() succeeded
 */
struct ktls_compat_shrinker {
	struct shrinker shrinker;
	void *private_data;
	const char *name;
	bool registered;
};

struct shrinker *ktls_shrinker_alloc(const char *name);
int ktls_shrinker_register(struct shrinker *shrinker);
void ktls_shrinker_free(struct shrinker *shrinker);

static inline void ktls_shrinker_set_private(struct shrinker *shrinker,
					     void *data)
{
	container_of(shrinker, struct ktls_compat_shrinker,
		     shrinker)->private_data = data;
}

static inline void *ktls_shrinker_private(struct shrinker *shrinker)
{
	return container_of(shrinker, struct ktls_compat_shrinker,
			    shrinker)->private_data;
}
#endif

#endif /* _KTLS_HS_COMPAT_H */
