// SPDX-License-Identifier: GPL-2.0-only
/*
 * TLS 1.3 KeyUpdate (RFC 8446 4.6.3): what follows when the peer's
 * arrives, and building and sending ours.  This file owns the "answer
 * owed" flag, struct ktls_ctx.key_update_due, and the KTLS_HS_REKEY
 * entry; the record layer knows only when to call it.
 *
 * On keys the application set, a KeyUpdate is the application's to act
 * on: RX stops behind it until new keys come (ktls_rx_rekeyed()).  On the
 * keys of a kernel handshake we are the TLS implementation: the RX path
 * hands over each whole KeyUpdate (put together by rx_hs.c), and the
 * next keys are derived right here (keys.c).
 *
 * Contexts: the RX calls come from the reader, in process context under
 * the socket lock, with the record that carried the KeyUpdate decrypted
 * and the next one not yet.  The TX calls run with the TX path's senders
 * serialized (ktls_tx_lock()) and the socket locked, so that no record
 * is sealed between our KeyUpdate and the switch to the next key.
 */
#include <net/sock.h>

#include "ktls.h"
#include "../offload/device.h"
#include "key_update.h"
#include "rx.h"

/**
 * ktls_key_update_queued() - follow a KeyUpdate on the application's keys
 * @sk:		the socket, locked
 * @ctx:	its context
 * @rx:		its RX state
 * @rec:	a handshake or data record just queued for the application
 *
 * A TLS 1.3 KeyUpdate ends the current RX keys: nothing more is
 * decrypted until the application sets new ones.
 */
void ktls_key_update_queued(struct sock *sk, struct ktls_ctx *ctx,
			    struct ktls_rx *rx, struct ktls_rx_rec *rec)
{
	u8 hs_type;

	if (ctx->prot.version != TLS_1_3_VERSION ||
	    rec->type != KTLS_TYPE_HANDSHAKE || !rec->plain)
		return;
	ktls_rx_rec_read(rec, rec->off, &hs_type, 1);
	if (hs_type != KTLS_KEY_UPDATE_TYPE)
		return;
	WRITE_ONCE(rx->key_expired, true);
	ktls_stat_inc(sk, KTLS_STAT_RX_REKEY_RECEIVED);
}

/**
 * ktls_key_update_received() - the peer's KeyUpdate, on a kernel handshake's keys
 * @sk:		the socket, locked, process context
 * @ctx:	its context
 * @requested:	the peer asked for ours (update_requested)
 *
 * The record that carried it was the last under the peer's old key: RX
 * moves to the next one before the next record is decrypted.
 * Return: 0, or the errno ktls_keys_next() left in sk_err.
 */
int ktls_key_update_received(struct sock *sk, struct ktls_ctx *ctx,
			     bool requested)
{
	int err;

	sock_owned_by_me(sk);
	ktls_stat_inc(sk, KTLS_STAT_RX_REKEY_RECEIVED);
	err = ktls_keys_next(sk, false);
	if (err)
		return err;
	/* Our RX key moved on; the device's did not. */
	ktls_device_rx_rekey(sk, ctx);
	/*
	 * Answered before our next record.  However often the peer asks,
	 * one answer is due at most, and only when we send anyway: asking
	 * cannot make us send more than the application does.
	 */
	if (requested)
		WRITE_ONCE(ctx->key_update_due, true);
	return 0;
}

/*
 * Our KeyUpdate: sealed under the key it retires, and every record after
 * it under the next one.  Sending any KeyUpdate also answers one the peer
 * asked for.
 */
static int ktls_key_update_seal(struct sock *sk, struct ktls_ctx *ctx,
				bool request, long *timeo)
{
	const u8 msg[KTLS_KEY_UPDATE_LEN] = {
		KTLS_KEY_UPDATE_TYPE, 0, 0, 1,
		request ? KTLS_KEY_UPDATE_REQUESTED :
			  KTLS_KEY_UPDATE_NOT_REQUESTED,
	};
	int err;

	err = ktls_tx_handshake(sk, msg, sizeof(msg), timeo);
	if (err)
		return err;
	WRITE_ONCE(ctx->key_update_due, false);
	return ktls_keys_next(sk, true);
}

/**
 * ktls_key_update_answer() - send the KeyUpdate the peer asked for, if owed
 * @sk:		the socket, locked, senders serialized (ktls_tx_lock())
 * @ctx:	its context
 * @timeo:	how long to wait for send buffer space; what is left of it
 *
 * RFC 8446 4.6.3: the peer's request is answered before our next record.
 * The TX path asks before each record, since a reader may take the
 * request while a sender waits for send buffer space.
 * Return: 0 (nothing owed, or sent), or a send() errno.
 */
int ktls_key_update_answer(struct sock *sk, struct ktls_ctx *ctx,
			   long *timeo)
{
	if (!ctx->key_update_due)
		return 0;
	return ktls_key_update_seal(sk, ctx, false, timeo);
}

/**
 * ktls_key_update_send() - KTLS_HS_REKEY: send our KeyUpdate now
 * @sk:		the socket, unlocked
 * @request:	ask the peer to update its keys too
 *
 * The caller made sure the handshake, if any, is over.  Waits for send
 * buffer space like a blocking send() (SO_SNDTIMEO).
 * Return: 0, -EOPNOTSUPP if the keys are not a kernel handshake's, or a
 * send() errno.
 */
int ktls_key_update_send(struct sock *sk, bool request)
{
	struct ktls_ctx *ctx;
	long timeo;
	int err;

	lock_sock(sk);
	ctx = ktls_ctx(sk);
	err = ktls_keys_install_staged(sk);
	if (!err && (!ctx->secrets || !ctx->tx))
		err = -EOPNOTSUPP;
	release_sock(sk);
	if (err)
		return err;

	/* ctx->tx is set once with the keys, freed after the last socket call. */
	err = ktls_tx_lock(sk);
	if (err)
		return err;
	timeo = sock_sndtimeo(sk, false);
	err = ktls_key_update_seal(sk, ctx, request, &timeo);
	ktls_tx_unlock(sk);
	return err;
}
