// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLS 1.2 server handshake: ECDHE-ECDSA (RFC 5246, RFC 8422) with
 * AES-GCM (RFC 5289) and ChaCha20-Poly1305 (RFC 7905), the extended
 * master secret (RFC 7627) and the renegotiation indication of RFC 5746.
 * The core (engine.c) hands over a ClientHello whose version negotiated
 * to 1.2 and dispatches the client's later messages to the states here,
 * KTLS_HS12_WAIT_CERT, KTLS_HS12_WAIT_CKE, KTLS_HS12_WAIT_CERT_VERIFY,
 * KTLS_HS12_WAIT_FINISHED and KTLS_HS12_WAIT_RESUMED;
 * engine.c draws the transitions of both versions.
 *
 * Sessions resume from session tickets only (RFC 5077, tls12_ticket.c),
 * never by session id, and there is no renegotiation: a handshake is
 * the only one on its connection, and a ClientHello after it is refused
 * by the record layer.  No RSA key exchange, no CBC, no compression:
 * what is not offered here cannot be negotiated.
 */
#include <crypto/utils.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/tls.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/x25519.h>

#include "negotiate.h"
#include "server.h"
#include "steps.h"
#include "tls12.h"

/* RFC 5289, RFC 7905 */
#define KTLS_SUITE12_ECDHE_ECDSA_AES_128_GCM_SHA256	0xc02b
#define KTLS_SUITE12_ECDHE_ECDSA_AES_256_GCM_SHA384	0xc02c
#define KTLS_SUITE12_ECDHE_ECDSA_CHACHA20_POLY1305	0xcca9

static const struct ktls_hs12_suite ktls_hs12_suites[] = {
	{ KTLS_SUITE12_ECDHE_ECDSA_AES_128_GCM_SHA256,
	  KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
	  KTLS_HASH_SHA256, KTLS_LIB_AES_GCM, 16, 4, TLS_CIPHER_AES_GCM_128 },
	{ KTLS_SUITE12_ECDHE_ECDSA_AES_256_GCM_SHA384,
	  KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
	  KTLS_HASH_SHA384, KTLS_LIB_AES_GCM, 32, 4, TLS_CIPHER_AES_GCM_256 },
	{ KTLS_SUITE12_ECDHE_ECDSA_CHACHA20_POLY1305,
	  KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	  KTLS_HASH_SHA256, KTLS_LIB_CHACHA20_POLY1305, 32, 12,
	  TLS_CIPHER_CHACHA20_POLY1305 },
};

/* RFC 8446 4.1.3: the last 8 bytes of a 1.2 ServerHello.random of a 1.3 server */
static const u8 ktls_hs12_downgrade[8] = {
	0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x01,
};

#define KTLS_HS12_SHARE_MAX	KTLS_P256_POINT_LEN
#define KTLS_HS12_PMS_MAX	32	/* X25519 or the P-256 x coordinate */
#define KTLS_HS12_KEY_BLOCK_MAX	(2 * 32 + 2 * 12)

const struct ktls_hs12_suite *ktls_hs12_suite_find(u16 id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ktls_hs12_suites); i++)
		if (ktls_hs12_suites[i].id == id)
			return &ktls_hs12_suites[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_suite_find);

size_t ktls_hs12_out_len(size_t cert_len, size_t nst_len)
{
	/*
	 * All in plaintext records but the Finished, within the extra; a
	 * 1.3 NewSessionTicket bounds ours.
	 */
	return ktls_hs_tx_framed_len(cert_len + KTLS_HS12_OUT_EXTRA +
				     nst_len, false) +
	       KTLS_HS_ALERT_ROOM;
}

/* ---------------------------------------------------------- the choice */

/**
 * struct ktls_hs12_choice - what a 1.2 ClientHello leads us to
 * @suite:	the first of the client's suites we allow
 * @group:	X25519 if the client takes it, else P-256
 * @id:		identity by server_name, else the first
 * @sni_ack:	@id was chosen by name
 * @alpn:	the protocol chosen, len 0 if none
 * @exts:	what the ServerHello answers with
 */
