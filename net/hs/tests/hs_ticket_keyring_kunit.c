// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of ticket keys an operator supplies (net/hs/ticket_payload.c,
 * ticket_keyring.c and their derivation in ticket_keys.c): the payload
 * parser takes what the documentation says and refuses every other
 * payload with -EINVAL; the keys of a secret are HKDF's, per TLS
 * version; an update rotates or replaces as documented.  Then real
 * "ktls_tickets" keys: hostile payloads fail at add and update, two
 * keys of one payload (two machines) open each other's tickets, a
 * rotation keeps the previous key for opening only, a second one drops
 * it, revoke and invalidate end sealing and opening, and a listener's
 * lookup refuses a bad serial, another key type and a key it may not
 * search, each with its errno.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/hex.h>
#include <linux/key.h>
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <net/net_namespace.h>

#include "../ticket.h"
#include "../ticket_priv.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TKR_MAX		(KTLS_HS_TICKET_PAYLOAD_MAX + 64)

/* What a test works on, off the stack. */
struct tkr {
	struct ktls_hs_ticket_payload tp;
	struct ktls_hs_ticket_ring a, b;
	struct ktls_hs_ticket_state st, got;
	u8 t[KTLS_HS_TICKET_MAX_LEN];
	u8 t2[KTLS_HS_TICKET_MAX_LEN];
	char p[TKR_MAX];
	char q[TKR_MAX];
};

static struct tkr *tkr_alloc(struct kunit *test)
{
	struct tkr *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* Appends "WORD ID HEX\n" to @p, HEX @n bytes of @fill. */
static void tkr_line(char *p, const char *word, u32 id, u8 fill, size_t n)
{
	u8 secret[KTLS_HS_TICKET_OP_SECRET_MAX + 8];
	size_t len = strlen(p);
	char *end;

	memset(secret, fill, sizeof(secret));
	len += scnprintf(p + len, TKR_MAX - len, "%s %u ", word, id);
	end = bin2hex(p + len, secret, n);
	*end++ = '\n';
	*end = '\0';
}

static int tkr_parse(struct tkr *t, const char *p, size_t len)
{
	unsigned int line;
	const char *why;

	return ktls_hs_ticket_payload_parse(p, len, &t->tp, &why, &line);
}

/* What the documentation shows, and the slack it allows. */
static void payload_good(struct kunit *test)
{
	struct tkr *t = tkr_alloc(test);

	tkr_line(t->p, "current", 7, 0x11, 32);
	KUNIT_ASSERT_EQ(test, tkr_parse(t, t->p, strlen(t->p)), 0);
	KUNIT_EXPECT_EQ(test, t->tp.cur.id, 7);
	KUNIT_EXPECT_EQ(test, t->tp.cur.len, 32);
	KUNIT_EXPECT_EQ(test, t->tp.cur.secret[31], 0x11);
	KUNIT_EXPECT_FALSE(test, t->tp.has_prev);

	/* No newline at the end: the same. */
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, strlen(t->p) - 1), 0);

	/* Comments, blank lines, CRLF, tabs, previous first, upper case. */
	strscpy(t->p, "# fleet keys\r\n\n  \t\n", TKR_MAX);
	tkr_line(t->p, "previous", 4294967295U, 0xab, 64);
	strcat(t->p, "\t# rotated 2024-01-01\n");
	tkr_line(t->p, "current", 1, 0xcd, 48);
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, strlen(t->p)), 0);
	KUNIT_EXPECT_TRUE(test, t->tp.has_prev);
	KUNIT_EXPECT_EQ(test, t->tp.prev.id, 4294967295U);
	KUNIT_EXPECT_EQ(test, t->tp.prev.len, 64);
	KUNIT_EXPECT_EQ(test, t->tp.cur.id, 1);
	KUNIT_EXPECT_EQ(test, t->tp.cur.len, 48);
	KUNIT_EXPECT_EQ(test, t->tp.cur.secret[0], 0xcd);

	/* Hex digits in either case. */
	scnprintf(t->p, TKR_MAX, "current 9 %s%s",
		  "00112233445566778899AABBCCDDEEFF",
		  "00112233445566778899aabbccddeeff");
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, strlen(t->p)), 0);
	KUNIT_EXPECT_EQ(test, t->tp.cur.secret[10], 0xaa);
	KUNIT_EXPECT_EQ(test, t->tp.cur.secret[26], 0xaa);
}

