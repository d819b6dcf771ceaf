// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLS 1.3 server handshake (RFC 8446): the choice of suite, group,
 * identity and ALPN protocol from a ClientHello, the key schedule, and
 * the server's flight.  Certificate authentication with ECDSA P-256
 * and (EC)DHE key exchange, or resumption from one of our tickets with
 * (EC)DHE (tls13_psk.c); client certificates when the listener asks
 * for them (client_auth.c); no early data.  The
 * core (engine.c) hands over a first ClientHello that negotiated TLS 1.3
 * and dispatches the client's later messages to the states here,
 * KTLS_HS_WAIT_CH2, KTLS_HS_WAIT_CERT, KTLS_HS_WAIT_CERT_VERIFY and
 * KTLS_HS_WAIT_FINISHED; engine.c draws the
 * transitions of both versions.  Records live in hs_records.c, message
 * layouts in the codec files.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/kdf.h>
#include <ktls_hs/p256.h>

#include "engine.h"
#include "hs_records.h"
#include "negotiate.h"
#include "server.h"
#include "steps.h"
#include "tls13_kex.h"
#include "tls13_psk.h"

/*
 * Upper bounds of the server's messages but Certificate, headers
 * included, for sizing the output buffer.  ServerHello: version, random,
 * session id, suite, compression, extensions of supported_versions,
 * pre_shared_key and the largest key_share, a SecP256r1MLKEM768 one.
 * EncryptedExtensions: an empty server_name and one ALPN protocol of up
 * to 255 bytes.
 */
#define KTLS_HS_HRR_MAX		128
#define KTLS_HS_SH_MAX		(128 + KTLS_HS_KEX_SERVER_MAX)
#define KTLS_HS_EE_MAX		320
#define KTLS_HS_CV_MAX		(KTLS_HS_MSG_HDR_LEN + 4 + KTLS_P256_SIG_DER_MAX)
#define KTLS_HS_FIN_MAX		(KTLS_HS_MSG_HDR_LEN + KTLS_HASH_MAX_SIZE)
#define KTLS_HS_CCS_LEN		(KTLS_HEADER_LEN + 1)

/*
 * The key exchange's memory is borrowed from the input buffer, beside
 * the client's share; it is there whatever the ClientHello's size.
 */
static_assert(sizeof(struct ktls_hs_kex) <=
	      KTLS_HS_RX_SPARE_MIN(KTLS_HS_KEX_CLIENT_MAX));
static_assert(__alignof__(struct ktls_hs_kex) <= KTLS_HS_RX_SPARE_ALIGN);

/*
 * Output bytes a TLS 1.3 exchange needs with a Certificate message of
 * @cert_len bytes.  Everything may be queued at once: HelloRetryRequest,
 * one ChangeCipherSpec, ServerHello, the protected rest, a ticket of
 * @nst_len bytes, an alert.  Room for the ticket is kept whether tickets
 * are on or not,
 * so that turning them on never makes an identity's chain too large
 * for the pool after setsockopt(KTLS_HS_IDENTITY) accepted it.
 * Protected records are counted at 2^14 bytes: a client's smaller
 * record_size_limit is taken only if the flight still fits the buffer
 * (ktls_hs13_record_limit()).  The extra record of framing per part is
 * margin.
 */
size_t ktls_hs13_out_len(size_t cert_len, size_t nst_len)
{
	size_t flight = KTLS_HS_EE_MAX + cert_len + KTLS_HS_CV_MAX +
			KTLS_HS_FIN_MAX;

	return ktls_hs_tx_framed_len(KTLS_HS_HRR_MAX, false) +
	       KTLS_HS_CCS_LEN +
	       ktls_hs_tx_framed_len(KTLS_HS_SH_MAX, false) +
	       ktls_hs_tx_framed_len(flight, true) +
	       ktls_hs_tx_framed_len(nst_len, true) +
	       2 * KTLS_HEADER_LEN + KTLS_HS_PROT_OVERHEAD +
	       KTLS_HS_ALERT_ROOM;
}

/* ---------------------------------------------------------- the choice */