struct ktls_hs12_choice {
	const struct ktls_hs12_suite *suite;
	u16 group;
	const struct ktls_identity *id;
	bool sni_ack;
	struct ktls_hs_vec alpn;
	struct ktls_hs12_sh_exts exts;
};

static int ktls_hs12_choose_suite(const struct ktls_hs_config *cfg,
				  const struct ktls_hs_client_hello *ch,
				  struct ktls_hs12_choice *c)
{
	const struct ktls_hs12_suite *s;
	unsigned int i;

	/* The client's order among what we allow, as for 1.3. */
	for (i = 0; i + 2 <= ch->suites.len; i += 2) {
		s = ktls_hs12_suite_find(get_unaligned_be16(ch->suites.data + i));
		if (s && (cfg->suites & s->bit)) {
			c->suite = s;
			return 0;
		}
	}
	return KTLS_ALERT_HANDSHAKE_FAILURE;
}

/*
 * RFC 8422 5.1.1: a client without supported_groups is taken to speak
 * any curve, and P-256 is the one every ECC client has.  X25519 is
 * preferred, as in 1.3.
 */
static int ktls_hs12_choose_group(const struct ktls_hs_config *cfg,
				  const struct ktls_hs_client_hello *ch,
				  struct ktls_hs12_choice *c)
{
	bool listed = ktls_hs_ch_has(ch, KTLS_EXTB_SUPPORTED_GROUPS);

	/*
	 * RFC 8422 5.1.1: in 1.2 the list also names the curves the
	 * client verifies signatures on, and our certificates are P-256.
	 */
	if (listed && !ktls_hs_vec_has_u16(&ch->groups, KTLS_GROUP_SECP256R1))
		return KTLS_ALERT_HANDSHAKE_FAILURE;
	if ((cfg->groups & KTLS_HS_GROUP_X25519) && listed &&
	    ktls_hs_vec_has_u16(&ch->groups, KTLS_GROUP_X25519))
		c->group = KTLS_GROUP_X25519;
	else if ((cfg->groups & KTLS_HS_GROUP_SECP256R1) &&
		 (!listed || ktls_hs_vec_has_u16(&ch->groups,
						 KTLS_GROUP_SECP256R1)))
		c->group = KTLS_GROUP_SECP256R1;
	else
		return KTLS_ALERT_HANDSHAKE_FAILURE;
	return 0;
}

/* RFC 5746 3.6: an initial handshake carries an empty renegotiated_connection. */
static int ktls_hs12_check_reneg(const struct ktls_hs_client_hello *ch,
				 struct ktls_hs12_choice *c)
{
	if (ktls_hs_ch_has(ch, KTLS_EXTB_RENEGOTIATION_INFO)) {
		if (ch->renegotiation_info.len != 1 ||
		    ch->renegotiation_info.data[0])
			return KTLS_ALERT_HANDSHAKE_FAILURE;
		c->exts.reneg = true;
	}
	if (ch->scsv_reneg)
		c->exts.reneg = true;
	return 0;
}