/* Every way a payload can be wrong: -EINVAL, and nothing kept. */
static void payload_bad(struct kunit *test)
{
	static const char *const bad[] = {
		"",
		"\n\n# nothing\n",
		"current",
		"current 7",
		"current 0 %s",
		"current 4294967296 %s",
		"current 99999999999 %s",
		"current -7 %s",
		"current +7 %s",
		"current 0x7 %s",
		"current 7a %s",
		"current 7 %s extra",
		"current 7 %sz",
		"current 7 %s0",
		"current 7 %s\ncurrent 8 %s",
		"current 7 %s\nprevious 8 %s\nprevious 9 %s",
		"previous 7 %s",
		"current 7 %s\nprevious 7 %s",
		"Current 7 %s",
		"next 7 %s",
		"current\t7\t%s\ncurrent",
		"current7 %s",
	};
	static const char hex32[] =
		"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	struct tkr *t = tkr_alloc(test);
	unsigned int i, line;
	const char *why;
	char hex[2 * 65 + 1];

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		scnprintf(t->p, TKR_MAX, bad[i], hex32, hex32, hex32);
		memset(&t->tp, 0x5a, sizeof(t->tp));
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test,
				    ktls_hs_ticket_payload_parse(t->p,
								 strlen(t->p),
								 &t->tp, &why,
								 &line),
				    -EINVAL, "payload %u", i);
		KUNIT_EXPECT_NOT_NULL(test, why);
		KUNIT_EXPECT_EQ(test, t->tp.cur.id, 0);
		KUNIT_EXPECT_EQ(test, t->tp.cur.secret[0], 0);
	}

	/* Secrets of 31 and 65 bytes, and an odd number of digits. */
	memset(hex, '1', sizeof(hex));
	hex[62] = '\0';
	scnprintf(t->p, TKR_MAX, "current 7 %s\n", hex);
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, strlen(t->p)), -EINVAL);
	hex[62] = '1';
	hex[130] = '\0';
	scnprintf(t->p, TKR_MAX, "current 7 %s\n", hex);
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, strlen(t->p)), -EINVAL);
	hex[65] = '\0';
	scnprintf(t->p, TKR_MAX, "current 7 %s\n", hex);
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, strlen(t->p)), -EINVAL);

	/* A NUL inside, and a payload over the limit even if all comment. */
	t->p[0] = '\0';
	tkr_line(t->p, "current", 7, 0x11, 32);
	t->p[10] = '\0';
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->p, 40), -EINVAL);
	memset(t->q, '#', KTLS_HS_TICKET_PAYLOAD_MAX + 1);
	t->p[0] = '\0';
	tkr_line(t->p, "current", 7, 0x11, 32);
	memcpy(t->q, t->p, strlen(t->p));
	KUNIT_EXPECT_EQ(test, tkr_parse(t, t->q, KTLS_HS_TICKET_PAYLOAD_MAX),
			0);
	KUNIT_EXPECT_EQ(test,
			tkr_parse(t, t->q, KTLS_HS_TICKET_PAYLOAD_MAX + 1),
			-EINVAL);

	/* The line of the fault is reported. */
	scnprintf(t->p, TKR_MAX, "# x\ncurrent 7 %s\nbogus\n", hex32);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_payload_parse(t->p, strlen(t->p),
							   &t->tp, &why,
							   &line), -EINVAL);
	KUNIT_EXPECT_EQ(test, line, 3);
}

