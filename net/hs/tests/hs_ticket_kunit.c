// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of session tickets (net/hs/ticket.c, ticket_keys.c): a
 * sealed ticket opens to what was sealed, and every way a ticket can be
 * wrong is refused with its errno: any bit altered, truncated, of another
 * format, expired, from the future, of another group's key, of a key
 * rotated out, by hand or by time.  Tickets of another format byte,
 * and those of one TLS version offered in the other, are refused as not
 * ours (a full handshake, no alert).  Key groups are shared by number,
 * namespace and user, and only with the same rotation period.  The
 * NewSessionTicket builder lays the message out as RFC 8446 4.6.1 does.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <net/net_namespace.h>

#include "../codec.h"
#include "../ticket.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TK_PERIOD_S	60

/* What a test works on, off the stack: KASAN kernels have small frames. */
struct tk {
	struct ktls_hs_ticket_state st, got;
	u8 t[KTLS_HS_TICKET_MAX_LEN + 1];
	u8 t2[KTLS_HS_TICKET_MAX_LEN];
	char longest[256];
};

static struct tk *tk_alloc(struct kunit *test)
{
	struct tk *tk = kunit_kzalloc(test, sizeof(*tk), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tk);
	return tk;
}

static struct ktls_hs_ticket_keys *tk_group(struct kunit *test, u32 group,
					    kuid_t uid, u32 period_s)
{
	struct ktls_hs_ticket_keys *k;

	k = ktls_hs_ticket_keys_get(&init_net, uid, group, period_s);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	return k;
}

static int tk_seal(struct ktls_hs_ticket_keys *k, u64 now, struct tk *tk,
		   u8 *out)
{
	return ktls_hs_ticket_seal(k, now, &tk->st, out,
				   KTLS_HS_TICKET_MAX_LEN);
}

static int tk_open(struct ktls_hs_ticket_keys *k, u64 now, struct tk *tk,
		   const u8 *in, size_t len)
{
	return ktls_hs_ticket_open(k, now, tk->st.version, in, len, NULL,
				   &tk->got);
}

static void tk_state(struct ktls_hs_ticket_state *st, u64 now_ms,
		     size_t secret_len, const char *sni)
{
	memset(st, 0, sizeof(*st));
	st->version = 0x0304;
	st->suite = secret_len == 48 ? 0x1302 : 0x1301;
	st->created_ms = now_ms;
	st->lifetime_s = 10;
	st->age_add = get_random_u32();
	st->secret_len = secret_len;
	get_random_bytes(st->secret, secret_len);
	get_random_bytes(st->id_digest, sizeof(st->id_digest));
	st->sni_len = strlen(sni);
	memcpy(st->sni, sni, st->sni_len);
}

static void tk_expect_same(struct kunit *test,
			   const struct ktls_hs_ticket_state *a,
			   const struct ktls_hs_ticket_state *b)
{
	KUNIT_EXPECT_EQ(test, a->version, b->version);
	KUNIT_EXPECT_EQ(test, a->suite, b->suite);
	KUNIT_EXPECT_EQ(test, a->flags, b->flags);
	KUNIT_EXPECT_EQ(test, a->created_ms, b->created_ms);
	KUNIT_EXPECT_EQ(test, a->lifetime_s, b->lifetime_s);
	KUNIT_EXPECT_EQ(test, a->age_add, b->age_add);
	KUNIT_ASSERT_EQ(test, a->secret_len, b->secret_len);
	KUNIT_EXPECT_MEMEQ(test, a->secret, b->secret, a->secret_len);
	KUNIT_EXPECT_MEMEQ(test, a->id_digest, b->id_digest,
			   sizeof(a->id_digest));
	KUNIT_ASSERT_EQ(test, a->sni_len, b->sni_len);
	KUNIT_EXPECT_MEMEQ(test, a->sni, b->sni, a->sni_len);
}