static int ktls_hs12_negotiate(const struct ktls_hs_config *cfg,
			       const struct ktls_hs_client_hello *ch,
			       struct ktls_hs12_choice *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	/*
	 * RFC 7507: a client retrying with a lower version than it speaks,
	 * to a server that speaks the higher one, is being downgraded.
	 */
	if (ch->scsv_fallback &&
	    ktls_hs_version_enabled(cfg, KTLS_VERSION_TLS13))
		return KTLS_ALERT_INAPPROPRIATE_FALLBACK;
	err = ktls_hs12_check_reneg(ch, c);
	if (err)
		return err;
	/* RFC 7627 5.3: full handshakes without it are refused by policy. */
	c->exts.ems = ktls_hs_ch_has(ch, KTLS_EXTB_EXTENDED_MASTER_SECRET);
	if (!c->exts.ems && !cfg->ems_optional)
		return KTLS_ALERT_HANDSHAKE_FAILURE;

	err = ktls_hs12_choose_suite(cfg, ch, c);
	if (err)
		return err;
	err = ktls_hs12_choose_group(cfg, ch, c);
	if (err)
		return err;
	/* RFC 8422 5.1.2: uncompressed points are the only ones we take. */
	if (ktls_hs_ch_has(ch, KTLS_EXTB_EC_POINT_FORMATS)) {
		if (!ktls_hs_vec_has_u8(&ch->ec_point_formats,
					KTLS_HS12_POINT_UNCOMPRESSED))
			return KTLS_ALERT_ILLEGAL_PARAMETER;
		c->exts.ec_point_formats = true;
	}
	/*
	 * RFC 5246 7.4.1.4.1: without signature_algorithms the client
	 * expects SHA-1, which we never sign with.
	 */
	if (!ktls_hs_ch_has(ch, KTLS_EXTB_SIGNATURE_ALGORITHMS) ||
	    !ktls_hs_vec_has_u16(&ch->sig_algs, KTLS_SIG_ECDSA_SECP256R1_SHA256))
		return KTLS_ALERT_HANDSHAKE_FAILURE;

	if (cfg->alpn_len && ktls_hs_ch_has(ch, KTLS_EXTB_ALPN)) {
		struct ktls_hs_vec ours = { cfg->alpn, cfg->alpn_len };

		if (!ktls_hs_alpn_select(ch, &ours, &c->alpn))
			return KTLS_ALERT_NO_APPLICATION_PROTOCOL;
		c->exts.alpn = &c->alpn;
	}
	err = ktls_hs_choose_identity(cfg, ch, &c->id, &c->sni_ack);
	c->exts.sni_ack = c->sni_ack;
	return err;
}

/* Take the choice, and note it for getsockopt. */
static void ktls_hs12_accept(struct ktls_hs *hs,
			     const struct ktls_hs_client_hello *ch,
			     const struct ktls_hs12_choice *c)
{
	struct ktls_hs_session *s = &hs->session;

	hs->tls12.suite = c->suite;
	hs->tls12.group = c->group;
	hs->tls12.ems = c->exts.ems;
	hs->tls12.ticket = c->exts.session_ticket;
	memcpy(hs->tls12.client_random, ch->random, KTLS_HS_RANDOM_LEN);
	hs->hash_len = ktls_hash_size(c->suite->hash);
	hs->id = c->id;
	hs->sni_ack = c->sni_ack;
	hs->alpn = c->alpn;

	s->version = TLS_1_2_VERSION;
	s->suite = c->suite->id;
	s->group = c->group;
	s->cipher_type = c->suite->cipher_type;
	s->resumed = false;
	memcpy(s->alpn, c->alpn.data, c->alpn.len);
	s->alpn[c->alpn.len] = '\0';
	ktls_hs_note_sni(hs, ch);
	ktls_hs_take_record_limit(hs, ch, KTLS_VERSION_TLS12);
}

/* --------------------------------------------------- the server flight */

/*
 * RFC 8422 5.4: our ephemeral key and its signature over both randoms
 * and the parameters, with ecdsa_secp256r1_sha256 whatever the suite.
 */
