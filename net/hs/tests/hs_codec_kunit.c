// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the handshake message codecs (net/hs/): the ClientHello
 * parser against real ClientHellos (RFC 8448 and OpenSSL 3.0, see
 * hs_codec_vectors.h) and against hostile ones, each of which must get
 * the alert its RFC names; the server's messages rebuilt byte for byte
 * from the fields of RFC 8448's traces, in buffers too small for them
 * too; the Finished parser.
 *
 * Every message under test sits in a buffer allocated to its exact
 * length, so that on a KASAN kernel a read one byte past the end is
 * reported, not silently tolerated; the truncation tests rely on it.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "../codec.h"
#include "hs_codec_vectors.h"

#define DECODE		KTLS_ALERT_DECODE_ERROR
#define ILLEGAL		KTLS_ALERT_ILLEGAL_PARAMETER

/* A copy of @len bytes in an allocation of exactly that size. */
static u8 *hs_exact_copy(struct kunit *test, const u8 *src, size_t len)
{
	u8 *p = kunit_kmalloc(test, len ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memcpy(p, src, len);
	return p;
}

static int hs_parse_copy(struct kunit *test, const u8 *msg, size_t len,
			 struct ktls_hs_client_hello *ch)
{
	return ktls_hs_parse_client_hello(hs_exact_copy(test, msg, len), len,
					  ch);
}

static bool hs_vec_is(const struct ktls_hs_vec *v, const void *want,
		      size_t len)
{
	return v->len == len && !memcmp(v->data, want, len);
}

static void ch_rfc8448_simple(struct kunit *test)
{
	static const u8 share[4] = { 0x99, 0x38, 0x1d, 0xe5 };
	struct ktls_hs_client_hello ch;
	struct ktls_hs_vec ks;
	const u8 *msg;

	msg = hs_exact_copy(test, rfc8448_client_hello, sizeof(rfc8448_client_hello));
	KUNIT_ASSERT_EQ(test, ktls_hs_parse_client_hello(msg,
							 sizeof(rfc8448_client_hello),
							 &ch), 0);

	KUNIT_EXPECT_EQ(test, ch.legacy_version, KTLS_VERSION_TLS12);
	KUNIT_EXPECT_PTR_EQ(test, ch.random, msg + 6);
	KUNIT_EXPECT_EQ(test, ch.session_id.len, 0);
	KUNIT_EXPECT_EQ(test, ch.suites.len, 6);
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u16(&ch.suites,
						    KTLS_SUITE_AES_256_GCM_SHA384));
	KUNIT_EXPECT_FALSE(test, ch.scsv_reneg);
	KUNIT_EXPECT_FALSE(test, ch.scsv_fallback);
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&ch.compression, "", 1));

	KUNIT_EXPECT_EQ(test, ch.exts,
			BIT(KTLS_EXTB_SERVER_NAME) |
			BIT(KTLS_EXTB_RENEGOTIATION_INFO) |
			BIT(KTLS_EXTB_SUPPORTED_GROUPS) |
			BIT(KTLS_EXTB_SESSION_TICKET) |
			BIT(KTLS_EXTB_KEY_SHARE) |
			BIT(KTLS_EXTB_SUPPORTED_VERSIONS) |
			BIT(KTLS_EXTB_SIGNATURE_ALGORITHMS) |
			BIT(KTLS_EXTB_PSK_KEY_EXCHANGE_MODES) |
			BIT(KTLS_EXTB_RECORD_SIZE_LIMIT));
	/* The trace's client takes records of up to 2^14 + 1 (RFC 8449). */
	KUNIT_EXPECT_EQ(test, ch.record_size_limit, 0x4001);
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&ch.server_name, "server", 6));
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&ch.renegotiation_info, "", 1));
	KUNIT_EXPECT_EQ(test, ch.session_ticket.len, 0);
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&ch.versions, "\x03\x04", 2));
	KUNIT_EXPECT_EQ(test, ch.groups.len, 18);
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u16(&ch.groups,
						    KTLS_GROUP_SECP256R1));
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u16(&ch.groups, 0x001e));
	KUNIT_EXPECT_EQ(test, ch.sig_algs.len, 30);
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u16(&ch.sig_algs,
						    KTLS_SIG_ECDSA_SECP256R1_SHA256));
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u8(&ch.psk_modes,
						   KTLS_PSK_DHE_KE));
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u8(&ch.psk_modes,
						    KTLS_PSK_KE));

	KUNIT_ASSERT_TRUE(test, ktls_hs_ch_key_share(&ch, KTLS_GROUP_X25519,
						     &ks));
	KUNIT_EXPECT_EQ(test, ks.len, KTLS_X25519_KEY_LEN);
	KUNIT_EXPECT_MEMEQ(test, ks.data, share, sizeof(share));
	KUNIT_EXPECT_PTR_EQ(test, ks.data, msg + 109);
	KUNIT_EXPECT_FALSE(test, ktls_hs_ch_key_share(&ch, KTLS_GROUP_SECP256R1,
						      &ks));
}

static void ch_rfc8448_resumed(struct kunit *test)
{
	struct ktls_hs_client_hello ch;

	KUNIT_ASSERT_EQ(test, hs_parse_copy(test, rfc8448_res_ch,
					    sizeof(rfc8448_res_ch), &ch), 0);
	KUNIT_EXPECT_TRUE(test, ktls_hs_ch_has(&ch, KTLS_EXTB_PRE_SHARED_KEY));
	KUNIT_EXPECT_TRUE(test, ktls_hs_ch_has(&ch, KTLS_EXTB_EARLY_DATA));
	KUNIT_EXPECT_FALSE(test, ktls_hs_ch_has(&ch, KTLS_EXTB_SESSION_TICKET));
	/* The trace's partial ClientHello is 477 octets long. */
	KUNIT_EXPECT_EQ(test, ch.binders_offset, 477);
	/* One identity: a 178-byte ticket and its age. */
	KUNIT_EXPECT_EQ(test, ch.psk_identities.len, 2 + 178 + 4);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(ch.psk_identities.data), 178);
	KUNIT_EXPECT_EQ(test, ch.psk_binders.len, 1 + 32);
	KUNIT_EXPECT_EQ(test, ch.psk_binders.data[0], 32);
	KUNIT_EXPECT_EQ(test, ch.psk_binders.data[1], 0x3a);
}

static void ch_openssl(struct kunit *test)
{
	static const u8 h2[] = { 2, 'h', '2' };
	static const u8 prefs[] = { 8, 'h', 't', 't', 'p', '/', '1', '.', '1',
				    3, 'f', 'o', 'o', 2, 'h', '2' };
	static const u8 none[] = { 3, 'f', 'o', 'o', 3, 's', 'p', 'd' };
	struct ktls_hs_vec ours, chosen, ks;
	struct ktls_hs_client_hello ch;

	KUNIT_ASSERT_EQ(test, hs_parse_copy(test, openssl_ch,
					    sizeof(openssl_ch), &ch), 0);
	KUNIT_EXPECT_EQ(test, ch.session_id.len, KTLS_HS_SESSION_ID_MAX);
	KUNIT_EXPECT_EQ(test, ch.suites.len, 62);
	KUNIT_EXPECT_TRUE(test, ch.scsv_reneg);
	KUNIT_EXPECT_FALSE(test, ch.scsv_fallback);
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&ch.server_name, "ktls.example", 12));
	KUNIT_EXPECT_TRUE(test, ktls_hs_ch_has(&ch, KTLS_EXTB_EC_POINT_FORMATS));
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u8(&ch.ec_point_formats, 0));
	KUNIT_EXPECT_TRUE(test,
			  ktls_hs_ch_has(&ch, KTLS_EXTB_EXTENDED_MASTER_SECRET));
	KUNIT_EXPECT_FALSE(test,
			   ktls_hs_ch_has(&ch, KTLS_EXTB_RENEGOTIATION_INFO));
	KUNIT_EXPECT_EQ(test, ch.versions.len, 8);
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u16(&ch.versions,
						    KTLS_VERSION_TLS13));
	KUNIT_EXPECT_TRUE(test, ktls_hs_ch_key_share(&ch, KTLS_GROUP_X25519,
						     &ks));
	KUNIT_EXPECT_EQ(test, ks.len, KTLS_X25519_KEY_LEN);

	/* Server preference decides: http/1.1 before h2. */
	ours.data = prefs;
	ours.len = sizeof(prefs);
	KUNIT_ASSERT_TRUE(test, ktls_hs_alpn_select(&ch, &ours, &chosen));
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&chosen, "http/1.1", 8));
	KUNIT_EXPECT_PTR_EQ(test, chosen.data, prefs + 1);

	ours.data = prefs + 9;
	ours.len = sizeof(prefs) - 9;
	KUNIT_ASSERT_TRUE(test, ktls_hs_alpn_select(&ch, &ours, &chosen));
	KUNIT_EXPECT_TRUE(test, hs_vec_is(&chosen, "h2", 2));

	ours.data = h2;
	ours.len = sizeof(h2) - 1;	/* a name cut short never matches */
	KUNIT_EXPECT_FALSE(test, ktls_hs_alpn_select(&ch, &ours, &chosen));

	ours.data = none;
	ours.len = sizeof(none);
	KUNIT_EXPECT_FALSE(test, ktls_hs_alpn_select(&ch, &ours, &chosen));
}

