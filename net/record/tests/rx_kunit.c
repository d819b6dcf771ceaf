// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of what the RX framer refuses (record.c, as rx.c calls it):
 * record headers of the wrong length or version for each framing, and
 * TLS 1.3 inner plaintexts, padded across page boundaries or made of
 * nothing but padding.  The expected lengths are written out per suite
 * rather than computed, so a change of the framing shows here.  The
 * errnos are those of the in-tree net/tls, which tls.c checks end to end.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "../record.h"

/*
 * The record lengths one framing accepts.  min_body: explicit nonce and
 * tag.  max_body: 16 KiB of plaintext, 1.3 inner type, nonce and tag;
 * upstream takes no TLS 1.3 padding beyond that, nor do we.
 */
struct rx_framing {
	const char *name;
	u16 version;
	u16 cipher;
	unsigned int min_body;
	unsigned int max_body;
};

static const struct rx_framing rx_framings[] = {
	{ "tls12_aes_gcm_128", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 24, 16408 },
	{ "tls12_aes_gcm_256", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_256, 24, 16408 },
	{ "tls12_aes_ccm_128", TLS_1_2_VERSION, TLS_CIPHER_AES_CCM_128, 24, 16408 },
	{ "tls12_chacha20", TLS_1_2_VERSION, TLS_CIPHER_CHACHA20_POLY1305, 16, 16400 },
	{ "tls12_aria_gcm_128", TLS_1_2_VERSION, TLS_CIPHER_ARIA_GCM_128, 24, 16408 },
	{ "tls13_aes_gcm_128", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128, 16, 16401 },
	{ "tls13_aes_ccm_128", TLS_1_3_VERSION, TLS_CIPHER_AES_CCM_128, 16, 16401 },
	{ "tls13_chacha20", TLS_1_3_VERSION, TLS_CIPHER_CHACHA20_POLY1305, 16, 16401 },
	{ "tls13_sm4_gcm", TLS_1_3_VERSION, TLS_CIPHER_SM4_GCM, 16, 16401 },
};

static void rx_framing_desc(const struct rx_framing *f, char *desc)
{
	strscpy(desc, f->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rx_framing, rx_framings, rx_framing_desc);

static void rx_prot(struct kunit *test, struct ktls_prot *prot)
{
	const struct rx_framing *f = test->param_value;
	const struct ktls_cipher *cs = ktls_cipher_find(f->cipher);

	KUNIT_ASSERT_NOT_NULL(test, cs);
	memset(prot, 0, sizeof(*prot));
	ktls_prot_init(prot, f->version, cs);
}

static int rx_parse(const struct ktls_prot *prot, u8 type, u16 version,
		    unsigned int body)
{
	u8 hdr[KTLS_HEADER_LEN] = { type };

	put_unaligned_be16(version, hdr + 1);
	put_unaligned_be16(body, hdr + 3);
	return ktls_record_parse_header(prot, hdr);
}

/* The shortest and longest bodies pass, one byte either way does not. */
static void rx_header_length_bounds(struct kunit *test)
{
	const struct rx_framing *f = test->param_value;
	struct ktls_prot prot;

	rx_prot(test, &prot);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, f->min_body),
			KTLS_HEADER_LEN + f->min_body);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, f->max_body),
			KTLS_HEADER_LEN + f->max_body);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, f->min_body - 1),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, f->max_body + 1),
			-EMSGSIZE);
}

/*
 * A body of 0, of the tag alone (without the TLS 1.2 explicit nonce), of
 * RFC 8446's 2^14 + 256 (which upstream refuses as well: it allows no
 * padding past 16 KiB), and the largest a header can announce.
 */
static void rx_header_length_edges(struct kunit *test)
{
	struct ktls_prot prot;

	rx_prot(test, &prot);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, 0), -EBADMSG);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, 1), -EBADMSG);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303,
				       prot.tag_len),
			prot.nonce_len ? -EBADMSG : KTLS_HEADER_LEN + prot.tag_len);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303,
				       SZ_16K + 256), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0303, 0xffff),
			-EMSGSIZE);
}

/* Every record, 1.2 or 1.3, says 3,3 (RFC 8446 5.1 legacy_record_version). */
static void rx_header_version(struct kunit *test)
{
	static const u16 bad[] = {
		0x0000, 0x0003, 0x0300, 0x0301, 0x0302, 0x0304, 0x0403,
		0xfefd, 0xffff,
	};
	const struct rx_framing *f = test->param_value;
	struct ktls_prot prot;
	unsigned int i;

	rx_prot(test, &prot);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, rx_parse(&prot, KTLS_TYPE_DATA, bad[i],
						   f->min_body),
				    -EINVAL, "version %#06x", bad[i]);
}

