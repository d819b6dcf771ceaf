// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of session tickets that carry the client's certificate
 * (net/hs/ticket_peer.c, format 3 of ticket.c): a peer the verifier made
 * of the test chain (net/identity/tests) is sealed and opened back the
 * same, the largest peer fits the room a handshake lends, a format-2
 * ticket still opens where a room is lent, and a format-3 one is not
 * ours where none is; a peer block cut short or garbled is refused,
 * sealed or not; a ticket lives no longer than the certificate; and a
 * resumption takes the peer only while the listener's store vouches for
 * it, or none where one is optional (TLS 1.2 selection end to end).
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <net/net_namespace.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/trust.h>

#include "../codec.h"
#include "../messages.h"
#include "../ticket.h"
#include "../tls12.h"
#include "../../identity/tests/verify_vectors.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define TP_T2030	1893456000LL	/* when the test chain is verified */
#define TP_T2035	2051222400LL	/* notAfter of its leaves */
#define TP_SNI		"www.example.test"

/* What a test works on, off the stack. */
struct tp {
	struct ktls_trust *root, *other, *denied;
	struct ktls_peer_cert verified, got;
	struct ktls_hs_ticket_state st, out;
	struct ktls_identity id;
	struct ktls_identity_cert cert;
	u8 der[64];
	u8 room_buf[KTLS_HS_TICKET_PEER_MAX_LEN] __aligned(8);
	struct ktls_hs_ticket_room room;
	u8 t[KTLS_HS_TICKET_PEER_MAX_LEN + 1];
	u8 block[KTLS_HS_TICKET_PEER_MAX];
	struct ktls_hs_ticket_keys *keys;
	struct ktls_hs_client_hello ch;
	u8 suites[2];
};

static struct ktls_trust *tp_store(struct kunit *test, const char *pem)
{
	struct ktls_trust *t;
	const char *why;

	t = ktls_trust_parse((const u8 *)pem, strlen(pem), &why);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "refused: %s", why);
	return t;
}

static int tp_init(struct kunit *test)
{
	const struct ktls_verify_cert leaf = { vec_leaf1, sizeof(vec_leaf1) };
	struct tp *tp = kunit_kzalloc(test, sizeof(*tp), GFP_KERNEL);
	void *scratch;
	char *pem;
	const char *why;

	if (!tp)
		return -ENOMEM;
	test->priv = tp;
	tp->root = tp_store(test, vec_root_pem);
	tp->other = tp_store(test, vec_other_pem);
	pem = kunit_kzalloc(test, strlen(vec_root_pem) + 80, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pem);
	sprintf(pem, "%sdeny %s\n", vec_root_pem, vec_leaf1_sha256);
	tp->denied = tp_store(test, pem);

	scratch = kunit_kzalloc(test, KTLS_VERIFY_SCRATCH_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, scratch);
	KUNIT_ASSERT_EQ(test, ktls_verify_peer(tp->root, &leaf, 1, TP_T2030,
					       scratch, &tp->verified, &why),
			KTLS_VERIFY_OK);

	memset(tp->der, 0x11, sizeof(tp->der));
	tp->cert.der = tp->der;
	tp->cert.len = sizeof(tp->der);
	tp->id.certs = &tp->cert;
	tp->id.nr_certs = 1;
	tp->room.peer = &tp->got;
	tp->room.buf = tp->room_buf;
	tp->keys = ktls_hs_ticket_keys_get(&init_net, GLOBAL_ROOT_UID, 0, 60);
	KUNIT_ASSERT_FALSE(test, IS_ERR(tp->keys));
	return 0;
}

static void tp_exit(struct kunit *test)
{
	struct tp *tp = test->priv;

	if (!tp)
		return;
	if (!IS_ERR_OR_NULL(tp->keys))
		ktls_hs_ticket_keys_put(tp->keys);
	if (!IS_ERR_OR_NULL(tp->root))
		ktls_trust_put(tp->root);
	if (!IS_ERR_OR_NULL(tp->other))
		ktls_trust_put(tp->other);
	if (!IS_ERR_OR_NULL(tp->denied))
		ktls_trust_put(tp->denied);
}

