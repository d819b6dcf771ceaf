// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of RX offload's device-free part (net/device_rx.c): the
 * recovery of a record a device decrypted only in part, which must give
 * back the exact ciphertext so that software authenticates and decrypts
 * it, also after our key moved on; which bytes count as decrypted; and
 * the bookkeeping of the three resync modes: a driver's request answered
 * once at the header it named, the core's next hint after a run of
 * undecrypted records at growing intervals, and an async request
 * answered with the number of a header logged in its window.
 */
#include <kunit/test.h>
#include <crypto/aead.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/tls.h>

#include <ktls_hs/compat_skb.h>

#include "../../record/ktls.h"
#include "../device.h"

#define RXK_PAGES	DIV_ROUND_UP(KTLS_REC_MAX, PAGE_SIZE)

struct rxk {
	struct ktls_ctx *ctx;
	struct ktls_rx_offload *rxo;
	struct page *rec[RXK_PAGES];
	struct page *scratch[RXK_PAGES];
};

static void rxk_exit(struct kunit_resource *res)
{
	struct rxk *k = res->data;
	unsigned int i;

	for (i = 0; i < RXK_PAGES; i++) {
		if (k->rec[i])
			__free_page(k->rec[i]);
		if (k->scratch[i])
			__free_page(k->scratch[i]);
	}
	ktls_device_rx_free(k->rxo);
}

/* A context with RX keys of @version and @cipher, and its RX offload. */
static struct rxk *rxk_new(struct kunit *test, u16 version, u16 cipher, u64 sn)
{
	const struct ktls_cipher *cs = ktls_cipher_find(cipher);
	struct ktls_crypto *c;
	struct rxk *k;
	unsigned int i;
	u8 *raw;

	KUNIT_ASSERT_NOT_NULL(test, cs);
	k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k);
	k->ctx = kunit_kzalloc(test, sizeof(*k->ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k->ctx);
	ktls_prot_init(&k->ctx->prot, version, cs);
	c = &k->ctx->rx_crypto;
	raw = (u8 *)&c->info;
	c->info.info.version = version;
	c->info.info.cipher_type = cipher;
	for (i = 0; i < cs->key_len; i++)
		raw[cs->key_off + i] = 0x21 * i + 5;
	for (i = 0; i < cs->salt_len; i++)
		raw[cs->salt_off + i] = 0x90 + i;
	for (i = 0; i < cs->iv_len; i++)
		raw[cs->iv_off + i] = 0x30 + 3 * i;
	memcpy(c->iv, raw + cs->salt_off, cs->salt_len);
	memcpy(c->iv + cs->salt_len, raw + cs->iv_off, cs->iv_len);
	c->seq = sn;

	k->rxo = ktls_device_rx_alloc(k->ctx);
	KUNIT_ASSERT_NOT_NULL(test, k->rxo);
	for (i = 0; i < RXK_PAGES; i++) {
		k->rec[i] = alloc_page(GFP_KERNEL);
		k->scratch[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, k->rec[i]);
		KUNIT_ASSERT_NOT_NULL(test, k->scratch[i]);
	}
	kunit_alloc_resource(test, NULL, rxk_exit, GFP_KERNEL, k);
	return k;
}

static void rxk_put(struct rxk *k, const u8 *buf, unsigned int len)
{
	unsigned int pos;

	for (pos = 0; pos < len; pos += PAGE_SIZE)
		memcpy(page_address(k->rec[pos / PAGE_SIZE]), buf + pos,
		       min_t(unsigned int, PAGE_SIZE, len - pos));
}

static void rxk_get(struct rxk *k, u8 *buf, unsigned int len)
{
	unsigned int pos;

	for (pos = 0; pos < len; pos += PAGE_SIZE)
		memcpy(buf + pos, page_address(k->rec[pos / PAGE_SIZE]),
		       min_t(unsigned int, PAGE_SIZE, len - pos));
}

/*
 * Seal @inner bytes of @plain into @rec (a linear buffer) as record @sn
 * under the device's key: header, 1.2 nonce, ciphertext, tag.
 */