/* Sealed and opened, for both secret sizes, no name, the longest name. */
static void ticket_round_trip(struct kunit *test)
{
	static const char *const names[] = { "www.example.test", "" };
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	unsigned int i;
	int len;

	for (i = 0; i < 4; i++) {
		tk_state(&tk->st, now, i & 1 ? 48 : 32, names[i / 2]);
		tk->st.flags = i;
		len = tk_seal(k, now, tk, tk->t);
		KUNIT_ASSERT_GT(test, len, 0);
		KUNIT_EXPECT_EQ(test, tk->t[0], KTLS_HS_TICKET_FORMAT);
		KUNIT_ASSERT_EQ(test, tk_open(k, now + 1, tk, tk->t, len), 0);
		tk_expect_same(test, &tk->st, &tk->got);
	}

	memset(tk->longest, 'a', 255);
	tk->longest[255] = '\0';
	tk_state(&tk->st, now, 48, tk->longest);
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_EXPECT_EQ(test, len, KTLS_HS_TICKET_MAX_LEN);
	KUNIT_ASSERT_EQ(test, tk_open(k, now, tk, tk->t, len), 0);
	tk_expect_same(test, &tk->st, &tk->got);

	/* Two seals of one state differ: a salt, so a key, of their own. */
	tk_state(&tk->st, now, 32, "x");
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, tk_seal(k, now, tk, tk->t2),
			len);
	KUNIT_EXPECT_MEMNEQ(test, tk->t + 5, tk->t2 + 5, len - 5);
	ktls_hs_ticket_keys_put(k);
}

/* What cannot be sealed, or does not fit. */
static void ticket_seal_bad_args(struct kunit *test)
{
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	tk_state(&tk->st, now, 32, "www.example.test");
	tk->st.secret_len = 0;
	KUNIT_EXPECT_EQ(test, tk_seal(k, now, tk, tk->t),
			-EINVAL);
	tk->st.secret_len = 49;
	KUNIT_EXPECT_EQ(test, tk_seal(k, now, tk, tk->t),
			-EINVAL);
	tk->st.secret_len = 32;
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test,
			ktls_hs_ticket_seal(k, now, &tk->st, tk->t, len - 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			ktls_hs_ticket_seal(k, now, &tk->st, tk->t, len), len);
	ktls_hs_ticket_keys_put(k);
}

/* Every bit of a ticket matters; so does its length. */
static void ticket_tampered(struct kunit *test)
{
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	unsigned int i, bit;
	int len, err;

	tk_state(&tk->st, now, 32, "www.example.test");
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit += 3) {
			tk->t[i] ^= 1 << bit;
			err = tk_open(k, now, tk, tk->t, len);
			tk->t[i] ^= 1 << bit;
			/* A key id picks no key; the rest fails the tag. */
			KUNIT_EXPECT_EQ_MSG(test, err,
					    i >= 1 && i < 5 ? -ENOKEY :
					    -EBADMSG,
					    "byte %u bit %u", i, bit);
			KUNIT_EXPECT_EQ(test, tk->got.secret_len, 0);
		}
	}
	for (i = 0; i < len; i++)
		KUNIT_EXPECT_LT(test, tk_open(k, now, tk, tk->t, i),
				0);
	tk->t[len] = 0;
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len + 1),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len), 0);
	ktls_hs_ticket_keys_put(k);
}

static void ticket_expired(struct kunit *test)
{
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	tk_state(&tk->st, now, 32, "www.example.test");
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk_open(k, now + 9999, tk, tk->t, len),
			0);
	KUNIT_EXPECT_EQ(test, tk_open(k, now + 10000, tk, tk->t, len),
			-EKEYEXPIRED);
	KUNIT_EXPECT_EQ(test, tk->got.secret_len, 0);

	/* Made a little later than now, by a clock ahead: made now. */
	tk->st.created_ms = now + KTLS_HS_TICKET_SKEW_MS;
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len), 0);
	KUNIT_EXPECT_EQ(test, tk->got.created_ms, now);

	/* Made "later" than that: refused. */
	tk->st.created_ms = now + KTLS_HS_TICKET_SKEW_MS + 1;
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len),
			-EKEYEXPIRED);
	ktls_hs_ticket_keys_put(k);
}

/*
 * The format byte is checked before anything else: a ticket of another
 * format, an older module's or a newer one's on another machine of the
 * fleet, is -EBADMSG with nothing read into the state, however the rest
 * of it looks.  Being the AEAD's additional data, a format byte changed
 * on a ticket of ours fails its tag as well.
 */
