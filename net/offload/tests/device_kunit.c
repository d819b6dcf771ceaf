// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of TX offload's record side: tls_get_record() over a
 * record list as TCP leaves it (start marker, records acked from the
 * head, sequence numbers wrapping), and the software fallback's
 * encryption of a device-form record, which must give the bytes the
 * software record layer seals (itself checked against published vectors
 * in record_kunit.c); and the floor below which, after a key update, an
 * skb in device form is a stale copy to drop.
 */
#include <kunit/test.h>
#include <crypto/aead.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/tls.h>

#include "../../record/ktls.h"
#include "../device.h"

/* A record list: marker at @start, then @n records of @len bytes each. */
static struct tls_offload_context_tx *dev_list(struct kunit *test, u32 start,
					       unsigned int n, int len,
					       u64 first_sn)
{
	struct tls_offload_context_tx *octx;
	struct tls_record_info *rec;
	unsigned int i;

	octx = kunit_kzalloc(test, sizeof(*octx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, octx);
	INIT_LIST_HEAD(&octx->records_list);
	spin_lock_init(&octx->lock);
	for (i = 0; i <= n; i++) {
		rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, rec);
		rec->len = i ? len : 0;
		rec->end_seq = start + i * len;
		list_add_tail(&rec->list, &octx->records_list);
	}
	octx->unacked_record_sn = first_sn - 1;
	return octx;
}

/* Drop the head of the list as an ACK would (no pages here). */
static void dev_ack_one(struct tls_offload_context_tx *octx)
{
	struct tls_record_info *rec;

	rec = list_first_entry(&octx->records_list, struct tls_record_info, list);
	if (octx->retransmit_hint == rec)
		octx->retransmit_hint = NULL;
	list_del(&rec->list);
	octx->unacked_record_sn++;
}

static void get_record_finds_each(struct kunit *test)
{
	struct tls_offload_context_tx *octx = dev_list(test, 1000, 4, 100, 7);
	struct tls_record_info *rec;
	u64 sn = 0;
	u32 seq;

	for (seq = 1000; seq < 1400; seq += 33) {
		rec = tls_get_record(octx, seq, &sn);
		KUNIT_ASSERT_NOT_NULL(test, rec);
		KUNIT_EXPECT_EQ(test, sn, 7 + (seq - 1000) / 100);
		KUNIT_EXPECT_LE(test, tls_record_start_seq(rec), seq);
		KUNIT_EXPECT_GT(test, rec->end_seq, seq);
	}
	/* Backwards, so the hint cannot serve. */
	rec = tls_get_record(octx, 1000, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, sn, 7);
	KUNIT_EXPECT_EQ(test, rec->end_seq, 1100);
	/* The last byte, and the first beyond. */
	rec = tls_get_record(octx, 1399, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, sn, 10);
	KUNIT_EXPECT_NULL(test, tls_get_record(octx, 1400, &sn));
}

static void get_record_marker(struct kunit *test)
{
	struct tls_offload_context_tx *octx = dev_list(test, 1000, 2, 100, 1);
	struct tls_record_info *rec;
	u64 sn = 99;

	/* Bytes sent in software before the offload: the marker. */
	rec = tls_get_record(octx, 900, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_TRUE(test, tls_record_is_start_marker(rec));
	KUNIT_EXPECT_EQ(test, sn, 0);
	KUNIT_EXPECT_EQ(test, rec->end_seq, 1000);
}

static void get_record_after_acks(struct kunit *test)
{
	struct tls_offload_context_tx *octx = dev_list(test, 5000, 5, 50, 3);
	struct tls_record_info *rec;
	u64 sn = 0;

	/* A lookup far ahead leaves the hint there. */
	KUNIT_ASSERT_NOT_NULL(test, tls_get_record(octx, 5220, &sn));
	KUNIT_EXPECT_EQ(test, sn, 7);
	/* The marker and two records acked. */
	dev_ack_one(octx);
	dev_ack_one(octx);
	dev_ack_one(octx);
	/* Acked bytes belong to no record any more. */
	KUNIT_EXPECT_NULL(test, tls_get_record(octx, 5050, &sn));
	rec = tls_get_record(octx, 5100, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, sn, 5);
	KUNIT_EXPECT_EQ(test, rec->end_seq, 5150);
	rec = tls_get_record(octx, 5249, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, sn, 7);
}

static void get_record_wraps(struct kunit *test)
{
	/* Records straddle 2^32. */
	struct tls_offload_context_tx *octx = dev_list(test, 0xffffff00u, 4,
						       0x100, 0);
	struct tls_record_info *rec;
	u64 sn = 0;

	rec = tls_get_record(octx, 0x10, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, sn, 1);
	KUNIT_EXPECT_EQ(test, rec->end_seq, 0x100u);
	rec = tls_get_record(octx, 0xffffff80u, &sn);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, sn, 0);
	KUNIT_EXPECT_NULL(test, tls_get_record(octx, 0x300, &sn));
}