/*
 * Whether our protected messages, cut into records of @max_plain content
 * bytes, fit the output buffer behind what it holds now and the
 * ServerHello and ChangeCipherSpec still to come: the flight through
 * Finished, then the ticket if tickets are on, all of which may be
 * queued before the client reads any of it.
 */
static bool ktls_hs13_limit_fits(const struct ktls_hs *hs,
				 unsigned int max_plain)
{
	size_t parts[2] = { KTLS_HS_EE_MAX + KTLS_HS_FIN_MAX };
	unsigned int nr = 1;
	size_t before;

	if (!hs->session.resumed)
		parts[0] += ktls_hs_cert_request_len(hs->cfg) +
			    ktls_hs_cert_msg_len(hs->id) + KTLS_HS_CV_MAX;
	if (hs->cfg->tickets)
		parts[nr++] = ktls_hs_nst_len(hs->cfg);
	before = hs->tx.len + ktls_hs_tx_framed_len(KTLS_HS_SH_MAX, false) +
		 KTLS_HS_CCS_LEN + KTLS_HS_ALERT_ROOM;
	if (before > hs->tx.cap)
		return false;
	return ktls_hs_tx_limit_fits(hs->tx.cap - before, parts, nr,
				     max_plain);
}

/*
 * The client's record_size_limit, acknowledged if our flight fits the
 * output buffer at it, else declined (ktls_hs_decline_record_limit()).
 */
static void ktls_hs13_record_limit(struct ktls_hs *hs,
				   const struct ktls_hs_client_hello *ch)
{
	ktls_hs_take_record_limit(hs, ch, KTLS_VERSION_TLS13);
	if (hs->peer_max_plain &&
	    !ktls_hs13_limit_fits(hs, hs->peer_max_plain))
		ktls_hs_decline_record_limit(hs);
}

/* Take the choice, and note it for getsockopt. */
static void ktls_hs_accept(struct ktls_hs *hs,
			   const struct ktls_hs_client_hello *ch,
			   const struct ktls_hs_choice *c)
{
	struct ktls_hs_session *s = &hs->session;

	hs->suite = c->suite;
	hs->hash_len = ktls_hash_size(c->suite->hash);
	hs->id = c->id;
	hs->sni_ack = c->sni_ack;
	hs->alpn = c->alpn;
	hs->session_id_len = ch->session_id.len;
	memcpy(hs->session_id, ch->session_id.data, ch->session_id.len);

	s->version = TLS_1_3_VERSION;
	s->suite = c->suite->id;
	s->group = c->group;
	s->cipher_type = c->suite->cipher_type;
	s->resumed = hs->psk.len != 0;
	/* The client its ticket carried, which the store still vouches for. */
	s->peer_verified = !!hs->psk.peer;
	/* RFC 6066 3: a resumed session does not acknowledge the name. */
	if (s->resumed)
		hs->sni_ack = false;
	memcpy(s->alpn, c->alpn.data, c->alpn.len);
	s->alpn[c->alpn.len] = '\0';
	ktls_hs_note_sni(hs, ch);
	ktls_hs13_record_limit(hs, ch);
}

/* --------------------------------------------------- the server side */

/* RFC 8446 D.4: one, after our first message, if the client asks for it. */
static int ktls_hs_compat_ccs(struct ktls_hs *hs)
{
	int err;

	if (!hs->session_id_len || hs->ccs_sent)
		return 0;
	err = ktls_hs_tx_ccs(&hs->tx);
	if (!err)
		hs->ccs_sent = true;
	return err;
}

static int ktls_hs_send_hello_retry(struct ktls_hs *hs,
				    const struct ktls_hs_client_hello *ch,
				    const u8 *msg, size_t len,
				    const struct ktls_hs_choice *c)
{
	struct ktls_hs_buf b;
	int err;

	err = ktls_hs_ch_retry_digest(msg, len, ch, hs->ch1_digest);
	if (err)
		return err;
	hs->hrr_group = c->group;

	/* RFC 8446 4.4.1: ClientHello1 becomes a message_hash message. */
	err = ktls_transcript_hrr(&hs->transcript);
	if (err)
		return err;
	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs_build_hello_retry(&b, &ch->session_id, c->suite->id,
					c->group, NULL);
	if (!err)
		err = ktls_transcript_update(&hs->transcript, b.data, b.len);
	if (!err)
		err = ktls_hs_tx_commit(&hs->tx, &b, KTLS_TYPE_HANDSHAKE);
	if (!err)
		err = ktls_hs_compat_ccs(hs);
	if (!err)
		hs->state = KTLS_HS_WAIT_CH2;
	return err;
}