/* A client that sent no ALPN has nothing to select from. */
static void ch_alpn_absent(struct kunit *test)
{
	static const u8 ours[] = { 2, 'h', '2' };
	struct ktls_hs_vec o = { .data = ours, .len = sizeof(ours) }, chosen;
	struct ktls_hs_client_hello ch;

	KUNIT_ASSERT_EQ(test, hs_parse_copy(test, rfc8448_client_hello,
					    sizeof(rfc8448_client_hello), &ch), 0);
	KUNIT_EXPECT_FALSE(test, ktls_hs_alpn_select(&ch, &o, &chosen));
}

struct ch_msg {
	const char *name;
	const u8 *msg;
	size_t len;
};

static const struct ch_msg ch_valid[] = {
	{ "rfc8448", rfc8448_client_hello, sizeof(rfc8448_client_hello) },
	{ "rfc8448-resumed", rfc8448_res_ch, sizeof(rfc8448_res_ch) },
	{ "openssl", openssl_ch, sizeof(openssl_ch) },
};

static void ch_valid_desc(const struct ch_msg *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ch_valid, ch_valid, ch_valid_desc);

/*
 * Where a prefix of a valid ClientHello is itself well formed once its
 * enclosing lengths are patched to end there: after the compression
 * methods (a TLS 1.2 hello without extensions), after an empty extension
 * block, and after each whole extension.
 */
struct ch_layout {
	size_t ext_block;	/* offset of the extensions' 2-byte length */
	size_t ext_end[32];	/* end of each extension */
	unsigned int nr;
};

static void ch_layout_of(struct kunit *test, const u8 *msg, size_t len,
			 struct ch_layout *l)
{
	size_t p = KTLS_HS_MSG_HDR_LEN + 2 + KTLS_HS_RANDOM_LEN;

	p += 1 + msg[p];
	p += 2 + get_unaligned_be16(msg + p);
	p += 1 + msg[p];
	l->ext_block = p;
	p += 2;
	l->nr = 0;
	while (p < len) {
		KUNIT_ASSERT_LT(test, l->nr, ARRAY_SIZE(l->ext_end));
		p += 4 + get_unaligned_be16(msg + p + 2);
		l->ext_end[l->nr++] = p;
	}
	KUNIT_ASSERT_EQ(test, p, len);
}

static bool ch_layout_boundary(const struct ch_layout *l, size_t cut)
{
	unsigned int i;

	if (cut == l->ext_block || cut == l->ext_block + 2)
		return true;
	for (i = 0; i < l->nr; i++)
		if (cut == l->ext_end[i])
			return true;
	return false;
}

enum ch_cut_mode {
	CUT_ONLY,		/* header still claims the whole message */
	CUT_FIX_HEADER,		/* header says where the cut is */
	CUT_FIX_EXTENSIONS,	/* and so does the extension block length */
};

static int ch_parse_cut(const u8 *msg, size_t cut, enum ch_cut_mode mode,
			const struct ch_layout *l)
{
	struct ktls_hs_client_hello ch;
	u8 *buf;
	int ret;

	/* Exactly @cut bytes: KASAN reports any read past them. */
	buf = kmalloc(cut, GFP_KERNEL);
	if (!buf && cut)
		return -ENOMEM;
	memcpy(buf, msg, cut);
	if (mode != CUT_ONLY && cut >= KTLS_HS_MSG_HDR_LEN)
		put_unaligned_be24(cut - KTLS_HS_MSG_HDR_LEN, buf + 1);
	if (mode == CUT_FIX_EXTENSIONS && cut >= l->ext_block + 2)
		put_unaligned_be16(cut - l->ext_block - 2, buf + l->ext_block);
	ret = ktls_hs_parse_client_hello(buf, cut, &ch);
	kfree(buf);
	return ret;
}

static void ch_truncated(struct kunit *test, enum ch_cut_mode mode)
{
	const struct ch_msg *v = test->param_value;
	struct ch_layout l;
	unsigned int bad = 0;
	size_t cut;

	ch_layout_of(test, v->msg, v->len, &l);
	for (cut = 0; cut < v->len; cut++) {
		int want = DECODE, got;

		if (mode == CUT_FIX_HEADER && cut == l.ext_block)
			want = 0;
		if (mode == CUT_FIX_EXTENSIONS && ch_layout_boundary(&l, cut))
			want = 0;
		got = ch_parse_cut(v->msg, cut, mode, &l);
		KUNIT_ASSERT_NE(test, got, -ENOMEM);
		if (got != want && bad++ < 8)
			KUNIT_FAIL(test, "cut at %zu of %zu: got %d, want %d",
				   cut, v->len, got, want);
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/* Every proper prefix, as a short read would deliver it. */
static void ch_truncated_plain(struct kunit *test)
{
	ch_truncated(test, CUT_ONLY);
}

/* Every prefix, its message length patched to match. */
static void ch_truncated_header(struct kunit *test)
{
	ch_truncated(test, CUT_FIX_HEADER);
}

/* Every prefix, message and extension block lengths patched. */
static void ch_truncated_extensions(struct kunit *test)
{
	ch_truncated(test, CUT_FIX_EXTENSIONS);
}

/* A byte appended to a valid ClientHello, with lengths patched to hold it. */
static void ch_appended_byte(struct kunit *test)
{
	const struct ch_msg *v = test->param_value;
	struct ktls_hs_client_hello ch;
	struct ch_layout l;
	u8 *buf;

	ch_layout_of(test, v->msg, v->len, &l);
	buf = kunit_kmalloc(test, v->len + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, v->msg, v->len);
	buf[v->len] = 0;

	/* Past the message's own length. */
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_client_hello(buf, v->len + 1, &ch),
			DECODE);
	/* Trailing garbage after the extension block. */
	put_unaligned_be24(v->len + 1 - KTLS_HS_MSG_HDR_LEN, buf + 1);
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_client_hello(buf, v->len + 1, &ch),
			DECODE);
	/* Inside the block, too short to be an extension. */
	put_unaligned_be16(v->len + 1 - l.ext_block - 2, buf + l.ext_block);
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_client_hello(buf, v->len + 1, &ch),
			DECODE);
	/* Lengths that claim the byte, without it. */
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_client_hello(buf, v->len, &ch),
			DECODE);
	/* Lengths restored: valid again. */
	put_unaligned_be24(v->len - KTLS_HS_MSG_HDR_LEN, buf + 1);
	put_unaligned_be16(v->len - l.ext_block - 2, buf + l.ext_block);
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_client_hello(buf, v->len, &ch), 0);
}

