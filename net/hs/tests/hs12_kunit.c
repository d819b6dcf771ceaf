// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the TLS 1.2 server handshake's codec and keys
 * (net/hs/tls12_msgs.c, tls12_server.c): each message built byte for
 * byte from the layouts of RFC 5246 and RFC 8422, and not at all in a
 * buffer one byte short; the ClientKeyExchange parser against good and
 * hostile messages; the record-layer keys of each suite from a key
 * block whose known answers come from an independent implementation of
 * the RFC 5246 PRF (Python's hmac), master secret 00..2f, client random
 * 40..5f, server random 80..9f.  Session tickets (tls12_ticket.c): the
 * NewSessionTicket of RFC 5077 3.3, and which tickets resume, which get
 * a full handshake and which an alert (RFC 7627 5.3).
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tls.h>
#include <net/net_namespace.h>

#include <ktls_hs/identity.h>

#include "../ticket.h"
#include "../tls12.h"

static u8 *hs12_exact_copy(struct kunit *test, const u8 *src, size_t len)
{
	u8 *p = kunit_kmalloc(test, len ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memcpy(p, src, len);
	return p;
}

/* A buffer of exactly @cap bytes for a builder. */
static void hs12_buf(struct kunit *test, struct ktls_hs_buf *b, size_t cap)
{
	b->data = kunit_kzalloc(test, cap ?: 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b->data);
	b->len = 0;
	b->cap = cap;
}

static u8 hs12_random[KTLS_HS_RANDOM_LEN];

static void hs12_fill_random(void)
{
	int i;

	for (i = 0; i < KTLS_HS_RANDOM_LEN; i++)
		hs12_random[i] = 0xa0 + i;
}

/* The fixed head of our ServerHello: version, random, no session id. */
static void hs12_expect_head(struct kunit *test, const u8 *m, u16 suite)
{
	KUNIT_EXPECT_EQ(test, m[0], KTLS_HS_SERVER_HELLO);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m + 4), KTLS_VERSION_TLS12);
	KUNIT_EXPECT_MEMEQ(test, m + 6, hs12_random, KTLS_HS_RANDOM_LEN);
	KUNIT_EXPECT_EQ(test, m[38], 0);		/* session id */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m + 39), suite);
	KUNIT_EXPECT_EQ(test, m[41], 0);		/* compression */
}

static void sh12_all_extensions(struct kunit *test)
{
	static const u8 proto[] = "http/1.1";
	static const u8 exts[] = {
		0x00, 0x22,			/* extensions, 34 bytes */
		0xff, 0x01, 0x00, 0x01, 0x00,	/* renegotiation_info, empty */
		0x00, 0x00, 0x00, 0x00,		/* server_name, empty */
		0x00, 0x0b, 0x00, 0x02, 0x01, 0x00, /* ec_point_formats */
		0x00, 0x10, 0x00, 0x0b, 0x00, 0x09, 0x08,
		'h', 't', 't', 'p', '/', '1', '.', '1', /* ALPN */
		0x00, 0x17, 0x00, 0x00,		/* extended_master_secret */
	};
	struct ktls_hs_vec alpn = { proto, sizeof(proto) - 1 };
	struct ktls_hs12_sh_exts e = {
		.reneg = true, .ems = true, .ec_point_formats = true,
		.sni_ack = true, .alpn = &alpn,
	};
	size_t len = 4 + 38 + sizeof(exts);
	struct ktls_hs_buf b;

	hs12_fill_random();
	hs12_buf(test, &b, len);
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xc02b, &e), 0);
	KUNIT_ASSERT_EQ(test, b.len, len);
	KUNIT_EXPECT_EQ(test, get_unaligned_be24(b.data + 1), len - 4);
	hs12_expect_head(test, b.data, 0xc02b);
	KUNIT_EXPECT_MEMEQ(test, b.data + 42, exts, sizeof(exts));

	/* One byte short: nothing written. */
	hs12_buf(test, &b, len - 1);
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xc02b, &e), -ENOSPC);
	KUNIT_EXPECT_EQ(test, b.len, 0);
}

/* RFC 5246 7.4.1.3: no extensions, no extensions block at all. */
static void sh12_no_extensions(struct kunit *test)
{
	struct ktls_hs12_sh_exts e = {};
	struct ktls_hs_buf b;

	hs12_fill_random();
	hs12_buf(test, &b, 64);
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xcca9, &e), 0);
	KUNIT_ASSERT_EQ(test, b.len, 4 + 38);
	KUNIT_EXPECT_EQ(test, get_unaligned_be24(b.data + 1), 38);
	hs12_expect_head(test, b.data, 0xcca9);
}