static int ktls_hs_send_server_hello(struct ktls_hs *hs,
				     const struct ktls_hs_choice *c,
				     const u8 *pub, size_t pub_len)
{
	struct ktls_hs_vec sid = { hs->session_id, hs->session_id_len };
	u8 random[KTLS_HS_RANDOM_LEN];
	struct ktls_hs_buf b;
	int err;

	get_random_bytes(random, sizeof(random));
	ktls_hs_tx_stage(&hs->tx, &b);
	if (hs->psk.len)
		err = ktls_hs_build_server_hello_psk(&b, random, &sid,
						     c->suite->id, c->group,
						     pub, pub_len,
						     hs->psk.index);
	else
		err = ktls_hs_build_server_hello(&b, random, &sid,
						 c->suite->id, c->group, pub,
						 pub_len);
	if (!err)
		err = ktls_transcript_update(&hs->transcript, b.data, b.len);
	if (!err)
		err = ktls_hs_tx_commit(&hs->tx, &b, KTLS_TYPE_HANDSHAKE);
	if (!err)
		err = ktls_hs_compat_ccs(hs);
	return err;
}

/* Traffic key and iv of @secret, into one direction's protection. */
static int ktls_hs_set_keys(struct ktls_hs *hs, const u8 *secret, bool tx)
{
	const struct ktls_hs_suite *s = hs->suite;
	u8 key[32], iv[KTLS_LIB_AEAD_NONCE_SIZE];
	int err;

	err = ktls_tls13_traffic_keys(s->hash, secret, hs->hash_len, key,
				      s->key_len, iv, sizeof(iv));
	if (!err) {
		if (tx)
			err = ktls_hs_tx_set_key(&hs->tx, s->alg, key,
						 s->key_len, iv);
		else
			err = ktls_hs_rx_set_key(&hs->rx, s->alg, key,
						 s->key_len, iv);
	}
	memzero_explicit(key, sizeof(key));
	memzero_explicit(iv, sizeof(iv));
	return err;
}

/* RFC 8446 7.1, from the (EC)DHE secret to both handshake traffic keys. */
static int ktls_hs_handshake_keys(struct ktls_hs *hs, const u8 *shared,
				  size_t shared_len)
{
	enum ktls_hash hash = hs->suite->hash;
	u8 early[KTLS_HASH_MAX_SIZE], secret[KTLS_HASH_MAX_SIZE];
	u8 th[KTLS_HASH_MAX_SIZE];
	size_t n = hs->hash_len;
	int err;

	if (hs->psk.len)
		err = ktls_tls13_early_secret(hash, hs->psk.secret,
					      hs->psk.len, early, n);
	else
		err = ktls_tls13_early_secret(hash, NULL, 0, early, n);
	memzero_explicit(&hs->psk, sizeof(hs->psk));
	if (!err)
		err = ktls_tls13_handshake_secret(hash, early, n, shared,
						  shared_len, secret, n);
	if (!err)
		err = ktls_transcript_digest(&hs->transcript, th, n);
	if (!err)
		err = ktls_tls13_derive(hash, KTLS_TLS13_C_HS_TRAFFIC, secret,
					n, th, n, hs->c_hs, n);
	if (!err)
		err = ktls_tls13_derive(hash, KTLS_TLS13_S_HS_TRAFFIC, secret,
					n, th, n, hs->s_hs, n);
	if (!err)
		err = ktls_tls13_master_secret(hash, secret, n, hs->master, n);
	if (!err)
		err = ktls_hs_set_keys(hs, hs->c_hs, false);
	if (!err)
		err = ktls_hs_set_keys(hs, hs->s_hs, true);
	memzero_explicit(early, sizeof(early));
	memzero_explicit(secret, sizeof(secret));
	return err;
}