/* A header wrong in several ways fails as upstream's does: length first. */
static void rx_header_error_order(struct kunit *test)
{
	const struct rx_framing *f = test->param_value;
	struct ktls_prot prot;

	rx_prot(test, &prot);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0301,
				       f->max_body + 1), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, KTLS_TYPE_DATA, 0x0301, 0),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, rx_parse(&prot, 0, 0x0301, f->min_body), -EINVAL);
}

/*
 * The content type is not the framer's to judge: the AAD covers it in
 * TLS 1.2, TLS 1.3 ignores the outer one, and an undefined type reaches
 * the reader as a control record.
 */
static void rx_header_any_type(struct kunit *test)
{
	static const u8 types[] = { 0, 1, 20, 21, 22, 23, 24, 0x63, 0xff };
	const struct rx_framing *f = test->param_value;
	struct ktls_prot prot;
	unsigned int i;

	rx_prot(test, &prot);
	for (i = 0; i < ARRAY_SIZE(types); i++)
		KUNIT_EXPECT_EQ_MSG(test, rx_parse(&prot, types[i], 0x0303,
						   f->min_body),
				    KTLS_HEADER_LEN + f->min_body,
				    "type %u", types[i]);
}

/*
 * A record buffer laid out as rx.c's: the largest TLS 1.3 record (header,
 * 16 KiB of plaintext, inner type, tag) over whole pages.
 */
#define RX_BUF_LEN	(KTLS_HEADER_LEN + KTLS_MAX_PLAINTEXT + 1 + KTLS_MAX_TAG_LEN)
#define RX_BUF_PAGES	DIV_ROUND_UP(RX_BUF_LEN, PAGE_SIZE)

struct rx_buf {
	struct page *pages[RX_BUF_PAGES];
};

static void rx_buf_free(void *arg)
{
	struct rx_buf *b = arg;
	unsigned int i;

	for (i = 0; i < RX_BUF_PAGES; i++)
		if (b->pages[i])
			__free_page(b->pages[i]);
}

/* Pages filled with 0xaa: whatever the scan must not look at is non-zero. */
static struct rx_buf *rx_buf_alloc(struct kunit *test)
{
	struct rx_buf *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rx_buf_free, b), 0);
	for (i = 0; i < RX_BUF_PAGES; i++) {
		b->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, b->pages[i]);
		memset(page_address(b->pages[i]), 0xaa, PAGE_SIZE);
	}
	return b;
}

static void rx_buf_set(struct rx_buf *b, unsigned int pos, int c,
		       unsigned int len)
{
	while (len) {
		unsigned int n = min_t(unsigned int, len,
				       PAGE_SIZE - offset_in_page(pos));

		memset(page_address(b->pages[pos / PAGE_SIZE]) +
		       offset_in_page(pos), c, n);
		pos += n;
		len -= n;
	}
}

static void rx_buf_put(struct rx_buf *b, unsigned int pos, u8 c)
{
	rx_buf_set(b, pos, c, 1);
}

/*
 * Lay out content of @len bytes at @start (non-zero but for one zero
 * byte in its middle), the type @type, then @pad zero bytes; check that
 * the type and the content length come back.
 */
static void rx_inner_check(struct kunit *test, struct rx_buf *b,
			   unsigned int start, unsigned int len, u8 type,
			   unsigned int pad)
{
	unsigned int end = start + len + 1 + pad;
	u8 got = 0;

	KUNIT_ASSERT_LE(test, end, RX_BUF_PAGES * PAGE_SIZE);
	rx_buf_set(b, start, 0x5a, len);
	if (len > 2)
		rx_buf_put(b, start + len / 2, 0);
	rx_buf_put(b, start + len, type);
	rx_buf_set(b, start + len + 1, 0, pad);
	KUNIT_EXPECT_EQ_MSG(test, ktls_record_inner_type(b->pages, start, end, &got),
			    (int)(start + len),
			    "start %u len %u pad %u", start, len, pad);
	KUNIT_EXPECT_EQ(test, got, type);
}