/*
 * Hostile ClientHellos, built from a row: the fields between random and
 * extensions (defaults: empty session id, one suite, null compression),
 * the contents of the extension block, and bytes after it.
 */
struct hs_bytes {
	const u8 *p;
	size_t n;
};

#define HS_BYTES(...) \
	{ (const u8[]){ __VA_ARGS__ }, sizeof((const u8[]){ __VA_ARGS__ }) }
#define HS_ARRAY(a)	{ a, sizeof(a) }

struct ch_row {
	const char *name;
	unsigned int sid_len;
	struct hs_bytes suites;		/* whole vector, prefix included */
	struct hs_bytes comp;		/* whole vector, prefix included */
	struct hs_bytes exts[3];	/* the extension block, in parts */
	struct hs_bytes tail;		/* after the extension block */
	bool no_exts;			/* no extension block at all */
	u8 type;			/* message type if not ClientHello */
	int alert;
};

/* A PSK binder of 32 bytes, its length first. */
static const u8 binder32[33] = {
	0x20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
	19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
};

/* pre_shared_key: one identity "t" aged 0, one binder. */
static const u8 psk_ok[48] = {
	0x00, 0x29, 0x00, 0x2c, 0x00, 0x07, 0x00, 0x01, 't', 0, 0, 0, 0,
	0x00, 0x21, 0x20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
};

