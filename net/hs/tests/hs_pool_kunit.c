// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the handshake memory pool (net/hs/pool.c), each on a
 * pool of its own so that the module's live pool is left alone: the
 * size classes against what the engine needs for real certificate
 * chains, the limit on blocks in use (exact, then batched per CPU), the
 * wipe of a freed block, a block freed on another CPU, the trim and the
 * shrinker, and CPUs racing at the limit.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/trust.h>

#include "../engine.h"
#include "../pool.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/**
 * struct pt - one test's pool and the blocks it holds
 * @pool:	the pool
 * @limit:	its limit on blocks in use
 * @cpu_cache:	its cap on each CPU's free blocks of a size
 * @held:	blocks allocated and not yet freed, freed at the end
 *		whatever happened
 * @held_size:	the sizes they were asked for
 * @nr_held:	how many
 * @max_held:	room in @held
 */
struct pt {
	struct ktls_hs_pool pool;
	unsigned int limit;
	unsigned int cpu_cache;
	void **held;
	size_t *held_size;
	unsigned int nr_held;
	unsigned int max_held;
};

static atomic_t pt_serial = ATOMIC_INIT(0);

static int pt_init(struct kunit *test)
{
	struct pt *pt;
	char name[24];

	pt = kunit_kzalloc(test, sizeof(*pt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pt);
	/* Under an eighth per CPU: no batches, the limit is exact. */
	pt->limit = 7 * num_online_cpus();
	pt->cpu_cache = 8;
	pt->max_held = 64 * num_online_cpus() + 64;
	pt->held = kunit_kcalloc(test, pt->max_held, sizeof(*pt->held),
				 GFP_KERNEL);
	pt->held_size = kunit_kcalloc(test, pt->max_held,
				      sizeof(*pt->held_size), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pt->held);
	KUNIT_ASSERT_NOT_NULL(test, pt->held_size);
	/* Slab caches are named in sysfs: one name per pool. */
	snprintf(name, sizeof(name), "ktls_hs_kunit%d",
		 atomic_inc_return(&pt_serial));
	KUNIT_ASSERT_EQ(test, ktls_hs_pool_create(&pt->pool, name, &pt->limit,
						  &pt->cpu_cache), 0);
	test->priv = pt;
	return 0;
}

static void pt_exit(struct kunit *test)
{
	struct pt *pt = test->priv;

	/* Set up never finished. */
	if (!pt)
		return;
	while (pt->nr_held) {
		pt->nr_held--;
		ktls_hs_pool_free(&pt->pool, pt->held[pt->nr_held],
				  pt->held_size[pt->nr_held]);
	}
	ktls_hs_pool_destroy(&pt->pool);
}

static void pt_hold(struct pt *pt, void *mem, size_t size)
{
	if (WARN_ON(pt->nr_held == pt->max_held))
		return;
	pt->held[pt->nr_held] = mem;
	pt->held_size[pt->nr_held] = size;
	pt->nr_held++;
}

static void *pt_alloc(struct pt *pt, size_t size)
{
	void *mem = ktls_hs_pool_alloc(&pt->pool, size, GFP_KERNEL);

	if (!IS_ERR(mem))
		pt_hold(pt, mem, size);
	return mem;
}

static void pt_free(struct pt *pt, void *mem)
{
	unsigned int i;

	for (i = 0; i < pt->nr_held; i++) {
		if (pt->held[i] != mem)
			continue;
		ktls_hs_pool_free(&pt->pool, mem, pt->held_size[i]);
		pt->nr_held--;
		pt->held[i] = pt->held[pt->nr_held];
		pt->held_size[i] = pt->held_size[pt->nr_held];
		return;
	}
	WARN(1, "block %p not held\n", mem);
}

static void pt_free_all(struct pt *pt)
{
	while (pt->nr_held)
		pt_free(pt, pt->held[pt->nr_held - 1]);
}

static struct ktls_hs_pool_stats pt_stats(struct pt *pt)
{
	struct ktls_hs_pool_stats st;

	ktls_hs_pool_read_stats(&pt->pool, &st);
	return st;
}

/* Work run on one CPU, for what must happen there. */
struct pt_on_cpu {
	struct pt *pt;
	size_t size;
	void *mem;
	unsigned int nr;
};

static long pt_alloc_fn(void *arg)
{
	struct pt_on_cpu *w = arg;

	w->mem = pt_alloc(w->pt, w->size);
	return PTR_ERR_OR_ZERO(w->mem);
}

static long pt_free_fn(void *arg)
{
	struct pt_on_cpu *w = arg;

	pt_free(w->pt, w->mem);
	return 0;
}

static void *pt_alloc_on(struct pt *pt, int cpu, size_t size)
{
	struct pt_on_cpu w = { .pt = pt, .size = size };

	work_on_cpu(cpu, pt_alloc_fn, &w);
	return w.mem;
}

static void pt_free_on(struct pt *pt, int cpu, void *mem)
{
	struct pt_on_cpu w = { .pt = pt, .mem = mem };

	work_on_cpu(cpu, pt_free_fn, &w);
}

/* Each request gets a block of its class, as large as the class. */
static void pool_classes(struct kunit *test)
{
	static const struct {
		size_t size;
		size_t block;
	} cases[] = {
		{ 1, SZ_32K },
		{ SZ_32K, SZ_32K },
		{ SZ_32K + 1, SZ_64K },
		{ SZ_64K, SZ_64K },
	};
	struct pt *pt = test->priv;
	struct ktls_hs_pool_stats st;
	unsigned int i;
	void *mem;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ(test, ktls_hs_pool_block_size(cases[i].size),
				cases[i].block);
		mem = pt_alloc(pt, cases[i].size);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mem));
		KUNIT_EXPECT_GE(test, ksize(mem), cases[i].block);
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)mem,
						   ARCH_KMALLOC_MINALIGN));
		/* KASAN checks that all of the block is ours. */
		memset(mem, 0x5a, cases[i].block);
	}
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.in_use[0], 2);
	KUNIT_EXPECT_EQ(test, st.in_use[1], 2);
	KUNIT_EXPECT_EQ(test, st.reserved, 4);

	KUNIT_EXPECT_EQ(test, ktls_hs_pool_block_size(SZ_64K + 1), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_block_size(0), 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc(pt, SZ_64K + 1)), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc(pt, 0)), -EINVAL);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.oversize, 1);
	KUNIT_EXPECT_EQ(test, st.reserved, 4);

	pt_free_all(pt);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.in_use[0], 0);
	KUNIT_EXPECT_EQ(test, st.in_use[1], 0);
	KUNIT_EXPECT_EQ(test, st.cached[0], 2);
	KUNIT_EXPECT_EQ(test, st.cached[1], 2);
	/* A small limit takes no batches: every slot came back. */
	KUNIT_EXPECT_EQ(test, st.reserved, 0);
}