/* Hash the messages appended to @b since @from. */
static int ktls_hs_hash_since(struct ktls_hs *hs, const struct ktls_hs_buf *b,
			      size_t from)
{
	return ktls_transcript_update(&hs->transcript, b->data + from,
				      b->len - from);
}

/* RFC 8446 4.4.3, ecdsa_secp256r1_sha256 over the transcript so far. */
static int ktls_hs_add_cert_verify(struct ktls_hs *hs, struct ktls_hs_buf *b)
{
	u8 content[KTLS_HS_CV_CONTENT_MAX], th[KTLS_HASH_MAX_SIZE];
	u8 der[KTLS_P256_SIG_DER_MAX];
	size_t len;
	int err;

	err = ktls_transcript_digest(&hs->transcript, th, hs->hash_len);
	if (err)
		return err;
	len = ktls_hs_cert_verify_content(content, true, th, hs->hash_len);
	err = ktls_hs_sign(hs, content, len, der);
	if (err < 0)
		return err;
	return ktls_hs_build_certificate_verify(b,
						KTLS_SIG_ECDSA_SECP256R1_SHA256,
						der, err);
}

static int ktls_hs_add_finished(struct ktls_hs *hs, struct ktls_hs_buf *b)
{
	u8 th[KTLS_HASH_MAX_SIZE], vd[KTLS_HASH_MAX_SIZE];
	size_t n = hs->hash_len;
	int err;

	err = ktls_transcript_digest(&hs->transcript, th, n);
	if (!err)
		err = ktls_tls13_finished(hs->suite->hash, hs->s_hs, n, th, n,
					  vd, n);
	if (!err)
		err = ktls_hs_build_finished(b, vd, n);
	memzero_explicit(vd, sizeof(vd));
	return err;
}

static int ktls_hs_server_app_keys(struct ktls_hs *hs);

/*
 * EncryptedExtensions, CertificateRequest (if the listener asks for
 * client certificates), Certificate, CertificateVerify (these three not
 * when resuming: RFC 8446 4.3.2), Finished: built one after the other in
 * the output buffer, each hashed as it is added, then framed together
 * into as few protected records as fit.
 */
static int ktls_hs_send_protected_flight(struct ktls_hs *hs)
{
	struct ktls_hs_buf b;
	size_t from;
	int err;

	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs_build_encrypted_extensions(&b, hs->sni_ack,
						 hs->alpn.len ? &hs->alpn : NULL,
						 hs->record_limit);
	/* A resumed session was authenticated when its ticket was issued. */
	if (!err && !hs->session.resumed && hs->cfg->trust)
		err = ktls_hs_add_cert_request(hs, &b, true);
	if (!err && !hs->session.resumed)
		err = ktls_hs_add_certificate(hs, &b, true);
	if (!err)
		err = ktls_hs_hash_since(hs, &b, 0);
	from = b.len;
	if (!err && !hs->session.resumed)
		err = ktls_hs_add_cert_verify(hs, &b);
	if (!err)
		err = ktls_hs_hash_since(hs, &b, from);
	from = b.len;
	if (!err)
		err = ktls_hs_add_finished(hs, &b);
	if (!err)
		err = ktls_hs_hash_since(hs, &b, from);
	if (!err)
		err = ktls_hs_tx_commit(&hs->tx, &b, KTLS_TYPE_HANDSHAKE);
	/* The application secrets and the client's Finished hang on this. */
	if (!err)
		err = ktls_transcript_digest(&hs->transcript, hs->th,
					     hs->hash_len);
	memzero_explicit(hs->s_hs, sizeof(hs->s_hs));
	if (!err)
		err = ktls_hs_server_app_keys(hs);
	return err;
}

/*
 * Called with the ClientHello in the transcript: of the hello, only the
 * client's share is still read, so the rest of the input buffer holds
 * the key exchange, whose ML-KEM state would not fit a softirq stack.
 */
