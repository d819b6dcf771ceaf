// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the identity bundle parsers: the DER reader's length and
 * tag rules, PEM armour and base64, the certificate walk on synthetic
 * certificates (wrong OIDs, trailing data, SAN edge cases), P-256 private
 * keys in both forms, the bundle-level errors, and SNI name matching.
 * Whole bundles with real certificates are the kselftest identity.sh.
 */
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include <ktls_hs/p256.h>

#include "../bundle.h"
#include "../der.h"
#include "../eckey.h"
#include "../pem.h"
#include "../x509.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Synthetic DER, built inside out. */
struct blob {
	const u8 *data;
	size_t len;
};

#define BLOB(...) ((struct blob){ (const u8[]){ __VA_ARGS__ }, \
				  sizeof((const u8[]){ __VA_ARGS__ }) })
#define NONE ((struct blob){ NULL, 0 })

/* One element with tag @tag whose contents are the @n blobs that follow. */
static struct blob tlv(struct kunit *test, u8 tag, unsigned int n, ...)
{
	struct blob parts[12];
	size_t len = 0, hdr;
	unsigned int i;
	va_list ap;
	u8 *out;

	KUNIT_ASSERT_LE(test, n, ARRAY_SIZE(parts));
	va_start(ap, n);
	for (i = 0; i < n; i++) {
		parts[i] = va_arg(ap, struct blob);
		len += parts[i].len;
	}
	va_end(ap);

	out = kunit_kzalloc(test, len + 4, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	out[0] = tag;
	if (len < 0x80) {
		out[1] = len;
		hdr = 2;
	} else if (len < 0x100) {
		out[1] = 0x81;
		out[2] = len;
		hdr = 3;
	} else {
		out[1] = 0x82;
		out[2] = len >> 8;
		out[3] = len;
		hdr = 4;
	}
	len = hdr;
	for (i = 0; i < n; i++) {
		if (parts[i].len)
			memcpy(out + len, parts[i].data, parts[i].len);
		len += parts[i].len;
	}
	return (struct blob){ out, len };
}

static struct blob cat(struct kunit *test, struct blob a, struct blob b)
{
	u8 *out = kunit_kzalloc(test, a.len + b.len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	memcpy(out, a.data, a.len);
	memcpy(out + a.len, b.data, b.len);
	return (struct blob){ out, a.len + b.len };
}

/* ------------------------------------------------------------------ DER */

static void der_lengths(struct kunit *test)
{
	static const struct {
		u8 bytes[8];
		u8 len;
		int err;
		size_t val_len;
	} cases[] = {
		{ { 0x04, 0x01, 0xaa }, 3, 0, 1 },
		{ { 0x04, 0x00 }, 2, 0, 0 },
		{ { 0x04, 0x02, 0xaa }, 3, -EBADMSG },		/* runs past the end */
		{ { 0x04 }, 1, -EBADMSG },			/* no length */
		{ { 0x04, 0x80, 0x00, 0x00 }, 4, -EBADMSG },	/* indefinite */
		{ { 0x04, 0x81, 0x05, 1, 2, 3, 4, 5 }, 8, -EBADMSG }, /* short form required */
		{ { 0x04, 0x82, 0x00, 0x01, 0xaa }, 5, -EBADMSG }, /* leading zero */
		{ { 0x04, 0x84, 0x01, 0x00, 0x00, 0x00 }, 6, -EBADMSG }, /* too many octets */
		{ { 0x04, 0x81 }, 2, -EBADMSG },		/* length octets missing */
		{ { 0x1f, 0x81, 0x01, 0x00 }, 4, -EBADMSG },	/* high tag number form */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ktls_der d = { cases[i].bytes, cases[i].len }, val;
		u8 tag;

		KUNIT_EXPECT_EQ_MSG(test, ktls_der_next(&d, &tag, &val),
				    cases[i].err, "case %u", i);
		if (!cases[i].err) {
			KUNIT_EXPECT_EQ(test, tag, 0x04);
			KUNIT_EXPECT_EQ(test, val.len, cases[i].val_len);
			KUNIT_EXPECT_EQ(test, d.len, 0);
		}
	}
}

static void der_long_form(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 3 + 200, GFP_KERNEL);
	struct ktls_der d, val;
	u8 tag;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf[0] = 0x04;
	buf[1] = 0x81;
	buf[2] = 200;
	d = (struct ktls_der){ buf, 3 + 200 };
	KUNIT_EXPECT_EQ(test, ktls_der_next(&d, &tag, &val), 0);
	KUNIT_EXPECT_EQ(test, val.len, 200);
	KUNIT_EXPECT_PTR_EQ(test, val.data, (const u8 *)buf + 3);