static int ktls_hs12_add_key_exchange(struct ktls_hs *hs, struct ktls_hs_buf *b)
{
	u8 signed_data[2 * KTLS_HS_RANDOM_LEN + KTLS_HS12_PARAMS_MAX];
	u8 der[KTLS_P256_SIG_DER_MAX];
	u8 pub[KTLS_HS12_SHARE_MAX];
	u8 *params = signed_data + 2 * KTLS_HS_RANDOM_LEN;
	size_t pub_len, params_len;
	int err;

	if (hs->tls12.group == KTLS_GROUP_X25519) {
		err = ktls_x25519_keygen(hs->tls12.priv, pub);
		pub_len = KTLS_X25519_KEY_LEN;
	} else {
		err = ktls_p256_ecdh_keygen(hs->tls12.priv, pub);
		pub_len = KTLS_P256_POINT_LEN;
	}
	if (err)
		return err;
	params_len = ktls_hs12_ecdh_params(params, hs->tls12.group, pub,
					   pub_len);
	if (!params_len)
		return -EINVAL;
	memcpy(signed_data, hs->tls12.client_random, KTLS_HS_RANDOM_LEN);
	memcpy(signed_data + KTLS_HS_RANDOM_LEN, hs->tls12.server_random,
	       KTLS_HS_RANDOM_LEN);
	err = ktls_hs_sign(hs, signed_data, 2 * KTLS_HS_RANDOM_LEN + params_len,
			   der);
	if (err < 0)
		return err;
	return ktls_hs12_build_server_key_exchange(b, params, params_len,
						   KTLS_SIG_ECDSA_SECP256R1_SHA256,
						   der, err);
}

/*
 * Into the transcript, and into the SHA-256 of the messages a client's
 * CertificateVerify signs where the suite's hash is another, until the
 * CertificateVerify came.
 */
static int ktls_hs12_hash(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	int err;

	err = ktls_transcript_update(&hs->transcript, msg, len);
	if (!err && hs->tls12.cv_hash)
		err = ktls_transcript_update(hs->tls12.cv_hash, msg, len);
	return err;
}

/* Messages staged in @b: into the transcript, then into records. */
static int ktls_hs12_send(struct ktls_hs *hs, const struct ktls_hs_buf *b)
{
	int err;

	err = ktls_hs12_hash(hs, b->data, b->len);
	if (!err)
		err = ktls_hs_tx_commit(&hs->tx, b, KTLS_TYPE_HANDSHAKE);
	return err;
}

static void ktls_hs12_server_random(struct ktls_hs *hs)
{
	u8 *random = hs->tls12.server_random;

	get_random_bytes(random, KTLS_HS_RANDOM_LEN);
	/* RFC 8446 4.1.3: tell a 1.3 client that it was talked down. */
	if (ktls_hs_version_enabled(hs->cfg, KTLS_VERSION_TLS13))
		memcpy(random + KTLS_HS_RANDOM_LEN - sizeof(ktls_hs12_downgrade),
		       ktls_hs12_downgrade, sizeof(ktls_hs12_downgrade));
}

/*
 * ServerHello, Certificate, ServerKeyExchange, CertificateRequest (if the
 * listener asks for client certificates), ServerHelloDone: one flight.
 */
static int ktls_hs12_send_flight(struct ktls_hs *hs,
				 const struct ktls_hs12_choice *c)
{
	struct ktls_hs_buf b;
	int err;

	ktls_hs12_server_random(hs);
	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs12_build_server_hello(&b, hs->tls12.server_random, NULL,
					   c->suite->id, &c->exts);
	if (!err)
		err = ktls_hs_add_certificate(hs, &b, false);
	if (!err)
		err = ktls_hs12_add_key_exchange(hs, &b);
	if (!err && hs->cfg->trust)
		err = ktls_hs_add_cert_request(hs, &b, false);
	if (!err)
		err = ktls_hs12_build_server_hello_done(&b);
	if (!err)
		err = ktls_hs12_send(hs, &b);
	return err;
}

static int ktls_hs12_resume(struct ktls_hs *hs,
			    const struct ktls_hs_client_hello *ch,
			    struct ktls_hs12_choice *c,
			    const struct ktls_hs12_resumption *r);