/* The limit refuses with -EBUSY, counts it, and lets go once blocks return. */
static void pool_limit(struct kunit *test)
{
	struct pt *pt = test->priv;
	struct ktls_hs_pool_stats st;
	void *mem[3];
	unsigned int i;

	pt->limit = 3;
	for (i = 0; i < ARRAY_SIZE(mem); i++) {
		mem[i] = pt_alloc(pt, 1000);
		KUNIT_ASSERT_FALSE(test, IS_ERR(mem[i]));
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc(pt, 1000)), -EBUSY);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc(pt, SZ_64K)), -EBUSY);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cap_fail, 2);
	KUNIT_EXPECT_EQ(test, st.reserved, 3);
	KUNIT_EXPECT_EQ(test, st.in_use[0], 3);

	pt_free(pt, mem[0]);
	mem[0] = pt_alloc(pt, SZ_64K);
	KUNIT_EXPECT_FALSE(test, IS_ERR(mem[0]));

	/* Lowered below what is in use: nothing until enough came back. */
	pt->limit = 1;
	pt_free(pt, mem[1]);
	KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc(pt, 1000)), -EBUSY);
	pt_free_all(pt);
	KUNIT_EXPECT_FALSE(test, IS_ERR(pt_alloc(pt, 1000)));
	pt_free_all(pt);

	pt->limit = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc(pt, 1000)), -EBUSY);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cap_fail, 4);
	KUNIT_EXPECT_EQ(test, st.reserved, 0);
	KUNIT_EXPECT_EQ(test, st.in_use[0] + st.in_use[1], 0);
}

struct pt_drain {
	struct pt *pt;
	unsigned int got;
	unsigned long reserved_first;
	long err;
};

/* Allocate until refused, on one CPU. */
static long pt_drain_fn(void *arg)
{
	struct pt_drain *d = arg;
	void *mem;

	for (;;) {
		mem = pt_alloc(d->pt, SZ_32K);
		if (IS_ERR(mem)) {
			d->err = PTR_ERR(mem);
			return 0;
		}
		if (!d->got++)
			d->reserved_first = atomic_long_read(&d->pt->pool.reserved);
	}
}