/*
 * HKDF-Extract(SHA-256, "ktls_hs ticket keys", 00..1f), then Expand with
 * "ktls_hs tls13 tickets" / "ktls_hs tls12 tickets" || id, here 7:
 * computed apart with Python's hmac module.
 */
static void derive_vector(struct kunit *test)
{
	static const u8 tls13[] = {
		0x2a, 0xb1, 0xfc, 0x3e, 0x40, 0xfb, 0xf4, 0x18,
		0xa7, 0x9a, 0x26, 0x0c, 0x9f, 0x91, 0xba, 0x13,
		0xf7, 0x74, 0x0e, 0x65, 0xb5, 0x8c, 0x93, 0x6f,
		0x71, 0xdb, 0x9f, 0x4a, 0x28, 0x0c, 0x7c, 0x32,
	};
	static const u8 tls12[] = {
		0x41, 0xab, 0x83, 0x06, 0xc8, 0xda, 0xa7, 0xff,
		0x2a, 0xe3, 0xaf, 0xd3, 0x13, 0xd3, 0x81, 0x39,
		0x9b, 0x88, 0xa4, 0xad, 0xc9, 0xad, 0x0e, 0x79,
		0xda, 0x80, 0x04, 0x10, 0x23, 0xf1, 0x19, 0x7b,
	};
	struct tkr *t = tkr_alloc(test);
	u8 secret[32];
	unsigned int i;

	for (i = 0; i < sizeof(secret); i++)
		secret[i] = i;
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_key_derive(&t->a.cur, 7, secret,
							sizeof(secret), 42),
			0);
	KUNIT_EXPECT_TRUE(test, t->a.cur.live);
	KUNIT_EXPECT_EQ(test, t->a.cur.id, 7);
	KUNIT_EXPECT_EQ(test, t->a.cur.born_ms, 42);
	KUNIT_EXPECT_MEMEQ(test, t->a.cur.secret[KTLS_HS_TICKET_USE_TLS13],
			   tls13, sizeof(tls13));
	KUNIT_EXPECT_MEMEQ(test, t->a.cur.secret[KTLS_HS_TICKET_USE_TLS12],
			   tls12, sizeof(tls12));

	/* The same secret under another id: other keys. */
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_key_derive(&t->a.prev, 8, secret,
							sizeof(secret), 42),
			0);
	KUNIT_EXPECT_MEMNEQ(test, t->a.prev.secret, t->a.cur.secret,
			    sizeof(t->a.cur.secret));
}

static void tkr_ring(struct kunit *test, struct ktls_hs_ticket_ring *r,
		     u32 cur, u8 cur_fill, u32 prev, u8 prev_fill, u64 born)
{
	u8 secret[32];

	memset(r, 0, sizeof(*r));
	memset(secret, cur_fill, sizeof(secret));
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_key_derive(&r->cur, cur, secret,
							32, born), 0);
	if (!prev)
		return;
	memset(secret, prev_fill, sizeof(secret));
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_key_derive(&r->prev, prev,
							secret, 32, born), 0);
}

