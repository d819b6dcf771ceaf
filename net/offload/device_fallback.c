// SPDX-License-Identifier: GPL-2.0-only
/*
 * Software encryption of the skbs of a TX-offloaded socket that no
 * device will encrypt: those leaving by another device than the one that
 * holds the keys (a route change), every skb once that device went down,
 * and those a driver hands back with tls_encrypt_skb() because it cannot
 * place them in the stream.  Such an skb carries device-form bytes of one
 * or more records (plaintext where the ciphertext goes, room for the
 * tag); the copy we send instead carries what the device would have made
 * of them.
 *
 * An skb may start or end inside a record, but GCM's tag covers the
 * whole record and its keystream depends on the position: so each
 * record the skb touches is encrypted whole, from the record list's copy
 * of its bytes, and the part inside the skb is copied out.  This is the
 * slow path; the record list is what makes it possible at all.
 *
 * Runs in the xmit path: softirq or with bottom halves off, nothing may
 * sleep.  The transform is a synchronous one of our own, keyed once at
 * setup; each call has its own request.
 *
 * The header set is the one of the in-tree file exporting the same
 * symbols: modversions CRCs depend on it (Documentation/offload.rst).
 */
#include <net/tls.h>
#include <crypto/aead.h>
#include <crypto/scatterwalk.h>
#include <net/ip6_checksum.h>
#include <linux/skbuff_ref.h>
#include <linux/skmsg.h>
#include <net/tls_prot.h>
#include <kunit/visibility.h>

#include <ktls_hs/compat_skb.h>

#include "../record/ktls.h"
#include "device.h"

/* Largest record in device form: header, nonce, plaintext, type, tag. */
#define KTLS_FB_REC_MAX	(KTLS_MAX_PLAINTEXT + KTLS_HEADER_LEN + \
			 KTLS_MAX_NONCE_LEN + 1 + KTLS_MAX_TAG_LEN)

int ktls_device_fallback_init(struct ktls_ctx *ctx,
			      struct tls_offload_context_tx *octx)
{
	const struct ktls_cipher *cs = ctx->prot.cipher;
	/* The copy the device got, which a key update leaves alone. */
	const u8 *raw = (const u8 *)&ctx->base.crypto_send;
	struct crypto_aead *aead;
	int err;

	/* Synchronous only: the xmit path cannot wait for a completion. */
	aead = crypto_alloc_aead(cs->alg, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(aead))
		return PTR_ERR(aead);
	err = crypto_aead_setkey(aead, raw + cs->key_off, cs->key_len);
	if (!err)
		err = crypto_aead_setauthsize(aead, cs->tag_len);
	if (err) {
		crypto_free_aead(aead);
		return err;
	}
	octx->aead_send = aead;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_fallback_init);

/**
 * struct ktls_fb - one software encryption of an skb
 * @ctx:	the socket's context
 * @req:	AEAD request, with room for the transform's context
 * @rec:	one record in device form, encrypted in place
 * @aad:	its AAD
 * @iv:		its AEAD iv
 */
struct ktls_fb {
	struct ktls_ctx *ctx;
	struct aead_request *req;
	u8 rec[KTLS_FB_REC_MAX];
	u8 aad[KTLS_MAX_AAD_LEN];
	u8 iv[KTLS_AEAD_IV_LEN];
};

/* Copy the @len bytes of @rec into @buf; the context's lock is held. */
static void ktls_fb_copy_record(const struct tls_record_info *rec, u8 *buf)
{
	int i;

	for (i = 0; i < rec->num_frags; i++) {
		const skb_frag_t *f = &rec->frags[i];

		memcpy_from_page(buf, skb_frag_page(f), skb_frag_off(f),
				 skb_frag_size(f));
		buf += skb_frag_size(f);
	}
}

/*
 * Encrypt the record in @fb->rec, @len bytes, TLS sequence number @sn,
 * as the device would have: header and nonce stay, the rest becomes
 * ciphertext and tag.
 */
static int ktls_fb_encrypt(struct ktls_fb *fb, unsigned int len, u64 sn)
{
	const struct ktls_prot *prot = &fb->ctx->prot;
	const u8 *iv = fb->ctx->base.tx.iv;	/* salt || iv, as installed */
	unsigned int inner, salt = prot->cipher->salt_len;
	struct scatterlist sg[2];
	int i;

	if (len < prot->overhead || len > KTLS_FB_REC_MAX)
		return -EINVAL;
	inner = len - prot->overhead + prot->tail_len;

	memset(fb->iv, 0, sizeof(fb->iv));
	if (prot->nonce_len) {
		/* TLS 1.2: the explicit nonce the record carries. */
		memcpy(fb->iv, iv, salt);
		memcpy(fb->iv + salt, fb->rec + KTLS_HEADER_LEN, prot->nonce_len);
	} else {
		/* TLS 1.3: the static iv XORed with the record number. */
		memcpy(fb->iv, iv, salt + prot->cipher->iv_len);
		for (i = 0; i < 8; i++)
			fb->iv[KTLS_MAX_IV_LEN - 1 - i] ^= (u8)(sn >> (8 * i));
	}
	ktls_record_aad(fb->aad, prot, sn, fb->rec[0], inner);

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], fb->aad, prot->aad_len);
	sg_set_buf(&sg[1], fb->rec + prot->prepend_len, inner + prot->tag_len);
	aead_request_set_tfm(fb->req, tls_offload_ctx_tx(&fb->ctx->base)->aead_send);
	aead_request_set_callback(fb->req, 0, NULL, NULL);
	aead_request_set_ad(fb->req, prot->aad_len);
	aead_request_set_crypt(fb->req, sg, sg, inner, fb->iv);
	return crypto_aead_encrypt(fb->req);
}