static const struct ch_row ch_rows[] = {
	/* Fixed fields */
	{ "minimal, no extensions", .no_exts = true },
	{ "empty extension block" },
	{ "not a ClientHello", .type = KTLS_HS_SERVER_HELLO,
	  .alert = KTLS_ALERT_UNEXPECTED_MESSAGE },
	{ "session id of 32", .sid_len = 32 },
	{ "session id of 33", .sid_len = 33, .alert = DECODE },
	{ "session id of 255", .sid_len = 255, .alert = DECODE },
	{ "suites of odd length", .suites = HS_BYTES(0x00, 0x03, 0x13, 0x01, 0x13),
	  .alert = DECODE },
	{ "no suites", .suites = HS_BYTES(0x00, 0x00), .alert = DECODE },
	{ "suites past the end", .suites = HS_BYTES(0x7f, 0xff, 0x13, 0x01),
	  .alert = DECODE },
	{ "no compression methods", .comp = HS_BYTES(0x00), .alert = DECODE },
	{ "no null compression", .comp = HS_BYTES(0x01, 0x01),
	  .alert = ILLEGAL },
	{ "null among others (1.2)", .comp = HS_BYTES(0x02, 0x01, 0x00) },
	{ "compression past the end", .comp = HS_BYTES(0xff, 0x00),
	  .alert = DECODE },
	{ "garbage after the extensions", .tail = HS_BYTES(0x00),
	  .alert = DECODE },
	{ "an extension after the block",
	  .exts = { HS_BYTES(0x00, 0x17, 0x00, 0x00) },
	  .tail = HS_BYTES(0x00, 0x17, 0x00, 0x00), .alert = DECODE },
	{ "one byte where extensions go", .no_exts = true,
	  .tail = HS_BYTES(0x00), .alert = DECODE },

	/* The extension list itself */
	{ "extension header cut", .exts = { HS_BYTES(0x00, 0x2b, 0x00) },
	  .alert = DECODE },
	{ "extension length past the end",
	  .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x05, 0x02, 0x03, 0x04) },
	  .alert = DECODE },
	{ "unknown extension skipped",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x40, 0x01, 0xfe, 0xfe,
			   0x00, 0x00) } },
	{ "duplicate known extension",
	  .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04,
			   0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04) },
	  .alert = ILLEGAL },
	{ "duplicate empty extension",
	  .exts = { HS_BYTES(0x00, 0x17, 0x00, 0x00, 0x00, 0x17, 0x00, 0x00) },
	  .alert = ILLEGAL },
	{ "duplicate unknown extension",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x40, 0x01,
			   0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04,
			   0x00, 0x1c, 0x00, 0x02, 0x40, 0x01) },
	  .alert = ILLEGAL },

	/* supported_versions, RFC 8446 4.2.1 */
	{ "versions empty", .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x01, 0x00) },
	  .alert = DECODE },
	{ "versions of odd length",
	  .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x04, 0x03, 0x03, 0x04, 0x03) },
	  .alert = DECODE },
	{ "versions shorter than the extension",
	  .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x04, 0x02, 0x03, 0x04, 0x00) },
	  .alert = DECODE },
	{ "versions longer than the extension",
	  .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x03, 0x04, 0x03, 0x04,
			   0x00, 0x17, 0x00, 0x00) },
	  .alert = DECODE },
	{ "extension with no data",
	  .exts = { HS_BYTES(0x00, 0x2b, 0x00, 0x00) }, .alert = DECODE },

	/* supported_groups, signature_algorithms(_cert) */
	{ "groups empty", .exts = { HS_BYTES(0x00, 0x0a, 0x00, 0x02, 0x00, 0x00) },
	  .alert = DECODE },
	{ "groups of odd length",
	  .exts = { HS_BYTES(0x00, 0x0a, 0x00, 0x05, 0x00, 0x03, 0x00, 0x1d,
			   0x00) },
	  .alert = DECODE },
	{ "sig_algs empty",
	  .exts = { HS_BYTES(0x00, 0x0d, 0x00, 0x02, 0x00, 0x00) },
	  .alert = DECODE },
	{ "sig_algs of odd length",
	  .exts = { HS_BYTES(0x00, 0x0d, 0x00, 0x03, 0x00, 0x01, 0x04) },
	  .alert = DECODE },
	{ "sig_algs_cert of odd length",
	  .exts = { HS_BYTES(0x00, 0x32, 0x00, 0x05, 0x00, 0x03, 0x04, 0x03,
			   0x05) },
	  .alert = DECODE },
	{ "sig_algs_cert",
	  .exts = { HS_BYTES(0x00, 0x32, 0x00, 0x04, 0x00, 0x02, 0x04, 0x03) } },

	/* key_share, RFC 8446 4.2.8 */
	{ "key_share", .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x07, 0x00, 0x05,
					  0x00, 0x1d, 0x00, 0x01, 0xaa) } },
	{ "key_share empty (asks for HRR)",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x02, 0x00, 0x00) } },
	{ "key_share with no list",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x00) }, .alert = DECODE },
	/* Both are the negotiation's to judge, for the groups it uses. */
	{ "key_share of zero length",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x06, 0x00, 0x04, 0x00, 0x17,
			   0x00, 0x00) } },
	{ "key_share group twice",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x0c, 0x00, 0x0a, 0x00, 0x1d,
			     0x00, 0x01, 0xaa, 0x00, 0x1d, 0x00, 0x01, 0xbb) } },
	{ "key_share entry cut",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x05, 0x00, 0x03, 0x00, 0x1d,
			   0x00) },
	  .alert = DECODE },
	{ "key_share past its list",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x08, 0x00, 0x06, 0x00, 0x1d,
			   0x00, 0x03, 0x01, 0x02) },
	  .alert = DECODE },
	{ "key_share list short of the extension",
	  .exts = { HS_BYTES(0x00, 0x33, 0x00, 0x08, 0x00, 0x05, 0x00, 0x1d,
			     0x00, 0x01, 0xaa, 0x00) },
	  .alert = DECODE },

	/* server_name, RFC 6066 3 */
	{ "SNI", .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x06, 0x00, 0x04, 0x00,
				  0x00, 0x01, 'a') } },
	{ "SNI list empty", .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x02, 0x00, 0x00) },
	  .alert = DECODE },
	{ "SNI with no list", .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x00) },
	  .alert = DECODE },
	{ "SNI name empty",
	  .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x05, 0x00, 0x03, 0x00, 0x00,
			   0x00) },
	  .alert = DECODE },
	{ "SNI of another type",
	  .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x06, 0x00, 0x04, 0x01, 0x00,
			   0x01, 'a') },
	  .alert = DECODE },
	{ "SNI with two host names",
	  .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x0a, 0x00, 0x08, 0x00, 0x00,
			   0x01, 'a', 0x00, 0x00, 0x01, 'b') },
	  .alert = ILLEGAL },
	{ "SNI with a NUL",
	  .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x08, 0x00, 0x06, 0x00, 0x00,
			   0x03, 'a', 0x00, 'b') },
	  .alert = ILLEGAL },
	{ "SNI name past its list",
	  .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x06, 0x00, 0x04, 0x00, 0x00,
			   0x02, 'a') },
	  .alert = DECODE },
	{ "SNI list short of the extension",
	  .exts = { HS_BYTES(0x00, 0x00, 0x00, 0x07, 0x00, 0x04, 0x00, 0x00,
			   0x01, 'a', 'b') },
	  .alert = DECODE },

	/* ALPN, RFC 7301 3.1 */
	{ "ALPN", .exts = { HS_BYTES(0x00, 0x10, 0x00, 0x05, 0x00, 0x03, 0x02,
				   'h', '2') } },
	{ "ALPN empty name",
	  .exts = { HS_BYTES(0x00, 0x10, 0x00, 0x06, 0x00, 0x04, 0x02, 'h',
			   '2', 0x00) },
	  .alert = DECODE },
	{ "ALPN list empty", .exts = { HS_BYTES(0x00, 0x10, 0x00, 0x02, 0x00, 0x00) },
	  .alert = DECODE },
	{ "ALPN name past its list",
	  .exts = { HS_BYTES(0x00, 0x10, 0x00, 0x05, 0x00, 0x03, 0x03, 'h',
			   '2') },
	  .alert = DECODE },

	/* Lists of one-byte entries */
	{ "psk_modes empty", .exts = { HS_BYTES(0x00, 0x2d, 0x00, 0x01, 0x00) },
	  .alert = DECODE },
	{ "ec_point_formats empty",
	  .exts = { HS_BYTES(0x00, 0x0b, 0x00, 0x01, 0x00) }, .alert = DECODE },
	{ "cookie empty", .exts = { HS_BYTES(0x00, 0x2c, 0x00, 0x02, 0x00, 0x00) },
	  .alert = DECODE },
	{ "cookie", .exts = { HS_BYTES(0x00, 0x2c, 0x00, 0x03, 0x00, 0x01, 0x55) } },

	/* Extensions that are empty in a ClientHello */
	{ "extended_master_secret with data",
	  .exts = { HS_BYTES(0x00, 0x17, 0x00, 0x01, 0x00) }, .alert = DECODE },
	{ "early_data with data",
	  .exts = { HS_BYTES(0x00, 0x2a, 0x00, 0x01, 0x00) }, .alert = DECODE },
	{ "session_ticket with a ticket",
	  .exts = { HS_BYTES(0x00, 0x23, 0x00, 0x03, 0x01, 0x02, 0x03) } },

	/* renegotiation_info, RFC 5746 3.2 */
	{ "renegotiation_info not empty (shape only)",
	  .exts = { HS_BYTES(0xff, 0x01, 0x00, 0x02, 0x01, 0x00) } },
	{ "renegotiation_info with no vector",
	  .exts = { HS_BYTES(0xff, 0x01, 0x00, 0x00) }, .alert = DECODE },
	{ "renegotiation_info past its extension",
	  .exts = { HS_BYTES(0xff, 0x01, 0x00, 0x01, 0x01) }, .alert = DECODE },

	/* record_size_limit, RFC 8449 4 */
	{ "record_size_limit 64",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x00, 0x40) } },
	{ "record_size_limit 65535 (taken, capped later)",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0xff, 0xff) } },
	{ "record_size_limit 63",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x00, 0x3f) },
	  .alert = ILLEGAL },
	{ "record_size_limit 0",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x00, 0x00) },
	  .alert = ILLEGAL },
	{ "record_size_limit of one byte",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x01, 0x40) }, .alert = DECODE },
	{ "record_size_limit of three bytes",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x03, 0x00, 0x40, 0x00) },
	  .alert = DECODE },
	{ "record_size_limit empty",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x00) }, .alert = DECODE },
	{ "record_size_limit twice",
	  .exts = { HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x01, 0x00),
		    HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x01, 0x00) },
	  .alert = ILLEGAL },
	/* RFC 8449 5: max_fragment_length beside it is ignored, not refused. */
	{ "max_fragment_length and record_size_limit",
	  .exts = { HS_BYTES(0x00, 0x01, 0x00, 0x01, 0x01),
		    HS_BYTES(0x00, 0x1c, 0x00, 0x02, 0x01, 0x00) } },

	/* pre_shared_key, RFC 8446 4.2.11 */
	{ "psk last",
	  .exts = { HS_BYTES(0x00, 0x2a, 0x00, 0x00), HS_ARRAY(psk_ok) } },
	{ "psk not last",
	  .exts = { HS_ARRAY(psk_ok), HS_BYTES(0x00, 0x2a, 0x00, 0x00) },
	  .alert = ILLEGAL },
	{ "psk followed by an unknown extension",
	  .exts = { HS_ARRAY(psk_ok), HS_BYTES(0xfa, 0xfa, 0x00, 0x00) },
	  .alert = ILLEGAL },
	{ "psk twice",
	  .exts = { HS_ARRAY(psk_ok), HS_ARRAY(psk_ok) }, .alert = ILLEGAL },
	{ "psk with no identities",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x25, 0x00, 0x00, 0x00, 0x21),
		    HS_ARRAY(binder32) },
	  .alert = DECODE },
	{ "psk identity empty",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x2b, 0x00, 0x06, 0x00, 0x00,
			     0, 0, 0, 0, 0x00, 0x21),
		    HS_ARRAY(binder32) },
	  .alert = DECODE },
	{ "psk identity without its age",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x28, 0x00, 0x03, 0x00, 0x01,
			     't', 0x00, 0x21),
		    HS_ARRAY(binder32) },
	  .alert = DECODE },
	{ "psk with no binders",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x0b, 0x00, 0x07, 0x00, 0x01,
			     't', 0, 0, 0, 0, 0x00, 0x00) },
	  .alert = DECODE },
	{ "psk binder of 31 bytes",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x2b, 0x00, 0x07, 0x00, 0x01,
			     't', 0, 0, 0, 0, 0x00, 0x20, 0x1f),
		    { binder32 + 1, 31 } },
	  .alert = DECODE },
	{ "psk with two binders for one identity",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x4d, 0x00, 0x07, 0x00, 0x01,
			     't', 0, 0, 0, 0, 0x00, 0x42),
		    HS_ARRAY(binder32), HS_ARRAY(binder32) },
	  .alert = ILLEGAL },
	{ "psk with a byte after the binders",
	  .exts = { HS_BYTES(0x00, 0x29, 0x00, 0x2d, 0x00, 0x07, 0x00, 0x01,
			     't', 0, 0, 0, 0, 0x00, 0x21),
		    HS_ARRAY(binder32), HS_BYTES(0x00) },
	  .alert = DECODE },
};