/* Unpadded, padded, and empty content of each type. */
static void rx_inner_type_found(struct kunit *test)
{
	struct rx_buf *b = rx_buf_alloc(test);

	rx_inner_check(test, b, KTLS_HEADER_LEN, 3, KTLS_TYPE_DATA, 0);
	rx_inner_check(test, b, KTLS_HEADER_LEN, 3, KTLS_TYPE_DATA, 100);
	rx_inner_check(test, b, KTLS_HEADER_LEN, 0, KTLS_TYPE_ALERT, 0);
	rx_inner_check(test, b, KTLS_HEADER_LEN, 0, KTLS_TYPE_HANDSHAKE, 37);
	rx_inner_check(test, b, KTLS_HEADER_LEN, 2, 0xff, 1);
	/* 16 KiB of content, and a type with no content and 16 KiB of padding. */
	rx_inner_check(test, b, KTLS_HEADER_LEN, KTLS_MAX_PLAINTEXT,
		       KTLS_TYPE_DATA, 0);
	rx_inner_check(test, b, KTLS_HEADER_LEN, 0, KTLS_TYPE_DATA,
		       KTLS_MAX_PLAINTEXT);
}

/* The type byte, the padding, or both crossing page boundaries. */
static void rx_inner_type_page_edges(struct kunit *test)
{
	struct rx_buf *b = rx_buf_alloc(test);
	unsigned int start = KTLS_HEADER_LEN;

	/* Type in the last byte of a page, the padding fills the next. */
	rx_inner_check(test, b, start, PAGE_SIZE - 1 - start, KTLS_TYPE_DATA,
		       PAGE_SIZE);
	/* Type in the first byte of a page. */
	rx_inner_check(test, b, start, PAGE_SIZE - start, KTLS_TYPE_DATA, 10);
	/* Padding from the first page into the fourth. */
	rx_inner_check(test, b, start, 1, KTLS_TYPE_ALERT, 3 * PAGE_SIZE);
	/* The whole inner plaintext inside the second page. */
	rx_inner_check(test, b, PAGE_SIZE + 7, 5, KTLS_TYPE_DATA, 5);
	/* Ending exactly at a page boundary, the padding in one page only. */
	rx_inner_check(test, b, PAGE_SIZE - 20, 3, KTLS_TYPE_DATA, 16);
}

/*
 * An inner plaintext with no content type (RFC 8446 5.4: all zeros, of
 * any length, or nothing at all): -EBADMSG, even where the bytes before
 * @start, the header and nonce, are not zero.
 */
static void rx_inner_type_missing(struct kunit *test)
{
	static const unsigned int lens[] = {
		1, 2, 17, PAGE_SIZE - KTLS_HEADER_LEN, PAGE_SIZE,
		PAGE_SIZE + 1, KTLS_MAX_PLAINTEXT + 1,
	};
	struct rx_buf *b = rx_buf_alloc(test);
	unsigned int i;
	u8 got = 0x77;

	KUNIT_EXPECT_EQ(test, ktls_record_inner_type(b->pages, KTLS_HEADER_LEN,
						     KTLS_HEADER_LEN, &got),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, ktls_record_inner_type(b->pages, 0, 0, &got),
			-EBADMSG);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		rx_buf_set(b, KTLS_HEADER_LEN, 0, lens[i]);
		KUNIT_EXPECT_EQ_MSG(test,
				    ktls_record_inner_type(b->pages, KTLS_HEADER_LEN,
							   KTLS_HEADER_LEN + lens[i],
							   &got),
				    -EBADMSG, "%u zero bytes", lens[i]);
	}
	/* Nothing is reported when nothing is found. */
	KUNIT_EXPECT_EQ(test, got, 0x77);
	/* The same zeros, one non-zero byte moved in: found again. */
	rx_buf_put(b, KTLS_HEADER_LEN, KTLS_TYPE_ALERT);
	KUNIT_EXPECT_EQ(test, ktls_record_inner_type(b->pages, KTLS_HEADER_LEN,
						     KTLS_HEADER_LEN + PAGE_SIZE,
						     &got),
			KTLS_HEADER_LEN);
	KUNIT_EXPECT_EQ(test, got, KTLS_TYPE_ALERT);
}

static struct kunit_case rx_cases[] = {
	KUNIT_CASE_PARAM(rx_header_length_bounds, rx_framing_gen_params),
	KUNIT_CASE_PARAM(rx_header_length_edges, rx_framing_gen_params),
	KUNIT_CASE_PARAM(rx_header_version, rx_framing_gen_params),
	KUNIT_CASE_PARAM(rx_header_error_order, rx_framing_gen_params),
	KUNIT_CASE_PARAM(rx_header_any_type, rx_framing_gen_params),
	KUNIT_CASE(rx_inner_type_found),
	KUNIT_CASE(rx_inner_type_page_edges),
	KUNIT_CASE(rx_inner_type_missing),
	{}
};

static struct kunit_suite rx_suite = {
	.name = "ktls_hs_rx_framer",
	.test_cases = rx_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(rx_suite);