struct fb_case {
	const char *name;
	u16 version;
	u16 cipher;
	unsigned int plain_len;
	u8 type;
};

static const struct fb_case fb_cases[] = {
	{ "1.2 AES-GCM-128", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 1000, 23 },
	{ "1.2 AES-GCM-256 alert", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_256, 2, 21 },
	{ "1.3 AES-GCM-128", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128, 16384, 23 },
	{ "1.3 AES-GCM-256 handshake", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_256, 5, 22 },
};

static void fb_case_desc(const struct fb_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fb, fb_cases, fb_case_desc);

/*
 * A record framed for the device and encrypted by the fallback equals
 * the same record sealed by the software layer, header to tag.
 */
static void fallback_matches_software(struct kunit *test)
{
	const struct fb_case *fc = test->param_value;
	const struct ktls_cipher *cs = ktls_cipher_find(fc->cipher);
	struct tls_offload_context_tx *octx;
	unsigned int inner, len, i;
	struct scatterlist src[3], dst[2];
	u8 aad[KTLS_MAX_AAD_LEN], iv[KTLS_AEAD_IV_LEN];
	struct ktls_crypto *c;
	struct ktls_ctx *ctx;
	u8 *raw, *dev, *sw, *plain;
	const u64 sn = 0x0102030405060708ULL;

	KUNIT_ASSERT_NOT_NULL(test, cs);
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	octx = kunit_kzalloc(test, sizeof(*octx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_NOT_NULL(test, octx);
	ktls_prot_init(&ctx->prot, fc->version, cs);
	c = &ctx->tx_crypto;
	raw = (u8 *)&c->info;
	c->info.info.version = fc->version;
	c->info.info.cipher_type = fc->cipher;
	for (i = 0; i < cs->key_len; i++)
		raw[cs->key_off + i] = 0x40 + i;
	for (i = 0; i < cs->salt_len; i++)
		c->iv[i] = 0xa0 + i;
	for (i = 0; i < cs->iv_len; i++)
		c->iv[cs->salt_len + i] = 0xc0 + i;
	c->seq = sn;
	memcpy(ctx->base.tx.iv, c->iv, cs->salt_len + cs->iv_len);

	/* The software layer's transform. */
	c->aead = crypto_alloc_aead(cs->alg, 0, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->aead));
	KUNIT_ASSERT_EQ(test, crypto_aead_setkey(c->aead, raw + cs->key_off,
						 cs->key_len), 0);
	KUNIT_ASSERT_EQ(test, crypto_aead_setauthsize(c->aead, cs->tag_len), 0);
	c->req = kunit_kzalloc(test, sizeof(*c->req) +
			       crypto_aead_reqsize(c->aead), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->req);
	aead_request_set_tfm(c->req, c->aead);
	crypto_init_wait(&c->wait);

	/* The fallback's, keyed from the copy the device gets. */
	memcpy(&ctx->base.crypto_send, &c->info, cs->info_len);
	KUNIT_ASSERT_EQ(test, ktls_device_fallback_init(ctx, octx), 0);
	ctx->base.priv_ctx_tx = octx;

	inner = fc->plain_len + ctx->prot.tail_len;
	len = ctx->prot.prepend_len + inner + ctx->prot.tag_len;
	plain = kunit_kmalloc(test, fc->plain_len + 1, GFP_KERNEL);
	dev = kunit_kzalloc(test, len, GFP_KERNEL);
	sw = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, plain);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	KUNIT_ASSERT_NOT_NULL(test, sw);
	for (i = 0; i < fc->plain_len; i++)
		plain[i] = i * 7 + 3;
	plain[fc->plain_len] = fc->type;

	/* Device form: header, nonce, plaintext, inner type, zeros. */
	ktls_record_header(dev, fc->version == TLS_1_3_VERSION ?
			   KTLS_TYPE_DATA : fc->type,
			   len - KTLS_HEADER_LEN);
	memcpy(dev + KTLS_HEADER_LEN, c->iv + cs->salt_len, ctx->prot.nonce_len);
	memcpy(sw, dev, ctx->prot.prepend_len);
	memcpy(dev + ctx->prot.prepend_len, plain, inner);

	/* Software: the record layer's own sealing. */
	ktls_record_iv(iv, &ctx->prot, c, c->iv + cs->salt_len);
	ktls_record_aad(aad, &ctx->prot, sn, fc->type, inner);
	sg_init_table(src, 2);
	sg_set_buf(&src[0], aad, ctx->prot.aad_len);
	sg_set_buf(&src[1], plain, inner);
	sg_init_table(dst, 2);
	sg_set_buf(&dst[0], aad, ctx->prot.aad_len);
	sg_set_buf(&dst[1], sw + ctx->prot.prepend_len, inner + ctx->prot.tag_len);
	KUNIT_ASSERT_EQ(test, ktls_aead_crypt(c, &ctx->prot, true, src, dst,
					      inner, iv), 0);

	KUNIT_ASSERT_EQ(test, ktls_device_fb_record(ctx, dev, len, sn), 0);
	KUNIT_EXPECT_MEMEQ(test, dev, sw, len);

	/* A record too short to hold its overhead is refused. */
	KUNIT_EXPECT_EQ(test, ktls_device_fb_record(ctx, dev,
						    ctx->prot.overhead - 1, sn),
			-EINVAL);

	crypto_free_aead(octx->aead_send);
	crypto_free_aead(c->aead);
}

