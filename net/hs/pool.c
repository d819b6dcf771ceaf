// SPDX-License-Identifier: GPL-2.0-only
/*
 * Handshake memory: every handshake in progress holds one block for its
 * engine, of ktls_hs_size() bytes, a size set by the certificate chains
 * configured and never by what a client sends.  Blocks come in two sizes,
 * each from a slab cache of its own: 32 KiB holds the engine of a P-256
 * chain of up to three ordinary certificates (about 28-30 KiB, see the
 * KUnit test of the sizes), 64 KiB one of chains up to some 37 KiB of
 * DER.  Settings whose engine would need more are refused when the
 * identity is configured (-EMSGSIZE), not when a client connects.  The
 * sizes are powers of two so that a slab of one block wastes nothing.
 * The group chosen does not change them: a post-quantum hybrid key
 * exchange's working memory (struct ktls_hs_kex, some 7 KiB) is lent by
 * the engine's input buffer once the ClientHello is in the transcript,
 * and the output buffer always has room for its 1.1 KiB share, so a
 * handshake holds one block, whichever group, and nothing on the stack.
 *
 * Bounds.  Blocks in use never exceed the limit (max_handshakes): a
 * block takes a slot of it first.  So that a handshake does not touch
 * one host-wide counter, a CPU takes slots a batch at a time into a
 * reserve of its own and gives back what exceeds two batches.  A batch
 * is an eighth of the limit spread over the online CPUs (at most
 * KTLS_HS_POOL_BATCH_MAX, and none at all for a small limit, which is
 * then exact), so the reserves idle CPUs hold, at most a quarter of the
 * limit, are the most by which an allocation can fail early.  Free
 * blocks kept for reuse are bounded by pool_cpu_cache per size and CPU.
 *
 * Each CPU's free lists, reserve and counters sit under a spinlock of
 * their own rather than a local_lock: the owning CPU is the only regular
 * user, so the lock is never contended, but it lets the shrinker and
 * module unload empty every CPU's lists from wherever they run, without
 * an IPI.  Users run in softirq and in process context; handshake
 * teardown may come with interrupts off, hence the irqsave.  A block
 * goes back to the list of the CPU that frees it, or to the slab when
 * that list is full.
 *
 * A block held traffic secrets and key shares: it is wiped whole before
 * it goes back to a free list or the slab.
 *
 * Free blocks go back to the slab under memory pressure, through a
 * shrinker with seeks 0: a block costs one allocation to make again and
 * no I/O, so half of them go at every reclaim pass, and none are given
 * up while memory is plentiful, which a periodic trim would do for no
 * gain (or too late under a burst of pressure).  Module unload empties
 * the lists; by then every handshake is gone, since each socket holds a
 * reference on the module.
 *
 * The caches are not SLAB_ACCOUNT: listener children allocate in
 * softirq, where there is no task whose memory cgroup could be charged,
 * and a block reused across cgroups would stay charged to (and pin) the
 * first.  The bound is max_handshakes, host-wide, as the handshakes are.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <net/net_namespace.h>

#include <ktls_hs/compat.h>

#include "pool.h"

/* Slots a CPU takes from the limit at once, at most. */
#define KTLS_HS_POOL_BATCH_MAX	32U

static const unsigned int ktls_hs_pool_sizes[KTLS_HS_POOL_CLASSES] = {
	SZ_32K, KTLS_HS_POOL_MAX_SIZE,
};

/**
 * struct ktls_hs_pool_cpu - one CPU's share of a pool
 * @lock:	guards all of it
 * @reserve:	slots of the limit this CPU took and does not use
 * @in_use:	blocks allocated here less blocks freed here, by size:
 *		only the sum over the CPUs means anything
 * @nr:		free blocks in @free, by size
 * @free:	free blocks, wiped, by size
 * @cap_fail:	see struct ktls_hs_pool_stats
 * @nomem:	likewise
 * @oversize:	likewise
 */
struct ktls_hs_pool_cpu {
	spinlock_t lock;	/* the whole struct */
	unsigned int reserve;
	long in_use[KTLS_HS_POOL_CLASSES];
	unsigned int nr[KTLS_HS_POOL_CLASSES];
	void *free[KTLS_HS_POOL_CLASSES][KTLS_HS_POOL_CPU_CACHE_MAX];
	unsigned long cap_fail;
	unsigned long nomem;
	unsigned long oversize;
};