static void sh12_bad_alpn(struct kunit *test)
{
	static const u8 name[256] = { 'a' };
	struct ktls_hs_vec alpn = { name, 0 };
	struct ktls_hs12_sh_exts e = { .alpn = &alpn };
	struct ktls_hs_buf b;

	hs12_buf(test, &b, 1024);
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xc02b, &e), -EINVAL);
	alpn.len = 256;
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xc02b, &e), -EINVAL);
	KUNIT_EXPECT_EQ(test, b.len, 0);
}

/* RFC 5077 3.4: a resumption echoes the session id; 3.2: an empty ticket ext. */
static void sh12_resumed(struct kunit *test)
{
	static const u8 exts[] = {
		0x00, 0x04,			/* extensions, 4 bytes */
		0x00, 0x23, 0x00, 0x00,		/* session_ticket, empty */
	};
	struct ktls_hs12_sh_exts e = { .session_ticket = true };
	u8 id[KTLS_HS_SESSION_ID_MAX + 1];
	struct ktls_hs_vec sid = { id, 32 };
	size_t len = 4 + 38 + 32 + sizeof(exts);
	struct ktls_hs_buf b;

	memset(id, 0x5a, sizeof(id));
	hs12_fill_random();
	hs12_buf(test, &b, len);
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, &sid,
							   0xc02c, &e), 0);
	KUNIT_ASSERT_EQ(test, b.len, len);
	KUNIT_EXPECT_EQ(test, b.data[38], 32);
	KUNIT_EXPECT_MEMEQ(test, b.data + 39, id, 32);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(b.data + 71), 0xc02c);
	KUNIT_EXPECT_MEMEQ(test, b.data + 74, exts, sizeof(exts));

	hs12_buf(test, &b, 1024);
	sid.len = KTLS_HS_SESSION_ID_MAX + 1;
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, &sid,
							   0xc02c, &e), -EINVAL);
	KUNIT_EXPECT_EQ(test, b.len, 0);
}

/* RFC 8449 4: our record_size_limit in a TLS 1.2 ServerHello, 2^14. */
static void sh12_record_size_limit(struct kunit *test)
{
	static const u8 exts[] = {
		0x00, 0x0a,			/* extensions, 10 bytes */
		0x00, 0x17, 0x00, 0x00,		/* extended_master_secret */
		0x00, 0x1c, 0x00, 0x02, 0x40, 0x00, /* record_size_limit */
	};
	struct ktls_hs12_sh_exts e = { .ems = true, .record_limit = 16384 };
	size_t len = 4 + 38 + sizeof(exts);
	struct ktls_hs_buf b;

	hs12_fill_random();
	hs12_buf(test, &b, len);
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xc02b, &e), 0);
	KUNIT_ASSERT_EQ(test, b.len, len);
	hs12_expect_head(test, b.data, 0xc02b);
	KUNIT_EXPECT_MEMEQ(test, b.data + 42, exts, sizeof(exts));

	/* Alone, it still makes an extension block. */
	e.ems = false;
	hs12_buf(test, &b, len);
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_server_hello(&b, hs12_random, NULL,
							   0xc02b, &e), 0);
	KUNIT_ASSERT_EQ(test, b.len, len - 4);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(b.data + 42), 6);
	KUNIT_EXPECT_MEMEQ(test, b.data + 44, exts + 6, 6);
}