static void ch_row_desc(const struct ch_row *row, char *desc)
{
	strscpy(desc, row->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ch_row, ch_rows, ch_row_desc);

static const u8 ch_default_suites[] = { 0x00, 0x02, 0x13, 0x01 };
static const u8 ch_default_comp[] = { 0x01, 0x00 };

/* The ClientHello a row describes, in a buffer of exactly its size. */
static u8 *ch_row_build(struct kunit *test, const struct ch_row *row,
			size_t *len)
{
	struct hs_bytes suites = row->suites, comp = row->comp;
	size_t body, exts = 0, p;
	unsigned int i;
	u8 *msg;

	if (!suites.p) {
		suites.p = ch_default_suites;
		suites.n = sizeof(ch_default_suites);
	}
	if (!comp.p) {
		comp.p = ch_default_comp;
		comp.n = sizeof(ch_default_comp);
	}
	for (i = 0; i < ARRAY_SIZE(row->exts); i++)
		exts += row->exts[i].n;
	body = 2 + KTLS_HS_RANDOM_LEN + 1 + row->sid_len + suites.n + comp.n +
	       (row->no_exts ? 0 : 2 + exts) + row->tail.n;
	*len = KTLS_HS_MSG_HDR_LEN + body;
	msg = kunit_kzalloc(test, *len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);

	msg[0] = row->type ?: KTLS_HS_CLIENT_HELLO;
	put_unaligned_be24(body, msg + 1);
	put_unaligned_be16(KTLS_VERSION_TLS12, msg + 4);
	memset(msg + 6, 0xaa, KTLS_HS_RANDOM_LEN);
	p = 6 + KTLS_HS_RANDOM_LEN;
	msg[p] = row->sid_len;
	p += 1 + row->sid_len;
	memcpy(msg + p, suites.p, suites.n);
	p += suites.n;
	memcpy(msg + p, comp.p, comp.n);
	p += comp.n;
	if (!row->no_exts) {
		put_unaligned_be16(exts, msg + p);
		p += 2;
		for (i = 0; i < ARRAY_SIZE(row->exts); i++) {
			if (row->exts[i].n)
				memcpy(msg + p, row->exts[i].p, row->exts[i].n);
			p += row->exts[i].n;
		}
	}
	if (row->tail.n)
		memcpy(msg + p, row->tail.p, row->tail.n);
	return msg;
}

static void ch_hostile(struct kunit *test)
{
	const struct ch_row *row = test->param_value;
	struct ktls_hs_client_hello ch;
	size_t len;
	u8 *msg;

	msg = ch_row_build(test, row, &len);
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_client_hello(msg, len, &ch),
			row->alert);
}

/* A ClientHello whose extension block is @exts, @n bytes. */
static int ch_parse_exts(struct kunit *test, const u8 *exts, size_t n,
			 struct ktls_hs_client_hello *ch)
{
	struct ch_row row = { .exts = { { exts, n } } };
	size_t len;
	u8 *msg;

	msg = ch_row_build(test, &row, &len);
	return ktls_hs_parse_client_hello(msg, len, ch);
}

/* SNI names of 255 bytes pass, of 256 are not DNS names. */
static void ch_sni_lengths(struct kunit *test)
{
	struct ktls_hs_client_hello ch;
	size_t name, i;
	u8 *e;

	e = kunit_kzalloc(test, 9 + 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (name = 255; name <= 256; name++) {
		put_unaligned_be16(KTLS_EXT_SERVER_NAME, e);
		put_unaligned_be16(name + 5, e + 2);
		put_unaligned_be16(name + 3, e + 4);
		e[6] = KTLS_SNI_HOST_NAME;
		put_unaligned_be16(name, e + 7);
		memset(e + 9, 'a', name);
		/* Labels of 50 bytes, within RFC 1035's 63. */
		for (i = 50; i < name - 1; i += 51)
			e[9 + i] = '.';
		KUNIT_EXPECT_EQ(test, ch_parse_exts(test, e, 9 + name, &ch),
				name == 255 ? 0 : ILLEGAL);
		if (name == 255)
			KUNIT_EXPECT_EQ(test, ch.server_name.len, 255);
	}
}

/*
 * RFC 8446 4.2: unknown extensions are skipped, GREASE ones (RFC 8701)
 * included, up to 1024 extensions in all; a repeat is found wherever
 * it is among them.
 */
static void ch_rfc8446_4_2_unknown_extensions(struct kunit *test)
{
	struct ktls_hs_client_hello ch;
	unsigned int nr;
	u8 *e;

	e = kunit_kzalloc(test, 4 * 1025, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (nr = 0; nr < 1025; nr++)
		put_unaligned_be16(0x1000 + nr, e + 4 * nr);
	for (nr = 0; nr < 16; nr++)
		put_unaligned_be16(0x0a0a + 0x1010 * nr, e + 4 * nr);
	KUNIT_EXPECT_EQ(test, ch_parse_exts(test, e, 4 * 1024, &ch), 0);
	KUNIT_EXPECT_EQ(test, ch_parse_exts(test, e, 4 * 1025, &ch), DECODE);
	put_unaligned_be16(0x1000 + 20, e + 4 * 1023);
	KUNIT_EXPECT_EQ(test, ch_parse_exts(test, e, 4 * 1024, &ch), ILLEGAL);
	put_unaligned_be16(0x3a3a, e + 4 * 1023);
	KUNIT_EXPECT_EQ(test, ch_parse_exts(test, e, 4 * 1024, &ch), ILLEGAL);
}

/*
 * RFC 8446 4.2.8: key shares of groups we do not know pass whatever
 * their number and size (here 250 of 64 bytes, ~17 KB), and the lookup
 * still finds each.
 */
static void ch_rfc8446_4_2_8_many_key_shares(struct kunit *test)
{
	const unsigned int nr_shares = 250, klen = 64, ent = 4 + klen;
	struct ktls_hs_client_hello ch;
	struct ktls_hs_vec ks;
	unsigned int nr;
	u8 *e;

	e = kunit_kzalloc(test, 6 + ent * nr_shares, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	put_unaligned_be16(KTLS_EXT_KEY_SHARE, e);
	put_unaligned_be16(2 + ent * nr_shares, e + 2);
	put_unaligned_be16(ent * nr_shares, e + 4);
	for (nr = 0; nr < nr_shares; nr++) {
		put_unaligned_be16(0x0100 + nr, e + 6 + ent * nr);
		put_unaligned_be16(klen, e + 6 + ent * nr + 2);
		memset(e + 6 + ent * nr + 4, nr, klen);
	}
	KUNIT_ASSERT_EQ(test, ch_parse_exts(test, e, 6 + ent * nr_shares, &ch),
			0);
	KUNIT_ASSERT_TRUE(test, ktls_hs_ch_key_share(&ch, 0x0100 + 249, &ks));
	KUNIT_EXPECT_EQ(test, ks.len, klen);
	KUNIT_EXPECT_EQ(test, ks.data[0], 249);
}

/* RFC 8449 4: the limit is kept as sent; none sent reads as absent. */
static void ch_rfc8449_record_size_limit(struct kunit *test)
{
	static const u16 limits[] = { 64, 256, 16384, 16385, 40000, 65535 };
	struct ktls_hs_client_hello ch;
	u8 e[6] = { 0x00, 0x1c, 0x00, 0x02 };
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ch_parse_exts(test, e, 0, &ch), 0);
	KUNIT_EXPECT_FALSE(test, ktls_hs_ch_has(&ch, KTLS_EXTB_RECORD_SIZE_LIMIT));
	KUNIT_EXPECT_EQ(test, ch.record_size_limit, 0);
	for (i = 0; i < ARRAY_SIZE(limits); i++) {
		put_unaligned_be16(limits[i], e + 4);
		KUNIT_ASSERT_EQ(test, ch_parse_exts(test, e, sizeof(e), &ch), 0);
		KUNIT_EXPECT_TRUE(test, ktls_hs_ch_has(&ch,
						       KTLS_EXTB_RECORD_SIZE_LIMIT));
		KUNIT_EXPECT_EQ(test, ch.record_size_limit, limits[i]);
	}
}

/* RFC 6066 3: a HostName is a DNS name of LDH labels, no trailing dot. */
static void ch_rfc6066_3_host_names(struct kunit *test)
{
	static const struct {
		const char *name;
		int alert;
	} names[] = {
		{ "www.example.test", 0 },
		{ "xn--bcher-kva.example", 0 },
		{ "A-1.B", 0 },
		{ "localhost", 0 },
		{ "www.example.test.", ILLEGAL },
		{ ".example.test", ILLEGAL },
		{ "www..example", ILLEGAL },
		{ ".", ILLEGAL },
		{ "under_score.example", ILLEGAL },
		{ "with space.example", ILLEGAL },
		{ "tab\tname", ILLEGAL },
		{ "esc\x1b[31m", ILLEGAL },
		{ "new\nline", ILLEGAL },
		{ "del\x7f", ILLEGAL },
		{ "high\xc3\xa9", ILLEGAL },
		{ "[::1]", ILLEGAL },
		{ "a%2f.example", ILLEGAL },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.b",
		  0 },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.b",
		  ILLEGAL },
	};
	struct ktls_hs_client_hello ch;
	unsigned int i;
	size_t n;
	u8 *e;

	e = kunit_kzalloc(test, 9 + 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		n = strlen(names[i].name);
		put_unaligned_be16(KTLS_EXT_SERVER_NAME, e);
		put_unaligned_be16(n + 5, e + 2);
		put_unaligned_be16(n + 3, e + 4);
		e[6] = KTLS_SNI_HOST_NAME;
		put_unaligned_be16(n, e + 7);
		memcpy(e + 9, names[i].name, n);
		KUNIT_EXPECT_EQ_MSG(test, ch_parse_exts(test, e, 9 + n, &ch),
				    names[i].alert, "%s", names[i].name);
	}
}