	/* One byte short of the length it announces. */
	d = (struct ktls_der){ buf, 3 + 199 };
	KUNIT_EXPECT_EQ(test, ktls_der_next(&d, &tag, &val), -EBADMSG);
}

static void der_get(struct kunit *test)
{
	static const u8 bytes[] = { 0x02, 0x01, 0x05, 0x04, 0x00 };
	struct ktls_der d = { bytes, sizeof(bytes) }, val;

	/* The wrong tag leaves the reader where it was. */
	KUNIT_EXPECT_EQ(test, ktls_der_get(&d, 0x04, &val), -EBADMSG);
	KUNIT_EXPECT_EQ(test, d.len, sizeof(bytes));
	KUNIT_EXPECT_EQ(test, ktls_der_get_optional(&d, 0x04, &val), 0);
	KUNIT_EXPECT_EQ(test, ktls_der_get(&d, 0x02, &val), 0);
	KUNIT_EXPECT_EQ(test, val.len, 1);
	KUNIT_EXPECT_EQ(test, ktls_der_get_optional(&d, 0x04, &val), 1);
	KUNIT_EXPECT_EQ(test, d.len, 0);
	KUNIT_EXPECT_EQ(test, ktls_der_get_optional(&d, 0x04, &val), 0);
}

/* ------------------------------------------------------------------ PEM */

static void base64(struct kunit *test)
{
	static const struct {
		const char *in;
		const char *out;
	} good[] = {
		{ "TWFu", "Man" }, { "TWE=", "Ma" }, { "TQ==", "M" }, { "", "" },
		{ " TW\r\nFu\tTQ\n==\n", "ManM" },
	};
	static const char * const bad[] = {
		"TWE",		/* unpadded */
		"TWF=",		/* bits set in the padding */
		"TQ=x",		/* data after padding */
		"T*Fu",		/* not base64 */
		"TQ===",	/* too much padding */
		"====",
	};
	const char *why = NULL;
	u8 out[16];
	size_t n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		KUNIT_EXPECT_EQ(test, ktls_base64_decode(good[i].in,
							 strlen(good[i].in),
							 out, &n, &why), 0);
		KUNIT_EXPECT_EQ(test, n, strlen(good[i].out));
		KUNIT_EXPECT_MEMEQ(test, out, good[i].out, n);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, ktls_base64_decode(bad[i],
							     strlen(bad[i]),
							     out, &n, &why),
				    -EBADMSG, "%s", bad[i]);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
}

static int pem_first(const char *text, struct ktls_pem *blk, const char **why)
{
	const char *pos = text;

	return ktls_pem_next(&pos, text + strlen(text), blk, why);
}

static void pem_blocks(struct kunit *test)
{
	static const char two[] =
		"junk before\n"
		"-----BEGIN EC PRIVATE KEY-----\nTWFu\n-----END EC PRIVATE KEY-----\n"
		"between\n"
		"-----BEGIN CERTIFICATE-----\r\nTQ==\r\n-----END CERTIFICATE-----";
	const char *pos = two, *end = two + strlen(two), *why = NULL;
	struct ktls_pem blk;

	KUNIT_ASSERT_EQ(test, ktls_pem_next(&pos, end, &blk, &why), 1);
	KUNIT_EXPECT_EQ(test, blk.label_len, strlen("EC PRIVATE KEY"));
	KUNIT_EXPECT_MEMEQ(test, blk.label, "EC PRIVATE KEY", blk.label_len);
	KUNIT_EXPECT_EQ(test, blk.body_len, 5);
	KUNIT_EXPECT_MEMEQ(test, blk.body, "TWFu\n", 5);
	KUNIT_ASSERT_EQ(test, ktls_pem_next(&pos, end, &blk, &why), 1);
	KUNIT_EXPECT_MEMEQ(test, blk.label, "CERTIFICATE", blk.label_len);
	KUNIT_EXPECT_EQ(test, ktls_pem_next(&pos, end, &blk, &why), 0);
	KUNIT_EXPECT_PTR_EQ(test, pos, end);
}

static void pem_bad(struct kunit *test)
{
	static const struct {
		const char *text;
		int ret;
	} cases[] = {
		{ "no armour here", 0 },
		/* BEGIN must start a line */
		{ "x-----BEGIN CERTIFICATE-----\nTQ==\n-----END CERTIFICATE-----\n", 0 },
		{ "-----BEGIN CERTIFICATE-----\nTQ==\n", -EBADMSG },
		{ "-----BEGIN CERTIFICATE-----\nTQ==\n-----END PRIVATE KEY-----\n", -EBADMSG },
		{ "-----BEGIN CERTIFICATE-----\nTQ==\n-----END CERTIFICATE\n", -EBADMSG },
		{ "-----BEGIN -----\n-----END -----\n", -EBADMSG },
		{ "-----BEGIN CERTIFICATE----- x\nTQ==\n-----END CERTIFICATE-----\n", -EBADMSG },
		{ "-----BEGIN CERT\x01-----\n-----END CERT\x01-----\n", -EBADMSG },
	};
	const char *why = NULL;
	struct ktls_pem blk;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, pem_first(cases[i].text, &blk, &why),
				    cases[i].ret, "case %u", i);
}