static long pt_free_all_fn(void *arg)
{
	pt_free_all(arg);
	return 0;
}

/*
 * A large limit is taken a batch at a time; one CPU still gets all of it
 * and not one block more, and what CPUs keep in reserve goes back.
 */
static void pool_limit_batched(struct kunit *test)
{
	unsigned int cpus = num_online_cpus(), batch = 4;
	struct pt *pt = test->priv;
	struct pt_drain d = { .pt = pt };
	int cpu = cpumask_first(cpu_online_mask), other;
	struct ktls_hs_pool_stats st;

	/* An eighth of the limit over the CPUs: batches of 4. */
	pt->limit = 8 * batch * cpus;
	KUNIT_ASSERT_LE(test, pt->limit + 8, pt->max_held);
	work_on_cpu(cpu, pt_drain_fn, &d);
	KUNIT_EXPECT_EQ(test, d.reserved_first, batch);
	KUNIT_EXPECT_EQ(test, d.got, pt->limit);
	KUNIT_EXPECT_EQ(test, d.err, -EBUSY);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.reserved, pt->limit);
	KUNIT_EXPECT_EQ(test, st.in_use[0], pt->limit);

	other = cpumask_next(cpu, cpu_online_mask);
	if (other < nr_cpu_ids)
		KUNIT_EXPECT_EQ(test, PTR_ERR(pt_alloc_on(pt, other, 1)), -EBUSY);

	work_on_cpu(cpu, pt_free_all_fn, pt);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.in_use[0], 0);
	/* The CPU keeps between one and two batches. */
	KUNIT_EXPECT_GE(test, st.reserved, batch);
	KUNIT_EXPECT_LE(test, st.reserved, 2 * batch);
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_trim(&pt->pool, ULONG_MAX),
			pt->cpu_cache);
	KUNIT_EXPECT_EQ(test, pt_stats(pt).reserved, 0);
}

struct pt_wipe {
	struct pt *pt;
	void *first;
	void *second;
	bool zero;
};

static long pt_wipe_fn(void *arg)
{
	struct pt_wipe *w = arg;

	w->first = pt_alloc(w->pt, 1000);
	if (IS_ERR(w->first))
		return PTR_ERR(w->first);
	memset(w->first, 0xa5, SZ_32K);
	pt_free(w->pt, w->first);
	/* Last in, first out: the same block, from this CPU's list. */
	w->second = pt_alloc(w->pt, 1000);
	if (IS_ERR(w->second))
		return PTR_ERR(w->second);
	w->zero = !memchr_inv(w->second, 0, SZ_32K);
	return 0;
}

/* A block that held secrets comes back wiped, all of it. */
static void pool_wipe(struct kunit *test)
{
	struct pt *pt = test->priv;
	struct pt_wipe w = { .pt = pt };

	KUNIT_ASSERT_EQ(test, work_on_cpu(cpumask_first(cpu_online_mask),
					  pt_wipe_fn, &w), 0);
	KUNIT_EXPECT_PTR_EQ(test, w.first, w.second);
	KUNIT_EXPECT_TRUE(test, w.zero);
}

/*
 * A block freed on another CPU goes to that CPU's list, or to the slab
 * when the list is full.
 */
static void pool_cross_cpu(struct kunit *test)
{
	struct pt *pt = test->priv;
	struct ktls_hs_pool_stats st;
	void *x, *y, *z;
	int a, b;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	a = cpumask_first(cpu_online_mask);
	b = cpumask_next(a, cpu_online_mask);
	pt->cpu_cache = 1;

	x = pt_alloc_on(pt, a, 1000);
	y = pt_alloc_on(pt, a, 1000);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x));
	KUNIT_ASSERT_FALSE(test, IS_ERR(y));
	memset(x, 0xa5, 1000);
	pt_free_on(pt, b, x);
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_cached_on(&pt->pool, a, 1000), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_cached_on(&pt->pool, b, 1000), 1);
	/* b's list is full: this one goes to the slab. */
	pt_free_on(pt, b, y);
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_cached_on(&pt->pool, b, 1000), 1);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cached[0], 1);
	KUNIT_EXPECT_EQ(test, st.in_use[0], 0);

	/* a has nothing cached; b hands out the block it was given. */
	z = pt_alloc_on(pt, a, 1000);
	KUNIT_ASSERT_FALSE(test, IS_ERR(z));
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_cached_on(&pt->pool, b, 1000), 1);
	z = pt_alloc_on(pt, b, 1000);
	KUNIT_ASSERT_FALSE(test, IS_ERR(z));
	KUNIT_EXPECT_PTR_EQ(test, z, x);
	KUNIT_EXPECT_NULL(test, memchr_inv(z, 0, SZ_32K));
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_cached_on(&pt->pool, b, 1000), 0);
	pt_free_all(pt);
	KUNIT_EXPECT_EQ(test, pt_stats(pt).in_use[0], 0);
}