/* Rotation, repetition, replacement, and one id for two secrets. */
static void ring_merge(struct kunit *test)
{
	struct tkr *t = tkr_alloc(test);

	/* current only: the old current becomes previous. */
	tkr_ring(test, &t->a, 1, 0x11, 0, 0, 100);
	tkr_ring(test, &t->b, 2, 0x22, 0, 0, 200);
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_ring_merge(&t->b, &t->a), 0);
	KUNIT_EXPECT_EQ(test, t->b.cur.id, 2);
	KUNIT_EXPECT_TRUE(test, t->b.prev.live);
	KUNIT_EXPECT_EQ(test, t->b.prev.id, 1);
	KUNIT_EXPECT_EQ(test, t->b.prev.born_ms, 100);
	KUNIT_EXPECT_MEMEQ(test, t->b.prev.secret, t->a.cur.secret,
			   sizeof(t->a.cur.secret));

	/* The same current again: nothing changes, not even its age. */
	t->a = t->b;
	tkr_ring(test, &t->b, 2, 0x22, 0, 0, 300);
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_ring_merge(&t->b, &t->a), 0);
	KUNIT_EXPECT_EQ(test, t->b.cur.born_ms, 200);
	KUNIT_EXPECT_EQ(test, t->b.prev.id, 1);

	/* The current id with another secret: refused. */
	tkr_ring(test, &t->b, 2, 0x23, 0, 0, 300);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_ring_merge(&t->b, &t->a),
			-EEXIST);

	/* Both given: both replaced; a generation kept keeps its age. */
	tkr_ring(test, &t->b, 3, 0x33, 2, 0x22, 300);
	KUNIT_ASSERT_EQ(test, ktls_hs_ticket_ring_merge(&t->b, &t->a), 0);
	KUNIT_EXPECT_EQ(test, t->b.cur.id, 3);
	KUNIT_EXPECT_EQ(test, t->b.cur.born_ms, 300);
	KUNIT_EXPECT_EQ(test, t->b.prev.id, 2);
	KUNIT_EXPECT_EQ(test, t->b.prev.born_ms, 200);
}

/* A keyring of the test's own, and a key of @type in it. */
static struct key *tkr_keyring(struct kunit *test)
{
	struct key *ring;

	ring = keyring_alloc("ktls_hs_kunit", GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
			     current_cred(), KEY_POS_ALL | KEY_USR_ALL,
			     KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	return ring;
}

static key_ref_t tkr_add(struct key *ring, const char *type, const char *desc,
			 const char *payload, key_perm_t perm)
{
	return key_create_or_update(make_key_ref(ring, true), type, desc,
				    payload, strlen(payload), perm,
				    KEY_ALLOC_NOT_IN_QUOTA);
}

#define TKR_PERM	(KEY_POS_ALL | KEY_USR_VIEW | KEY_USR_SEARCH)

static struct key *tkr_key(struct kunit *test, struct key *ring,
			   const char *desc, const char *payload)
{
	key_ref_t ref = tkr_add(ring, "ktls_tickets", desc, payload, TKR_PERM);

	KUNIT_ASSERT_FALSE(test, IS_ERR(ref));
	return key_ref_to_ptr(ref);
}

static struct ktls_hs_ticket_keys *tkr_keys(struct kunit *test,
					    struct key *key)
{
	struct ktls_hs_ticket_keys *k = ktls_hs_ticket_keys_keyring(key->serial);

	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_keys_serial(k), key->serial);
	return k;
}

static void tkr_state(struct ktls_hs_ticket_state *st, u64 now)
{
	memset(st, 0, sizeof(*st));
	st->version = 0x0304;
	st->suite = 0x1301;
	st->created_ms = now;
	st->lifetime_s = 3600;
	st->secret_len = 32;
	get_random_bytes(st->secret, 32);
	get_random_bytes(st->id_digest, sizeof(st->id_digest));
}

static int tkr_seal(struct ktls_hs_ticket_keys *k, struct tkr *t, u8 *out)
{
	return ktls_hs_ticket_seal(k, ktls_hs_ticket_keys_now(k), &t->st, out,
				   KTLS_HS_TICKET_MAX_LEN);
}

static int tkr_open(struct ktls_hs_ticket_keys *k, struct tkr *t,
		    const u8 *in, int len)
{
	return ktls_hs_ticket_open(k, ktls_hs_ticket_keys_now(k),
				   t->st.version, in, len, NULL, &t->got);
}

/*
 * Two keys of one payload are two machines of a fleet: each opens the
 * other's tickets, on the wall clock.  Kernel-made keys do not.
 */
