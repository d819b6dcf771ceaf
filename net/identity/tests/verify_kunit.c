// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of client certificate verification: trust store payloads
 * (trust_store.c), certificate times (cert.c) and path validation
 * (verify.c) over the test PKI of verify_vectors.h, which
 * gen_verify_vectors.sh makes with openssl.  The clock is the test's: the
 * PKI's dates are fixed, and "now" is 2030-01-01 unless a case says.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include <ktls_hs/trust.h>

#include "../cert.h"
#include "verify_vectors.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define T2030		1893456000LL	/* 2030-01-01 00:00:00 UTC */
#define T2025		1735689600LL	/* notBefore of the leaves */
#define T2035		2051222400LL	/* notAfter of the leaves */

#define CERT(name)	((struct ktls_verify_cert){ vec_##name, sizeof(vec_##name) })

/* The stores a test made, put by verify_exit() (6.1's KUnit has no actions). */
struct stores {
	struct ktls_trust *t[8];
	unsigned int n;
};

static int verify_init(struct kunit *test)
{
	test->priv = kunit_kzalloc(test, sizeof(struct stores), GFP_KERNEL);
	return test->priv ? 0 : -ENOMEM;
}

static void verify_exit(struct kunit *test)
{
	struct stores *s = test->priv;

	while (s->n)
		ktls_trust_put(s->t[--s->n]);
}

/* A store from @pem, released when the test ends. */
static struct ktls_trust *store(struct kunit *test, const char *pem)
{
	struct stores *s = test->priv;
	struct ktls_trust *t;
	const char *why;

	KUNIT_ASSERT_LT(test, s->n, ARRAY_SIZE(s->t));
	t = ktls_trust_parse((const u8 *)pem, strlen(pem), &why);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "refused: %s", why);
	s->t[s->n++] = t;
	return t;
}

/* printf into test-managed memory (no kunit_kasprintf() before 6.13). */
static __printf(2, 3) char *fmt(struct kunit *test, const char *f, ...)
{
	va_list ap;
	char *buf;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	buf = kunit_kzalloc(test, n + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	va_start(ap, f);
	vsnprintf(buf, n + 1, f, ap);
	va_end(ap);
	return buf;
}

struct run {
	struct ktls_peer_cert peer;
	const char *why;
};

static enum ktls_verify_result run_at(struct kunit *test,
				      const struct ktls_trust *t,
				      const struct ktls_verify_cert *certs,
				      unsigned int n, time64_t now,
				      struct run *r)
{
	void *scratch = kunit_kzalloc(test, KTLS_VERIFY_SCRATCH_SIZE,
				      GFP_KERNEL);
	enum ktls_verify_result res;

	KUNIT_ASSERT_NOT_NULL(test, scratch);
	res = ktls_verify_peer(t, certs, n, now, scratch, &r->peer, &r->why);
	/* Every refusal says why, for the handshake's message. */
	if (res)
		KUNIT_EXPECT_NOT_NULL(test, r->why);
	return res;
}

#define RUN(test, t, r, ...) ({						\
	const struct ktls_verify_cert l_[] = { __VA_ARGS__ };		\
	run_at(test, t, l_, ARRAY_SIZE(l_), T2030, r);			\
})

static struct run *new_run(struct kunit *test)
{
	struct run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	return r;
}

/* ------------------------------------------------------------ good paths */