/* RFC 5077 3.3: type 4, lifetime hint, ticket<0..2^16-1>. */
static void nst12_layout(struct kunit *test)
{
	static const u8 ticket[] = { 1, 2, 3, 4, 5 };
	static const u8 expect[] = {
		0x04, 0x00, 0x00, 0x0b,		/* NewSessionTicket, 11 bytes */
		0x00, 0x00, 0x0e, 0x10,		/* lifetime hint 3600 */
		0x00, 0x05, 1, 2, 3, 4, 5,
	};
	static const u8 empty[] = { 0, 0, 0, 0, 0, 0 };
	struct ktls_hs_buf b;

	hs12_buf(test, &b, sizeof(expect));
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_new_session_ticket(&b, 3600,
								 ticket,
								 sizeof(ticket)),
			0);
	KUNIT_EXPECT_EQ(test, b.len, sizeof(expect));
	KUNIT_EXPECT_MEMEQ(test, b.data, expect, sizeof(expect));

	hs12_buf(test, &b, sizeof(expect) - 1);
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_new_session_ticket(&b, 3600,
								 ticket,
								 sizeof(ticket)),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, b.len, 0);
	/* Empty: takes back the ticket a ServerHello announced. */
	hs12_buf(test, &b, 64);
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_new_session_ticket(&b, 0, ticket,
								 0),
			0);
	KUNIT_EXPECT_EQ(test, b.len, 4 + 4 + 2);
	KUNIT_EXPECT_MEMEQ(test, b.data + 4, empty, sizeof(empty));
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_new_session_ticket(&b, 1, ticket,
								 U16_MAX + 1),
			-EINVAL);
}

static void cert12_layout(struct kunit *test)
{
	static const u8 c1[] = { 0x30, 0x03, 0x01, 0x02, 0x03 };
	static const u8 c2[] = { 0x30, 0x01, 0xff };
	static const u8 want[] = {
		KTLS_HS_CERTIFICATE, 0x00, 0x00, 0x11,
		0x00, 0x00, 0x0e,			/* certificate_list */
		0x00, 0x00, 0x05, 0x30, 0x03, 0x01, 0x02, 0x03,
		0x00, 0x00, 0x03, 0x30, 0x01, 0xff,
	};
	struct ktls_hs_cert_ref certs[] = {
		{ c1, sizeof(c1) }, { c2, sizeof(c2) },
	};
	struct ktls_hs_buf b;

	hs12_buf(test, &b, sizeof(want));
	KUNIT_ASSERT_EQ(test, ktls_hs_build_certificate(&b, certs, 2, false), 0);
	KUNIT_ASSERT_EQ(test, b.len, sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, b.data, want, sizeof(want));

	hs12_buf(test, &b, sizeof(want) - 1);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_certificate(&b, certs, 2, false),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, b.len, 0);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_certificate(&b, certs, 0, false),
			-EINVAL);
	certs[1].len = 0;
	KUNIT_EXPECT_EQ(test, ktls_hs_build_certificate(&b, certs, 2, false),
			-EINVAL);
}

static int hs12_ske(struct ktls_hs_buf *b, const u8 *params, size_t plen,
		    const u8 *sig, size_t slen)
{
	return ktls_hs12_build_server_key_exchange(b, params, plen,
						   KTLS_SIG_ECDSA_SECP256R1_SHA256,
						   sig, slen);
}

static void ske12_layout(struct kunit *test)
{
	static const u8 sig[] = { 0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02 };
	u8 share[KTLS_X25519_KEY_LEN], params[KTLS_HS12_PARAMS_MAX];
	size_t params_len, len;
	struct ktls_hs_buf b;
	u8 *m;

	memset(share, 0x5a, sizeof(share));
	params_len = ktls_hs12_ecdh_params(params, KTLS_GROUP_X25519, share,
					   sizeof(share));
	KUNIT_ASSERT_EQ(test, params_len, 4 + sizeof(share));
	KUNIT_EXPECT_EQ(test, params[0], KTLS_HS12_NAMED_CURVE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(params + 1), KTLS_GROUP_X25519);
	KUNIT_EXPECT_EQ(test, params[3], sizeof(share));
	KUNIT_EXPECT_MEMEQ(test, params + 4, share, sizeof(share));
	KUNIT_EXPECT_EQ(test, ktls_hs12_ecdh_params(params, KTLS_GROUP_X25519,
						    share, 0), 0);
	KUNIT_EXPECT_EQ(test, ktls_hs12_ecdh_params(params, KTLS_GROUP_X25519,
						    share, 66), 0);

	len = 4 + params_len + 2 + 2 + sizeof(sig);
	hs12_buf(test, &b, len);
	KUNIT_ASSERT_EQ(test, hs12_ske(&b, params, params_len, sig,
				       sizeof(sig)), 0);
	KUNIT_ASSERT_EQ(test, b.len, len);
	m = b.data;
	KUNIT_EXPECT_EQ(test, m[0], KTLS_HS_SERVER_KEY_EXCHANGE);
	KUNIT_EXPECT_EQ(test, get_unaligned_be24(m + 1), len - 4);
	KUNIT_EXPECT_MEMEQ(test, m + 4, params, params_len);
	m += 4 + params_len;
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m),
			KTLS_SIG_ECDSA_SECP256R1_SHA256);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(m + 2), sizeof(sig));
	KUNIT_EXPECT_MEMEQ(test, m + 4, sig, sizeof(sig));

	hs12_buf(test, &b, len - 1);
	KUNIT_EXPECT_EQ(test, hs12_ske(&b, params, params_len, sig,
				       sizeof(sig)), -ENOSPC);
	KUNIT_EXPECT_EQ(test, b.len, 0);
	KUNIT_EXPECT_EQ(test, hs12_ske(&b, params, params_len, sig, 0),
			-EINVAL);
}