/* ----------------------------------------------------------------- X.509 */

#define OID_EC_PUBLIC_KEY	BLOB(0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01)
#define OID_P256		BLOB(0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07)
#define OID_P384		BLOB(0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22)
#define OID_RSA			BLOB(0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, \
				     0x01, 0x01, 0x01)
#define OID_ECDSA_SHA256	BLOB(0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02)
#define OID_SAN			BLOB(0x06, 0x03, 0x55, 0x1d, 0x11)
#define OID_CN			BLOB(0x06, 0x03, 0x55, 0x04, 0x03)
#define OID_O			BLOB(0x06, 0x03, 0x55, 0x04, 0x0a)

static u8 test_point[KTLS_IDENTITY_P256_PUB_SIZE];

static struct blob test_pub(struct kunit *test)
{
	unsigned int i;

	test_point[0] = 0x04;
	for (i = 1; i < sizeof(test_point); i++)
		test_point[i] = i;
	return tlv(test, 0x03, 2, BLOB(0x00),
		   ((struct blob){ test_point, sizeof(test_point) }));
}

static struct blob attr(struct kunit *test, struct blob oid, u8 type,
			const char *s)
{
	return tlv(test, 0x30, 2, oid,
		   tlv(test, type, 1, ((struct blob){ (const u8 *)s, strlen(s) })));
}

static struct blob subject(struct kunit *test)
{
	return tlv(test, 0x30, 2,
		   tlv(test, 0x31, 1, attr(test, OID_CN, 0x0c, "host")),
		   tlv(test, 0x31, 1, attr(test, OID_O, 0x13, "org")));
}

static struct blob text(const char *s)
{
	return (struct blob){ (const u8 *)s, strlen(s) };
}

/*
 * A certificate the kernel's X.509 parser takes too; its signature is
 * not one, but nobody here verifies it.
 */
static struct blob cert_signed_with(struct kunit *test, struct blob sig_oid,
				    struct blob spki, struct blob exts)
{
	struct blob alg = tlv(test, 0x30, 1, sig_oid);
	struct blob tbs;

	tbs = tlv(test, 0x30, 8,
		  tlv(test, 0xa0, 1, BLOB(0x02, 0x01, 0x02)),
		  BLOB(0x02, 0x01, 0x01),
		  alg,
		  tlv(test, 0x30, 1, tlv(test, 0x31, 1, attr(test, OID_CN, 0x0c, "ca"))),
		  tlv(test, 0x30, 2, tlv(test, 0x17, 1, text("250101000000Z")),
		      tlv(test, 0x17, 1, text("350101000000Z"))),
		  subject(test),
		  spki,
		  exts);
	return tlv(test, 0x30, 3, tbs, alg, BLOB(0x03, 0x03, 0x00, 0x30, 0x00));
}

static struct blob cert(struct kunit *test, struct blob spki, struct blob exts)
{
	return cert_signed_with(test, OID_ECDSA_SHA256, spki, exts);
}

static struct blob p256_spki(struct kunit *test)
{
	return tlv(test, 0x30, 2, tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
		   test_pub(test));
}

static struct blob san_ext(struct kunit *test, struct blob names)
{
	return tlv(test, 0x30, 2, OID_SAN,
		   tlv(test, 0x04, 1, tlv(test, 0x30, 1, names)));
}

static struct blob exts(struct kunit *test, struct blob ext1, struct blob ext2)
{
	return tlv(test, 0xa3, 1, tlv(test, 0x30, 2, ext1, ext2));
}

static struct blob good_names(struct kunit *test)
{
	return cat(test, cat(test,
			     BLOB(0x82, 0x09, 'a', '.', 'e', 'x', 'a', 'm', 'p', 'l', 'e'),
			     BLOB(0x81, 0x03, 'x', '@', 'y')),	/* rfc822Name: skipped */
		   BLOB(0x87, 0x04, 127, 0, 0, 1));
}

