// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the post-handshake messages the record layer takes on
 * the keys of a kernel TLS 1.3 handshake (rx_hs.c): a KeyUpdate whole or
 * split over records at every point, and each thing RFC 8446 5.1 and
 * 4.6.3 refuse, with the alert it earns, refused as soon as the bytes
 * that show it are in.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../record.h"

static const u8 ku_not_requested[] = { 24, 0, 0, 1, 0 };
static const u8 ku_requested[] = { 24, 0, 0, 1, 1 };

struct hs_step {
	int ret;
	u8 alert;
};

static struct hs_step hs_feed(struct ktls_rx_hs *hs, const u8 *data,
			      unsigned int len)
{
	struct hs_step s = { .alert = 0xee };

	s.ret = ktls_rx_hs_feed(hs, data, len, &s.alert);
	return s;
}

static void rx_hs_whole(struct kunit *test)
{
	struct ktls_rx_hs hs = {};
	struct hs_step s;

	s = hs_feed(&hs, ku_not_requested, sizeof(ku_not_requested));
	KUNIT_EXPECT_EQ(test, s.ret, KTLS_RX_HS_UPDATE);
	KUNIT_EXPECT_FALSE(test, ktls_rx_hs_pending(&hs));
	s = hs_feed(&hs, ku_requested, sizeof(ku_requested));
	KUNIT_EXPECT_EQ(test, s.ret, KTLS_RX_HS_UPDATE_REQUESTED);
	KUNIT_EXPECT_FALSE(test, ktls_rx_hs_pending(&hs));
}

/* Every way to cut five bytes into records: bit i set, a cut after i. */
static void rx_hs_every_split(struct kunit *test)
{
	unsigned int cuts, i;

	for (cuts = 0; cuts < BIT(KTLS_KEY_UPDATE_LEN - 1); cuts++) {
		struct ktls_rx_hs hs = {};
		unsigned int start = 0;
		struct hs_step s;

		for (i = 0; i < KTLS_KEY_UPDATE_LEN; i++) {
			if (i < KTLS_KEY_UPDATE_LEN - 1 && !(cuts & BIT(i)))
				continue;
			s = hs_feed(&hs, ku_requested + start, i + 1 - start);
			start = i + 1;
			if (start < KTLS_KEY_UPDATE_LEN) {
				KUNIT_EXPECT_EQ_MSG(test, s.ret, KTLS_RX_HS_MORE,
						    "cuts %#x at %u", cuts, i);
				KUNIT_EXPECT_TRUE(test, ktls_rx_hs_pending(&hs));
			}
		}
		KUNIT_EXPECT_EQ_MSG(test, s.ret, KTLS_RX_HS_UPDATE_REQUESTED,
				    "cuts %#x", cuts);
		KUNIT_EXPECT_FALSE(test, ktls_rx_hs_pending(&hs));
	}
}

/* Split ones in a row: each starts clean after the one before. */
static void rx_hs_split_twice(struct kunit *test)
{
	struct ktls_rx_hs hs = {};
	int round;

	for (round = 0; round < 2; round++) {
		KUNIT_EXPECT_EQ(test, hs_feed(&hs, ku_not_requested, 2).ret,
				KTLS_RX_HS_MORE);
		KUNIT_EXPECT_EQ(test, hs_feed(&hs, ku_not_requested + 2, 3).ret,
				KTLS_RX_HS_UPDATE);
	}
}

/* RFC 8446 5.1: a message before a key change ends its record. */
static void rx_hs_bytes_behind(struct kunit *test)
{
	u8 two[2 * KTLS_KEY_UPDATE_LEN];
	struct ktls_rx_hs hs = {};
	struct hs_step s;

	memcpy(two, ku_not_requested, KTLS_KEY_UPDATE_LEN);
	memcpy(two + KTLS_KEY_UPDATE_LEN, ku_not_requested,
	       KTLS_KEY_UPDATE_LEN);
	s = hs_feed(&hs, two, sizeof(two));
	KUNIT_EXPECT_EQ(test, s.ret, -EPROTO);
	KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_UNEXPECTED);

	/* The second fragment ends the message and goes on past it. */
	hs = (struct ktls_rx_hs){};
	KUNIT_EXPECT_EQ(test, hs_feed(&hs, two, 3).ret, KTLS_RX_HS_MORE);
	s = hs_feed(&hs, two + 3, 3);
	KUNIT_EXPECT_EQ(test, s.ret, -EPROTO);
	KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_UNEXPECTED);

	/* A record cut to KTLS_RX_HS_PEEK bytes is refused the same way. */
	hs = (struct ktls_rx_hs){};
	s = hs_feed(&hs, two, KTLS_RX_HS_PEEK);
	KUNIT_EXPECT_EQ(test, s.ret, -EPROTO);
	KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_UNEXPECTED);
}