static void shd12_layout(struct kunit *test)
{
	static const u8 want[] = { KTLS_HS_SERVER_HELLO_DONE, 0, 0, 0 };
	struct ktls_hs_buf b;

	hs12_buf(test, &b, sizeof(want));
	KUNIT_ASSERT_EQ(test, ktls_hs12_build_server_hello_done(&b), 0);
	KUNIT_EXPECT_EQ(test, b.len, sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, b.data, want, sizeof(want));
	hs12_buf(test, &b, sizeof(want) - 1);
	KUNIT_EXPECT_EQ(test, ktls_hs12_build_server_hello_done(&b), -ENOSPC);
}

struct cke12_case {
	const char *name;
	u8 msg[40];
	u8 len;
	int ret;
	u8 point_len;
};

static const struct cke12_case cke12_cases[] = {
	{ "good", { 16, 0, 0, 4, 3, 1, 2, 3 }, 8, 0, 3 },
	{ "wrong type", { 15, 0, 0, 4, 3, 1, 2, 3 }, 8,
	  KTLS_ALERT_UNEXPECTED_MESSAGE },
	{ "empty message", { 16 }, 1, KTLS_ALERT_DECODE_ERROR },
	{ "no body", { 16, 0, 0, 0 }, 4, KTLS_ALERT_DECODE_ERROR },
	{ "empty point", { 16, 0, 0, 1, 0 }, 5, KTLS_ALERT_DECODE_ERROR },
	{ "point past the body", { 16, 0, 0, 3, 3, 1, 2 }, 7,
	  KTLS_ALERT_DECODE_ERROR },
	{ "byte after the point", { 16, 0, 0, 5, 3, 1, 2, 3, 9 }, 9,
	  KTLS_ALERT_DECODE_ERROR },
	{ "byte after the body", { 16, 0, 0, 4, 3, 1, 2, 3, 9 }, 9,
	  KTLS_ALERT_DECODE_ERROR },
	{ "body past the message", { 16, 0, 0, 9, 3, 1, 2, 3 }, 8,
	  KTLS_ALERT_DECODE_ERROR },
};

static void cke12_desc(const struct cke12_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cke12, cke12_cases, cke12_desc);

static void cke12_parse(struct kunit *test)
{
	const struct cke12_case *c = test->param_value;
	struct ktls_hs_vec point = {};
	const u8 *msg = hs12_exact_copy(test, c->msg, c->len);
	int ret;

	ret = ktls_hs12_parse_client_key_exchange(msg, c->len, &point);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	if (!c->ret) {
		KUNIT_EXPECT_EQ(test, point.len, c->point_len);
		KUNIT_EXPECT_PTR_EQ(test, point.data, msg + 5);
	}
}

static const u8 kb12_aes128[40] = {
	0xa1, 0xc8, 0xbd, 0xbc, 0xe8, 0x83, 0x00, 0x07, 0xe5, 0x71, 0x9b,
	0x5f, 0x97, 0x64, 0xae, 0x0c, 0x42, 0xc3, 0xa1, 0x03, 0xd0, 0x8d,
	0x01, 0xb7, 0x11, 0xb2, 0x92, 0xbf, 0xd1, 0xf3, 0x32, 0x47, 0x3e,
	0x56, 0x67, 0xef, 0x1f, 0x21, 0xed, 0x64
};

