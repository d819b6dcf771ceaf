// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the client-authentication codecs (client_cert_msgs.c):
 * our CertificateRequest of both versions byte for byte, with and
 * without the CAs' names, and the client's Certificate and
 * CertificateVerify parsed, well-formed and hostile, each malformation
 * with the alert RFC 8446 4.4.2 and 4.4.3 give it.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ktls_hs/trust.h>

#include "../codec.h"

static int build(int (*fn)(struct ktls_hs_buf *, const struct ktls_trust *),
		 const struct ktls_trust *cas, u8 *out, size_t cap,
		 size_t *len)
{
	struct ktls_hs_buf b = { .data = out, .cap = cap };
	int err = fn(&b, cas);

	*len = b.len;
	return err;
}

static void cr13_no_names(struct kunit *test)
{
	static const u8 want[] = {
		0x0d, 0x00, 0x00, 0x0b,		/* CertificateRequest */
		0x00,				/* empty context */
		0x00, 0x08,			/* extensions */
		0x00, 0x0d, 0x00, 0x04,		/* signature_algorithms */
		0x00, 0x02, 0x04, 0x03,		/* ecdsa_secp256r1_sha256 */
	};
	u8 out[64];
	size_t len;

	KUNIT_ASSERT_EQ(test, build(ktls_hs_build_certificate_request, NULL,
				    out, sizeof(out), &len), 0);
	KUNIT_ASSERT_EQ(test, len, sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(out, want, len), 0);
	/* One byte short: nothing written. */
	KUNIT_EXPECT_EQ(test, build(ktls_hs_build_certificate_request, NULL,
				    out, sizeof(want) - 1, &len), -ENOSPC);
	KUNIT_EXPECT_EQ(test, len, 0);
}

static void cr12(struct kunit *test)
{
	static const u8 want[] = {
		0x0d, 0x00, 0x00, 0x08,
		0x01, 0x40,			/* ecdsa_sign */
		0x00, 0x02, 0x04, 0x03,		/* ecdsa_secp256r1_sha256 */
		0x00, 0x00,			/* no CA names */
	};
	u8 out[64];
	size_t len;

	KUNIT_ASSERT_EQ(test, build(ktls_hs12_build_certificate_request, NULL,
				    out, sizeof(out), &len), 0);
	KUNIT_ASSERT_EQ(test, len, sizeof(want));
	KUNIT_EXPECT_EQ(test, memcmp(out, want, len), 0);
}