/**
 * ktls_device_fb_record() - encrypt one device-form record in place
 * @ctx:	context of an offloaded socket (or one set up alike)
 * @rec:	the record, header included, @len bytes
 * @len:	its length
 * @sn:		its TLS sequence number
 *
 * What the fallback does to each record, for KUnit.
 * Return: 0 or an errno.
 */
int ktls_device_fb_record(struct ktls_ctx *ctx, u8 *rec, unsigned int len,
			  u64 sn)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&ctx->base);
	struct ktls_fb *fb;
	int err = -ENOMEM;

	if (len > KTLS_FB_REC_MAX)
		return -EINVAL;
	fb = kmalloc(sizeof(*fb), GFP_KERNEL);
	if (!fb)
		return -ENOMEM;
	fb->ctx = ctx;
	fb->req = kmalloc(sizeof(*fb->req) + crypto_aead_reqsize(octx->aead_send),
			  GFP_KERNEL);
	if (fb->req) {
		memcpy(fb->rec, rec, len);
		err = ktls_fb_encrypt(fb, len, sn);
		if (!err)
			memcpy(rec, fb->rec, len);
	}
	kfree_sensitive(fb->req);
	kfree_sensitive(fb);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_device_fb_record);

/*
 * Put the encrypted bytes of every record in [@seq, @seq + @len) into
 * @payload, the copy of the skb's payload.  Bytes before the offload
 * started (the start marker) were encrypted in software already and stay.
 */
static int ktls_fb_fill(struct ktls_fb *fb, u32 seq, unsigned int len,
			u8 *payload)
{
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(&fb->ctx->base);
	u32 end = seq + len;

	while (before(seq, end)) {
		struct tls_record_info *rec;
		unsigned long flags;
		u32 start, rec_end;
		unsigned int n;
		u64 sn;
		int err;

		spin_lock_irqsave(&octx->lock, flags);
		rec = tls_get_record(octx, seq, &sn);
		if (!rec) {
			spin_unlock_irqrestore(&octx->lock, flags);
			return -ENOENT;
		}
		start = tls_record_start_seq(rec);
		rec_end = rec->end_seq;
		if (tls_record_is_start_marker(rec) || before(seq, start)) {
			spin_unlock_irqrestore(&octx->lock, flags);
			/* Sent before the offload: already ciphertext. */
			if (!tls_record_is_start_marker(rec))
				return -ENOENT;
			n = min_t(u32, end - seq, rec_end - seq);
			seq += n;
			continue;
		}
		ktls_fb_copy_record(rec, fb->rec);
		spin_unlock_irqrestore(&octx->lock, flags);

		err = ktls_fb_encrypt(fb, rec_end - start, sn);
		if (err)
			return err;
		/* Sequence space wraps: compare with before(), never min(). */
		n = (before(rec_end, end) ? rec_end : end) - seq;
		memcpy(payload + (seq - (end - len)), fb->rec + (seq - start), n);
		seq += n;
	}
	return 0;
}

/*
 * The copy takes the original's place in the socket's write accounting:
 * its destructor (TCP's) will give back the copy's truesize.
 */
static void ktls_fb_take_owner(struct sk_buff *nskb, struct sk_buff *skb)
{
	struct sock *sk = skb->sk;
	int delta;

	nskb->sk = sk;
	nskb->destructor = skb->destructor;
	skb->sk = NULL;
	skb->destructor = NULL;
	/* sock_efree holds a socket reference, not write memory. */
	if (nskb->destructor == sock_efree)
		return;
	delta = nskb->truesize - skb->truesize;
	if (delta > 0)
		refcount_add(delta, &sk->sk_wmem_alloc);
	else if (delta < 0)
		WARN_ON_ONCE(refcount_sub_and_test(-delta, &sk->sk_wmem_alloc));
}

/* The payload changed: let the stack or the device checksum it again. */
static void ktls_fb_checksum(struct sk_buff *nskb)
{
	struct tcphdr *th = tcp_hdr(nskb);
	unsigned int len = nskb->len - skb_transport_offset(nskb);

	if (nskb->ip_summed == CHECKSUM_PARTIAL)
		return;
	nskb->ip_summed = CHECKSUM_PARTIAL;
	nskb->csum_start = skb_transport_header(nskb) - nskb->head;
	nskb->csum_offset = offsetof(struct tcphdr, check);
	if (nskb->sk->sk_family == AF_INET6)
		th->check = ~csum_ipv6_magic(&ipv6_hdr(nskb)->saddr,
					     &ipv6_hdr(nskb)->daddr, len,
					     IPPROTO_TCP, 0);
	else
		th->check = ~csum_tcpudp_magic(ip_hdr(nskb)->saddr,
					       ip_hdr(nskb)->daddr, len,
					       IPPROTO_TCP, 0);
}