static const u8 kb12_aes256[72] = {
	0xc0, 0x1f, 0xa6, 0x17, 0x89, 0xf5, 0x80, 0x22, 0xd7, 0x22, 0x46,
	0x1a, 0xbc, 0xb5, 0xdf, 0x04, 0xcf, 0x98, 0x5a, 0x08, 0xf0, 0xd4,
	0x61, 0xab, 0x4d, 0x54, 0x4d, 0xb5, 0x98, 0xb8, 0x53, 0x19, 0x03,
	0xc0, 0x47, 0x23, 0x68, 0xc1, 0x1f, 0x67, 0x51, 0xef, 0xc2, 0xd8,
	0x1d, 0x6b, 0x89, 0x6d, 0x8d, 0xb6, 0xbe, 0x95, 0x53, 0x6a, 0xbb,
	0x42, 0xa6, 0x6b, 0x01, 0x52, 0x59, 0xcf, 0x72, 0x64, 0x09, 0x2e,
	0xd6, 0xc5, 0x20, 0x36, 0x94, 0x5c
};

static const u8 kb12_chacha[88] = {
	0xa1, 0xc8, 0xbd, 0xbc, 0xe8, 0x83, 0x00, 0x07, 0xe5, 0x71, 0x9b,
	0x5f, 0x97, 0x64, 0xae, 0x0c, 0x42, 0xc3, 0xa1, 0x03, 0xd0, 0x8d,
	0x01, 0xb7, 0x11, 0xb2, 0x92, 0xbf, 0xd1, 0xf3, 0x32, 0x47, 0x3e,
	0x56, 0x67, 0xef, 0x1f, 0x21, 0xed, 0x64, 0xb6, 0x16, 0xb5, 0x33,
	0x92, 0x9f, 0x8e, 0x73, 0x74, 0x06, 0x93, 0x8b, 0xba, 0xe4, 0xd1,
	0x38, 0x7d, 0xbb, 0x67, 0xa3, 0x2b, 0xbf, 0xd0, 0x3f, 0xe3, 0xf3,
	0xa5, 0xe6, 0x1a, 0x43, 0x4e, 0x9c, 0x07, 0xde, 0x3b, 0x04, 0x21,
	0x8a, 0xeb, 0x81, 0x1e, 0xbe, 0xce, 0xd2, 0xda, 0x38, 0xd5, 0x6b
};

static const u8 hs12_seq1[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };

static void hs12_derive(struct kunit *test, u16 suite,
			union ktls_crypto_info *tx, union ktls_crypto_info *rx)
{
	u8 master[KTLS_TLS12_MASTER_SIZE], cr[32], sr[32];
	const struct ktls_hs12_suite *s = ktls_hs12_suite_find(suite);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < sizeof(master); i++)
		master[i] = i;
	for (i = 0; i < 32; i++) {
		cr[i] = 0x40 + i;
		sr[i] = 0x80 + i;
	}
	KUNIT_ASSERT_EQ(test, ktls_hs12_record_keys(s, master, cr, sr, tx, rx),
			0);
	KUNIT_EXPECT_EQ(test, tx->info.version, TLS_1_2_VERSION);
	KUNIT_EXPECT_EQ(test, rx->info.version, TLS_1_2_VERSION);
	KUNIT_EXPECT_EQ(test, tx->info.cipher_type, s->cipher_type);
	KUNIT_EXPECT_EQ(test, rx->info.cipher_type, s->cipher_type);
}

/* Client write key and iv are the peer's (RX), server's are ours (TX). */
static void keys12_aes128(struct kunit *test)
{
	union ktls_crypto_info tx, rx;
	const u8 *kb = kb12_aes128;

	hs12_derive(test, 0xc02b, &tx, &rx);
	KUNIT_EXPECT_MEMEQ(test, rx.aes_gcm_128.key, kb, 16);
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_128.key, kb + 16, 16);
	KUNIT_EXPECT_MEMEQ(test, rx.aes_gcm_128.salt, kb + 32, 4);
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_128.salt, kb + 36, 4);
	/* The explicit nonce starts at the sequence number, after Finished. */
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_128.iv, hs12_seq1, 8);
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_128.rec_seq, hs12_seq1, 8);
	KUNIT_EXPECT_MEMEQ(test, rx.aes_gcm_128.rec_seq, hs12_seq1, 8);
}

static void keys12_aes256(struct kunit *test)
{
	union ktls_crypto_info tx, rx;
	const u8 *kb = kb12_aes256;

	hs12_derive(test, 0xc02c, &tx, &rx);
	KUNIT_EXPECT_MEMEQ(test, rx.aes_gcm_256.key, kb, 32);
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_256.key, kb + 32, 32);
	KUNIT_EXPECT_MEMEQ(test, rx.aes_gcm_256.salt, kb + 64, 4);
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_256.salt, kb + 68, 4);
	KUNIT_EXPECT_MEMEQ(test, tx.aes_gcm_256.iv, hs12_seq1, 8);
	KUNIT_EXPECT_MEMEQ(test, rx.aes_gcm_256.rec_seq, hs12_seq1, 8);
}

