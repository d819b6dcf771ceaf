// SPDX-License-Identifier: GPL-2.0-only
/*
 * SOL_TLS socket options: TLS_TX and TLS_RX install keys (and, in TLS 1.3,
 * replace them after a KeyUpdate), TLS_TX_ZEROCOPY_RO and
 * TLS_RX_EXPECT_NO_PAD toggle the two data path modes; getsockopt reads
 * every one of them back.  The errnos follow the in-tree kTLS, which
 * applications and its selftest depend on.  This file owns the keys and
 * AEAD state of struct ktls_crypto: it is the only writer of both.
 */
#include <crypto/aead.h>
#include <linux/slab.h>
#include <linux/sockptr.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "ktls.h"

static void ktls_crypto_clear(struct ktls_crypto *c)
{
	crypto_free_aead(c->aead);
	kfree_sensitive(c->req);
	memzero_explicit(c, sizeof(*c));
}

void ktls_crypto_free(struct ktls_ctx *ctx)
{
	ktls_crypto_clear(&ctx->tx_crypto);
	ktls_crypto_clear(&ctx->rx_crypto);
}

/* First key of a direction: the transform and its request, for good. */
static int ktls_crypto_alloc(struct ktls_crypto *c, const struct ktls_cipher *cs)
{
	struct crypto_aead *aead;
	int err;

	aead = crypto_alloc_aead(cs->alg, 0, 0);
	if (IS_ERR(aead))
		return PTR_ERR(aead);
	err = crypto_aead_setauthsize(aead, cs->tag_len);
	if (err)
		goto err_free;
	c->req = kmalloc(sizeof(*c->req) + crypto_aead_reqsize(aead), GFP_KERNEL);
	if (!c->req) {
		err = -ENOMEM;
		goto err_free;
	}
	aead_request_set_tfm(c->req, aead);
	crypto_init_wait(&c->wait);
	c->aead = aead;
	return 0;

err_free:
	crypto_free_aead(aead);
	return err;
}

/* Key the transform with @info and take its iv and sequence number. */
static int ktls_crypto_key(struct ktls_crypto *c, const struct ktls_cipher *cs,
			   const union ktls_crypto_info *info)
{
	const u8 *raw = (const u8 *)info;
	int err;

	err = crypto_aead_setkey(c->aead, raw + cs->key_off, cs->key_len);
	if (err)
		return err;
	memcpy(c->iv, raw + cs->salt_off, cs->salt_len);
	memcpy(c->iv + cs->salt_len, raw + cs->iv_off, cs->iv_len);
	c->seq = get_unaligned_be64(raw + cs->seq_off);
	memcpy(&c->info, info, cs->info_len);
	c->ready = true;
	return 0;
}

/*
 * What userspace may set, given what is set already.  A second TLS_TX or
 * TLS_RX is a TLS 1.3 key update and must keep version and cipher; TLS 1.2
 * has no key update, so there it is refused as busy.
 */
static int ktls_validate(const struct ktls_ctx *ctx,
			 const struct ktls_crypto *c,
			 const struct ktls_crypto *other,
			 const struct tls_crypto_info *hdr,
			 const struct ktls_cipher **csp)
{
	const struct tls_crypto_info *set = c->ready ? &c->info.info :
					    other->ready ? &other->info.info : NULL;
	const struct ktls_cipher *cs;

	if (c->ready && ctx->prot.version != TLS_1_3_VERSION)
		return -EBUSY;
	if (hdr->version != TLS_1_2_VERSION && hdr->version != TLS_1_3_VERSION)
		return -EINVAL;
	cs = ktls_cipher_find(hdr->cipher_type);
	if (!cs)
		return -EINVAL;
	if (hdr->version == TLS_1_3_VERSION ? !cs->tls13 : !cs->tls12)
		return -EINVAL;
	/* Both directions, and every key generation, share one suite. */
	if (set && (set->version != hdr->version ||
		    set->cipher_type != hdr->cipher_type))
		return -EINVAL;
	*csp = cs;
	return 0;
}

static int ktls_set_first(struct sock *sk, struct ktls_ctx *ctx, bool tx,
			  const struct ktls_cipher *cs,
			  const union ktls_crypto_info *info)
{
	struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	struct ktls_crypto *other = tx ? &ctx->rx_crypto : &ctx->tx_crypto;
	int err;

	err = ktls_crypto_alloc(c, cs);
	if (err)
		return err;
	err = ktls_crypto_key(c, cs, info);
	if (err)
		goto err_clear;
	if (!other->ready)
		ktls_prot_init(&ctx->prot, info->info.version, cs);

	err = tx ? ktls_tx_init(sk) : ktls_rx_init(sk);
	if (err)
		goto err_clear;

	if (tx) {
		WRITE_ONCE(ctx->tx_conf, KTLS_CONF_SW);
		ktls_stat_inc(sk, KTLS_STAT_TX_SW);
		ktls_stat_inc(sk, KTLS_STAT_CURR_TX_SW);
	} else {
		WRITE_ONCE(ctx->rx_conf, KTLS_CONF_SW);
		ktls_stat_inc(sk, KTLS_STAT_RX_SW);
		ktls_stat_inc(sk, KTLS_STAT_CURR_RX_SW);
	}
	return 0;

err_clear:
	ktls_crypto_clear(c);
	if (!other->ready)
		memset(&ctx->prot, 0, sizeof(ctx->prot));
	return err;
}

/*
 * TLS 1.3 key update.  Whatever the application wrote under the old key
 * leaves under it: the open record is closed and pushed first.
 */