/* Signalling suites are noted wherever they sit in the list. */
static void ch_scsv_flags(struct kunit *test)
{
	struct ch_row row = {
		.suites = HS_BYTES(0x00, 0x06, 0x56, 0x00, 0x13, 0x01,
				   0x00, 0xff),
	};
	struct ktls_hs_client_hello ch;
	size_t len;
	u8 *msg;

	msg = ch_row_build(test, &row, &len);
	KUNIT_ASSERT_EQ(test, ktls_hs_parse_client_hello(msg, len, &ch), 0);
	KUNIT_EXPECT_TRUE(test, ch.scsv_reneg);
	KUNIT_EXPECT_TRUE(test, ch.scsv_fallback);
	KUNIT_EXPECT_EQ(test, ch.exts, 0);
}

static void ch_vec_lookups(struct kunit *test)
{
	static const u8 two[] = { 0x13, 0x01, 0x00, 0xff, 0x56 };
	struct ktls_hs_vec v = { .data = two, .len = 4 };

	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u16(&v, 0x1301));
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u16(&v, 0x00ff));
	/* Entries are aligned: 01 00 spans two of them. */
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u16(&v, 0x0100));
	/* The byte past @len is not part of the list. */
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u16(&v, 0xff56));
	KUNIT_EXPECT_TRUE(test, ktls_hs_vec_has_u8(&v, 0xff));
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u8(&v, 0x56));
	v.len = 0;
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u16(&v, 0x1301));
	KUNIT_EXPECT_FALSE(test, ktls_hs_vec_has_u8(&v, 0x13));
}

/* RFC 8448 3: the server's random and x25519 public key. */
static const u8 rfc8448_sh_random[KTLS_HS_RANDOM_LEN] = {
	0xa6, 0xaf, 0x06, 0xa4, 0x12, 0x18, 0x60, 0xdc, 0x5e, 0x6e, 0x60, 0x24,
	0x9c, 0xd3, 0x4c, 0x95, 0x93, 0x0c, 0x8a, 0xc5, 0xcb, 0x14, 0x34, 0xda,
	0xc1, 0x55, 0x77, 0x2e, 0xd3, 0xe2, 0x69, 0x28,
};

static const u8 rfc8448_sh_share[KTLS_X25519_KEY_LEN] = {
	0xc9, 0x82, 0x88, 0x76, 0x11, 0x20, 0x95, 0xfe, 0x66, 0x76, 0x2b, 0xdb,
	0xf7, 0xc6, 0x72, 0xe1, 0x56, 0xd6, 0xcc, 0x25, 0x3b, 0x83, 0x3d, 0xf1,
	0xdd, 0x69, 0xb1, 0xb0, 0x4e, 0x75, 0x1f, 0x0f,
};

/* Where the trace's messages keep what the builders take as arguments. */
#define HRR_COOKIE_OFF	56	/* the cookie, after its two lengths */
#define HRR_COOKIE_LEN	114
#define CERT_DER_OFF	11	/* header, context, list and entry lengths */
#define CERT_DER_LEN	432
#define CV_SIG_OFF	8	/* header, scheme, signature length */
#define CV_SIG_LEN	128

/*
 * A builder under test: called with a buffer, it appends its message.
 * Each is run into buffers of every capacity short of what it needs, which
 * must fail with -ENOSPC and leave the buffer as it was, then into one of
 * exactly the right size, which must produce @want.
 */
struct build_case {
	const char *name;
	int (*build)(struct ktls_hs_buf *b);
	const u8 *want;
	size_t want_len;
};

static const struct ktls_hs_vec no_session_id;

static int build_rfc8448_sh(struct ktls_hs_buf *b)
{
	return ktls_hs_build_server_hello(b, rfc8448_sh_random, &no_session_id,
					  KTLS_SUITE_AES_128_GCM_SHA256,
					  KTLS_GROUP_X25519, rfc8448_sh_share,
					  sizeof(rfc8448_sh_share));
}

static int build_rfc8448_hrr(struct ktls_hs_buf *b)
{
	const struct ktls_hs_vec cookie = {
		.data = rfc8448_hrr + HRR_COOKIE_OFF,
		.len = HRR_COOKIE_LEN,
	};

	return ktls_hs_build_hello_retry(b, &no_session_id,
					 KTLS_SUITE_AES_128_GCM_SHA256,
					 KTLS_GROUP_SECP256R1, &cookie);
}

static int build_rfc8448_cert(struct ktls_hs_buf *b)
{
	const struct ktls_hs_cert_ref cert = {
		.der = rfc8448_certificate + CERT_DER_OFF,
		.len = CERT_DER_LEN,
	};

	return ktls_hs_build_certificate(b, &cert, 1, true);
}

static int build_rfc8448_cv(struct ktls_hs_buf *b)
{
	return ktls_hs_build_certificate_verify(b, 0x0804,
						rfc8448_certificate_verify + CV_SIG_OFF,
						CV_SIG_LEN);
}

static int build_rfc8448_sfin(struct ktls_hs_buf *b)
{
	return ktls_hs_build_finished(b, rfc8448_server_finished + KTLS_HS_MSG_HDR_LEN,
				      sizeof(rfc8448_server_finished) -
				      KTLS_HS_MSG_HDR_LEN);
}

/* ServerHello echoing a 32-byte session id, with a P-256 share. */
static const u8 sh_sid_p256[] = {
	0x02, 0x00, 0x00, 0x97, 0x03, 0x03, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
	0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
	0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
	0x11, 0x11, 0x20, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
	0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
	0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x13,
	0x02, 0x00, 0x00, 0x4f, 0x00, 0x33, 0x00, 0x45, 0x00, 0x17, 0x00, 0x41,
	0x04, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
	0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
	0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
	0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
	0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33,
	0x33, 0x33, 0x33, 0x33, 0x33, 0x00, 0x2b, 0x00, 0x02, 0x03, 0x04,
};

static int build_sh_sid_p256(struct ktls_hs_buf *b)
{
	u8 random[KTLS_HS_RANDOM_LEN], sid[KTLS_HS_SESSION_ID_MAX];
	u8 share[KTLS_P256_SHARE_LEN];
	struct ktls_hs_vec session_id = { .data = sid, .len = sizeof(sid) };

	memset(random, 0x11, sizeof(random));
	memset(sid, 0x22, sizeof(sid));
	share[0] = 0x04;
	memset(share + 1, 0x33, sizeof(share) - 1);
	return ktls_hs_build_server_hello(b, random, &session_id,
					  KTLS_SUITE_AES_256_GCM_SHA384,
					  KTLS_GROUP_SECP256R1, share,
					  sizeof(share));
}