/* The size class of a request of @size bytes, or -1 if none fits. */
static int ktls_hs_pool_class(size_t size)
{
	int cls;

	for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++)
		if (size && size <= ktls_hs_pool_sizes[cls])
			return cls;
	return -1;
}

/**
 * ktls_hs_pool_block_size() - the block a request would get
 * @size:	bytes wanted
 *
 * Return: the size of the block, or 0 if @size is 0 or too large.
 */
size_t ktls_hs_pool_block_size(size_t size)
{
	int cls = ktls_hs_pool_class(size);

	return cls < 0 ? 0 : ktls_hs_pool_sizes[cls];
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_block_size);

static unsigned int ktls_hs_pool_batch(const struct ktls_hs_pool *pool)
{
	unsigned int limit = READ_ONCE(*pool->limit);

	return min(limit / (8 * num_online_cpus()), KTLS_HS_POOL_BATCH_MAX);
}

/* Take @n slots of the limit, all or none. */
static bool ktls_hs_pool_take(struct ktls_hs_pool *pool, unsigned int n)
{
	long limit = READ_ONCE(*pool->limit);
	long cur = atomic_long_read(&pool->reserved);

	do {
		if (cur + n > limit)
			return false;
	} while (!atomic_long_try_cmpxchg(&pool->reserved, &cur, cur + n));
	return true;
}

/* An empty reserve takes a batch, or the last slot left. */
static bool ktls_hs_pool_refill(struct ktls_hs_pool *pool,
				struct ktls_hs_pool_cpu *pc)
{
	unsigned int batch = max(ktls_hs_pool_batch(pool), 1U);

	if (!ktls_hs_pool_take(pool, batch)) {
		if (batch == 1 || !ktls_hs_pool_take(pool, 1))
			return false;
		batch = 1;
	}
	pc->reserve = batch;
	return true;
}

/**
 * ktls_hs_pool_alloc() - a block of at least @size bytes
 * @pool:	the pool
 * @size:	bytes wanted, at most KTLS_HS_POOL_MAX_SIZE
 * @gfp:	for the slab, when no free block is at hand
 *
 * Any context but hardirq.  The block's contents are undefined; it is
 * aligned as kmalloc aligns.
 *
 * Return: the block, or ERR_PTR(-EBUSY) when the limit is reached,
 * -EMSGSIZE when @size is too large, -EINVAL for 0, -ENOMEM.
 */
void *ktls_hs_pool_alloc(struct ktls_hs_pool *pool, size_t size, gfp_t gfp)
{
	int cls = ktls_hs_pool_class(size);
	struct ktls_hs_pool_cpu *pc;
	unsigned long flags;
	void *mem = NULL;
	unsigned int n;

	/* The CPU may change under us: any CPU's share will do. */
	pc = raw_cpu_ptr(pool->cpu);
	spin_lock_irqsave(&pc->lock, flags);
	if (cls < 0) {
		if (size)
			pc->oversize++;
		spin_unlock_irqrestore(&pc->lock, flags);
		return ERR_PTR(size ? -EMSGSIZE : -EINVAL);
	}
	if (!pc->reserve && !ktls_hs_pool_refill(pool, pc)) {
		pc->cap_fail++;
		spin_unlock_irqrestore(&pc->lock, flags);
		return ERR_PTR(-EBUSY);
	}
	pc->reserve--;
	pc->in_use[cls]++;
	n = pc->nr[cls];
	if (n) {
		mem = pc->free[cls][n - 1];
		/* The shrinker counts without the lock. */
		WRITE_ONCE(pc->nr[cls], n - 1);
	}
	spin_unlock_irqrestore(&pc->lock, flags);
	if (mem)
		return mem;

	mem = kmem_cache_alloc(pool->caches[cls], gfp);
	if (mem)
		return mem;

	pc = raw_cpu_ptr(pool->cpu);
	spin_lock_irqsave(&pc->lock, flags);
	pc->nomem++;
	spin_unlock_irqrestore(&pc->lock, flags);
	ktls_hs_pool_free(pool, NULL, size);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_alloc);