/* RFC 8446 5.1: no zero-length handshake fragments, mid-message neither. */
static void rx_hs_empty(struct kunit *test)
{
	struct ktls_rx_hs hs = {};
	struct hs_step s;

	s = hs_feed(&hs, ku_not_requested, 0);
	KUNIT_EXPECT_EQ(test, s.ret, -EPROTO);
	KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_UNEXPECTED);
	KUNIT_EXPECT_EQ(test, hs_feed(&hs, ku_not_requested, 2).ret,
			KTLS_RX_HS_MORE);
	s = hs_feed(&hs, ku_not_requested + 2, 0);
	KUNIT_EXPECT_EQ(test, s.ret, -EPROTO);
	KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_UNEXPECTED);
}

/*
 * Any other type, NewSessionTicket from a client and post-handshake
 * authentication never asked for among them, is refused on its first
 * byte, whatever length would follow.
 */
static void rx_hs_other_types(struct kunit *test)
{
	unsigned int type;

	for (type = 0; type < 256; type++) {
		struct ktls_rx_hs hs = {};
		u8 b = type;
		struct hs_step s;

		if (type == KTLS_KEY_UPDATE_TYPE)
			continue;
		s = hs_feed(&hs, &b, 1);
		KUNIT_EXPECT_EQ_MSG(test, s.ret, -EPROTO, "type %u", type);
		KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_UNEXPECTED);
	}
}

/* A KeyUpdate's body is one byte: any other length, once the header is in. */
static void rx_hs_lengths(struct kunit *test)
{
	static const u32 lens[] = { 0, 2, 5, 0x100, 0xffffff };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		u8 hdr[] = { 24, lens[i] >> 16, lens[i] >> 8, lens[i] };
		struct ktls_rx_hs hs = {};
		struct hs_step s;

		KUNIT_EXPECT_EQ(test, hs_feed(&hs, hdr, 3).ret,
				KTLS_RX_HS_MORE);
		s = hs_feed(&hs, hdr + 3, 1);
		KUNIT_EXPECT_EQ_MSG(test, s.ret, -EBADMSG, "length %u", lens[i]);
		KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_DECODE_ERROR);
		KUNIT_EXPECT_FALSE(test, ktls_rx_hs_pending(&hs));
	}
}

/* RFC 8446 4.6.3: request_update is 0 or 1, whole or split. */
static void rx_hs_request_values(struct kunit *test)
{
	unsigned int v;

	for (v = 2; v < 256; v++) {
		u8 msg[] = { 24, 0, 0, 1, v };
		struct ktls_rx_hs hs = {};
		struct hs_step s;

		s = hs_feed(&hs, msg, sizeof(msg));
		KUNIT_EXPECT_EQ_MSG(test, s.ret, -EBADMSG, "value %u", v);
		KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_ILLEGAL_PARAM);
		KUNIT_EXPECT_EQ(test, hs_feed(&hs, msg, 4).ret,
				KTLS_RX_HS_MORE);
		s = hs_feed(&hs, msg + 4, 1);
		KUNIT_EXPECT_EQ(test, s.ret, -EBADMSG);
		KUNIT_EXPECT_EQ(test, s.alert, KTLS_RX_ALERT_ILLEGAL_PARAM);
	}
}

static struct kunit_case rx_hs_cases[] = {
	KUNIT_CASE(rx_hs_whole),
	KUNIT_CASE(rx_hs_every_split),
	KUNIT_CASE(rx_hs_split_twice),
	KUNIT_CASE(rx_hs_bytes_behind),
	KUNIT_CASE(rx_hs_empty),
	KUNIT_CASE(rx_hs_other_types),
	KUNIT_CASE(rx_hs_lengths),
	KUNIT_CASE(rx_hs_request_values),
	{}
};

static struct kunit_suite rx_hs_suite = {
	.name = "ktls_hs_rx_post_handshake",
	.test_cases = rx_hs_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(rx_hs_suite);