static void verify_one_deep(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);
	struct ktls_peer_cert *p = &r->peer;
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	unsigned int i;

	KUNIT_ASSERT_EQ_MSG(test, RUN(test, t, r, CERT(leaf1)), KTLS_VERIFY_OK,
			    "%s", r->why);
	KUNIT_EXPECT_EQ(test, p->depth, 1);
	KUNIT_EXPECT_EQ(test, p->anchor, 0);
	KUNIT_EXPECT_MEMEQ(test, p->anchor_fp, t->anchors[0].fingerprint,
			   SHA256_DIGEST_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, ktls_trust_anchor_find(t, p->anchor_fp),
			    &t->anchors[0]);
	KUNIT_EXPECT_STREQ(test, p->subject, "CN=client one, O=ktls-hs");
	KUNIT_EXPECT_STREQ(test, p->issuer, "CN=ktls test root, O=ktls-hs");
	KUNIT_EXPECT_EQ(test, p->not_after, T2035);
	KUNIT_EXPECT_EQ(test, p->public_key[0], 0x04);
	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", p->fingerprint[i]);
	KUNIT_EXPECT_STREQ(test, hex, vec_leaf1_sha256);

	KUNIT_ASSERT_EQ(test, p->nr_sans, 3);
	KUNIT_EXPECT_FALSE(test, p->sans_truncated);
	KUNIT_EXPECT_EQ(test, p->sans[0].type, KTLS_PEER_SAN_DNS);
	KUNIT_EXPECT_STREQ(test, p->san_text + p->sans[0].off,
			   "client.example.test");
	KUNIT_EXPECT_EQ(test, p->sans[1].type, KTLS_PEER_SAN_URI);
	KUNIT_EXPECT_STREQ(test, p->san_text + p->sans[1].off,
			   "spiffe://example.test/ns/default/sa/client");
	KUNIT_EXPECT_EQ(test, p->sans[2].type, KTLS_PEER_SAN_EMAIL);
	KUNIT_EXPECT_STREQ(test, p->san_text + p->sans[2].off,
			   "client@example.test");
}

static void verify_two_deep(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(leaf2), CERT(int1)),
			    KTLS_VERIFY_OK, "%s", r->why);
	KUNIT_EXPECT_EQ(test, r->peer.depth, 2);
	KUNIT_EXPECT_STREQ(test, r->peer.issuer, "CN=ktls test int1, O=ktls-hs");
}

static void verify_three_deep(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(leaf3), CERT(int2),
				      CERT(int1)), KTLS_VERIFY_OK, "%s", r->why);
	KUNIT_EXPECT_EQ(test, r->peer.depth, 3);
	/* TLS 1.3 lets the intermediates come in any order. */
	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(leaf3), CERT(int1),
				      CERT(int2)), KTLS_VERIFY_OK, "%s", r->why);
	/* Extra certificates nobody needs are ignored. */
	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(leaf3), CERT(other),
				      CERT(int2), CERT(int1), CERT(root)),
			    KTLS_VERIFY_OK, "%s", r->why);
}

static void verify_sha384(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(leaf384)),
			    KTLS_VERIFY_OK, "%s", r->why);
}

/* An intermediate may be the anchor: the path ends at it. */
static void verify_intermediate_anchor(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_int1_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(leaf2)), KTLS_VERIFY_OK,
			    "%s", r->why);
	KUNIT_EXPECT_EQ(test, r->peer.depth, 1);
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(leaf1)),
			KTLS_VERIFY_UNKNOWN_CA);
}

/* ------------------------------------------------------------ bad paths */

static void verify_bad_signature(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(badsig)),
			KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why, "certificate signature does not verify");
}

static void verify_unknown_ca(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(unknown)),
			KTLS_VERIFY_UNKNOWN_CA);
	/* Its own root sent along changes nothing. */
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(unknown), CERT(other)),
			KTLS_VERIFY_UNKNOWN_CA);
	/* The intermediate alone, without the root it chains to. */
	t = store(test, vec_other_pem);
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(leaf2), CERT(int1)),
			KTLS_VERIFY_UNKNOWN_CA);
}

/* The root's name with another key: the key identifiers tell them apart. */
static void verify_imposter(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(imposter)),
			KTLS_VERIFY_UNKNOWN_CA);
	/*
	 * Sent along, the imposter's self-signed CA names the anchor and has
	 * no key identifier to tell it apart: a forged signature.
	 */
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(imposter),
				  CERT(imposter_ca)), KTLS_VERIFY_BAD_CERTIFICATE);
}

static void verify_dates(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(expired)),
			KTLS_VERIFY_EXPIRED);
	KUNIT_EXPECT_STREQ(test, r->why, "a certificate has expired");
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(future)),
			KTLS_VERIFY_EXPIRED);
	KUNIT_EXPECT_STREQ(test, r->why, "a certificate is not yet valid");
}