/**
 * ktls_hs_pool_free() - give a block back
 * @pool:	the pool it came from
 * @mem:	the block, or NULL to give back only the slot of a block the
 *		slab failed to provide
 * @size:	the size it was asked for
 *
 * Any context but hardirq.  The block is wiped, then kept on this CPU's
 * free list if there is room, else freed.
 */
void ktls_hs_pool_free(struct ktls_hs_pool *pool, void *mem, size_t size)
{
	unsigned int keep = min_t(unsigned int, READ_ONCE(*pool->cpu_cache),
				  KTLS_HS_POOL_CPU_CACHE_MAX);
	unsigned int batch = ktls_hs_pool_batch(pool);
	int cls = ktls_hs_pool_class(size);
	struct ktls_hs_pool_cpu *pc;
	unsigned long flags;

	if (WARN_ON_ONCE(cls < 0))
		return;
	if (mem)
		memzero_explicit(mem, ktls_hs_pool_sizes[cls]);

	pc = raw_cpu_ptr(pool->cpu);
	spin_lock_irqsave(&pc->lock, flags);
	pc->in_use[cls]--;
	pc->reserve++;
	if (pc->reserve > 2 * batch) {
		atomic_long_sub(pc->reserve - batch, &pool->reserved);
		pc->reserve = batch;
	}
	if (mem && pc->nr[cls] < keep) {
		pc->free[cls][pc->nr[cls]] = mem;
		WRITE_ONCE(pc->nr[cls], pc->nr[cls] + 1);
		mem = NULL;
	}
	spin_unlock_irqrestore(&pc->lock, flags);
	if (mem)
		kmem_cache_free(pool->caches[cls], mem);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_free);

/**
 * ktls_hs_pool_trim() - free cached blocks, and give back idle reserves
 * @pool:	the pool
 * @nr:		blocks to free at most, larger ones first
 *
 * Process context.  Every CPU's reserve goes back to the limit.
 * Return: the number of blocks freed.
 */
unsigned long ktls_hs_pool_trim(struct ktls_hs_pool *pool, unsigned long nr)
{
	void *gone[KTLS_HS_POOL_CLASSES][KTLS_HS_POOL_CPU_CACHE_MAX];
	unsigned int n[KTLS_HS_POOL_CLASSES];
	unsigned long freed = 0, flags;
	unsigned int i;
	int cpu, cls;

	for_each_possible_cpu(cpu) {
		struct ktls_hs_pool_cpu *pc = per_cpu_ptr(pool->cpu, cpu);

		spin_lock_irqsave(&pc->lock, flags);
		for (cls = KTLS_HS_POOL_CLASSES - 1; cls >= 0; cls--) {
			n[cls] = min_t(unsigned long, pc->nr[cls], nr - freed);
			WRITE_ONCE(pc->nr[cls], pc->nr[cls] - n[cls]);
			memcpy(gone[cls], &pc->free[cls][pc->nr[cls]],
			       n[cls] * sizeof(gone[cls][0]));
			freed += n[cls];
		}
		if (pc->reserve) {
			atomic_long_sub(pc->reserve, &pool->reserved);
			pc->reserve = 0;
		}
		spin_unlock_irqrestore(&pc->lock, flags);

		for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++)
			for (i = 0; i < n[cls]; i++)
				kmem_cache_free(pool->caches[cls], gone[cls][i]);
		cond_resched();
	}
	return freed;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_trim);

/**
 * ktls_hs_pool_read_stats() - the pool's counters
 * @pool:	the pool
 * @st:		filled in; each CPU is read consistently, not all at once
 */
void ktls_hs_pool_read_stats(struct ktls_hs_pool *pool,
			     struct ktls_hs_pool_stats *st)
{
	long in_use[KTLS_HS_POOL_CLASSES] = { };
	unsigned long flags;
	int cpu, cls;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		struct ktls_hs_pool_cpu *pc = per_cpu_ptr(pool->cpu, cpu);

		spin_lock_irqsave(&pc->lock, flags);
		for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++) {
			in_use[cls] += pc->in_use[cls];
			st->cached[cls] += pc->nr[cls];
		}
		st->cap_fail += pc->cap_fail;
		st->nomem += pc->nomem;
		st->oversize += pc->oversize;
		spin_unlock_irqrestore(&pc->lock, flags);
	}
	/* Mid-flight frees on another CPU may make a sum dip for a moment. */
	for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++)
		st->in_use[cls] = max(in_use[cls], 0L);
	st->reserved = atomic_long_read(&pool->reserved);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_read_stats);

