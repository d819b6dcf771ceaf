// SPDX-License-Identifier: GPL-2.0-only
/*
 * Keys of the record layer: the per-direction AEAD state of struct
 * ktls_crypto, from the first key through TLS 1.3 key updates to the
 * wipe on close.  Keys come from two places: userspace (TLS_TX/TLS_RX,
 * through sockopt.c) and the in-kernel handshake, which may finish in
 * softirq.  Allocating a transform may sleep, so the handshake stages
 * its keys in the context and they are installed by the first process-
 * context user of the socket (accept(), or the first socket call); the
 * peer's bytes after its Finished wait in TCP's queue meanwhile.  Such a
 * socket also keeps its application traffic secrets here, and moves to
 * the next generation of keys on KeyUpdate without userspace.  This
 * file is the only writer of struct ktls_crypto.
 */
#include <crypto/aead.h>
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "ktls.h"
#include "../offload/device.h"

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
	kfree_sensitive(ctx->secrets);
	ctx->secrets = NULL;
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

/**
 * ktls_crypto_copy() - a transform of its own keyed as @src is now
 * @dst:	zeroed state to fill
 * @cs:		the suite of @src
 * @src:	keys in use
 *
 * For a device's copy of the RX key (device_rx.c), which must stay the
 * key the device has when ours moves on.  Process context.
 * Return: 0 or an errno, with @dst left zeroed.
 */
int ktls_crypto_copy(struct ktls_crypto *dst, const struct ktls_cipher *cs,
		     const struct ktls_crypto *src)
{
	int err;

	err = ktls_crypto_alloc(dst, cs);
	if (err)
		return err;
	err = ktls_crypto_key(dst, cs, &src->info);
	if (err) {
		ktls_crypto_clear(dst);
		return err;
	}
	memcpy(dst->iv, src->iv, sizeof(dst->iv));
	dst->seq = src->seq;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_crypto_copy);

/* Give back what ktls_crypto_copy() set up, and wipe it. */
void ktls_crypto_release(struct ktls_crypto *c)
{
	ktls_crypto_clear(c);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_crypto_release);

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

	/*
	 * Both directions start in software at once; a device that can
	 * take the keys gets them off the syscall path, and the direction
	 * moves to it once it has them (device_tx_keys.c,
	 * device_rx_keys.c): TX at a record boundary,
	 * RX from the next record the device sees whole.
	 */
	if (tx) {
		WRITE_ONCE(ctx->tx_conf, KTLS_CONF_SW);
		ktls_stat_inc(sk, KTLS_STAT_TX_SW);
		ktls_stat_inc(sk, KTLS_STAT_CURR_TX_SW);
		ktls_device_tx_offer(sk, ctx);
	} else {
		WRITE_ONCE(ctx->rx_conf, KTLS_CONF_SW);
		ktls_stat_inc(sk, KTLS_STAT_RX_SW);
		ktls_stat_inc(sk, KTLS_STAT_CURR_RX_SW);
		ktls_device_rx_offer(sk, ctx);
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

	/*
	 * The device holds the old key for what it may still retransmit:
	 * later records are sealed in software until it has the new one.
	 */
	if (tx) {
		ktls_device_tx_rekey(sk, ctx);
		err = ktls_tx_flush(sk);
	}
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

/**
 * ktls_keys_set() - install a key for one direction, or update it
 * @sk:		the socket, locked, process context
 * @tx:		which direction
 * @info:	the crypto info, @len bytes of it as the caller got them
 * @len:	must match the cipher's crypto info size
 *
 * A second key of a direction is a TLS 1.3 key update.
 * Return: 0 or the errno the SOL_TLS API gives for it.
 */
int ktls_keys_set(struct sock *sk, bool tx, const union ktls_crypto_info *info,
		  unsigned int len)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	struct ktls_crypto *other = tx ? &ctx->rx_crypto : &ctx->tx_crypto;
	const struct ktls_cipher *cs;
	int err;

	sock_owned_by_me(sk);
	/*
	 * The kernel follows the key schedule of its own handshake: a key
	 * from userspace, which has no secrets, could only break it.
	 */
	if (ctx->secrets)
		return -EACCES;
	err = ktls_validate(ctx, c, other, &info->info, &cs);
	if (err)
		return err;
	if (len != cs->info_len)
		return -EINVAL;
	if (c->ready)
		return ktls_set_update(sk, ctx, tx, cs, info);
	return ktls_set_first(sk, ctx, tx, cs, info);
}