/* The injected clock at the edges of leaf1's validity, both inclusive. */
static void verify_clock(struct kunit *test)
{
	static const struct {
		time64_t now;
		enum ktls_verify_result res;
	} cases[] = {
		{ T2025 - 1, KTLS_VERIFY_EXPIRED },
		{ T2025, KTLS_VERIFY_OK },
		{ T2035, KTLS_VERIFY_OK },
		{ T2035 + 1, KTLS_VERIFY_EXPIRED },
		{ 0, KTLS_VERIFY_EXPIRED },
		{ S64_MAX, KTLS_VERIFY_EXPIRED },
	};
	struct ktls_trust *t = store(test, vec_root_pem);
	const struct ktls_verify_cert leaf = CERT(leaf1);
	struct run *r = new_run(test);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, run_at(test, t, &leaf, 1,
						 cases[i].now, r),
				    cases[i].res, "case %u", i);
}

static void verify_not_a_ca(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(noca), CERT(noca_int)),
			KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why, "an issuing certificate is not a CA");
}

static void verify_path_len(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(pl_leaf), CERT(pl_int2),
				  CERT(pl_int1)), KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why,
			   "an issuing CA's pathLenConstraint is exceeded");
}

static void verify_server_eku(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(server)),
			KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why,
			   "client certificate extendedKeyUsage lacks clientAuth");
}

static void verify_unknown_critical(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(crit)),
			KTLS_VERIFY_UNSUPPORTED);
}

static void verify_too_deep(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(long), CERT(long_int5),
				  CERT(long_int4), CERT(long_int3),
				  CERT(long_int2), CERT(long_int1)),
			KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why, "path is longer than the limit");
	/* The limit itself is fine: anchored at long_int1. */
	t = store(test, vec_long_int1_pem);
	KUNIT_EXPECT_EQ_MSG(test, RUN(test, t, r, CERT(long), CERT(long_int5),
				      CERT(long_int4), CERT(long_int3),
				      CERT(long_int2)), KTLS_VERIFY_OK,
			    "%s", r->why);
}

static void verify_rsa_leaf(struct kunit *test)
{
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);

	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(rsa)),
			KTLS_VERIFY_UNSUPPORTED);
	KUNIT_EXPECT_STREQ(test, r->why,
			   "client certificate has an RSA key, not P-256");
}

static void verify_garbage(struct kunit *test)
{
	static const u8 junk[] = { 0x30, 0x03, 0x02, 0x01, 0x01 };
	struct ktls_trust *t = store(test, vec_root_pem);
	struct ktls_verify_cert c = CERT(leaf1);
	struct run *r = new_run(test);
	u8 *copy;

	c.der = junk;
	c.len = sizeof(junk);
	KUNIT_EXPECT_EQ(test, run_at(test, t, &c, 1, T2030, r),
			KTLS_VERIFY_BAD_CERTIFICATE);
	/* Truncated by one byte; then one byte too many. */
	c = CERT(leaf1);
	c.len--;
	KUNIT_EXPECT_EQ(test, run_at(test, t, &c, 1, T2030, r),
			KTLS_VERIFY_BAD_CERTIFICATE);
	copy = kunit_kzalloc(test, sizeof(vec_leaf1) + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, vec_leaf1, sizeof(vec_leaf1));
	c.der = copy;
	c.len = sizeof(vec_leaf1) + 1;
	KUNIT_EXPECT_EQ(test, run_at(test, t, &c, 1, T2030, r),
			KTLS_VERIFY_BAD_CERTIFICATE);
	/* A good leaf behind a bad intermediate is refused all the same. */
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(leaf1),
				  ((struct ktls_verify_cert){ junk, sizeof(junk) })),
			KTLS_VERIFY_BAD_CERTIFICATE);
	/* No certificate at all. */
	KUNIT_EXPECT_EQ(test, run_at(test, t, &c, 0, T2030, r),
			KTLS_VERIFY_BAD_CERTIFICATE);
}