static int ktls_hs_send_server_flight(struct ktls_hs *hs,
				      const struct ktls_hs_choice *c)
{
	struct ktls_hs_kex *k;
	int err;

	k = ktls_hs_rx_spare(&hs->rx, c->share.data, c->share.len, sizeof(*k));
	if (WARN_ON_ONCE(!k))
		return -ENOSPC;
	err = ktls_hs_kex(k, c->group, c->share.data);
	if (!err)
		err = ktls_hs_send_server_hello(hs, c, k->pub, k->pub_len);
	if (!err)
		err = ktls_hs_handshake_keys(hs, k->secret, k->secret_len);
	ktls_hs_kex_wipe(k);
	if (!err)
		err = ktls_hs_send_protected_flight(hs);
	if (!err)
		hs->state = hs->cfg->trust && !hs->session.resumed ?
			    KTLS_HS_WAIT_CERT : KTLS_HS_WAIT_FINISHED;
	return err;
}

/* -------------------------------------------------------- the states */

int ktls_hs13_client_hello(struct ktls_hs *hs,
			   const struct ktls_hs_client_hello *ch,
			   const u8 *msg, size_t len)
{
	struct ktls_hs_ticket_room room;
	struct ktls_hs_choice c;
	int err;

	err = ktls_hs_negotiate(hs->cfg, ch, &c);
	if (err)
		return ktls_hs_refuse_hello(hs, err);
	err = ktls_transcript_init(&hs->transcript, c.suite->hash);
	if (err)
		return err;
	/* After a HelloRetryRequest, the binders cover it: decided then. */
	if (c.share.len) {
		err = ktls_hs_psk_select(hs->cfg, ch, msg, &hs->transcript,
					 &c, ktls_hs_ticket_room(hs, &room),
					 &hs->psk);
		if (err)
			return err;
	}
	ktls_hs_accept(hs, ch, &c);
	err = ktls_transcript_update(&hs->transcript, msg, len);
	if (err)
		return err;

	/* RFC 8446 5: the client may send its one CCS from now on. */
	hs->rx.ccs_ok = true;
	/* RFC 8446 4.2.10: early data is declined, and skipped. */
	if (ktls_hs_ch_has(ch, KTLS_EXTB_EARLY_DATA))
		hs->rx.early_skip = KTLS_HS_EARLY_SKIP_MAX;

	if (!c.share.len)
		return ktls_hs_send_hello_retry(hs, ch, msg, len, &c);
	return ktls_hs_send_server_flight(hs, &c);
}

/*
 * RFC 8446 4.1.2: the first ClientHello again, byte for byte, but for the
 * share we asked for (4.2.8: that one alone), no early_data, and the
 * extensions a retry may change; anything else is illegal_parameter.
 */