int ktls_hs12_client_hello(struct ktls_hs *hs,
			   const struct ktls_hs_client_hello *ch,
			   const u8 *msg, size_t len)
{
	struct ktls_hs12_resumption r;
	struct ktls_hs_ticket_room room;
	struct ktls_hs12_choice c;
	int err;

	err = ktls_hs12_negotiate(hs->cfg, ch, &c);
	if (!err)
		err = ktls_hs12_ticket_select(hs->cfg, ch, c.id,
					      ktls_hs_ticket_room(hs, &room),
					      &r);
	if (err)
		return ktls_hs_refuse_hello(hs, err);
	if (r.suite) {
		/* The session's suite, whichever the client prefers now. */
		c.suite = r.suite;
	} else if (hs->cfg->tickets && c.exts.ems &&
		   ktls_hs_ch_has(ch, KTLS_EXTB_SESSION_TICKET)) {
		/* RFC 5077 3.2; sessions without EMS get none (RFC 7627 5.3) */
		c.exts.session_ticket = true;
	}
	ktls_hs12_accept(hs, ch, &c);
	c.exts.record_limit = hs->record_limit;
	err = ktls_transcript_init(&hs->transcript, c.suite->hash);
	/* The client's CertificateVerify signs with SHA-256 whatever the suite. */
	if (!err && hs->cfg->trust && !r.suite &&
	    c.suite->hash != KTLS_HASH_SHA256) {
		hs->tls12.cv_hash = ktls_hs12_cv_mem(hs);
		err = ktls_transcript_init(hs->tls12.cv_hash, KTLS_HASH_SHA256);
	}
	if (!err)
		err = ktls_hs12_hash(hs, msg, len);
	if (!err && r.suite)
		err = ktls_hs12_resume(hs, ch, &c, &r);
	else if (!err)
		err = ktls_hs12_send_flight(hs, &c);
	if (!err && !r.suite)
		hs->state = hs->cfg->trust ? KTLS_HS12_WAIT_CERT :
					     KTLS_HS12_WAIT_CKE;
	memzero_explicit(&r, sizeof(r));
	return err;
}

/* ----------------------------------------------------------- the keys */

int ktls_hs12_record_keys(const struct ktls_hs12_suite *s, const u8 *master,
			  const u8 *client_random, const u8 *server_random,
			  union ktls_crypto_info *tx,
			  union ktls_crypto_info *rx)
{
	const struct ktls_cipher *cs = ktls_cipher_find(s->cipher_type);
	u8 kb[KTLS_HS12_KEY_BLOCK_MAX];
	size_t kb_len = 2 * (s->key_len + s->iv_len);
	u8 seq[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };
	union ktls_crypto_info *ci;
	int err, i;

	if (!cs || !cs->tls12 || cs->key_len != s->key_len ||
	    cs->salt_len + cs->iv_len != KTLS_LIB_AEAD_NONCE_SIZE ||
	    cs->seq_len != sizeof(seq) ||
	    (cs->salt_len ? cs->salt_len : cs->iv_len) != s->iv_len ||
	    kb_len > sizeof(kb))
		return -EINVAL;
	err = ktls_tls12_key_block(s->hash, master, KTLS_TLS12_MASTER_SIZE,
				   client_random, server_random, kb, kb_len);
	if (err)
		goto out;
	/*
	 * RFC 5246 6.3: client_write_key, server_write_key,
	 * client_write_IV, server_write_IV.  For AES-GCM the write IV is
	 * the salt and the explicit part starts at the sequence number,
	 * as the record layer then counts it up (RFC 5288 3).
	 */
	for (i = 0; i < 2; i++) {
		const u8 *key = kb + (i ? s->key_len : 0);
		const u8 *iv = kb + 2 * s->key_len + (i ? s->iv_len : 0);
		u8 *p;

		ci = i ? tx : rx;
		p = (u8 *)ci;
		memset(ci, 0, sizeof(*ci));
		ci->info.version = TLS_1_2_VERSION;
		ci->info.cipher_type = s->cipher_type;
		memcpy(p + cs->key_off, key, cs->key_len);
		if (cs->salt_len) {
			memcpy(p + cs->salt_off, iv, cs->salt_len);
			memcpy(p + cs->iv_off, seq, cs->iv_len);
		} else {
			memcpy(p + cs->iv_off, iv, cs->iv_len);
		}
		memcpy(p + cs->seq_off, seq, sizeof(seq));
	}
out:
	memzero_explicit(kb, sizeof(kb));
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_record_keys);

