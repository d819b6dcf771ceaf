// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the one device a socket's offload has for both
 * directions (net/device.c): the first direction claims a device for the
 * context and hands it the caller's reference, the other must claim the
 * same one; the last direction let go gives the reference back; another
 * device, or any device after one went down under the socket, is refused
 * without leaking the caller's reference.  The devices are allocated,
 * never registered: only their reference counts are looked at.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/slab.h>

#include "../../record/ktls.h"
#include "../device.h"

struct claimk {
	struct ktls_ctx *ctx;
	struct net_device *a;
	struct net_device *b;
};

static void claimk_exit(struct kunit_resource *res)
{
	struct claimk *k = res->data;

	/* A failed case may leave the context on the list: take it off. */
	if (k->ctx && (k->ctx->dev.dirs & KTLS_DEV_DIRS))
		ktls_device_unclaim(k->ctx, KTLS_DEV_DIRS);
	kfree(k->ctx);
	if (k->a)
		free_netdev(k->a);
	if (k->b)
		free_netdev(k->b);
}

static struct claimk *claimk_new(struct kunit *test)
{
	struct claimk *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->ctx = kzalloc(sizeof(*k->ctx), GFP_KERNEL);
	k->a = alloc_netdev(0, "kclaima%d", NET_NAME_UNKNOWN, ether_setup);
	k->b = alloc_netdev(0, "kclaimb%d", NET_NAME_UNKNOWN, ether_setup);
	kunit_alloc_resource(test, NULL, claimk_exit, GFP_KERNEL, k);
	KUNIT_ASSERT_NOT_NULL(test, k->ctx);
	KUNIT_ASSERT_NOT_NULL(test, k->a);
	KUNIT_ASSERT_NOT_NULL(test, k->b);
	/* As ktls_device_own() leaves it. */
	INIT_LIST_HEAD(&k->ctx->base.list);
	return k;
}

static struct net_device *claimk_dev(const struct claimk *k)
{
	return rcu_dereference_protected(k->ctx->base.netdev, true);
}

/* TX then RX on one device: one reference, held until both let go. */
static void claim_both_directions(struct kunit *test)
{
	struct claimk *k = claimk_new(test);
	int ref = netdev_refcnt_read(k->a);

	dev_hold(k->a);
	KUNIT_EXPECT_EQ(test, ktls_device_claim(k->ctx, k->a, KTLS_DEV_TX), 0);
	KUNIT_EXPECT_PTR_EQ(test, claimk_dev(k), k->a);
	KUNIT_EXPECT_FALSE(test, list_empty(&k->ctx->base.list));
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref + 1);

	dev_hold(k->a);
	KUNIT_EXPECT_EQ(test, ktls_device_claim(k->ctx, k->a, KTLS_DEV_RX), 0);
	KUNIT_EXPECT_EQ(test, k->ctx->dev.dirs, KTLS_DEV_TX | KTLS_DEV_RX);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref + 1);

	/* A TX key update: RX keeps the device. */
	ktls_device_unclaim(k->ctx, KTLS_DEV_TX);
	KUNIT_EXPECT_PTR_EQ(test, claimk_dev(k), k->a);
	KUNIT_EXPECT_EQ(test, k->ctx->dev.dirs, KTLS_DEV_RX);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref + 1);

	ktls_device_unclaim(k->ctx, KTLS_DEV_RX);
	KUNIT_EXPECT_NULL(test, claimk_dev(k));
	KUNIT_EXPECT_TRUE(test, list_empty(&k->ctx->base.list));
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref);
}

/* The second direction's route leads elsewhere: refused, nothing held. */
static void claim_other_device(struct kunit *test)
{
	struct claimk *k = claimk_new(test);
	int ref_a = netdev_refcnt_read(k->a);
	int ref_b = netdev_refcnt_read(k->b);

	dev_hold(k->a);
	KUNIT_ASSERT_EQ(test, ktls_device_claim(k->ctx, k->a, KTLS_DEV_RX), 0);
	dev_hold(k->b);
	KUNIT_EXPECT_EQ(test, ktls_device_claim(k->ctx, k->b, KTLS_DEV_TX),
			-EOPNOTSUPP);
	KUNIT_EXPECT_PTR_EQ(test, claimk_dev(k), k->a);
	KUNIT_EXPECT_EQ(test, k->ctx->dev.dirs, KTLS_DEV_RX);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->b), ref_b);

	ktls_device_unclaim(k->ctx, KTLS_DEV_RX);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref_a);
}

/* A failed add gives back what its claim took; the other stays. */
static void claim_failed_add(struct kunit *test)
{
	struct claimk *k = claimk_new(test);
	int ref = netdev_refcnt_read(k->a);

	dev_hold(k->a);
	KUNIT_ASSERT_EQ(test, ktls_device_claim(k->ctx, k->a, KTLS_DEV_TX), 0);
	ktls_device_unclaim(k->ctx, KTLS_DEV_TX);
	KUNIT_EXPECT_NULL(test, claimk_dev(k));
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref);

	/* Claimed again afterwards, by either direction, on any device. */
	dev_hold(k->b);
	KUNIT_EXPECT_EQ(test, ktls_device_claim(k->ctx, k->b, KTLS_DEV_RX), 0);
	KUNIT_EXPECT_PTR_EQ(test, claimk_dev(k), k->b);
	ktls_device_unclaim(k->ctx, KTLS_DEV_RX);
}

/* After a device went down under the socket, none is taken again. */
static void claim_after_gone(struct kunit *test)
{
	struct claimk *k = claimk_new(test);
	int ref = netdev_refcnt_read(k->a);

	k->ctx->dev.dirs = KTLS_DEV_GONE;
	dev_hold(k->a);
	KUNIT_EXPECT_EQ(test, ktls_device_claim(k->ctx, k->a, KTLS_DEV_RX),
			-ENETDOWN);
	KUNIT_EXPECT_NULL(test, claimk_dev(k));
	KUNIT_EXPECT_EQ(test, k->ctx->dev.dirs, KTLS_DEV_GONE);
	KUNIT_EXPECT_EQ(test, netdev_refcnt_read(k->a), ref);
}

static struct kunit_case device_claim_cases[] = {
	KUNIT_CASE(claim_both_directions),
	KUNIT_CASE(claim_other_device),
	KUNIT_CASE(claim_failed_add),
	KUNIT_CASE(claim_after_gone),
	{}
};

static struct kunit_suite device_claim_suite = {
	.name = "ktls_hs_device_claim",
	.test_cases = device_claim_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(device_claim_suite);