static void tp_state(struct ktls_hs_ticket_state *st, u64 now_ms,
		     struct ktls_peer_cert *peer)
{
	memset(st, 0, sizeof(*st));
	st->version = 0x0304;
	st->suite = 0x1301;
	st->created_ms = now_ms;
	st->lifetime_s = 600;
	st->secret_len = 32;
	get_random_bytes(st->secret, 32);
	st->sni_len = strlen(TP_SNI);
	memcpy(st->sni, TP_SNI, st->sni_len);
	st->peer = peer;
}

static int tp_seal(struct tp *tp, u64 now_ms)
{
	return ktls_hs_ticket_seal(tp->keys, now_ms, &tp->st, tp->t,
				   KTLS_HS_TICKET_PEER_MAX_LEN);
}

static int tp_open(struct tp *tp, u64 now_ms, int len, bool room)
{
	return ktls_hs_ticket_open(tp->keys, now_ms, 0x0304, tp->t, len,
				   room ? &tp->room : NULL, &tp->out);
}

static void tp_expect_peer(struct kunit *test, const struct ktls_peer_cert *a,
			   const struct ktls_peer_cert *b)
{
	unsigned int i;

	KUNIT_EXPECT_MEMEQ(test, a->fingerprint, b->fingerprint,
			   sizeof(a->fingerprint));
	KUNIT_EXPECT_MEMEQ(test, a->anchor_fp, b->anchor_fp,
			   sizeof(a->anchor_fp));
	KUNIT_EXPECT_EQ(test, a->not_after, b->not_after);
	KUNIT_EXPECT_EQ(test, a->depth, b->depth);
	KUNIT_EXPECT_STREQ(test, a->subject, b->subject);
	KUNIT_EXPECT_STREQ(test, a->issuer, b->issuer);
	KUNIT_EXPECT_EQ(test, a->sans_truncated, b->sans_truncated);
	KUNIT_ASSERT_EQ(test, a->nr_sans, b->nr_sans);
	for (i = 0; i < a->nr_sans; i++) {
		KUNIT_EXPECT_EQ(test, a->sans[i].type, b->sans[i].type);
		KUNIT_EXPECT_STREQ(test, a->san_text + a->sans[i].off,
				   b->san_text + b->sans[i].off);
	}
}

/* The verifier's peer goes in, comes out the same, in format 3. */
static void ticket_peer_round_trip(struct kunit *test)
{
	struct tp *tp = test->priv;
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	/* The store names the anchor the path ended at. */
	KUNIT_EXPECT_MEMEQ(test, tp->verified.anchor_fp,
			   tp->root->anchors[0].fingerprint, SHA256_DIGEST_SIZE);
	tp_state(&tp->st, now, &tp->verified);
	len = tp_seal(tp, now);
	/*
	 * The peer block is in it (a small client's ticket can still be
	 * shorter than the largest one without a client).
	 */
	KUNIT_ASSERT_GT(test, len, (int)ktls_hs_ticket_peer_len(&tp->verified));
	KUNIT_EXPECT_EQ(test, tp->t[0], KTLS_HS_TICKET_FORMAT_PEER);
	KUNIT_ASSERT_EQ(test, tp_open(tp, now + 1, len, true), 0);
	KUNIT_EXPECT_PTR_EQ(test, tp->out.peer, &tp->got);
	KUNIT_EXPECT_EQ(test, tp->out.lifetime_s, 600);
	KUNIT_EXPECT_MEMEQ(test, tp->out.secret, tp->st.secret, 32);
	tp_expect_peer(test, &tp->verified, &tp->got);
	KUNIT_EXPECT_STREQ(test, tp->got.subject, "CN=client one, O=ktls-hs");
	KUNIT_EXPECT_EQ(test, tp->got.nr_sans, 3);
	/* Not in the ticket: nothing is verified with it again. */
	KUNIT_EXPECT_EQ(test, tp->got.public_key[0], 0);

	/* Without a room, not ours: a full handshake. */
	KUNIT_EXPECT_EQ(test, tp_open(tp, now, len, false), -EBADMSG);
	KUNIT_EXPECT_NULL(test, tp->out.peer);
	KUNIT_EXPECT_EQ(test, tp->out.secret_len, 0);
}