static unsigned int rxk_seal(struct kunit *test, struct rxk *k, const u8 *plain,
			     unsigned int inner, u8 *rec)
{
	const struct ktls_prot *prot = &k->ctx->prot;
	struct ktls_crypto *c = &k->rxo->dev_crypto;
	unsigned int len = prot->prepend_len + inner + prot->tag_len;
	u8 aad[KTLS_MAX_AAD_LEN], iv[KTLS_AEAD_IV_LEN];
	struct scatterlist src[2], dst[2];
	unsigned int i;

	ktls_record_header(rec, KTLS_TYPE_DATA, len - KTLS_HEADER_LEN);
	for (i = 0; i < prot->nonce_len; i++)
		rec[KTLS_HEADER_LEN + i] = 0xe0 + i;
	memcpy(rec + prot->prepend_len, plain, inner);
	ktls_record_iv(iv, prot, c, rec + KTLS_HEADER_LEN);
	ktls_record_aad(aad, prot, c->seq, KTLS_TYPE_DATA, inner);
	sg_init_table(src, 2);
	sg_set_buf(&src[0], aad, prot->aad_len);
	sg_set_buf(&src[1], rec + prot->prepend_len, inner);
	sg_init_table(dst, 2);
	sg_set_buf(&dst[0], aad, prot->aad_len);
	sg_set_buf(&dst[1], rec + prot->prepend_len, inner + prot->tag_len);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, prot, true, src, dst, inner,
					      iv), 0);
	return len;
}

struct recover_case {
	const char *name;
	u16 version;
	u16 cipher;
	unsigned int plain_len;
	/* decrypted pieces, [start, end) in record bytes; {0, 0} ends */
	unsigned int dec[4][2];
	bool rekeyed;
};

static const struct recover_case recover_cases[] = {
	{ "1.2 GCM-128 first frame", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128,
	  16384, { { 0, 8948 } } },
	{ "1.2 GCM-256 middle pieces", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_256,
	  9000, { { 100, 1548 }, { 2996, 4444 }, { 8000, 9029 } } },
	{ "1.3 GCM-128 first frame", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128,
	  16383, { { 0, 1448 } } },
	{ "1.3 GCM-256 odd pieces", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_256,
	  5000, { { 3, 7 }, { 17, 4099 }, { 4100, 5022 } } },
	{ "1.3 after a key update", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128,
	  3000, { { 0, 1448 } }, true },
};