static void x509_good(struct kunit *test)
{
	struct blob c = cert(test, p256_spki(test),
			     exts(test, san_ext(test, good_names(test)), NONE));
	u8 pub[KTLS_IDENTITY_P256_PUB_SIZE];
	struct ktls_identity_name name;
	const char *why = NULL;
	struct ktls_x509 x;
	char buf[64];

	KUNIT_ASSERT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), 0);
	KUNIT_EXPECT_EQ(test, ktls_x509_p256_key(&x, pub, &why), 0);
	KUNIT_EXPECT_MEMEQ(test, pub, test_point, sizeof(pub));

	KUNIT_EXPECT_EQ(test, ktls_x509_format_name(&x.subject, buf, sizeof(buf)),
			strlen("CN=host, O=org"));
	KUNIT_EXPECT_STREQ(test, buf, "CN=host, O=org");

	KUNIT_ASSERT_EQ(test, ktls_x509_next_name(&x.san, &name, &why), 1);
	KUNIT_EXPECT_EQ(test, name.type, KTLS_IDENTITY_NAME_DNS);
	KUNIT_EXPECT_EQ(test, name.len, 9);
	KUNIT_EXPECT_MEMEQ(test, name.name, "a.example", 9);
	KUNIT_ASSERT_EQ(test, ktls_x509_next_name(&x.san, &name, &why), 1);
	KUNIT_EXPECT_EQ(test, name.type, KTLS_IDENTITY_NAME_IP);
	KUNIT_EXPECT_EQ(test, name.len, 4);
	KUNIT_EXPECT_EQ(test, ktls_x509_next_name(&x.san, &name, &why), 0);
}

static void x509_structure(struct kunit *test)
{
	struct blob c = cert(test, p256_spki(test), NONE);
	struct blob spki_trail, ext_dup;
	const char *why = NULL;
	struct ktls_x509 x;

	/* No extensions at all is fine, and leaves no SAN. */
	KUNIT_EXPECT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), 0);
	KUNIT_EXPECT_EQ(test, x.san.len, 0);

	/* Trailing garbage after the certificate, and a truncated one. */
	c = cat(test, c, BLOB(0x00));
	KUNIT_EXPECT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), -EBADMSG);
	KUNIT_EXPECT_EQ(test, ktls_x509_parse(&x, c.data, c.len - 2, &why), -EBADMSG);

	/* Trailing garbage inside the subjectPublicKeyInfo. */
	spki_trail = tlv(test, 0x30, 3,
			 tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
			 test_pub(test), BLOB(0x05, 0x00));
	c = cert(test, spki_trail, NONE);
	KUNIT_EXPECT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), -EBADMSG);

	/* Two subjectAltName extensions. */
	ext_dup = san_ext(test, good_names(test));
	c = cert(test, p256_spki(test), exts(test, ext_dup, ext_dup));
	KUNIT_EXPECT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), -EBADMSG);

	/* An empty extensions list. */
	c = cert(test, p256_spki(test), tlv(test, 0xa3, 1, tlv(test, 0x30, 0)));
	KUNIT_EXPECT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), -EBADMSG);
}

static void x509_key_types(struct kunit *test)
{
	static const u8 compressed[34] = { 0x00, 0x02 };
	const struct {
		struct blob spki;
		int err;
	} cases[] = {
		{ tlv(test, 0x30, 2, tlv(test, 0x30, 2, OID_RSA, BLOB(0x05, 0x00)),
		      BLOB(0x03, 0x02, 0x00, 0x00)), -ENOPKG },
		{ tlv(test, 0x30, 2, tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P384),
		      test_pub(test)), -ENOPKG },
		{ tlv(test, 0x30, 2, tlv(test, 0x30, 1, OID_EC_PUBLIC_KEY),
		      test_pub(test)), -ENOPKG },
		{ tlv(test, 0x30, 2, tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
		      tlv(test, 0x03, 1, ((struct blob){ compressed, sizeof(compressed) }))),
		  -ENOPKG },
		{ tlv(test, 0x30, 2, tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
		      BLOB(0x03, 0x03, 0x00, 0x04, 0x01)), -EBADMSG },
	};
	u8 pub[KTLS_IDENTITY_P256_PUB_SIZE];
	const char *why = NULL;
	struct ktls_x509 x;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct blob c = cert(test, cases[i].spki, NONE);

		KUNIT_ASSERT_EQ(test, ktls_x509_parse(&x, c.data, c.len, &why), 0);
		KUNIT_EXPECT_EQ_MSG(test, ktls_x509_p256_key(&x, pub, &why),
				    cases[i].err, "case %u", i);
	}
}

static void x509_bad_names(struct kunit *test)
{
	const struct blob names[] = {
		BLOB(0x82, 0x03, 'a', ' ', 'b'),	/* space in a dNSName */
		BLOB(0x82, 0x02, 'a', 0x00),		/* NUL in a dNSName */
		BLOB(0x82, 0x00),			/* empty dNSName */
		BLOB(0x87, 0x05, 1, 2, 3, 4, 5),	/* 5-byte iPAddress */
		BLOB(0x82, 0x05, 'a'),			/* runs past the end */
	};
	struct ktls_identity_name name;
	const char *why = NULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct ktls_der san = { names[i].data, names[i].len };

		KUNIT_EXPECT_EQ_MSG(test, ktls_x509_next_name(&san, &name, &why),
				    -EBADMSG, "case %u", i);
	}
}