/* Every field at its longest still fits the room and the verifier's memory. */
static void ticket_peer_largest(struct kunit *test)
{
	struct tp *tp = test->priv;
	struct ktls_peer_cert *p = &tp->verified;
	u64 now = ktls_hs_ticket_now_ms();
	u8 name[63];
	unsigned int i;
	int len;

	memset(p->subject, 'a', KTLS_PEER_NAME_MAX - 1);
	p->subject[KTLS_PEER_NAME_MAX - 1] = '\0';
	memset(p->issuer, 0xc3, KTLS_PEER_NAME_MAX - 1);	/* UTF-8 stays */
	p->issuer[KTLS_PEER_NAME_MAX - 1] = '\0';
	p->nr_sans = 0;
	for (i = 0; i < KTLS_PEER_MAX_SANS; i++) {
		memset(name, 'A' + i, sizeof(name));
		KUNIT_ASSERT_TRUE(test, ktls_peer_add_san(p, KTLS_PEER_SAN_URI,
							  name, sizeof(name)));
	}
	KUNIT_EXPECT_FALSE(test, ktls_peer_add_san(p, KTLS_PEER_SAN_DNS,
						   name, 1));
	KUNIT_EXPECT_TRUE(test, p->sans_truncated);
	KUNIT_EXPECT_LE(test, ktls_hs_ticket_peer_len(p),
			KTLS_HS_TICKET_PEER_MAX);

	tp_state(&tp->st, now, p);
	tp->st.secret_len = 48;
	memset(tp->st.sni, 'x', KTLS_HS_TICKET_SNI_MAX);
	tp->st.sni_len = KTLS_HS_TICKET_SNI_MAX;
	len = tp_seal(tp, now);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_LE(test, len, KTLS_HS_TICKET_PEER_MAX_LEN);
	KUNIT_EXPECT_LE(test, KTLS_HS_TICKET_PEER_MAX_LEN,
			KTLS_VERIFY_SCRATCH_SIZE);
	kunit_info(test, "largest ticket with a peer: %d of %d bytes\n", len,
		   (int)KTLS_HS_TICKET_PEER_MAX_LEN);
	KUNIT_ASSERT_EQ(test, tp_open(tp, now, len, true), 0);
	tp_expect_peer(test, p, &tp->got);
	/* One byte short of room: not sealed. */
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_seal(tp->keys, now, &tp->st,
						  tp->t, len - 1), -EINVAL);
}

/* A format-2 ticket, as listeners without a store make, opens in a room. */
static void ticket_peer_old_format(struct kunit *test)
{
	struct tp *tp = test->priv;
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	tp_state(&tp->st, now, NULL);
	len = tp_seal(tp, now);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tp->t[0], KTLS_HS_TICKET_FORMAT);
	KUNIT_EXPECT_LE(test, len, KTLS_HS_TICKET_MAX_LEN);
	KUNIT_ASSERT_EQ(test, tp_open(tp, now, len, true), 0);
	KUNIT_EXPECT_NULL(test, tp->out.peer);
	KUNIT_EXPECT_MEMEQ(test, tp->out.secret, tp->st.secret, 32);
	KUNIT_ASSERT_EQ(test, tp_open(tp, now, len, false), 0);
	KUNIT_EXPECT_NULL(test, tp->out.peer);
}