/* The protection of each Finished record, from the key block's values. */
static int ktls_hs12_arm(struct ktls_hs *hs, const union ktls_crypto_info *ci,
			 bool tx)
{
	const struct ktls_hs12_suite *s = hs->tls12.suite;
	const struct ktls_cipher *cs = ktls_cipher_find(s->cipher_type);
	const u8 *p = (const u8 *)ci;
	const u8 *iv = p + (cs->salt_len ? cs->salt_off : cs->iv_off);

	if (tx)
		return ktls_hs_tx_set_key12(&hs->tx, s->alg, p + cs->key_off,
					    s->key_len, iv);
	return ktls_hs_rx_arm_key12(&hs->rx, s->alg, p + cs->key_off,
				    s->key_len, iv);
}

/* Our share against the client's point: the premaster secret. */
static int ktls_hs12_shared(struct ktls_hs *hs, const struct ktls_hs_vec *pt,
			    u8 *pms, size_t *pms_len)
{
	/* RFC 8422 5.11: a point of the wrong size or off the curve. */
	if (hs->tls12.group == KTLS_GROUP_X25519) {
		if (pt->len != KTLS_X25519_KEY_LEN)
			return KTLS_ALERT_ILLEGAL_PARAMETER;
		/* RFC 7748 6.1: the all-zero output is refused. */
		if (ktls_x25519(pms, hs->tls12.priv, pt->data))
			return KTLS_ALERT_ILLEGAL_PARAMETER;
		*pms_len = KTLS_X25519_KEY_LEN;
		return 0;
	}
	if (pt->len != KTLS_P256_POINT_LEN || pt->data[0] != 0x04 ||
	    ktls_p256_ecdh(pms, hs->tls12.priv, pt->data))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	*pms_len = KTLS_P256_SCALAR_LEN;
	return 0;
}

int ktls_hs12_wait_client_key_exchange(struct ktls_hs *hs, const u8 *msg,
				       size_t len)
{
	const struct ktls_hs12_suite *s = hs->tls12.suite;
	u8 pms[KTLS_HS12_PMS_MAX], th[KTLS_HASH_MAX_SIZE];
	struct ktls_hs_vec point;
	size_t pms_len;
	int err;

	err = ktls_hs12_parse_client_key_exchange(msg, len, &point);
	if (!err)
		err = ktls_hs12_shared(hs, &point, pms, &pms_len);
	memzero_explicit(hs->tls12.priv, sizeof(hs->tls12.priv));
	if (err)
		goto out;
	err = ktls_hs12_hash(hs, msg, len);
	if (err)
		goto out;
	/* RFC 7627 4: session_hash is the transcript through this message. */
	if (hs->tls12.ems) {
		err = ktls_transcript_digest(&hs->transcript, th, hs->hash_len);
		if (!err)
			err = ktls_tls12_extended_master_secret(s->hash, pms,
								pms_len, th,
								hs->hash_len,
								hs->master,
								KTLS_TLS12_MASTER_SIZE);
	} else {
		err = ktls_tls12_master_secret(s->hash, pms, pms_len,
					       hs->tls12.client_random,
					       hs->tls12.server_random,
					       hs->master,
					       KTLS_TLS12_MASTER_SIZE);
	}
	if (!err)
		err = ktls_hs12_record_keys(s, hs->master,
					    hs->tls12.client_random,
					    hs->tls12.server_random,
					    &hs->keys.tx, &hs->keys.rx);
	/*
	 * The client's keys take over with its ChangeCipherSpec, after its
	 * CertificateVerify if it sent a certificate.
	 */
	if (!err && hs->tls12.client_cert) {
		hs->state = KTLS_HS12_WAIT_CERT_VERIFY;
	} else {
		if (!err)
			err = ktls_hs12_arm(hs, &hs->keys.rx, false);
		if (!err)
			hs->state = KTLS_HS12_WAIT_FINISHED;
	}
out:
	memzero_explicit(pms, sizeof(pms));
	return err;
}

