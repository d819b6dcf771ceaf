/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory of in-kernel handshakes (pool.c): blocks of a few fixed sizes,
 * reused through bounded per-CPU free lists, with a host-wide cap on the
 * blocks in use, which is the cap on handshakes in progress.
 */
#ifndef _KTLS_HS_POOL_H
#define _KTLS_HS_POOL_H

#include <linux/atomic.h>
#include <linux/gfp_types.h>
#include <linux/sizes.h>
#include <linux/types.h>

/* Sizes of blocks: SZ_32K, then SZ_64K, the most a handshake may need. */
#define KTLS_HS_POOL_CLASSES		2
#define KTLS_HS_POOL_MAX_SIZE		SZ_64K
/* Free blocks of each size one CPU may keep, at most. */
#define KTLS_HS_POOL_CPU_CACHE_MAX	16

struct kmem_cache;
struct ktls_hs_pool_cpu;
struct shrinker;

/**
 * struct ktls_hs_pool - blocks of handshake memory
 * @caches:	the slab caches of the sizes
 * @names:	their names
 * @cpu:	per-CPU free lists, reserves and counters
 * @reserved:	slots of @limit taken by CPUs: blocks in use, and the
 *		reserves CPUs hold so as not to come here for every block
 * @limit:	blocks in use at most; read whenever it matters, so it may
 *		change at any time
 * @cpu_cache:	free blocks of each size a CPU keeps, at most
 * @shrinker:	gives the free blocks back under memory pressure
 */
struct ktls_hs_pool {
	struct kmem_cache *caches[KTLS_HS_POOL_CLASSES];
	char names[KTLS_HS_POOL_CLASSES][32];
	struct ktls_hs_pool_cpu __percpu *cpu;
	atomic_long_t reserved;
	const unsigned int *limit;
	const unsigned int *cpu_cache;
	struct shrinker *shrinker;
};

/**
 * struct ktls_hs_pool_stats - counters of a pool, summed over the CPUs
 * @in_use:	blocks handed out and not freed, by size
 * @cached:	free blocks kept for reuse, by size
 * @reserved:	slots of the limit taken (in use, or in a CPU's reserve)
 * @cap_fail:	allocations refused because the limit was reached
 * @nomem:	allocations the slab could not satisfy
 * @oversize:	requests larger than the largest block
 */
struct ktls_hs_pool_stats {
	unsigned long in_use[KTLS_HS_POOL_CLASSES];
	unsigned long cached[KTLS_HS_POOL_CLASSES];
	unsigned long reserved;
	unsigned long cap_fail;
	unsigned long nomem;
	unsigned long oversize;
};

int ktls_hs_pool_create(struct ktls_hs_pool *pool, const char *name,
			const unsigned int *limit,
			const unsigned int *cpu_cache);
void ktls_hs_pool_destroy(struct ktls_hs_pool *pool);
void *ktls_hs_pool_alloc(struct ktls_hs_pool *pool, size_t size, gfp_t gfp);
void ktls_hs_pool_free(struct ktls_hs_pool *pool, void *mem, size_t size);
unsigned long ktls_hs_pool_trim(struct ktls_hs_pool *pool, unsigned long nr);
void ktls_hs_pool_read_stats(struct ktls_hs_pool *pool,
			     struct ktls_hs_pool_stats *st);
unsigned int ktls_hs_pool_cached_on(struct ktls_hs_pool *pool, int cpu,
				    size_t size);
size_t ktls_hs_pool_block_size(size_t size);

/* The module's pool, bounded by the parameter max_handshakes. */
extern struct ktls_hs_pool ktls_hs_engine_pool;
int ktls_hs_pool_init(void);
void ktls_hs_pool_exit(void);

#endif /* _KTLS_HS_POOL_H */