/* A block cut short, with a byte more, or a field out of range. */
static void ticket_peer_garbled(struct kunit *test)
{
	static const struct {
		const char *what;
		size_t off;
		u8 val;
	} bad[] = {
		{ "depth 0", 72, 0 },
		{ "depth past the limit", 72, KTLS_VERIFY_MAX_DEPTH + 2 },
		{ "unknown flag", 73, 0x80 },
		{ "subject longer than the block", 74, 0xff },
		{ "control in the subject", 75, '\n' },
	};
	struct tp *tp = test->priv;
	struct ktls_peer_cert *p = &tp->verified;
	u64 now = ktls_hs_ticket_now_ms();
	size_t n = ktls_hs_ticket_peer_len(p), i, sans;
	int len;

	ktls_hs_ticket_peer_encode(p, tp->block);
	KUNIT_ASSERT_TRUE(test, ktls_hs_ticket_peer_decode(tp->block, n,
							   &tp->got));
	tp_expect_peer(test, p, &tp->got);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_FALSE_MSG(test,
				       ktls_hs_ticket_peer_decode(tp->block, i,
								  &tp->got),
				       "cut at %zu", i);
	KUNIT_EXPECT_EQ(test, tp->got.nr_sans, 0);
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_decode(tp->block, n + 1,
							    &tp->got));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ktls_hs_ticket_peer_encode(p, tp->block);
		tp->block[bad[i].off] = bad[i].val;
		KUNIT_EXPECT_FALSE_MSG(test,
				       ktls_hs_ticket_peer_decode(tp->block, n,
								  &tp->got),
				       "%s", bad[i].what);
	}

	/* The names: their count, a type, an empty one, a blank in one. */
	sans = 74 + 1 + strlen(p->subject) + 1 + strlen(p->issuer);
	ktls_hs_ticket_peer_encode(p, tp->block);
	tp->block[sans] = KTLS_PEER_MAX_SANS + 1;
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_decode(tp->block, n,
							    &tp->got));
	ktls_hs_ticket_peer_encode(p, tp->block);
	tp->block[sans + 1] = 3;	/* x400Address */
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_decode(tp->block, n,
							    &tp->got));
	ktls_hs_ticket_peer_encode(p, tp->block);
	tp->block[sans + 4] = ' ';
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_decode(tp->block, n,
							    &tp->got));
	KUNIT_EXPECT_EQ(test, tp->got.subject[0], 0);

	/* Authentic but garbled: refused, the room's peer left empty. */
	p->depth = 0;
	tp_state(&tp->st, now, p);
	len = tp_seal(tp, now);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, tp_open(tp, now, len, true), -EBADMSG);
	KUNIT_EXPECT_EQ(test, tp->got.subject[0], 0);
	KUNIT_EXPECT_NULL(test, tp->out.peer);

	/* Cut short, sealed: the tag fails, whatever the length. */
	p->depth = 1;
	len = tp_seal(tp, now);
	KUNIT_ASSERT_GT(test, len, 0);
	for (i = 0; i < len; i++)
		KUNIT_EXPECT_LT(test, tp_open(tp, now, i, true), 0);
	KUNIT_EXPECT_EQ(test, tp_open(tp, now, len, true), 0);
}

/* No ticket outlives the certificate it carries. */
static void ticket_peer_lifetime(struct kunit *test)
{
	struct tp *tp = test->priv;
	struct ktls_peer_cert *p = &tp->verified;
	time64_t real = ktime_get_real_seconds();
	u64 now = ktls_hs_ticket_now_ms();
	int len;

	p->not_after = 1000;
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_peer_lifetime(p, 3600, 900), 100);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_peer_lifetime(p, 50, 900), 50);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_peer_lifetime(p, 3600, 1000), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_peer_lifetime(p, 3600, 2000), 0);
	p->not_after = S64_MAX;
	KUNIT_EXPECT_EQ(test, ktls_hs_ticket_peer_lifetime(p, 3600, 0), 3600);

	/* Issued: capped at notAfter by the real clock, and sealed so. */
	p->not_after = real + 100;
	tp_state(&tp->st, now, p);
	tp->st.lifetime_s = 7 * 24 * 3600;
	len = ktls_hs_ticket_issue(tp->keys, &tp->st, &tp->id, TP_SNI, tp->t,
				   KTLS_HS_TICKET_PEER_MAX_LEN);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_LE(test, tp->st.lifetime_s, 100);
	KUNIT_EXPECT_GE(test, tp->st.lifetime_s, 95);
	KUNIT_ASSERT_EQ(test, tp_open(tp, now, len, true), 0);
	KUNIT_EXPECT_EQ(test, tp->out.lifetime_s, tp->st.lifetime_s);
	KUNIT_EXPECT_EQ(test, tp_open(tp, now + 101 * 1000ULL, len, true),
			-EKEYEXPIRED);

	/* Expired already: no ticket at all. */
	p->not_after = real - 1;
	tp_state(&tp->st, now, p);
	KUNIT_EXPECT_EQ(test,
			ktls_hs_ticket_issue(tp->keys, &tp->st, &tp->id,
					     TP_SNI, tp->t,
					     KTLS_HS_TICKET_PEER_MAX_LEN),
			-ENOKEY);
}