static void keyring_fleet(struct kunit *test)
{
	struct ktls_hs_ticket_keys *a, *b, *own;
	struct tkr *t = tkr_alloc(test);
	struct key *ring = tkr_keyring(test), *ka, *kb;
	u64 real = ktls_hs_ticket_real_ms();
	int len;

	tkr_line(t->p, "current", 7, 0x11, 32);
	tkr_line(t->p, "previous", 6, 0x66, 32);
	ka = tkr_key(test, ring, "machine-a", t->p);
	kb = tkr_key(test, ring, "machine-b", t->p);
	a = tkr_keys(test, ka);
	b = tkr_keys(test, kb);
	own = ktls_hs_ticket_keys_get(&init_net, GLOBAL_ROOT_UID, 0, 60);
	KUNIT_ASSERT_FALSE(test, IS_ERR(own));

	KUNIT_EXPECT_GE(test, ktls_hs_ticket_keys_now(a), real);
	KUNIT_EXPECT_LT(test, ktls_hs_ticket_keys_now(a), real + 60000);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_keys_serial(own), 0);

	tkr_state(&t->st, ktls_hs_ticket_keys_now(a));
	len = tkr_seal(a, t, t->t);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(t->t + 1), 7);
	KUNIT_EXPECT_EQ(test, tkr_open(b, t, t->t, len), 0);
	KUNIT_EXPECT_EQ(test, t->got.created_ms, t->st.created_ms);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_open(own,
						  ktls_hs_ticket_keys_now(a),
						  0x0304, t->t, len, NULL,
						  &t->got),
			-ENOKEY);

	ktls_hs_ticket_keys_put(own);
	ktls_hs_ticket_keys_put(a);
	ktls_hs_ticket_keys_put(b);
	key_invalidate(ka);
	key_invalidate(kb);
	key_put(ka);
	key_put(kb);
	key_put(ring);
}

/*
 * An update of the current key alone rotates: tickets of the key
 * before still open, new ones are sealed with the new key; a second
 * rotation drops the first key.  A payload naming both replaces both.
 * Revoked or invalidated, the key seals and opens nothing.
 */
static void keyring_rotation(struct kunit *test)
{
	struct tkr *t = tkr_alloc(test);
	struct key *ring = tkr_keyring(test), *key;
	struct ktls_hs_ticket_keys *k;
	int len, len2;

	tkr_line(t->p, "current", 1, 0x11, 32);
	key = tkr_key(test, ring, "fleet", t->p);
	k = tkr_keys(test, key);
	tkr_state(&t->st, ktls_hs_ticket_keys_now(k));
	len = tkr_seal(k, t, t->t);
	KUNIT_ASSERT_GT(test, len, 0);

	t->p[0] = '\0';
	tkr_line(t->p, "current", 2, 0x22, 32);
	KUNIT_ASSERT_EQ(test, key_update(make_key_ref(key, true), t->p,
					 strlen(t->p)), 0);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), 0);
	len2 = tkr_seal(k, t, t->t2);
	KUNIT_ASSERT_GT(test, len2, 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(t->t2 + 1), 2);

	/* Pushed again: nothing changes. */
	KUNIT_ASSERT_EQ(test, key_update(make_key_ref(key, true), t->p,
					 strlen(t->p)), 0);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), 0);

	/* Id 2 for another secret: refused, the keys as they were. */
	t->p[0] = '\0';
	tkr_line(t->p, "current", 2, 0x2f, 32);
	KUNIT_EXPECT_EQ(test, key_update(make_key_ref(key, true), t->p,
					 strlen(t->p)), -EEXIST);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t2, len2), 0);

	/* Hostile updates change nothing either. */
	KUNIT_EXPECT_EQ(test, key_update(make_key_ref(key, true), "current 3",
					 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, key_update(make_key_ref(key, true), "", 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), 0);

	t->p[0] = '\0';
	tkr_line(t->p, "current", 3, 0x33, 32);
	KUNIT_ASSERT_EQ(test, key_update(make_key_ref(key, true), t->p,
					 strlen(t->p)), 0);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), -ENOKEY);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t2, len2), 0);

	/* Both named: the operator's word; key 2 is gone. */
	t->p[0] = '\0';
	tkr_line(t->p, "current", 5, 0x55, 32);
	tkr_line(t->p, "previous", 1, 0x11, 32);
	KUNIT_ASSERT_EQ(test, key_update(make_key_ref(key, true), t->p,
					 strlen(t->p)), 0);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), 0);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t2, len2), -ENOKEY);

	key_revoke(key);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), -ENOKEY);
	KUNIT_EXPECT_EQ(test, tkr_seal(k, t, t->t2), -ENOKEY);
	ktls_hs_ticket_keys_put(k);
	key_put(key);

	/* Invalidated (ktls tickets del): the same. */
	t->p[0] = '\0';
	tkr_line(t->p, "current", 1, 0x11, 32);
	key = tkr_key(test, ring, "fleet2", t->p);
	k = tkr_keys(test, key);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), 0);
	key_invalidate(key);
	KUNIT_EXPECT_EQ(test, tkr_open(k, t, t->t, len), -ENOKEY);
	KUNIT_EXPECT_EQ(test, tkr_seal(k, t, t->t2), -ENOKEY);
	ktls_hs_ticket_keys_put(k);
	key_put(key);
	key_put(ring);
}