/**
 * ktls_hs_pool_cached_on() - free blocks one CPU keeps
 * @pool:	the pool
 * @cpu:	the CPU
 * @size:	of the size class of @size
 */
unsigned int ktls_hs_pool_cached_on(struct ktls_hs_pool *pool, int cpu,
				    size_t size)
{
	int cls = ktls_hs_pool_class(size);

	return cls < 0 ? 0 : READ_ONCE(per_cpu_ptr(pool->cpu, cpu)->nr[cls]);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_cached_on);

/* Shrinker objects are blocks; a block costs no I/O to make again. */
static unsigned long ktls_hs_pool_count(struct shrinker *shrinker,
					struct shrink_control *sc)
{
	struct ktls_hs_pool *pool = ktls_shrinker_private(shrinker);
	unsigned long nr = 0;
	int cpu, cls;

	for_each_possible_cpu(cpu)
		for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++)
			nr += READ_ONCE(per_cpu_ptr(pool->cpu, cpu)->nr[cls]);
	return nr ?: SHRINK_EMPTY;
}

static unsigned long ktls_hs_pool_scan(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	struct ktls_hs_pool *pool = ktls_shrinker_private(shrinker);
	unsigned long freed = ktls_hs_pool_trim(pool, sc->nr_to_scan);

	return freed ?: SHRINK_STOP;
}

/**
 * ktls_hs_pool_create() - set up a pool
 * @pool:	the pool
 * @name:	prefix of its slab caches' names (and its shrinker's)
 * @limit:	where the limit on blocks in use is read
 * @cpu_cache:	where the cap on each CPU's free blocks of a size is
 *		read; above KTLS_HS_POOL_CPU_CACHE_MAX counts as that
 *
 * Return: 0 or -ENOMEM.
 */
int ktls_hs_pool_create(struct ktls_hs_pool *pool, const char *name,
			const unsigned int *limit, const unsigned int *cpu_cache)
{
	int cpu, cls;

	memset(pool, 0, sizeof(*pool));
	pool->limit = limit;
	pool->cpu_cache = cpu_cache;
	pool->cpu = alloc_percpu(struct ktls_hs_pool_cpu);
	if (!pool->cpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		spin_lock_init(&per_cpu_ptr(pool->cpu, cpu)->lock);

	for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++) {
		snprintf(pool->names[cls], sizeof(pool->names[cls]), "%s_%uk",
			 name, ktls_hs_pool_sizes[cls] / SZ_1K);
		/* The engine asks for kmalloc's alignment. */
		pool->caches[cls] = kmem_cache_create(pool->names[cls],
						      ktls_hs_pool_sizes[cls],
						      ARCH_KMALLOC_MINALIGN, 0,
						      NULL);
		if (!pool->caches[cls])
			goto err_caches;
	}

	pool->shrinker = ktls_shrinker_alloc(name);
	if (!pool->shrinker)
		goto err_caches;
	pool->shrinker->count_objects = ktls_hs_pool_count;
	pool->shrinker->scan_objects = ktls_hs_pool_scan;
	pool->shrinker->seeks = 0;
	pool->shrinker->batch = 1;
	ktls_shrinker_set_private(pool->shrinker, pool);
	if (ktls_shrinker_register(pool->shrinker))
		goto err_shrinker;
	return 0;

err_shrinker:
	ktls_shrinker_free(pool->shrinker);
err_caches:
	while (--cls >= 0)
		kmem_cache_destroy(pool->caches[cls]);
	free_percpu(pool->cpu);
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_create);

/**
 * ktls_hs_pool_destroy() - free a pool whose blocks all came back
 * @pool:	the pool
 */
void ktls_hs_pool_destroy(struct ktls_hs_pool *pool)
{
	int cls;

	/* Waits for a running scan. */
	ktls_shrinker_free(pool->shrinker);
	ktls_hs_pool_trim(pool, ULONG_MAX);
	WARN_ONCE(atomic_long_read(&pool->reserved),
		  "%ld handshake memory blocks still in use\n",
		  atomic_long_read(&pool->reserved));
	for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++)
		kmem_cache_destroy(pool->caches[cls]);
	free_percpu(pool->cpu);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_pool_destroy);