/*
 * RFC 5246 7.4.6: the client's Certificate, in answer to our request; an
 * empty one goes on without a CertificateVerify where the policy lets it.
 */
int ktls_hs12_wait_certificate(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	int err;

	err = ktls_hs_take_client_cert(hs, msg, len, false,
				       &hs->tls12.client_cert);
	if (!err)
		err = ktls_hs12_hash(hs, msg, len);
	if (!err)
		hs->state = KTLS_HS12_WAIT_CKE;
	return err;
}

/*
 * RFC 5246 7.4.8: the client's signature, ecdsa_secp256r1_sha256, over
 * every handshake message before this one; then its keys are armed.
 */
int ktls_hs12_wait_certificate_verify(struct ktls_hs *hs, const u8 *msg,
				      size_t len)
{
	const struct ktls_transcript *t = &hs->transcript;
	u8 digest[32];
	int err;

	if (hs->tls12.cv_hash)
		t = hs->tls12.cv_hash;
	err = ktls_transcript_digest(t, digest, sizeof(digest));
	if (!err)
		err = ktls_hs_check_client_cert_verify(hs, msg, len, digest);
	if (hs->tls12.cv_hash)
		ktls_transcript_wipe(hs->tls12.cv_hash);
	hs->tls12.cv_hash = NULL;
	if (!err)
		err = ktls_transcript_update(&hs->transcript, msg, len);
	if (!err)
		err = ktls_hs12_arm(hs, &hs->keys.rx, false);
	if (!err)
		hs->state = KTLS_HS12_WAIT_FINISHED;
	return err;
}

/* verify_data of one side over the transcript so far (RFC 5246 7.4.9). */
static int ktls_hs12_verify_data(struct ktls_hs *hs, bool server,
				 u8 vd[KTLS_TLS12_VERIFY_DATA_SIZE])
{
	u8 th[KTLS_HASH_MAX_SIZE];
	int err;

	err = ktls_transcript_digest(&hs->transcript, th, hs->hash_len);
	if (!err)
		err = ktls_tls12_finished(hs->tls12.suite->hash, hs->master,
					  KTLS_TLS12_MASTER_SIZE, server, th,
					  hs->hash_len, vd,
					  KTLS_TLS12_VERIFY_DATA_SIZE);
	return err;
}

/* The client's Finished, checked, then added to the transcript. */
static int ktls_hs12_client_finished(struct ktls_hs *hs, const u8 *msg,
				     size_t len)
{
	u8 vd[KTLS_TLS12_VERIFY_DATA_SIZE];
	const u8 *got;
	int err;

	err = ktls_hs_parse_finished(msg, len, KTLS_TLS12_VERIFY_DATA_SIZE,
				     &got);
	if (err)
		return err;
	err = ktls_hs12_verify_data(hs, false, vd);
	if (!err && crypto_memneq(vd, got, sizeof(vd)))
		err = KTLS_ALERT_DECRYPT_ERROR;
	if (!err)
		err = ktls_transcript_update(&hs->transcript, msg, len);
	memzero_explicit(vd, sizeof(vd));
	return err;
}

/*
 * ChangeCipherSpec and our Finished, which a resumed session's client
 * Finished then covers.
 */