static void ticket_other_format(struct kunit *test)
{
	static const u8 formats[] = { 0, 1, 3, 0x80, 0xff };
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	unsigned int i;
	int len;

	tk_state(&tk->st, now, 32, "www.example.test");
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk->t[0], 2);
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		tk->t[0] = formats[i];
		memset(&tk->got, 0xaa, sizeof(tk->got));
		KUNIT_EXPECT_EQ_MSG(test, tk_open(k, now, tk, tk->t, len),
				    -EBADMSG, "format %u", formats[i]);
		KUNIT_EXPECT_EQ(test, tk->got.secret_len, 0);
		KUNIT_EXPECT_EQ(test, tk->got.version, 0);
	}
	tk->t[0] = KTLS_HS_TICKET_FORMAT;
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len), 0);

	/* A format-1 ticket, as an older module made it: header, then junk. */
	memset(tk->t2, 0x5a, sizeof(tk->t2));
	tk->t2[0] = 1;
	memcpy(tk->t2 + 1, tk->t + 1, 4);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t2, len), -EBADMSG);
	ktls_hs_ticket_keys_put(k);
}

/*
 * Each TLS version's tickets have keys of their own: a TLS 1.2 ticket
 * offered in a TLS 1.3 handshake, or the other way, opens to nothing.
 */
static void ticket_version_keys(struct kunit *test)
{
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	tk_state(&tk->st, now, 48, "www.example.test");
	tk->st.version = 0x0303;
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_open(k, now, 0x0304, tk->t, len,
						  NULL, &tk->got), -EBADMSG);
	KUNIT_EXPECT_EQ(test, tk->got.secret_len, 0);
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_open(k, now, 0x0303, tk->t, len,
						  NULL, &tk->got), 0);
	tk_expect_same(test, &tk->st, &tk->got);

	tk->st.version = 0x0304;
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_open(k, now, 0x0303, tk->t, len,
						  NULL, &tk->got), -EBADMSG);

	/* No key for another version, to seal or to open with. */
	tk->st.version = 0x0302;
	KUNIT_EXPECT_EQ(test, tk_seal(k, now, tk, tk->t2), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_open(k, now, 0x0302, tk->t, len,
						  NULL, &tk->got), -EBADMSG);
	ktls_hs_ticket_keys_put(k);
}

/* A ticket of one group means nothing to another. */
static void ticket_wrong_key(struct kunit *test)
{
	struct ktls_hs_ticket_keys *a = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct ktls_hs_ticket_keys *b = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	tk_state(&tk->st, now, 32, "www.example.test");
	len = tk_seal(a, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk_open(b, now, tk, tk->t, len),
			-ENOKEY);
	KUNIT_EXPECT_EQ(test, tk_open(a, now, tk, tk->t, len), 0);
	ktls_hs_ticket_keys_put(a);
	ktls_hs_ticket_keys_put(b);
}

/* By hand: one rotation keeps the old key, two do not. */
static void ticket_rotation(struct kunit *test)
{
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	int len, len2;

	tk_state(&tk->st, now, 32, "www.example.test");
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	ktls_hs_ticket_keys_rotate(k, now);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len), 0);
	len2 = tk_seal(k, now, tk, tk->t2);
	KUNIT_ASSERT_GT(test, len2, 0);
	KUNIT_EXPECT_MEMNEQ(test, tk->t + 1, tk->t2 + 1, 4);
	ktls_hs_ticket_keys_rotate(k, now);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t, len),
			-ENOKEY);
	KUNIT_EXPECT_EQ(test, tk_open(k, now, tk, tk->t2, len2), 0);
	ktls_hs_ticket_keys_put(k);
}

/* By time: a period on, the key is previous; two periods on, gone. */
static void ticket_rotation_by_time(struct kunit *test)
{
	struct ktls_hs_ticket_keys *k = tk_group(test, 0, GLOBAL_ROOT_UID,
						 TK_PERIOD_S);
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms(), p = TK_PERIOD_S * 1000ULL;
	int len, len2;

	tk_state(&tk->st, now, 32, "www.example.test");
	tk->st.lifetime_s = 3 * TK_PERIOD_S;
	len = tk_seal(k, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk_open(k, now + p + 1, tk, tk->t, len),
			0);
	/* Sealed under the new key, which became current just now. */
	len2 = tk_seal(k, now + p + 1, tk, tk->t2);
	KUNIT_ASSERT_GT(test, len2, 0);
	KUNIT_EXPECT_MEMNEQ(test, tk->t + 1, tk->t2 + 1, 4);
	KUNIT_EXPECT_EQ(test, tk_open(k, now + 2 * p + 2, tk, tk->t, len),
			-ENOKEY);
	KUNIT_EXPECT_EQ(test, tk_open(k, now + 2 * p + 2, tk, tk->t2, len2), 0);
	/* Nothing used for long: both keys go at once. */
	KUNIT_EXPECT_EQ(test, tk_open(k, now + 5 * p, tk, tk->t2, len2),
			-ENOKEY);
	ktls_hs_ticket_keys_put(k);
}