/*
 * skb_copy() took the "plaintext for the device" mark along; the copy is
 * ciphertext.  Left on, it would reach a local receiver (veth, loopback)
 * whose RX offload then takes the ciphertext for what its device
 * decrypted.
 */
static void ktls_fb_mark_encrypted(struct sk_buff *nskb)
{
	ktls_skb_set_decrypted(nskb, false);
}

/*
 * Replace @skb (consumed either way) by a linear copy whose payload is
 * encrypted.  Returns the copy, @skb itself if it carries no record
 * bytes, or NULL (dropped: TCP retransmits).
 */
static struct sk_buff *ktls_fb_skb(struct sock *sk, struct sk_buff *skb)
{
	unsigned int hdr_len = skb_tcp_all_headers(skb);
	unsigned int len = skb->len - hdr_len;
	struct sk_buff *nskb = NULL;
	struct ktls_fb *fb;

	if (!len)
		return skb;
	fb = kmalloc(sizeof(*fb), GFP_ATOMIC);
	if (!fb)
		goto out;
	fb->ctx = ktls_ctx(sk);
	fb->req = kmalloc(sizeof(*fb->req) +
			  crypto_aead_reqsize(tls_offload_ctx_tx(&fb->ctx->base)->aead_send),
			  GFP_ATOMIC);
	if (!fb->req)
		goto out_fb;

	nskb = skb_copy(skb, GFP_ATOMIC);
	if (!nskb)
		goto out_req;
	if (ktls_fb_fill(fb, ntohl(tcp_hdr(skb)->seq), len,
			 nskb->data + hdr_len)) {
		kfree_skb(nskb);
		nskb = NULL;
		goto out_req;
	}
	ktls_fb_mark_encrypted(nskb);
	ktls_fb_take_owner(nskb, skb);
	ktls_fb_checksum(nskb);
	/* validate_xmit_skb_list() takes ->prev as the list's last skb. */
	nskb->prev = nskb;

out_req:
	kfree_sensitive(fb->req);
out_fb:
	kfree_sensitive(fb);
out:
	if (nskb)
		consume_skb(skb);
	else
		kfree_skb(skb);
	return nskb;
}

/*
 * sk_validate_xmit_skb of a socket whose device-form records no device
 * encrypts any more (the device went, or the keys changed).  Records
 * sealed in software since then are ciphertext already, and TCP keeps
 * them in skbs of their own, not marked decrypted.
 */
struct sk_buff *ktls_device_validate_xmit_sw(struct sock *sk,
					     struct net_device *dev,
					     struct sk_buff *skb)
{
	if (!ktls_skb_decrypted(skb))
		return skb;
	if (ktls_device_tx_stale(ktls_ctx(sk), skb)) {
		kfree_skb(skb);
		return NULL;
	}
	return ktls_fb_skb(sk, skb);
}

/**
 * tls_validate_xmit_skb() - sk_validate_xmit_skb of a TX-offloaded socket
 * @sk:		the socket
 * @dev:	the device @skb is about to leave by
 * @skb:	an skb of the socket's stream, record bytes in device form
 *
 * The device that holds the keys encrypts the skb, and so does a bond
 * above it, which hands it to that device; any other would send the
 * plaintext, so the skb is encrypted here.
 * Return: the skb to send, or NULL if it was dropped.
 */
struct sk_buff *tls_validate_xmit_skb(struct sock *sk, struct net_device *dev,
				      struct sk_buff *skb)
{
	/* Sealed in software before the device took over: ciphertext. */
	if (!ktls_skb_decrypted(skb))
		return skb;
	/* Of keys before a key update, and acked: see device_tx_keys.c. */
	if (unlikely(ktls_device_tx_stale(ktls_ctx(sk), skb))) {
		kfree_skb(skb);
		return NULL;
	}
	if (dev == rcu_dereference_bh(tls_get_ctx(sk)->netdev) ||
	    netif_is_bond_master(dev))
		return skb;
	return ktls_fb_skb(sk, skb);
}
EXPORT_SYMBOL_GPL(tls_validate_xmit_skb);

/**
 * tls_encrypt_skb() - encrypt an skb of a TX-offloaded socket in software
 * @skb:	the skb, which the call consumes
 *
 * For drivers that cannot encrypt an skb (they lost the stream's place).
 * Return: the encrypted copy, or NULL if it was dropped.
 */
struct sk_buff *tls_encrypt_skb(struct sk_buff *skb)
{
	return ktls_fb_skb(skb->sk, skb);
}
EXPORT_SYMBOL_GPL(tls_encrypt_skb);