static void verify_denylist(struct kunit *test)
{
	char *pem = fmt(test, "%sdeny %s\n", vec_root_pem, vec_leaf1_sha256);
	struct ktls_trust *t;
	struct run *r = new_run(test);

	KUNIT_ASSERT_NOT_NULL(test, pem);
	t = store(test, pem);
	KUNIT_EXPECT_EQ(test, t->nr_deny, 1);
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(leaf1)),
			KTLS_VERIFY_UNKNOWN_CA);
	KUNIT_EXPECT_STREQ(test, r->why, "client certificate is on the denylist");
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(leaf2), CERT(int1)),
			KTLS_VERIFY_OK);
}

/* ---------------------------------------------------------------- limits */

static void verify_limits(struct kunit *test)
{
	struct ktls_verify_cert many[KTLS_VERIFY_MAX_CERTS + 1];
	struct ktls_trust *t = store(test, vec_root_pem);
	struct run *r = new_run(test);
	unsigned int i;
	char *pem;

	many[0] = CERT(leaf1);
	for (i = 1; i < ARRAY_SIZE(many); i++)
		many[i] = CERT(int1);
	KUNIT_EXPECT_EQ(test, run_at(test, t, many, ARRAY_SIZE(many), T2030, r),
			KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why, "more certificates than the limit");
	KUNIT_EXPECT_EQ(test, run_at(test, t, many, ARRAY_SIZE(many) - 1,
				     T2030, r), KTLS_VERIFY_OK);

	/* Nine anchors of the right name and key, a signature none verify. */
	pem = kunit_kzalloc(test, 9 * strlen(vec_root_pem) + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pem);
	for (i = 0; i < 9; i++)
		strcat(pem, vec_root_pem);
	t = store(test, pem);
	KUNIT_EXPECT_EQ(test, RUN(test, t, r, CERT(badsig)),
			KTLS_VERIFY_BAD_CERTIFICATE);
	KUNIT_EXPECT_STREQ(test, r->why, "too many signatures to check");
}

/* ----------------------------------------------------------- trust store */

static void trust_refusals(struct kunit *test)
{
	static const char deny_bad[] = "deny 1234\n";
	static const char other_block[] =
		"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
	struct {
		const char *pem;
		int err;
		const char *why;
	} cases[] = {
		{ vec_rsa_ca_pem, -ENOPKG,
		  "CA certificate has an RSA key; only P-256 ECDSA CAs are supported" },
		{ vec_leaf1_pem, -EINVAL,
		  "certificate is not a CA (no basicConstraints cA TRUE)" },
		{ "just text\n", -ENODATA, "trust store has no CERTIFICATE block" },
		{ "", -EINVAL, "empty payload" },
		{ other_block, -EINVAL,
		  "unexpected PEM block in trust store (only CERTIFICATE)" },
		{ "-----BEGIN CERTIFICATE-----\nA*AA\n-----END CERTIFICATE-----\n",
		  -EBADMSG, "invalid character in PEM base64" },
		{ NULL, -EINVAL,
		  "malformed deny line (want: deny <SHA-256 in 64 hex digits>)" },
	};
	struct ktls_trust *t;
	const char *why;
	unsigned int i;

	cases[ARRAY_SIZE(cases) - 1].pem = fmt(test, "%s%s", vec_root_pem,
					       deny_bad);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		t = ktls_trust_parse((const u8 *)cases[i].pem,
				     strlen(cases[i].pem), &why);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(t), cases[i].err,
				    "case %u", i);
		if (!IS_ERR(t)) {
			ktls_trust_put(t);
			continue;
		}
		KUNIT_EXPECT_STREQ_MSG(test, why, cases[i].why, "case %u", i);
	}
}

