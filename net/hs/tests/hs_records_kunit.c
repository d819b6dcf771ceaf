// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of ktls_hs_tx_limit_fits(): whether the server's TLS 1.3
 * protected messages fit its output buffer when cut into records of a
 * client's record_size_limit (RFC 8449), which decides whether the
 * limit is acknowledged.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/sizes.h>

#include "../hs_records.h"

/* Output @plain bytes take as records of @frag content, by hand. */
static size_t rt_framed(size_t plain, size_t frag)
{
	return plain + DIV_ROUND_UP(plain, frag) * KTLS_HS_PROT_OVERHEAD;
}

/* At the smallest limit, a record of 63 content bytes takes 85. */
static void rt_exact_bounds(struct kunit *test)
{
	static const struct {
		size_t plain;
		unsigned int frag;
		size_t framed;
	} cases[] = {
		{ 1, 63, 1 + 22 },
		{ 63, 63, 85 },
		{ 64, 63, 64 + 2 * 22 },
		{ 126, 63, 126 + 2 * 22 },
		{ 127, 63, 127 + 3 * 22 },
		{ 3800, 16384, 3800 + 22 },
		{ 16384, 16384, 16384 + 22 },
		{ 16385, 16384, 16385 + 2 * 22 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t p = cases[i].plain, f = cases[i].framed;
		unsigned int frag = cases[i].frag;

		KUNIT_EXPECT_TRUE_MSG(test,
				      ktls_hs_tx_limit_fits(f, &p, 1, frag),
				      "%zu bytes at %u in %zu", p, frag, f);
		KUNIT_EXPECT_FALSE_MSG(test,
				       ktls_hs_tx_limit_fits(f - 1, &p, 1, frag),
				       "%zu bytes at %u in %zu", p, frag, f - 1);
	}
}

/*
 * Each part is framed on its own: two parts of 63 and 1 bytes take two
 * records as one of 64 does, but 1 and 1 take two where 2 takes one.
 */
static void rt_parts_framed_apart(struct kunit *test)
{
	size_t a[] = { 63, 1 }, b[] = { 1, 1 }, one = 64, two = 2;

	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(85 + 23, a, 2, 63));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(85 + 22, a, 2, 63));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(108, &one, 1, 63));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(2 * 23, b, 2, 63));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(2 * 23 - 1, b, 2, 63));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(24, &two, 1, 63));
	/* The second part does not fit what the first left. */
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(85 + 22, a, 2, 16384));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(85 + 23, a, 2, 16384));
}

/* Against framing counted by hand, every part and room up to a few records. */
static void rt_against_count(struct kunit *test)
{
	static const unsigned int frags[] = { 63, 64, 100, 255 };
	unsigned int i;
	size_t avail, p;

	for (i = 0; i < ARRAY_SIZE(frags); i++)
		for (avail = 0; avail < 4 * (frags[i] + 22); avail++)
			for (p = 0; p < 4 * frags[i]; p++)
				if (ktls_hs_tx_limit_fits(avail, &p, 1, frags[i]) !=
				    (rt_framed(p, frags[i]) <= avail)) {
					KUNIT_FAIL(test, "%zu bytes at %u in %zu",
						   p, frags[i], avail);
					return;
				}
}

/* A limit no client may set, or none: nothing fits, not even nothing. */
static void rt_limit_out_of_range(struct kunit *test)
{
	size_t p = 1;

	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SZ_64K, &p, 1, 0));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SZ_64K, &p, 1, 62));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SZ_64K, &p, 1, 16385));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SZ_64K, NULL, 0, 62));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(0, NULL, 0, 63));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(SZ_64K, &p, 1, 16384));
}

/* Sizes near the top of size_t neither wrap nor fit. */
static void rt_no_overflow(struct kunit *test)
{
	size_t huge[] = { SIZE_MAX, 1 }, halves[] = { SIZE_MAX / 2, SIZE_MAX / 2 };
	size_t zero = 0;

	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SIZE_MAX, huge, 1, 63));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SIZE_MAX, huge, 2, 16384));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SIZE_MAX, halves, 2, 63));
	KUNIT_EXPECT_FALSE(test, ktls_hs_tx_limit_fits(SIZE_MAX, halves, 2,
						       16384));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(SIZE_MAX, &zero, 1, 63));
	KUNIT_EXPECT_TRUE(test, ktls_hs_tx_limit_fits(0, &zero, 1, 63));
}

static struct kunit_case hs_records_cases[] = {
	KUNIT_CASE(rt_exact_bounds),
	KUNIT_CASE(rt_parts_framed_apart),
	KUNIT_CASE(rt_against_count),
	KUNIT_CASE(rt_limit_out_of_range),
	KUNIT_CASE(rt_no_overflow),
	{}
};

static struct kunit_suite hs_records_suite = {
	.name = "ktls_hs_records",
	.test_cases = hs_records_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(hs_records_suite);