/* What the listener's store still says of the ticket's client. */
static void ticket_peer_trust(struct kunit *test)
{
	struct tp *tp = test->priv;
	struct ktls_hs_ticket_state *st = &tp->st;

	tp_state(st, 0, NULL);
	KUNIT_EXPECT_TRUE(test, ktls_hs_ticket_peer_trusted(st, NULL, false,
							    TP_T2030));
	KUNIT_EXPECT_TRUE(test, ktls_hs_ticket_peer_trusted(st, tp->root,
							    false, TP_T2030));
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_trusted(st, tp->root,
							     true, TP_T2030));

	st->peer = &tp->verified;
	KUNIT_EXPECT_TRUE(test, ktls_hs_ticket_peer_trusted(st, tp->root,
							    true, TP_T2030));
	KUNIT_EXPECT_TRUE(test, ktls_hs_ticket_peer_trusted(st, tp->root,
							    false, TP_T2030));
	/* No store; the CA gone from it; the leaf denied; past notAfter. */
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_trusted(st, NULL, false,
							     TP_T2030));
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_trusted(st, tp->other,
							     false, TP_T2030));
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_trusted(st, tp->denied,
							     false, TP_T2030));
	KUNIT_EXPECT_TRUE(test, ktls_hs_ticket_peer_trusted(st, tp->root,
							    true, TP_T2035));
	KUNIT_EXPECT_FALSE(test, ktls_hs_ticket_peer_trusted(st, tp->root,
							     true,
							     TP_T2035 + 1));
	/* A leaf good for longer than its CA: the CA's end ends it. */
	tp->verified.not_after = S64_MAX;
	KUNIT_EXPECT_FALSE(test,
			   ktls_hs_ticket_peer_trusted(st, tp->root, true,
						       tp->root->anchors[0].not_after + 1));
}

/* A TLS 1.2 ClientHello offering @tp->t of @len bytes, as hs12_kunit's. */
static void tp_hello(struct tp *tp, int len)
{
	struct ktls_hs_client_hello *ch = &tp->ch;

	memset(ch, 0, sizeof(*ch));
	put_unaligned_be16(0xc02b, tp->suites);
	ch->suites.data = tp->suites;
	ch->suites.len = 2;
	ch->server_name.data = (const u8 *)TP_SNI;
	ch->server_name.len = strlen(TP_SNI);
	ch->session_ticket.data = tp->t;
	ch->session_ticket.len = len;
	ch->exts = BIT(KTLS_EXTB_SERVER_NAME) | BIT(KTLS_EXTB_SESSION_TICKET) |
		   BIT(KTLS_EXTB_EXTENDED_MASTER_SECRET);
}

/* A TLS 1.2 NewSessionTicket under @cfg, for @peer; its ticket in @tp->t. */
static int tp_ticket12(struct kunit *test, struct tp *tp,
		       const struct ktls_hs_config *cfg,
		       struct ktls_peer_cert *peer)
{
	struct ktls_hs_ticket_room room = { peer, tp->room_buf };
	u8 *nst = kunit_kzalloc(test, KTLS_HS_TICKET_PEER_MAX_LEN + 16,
				GFP_KERNEL);
	struct ktls_hs_buf b = { nst, 0, KTLS_HS_TICKET_PEER_MAX_LEN + 16 };
	u8 master[KTLS_TLS12_MASTER_SIZE] = { 1, 2, 3 };
	int len;

	KUNIT_ASSERT_NOT_NULL(test, nst);
	KUNIT_ASSERT_EQ(test, ktls_hs12_ticket_new(cfg, 0xc02b, master, true,
						   &tp->id, TP_SNI,
						   peer ? &room : NULL, &b), 0);
	len = get_unaligned_be16(nst + 8);
	KUNIT_ASSERT_EQ(test, len + 10, b.len);
	memcpy(tp->t, nst + 10, len);
	return len;
}