static void trust_contents(struct kunit *test)
{
	/* Deny lines before, between and after the blocks. */
	char *pem = fmt(test, "deny %s\n# clients\n%s\ndeny\t%s \r\n%sdeny %s\n",
			vec_leaf1_sha256, vec_root_pem, vec_leaf1_sha256,
			vec_int1_pem, vec_leaf1_sha256);
	struct ktls_trust *t;

	KUNIT_ASSERT_NOT_NULL(test, pem);
	t = store(test, pem);
	KUNIT_EXPECT_EQ(test, t->nr_anchors, 2);
	KUNIT_EXPECT_EQ(test, t->nr_deny, 3);
	KUNIT_EXPECT_EQ(test, t->pem_len, strlen(pem));
	KUNIT_EXPECT_EQ(test, memcmp(t->pem, pem, t->pem_len), 0);
	KUNIT_EXPECT_EQ(test, t->anchors[0].path_len, -1);
	KUNIT_EXPECT_EQ(test, t->anchors[0].len, sizeof(vec_root));
	KUNIT_EXPECT_EQ(test, memcmp(t->anchors[0].der, vec_root,
				     sizeof(vec_root)), 0);
	/* 2054-01-01: a GeneralizedTime */
	KUNIT_EXPECT_EQ(test, t->anchors[0].not_after, 2650838400LL);
	KUNIT_EXPECT_NOT_NULL(test, t->anchors[0].ski);
}

/* ------------------------------------------------------------------ time */

static void cert_times(struct kunit *test)
{
	static const struct {
		u8 tag;
		const char *text;
		int err;
		time64_t t;
	} cases[] = {
		{ KTLS_DER_UTC_TIME, "700101000000Z", 0, 0 },
		{ KTLS_DER_UTC_TIME, "491231235959Z", 0, 2524607999LL },
		{ KTLS_DER_UTC_TIME, "500101000000Z", 0, -631152000LL },
		{ KTLS_DER_GENERALIZED_TIME, "20000229120000Z", 0, 951825600LL },
		{ KTLS_DER_GENERALIZED_TIME, "20540101000000Z", 0, 2650838400LL },
		{ KTLS_DER_GENERALIZED_TIME, "21000229000000Z", -EBADMSG },
		{ KTLS_DER_GENERALIZED_TIME, "20250101000000.5Z", -EBADMSG },
		{ KTLS_DER_UTC_TIME, "2501010000Z", -EBADMSG },
		{ KTLS_DER_UTC_TIME, "250101000000+0100", -EBADMSG },
		{ KTLS_DER_UTC_TIME, "251301000000Z", -EBADMSG },
		{ KTLS_DER_UTC_TIME, "250431000000Z", -EBADMSG },
		{ KTLS_DER_UTC_TIME, "250101240000Z", -EBADMSG },
		{ KTLS_DER_UTC_TIME, "2501010000-0Z", -EBADMSG },
		{ KTLS_DER_OCTET_STRING, "250101000000Z", -EBADMSG },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ktls_der d = {
			(const u8 *)cases[i].text, strlen(cases[i].text)
		};
		time64_t t = 12345;

		KUNIT_EXPECT_EQ_MSG(test, ktls_cert_time(&d, cases[i].tag, &t),
				    cases[i].err, "case %u", i);
		if (!cases[i].err)
			KUNIT_EXPECT_EQ_MSG(test, t, cases[i].t, "case %u", i);
	}
}

static struct kunit_case verify_cases[] = {
	KUNIT_CASE(verify_one_deep),
	KUNIT_CASE(verify_two_deep),
	KUNIT_CASE(verify_three_deep),
	KUNIT_CASE(verify_sha384),
	KUNIT_CASE(verify_intermediate_anchor),
	KUNIT_CASE(verify_bad_signature),
	KUNIT_CASE(verify_unknown_ca),
	KUNIT_CASE(verify_imposter),
	KUNIT_CASE(verify_dates),
	KUNIT_CASE(verify_clock),
	KUNIT_CASE(verify_not_a_ca),
	KUNIT_CASE(verify_path_len),
	KUNIT_CASE(verify_server_eku),
	KUNIT_CASE(verify_unknown_critical),
	KUNIT_CASE(verify_too_deep),
	KUNIT_CASE(verify_rsa_leaf),
	KUNIT_CASE(verify_garbage),
	KUNIT_CASE(verify_denylist),
	KUNIT_CASE(verify_limits),
	KUNIT_CASE(trust_refusals),
	KUNIT_CASE(trust_contents),
	KUNIT_CASE(cert_times),
	{}
};

static struct kunit_suite verify_suite = {
	.name = "ktls_hs_verify",
	.init = verify_init,
	.exit = verify_exit,
	.test_cases = verify_cases,
};

kunit_test_suite(verify_suite);