/**
 * ktls_keys_stage() - park the keys of a finished kernel handshake
 * @ctx:	context of the socket, which is locked (bh-locked in
 *		softirq is enough) and has no keys yet
 * @tx:		TX crypto info; copied, the caller wipes its own
 * @rx:		RX crypto info, likewise
 * @secrets:	the TLS 1.3 application traffic secrets @tx and @rx were
 *		derived from, copied likewise; empty (len 0) for TLS 1.2
 * @max_plain:	the TX payload cap the peer's record_size_limit sets
 *		(RFC 8449), 0 for none; a lower TLS_TX_MAX_PAYLOAD_LEN set
 *		before the handshake stays
 *
 * Any context.  The keys are checked here, so that installing them later
 * can only fail for lack of memory.
 * Return: 0, -EINVAL for keys the record layer cannot take, or -ENOMEM.
 */
int ktls_keys_stage(struct ktls_ctx *ctx, const union ktls_crypto_info *tx,
		    const union ktls_crypto_info *rx,
		    const struct ktls_secrets *secrets, unsigned int max_plain)
{
	const struct ktls_cipher *cs;
	int len;

	lockdep_assert(lockdep_sock_is_held(ctx->sk));
	if (ctx->tx_crypto.ready || ctx->rx_crypto.ready || ctx->keys_staged)
		return -EBUSY;
	if (tx->info.version != TLS_1_2_VERSION &&
	    tx->info.version != TLS_1_3_VERSION)
		return -EINVAL;
	cs = ktls_cipher_find(tx->info.cipher_type);
	if (!cs || (tx->info.version == TLS_1_3_VERSION ? !cs->tls13 : !cs->tls12))
		return -EINVAL;
	if (rx->info.version != tx->info.version ||
	    rx->info.cipher_type != tx->info.cipher_type)
		return -EINVAL;
	/* TLS 1.2 has no key update, so no secrets to keep for one. */
	if (tx->info.version == TLS_1_3_VERSION) {
		len = ktls_hash_size(secrets->hash);
		if (len <= 0 || secrets->len != len)
			return -EINVAL;
		/* Softirq, maybe: the handshake fails if even this is not there. */
		ctx->secrets = kmemdup(secrets, sizeof(*secrets), GFP_ATOMIC);
		if (!ctx->secrets)
			return -ENOMEM;
	} else if (secrets->len) {
		return -EINVAL;
	}
	memcpy(&ctx->tx_crypto.info, tx, cs->info_len);
	memcpy(&ctx->rx_crypto.info, rx, cs->info_len);
	if (max_plain && max_plain < ktls_tx_max_plain(ctx))
		WRITE_ONCE(ctx->tx_max_plain, max_plain);
	ctx->keys_from_kernel = true;
	/* Pairs with the lockless check in ktls_keys_staged(). */
	smp_store_release(&ctx->keys_staged, true);
	return 0;
}

/**
 * ktls_keys_install_staged() - install what ktls_keys_stage() parked
 * @sk:	the socket, locked, process context
 *
 * RX first: once RX is on, records the peer sent after its Finished are
 * framed from TCP's queue like any later ones.  On failure the socket is
 * unusable (it cannot speak TLS without its keys), so it is put in error.
 * Return: 0, or the errno also left in sk_err.
 */