static void keys12_chacha(struct kunit *test)
{
	union ktls_crypto_info tx, rx;
	const u8 *kb = kb12_chacha;

	hs12_derive(test, 0xcca9, &tx, &rx);
	KUNIT_EXPECT_MEMEQ(test, rx.chacha20_poly1305.key, kb, 32);
	KUNIT_EXPECT_MEMEQ(test, tx.chacha20_poly1305.key, kb + 32, 32);
	KUNIT_EXPECT_MEMEQ(test, rx.chacha20_poly1305.iv, kb + 64, 12);
	KUNIT_EXPECT_MEMEQ(test, tx.chacha20_poly1305.iv, kb + 76, 12);
	KUNIT_EXPECT_MEMEQ(test, tx.chacha20_poly1305.rec_seq, hs12_seq1, 8);
	KUNIT_EXPECT_MEMEQ(test, rx.chacha20_poly1305.rec_seq, hs12_seq1, 8);
}

static void keys12_unknown_suite(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, ktls_hs12_suite_find(0x1301));
	KUNIT_EXPECT_NULL(test, ktls_hs12_suite_find(0xc023));	/* CBC */
	KUNIT_EXPECT_NULL(test, ktls_hs12_suite_find(0x009c));	/* RSA */
}

/* ------------------------------------------------------ session tickets */

struct tk12 {
	struct ktls_hs_config cfg;
	struct ktls_identity id, other;
	struct ktls_identity_cert cert, other_cert;
	u8 der[64], other_der[64];
	struct ktls_hs_client_hello ch;
	u8 suites[4];
	struct ktls_hs12_resumption r;
	u8 master[KTLS_TLS12_MASTER_SIZE];
	u8 ticket[KTLS_HS_TICKET_MAX_LEN];
	size_t ticket_len;
};

static void tk12_put_keys(void *keys)
{
	ktls_hs_ticket_keys_put(keys);
}

/* Only the leaf's bytes matter: a ticket is bound to their digest. */
static void tk12_identity(struct ktls_identity *id,
			  struct ktls_identity_cert *cert, u8 *der, u8 fill)
{
	memset(der, fill, 64);
	cert->der = der;
	cert->len = 64;
	id->certs = cert;
	id->nr_certs = 1;
}

static void tk12_hello(struct tk12 *t, bool ems, u16 suite)
{
	static const char sni[] = "www.example.test";
	struct ktls_hs_client_hello *ch = &t->ch;

	memset(ch, 0, sizeof(*ch));
	put_unaligned_be16(0xcca9, t->suites);
	put_unaligned_be16(suite, t->suites + 2);
	ch->suites.data = t->suites;
	ch->suites.len = sizeof(t->suites);
	ch->server_name.data = (const u8 *)sni;
	ch->server_name.len = sizeof(sni) - 1;
	ch->session_ticket.data = t->ticket;
	ch->session_ticket.len = t->ticket_len;
	ch->exts = BIT(KTLS_EXTB_SERVER_NAME) | BIT(KTLS_EXTB_SESSION_TICKET);
	if (ems)
		ch->exts |= BIT(KTLS_EXTB_EXTENDED_MASTER_SECRET);
}

/* A NewSessionTicket of a session with @ems, its ticket kept. */
static struct tk12 *tk12_session(struct kunit *test, bool ems)
{
	struct tk12 *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u8 nst[KTLS_HS_TICKET_MAX_LEN + 16];
	struct ktls_hs_buf b = { nst, 0, sizeof(nst) };
	struct ktls_hs_ticket_keys *k;