static void x509_format(struct kunit *test)
{
	/* 1.3.6.1.4.1.311.60.2.1.3, jurisdictionOfIncorporationCountryName */
	struct blob ev = BLOB(0x06, 0x0b, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82,
			      0x37, 0x3c, 0x02, 0x01, 0x03);
	struct blob name;
	struct ktls_der d;
	char buf[80];

	name = cat(test,
		   tlv(test, 0x31, 2, attr(test, OID_CN, 0x0c, "a\nb"),
		       attr(test, OID_O, 0x1e, "\x01")),
		   tlv(test, 0x31, 1, attr(test, ev, 0x13, "DE")));
	d = (struct ktls_der){ name.data, name.len };
	KUNIT_EXPECT_EQ(test, ktls_x509_format_name(&d, buf, sizeof(buf)),
			strlen("CN=a?b+O=#01, 1.3.6.1.4.1.311.60.2.1.3=DE"));
	KUNIT_EXPECT_STREQ(test, buf, "CN=a?b+O=#01, 1.3.6.1.4.1.311.60.2.1.3=DE");

	/* Cut short, still terminated, still tells the whole length. */
	KUNIT_EXPECT_EQ(test, ktls_x509_format_name(&d, buf, 5), 41);
	KUNIT_EXPECT_STREQ(test, buf, "CN=a");

	/* An RDN that is not a SET, and an empty one. */
	name = tlv(test, 0x30, 1, attr(test, OID_CN, 0x0c, "x"));
	d = (struct ktls_der){ name.data, name.len };
	KUNIT_EXPECT_EQ(test, ktls_x509_format_name(&d, buf, sizeof(buf)), -EBADMSG);
	d = (struct ktls_der){ (const u8 *)"\x31\x00", 2 };
	KUNIT_EXPECT_EQ(test, ktls_x509_format_name(&d, buf, sizeof(buf)), -EBADMSG);
}

/* ------------------------------------------------------------- EC keys */

static u8 test_scalar[KTLS_IDENTITY_P256_PRIV_SIZE];

static struct blob scalar(struct kunit *test, size_t len)
{
	memset(test_scalar, 0x5a, sizeof(test_scalar));
	return tlv(test, 0x04, 1, ((struct blob){ test_scalar, len }));
}

static struct blob sec1(struct kunit *test, u8 version, struct blob priv,
			struct blob params, struct blob pub)
{
	return tlv(test, 0x30, 4, BLOB(0x02, 0x01, version), priv, params, pub);
}

static void eckey_forms(struct kunit *test)
{
	struct blob params = tlv(test, 0xa0, 1, OID_P256);
	struct blob pub = tlv(test, 0xa1, 1, test_pub(test));
	struct blob bare = sec1(test, 1, scalar(test, 32), NONE, NONE);
	struct blob full = sec1(test, 1, scalar(test, 32), params, pub);
	struct blob p8;
	u8 priv[KTLS_IDENTITY_P256_PRIV_SIZE], point[KTLS_IDENTITY_P256_PUB_SIZE];
	const char *why = NULL;
	bool has_pub = true;

	KUNIT_EXPECT_EQ(test, ktls_eckey_parse(bare.data, bare.len, priv, point,
					       &has_pub, &why), 0);
	KUNIT_EXPECT_FALSE(test, has_pub);
	KUNIT_EXPECT_MEMEQ(test, priv, test_scalar, sizeof(priv));

	KUNIT_EXPECT_EQ(test, ktls_eckey_parse(full.data, full.len, priv, point,
					       &has_pub, &why), 0);
	KUNIT_EXPECT_TRUE(test, has_pub);
	KUNIT_EXPECT_MEMEQ(test, point, test_point, sizeof(point));

	p8 = tlv(test, 0x30, 3, BLOB(0x02, 0x01, 0x00),
		 tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
		 tlv(test, 0x04, 1, sec1(test, 1, scalar(test, 32), NONE, pub)));
	memset(priv, 0, sizeof(priv));
	KUNIT_EXPECT_EQ(test, ktls_eckey_parse(p8.data, p8.len, priv, point,
					       &has_pub, &why), 0);
	KUNIT_EXPECT_TRUE(test, has_pub);
	KUNIT_EXPECT_MEMEQ(test, priv, test_scalar, sizeof(priv));
}