static void recover_case_desc(const struct recover_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(recover, recover_cases, recover_case_desc);

/*
 * A record the device decrypted in pieces is recovered byte for byte,
 * and then opens in software with its tag.
 */
static void recover_gives_ciphertext(struct kunit *test)
{
	const struct recover_case *rc = test->param_value;
	const u64 sn = 0x1122334455667788ULL;
	struct rxk *k = rxk_new(test, rc->version, rc->cipher, sn);
	const struct ktls_prot *prot = &k->ctx->prot;
	unsigned int inner = rc->plain_len + prot->tail_len, len, i, j;
	u8 aad[KTLS_MAX_AAD_LEN], iv[KTLS_AEAD_IV_LEN];
	struct scatterlist sg[2];
	u8 *plain, *ct, *mixed, *got;

	plain = kunit_kmalloc(test, inner, GFP_KERNEL);
	ct = kunit_kzalloc(test, KTLS_REC_MAX, GFP_KERNEL);
	mixed = kunit_kzalloc(test, KTLS_REC_MAX, GFP_KERNEL);
	got = kunit_kzalloc(test, KTLS_REC_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_ASSERT_NOT_NULL(test, ct);
	KUNIT_ASSERT_NOT_NULL(test, mixed);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0; i < rc->plain_len; i++)
		plain[i] = i * 13 + 1;
	if (prot->tail_len)
		plain[rc->plain_len] = KTLS_TYPE_DATA;
	len = rxk_seal(test, k, plain, inner, ct);

	/* What the device hands up: plaintext where it decrypted. */
	memcpy(mixed, ct, len);
	for (i = 0; i < ARRAY_SIZE(rc->dec) && rc->dec[i][1]; i++) {
		for (j = rc->dec[i][0]; j < rc->dec[i][1]; j++) {
			if (j >= prot->prepend_len && j < prot->prepend_len + inner)
				mixed[j] = plain[j - prot->prepend_len];
		}
		bitmap_set(k->rxo->dec, rc->dec[i][0],
			   rc->dec[i][1] - rc->dec[i][0]);
		k->rxo->nr_dec += rc->dec[i][1] - rc->dec[i][0];
	}
	KUNIT_ASSERT_NE(test, memcmp(mixed, ct, len), 0);
	/* Our key moving on must not matter: the device had the first. */
	if (rc->rekeyed) {
		memset(&k->ctx->rx_crypto.info, 0x5a, sizeof(k->ctx->rx_crypto.info));
		k->ctx->rx_crypto.seq = 0;
		k->rxo->stale = true;
	}

	rxk_put(k, mixed, len);
	KUNIT_ASSERT_EQ(test, ktls_device_rx_recover(k->rxo, prot, k->rec,
						     k->scratch, len), 0);
	rxk_get(k, got, len);
	KUNIT_EXPECT_MEMEQ(test, got, ct, len);
	/* Nothing marked any more: a retry takes the ciphertext as it is. */
	KUNIT_EXPECT_EQ(test, k->rxo->nr_dec, 0);
	KUNIT_EXPECT_EQ(test, find_first_bit(k->rxo->dec, KTLS_REC_MAX),
			(unsigned long)KTLS_REC_MAX);

	/* And it opens, tag and all. */
	ktls_record_iv(iv, prot, &k->rxo->dev_crypto, got + KTLS_HEADER_LEN);
	ktls_record_aad(aad, prot, sn, KTLS_TYPE_DATA, inner);
	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], aad, prot->aad_len);
	sg_set_buf(&sg[1], got + prot->prepend_len, inner + prot->tag_len);
	KUNIT_EXPECT_EQ(test, ktls_aead_crypt(&k->rxo->dev_crypto, prot, false,
					      sg, sg, inner + prot->tag_len, iv), 0);
	KUNIT_EXPECT_MEMEQ(test, got + prot->prepend_len, plain, inner);

	/* The next record starts with nothing marked, one number on. */
	ktls_device_rx_next(k->rxo, prot, len);
	KUNIT_EXPECT_EQ(test, k->rxo->nr_dec, 0);
	KUNIT_EXPECT_EQ(test, find_first_bit(k->rxo->dec, KTLS_REC_MAX),
			(unsigned long)KTLS_REC_MAX);
	KUNIT_EXPECT_EQ(test, k->rxo->dev_crypto.seq, sn + 1);
}