/* ------------------------------------------------- the module's pool */

struct ktls_hs_pool ktls_hs_engine_pool;
/* The pool exists; under the module's parameter lock. */
static bool ktls_hs_pool_ready;

/*
 * Each handshake holds a block of engine memory; this caps how many may
 * run at once across the host, and so the memory.  A new value takes
 * back what CPUs hold in reserve, so that it holds at once: reserves
 * taken under a larger limit could otherwise exceed a smaller one.
 */
static unsigned int max_handshakes = 4096;

static int ktls_hs_pool_limit_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	if (ktls_hs_pool_ready)
		ktls_hs_pool_trim(&ktls_hs_engine_pool, 0);
	return 0;
}

static const struct kernel_param_ops ktls_hs_pool_limit_ops = {
	.set	= ktls_hs_pool_limit_set,
	.get	= param_get_uint,
};
module_param_cb(max_handshakes, &ktls_hs_pool_limit_ops, &max_handshakes, 0644);
MODULE_PARM_DESC(max_handshakes, "in-kernel handshakes in progress at most (default 4096)");

static unsigned int pool_cpu_cache = 8;

static int ktls_hs_pool_cache_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (n > KTLS_HS_POOL_CPU_CACHE_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops ktls_hs_pool_cache_ops = {
	.set	= ktls_hs_pool_cache_set,
	.get	= param_get_uint,
};
module_param_cb(pool_cpu_cache, &ktls_hs_pool_cache_ops, &pool_cpu_cache, 0644);
MODULE_PARM_DESC(pool_cpu_cache, "free handshake memory blocks of each size kept per CPU, 0-16 (default 8)");

/*
 * /proc/net/tls_hs_pool, in the initial namespace only: the pool is the
 * host's, and its counters would tell a container about the others.
 * The layout is that of /proc/net/tls_stat.
 */
static int ktls_hs_pool_show(struct seq_file *seq, void *v)
{
	struct ktls_hs_pool_stats st;
	char name[32];
	int cls;

	ktls_hs_pool_read_stats(&ktls_hs_engine_pool, &st);
	seq_printf(seq, "%-32s\t%u\n", "TlsHsPoolLimit", READ_ONCE(max_handshakes));
	seq_printf(seq, "%-32s\t%lu\n", "TlsHsPoolReserved", st.reserved);
	for (cls = 0; cls < KTLS_HS_POOL_CLASSES; cls++) {
		snprintf(name, sizeof(name), "TlsHsPoolInUse%uk",
			 ktls_hs_pool_sizes[cls] / SZ_1K);
		seq_printf(seq, "%-32s\t%lu\n", name, st.in_use[cls]);
		snprintf(name, sizeof(name), "TlsHsPoolCached%uk",
			 ktls_hs_pool_sizes[cls] / SZ_1K);
		seq_printf(seq, "%-32s\t%lu\n", name, st.cached[cls]);
	}
	seq_printf(seq, "%-32s\t%lu\n", "TlsHsPoolCapFail", st.cap_fail);
	seq_printf(seq, "%-32s\t%lu\n", "TlsHsPoolNoMem", st.nomem);
	seq_printf(seq, "%-32s\t%lu\n", "TlsHsPoolOversize", st.oversize);
	return 0;
}

int ktls_hs_pool_init(void)
{
	int err;

	err = ktls_hs_pool_create(&ktls_hs_engine_pool, "ktls_hs",
				  &max_handshakes, &pool_cpu_cache);
	if (err)
		return err;
	if (!proc_create_single("tls_hs_pool", 0444, init_net.proc_net,
				ktls_hs_pool_show)) {
		ktls_hs_pool_destroy(&ktls_hs_engine_pool);
		return -ENOMEM;
	}
	/* Parameters are writable in sysfs before init runs. */
	kernel_param_lock(THIS_MODULE);
	ktls_hs_pool_ready = true;
	kernel_param_unlock(THIS_MODULE);
	return 0;
}

void ktls_hs_pool_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	ktls_hs_pool_ready = false;
	kernel_param_unlock(THIS_MODULE);
	remove_proc_entry("tls_hs_pool", init_net.proc_net);
	ktls_hs_pool_destroy(&ktls_hs_engine_pool);
}