/* Trim and the shrinker give free blocks back, larger ones first. */
static void pool_trim(struct kunit *test)
{
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL };
	struct pt *pt = test->priv;
	struct shrinker *shrinker = pt->pool.shrinker;
	struct ktls_hs_pool_stats st;
	unsigned int i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(pt_alloc(pt, 1000)));
	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(pt_alloc(pt, SZ_64K)));
	pt_free_all(pt);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cached[0], 3);
	KUNIT_EXPECT_EQ(test, st.cached[1], 2);

	KUNIT_EXPECT_EQ(test, ktls_hs_pool_trim(&pt->pool, 1), 1);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cached[0] + st.cached[1], 4);
	KUNIT_EXPECT_EQ(test, st.reserved, 0);

	KUNIT_EXPECT_EQ(test, shrinker->count_objects(shrinker, &sc), 4);
	sc.nr_to_scan = 2;
	KUNIT_EXPECT_EQ(test, shrinker->scan_objects(shrinker, &sc), 2);
	KUNIT_EXPECT_EQ(test, shrinker->count_objects(shrinker, &sc), 2);
	KUNIT_EXPECT_EQ(test, ktls_hs_pool_trim(&pt->pool, ULONG_MAX), 2);
	KUNIT_EXPECT_EQ(test, shrinker->count_objects(shrinker, &sc),
			SHRINK_EMPTY);
	KUNIT_EXPECT_EQ(test, shrinker->scan_objects(shrinker, &sc),
			SHRINK_STOP);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cached[0] + st.cached[1], 0);
}

/*
 * Every online CPU allocates and frees at once, each holding up to
 * @hold blocks at a time, more than the limit; it holds.
 */
struct pt_race {
	struct work_struct work;
	struct ktls_hs_pool *pool;
	void **mem;
	unsigned int hold;
	atomic_t *now;
	atomic_t *peak;
	unsigned int busy;
	unsigned int failed;
};

static void pt_race_fn(struct work_struct *work)
{
	struct pt_race *r = container_of(work, struct pt_race, work);
	void **mem = r->mem;
	unsigned int i, j;
	int n, seen;

	for (i = 0; i < 100; i++) {
		for (j = 0; j < r->hold; j++) {
			mem[j] = ktls_hs_pool_alloc(r->pool, j ? 1000 : SZ_64K,
						    GFP_KERNEL);
			if (IS_ERR(mem[j])) {
				if (PTR_ERR(mem[j]) == -EBUSY)
					r->busy++;
				else
					r->failed++;
				continue;
			}
			n = atomic_inc_return(r->now);
			seen = atomic_read(r->peak);
			while (n > seen && !atomic_try_cmpxchg(r->peak, &seen, n))
				;
		}
		for (j = 0; j < r->hold; j++) {
			if (IS_ERR(mem[j]))
				continue;
			atomic_dec(r->now);
			ktls_hs_pool_free(r->pool, mem[j], j ? 1000 : SZ_64K);
		}
		cond_resched();
	}
}