/* A record the device did not touch comes out of recovery unchanged. */
static void recover_nothing_marked(struct kunit *test)
{
	struct rxk *k = rxk_new(test, TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 7);
	const struct ktls_prot *prot = &k->ctx->prot;
	u8 *plain, *ct, *got;
	unsigned int len;

	plain = kunit_kzalloc(test, 2000, GFP_KERNEL);
	ct = kunit_kzalloc(test, KTLS_REC_MAX, GFP_KERNEL);
	got = kunit_kzalloc(test, KTLS_REC_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_ASSERT_NOT_NULL(test, ct);
	KUNIT_ASSERT_NOT_NULL(test, got);
	len = rxk_seal(test, k, plain, 2000, ct);
	rxk_put(k, ct, len);
	KUNIT_ASSERT_EQ(test, ktls_device_rx_recover(k->rxo, prot, k->rec,
						     k->scratch, len), 0);
	rxk_get(k, got, len);
	KUNIT_EXPECT_MEMEQ(test, got, ct, len);
	/* Shorter than its own overhead: refused, not read past. */
	KUNIT_EXPECT_EQ(test, ktls_device_rx_recover(k->rxo, prot, k->rec,
						     k->scratch,
						     prot->prepend_len), -EINVAL);
}

/* Only bytes of skbs the device marked count, where skbs carry the mark. */
static void mark_follows_skb(struct kunit *test)
{
	struct rxk *k = rxk_new(test, TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 0);
	struct sk_buff *skb = alloc_skb(0, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	ktls_device_rx_mark(k->rxo, skb, 10, 100);
	KUNIT_EXPECT_EQ(test, k->rxo->nr_dec, 0);
	ktls_skb_set_decrypted(skb, true);
	if (!ktls_skb_decrypted(skb)) {
		kfree_skb(skb);
		kunit_skip(test, "skbs carry no decrypted mark here");
	}
	ktls_device_rx_mark(k->rxo, skb, 10, 100);
	KUNIT_EXPECT_EQ(test, k->rxo->nr_dec, 100);
	KUNIT_EXPECT_EQ(test, find_first_bit(k->rxo->dec, KTLS_REC_MAX), 10UL);
	KUNIT_EXPECT_EQ(test, find_next_zero_bit(k->rxo->dec, KTLS_REC_MAX, 10),
			110UL);
	kfree_skb(skb);
}

/* Driver request: answered once, at the header whose byte 4 it named. */
static void resync_driver_request(struct kunit *test)
{
	struct rxk *k = rxk_new(test, TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 0);
	struct ktls_rx_offload *rxo = k->rxo;
	u32 rseq = 0;
	u64 rsn = 0;

	rxo->base.resync_type = TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ;
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 5000, 100, false,
						       &rseq, &rsn));
	atomic64_set(&rxo->base.resync_req,
		     ((u64)(0xfffffffeU + KTLS_HEADER_LEN - 1) << 32) | RESYNC_REQ);
	rxo->dev_crypto.seq = 41;
	/* Other headers: no. */
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 0xfffffff0U, 14,
						       false, &rseq, &rsn));
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 3, 100, false,
						       &rseq, &rsn));
	rxo->dev_crypto.seq = 42;
	/* Sequence numbers wrap: the header at 2^32 - 2, its byte 4 at 2. */
	KUNIT_EXPECT_TRUE(test, ktls_device_rx_framed(rxo, 0xfffffffeU, 100,
						      true, &rseq, &rsn));
	KUNIT_EXPECT_EQ(test, rseq, 2U);
	KUNIT_EXPECT_EQ(test, rsn, 42ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&rxo->base.resync_req), 0LL);
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 0xfffffffeU, 100,
						       true, &rseq, &rsn));

	/* A key update leaves the device nothing to resync for. */
	atomic64_set(&rxo->base.resync_req, ((u64)104 << 32) | RESYNC_REQ);
	rxo->stale = true;
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 100, 100, false,
						       &rseq, &rsn));
}

/*
 * Core next hint: after 1 + 2 records the device did not decrypt the
 * core names the next record start, then after 2 more, then 4 (the
 * target doubles); a record the device decrypted starts the count again;
 * and with the next header already past the device the hint waits for a
 * record without one.
 */
static void resync_next_hint(struct kunit *test)
{
	struct rxk *k = rxk_new(test, TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128, 0);
	struct ktls_rx_offload *rxo = k->rxo;
	unsigned int i, fails[3] = { 3, 2, 4 }, r;
	u32 seq = 1000, rseq = 0;
	u64 rsn = 0;

	rxo->base.resync_type = TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT;
	for (r = 0; r < ARRAY_SIZE(fails); r++) {
		for (i = 1; i < fails[r]; i++) {
			bool due = ktls_device_rx_result(rxo, seq, 100, 0, false,
							 &rseq, &rsn);

			KUNIT_EXPECT_FALSE(test, due);
			seq += 100;
			rxo->dev_crypto.seq++;
		}
		KUNIT_EXPECT_TRUE(test, ktls_device_rx_result(rxo, seq, 100, 0,
							      false, &rseq, &rsn));
		KUNIT_EXPECT_EQ(test, rseq, seq + 100);
		KUNIT_EXPECT_EQ(test, rsn, rxo->dev_crypto.seq + 1);
		seq += 100;
		rxo->dev_crypto.seq++;
	}

	/* A decrypted record: the count starts over at 1 + 2. */
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_result(rxo, seq, 100, 100, false,
						       &rseq, &rsn));
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_FALSE(test, ktls_device_rx_result(rxo, seq, 100, 0,
							       true, &rseq, &rsn));
	/* Due, but the next header is in: the framer answers later. */
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_result(rxo, seq, 100, 0, true,
						       &rseq, &rsn));
	KUNIT_EXPECT_TRUE(test, rxo->base.resync_nh_do_now);
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 7000, 300, true,
						       &rseq, &rsn));
	rxo->dev_crypto.seq = 77;
	KUNIT_EXPECT_TRUE(test, ktls_device_rx_framed(rxo, 7300, 300, false,
						      &rseq, &rsn));
	KUNIT_EXPECT_EQ(test, rseq, 7600U);
	KUNIT_EXPECT_EQ(test, rsn, 78ULL);
	KUNIT_EXPECT_FALSE(test, rxo->base.resync_nh_do_now);
}