static void eckey_bad(struct kunit *test)
{
	struct blob rsa_alg = tlv(test, 0x30, 2, OID_RSA, BLOB(0x05, 0x00));
	struct blob p384 = tlv(test, 0xa0, 1, OID_P384);
	const struct {
		struct blob der;
		int err;
	} cases[] = {
		{ sec1(test, 2, scalar(test, 32), NONE, NONE), -EBADMSG },
		{ sec1(test, 1, scalar(test, 31), NONE, NONE), -ENOPKG },
		{ sec1(test, 1, scalar(test, 32), p384, NONE), -ENOPKG },
		{ cat(test, sec1(test, 1, scalar(test, 32), NONE, NONE), BLOB(0)),
		  -EBADMSG },
		{ tlv(test, 0x30, 3, BLOB(0x02, 0x01, 0x00), rsa_alg,
		      tlv(test, 0x04, 1, BLOB(0x30, 0x00))), -ENOPKG },
		{ tlv(test, 0x30, 3, BLOB(0x02, 0x01, 0x05),
		      tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
		      tlv(test, 0x04, 1, sec1(test, 1, scalar(test, 32), NONE, NONE))),
		  -EBADMSG },
		/* PKCS#1 RSAPrivateKey */
		{ tlv(test, 0x30, 3, BLOB(0x02, 0x01, 0x00), BLOB(0x02, 0x01, 0x0f),
		      BLOB(0x02, 0x01, 0x03)), -ENOPKG },
		{ BLOB(0x30, 0x03, 0x02, 0x01, 0x01), -EBADMSG },
	};
	u8 priv[KTLS_IDENTITY_P256_PRIV_SIZE], pub[KTLS_IDENTITY_P256_PUB_SIZE];
	const char *why;
	bool has_pub;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		why = NULL;
		KUNIT_EXPECT_EQ_MSG(test, ktls_eckey_parse(cases[i].der.data,
							   cases[i].der.len,
							   priv, pub, &has_pub,
							   &why),
				    cases[i].err, "case %u", i);
		KUNIT_EXPECT_NOT_NULL(test, why);
	}
}

/* --------------------------------------------------------------- bundle */

static int bundle_err(struct kunit *test, struct blob b)
{
	struct ktls_identity *id;
	const char *why = NULL;

	id = ktls_bundle_parse(b.data, b.len, &why);
	KUNIT_EXPECT_TRUE(test, IS_ERR(id));
	if (!IS_ERR(id)) {
		ktls_identity_put(id);
		return 0;
	}
	KUNIT_EXPECT_NOT_NULL(test, why);
	return PTR_ERR(id);
}

static void bundle_errors(struct kunit *test)
{
	struct blob c = cert(test, p256_spki(test), NONE);
	struct blob k = sec1(test, 1, scalar(test, 32), NONE, NONE);
	struct blob chain = c, big;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, bundle_err(test, NONE), -EINVAL);
	KUNIT_EXPECT_EQ(test, bundle_err(test, BLOB('h', 'i')), -EINVAL);
	KUNIT_EXPECT_EQ(test, bundle_err(test, k), -ENODATA);
	KUNIT_EXPECT_EQ(test, bundle_err(test, c), -ENOKEY);
	KUNIT_EXPECT_EQ(test, bundle_err(test, cat(test, cat(test, c, k), k)),
			-EINVAL);
	big = cat(test, c, k);
	KUNIT_EXPECT_EQ(test, bundle_err(test, (struct blob){ big.data, big.len - 1 }),
			-EBADMSG);
	/* DER elements that are not SEQUENCEs */
	KUNIT_EXPECT_EQ(test, bundle_err(test, cat(test, big, BLOB(0x04, 0x00))),
			-EBADMSG);

	for (i = 1; i < KTLS_IDENTITY_MAX_CERTS + 1; i++)
		chain = cat(test, chain, c);
	KUNIT_EXPECT_EQ(test, bundle_err(test, cat(test, chain, k)), -E2BIG);

	big.len = KTLS_IDENTITY_MAX_PAYLOAD + 1;
	big.data = kunit_kzalloc(test, big.len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big.data);
	KUNIT_EXPECT_EQ(test, bundle_err(test, big), -EMSGSIZE);
}

static void bundle_pem_errors(struct kunit *test)
{
	static const char * const texts[] = {
		"-----BEGIN RSA PRIVATE KEY-----\nMAA=\n-----END RSA PRIVATE KEY-----\n",
		"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMAA=\n-----END ENCRYPTED PRIVATE KEY-----\n",
		"-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\n",
		/* not one DER element: a trailing byte */
		"-----BEGIN CERTIFICATE-----\nMAAA\n-----END CERTIFICATE-----\n",
		"-----BEGIN CERTIFICATE-----\nMA=A\n-----END CERTIFICATE-----\n",
		/* only parameters: no certificate */
		"-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n",
	};
	static const int errs[] = {
		-ENOPKG, -ENOPKG, -EINVAL, -EBADMSG, -EBADMSG, -ENODATA,
	};
	struct blob b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		b = (struct blob){ (const u8 *)texts[i], strlen(texts[i]) };
		KUNIT_EXPECT_EQ_MSG(test, bundle_err(test, b), errs[i],
				    "case %u", i);
	}
}

/* ------------------------------------------- whole bundles, real keys */