/* HelloRetryRequest without a cookie, echoing a 1-byte session id. */
static const u8 hrr_no_cookie[] = {
	0x02, 0x00, 0x00, 0x35, 0x03, 0x03, 0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a,
	0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2,
	0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8,
	0x33, 0x9c, 0x01, 0x5a, 0x13, 0x03, 0x00, 0x00, 0x0c, 0x00, 0x33, 0x00,
	0x02, 0x00, 0x1d, 0x00, 0x2b, 0x00, 0x02, 0x03, 0x04,
};

static int build_hrr_no_cookie(struct ktls_hs_buf *b)
{
	static const u8 sid = 0x5a;
	struct ktls_hs_vec session_id = { .data = &sid, .len = 1 };

	return ktls_hs_build_hello_retry(b, &session_id,
					 KTLS_SUITE_CHACHA20_POLY1305_SHA256,
					 KTLS_GROUP_X25519, NULL);
}

static const u8 ee_none[] = { 0x08, 0x00, 0x00, 0x02, 0x00, 0x00 };

static int build_ee_none(struct ktls_hs_buf *b)
{
	return ktls_hs_build_encrypted_extensions(b, false, NULL, 0);
}

/* The empty server_name RFC 8448's EncryptedExtensions ends with. */
static const u8 ee_sni[] = {
	0x08, 0x00, 0x00, 0x06, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
};

static int build_ee_sni(struct ktls_hs_buf *b)
{
	return ktls_hs_build_encrypted_extensions(b, true, NULL, 0);
}

static const u8 ee_sni_alpn[] = {
	0x08, 0x00, 0x00, 0x15, 0x00, 0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
	0x00, 0x0b, 0x00, 0x09, 0x08, 'h', 't', 't', 'p', '/', '1', '.', '1',
};

static int build_ee_sni_alpn(struct ktls_hs_buf *b)
{
	const struct ktls_hs_vec alpn = { .data = "http/1.1", .len = 8 };

	return ktls_hs_build_encrypted_extensions(b, true, &alpn, 0);
}

/* RFC 8449 4: our record_size_limit, 2^14 + 1 in TLS 1.3, behind ALPN. */
static const u8 ee_alpn_rsl[] = {
	0x08, 0x00, 0x00, 0x11, 0x00, 0x0f, 0x00, 0x10, 0x00, 0x05, 0x00, 0x03,
	0x02, 'h', '2', 0x00, 0x1c, 0x00, 0x02, 0x40, 0x01,
};

static int build_ee_alpn_rsl(struct ktls_hs_buf *b)
{
	const struct ktls_hs_vec alpn = { .data = "h2", .len = 2 };

	return ktls_hs_build_encrypted_extensions(b, false, &alpn, 16385);
}

/* Two certificates, a leaf and its issuer, each with empty extensions. */
static const u8 cert_chain[] = {
	0x0b, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00, 0x0f, 0x00, 0x00, 0x03, 0x30,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x30, 0x00, 0x00, 0x00,
};

static int build_cert_chain(struct ktls_hs_buf *b)
{
	static const u8 leaf[] = { 0x30, 0x01, 0x00 }, ca[] = { 0x30, 0x00 };
	const struct ktls_hs_cert_ref certs[] = {
		{ .der = leaf, .len = sizeof(leaf) },
		{ .der = ca, .len = sizeof(ca) },
	};

	return ktls_hs_build_certificate(b, certs, ARRAY_SIZE(certs), true);
}

/* An ECDSA P-256 signature is DER: the length varies, 70..72 bytes. */
static const u8 cv_ecdsa[] = {
	0x0f, 0x00, 0x00, 0x08, 0x04, 0x03, 0x00, 0x04, 0x30, 0x02, 0x02, 0x00,
};

static int build_cv_ecdsa(struct ktls_hs_buf *b)
{
	static const u8 sig[] = { 0x30, 0x02, 0x02, 0x00 };

	return ktls_hs_build_certificate_verify(b,
						KTLS_SIG_ECDSA_SECP256R1_SHA256,
						sig, sizeof(sig));
}

static const struct build_case build_cases[] = {
	{ "rfc8448 ServerHello", build_rfc8448_sh, rfc8448_server_hello,
	  sizeof(rfc8448_server_hello) },
	{ "rfc8448 HelloRetryRequest", build_rfc8448_hrr, rfc8448_hrr,
	  sizeof(rfc8448_hrr) },
	{ "rfc8448 Certificate", build_rfc8448_cert, rfc8448_certificate,
	  sizeof(rfc8448_certificate) },
	{ "rfc8448 CertificateVerify", build_rfc8448_cv, rfc8448_certificate_verify,
	  sizeof(rfc8448_certificate_verify) },
	{ "rfc8448 server Finished", build_rfc8448_sfin, rfc8448_server_finished,
	  sizeof(rfc8448_server_finished) },
	{ "ServerHello, session id, P-256", build_sh_sid_p256, sh_sid_p256,
	  sizeof(sh_sid_p256) },
	{ "HelloRetryRequest without cookie", build_hrr_no_cookie,
	  hrr_no_cookie, sizeof(hrr_no_cookie) },
	{ "EncryptedExtensions, empty", build_ee_none, ee_none,
	  sizeof(ee_none) },
	{ "EncryptedExtensions, SNI", build_ee_sni, ee_sni, sizeof(ee_sni) },
	{ "EncryptedExtensions, SNI and ALPN", build_ee_sni_alpn, ee_sni_alpn,
	  sizeof(ee_sni_alpn) },
	{ "EncryptedExtensions, ALPN and record_size_limit", build_ee_alpn_rsl,
	  ee_alpn_rsl, sizeof(ee_alpn_rsl) },
	{ "Certificate, two", build_cert_chain, cert_chain,
	  sizeof(cert_chain) },
	{ "CertificateVerify, ECDSA", build_cv_ecdsa, cv_ecdsa,
	  sizeof(cv_ecdsa) },
};