static void pool_race(struct kunit *test, unsigned int limit,
		      unsigned int hold)
{
	struct pt *pt = test->priv;
	atomic_t now = ATOMIC_INIT(0), peak = ATOMIC_INIT(0);
	struct ktls_hs_pool_stats st;
	unsigned int busy = 0;
	struct pt_race *r;
	int cpu;

	pt->limit = limit;
	r = kunit_kcalloc(test, nr_cpu_ids, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	for_each_possible_cpu(cpu) {
		r[cpu].mem = kunit_kcalloc(test, hold, sizeof(void *),
					   GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r[cpu].mem);
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		INIT_WORK(&r[cpu].work, pt_race_fn);
		r[cpu].pool = &pt->pool;
		r[cpu].hold = hold;
		r[cpu].now = &now;
		r[cpu].peak = &peak;
		queue_work_on(cpu, system_wq, &r[cpu].work);
	}
	for_each_online_cpu(cpu) {
		flush_work(&r[cpu].work);
		KUNIT_EXPECT_EQ(test, r[cpu].failed, 0);
		busy += r[cpu].busy;
	}
	cpus_read_unlock();

	KUNIT_EXPECT_LE(test, atomic_read(&peak), limit);
	KUNIT_EXPECT_GT(test, atomic_read(&peak), 0);
	KUNIT_EXPECT_GT(test, busy, 0);
	st = pt_stats(pt);
	KUNIT_EXPECT_EQ(test, st.cap_fail, busy);
	KUNIT_EXPECT_EQ(test, st.in_use[0] + st.in_use[1], 0);
	ktls_hs_pool_trim(&pt->pool, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, pt_stats(pt).reserved, 0);
	kunit_info(test, "limit %u: peak %d, %u refused\n", limit,
		   atomic_read(&peak), busy);
}

static void pool_race_exact(struct kunit *test)
{
	pool_race(test, 4, 5);
}

static void pool_race_batched(struct kunit *test)
{
	unsigned int limit = 16 * num_online_cpus();

	/* Batches of 2 per CPU. */
	pool_race(test, limit, limit + 4);
}

/*
 * An engine for a chain of certificates of these DER lengths, on a
 * listener that asks for client certificates if @auth (the store's
 * contents do not count: only that there is one).
 */
static size_t pt_engine_size(const u32 *lens, unsigned int nr, bool auth)
{
	static struct ktls_trust store;
	struct ktls_identity_cert certs[KTLS_IDENTITY_MAX_CERTS] = { };
	struct ktls_identity id = { .nr_certs = nr, .certs = certs };
	struct ktls_hs_config cfg = {
		.identities = { &id },
		.nr_identities = 1,
		.trust = auth ? &store : NULL,
	};
	unsigned int i;

	for (i = 0; i < nr; i++)
		certs[i].len = lens[i];
	return ktls_hs_size(&cfg);
}

/*
 * What the engine needs for P-256 chains of one to three certificates:
 * lengths as openssl makes them for the selftests (leaf, CA), a leaf
 * under an intermediate, and lengths of a public CA's chain with SCTs
 * and a cross-signed root.  All of them take the small block.  With
 * client certificates asked for, the verifier's memory and the larger
 * NewSessionTicket of a ticket that carries the client's certificate
 * (some 2.7 and 1.1 KiB) make even the shortest chain take the large
 * one: the verifier's memory alone did.
 */
static void pool_engine_sizes(struct kunit *test)
{
	static const struct {
		const char *what;
		u32 lens[3];
		unsigned int nr;
		bool auth;
		size_t block;
	} cases[] = {
		{ "leaf", { 662 }, 1, false, SZ_32K },
		{ "leaf, root", { 662, 495 }, 2, false, SZ_32K },
		{ "leaf, intermediate, root", { 662, 673, 495 }, 3, false,
		  SZ_32K },
		{ "public CA chain", { 1300, 1100, 1400 }, 3, false, SZ_32K },
		{ "10 KiB of chain", { 4000, 3000, 3000 }, 3, false, SZ_64K },
		{ "40 KiB leaf", { 40000, 495 }, 2, false, 0 },
		{ "leaf, root; client auth", { 662, 495 }, 2, true, SZ_64K },
		{ "leaf, intermediate, root; client auth", { 662, 673, 495 }, 3,
		  true, SZ_64K },
		{ "public CA chain; client auth", { 1300, 1100, 1400 }, 3, true,
		  SZ_64K },
	};
	unsigned int i;
	size_t need;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		need = pt_engine_size(cases[i].lens, cases[i].nr,
				      cases[i].auth);
		kunit_info(test, "%s: %zu bytes\n", cases[i].what, need);
		KUNIT_EXPECT_EQ_MSG(test, ktls_hs_pool_block_size(need),
				    cases[i].block, "%s", cases[i].what);
	}
}

static struct kunit_case hs_pool_cases[] = {
	KUNIT_CASE(pool_classes),
	KUNIT_CASE(pool_limit),
	KUNIT_CASE(pool_limit_batched),
	KUNIT_CASE(pool_wipe),
	KUNIT_CASE(pool_cross_cpu),
	KUNIT_CASE(pool_trim),
	KUNIT_CASE(pool_race_exact),
	KUNIT_CASE(pool_race_batched),
	KUNIT_CASE(pool_engine_sizes),
	{}
};

static struct kunit_suite hs_pool_suite = {
	.name = "ktls_hs_pool",
	.init = pt_init,
	.exit = pt_exit,
	.test_cases = hs_pool_cases,
};

kunit_test_suite(hs_pool_suite);