/*
 * TLS 1.2 selection: a ticket with a client resumes it under either mode;
 * one without resumes where a certificate is optional only; a listener
 * without a store takes no ticket with a client.
 */
static void ticket_peer_resume12(struct kunit *test)
{
	struct tp *tp = test->priv;
	struct ktls_hs_config cfg = {
		.tickets = tp->keys,
		.ticket_lifetime = 600,
		.suites = KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
		.trust = tp->root,
		.client_auth = KTLS_HS_CLIENT_AUTH_REQUIRED,
	};
	struct ktls_hs_client_hello *ch = &tp->ch;
	struct ktls_hs12_resumption r;
	int len;

	/* The real clock decides here: a leaf good until 2035. */
	KUNIT_ASSERT_LT(test, ktime_get_real_seconds(), TP_T2035);
	len = tp_ticket12(test, tp, &cfg, &tp->verified);
	KUNIT_EXPECT_EQ(test, tp->t[0], KTLS_HS_TICKET_FORMAT_PEER);
	tp_hello(tp, len);
	KUNIT_ASSERT_EQ(test, ktls_hs12_ticket_select(&cfg, ch, &tp->id,
						      &tp->room, &r), 0);
	KUNIT_ASSERT_NOT_NULL(test, r.suite);
	KUNIT_EXPECT_PTR_EQ(test, r.peer, &tp->got);
	tp_expect_peer(test, &tp->verified, &tp->got);

	/* The CA gone from the store: a full handshake, the room wiped. */
	cfg.trust = tp->other;
	KUNIT_EXPECT_EQ(test, ktls_hs12_ticket_select(&cfg, ch, &tp->id,
						      &tp->room, &r), 0);
	KUNIT_EXPECT_NULL(test, r.suite);
	KUNIT_EXPECT_EQ(test, tp->got.subject[0], 0);
	cfg.trust = tp->denied;
	KUNIT_EXPECT_EQ(test, ktls_hs12_ticket_select(&cfg, ch, &tp->id,
						      &tp->room, &r), 0);
	KUNIT_EXPECT_NULL(test, r.suite);

	/* No store, no room: not ours. */
	cfg.trust = NULL;
	KUNIT_EXPECT_EQ(test, ktls_hs12_ticket_select(&cfg, ch, &tp->id,
						      NULL, &r), 0);
	KUNIT_EXPECT_NULL(test, r.suite);

	/* A session without a client certificate. */
	len = tp_ticket12(test, tp, &cfg, NULL);
	KUNIT_EXPECT_EQ(test, tp->t[0], KTLS_HS_TICKET_FORMAT);
	tp_hello(tp, len);
	cfg.trust = tp->root;
	KUNIT_EXPECT_EQ(test, ktls_hs12_ticket_select(&cfg, ch, &tp->id,
						      &tp->room, &r), 0);
	KUNIT_EXPECT_NULL(test, r.suite);
	cfg.client_auth = KTLS_HS_CLIENT_AUTH_OPTIONAL;
	KUNIT_EXPECT_EQ(test, ktls_hs12_ticket_select(&cfg, ch, &tp->id,
						      &tp->room, &r), 0);
	KUNIT_EXPECT_NOT_NULL(test, r.suite);
	KUNIT_EXPECT_NULL(test, r.peer);
}

static struct kunit_case hs_ticket_peer_cases[] = {
	KUNIT_CASE(ticket_peer_round_trip),
	KUNIT_CASE(ticket_peer_largest),
	KUNIT_CASE(ticket_peer_old_format),
	KUNIT_CASE(ticket_peer_garbled),
	KUNIT_CASE(ticket_peer_lifetime),
	KUNIT_CASE(ticket_peer_trust),
	KUNIT_CASE(ticket_peer_resume12),
	{}
};

static struct kunit_suite hs_ticket_peer_suite = {
	.name = "ktls_hs_ticket_peer",
	.init = tp_init,
	.exit = tp_exit,
	.test_cases = hs_ticket_peer_cases,
};

kunit_test_suite(hs_ticket_peer_suite);