static void build_case_desc(const struct build_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(build_case, build_cases, build_case_desc);

/* Bytes already in the buffer, which a builder must append after. */
static const u8 build_prefix[3] = { 0xa1, 0xa2, 0xa3 };

static void build_exact(struct kunit *test)
{
	const struct build_case *c = test->param_value;
	size_t cap = sizeof(build_prefix) + c->want_len;
	struct ktls_hs_buf b;

	/* Exactly the room needed: KASAN reports a write past it. */
	b.data = kunit_kmalloc(test, cap, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b.data);
	memcpy(b.data, build_prefix, sizeof(build_prefix));
	b.len = sizeof(build_prefix);
	b.cap = cap;

	KUNIT_ASSERT_EQ(test, c->build(&b), 0);
	KUNIT_ASSERT_EQ(test, b.len, cap);
	KUNIT_EXPECT_MEMEQ(test, b.data, build_prefix, sizeof(build_prefix));
	KUNIT_EXPECT_MEMEQ(test, b.data + sizeof(build_prefix), c->want,
			   c->want_len);
}

static void build_no_room(struct kunit *test)
{
	const struct build_case *c = test->param_value;
	struct ktls_hs_buf b;
	unsigned int bad = 0;
	size_t cap;

	for (cap = sizeof(build_prefix);
	     cap < sizeof(build_prefix) + c->want_len; cap++) {
		int ret;

		b.data = kmalloc(cap, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, b.data);
		memcpy(b.data, build_prefix, sizeof(build_prefix));
		b.len = sizeof(build_prefix);
		b.cap = cap;
		ret = c->build(&b);
		if ((ret != -ENOSPC || b.len != sizeof(build_prefix) ||
		     memcmp(b.data, build_prefix, sizeof(build_prefix))) &&
		    bad++ < 8)
			KUNIT_FAIL(test, "cap %zu: ret %d, len %zu", cap, ret,
				   b.len);
		kfree(b.data);
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/* What no message can carry is refused before anything is written. */
static void build_invalid(struct kunit *test)
{
	u8 data[16], random[KTLS_HS_RANDOM_LEN] = {}, big[256] = {};
	struct ktls_hs_buf b = { .data = data, .cap = sizeof(data) };
	struct ktls_hs_vec sid = { .data = big, .len = 33 };
	struct ktls_hs_vec empty = { .data = big, .len = 0 };
	struct ktls_hs_vec alpn = { .data = big, .len = 256 };
	struct ktls_hs_cert_ref certs[2] = {
		{ .der = big, .len = 1 }, { .der = big, .len = 0 },
	};

	KUNIT_EXPECT_EQ(test, ktls_hs_build_server_hello(&b, random, &sid,
							 0x1301, 0x1d, big, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_server_hello(&b, random, &empty,
							 0x1301, 0x1d, big, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_hello_retry(&b, &sid, 0x1301,
							0x1d, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_hello_retry(&b, &empty, 0x1301,
							0x1d, &empty),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_encrypted_extensions(&b, false,
								 &empty, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_encrypted_extensions(&b, false,
								 &alpn, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_certificate(&b, certs, 0, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hs_build_certificate(&b, certs, 2, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, b.len, 0);
}

/* A buffer already past its capacity takes nothing. */
static void build_overfull(struct kunit *test)
{
	u8 data[8] = {};
	struct ktls_hs_buf b = { .data = data, .len = 9, .cap = 8 };

	KUNIT_EXPECT_EQ(test, ktls_hs_build_finished(&b, data, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, b.len, 9);
}

/* RFC 8446 4.4.3's example: a server's content over 32 bytes of 01. */
static void cv_content_rfc8446(struct kunit *test)
{
	static const char label[] = "TLS 1.3, server CertificateVerify";
	u8 out[KTLS_HS_CV_CONTENT_MAX], hash[48], want[130];
	size_t n;

	memset(hash, 0x01, sizeof(hash));
	memset(want, 0x20, 64);
	memcpy(want + 64, label, 33);
	want[97] = 0;
	memset(want + 98, 0x01, 32);

	n = ktls_hs_cert_verify_content(out, true, hash, 32);
	KUNIT_ASSERT_EQ(test, n, sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, out, want, sizeof(want));

	/* The client's differs in the label only. */
	n = ktls_hs_cert_verify_content(out, false, hash, 32);
	KUNIT_ASSERT_EQ(test, n, sizeof(want));
	KUNIT_EXPECT_MEMEQ(test, out + 64, "TLS 1.3, client", 15);
	KUNIT_EXPECT_MEMEQ(test, out + 79, want + 79, sizeof(want) - 79);

	/* SHA-384 fills the buffer; anything longer is refused. */
	KUNIT_EXPECT_EQ(test, ktls_hs_cert_verify_content(out, true, hash, 48),
			KTLS_HS_CV_CONTENT_MAX);
	KUNIT_EXPECT_EQ(test, ktls_hs_cert_verify_content(out, true, hash, 49),
			0);
}

static void finished_rfc8448(struct kunit *test)
{
	const u8 *msg, *vd = NULL;

	msg = hs_exact_copy(test, rfc8448_client_finished, sizeof(rfc8448_client_finished));
	KUNIT_ASSERT_EQ(test, ktls_hs_parse_finished(msg, sizeof(rfc8448_client_finished),
						     32, &vd), 0);
	KUNIT_EXPECT_PTR_EQ(test, vd, msg + KTLS_HS_MSG_HDR_LEN);
	/* A SHA-384 suite expects 48 bytes. */
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_finished(msg, sizeof(rfc8448_client_finished),
						     48, &vd), DECODE);
	/* Another message where Finished is due. */
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_finished(rfc8448_server_hello,
						     sizeof(rfc8448_server_hello), 32,
						     &vd),
			KTLS_ALERT_UNEXPECTED_MESSAGE);
}

static void finished_hostile(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, sizeof(rfc8448_client_finished) + 1, GFP_KERNEL);
	const u8 *vd;
	size_t cut;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (cut = 0; cut < sizeof(rfc8448_client_finished); cut++) {
		u8 *p = hs_exact_copy(test, rfc8448_client_finished, cut);

		KUNIT_EXPECT_EQ(test, ktls_hs_parse_finished(p, cut, 32, &vd),
				DECODE);
	}
	/* One byte too many, with and without the header claiming it. */
	memcpy(buf, rfc8448_client_finished, sizeof(rfc8448_client_finished));
	buf[sizeof(rfc8448_client_finished)] = 0;
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_finished(buf,
						     sizeof(rfc8448_client_finished) + 1,
						     32, &vd), DECODE);
	buf[3]++;
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_finished(buf,
						     sizeof(rfc8448_client_finished) + 1,
						     32, &vd), DECODE);
	/* An empty Finished is not a Finished of length zero. */
	KUNIT_EXPECT_EQ(test, ktls_hs_parse_finished((const u8 *)"\x14\0\0\0",
						     4, 32, &vd), DECODE);
}

/* What the builders produce, the parsers take back. */
static void finished_roundtrip(struct kunit *test)
{
	u8 data[4 + 48], vd_in[48];
	struct ktls_hs_buf b = { .data = data, .cap = sizeof(data) };
	const u8 *vd;

	memset(vd_in, 0x5c, sizeof(vd_in));
	KUNIT_ASSERT_EQ(test, ktls_hs_build_finished(&b, vd_in, 48), 0);
	KUNIT_ASSERT_EQ(test, ktls_hs_parse_finished(b.data, b.len, 48, &vd),
			0);
	KUNIT_EXPECT_MEMEQ(test, vd, vd_in, sizeof(vd_in));
}

static struct kunit_case hs_codec_cases[] = {
	KUNIT_CASE(ch_rfc8448_simple),
	KUNIT_CASE(ch_rfc8448_resumed),
	KUNIT_CASE(ch_openssl),
	KUNIT_CASE(ch_alpn_absent),
	KUNIT_CASE_PARAM(ch_truncated_plain, ch_valid_gen_params),
	KUNIT_CASE_PARAM(ch_truncated_header, ch_valid_gen_params),
	KUNIT_CASE_PARAM(ch_truncated_extensions, ch_valid_gen_params),
	KUNIT_CASE_PARAM(ch_appended_byte, ch_valid_gen_params),
	KUNIT_CASE_PARAM(ch_hostile, ch_row_gen_params),
	KUNIT_CASE(ch_sni_lengths),
	KUNIT_CASE(ch_rfc8446_4_2_unknown_extensions),
	KUNIT_CASE(ch_rfc8446_4_2_8_many_key_shares),
	KUNIT_CASE(ch_rfc6066_3_host_names),
	KUNIT_CASE(ch_rfc8449_record_size_limit),
	KUNIT_CASE(ch_scsv_flags),
	KUNIT_CASE(ch_vec_lookups),
	KUNIT_CASE_PARAM(build_exact, build_case_gen_params),
	KUNIT_CASE_PARAM(build_no_room, build_case_gen_params),
	KUNIT_CASE(build_invalid),
	KUNIT_CASE(build_overfull),
	KUNIT_CASE(cv_content_rfc8446),
	KUNIT_CASE(finished_rfc8448),
	KUNIT_CASE(finished_hostile),
	KUNIT_CASE(finished_roundtrip),
	{}
};

static struct kunit_suite hs_codec_suite = {
	.name = "ktls_hs_codec",
	.test_cases = hs_codec_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(hs_codec_suite);