int ktls_keys_install_staged(struct sock *sk)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	union ktls_crypto_info info;
	const struct ktls_cipher *cs;
	int err;

	lockdep_assert(lockdep_sock_is_held(sk));
	if (!ctx->keys_staged)
		return 0;
	cs = ktls_cipher_find(ctx->rx_crypto.info.info.cipher_type);

	memcpy(&info, &ctx->rx_crypto.info, cs->info_len);
	memzero_explicit(&ctx->rx_crypto.info, sizeof(ctx->rx_crypto.info));
	err = ktls_set_first(sk, ctx, false, cs, &info);
	memzero_explicit(&info, sizeof(info));
	if (err)
		goto fail;

	memcpy(&info, &ctx->tx_crypto.info, cs->info_len);
	memzero_explicit(&ctx->tx_crypto.info, sizeof(ctx->tx_crypto.info));
	err = ktls_set_first(sk, ctx, true, cs, &info);
	memzero_explicit(&info, sizeof(info));
	if (err)
		goto fail;
	WRITE_ONCE(ctx->keys_staged, false);
	return 0;

fail:
	memzero_explicit(&ctx->tx_crypto.info, sizeof(ctx->tx_crypto.info));
	WRITE_ONCE(ctx->keys_staged, false);
	WRITE_ONCE(sk->sk_err, -err);
	sk_error_report(sk);
	return err;
}

/**
 * ktls_keys_next() - move one direction to its next generation of keys
 * @sk:	the socket, locked, process context (setting a GCM key may sleep)
 * @tx:	our direction, else the peer's
 *
 * RFC 8446 7.2: application_traffic_secret_N+1 from N, then key and iv
 * from that (7.3); the sequence number starts again at 0 (5.3).  Only for
 * the keys of a kernel handshake.  The caller has sent (TX) or received
 * (RX) the KeyUpdate under the old key.  On failure the direction has no
 * usable key, so the socket is put in error.
 * Return: 0, or the errno also left in sk_err.
 */
int ktls_keys_next(struct sock *sk, bool tx)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	const struct ktls_cipher *cs = ctx->prot.cipher;
	struct ktls_secrets *sec = ctx->secrets;
	u8 secret[KTLS_HASH_MAX_SIZE];
	u8 key[KTLS_MAX_KEY_LEN];
	u8 iv[KTLS_MAX_IV_LEN];
	union ktls_crypto_info info;
	u8 *raw = (u8 *)&info;
	int err;

	sock_owned_by_me(sk);
	if (WARN_ON_ONCE(!sec || !c->ready))
		return -EINVAL;
	/* The KeyUpdate went under the old key: the device keeps that one. */
	if (tx)
		ktls_device_tx_rekey(sk, ctx);
	err = ktls_tls13_next_secret(sec->hash, tx ? sec->tx : sec->rx,
				     sec->len, secret, sec->len);
	if (!err)
		err = ktls_tls13_traffic_keys(sec->hash, secret, sec->len, key,
					      cs->key_len, iv,
					      cs->salt_len + cs->iv_len);
	if (!err) {
		memcpy(&info, &c->info, cs->info_len);
		memcpy(raw + cs->key_off, key, cs->key_len);
		memcpy(raw + cs->salt_off, iv, cs->salt_len);
		memcpy(raw + cs->iv_off, iv + cs->salt_len, cs->iv_len);
		memset(raw + cs->seq_off, 0, cs->seq_len);
		err = ktls_crypto_key(c, cs, &info);
		memzero_explicit(&info, sizeof(info));
	}
	if (!err)
		memcpy(tx ? sec->tx : sec->rx, secret, sec->len);
	memzero_explicit(secret, sizeof(secret));
	memzero_explicit(key, sizeof(key));
	memzero_explicit(iv, sizeof(iv));

	if (err) {
		ktls_stat_inc(sk, tx ? KTLS_STAT_TX_REKEY_ERROR :
				       KTLS_STAT_RX_REKEY_ERROR);
		WRITE_ONCE(sk->sk_err, -err);
		sk_error_report(sk);
		return err;
	}
	ktls_stat_inc(sk, tx ? KTLS_STAT_TX_REKEY_OK : KTLS_STAT_RX_REKEY_OK);
	return 0;
}