/* Groups are shared by number, namespace and user, at one period. */
static void ticket_groups(struct kunit *test)
{
	kuid_t other = KUIDT_INIT(4242);
	struct ktls_hs_ticket_keys *a, *b, *c, *d;
	struct tk *tk = tk_alloc(test);
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	a = tk_group(test, 0x7e57, GLOBAL_ROOT_UID, TK_PERIOD_S);
	b = tk_group(test, 0x7e57, GLOBAL_ROOT_UID, TK_PERIOD_S);
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	c = tk_group(test, 0x7e57, other, TK_PERIOD_S);
	KUNIT_EXPECT_PTR_NE(test, a, c);
	d = ktls_hs_ticket_keys_get(&init_net, GLOBAL_ROOT_UID, 0x7e57,
				    TK_PERIOD_S + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR(d), -EBUSY);

	tk_state(&tk->st, now, 32, "www.example.test");
	len = tk_seal(a, now, tk, tk->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tk_open(b, now, tk, tk->t, len), 0);
	KUNIT_EXPECT_EQ(test, tk_open(c, now, tk, tk->t, len),
			-ENOKEY);
	ktls_hs_ticket_keys_put(a);
	ktls_hs_ticket_keys_put(b);
	ktls_hs_ticket_keys_put(c);

	/* The last reference gone, the number makes a new group. */
	a = tk_group(test, 0x7e57, GLOBAL_ROOT_UID, TK_PERIOD_S);
	KUNIT_EXPECT_EQ(test, tk_open(a, now, tk, tk->t, len),
			-ENOKEY);
	ktls_hs_ticket_keys_put(a);
}

/* RFC 8446 4.6.1 layout, no extensions. */
static void ticket_nst_message(struct kunit *test)
{
	static const u8 nonce[] = { 0 };
	static const u8 ticket[] = { 1, 2, 3, 4, 5 };
	static const u8 expect[] = {
		0x04, 0x00, 0x00, 0x13,
		0x00, 0x00, 0x0e, 0x10,		/* lifetime 3600 */
		0xde, 0xad, 0xbe, 0xef,		/* age_add */
		0x01, 0x00,			/* nonce */
		0x00, 0x05, 1, 2, 3, 4, 5,	/* ticket */
		0x00, 0x00,			/* extensions */
	};
	u8 buf[64];
	struct ktls_hs_buf b = { buf, 0, sizeof(buf) };

	KUNIT_ASSERT_EQ(test, ktls_hs_build_new_session_ticket(&b, 3600,
							       0xdeadbeef,
							       nonce, 1,
							       ticket, 5), 0);
	KUNIT_ASSERT_EQ(test, b.len, sizeof(expect));
	KUNIT_EXPECT_MEMEQ(test, buf, expect, sizeof(expect));
	b.len = 0;
	KUNIT_EXPECT_EQ(test, ktls_hs_build_new_session_ticket(&b, 3600, 0,
							       nonce, 1,
							       ticket, 0),
			-EINVAL);
	b.cap = sizeof(expect) - 1;
	KUNIT_EXPECT_EQ(test, ktls_hs_build_new_session_ticket(&b, 3600, 0,
							       nonce, 1,
							       ticket, 5),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, b.len, 0);
}

static struct kunit_case hs_ticket_cases[] = {
	KUNIT_CASE(ticket_round_trip),
	KUNIT_CASE(ticket_seal_bad_args),
	KUNIT_CASE(ticket_tampered),
	KUNIT_CASE(ticket_expired),
	KUNIT_CASE(ticket_other_format),
	KUNIT_CASE(ticket_version_keys),
	KUNIT_CASE(ticket_wrong_key),
	KUNIT_CASE(ticket_rotation),
	KUNIT_CASE(ticket_rotation_by_time),
	KUNIT_CASE(ticket_groups),
	KUNIT_CASE(ticket_nst_message),
	{}
};

static struct kunit_suite hs_ticket_suite = {
	.name = "ktls_hs_ticket",
	.test_cases = hs_ticket_cases,
};

kunit_test_suite(hs_ticket_suite);