/*
 * Async: headers in the window are logged while the driver works out
 * which one it saw; its answer gets that header's number.
 */
static void resync_async(struct kunit *test)
{
	struct rxk *k = rxk_new(test, TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_256, 0);
	struct ktls_rx_offload *rxo = k->rxo;
	struct tls_offload_resync_async *ra;
	u32 rseq = 0;
	u64 rsn = 0;

	ra = kunit_kzalloc(test, sizeof(*ra), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ra);
	rxo->base.resync_type = TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC;
	rxo->base.resync_async = ra;

	tls_offload_rx_resync_async_request_start(ra, htonl(1000), 5000);
	rxo->dev_crypto.seq = 9;
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 900, 100, true,
						       &rseq, &rsn));
	rxo->dev_crypto.seq = 10;
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 1000, 1000, true,
						       &rseq, &rsn));
	rxo->dev_crypto.seq = 11;
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 2000, 5000, true,
						       &rseq, &rsn));
	rxo->dev_crypto.seq = 12;
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 7000, 1000, true,
						       &rseq, &rsn));
	KUNIT_EXPECT_EQ(test, ra->loglen, 2);
	tls_offload_rx_resync_async_request_end(ra, htonl(2000));
	rxo->dev_crypto.seq = 13;
	KUNIT_EXPECT_TRUE(test, ktls_device_rx_framed(rxo, 8000, 1000, true,
						      &rseq, &rsn));
	KUNIT_EXPECT_EQ(test, rseq, 2000U);
	KUNIT_EXPECT_EQ(test, rsn, 11ULL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&ra->req), 0LL);

	/* Answered before any header was logged: the one being framed. */
	tls_offload_rx_resync_async_request_start(ra, htonl(9000), 100);
	tls_offload_rx_resync_async_request_end(ra, htonl(9000));
	KUNIT_EXPECT_TRUE(test, ktls_device_rx_framed(rxo, 9000, 1000, true,
						      &rseq, &rsn));
	KUNIT_EXPECT_EQ(test, rseq, 9000U);
	KUNIT_EXPECT_EQ(test, rsn, 13ULL);

	/* An answer naming no header seen is dropped, the request kept. */
	tls_offload_rx_resync_async_request_start(ra, htonl(10000), 100);
	tls_offload_rx_resync_async_request_end(ra, htonl(10050));
	KUNIT_EXPECT_FALSE(test, ktls_device_rx_framed(rxo, 11000, 1000, true,
						       &rseq, &rsn));
	KUNIT_EXPECT_NE(test, atomic64_read(&ra->req), 0LL);
}

static struct kunit_case device_rx_cases[] = {
	KUNIT_CASE_PARAM(recover_gives_ciphertext, recover_gen_params),
	KUNIT_CASE(recover_nothing_marked),
	KUNIT_CASE(mark_follows_skb),
	KUNIT_CASE(resync_driver_request),
	KUNIT_CASE(resync_next_hint),
	KUNIT_CASE(resync_async),
	{}
};

static struct kunit_suite device_rx_suite = {
	.name = "ktls_hs_device_rx",
	.test_cases = device_rx_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(device_rx_suite);