	KUNIT_ASSERT_NOT_NULL(test, t);
	k = ktls_hs_ticket_keys_get(&init_net, GLOBAL_ROOT_UID, 0, 60);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tk12_put_keys, k),
			0);
	t->cfg.tickets = k;
	t->cfg.ticket_lifetime = 600;
	t->cfg.suites = KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 |
			KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256;
	tk12_identity(&t->id, &t->cert, t->der, 0x11);
	tk12_identity(&t->other, &t->other_cert, t->other_der, 0x22);
	get_random_bytes(t->master, sizeof(t->master));

	KUNIT_ASSERT_EQ(test, ktls_hs12_ticket_new(&t->cfg, 0xc02b, t->master,
						   ems, &t->id,
						   "www.example.test", NULL, &b),
			0);
	KUNIT_ASSERT_GT(test, b.len, 10);
	KUNIT_EXPECT_EQ(test, b.data[0], KTLS_HS_NEW_SESSION_TICKET);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b.data + 4), 600);
	t->ticket_len = get_unaligned_be16(b.data + 8);
	KUNIT_ASSERT_EQ(test, t->ticket_len + 10, b.len);
	memcpy(t->ticket, b.data + 10, t->ticket_len);
	return t;
}

static int tk12_select(struct tk12 *t, const struct ktls_identity *id)
{
	return ktls_hs12_ticket_select(&t->cfg, &t->ch, id, NULL, &t->r);
}

/* The session, with its master secret and suite. */
static void ticket12_resumes(struct kunit *test)
{
	struct tk12 *t = tk12_session(test, true);

	tk12_hello(t, true, 0xc02b);
	KUNIT_ASSERT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_ASSERT_NOT_NULL(test, t->r.suite);
	KUNIT_EXPECT_EQ(test, t->r.suite->id, 0xc02b);
	KUNIT_EXPECT_MEMEQ(test, t->r.master, t->master, sizeof(t->master));
}

/* Whatever does not match is not resumed, and no alert is sent. */
static void ticket12_full_handshake(struct kunit *test)
{
	struct tk12 *t = tk12_session(test, true);

	tk12_hello(t, true, 0xc02b);
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->other), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);

	/* The session's suite no longer offered, or no longer allowed. */
	tk12_hello(t, true, 0xc02c);
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
	tk12_hello(t, true, 0xc02b);
	t->cfg.suites &= ~KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
	t->cfg.suites |= KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;

	/* Another name, none, an altered ticket, an empty one. */
	tk12_hello(t, true, 0xc02b);
	t->ch.server_name.len--;
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
	tk12_hello(t, true, 0xc02b);
	t->ch.exts &= ~BIT(KTLS_EXTB_SERVER_NAME);
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
	tk12_hello(t, true, 0xc02b);
	t->ticket[t->ticket_len - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
	t->ticket[t->ticket_len - 1] ^= 1;
	t->ch.session_ticket.len = 0;
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);

	/* Tickets off on the listener. */
	tk12_hello(t, true, 0xc02b);
	t->cfg.tickets = NULL;
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
}

/* RFC 7627 5.3, each of its four cases. */
static void ticket12_ems(struct kunit *test)
{
	struct tk12 *t = tk12_session(test, true);

	tk12_hello(t, false, 0xc02b);
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id),
			KTLS_ALERT_HANDSHAKE_FAILURE);
	KUNIT_EXPECT_NULL(test, t->r.suite);

	t = tk12_session(test, false);
	tk12_hello(t, true, 0xc02b);
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id), 0);
	KUNIT_EXPECT_NULL(test, t->r.suite);
	tk12_hello(t, false, 0xc02b);
	KUNIT_EXPECT_EQ(test, tk12_select(t, &t->id),
			KTLS_ALERT_HANDSHAKE_FAILURE);
	KUNIT_EXPECT_NULL(test, t->r.suite);
}

static struct kunit_case hs12_cases[] = {
	KUNIT_CASE(sh12_all_extensions),
	KUNIT_CASE(sh12_no_extensions),
	KUNIT_CASE(sh12_bad_alpn),
	KUNIT_CASE(sh12_resumed),
	KUNIT_CASE(sh12_record_size_limit),
	KUNIT_CASE(nst12_layout),
	KUNIT_CASE(cert12_layout),
	KUNIT_CASE(ske12_layout),
	KUNIT_CASE(shd12_layout),
	KUNIT_CASE_PARAM(cke12_parse, cke12_gen_params),
	KUNIT_CASE(keys12_aes128),
	KUNIT_CASE(keys12_aes256),
	KUNIT_CASE(keys12_chacha),
	KUNIT_CASE(keys12_unknown_suite),
	KUNIT_CASE(ticket12_resumes),
	KUNIT_CASE(ticket12_full_handshake),
	KUNIT_CASE(ticket12_ems),
	{}
};

static struct kunit_suite hs12_suite = {
	.name = "ktls_hs_tls12",
	.test_cases = hs12_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(hs12_suite);