/* An skb whose TCP header says @seq, for the xmit hooks' floor. */
static struct sk_buff *dev_tcp_skb(struct kunit *test, u32 seq)
{
	struct sk_buff *skb = alloc_skb(sizeof(struct tcphdr), GFP_KERNEL);
	struct tcphdr *th;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	th = skb_put_zero(skb, sizeof(*th));
	skb_reset_transport_header(skb);
	th->seq = htonl(seq);
	return skb;
}

static void floor_stale_below(struct kunit *test)
{
	/* Around the wrap of the sequence space too. */
	static const u32 floors[] = { 100000, 0xfffff000 };
	struct ktls_ctx *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	for (i = 0; i < ARRAY_SIZE(floors); i++) {
		u32 f = floors[i];
		struct sk_buff *below = dev_tcp_skb(test, f - 1);
		struct sk_buff *far = dev_tcp_skb(test, f - 60000);
		struct sk_buff *at = dev_tcp_skb(test, f);
		struct sk_buff *above = dev_tcp_skb(test, f + 8192);

		ctx->tx_offload.floor = f;
		ctx->tx_offload.floor_on = false;
		KUNIT_EXPECT_FALSE(test, ktls_device_tx_stale(ctx, below));
		ctx->tx_offload.floor_on = true;
		KUNIT_EXPECT_TRUE(test, ktls_device_tx_stale(ctx, below));
		KUNIT_EXPECT_TRUE(test, ktls_device_tx_stale(ctx, far));
		KUNIT_EXPECT_FALSE(test, ktls_device_tx_stale(ctx, at));
		KUNIT_EXPECT_FALSE(test, ktls_device_tx_stale(ctx, above));

		/* Acked up to the floor: a copy may still be queued. */
		ktls_device_tx_floor_acked(ctx, f - 1);
		ktls_device_tx_floor_acked(ctx, f);
		KUNIT_EXPECT_TRUE(test, ctx->tx_offload.floor_on);
		/* Past it: what was sent after it left, so did every copy. */
		ktls_device_tx_floor_acked(ctx, f + 1);
		KUNIT_EXPECT_FALSE(test, ctx->tx_offload.floor_on);
		KUNIT_EXPECT_FALSE(test, ktls_device_tx_stale(ctx, below));
		kfree_skb(below);
		kfree_skb(far);
		kfree_skb(at);
		kfree_skb(above);
	}
}

static struct kunit_case device_cases[] = {
	KUNIT_CASE(get_record_finds_each),
	KUNIT_CASE(get_record_marker),
	KUNIT_CASE(get_record_after_acks),
	KUNIT_CASE(get_record_wraps),
	KUNIT_CASE_PARAM(fallback_matches_software, fb_gen_params),
	KUNIT_CASE(floor_stale_below),
	{}
};

static struct kunit_suite device_suite = {
	.name = "ktls_hs_device",
	.test_cases = device_cases,
};

/* Module metadata and the KUnit namespace import are in ulp_kunit.c. */
kunit_test_suite(device_suite);