static int ktls_hs12_server_finished(struct ktls_hs *hs)
{
	u8 vd[KTLS_TLS12_VERIFY_DATA_SIZE];
	struct ktls_hs_buf b;
	int err;

	err = ktls_hs12_verify_data(hs, true, vd);
	if (!err)
		err = ktls_hs_tx_ccs(&hs->tx);
	if (!err)
		err = ktls_hs12_arm(hs, &hs->keys.tx, true);
	if (err)
		goto out;
	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs_build_finished(&b, vd, sizeof(vd));
	if (!err)
		err = ktls_hs12_send(hs, &b);
out:
	memzero_explicit(vd, sizeof(vd));
	return err;
}

/*
 * RFC 5077 3.3: in the transcript, ahead of our ChangeCipherSpec.  With
 * the client's certificate, verified by now, if it sent one.
 */
static int ktls_hs12_send_ticket(struct ktls_hs *hs)
{
	const struct ktls_hs_ticket_room *peer = NULL;
	struct ktls_hs_ticket_room room;
	struct ktls_hs_buf b;
	int err;

	if (hs->session.peer_verified)
		peer = ktls_hs_ticket_room(hs, &room);
	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs12_ticket_new(hs->cfg, hs->tls12.suite->id, hs->master,
				   hs->tls12.ems, hs->id, hs->session.sni,
				   peer, &b);
	if (!err)
		err = ktls_hs12_send(hs, &b);
	return err;
}

static void ktls_hs12_done(struct ktls_hs *hs)
{
	hs->state = KTLS_HS_STATE_DONE;
	/* The record layer's keys are in hs->keys; the rest goes. */
	ktls_hs_wipe_handshake(hs);
}

int ktls_hs12_wait_finished(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	int err;

	err = ktls_hs12_client_finished(hs, msg, len);
	if (!err && hs->tls12.ticket)
		err = ktls_hs12_send_ticket(hs);
	if (!err)
		err = ktls_hs12_server_finished(hs);
	if (!err)
		ktls_hs12_done(hs);
	return err;
}

/*
 * RFC 5246 7.3, RFC 5077 3.1: the abbreviated handshake.  The keys come
 * from the ticket's master secret and the new randoms; the ServerHello
 * echoes the client's session id, which is how it knows (RFC 5077 3.4).
 * RFC 6066 3: a resumed session does not acknowledge the server_name.
 */
static int ktls_hs12_resume(struct ktls_hs *hs,
			    const struct ktls_hs_client_hello *ch,
			    struct ktls_hs12_choice *c,
			    const struct ktls_hs12_resumption *r)
{
	const struct ktls_hs12_suite *s = r->suite;
	struct ktls_hs_buf b;
	int err;

	hs->session.resumed = true;
	/* The client its ticket carried, which the store still vouches for. */
	hs->session.peer_verified = !!r->peer;
	hs->session.group = 0;
	hs->sni_ack = false;
	c->exts.sni_ack = false;
	memcpy(hs->master, r->master, KTLS_TLS12_MASTER_SIZE);
	ktls_hs12_server_random(hs);
	err = ktls_hs12_record_keys(s, hs->master, hs->tls12.client_random,
				    hs->tls12.server_random, &hs->keys.tx,
				    &hs->keys.rx);
	if (err)
		return err;
	ktls_hs_tx_stage(&hs->tx, &b);
	err = ktls_hs12_build_server_hello(&b, hs->tls12.server_random,
					   &ch->session_id, s->id, &c->exts);
	if (!err)
		err = ktls_hs12_send(hs, &b);
	if (!err)
		err = ktls_hs12_server_finished(hs);
	if (!err)
		err = ktls_hs12_arm(hs, &hs->keys.rx, false);
	if (!err)
		hs->state = KTLS_HS12_WAIT_RESUMED;
	return err;
}

int ktls_hs12_wait_resumed(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	int err;

	err = ktls_hs12_client_finished(hs, msg, len);
	if (!err)
		ktls_hs12_done(hs);
	return err;
}