/* Two anchors: a Name of 3 content bytes, one of 200 (long-form length). */
static void cr_names(struct kunit *test)
{
	static const u8 dn1[] = { 0x00, 0x05, 0x30, 0x03, 'a', 'b', 'c' };
	static const u8 dn2[] = { 0x00, 0xcb, 0x30, 0x81, 0xc8 };
	struct ktls_trust_anchor a[2] = {};
	struct ktls_trust trust = { .nr_anchors = 2, .anchors = a };
	size_t len, off, cap = 512;
	u8 *big, *out;

	big = kunit_kzalloc(test, 200, GFP_KERNEL);
	out = kunit_kzalloc(test, cap, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	KUNIT_ASSERT_NOT_NULL(test, out);
	memset(big, 0x31, 200);
	a[0].subject = (const u8 *)"abc";
	a[0].subject_len = 3;
	a[1].subject = big;
	a[1].subject_len = 200;
	/* 2 + (2 + 3) and 2 + (3 + 200) */
	KUNIT_EXPECT_EQ(test, ktls_hs_ca_names_len(&trust), 7 + 205);

	KUNIT_ASSERT_EQ(test, build(ktls_hs_build_certificate_request, &trust,
				    out, cap, &len), 0);
	/* After signature_algorithms: certificate_authorities (47). */
	off = 15;
	KUNIT_ASSERT_EQ(test, len, off + 4 + 2 + 212);
	KUNIT_EXPECT_EQ(test, out[off] << 8 | out[off + 1], 47);
	KUNIT_EXPECT_EQ(test, out[off + 2] << 8 | out[off + 3], 2 + 212);
	KUNIT_EXPECT_EQ(test, out[off + 4] << 8 | out[off + 5], 212);
	off += 6;
	KUNIT_EXPECT_EQ(test, memcmp(out + off, dn1, sizeof(dn1)), 0);
	off += sizeof(dn1);
	KUNIT_EXPECT_EQ(test, memcmp(out + off, dn2, sizeof(dn2)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(out + off + 5, big, 200), 0);
	/* The lengths of the whole: message, extensions. */
	KUNIT_EXPECT_EQ(test, (size_t)(out[1] << 16 | out[2] << 8 | out[3]),
			len - 4);
	KUNIT_EXPECT_EQ(test, (size_t)(out[5] << 8 | out[6]), len - 7);

	KUNIT_ASSERT_EQ(test, build(ktls_hs12_build_certificate_request, &trust,
				    out, cap, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 12 + 212);
	KUNIT_EXPECT_EQ(test, out[10] << 8 | out[11], 212);
}

/* A TLS 1.3 Certificate of two entries "AB" and "CDE", no extensions. */
static const u8 cert13[] = {
	0x0b, 0x00, 0x00, 0x13,
	0x00,				/* context */
	0x00, 0x00, 0x0f,		/* certificate_list */
	0x00, 0x00, 0x02, 'A', 'B', 0x00, 0x00,
	0x00, 0x00, 0x03, 'C', 'D', 'E', 0x00, 0x00,
};

static void cert13_good(struct kunit *test)
{
	struct ktls_verify_cert c[KTLS_VERIFY_MAX_CERTS];
	unsigned int nr;
	int err;

	err = ktls_hs_parse_client_certificate(cert13, sizeof(cert13), true, c,
					       ARRAY_SIZE(c), &nr);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, nr, 2);
	KUNIT_EXPECT_PTR_EQ(test, c[0].der, cert13 + 11);
	KUNIT_EXPECT_EQ(test, c[0].len, 2);
	KUNIT_EXPECT_PTR_EQ(test, c[1].der, cert13 + 18);
	KUNIT_EXPECT_EQ(test, c[1].len, 3);
	/* More entries than room: bad_certificate, as the verifier's cap. */
	err = ktls_hs_parse_client_certificate(cert13, sizeof(cert13), true, c,
					       1, &nr);
	KUNIT_EXPECT_EQ(test, err, KTLS_ALERT_BAD_CERTIFICATE);
}

struct cert_case {
	const char *name;
	u8 msg[24];
	size_t len;
	bool tls13;
	int alert;
	unsigned int nr;
};

static const struct cert_case cert_cases[] = {
	{ "empty list", { 0x0b, 0, 0, 4, 0, 0, 0, 0 }, 8, true, 0, 0 },
	{ "TLS 1.2 empty list", { 0x0b, 0, 0, 3, 0, 0, 0 }, 7, false, 0, 0 },
	{ "TLS 1.2 one entry", { 0x0b, 0, 0, 7, 0, 0, 4, 0, 0, 1, 'X' }, 11,
	  false, 0, 1 },
	{ "another message type", { 0x0f, 0, 0, 4, 0, 0, 0, 0 }, 8, true,
	  KTLS_ALERT_UNEXPECTED_MESSAGE },
	{ "a context we did not send", { 0x0b, 0, 0, 5, 1, 7, 0, 0, 0 }, 9,
	  true, KTLS_ALERT_ILLEGAL_PARAMETER },
	{ "an entry with an extension",
	  { 0x0b, 0, 0, 14, 0, 0, 0, 10, 0, 0, 1, 'X', 0, 4, 0, 5, 0, 0 }, 18,
	  true, KTLS_ALERT_UNSUPPORTED_EXTENSION },
	{ "an empty cert_data", { 0x0b, 0, 0, 9, 0, 0, 0, 5, 0, 0, 0, 0, 0 },
	  13, true, KTLS_ALERT_DECODE_ERROR },
	{ "a list past the message", { 0x0b, 0, 0, 4, 0, 0, 0, 9 }, 8, true,
	  KTLS_ALERT_DECODE_ERROR },
	{ "a byte after the list", { 0x0b, 0, 0, 5, 0, 0, 0, 0, 0 }, 9, true,
	  KTLS_ALERT_DECODE_ERROR },
	{ "a message length past the bytes", { 0x0b, 0, 0, 9, 0, 0, 0, 0 }, 8,
	  true, KTLS_ALERT_DECODE_ERROR },
	{ "an entry without its extensions",
	  { 0x0b, 0, 0, 8, 0, 0, 0, 4, 0, 0, 1, 'X' }, 12, true,
	  KTLS_ALERT_DECODE_ERROR },
	{ "no context at all", { 0x0b, 0, 0, 0 }, 4, true,
	  KTLS_ALERT_DECODE_ERROR },
	{ "TLS 1.2 entry past the list", { 0x0b, 0, 0, 7, 0, 0, 4, 0, 0, 2, 'X' },
	  11, false, KTLS_ALERT_DECODE_ERROR },
};

static void cert_case_desc(const struct cert_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cert_case, cert_cases, cert_case_desc);

static void cert_parse(struct kunit *test)
{
	const struct cert_case *c = test->param_value;
	struct ktls_verify_cert certs[KTLS_VERIFY_MAX_CERTS];
	unsigned int nr = 99;
	int err;

	err = ktls_hs_parse_client_certificate(c->msg, c->len, c->tls13, certs,
					       ARRAY_SIZE(certs), &nr);
	KUNIT_EXPECT_EQ(test, err, c->alert);
	if (!c->alert)
		KUNIT_EXPECT_EQ(test, nr, c->nr);
}

static void cert_verify_parse(struct kunit *test)
{
	static const u8 good[] = { 0x0f, 0, 0, 7, 0x04, 0x03, 0, 3, 1, 2, 3 };
	static const u8 trailing[] = { 0x0f, 0, 0, 8, 0x04, 0x03, 0, 3, 1, 2, 3, 4 };
	static const u8 short_sig[] = { 0x0f, 0, 0, 6, 0x04, 0x03, 0, 3, 1, 2 };
	static const u8 no_scheme[] = { 0x0f, 0, 0, 1, 0x04 };
	static const u8 finished[] = { 0x14, 0, 0, 4, 0x04, 0x03, 0, 0 };
	struct ktls_hs_vec sig;
	u16 scheme;

#define CV(m)	ktls_hs_parse_certificate_verify(m, sizeof(m), &scheme, &sig)
	KUNIT_ASSERT_EQ(test, CV(good), 0);
	KUNIT_EXPECT_EQ(test, scheme, 0x0403);
	KUNIT_EXPECT_PTR_EQ(test, sig.data, good + 8);
	KUNIT_EXPECT_EQ(test, sig.len, 3);
	KUNIT_EXPECT_EQ(test, CV(trailing), KTLS_ALERT_DECODE_ERROR);
	KUNIT_EXPECT_EQ(test, CV(short_sig), KTLS_ALERT_DECODE_ERROR);
	KUNIT_EXPECT_EQ(test, CV(no_scheme), KTLS_ALERT_DECODE_ERROR);
	KUNIT_EXPECT_EQ(test, CV(finished), KTLS_ALERT_UNEXPECTED_MESSAGE);
#undef CV
}

static struct kunit_case client_cert_cases[] = {
	KUNIT_CASE(cr13_no_names),
	KUNIT_CASE(cr12),
	KUNIT_CASE(cr_names),
	KUNIT_CASE(cert13_good),
	KUNIT_CASE_PARAM(cert_parse, cert_case_gen_params),
	KUNIT_CASE(cert_verify_parse),
	{}
};

static struct kunit_suite client_cert_suite = {
	.name = "ktls_hs_client_cert",
	.test_cases = client_cert_cases,
};

kunit_test_suite(client_cert_suite);