/* What a listener may not name, and the errno it gets. */
static void keyring_lookup(struct kunit *test)
{
	struct tkr *t = tkr_alloc(test);
	struct key *ring = tkr_keyring(test), *user, *hidden;
	struct ktls_hs_ticket_keys *k;
	key_ref_t ref;

	KUNIT_EXPECT_EQ(test, PTR_ERR(ktls_hs_ticket_keys_keyring(0)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ktls_hs_ticket_keys_keyring(-1)),
			-EINVAL);

	/* Hostile payloads fail at add, with nothing added. */
	ref = tkr_add(ring, "ktls_tickets", "bad", "current 7 00", TKR_PERM);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ref), -EINVAL);

	ref = tkr_add(ring, "user", "other-type", "secret", TKR_PERM);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ref));
	user = key_ref_to_ptr(ref);
	k = ktls_hs_ticket_keys_keyring(user->serial);
	KUNIT_EXPECT_EQ(test, PTR_ERR(k), -EINVAL);

	/* Viewable, not searchable by its owner: not for a listener. */
	tkr_line(t->p, "current", 7, 0x11, 32);
	ref = tkr_add(ring, "ktls_tickets", "hidden", t->p,
		      KEY_POS_ALL | KEY_USR_VIEW);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ref));
	hidden = key_ref_to_ptr(ref);
	k = ktls_hs_ticket_keys_keyring(hidden->serial);
	KUNIT_EXPECT_EQ(test, PTR_ERR(k), -EACCES);

	/* Gone: no such key. */
	key_invalidate(hidden);
	k = ktls_hs_ticket_keys_keyring(hidden->serial);
	KUNIT_EXPECT_TRUE(test, IS_ERR(k));

	key_invalidate(user);
	key_put(user);
	key_put(hidden);
	key_put(ring);
}

static struct kunit_case hs_ticket_keyring_cases[] = {
	KUNIT_CASE(payload_good),
	KUNIT_CASE(payload_bad),
	KUNIT_CASE(derive_vector),
	KUNIT_CASE(ring_merge),
	KUNIT_CASE(keyring_fleet),
	KUNIT_CASE(keyring_rotation),
	KUNIT_CASE(keyring_lookup),
	{}
};

static struct kunit_suite hs_ticket_keyring_suite = {
	.name = "ktls_hs_ticket_keyring",
	.test_cases = hs_ticket_keyring_cases,
};

kunit_test_suite(hs_ticket_keyring_suite);