static int ktls_hs_check_client_hello2(struct ktls_hs *hs,
				       const struct ktls_hs_client_hello *ch,
				       const u8 *msg, size_t len)
{
	u8 digest[KTLS_HS_CH_DIGEST_LEN];
	struct ktls_hs_vec share;
	int err;

	err = ktls_hs_ch_retry_digest(msg, len, ch, digest);
	if (err)
		return err;
	if (memcmp(digest, hs->ch1_digest, sizeof(digest)) ||
	    ktls_hs_ch_has(ch, KTLS_EXTB_EARLY_DATA))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	if (!ktls_hs_ch_key_share(ch, hs->hrr_group, &share) ||
	    ch->key_shares.len != 4 + share.len)
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

int ktls_hs13_wait_client_hello2(struct ktls_hs *hs, const u8 *msg,
				 size_t len)
{
	struct ktls_hs_ticket_room room;
	struct ktls_hs_client_hello ch;
	struct ktls_hs_choice c;
	int err;

	err = ktls_hs_parse_client_hello(msg, len, &ch);
	if (err)
		return err;
	err = ktls_hs_check_client_hello2(hs, &ch, msg, len);
	if (err)
		return err;
	err = ktls_hs_negotiate(hs->cfg, &ch, &c);
	if (err)
		return err;
	if (c.suite != hs->suite || c.group != hs->hrr_group || !c.share.len)
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	err = ktls_hs_psk_select(hs->cfg, &ch, msg, &hs->transcript, &c,
				 ktls_hs_ticket_room(hs, &room), &hs->psk);
	if (err)
		return err;
	ktls_hs_accept(hs, &ch, &c);
	err = ktls_transcript_update(&hs->transcript, msg, len);
	if (err)
		return err;
	/* After a HelloRetryRequest the client sends no early data. */
	hs->rx.early_skip = 0;
	return ktls_hs_send_server_flight(hs, &c);
}

static int ktls_hs_fill_info(union ktls_crypto_info *ci,
			     const struct ktls_hs_suite *s, const u8 *key,
			     const u8 iv[KTLS_LIB_AEAD_NONCE_SIZE])
{
	const struct ktls_cipher *cs = ktls_cipher_find(s->cipher_type);
	u8 *p = (u8 *)ci;

	if (!cs || cs->key_len != s->key_len ||
	    cs->salt_len + cs->iv_len != KTLS_LIB_AEAD_NONCE_SIZE)
		return -EINVAL;
	memset(ci, 0, sizeof(*ci));
	ci->info.version = TLS_1_3_VERSION;
	ci->info.cipher_type = s->cipher_type;
	/* The 1.3 static iv is salt || iv as the SOL_TLS API splits it. */
	memcpy(p + cs->salt_off, iv, cs->salt_len);
	memcpy(p + cs->iv_off, iv + cs->salt_len, cs->iv_len);
	memcpy(p + cs->key_off, key, cs->key_len);
	return 0;
}

/*
 * One direction's application traffic secret and keys (RFC 8446 7.1,
 * 7.3); the secret stays with the keys for KeyUpdate.
 */
static int ktls_hs_app_keys(struct ktls_hs *hs, enum ktls_tls13_secret which,
			    u8 *secret, union ktls_crypto_info *ci)
{
	const struct ktls_hs_suite *s = hs->suite;
	u8 key[32], iv[KTLS_LIB_AEAD_NONCE_SIZE];
	size_t n = hs->hash_len;
	int err;

	err = ktls_tls13_derive(s->hash, which, hs->master, n, hs->th, n,
				secret, n);
	if (!err)
		err = ktls_tls13_traffic_keys(s->hash, secret, n, key,
					      s->key_len, iv, sizeof(iv));
	if (!err)
		err = ktls_hs_fill_info(ci, s, key, iv);
	memzero_explicit(key, sizeof(key));
	memzero_explicit(iv, sizeof(iv));
	return err;
}

/*
 * Once our Finished is out, what we send is under our first application
 * traffic key (RFC 8446 4.4.4, 7.1): the client reads an alert about its
 * Finished, or a NewSessionTicket, with that key, at sequence number 0.
 * Both application secrets hang on the transcript through our Finished
 * alone, so ours is known now; the client's is taken with its Finished.
 */
static int ktls_hs_server_app_keys(struct ktls_hs *hs)
{
	int err;

	err = ktls_hs_app_keys(hs, KTLS_TLS13_S_AP_TRAFFIC,
			       hs->keys.secrets.tx, &hs->keys.tx);
	if (!err)
		err = ktls_hs_set_keys(hs, hs->keys.secrets.tx, true);
	return err;
}

/*
 * RFC 8446 4.6.1: a NewSessionTicket right behind the handshake, under
 * our first application traffic key, so the record layer takes over at
 * the sequence number after it.  The resumption master secret is over
 * the transcript through the client's Finished (@msg).  With a client
 * certificate, that Finished came after it was verified; the ticket
 * carries it (a resumed session's, the one its own ticket carried).
 */
static int ktls_hs_send_ticket(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	const struct ktls_hs_suite *s = hs->suite;
	u8 res[KTLS_HASH_MAX_SIZE], th[KTLS_HASH_MAX_SIZE];
	const struct ktls_hs_ticket_room *peer = NULL;
	struct ktls_hs_ticket_room room;
	const struct ktls_cipher *cs;
	union ktls_crypto_info *ci = &hs->keys.tx;
	size_t n = hs->hash_len;
	struct ktls_hs_buf b;
	int err;

	cs = ktls_cipher_find(s->cipher_type);
	if (!cs || cs->seq_len != sizeof(u64))
		return -EINVAL;
	err = ktls_transcript_update(&hs->transcript, msg, len);
	if (!err)
		err = ktls_transcript_digest(&hs->transcript, th, n);
	if (!err)
		err = ktls_tls13_derive(s->hash, KTLS_TLS13_RES_MASTER,
					hs->master, n, th, n, res, n);
	if (err)
		goto out;
	if (hs->session.peer_verified)
		peer = ktls_hs_ticket_room(hs, &room);
	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs_psk_new_ticket(hs->cfg, s->hash, s->id, res, n, hs->id,
				     hs->session.sni, peer, &b);
	/*
	 * No key to seal with (the operator's was revoked), a client
	 * certificate about to expire: no ticket.
	 */
	if (err == -ENOKEY) {
		err = 0;
		goto out;
	}
	if (!err)
		err = ktls_hs_tx_commit(&hs->tx, &b, KTLS_TYPE_HANDSHAKE);
	if (!err)
		put_unaligned_be64(hs->tx.prot.seq, (u8 *)ci + cs->seq_off);
out:
	memzero_explicit(res, sizeof(res));
	return err;
}

/*
 * RFC 8446 4.4.2: the client's Certificate, in answer to our request; an
 * empty one goes straight to its Finished where the policy lets it.
 */
int ktls_hs13_wait_certificate(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	bool presented;
	int err;

	err = ktls_hs_take_client_cert(hs, msg, len, true, &presented);
	if (!err)
		err = ktls_transcript_update(&hs->transcript, msg, len);
	if (err)
		return err;
	hs->state = presented ? KTLS_HS_WAIT_CERT_VERIFY : KTLS_HS_WAIT_FINISHED;
	return 0;
}

/*
 * RFC 8446 4.4.3: the client's signature over the transcript through its
 * Certificate, with the context string of a client.
 */
int ktls_hs13_wait_certificate_verify(struct ktls_hs *hs, const u8 *msg,
				      size_t len)
{
	u8 content[KTLS_HS_CV_CONTENT_MAX], th[KTLS_HASH_MAX_SIZE], digest[32];
	size_t n;
	int err;

	err = ktls_transcript_digest(&hs->transcript, th, hs->hash_len);
	if (err)
		return err;
	n = ktls_hs_cert_verify_content(content, false, th, hs->hash_len);
	err = ktls_hash_digest(KTLS_HASH_SHA256, content, n, digest,
			       sizeof(digest));
	if (!err)
		err = ktls_hs_check_client_cert_verify(hs, msg, len, digest);
	if (!err)
		err = ktls_transcript_update(&hs->transcript, msg, len);
	if (err)
		return err;
	hs->state = KTLS_HS_WAIT_FINISHED;
	return 0;
}

int ktls_hs13_wait_finished(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	u8 th[KTLS_HASH_MAX_SIZE];
	const u8 *vd;
	int err;

	err = ktls_hs_parse_finished(msg, len, hs->hash_len, &vd);
	if (err)
		return err;
	/*
	 * The client's Finished covers the transcript through its last
	 * message: our Finished, or its own Certificate or
	 * CertificateVerify (RFC 8446 4.4.4).
	 */
	err = ktls_transcript_digest(&hs->transcript, th, hs->hash_len);
	if (!err)
		err = ktls_tls13_finished_check(hs->suite->hash, hs->c_hs,
						hs->hash_len, th, hs->hash_len,
						vd, hs->hash_len);
	if (err == -EBADMSG)
		return KTLS_ALERT_DECRYPT_ERROR;
	if (!err)
		err = ktls_hs_app_keys(hs, KTLS_TLS13_C_AP_TRAFFIC,
				       hs->keys.secrets.rx, &hs->keys.rx);
	if (!err) {
		hs->keys.secrets.hash = hs->suite->hash;
		hs->keys.secrets.len = hs->hash_len;
	}
	if (!err && hs->cfg->tickets)
		err = ktls_hs_send_ticket(hs, msg, len);
	if (err)
		return err;
	hs->state = KTLS_HS_STATE_DONE;
	ktls_hs_wipe_handshake(hs);
	return 0;
}