/*
 * A certificate signed with @sig_oid for the key whose scalar is @fill
 * repeated, and the key.
 */
static struct blob real_bundle_signed(struct kunit *test, struct blob sig_oid,
				      u8 fill, struct blob names,
				      struct blob *leaf)
{
	u8 *priv = kunit_kzalloc(test, KTLS_P256_SCALAR_LEN, GFP_KERNEL);
	u8 *pub = kunit_kzalloc(test, KTLS_P256_POINT_LEN, GFP_KERNEL);
	struct blob spki, key;

	KUNIT_ASSERT_NOT_NULL(test, priv);
	KUNIT_ASSERT_NOT_NULL(test, pub);
	memset(priv, fill, KTLS_P256_SCALAR_LEN);
	KUNIT_ASSERT_EQ(test, ktls_p256_public_key(pub, priv), 0);

	spki = tlv(test, 0x30, 2, tlv(test, 0x30, 2, OID_EC_PUBLIC_KEY, OID_P256),
		   tlv(test, 0x03, 2, BLOB(0x00),
		       ((struct blob){ pub, KTLS_P256_POINT_LEN })));
	*leaf = cert_signed_with(test, sig_oid, spki,
				 names.len ? exts(test, san_ext(test, names), NONE) :
					     NONE);
	key = sec1(test, 1, tlv(test, 0x04, 1,
				((struct blob){ priv, KTLS_P256_SCALAR_LEN })),
		   NONE, NONE);
	return cat(test, *leaf, key);
}

static struct blob real_bundle(struct kunit *test, u8 fill, struct blob names,
			       struct blob *leaf)
{
	return real_bundle_signed(test, OID_ECDSA_SHA256, fill, names, leaf);
}

static void bundle_real(struct kunit *test)
{
	struct blob leaf, other, odd, b, key1, key2;
	struct ktls_identity *id;
	const char *why = NULL;
	size_t i;
	u8 *date;

	b = real_bundle(test, 0x5a, good_names(test), &leaf);
	key1 = (struct blob){ b.data + leaf.len, b.len - leaf.len };
	id = ktls_bundle_parse(b.data, b.len, &why);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(id), "%ld: %s", PTR_ERR(id), why);
	KUNIT_EXPECT_EQ(test, id->nr_certs, 1);
	KUNIT_EXPECT_EQ(test, id->chain_len, leaf.len);
	KUNIT_EXPECT_MEMEQ(test, id->chain, leaf.data, leaf.len);
	KUNIT_EXPECT_STREQ(test, id->subject, "CN=host, O=org");
	KUNIT_EXPECT_EQ(test, id->nr_names, 2);
	KUNIT_EXPECT_TRUE(test, ktls_identity_matches_name(id, "a.example", 9));
	KUNIT_EXPECT_FALSE(test, ktls_identity_matches_name(id, "b.example", 9));
	ktls_identity_put(id);

	/* The leaf with another key. */
	b = real_bundle(test, 0x5b, NONE, &other);
	key2 = (struct blob){ b.data + other.len, b.len - other.len };
	b = cat(test, leaf, key2);
	id = ktls_bundle_parse(b.data, b.len, &why);
	KUNIT_EXPECT_EQ(test, PTR_ERR(id), -EKEYREJECTED);

	/* Certificates only the kernel's parser refuses: a 13th month, */
	b = cat(test, leaf, key1);
	date = (u8 *)b.data;
	for (i = 0; i + 13 <= b.len; i++, date++) {
		if (!memcmp(date, "250101000000Z", 13))
			break;
	}
	KUNIT_ASSERT_LE(test, i + 13, b.len);
	date[2] = '1';
	date[3] = '3';
	KUNIT_EXPECT_EQ(test, PTR_ERR(ktls_bundle_parse(b.data, b.len, &why)),
			-EBADMSG);
	/* and a signature algorithm it does not know (1.2.3.4). */
	b = real_bundle_signed(test, BLOB(0x06, 0x03, 0x2a, 0x03, 0x04), 0x5a,
			       NONE, &odd);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ktls_bundle_parse(b.data, b.len, &why)),
			-ENOPKG);

	/* A chain of two keeps its order. */
	b = cat(test, cat(test, leaf, other), key1);
	id = ktls_bundle_parse(b.data, b.len, &why);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(id), "%ld: %s", PTR_ERR(id), why);
	KUNIT_EXPECT_EQ(test, id->nr_certs, 2);
	KUNIT_EXPECT_EQ(test, id->certs[1].len, other.len);
	KUNIT_EXPECT_MEMEQ(test, id->certs[1].der, other.data, other.len);
	ktls_identity_put(id);
}

static void put_key(void *key)
{
	key_put(key);
}