static int ktls_set_update(struct sock *sk, struct ktls_ctx *ctx, bool tx,
			   const struct ktls_cipher *cs,
			   const union ktls_crypto_info *info)
{
	struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	int err = 0;

	if (tx)
		err = ktls_tx_flush(sk);
	if (!err)
		err = ktls_crypto_key(c, cs, info);
	if (err) {
		ktls_stat_inc(sk, tx ? KTLS_STAT_TX_REKEY_ERROR :
				       KTLS_STAT_RX_REKEY_ERROR);
		return err;
	}
	if (!tx)
		ktls_rx_rekeyed(sk);
	ktls_stat_inc(sk, tx ? KTLS_STAT_TX_REKEY_OK : KTLS_STAT_RX_REKEY_OK);
	return 0;
}

static int ktls_setsockopt_keys(struct sock *sk, bool tx, sockptr_t optval,
				unsigned int optlen)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	struct ktls_crypto *other = tx ? &ctx->rx_crypto : &ctx->tx_crypto;
	const struct ktls_cipher *cs;
	union ktls_crypto_info info;
	int err;

	if (sockptr_is_null(optval) || optlen < sizeof(info.info))
		return -EINVAL;
	if (copy_from_sockptr(&info.info, optval, sizeof(info.info)))
		return -EFAULT;
	err = ktls_validate(ctx, c, other, &info.info, &cs);
	if (err)
		return err;
	if (optlen != cs->info_len)
		return -EINVAL;
	if (copy_from_sockptr_offset(&info.info + 1, optval, sizeof(info.info),
				     optlen - sizeof(info.info))) {
		err = -EFAULT;
		goto out;
	}
	if (c->ready)
		err = ktls_set_update(sk, ctx, tx, cs, &info);
	else
		err = ktls_set_first(sk, ctx, tx, cs, &info);
out:
	memzero_explicit(&info, sizeof(info));
	return err;
}

static int ktls_setsockopt_u32(sockptr_t optval, unsigned int optlen,
			       bool exact, u32 *val)
{
	if (sockptr_is_null(optval) || optlen < sizeof(*val) ||
	    (exact && optlen != sizeof(*val)))
		return -EINVAL;
	if (copy_from_sockptr(val, optval, sizeof(*val)))
		return -EFAULT;
	return *val > 1 ? -EINVAL : 0;
}

int ktls_setsockopt_tls(struct sock *sk, int optname, sockptr_t optval,
			unsigned int optlen)
{
	struct ktls_ctx *ctx;
	u32 val;
	int err;

	lock_sock(sk);
	ctx = ktls_ctx(sk);
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
		err = ktls_setsockopt_keys(sk, optname == TLS_TX, optval, optlen);
		break;
	case TLS_TX_ZEROCOPY_RO:
		err = ktls_setsockopt_u32(optval, optlen, true, &val);
		if (!err)
			WRITE_ONCE(ctx->zerocopy_sendfile, val);
		break;
	case TLS_RX_EXPECT_NO_PAD:
		/* Only TLS 1.3 pads, and only a receiver can expect no padding. */
		err = -EINVAL;
		if (ctx->prot.version != TLS_1_3_VERSION)
			break;
		err = ktls_setsockopt_u32(optval, optlen, false, &val);
		if (!err && ctx->rx_conf == KTLS_CONF_BASE)
			err = -EINVAL;
		if (!err)
			WRITE_ONCE(ctx->rx_no_pad, val);
		break;
	default:
		err = -ENOPROTOOPT;
	}
	release_sock(sk);
	return err;
}

static int ktls_getsockopt_keys(struct ktls_ctx *ctx, bool tx,
				char __user *optval, int __user *optlen)
{
	const struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	const struct ktls_cipher *cs = ctx->prot.cipher;
	union ktls_crypto_info info;
	int len, err = 0;

	if (get_user(len, optlen))
		return -EFAULT;
	if (!optval || len < (int)sizeof(info.info))
		return -EINVAL;
	if (!c->ready)
		return -EBUSY;
	if (len == sizeof(info.info))
		return copy_to_user(optval, &c->info.info, len) ? -EFAULT : 0;
	if (len != cs->info_len)
		return -EINVAL;

	/* The key as set; the iv and sequence number as they are now. */
	memcpy(&info, &c->info, cs->info_len);
	memcpy((u8 *)&info + cs->iv_off, c->iv + cs->salt_len, cs->iv_len);
	put_unaligned_be64(c->seq, (u8 *)&info + cs->seq_off);
	if (copy_to_user(optval, &info, len))
		err = -EFAULT;
	memzero_explicit(&info, sizeof(info));
	return err;
}

static int ktls_getsockopt_u32(u32 val, bool exact, char __user *optval,
			       int __user *optlen)
{
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(val) || (exact && len != sizeof(val)))
		return -EINVAL;
	if (put_user(sizeof(val), optlen) ||
	    copy_to_user(optval, &val, sizeof(val)))
		return -EFAULT;
	return 0;
}

int ktls_getsockopt_tls(struct sock *sk, int optname, char __user *optval,
			int __user *optlen)
{
	struct ktls_ctx *ctx;
	int err;

	lock_sock(sk);
	ctx = ktls_ctx(sk);
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
		err = ktls_getsockopt_keys(ctx, optname == TLS_TX, optval, optlen);
		break;
	case TLS_TX_ZEROCOPY_RO:
		err = ktls_getsockopt_u32(ctx->zerocopy_sendfile, true, optval,
					  optlen);
		break;
	case TLS_RX_EXPECT_NO_PAD:
		err = -EINVAL;
		if (ctx->prot.version == TLS_1_3_VERSION &&
		    ctx->rx_conf != KTLS_CONF_BASE)
			err = ktls_getsockopt_u32(ctx->rx_no_pad, false, optval,
						  optlen);
		break;
	default:
		err = -ENOPROTOOPT;
	}
	release_sock(sk);
	return err;
}