/* What a handshake holds survives update and revoke of the key. */
static void key_lifecycle(struct kunit *test)
{
	struct ktls_identity *id1, *id2;
	struct blob b1, b2, leaf1, leaf2;
	struct key *ring, *key;
	key_ref_t ref;

	b1 = real_bundle(test, 0x5a, good_names(test), &leaf1);
	b2 = real_bundle(test, 0x33, NONE, &leaf2);

	ring = keyring_alloc("ktls_hs_kunit", GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
			     current_cred(), KEY_POS_ALL | KEY_USR_ALL,
			     KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ring));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_key, ring), 0);
	ref = key_create_or_update(make_key_ref(ring, true), "ktls_identity",
				   "kunit", b1.data, b1.len,
				   KEY_POS_ALL | KEY_USR_ALL,
				   KEY_ALLOC_NOT_IN_QUOTA);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ref), "%ld", PTR_ERR(ref));
	key = key_ref_to_ptr(ref);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, put_key, key), 0);

	KUNIT_EXPECT_EQ(test, PTR_ERR(ktls_identity_get(ring)), -EINVAL);
	id1 = ktls_identity_get(key);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id1));
	KUNIT_EXPECT_EQ(test, id1->nr_names, 2);

	KUNIT_EXPECT_EQ(test, key_update(ref, b2.data, b2.len), 0);
	id2 = ktls_identity_get(key);
	KUNIT_ASSERT_FALSE(test, IS_ERR(id2));
	KUNIT_EXPECT_PTR_NE(test, id1, id2);
	KUNIT_EXPECT_EQ(test, id2->nr_names, 0);
	KUNIT_EXPECT_MEMEQ(test, id2->chain, leaf2.data, leaf2.len);

	key_revoke(key);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ktls_identity_get(key)), -EKEYREVOKED);

	/* The holders still have what they took. */
	KUNIT_EXPECT_MEMEQ(test, id1->chain, leaf1.data, leaf1.len);
	KUNIT_EXPECT_TRUE(test, ktls_identity_matches_name(id1, "a.example", 9));
	KUNIT_EXPECT_MEMEQ(test, id2->chain, leaf2.data, leaf2.len);
	ktls_identity_put(id1);
	ktls_identity_put(id2);
}

/* ----------------------------------------------------------- SNI match */

static void name_match(struct kunit *test)
{
	static const u8 ip[4] = { 127, 0, 0, 1 };
	struct ktls_identity_name names[] = {
		{ KTLS_IDENTITY_NAME_IP, 4, ip },
		{ KTLS_IDENTITY_NAME_DNS, 16, (const u8 *)"www.Example.TEST" },
		{ KTLS_IDENTITY_NAME_DNS, 10, (const u8 *)"*.wild.org" },
		{ KTLS_IDENTITY_NAME_DNS, 5, (const u8 *)"*.com" },
		{ KTLS_IDENTITY_NAME_DNS, 9, (const u8 *)"f*.x.test" },
	};
	struct ktls_identity id = { .names = names, .nr_names = ARRAY_SIZE(names) };
	static const struct {
		const char *name;
		bool match;
	} cases[] = {
		{ "www.example.test", true },
		{ "WWW.EXAMPLE.test", true },
		{ "example.test", false },
		{ "www.example.test.", false },
		{ "a.wild.org", true },
		{ "A.WILD.ORG", true },
		{ "wild.org", false },
		{ ".wild.org", false },
		{ "a.b.wild.org", false },
		{ "*.wild.org", false },
		{ "a.com", false },
		{ "foo.x.test", false },
		{ "127.0.0.1", false },
		{ "", false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    ktls_identity_matches_name(&id, cases[i].name,
							       strlen(cases[i].name)),
				    cases[i].match, "%s", cases[i].name);
	/* A NUL inside the length never matches a shorter name. */
	KUNIT_EXPECT_FALSE(test, ktls_identity_matches_name(&id, "a.wild.org\0x", 12));
}

static struct kunit_case identity_cases[] = {
	KUNIT_CASE(der_lengths),
	KUNIT_CASE(der_long_form),
	KUNIT_CASE(der_get),
	KUNIT_CASE(base64),
	KUNIT_CASE(pem_blocks),
	KUNIT_CASE(pem_bad),
	KUNIT_CASE(x509_good),
	KUNIT_CASE(x509_structure),
	KUNIT_CASE(x509_key_types),
	KUNIT_CASE(x509_bad_names),
	KUNIT_CASE(x509_format),
	KUNIT_CASE(eckey_forms),
	KUNIT_CASE(eckey_bad),
	KUNIT_CASE(bundle_errors),
	KUNIT_CASE(bundle_pem_errors),
	KUNIT_CASE(bundle_real),
	KUNIT_CASE(key_lifecycle),
	KUNIT_CASE(name_match),
	{}
};

static struct kunit_suite identity_suite = {
	.name = "ktls_hs_identity",
	.test_cases = identity_cases,
};

kunit_test_suite(identity_suite);
