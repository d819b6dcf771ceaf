// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core of the server handshake engine behind engine.h: its sizing,
 * lifecycle and API, the step table that hands each client message to
 * the state waiting for it, the one failure path, and what both
 * versions' state machines share (the Certificate message, the
 * signature, the first ClientHello's refusal or hand-over).  The states
 * themselves are in tls13_server.c and tls12_server.c, which call in
 * here and never into each other: the version is chosen here, from the
 * first ClientHello.  Records live in hs_records.c, message layouts in
 * the codec files.
 *
 * Every state of both versions, and how each is left: "message / reply"
 * on each edge, [] for what is sent only sometimes, {} for a message
 * under the handshake traffic key (1.3) or the write key (1.2), CCS for
 * ChangeCipherSpec.  The step table checks the message type of each
 * waiting state before its handler runs.
 *
 *  KTLS_HS_WAIT_CH
 *   | ClientHello: parsed, and its version chosen, here
 *   |
 *   +-- no version we speak, or one whose machine refuses the hello for
 *   |   what a fuller TLS stack could serve (suite, group, signature,
 *   |   name), and the configuration hands such a hello back / nothing
 *   |     --> KTLS_HS_STATE_FALLBACK
 *   |
 *   +-- 1.3, no key share of the group we take / HelloRetryRequest, [CCS]
 *   |     --> KTLS_HS_WAIT_CH2
 *   |          | ClientHello: the first again, but with the share asked
 *   |          | for; a ticket's PSK is chosen only now, its binder
 *   |          | covering the retry
 *   |          +--> as the 1.3 hello below
 *   |
 *   +-- 1.3 / ServerHello, [CCS], {EncryptedExtensions, Certificate,
 *   |   CertificateVerify, Finished}, Certificate and CertificateVerify
 *   |   left out when a ticket's PSK resumes the session
 *   |     --> KTLS_HS_WAIT_FINISHED
 *   |          | {Finished} / [NewSessionTicket]
 *   |          +--> KTLS_HS_STATE_DONE
 *   |
 *   +-- 1.2, a full handshake / ServerHello, Certificate,
 *   |   ServerKeyExchange, ServerHelloDone
 *   |     --> KTLS_HS12_WAIT_CKE
 *   |          | ClientKeyExchange / nothing
 *   |          +--> KTLS_HS12_WAIT_FINISHED
 *   |                 | CCS, {Finished} / [NewSessionTicket], CCS,
 *   |                 | {Finished}
 *   |                 +--> KTLS_HS_STATE_DONE
 *   |
 *   +-- 1.2, a ticket resumes the session / ServerHello, CCS, {Finished}
 *         --> KTLS_HS12_WAIT_RESUMED
 *              | CCS, {Finished} / nothing
 *              +--> KTLS_HS_STATE_DONE
 *
 *  any waiting state above
 *   | a record or message malformed or out of place, a check failed, our
 *   | own error, or the client's alert (the hand-over above aside)
 *   +--> KTLS_HS_STATE_FAILED / the alert (internal_error for our own
 *        error, none after the client's); every secret wiped
 *
 * KTLS_HS_STATE_DONE, KTLS_HS_STATE_FAILED and KTLS_HS_STATE_FALLBACK
 * take no more input.  A client's CCS is not a state's message:
 * hs_records.c drops 1.3's middlebox-compatibility one, and in 1.2 turns
 * on the client's write key with it.  Ours in 1.3 goes out once, after
 * our first message, when the client's hello carried a session id.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/kdf.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/trust.h>

#include "engine.h"
#include "hs_records.h"
#include "negotiate.h"
#include "server.h"
#include "steps.h"

/* ------------------------------------------------------------- sizing */

size_t ktls_hs_cert_msg_len(const struct ktls_identity *id)
{
	/* context length, certificate_list length, then each entry */
	size_t len = KTLS_HS_MSG_HDR_LEN + 1 + 3;
	unsigned int i;

	for (i = 0; i < id->nr_certs; i++)
		len += 3 + id->certs[i].len + 2;
	return len;
}

static size_t ktls_hs_out_len(const struct ktls_hs_config *cfg)
{
	size_t cert = 0, nst;
	unsigned int i;

	for (i = 0; i < cfg->nr_identities; i++)
		cert = max(cert, ktls_hs_cert_msg_len(cfg->identities[i]));
	/* Our CertificateRequest goes with the Certificate, if we ask. */
	cert += ktls_hs_cert_request_len(cfg);
	nst = ktls_hs_nst_len(cfg);
	/* Either version may be negotiated: room for the larger exchange. */
	return max(ktls_hs12_out_len(cert, nst), ktls_hs13_out_len(cert, nst));
}

/*
 * A handshake that may verify a client's chain has the verifier's
 * working memory in front of its output buffer: too much for the
 * softirq stack, and the input buffer may hold the rest of the client's
 * flight behind its Certificate.
 */
static size_t ktls_hs_verify_room(const struct ktls_hs_config *cfg)
{
	return cfg->trust ? KTLS_HS_AUTH_ROOM : 0;
}

static bool ktls_hs_config_ok(const struct ktls_hs_config *cfg)
{
	unsigned int i;

	if (!cfg || !cfg->nr_identities ||
	    cfg->nr_identities > KTLS_HS_MAX_IDENTITIES ||
	    cfg->alpn_len > KTLS_HS_ALPN_LIST_MAX)
		return false;
	for (i = 0; i < cfg->nr_identities; i++)
		if (!cfg->identities[i] || !cfg->identities[i]->nr_certs ||
		    cfg->identities[i]->nr_certs > KTLS_IDENTITY_MAX_CERTS)
			return false;
	return true;
}

size_t ktls_hs_size(const struct ktls_hs_config *cfg)
{
	if (!ktls_hs_config_ok(cfg))
		return 0;
	return struct_size_t(struct ktls_hs, out,
			     ktls_hs_verify_room(cfg) + ktls_hs_out_len(cfg));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_size);

/* ---------------------------------------------------------- lifecycle */

struct ktls_hs *ktls_hs_init(void *mem, size_t size,
			     const struct ktls_hs_config *cfg)
{
	struct ktls_hs *hs = mem;
	size_t need = ktls_hs_size(cfg);
	size_t room;

	if (!hs || !need || size < need ||
	    !IS_ALIGNED((unsigned long)mem, __alignof__(struct ktls_hs)))
		return NULL;
	room = ktls_hs_verify_room(cfg);
	memset(hs, 0, offsetof(struct ktls_hs, tx));
	hs->cfg = cfg;
	hs->state = KTLS_HS_WAIT_CH;
	hs->verify_scratch = room ? hs->out : NULL;
	ktls_hs_tx_init(&hs->tx, hs->out + room,
			size - offsetof(struct ktls_hs, out) - room);
	ktls_hs_rx_init(&hs->rx);
	return hs;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_init);

void ktls_hs_set_peer(struct ktls_hs *hs, struct ktls_peer_cert *peer)
{
	hs->peer = peer;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_set_peer);

/* Everything the handshake keys and secrets left, but the final keys. */
void ktls_hs_wipe_handshake(struct ktls_hs *hs)
{
	ktls_transcript_wipe(&hs->transcript);
	memzero_explicit(hs->s_hs, sizeof(hs->s_hs));
	memzero_explicit(hs->c_hs, sizeof(hs->c_hs));
	memzero_explicit(hs->master, sizeof(hs->master));
	memzero_explicit(hs->th, sizeof(hs->th));
	memzero_explicit(&hs->psk, sizeof(hs->psk));
	memzero_explicit(&hs->tls12, sizeof(hs->tls12));
	ktls_hs_tx_wipe(&hs->tx);
	ktls_hs_rx_wipe(&hs->rx);
}

void ktls_hs_wipe(struct ktls_hs *hs)
{
	if (!hs)
		return;
	ktls_hs_wipe_handshake(hs);
	memzero_explicit(&hs->keys, sizeof(hs->keys));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_wipe);

/*
 * Give up: @err is the alert to send, a negative errno for our own
 * failure (internal_error), or KTLS_HS_PEER_ALERT (nothing to answer).
 */
static void ktls_hs_fail(struct ktls_hs *hs, int err)
{
	u8 alert = 0;

	if (err != KTLS_HS_PEER_ALERT)
		alert = err > 0 ? err : KTLS_ALERT_INTERNAL_ERROR;
	hs->state = KTLS_HS_STATE_FAILED;
	hs->alert = alert;
	if (alert)
		ktls_hs_tx_alert(&hs->tx, alert);
	ktls_hs_wipe_handshake(hs);
	memzero_explicit(&hs->keys, sizeof(hs->keys));
}

/* ------------------------------- the certificate and the signature */

/* The chosen identity's chain as a Certificate message of either version. */
int ktls_hs_add_certificate(struct ktls_hs *hs, struct ktls_hs_buf *b,
			    bool tls13)
{
	struct ktls_hs_cert_ref certs[KTLS_IDENTITY_MAX_CERTS];
	const struct ktls_identity *id = hs->id;
	unsigned int i;

	for (i = 0; i < id->nr_certs; i++) {
		certs[i].der = id->certs[i].der;
		certs[i].len = id->certs[i].len;
	}
	return ktls_hs_build_certificate(b, certs, id->nr_certs, tls13);
}

/*
 * Both versions sign with ecdsa_secp256r1_sha256 alone (our keys are
 * P-256) and put the signature on the wire DER-encoded (RFC 8446
 * 4.4.3, RFC 8422 5.4): the digest of @content signed with the chosen
 * identity's key, into @der.  Returns the DER length or a negative errno.
 */
int ktls_hs_sign(const struct ktls_hs *hs, const u8 *content, size_t len,
		 u8 der[KTLS_P256_SIG_DER_MAX])
{
	u8 digest[32], sig[KTLS_P256_SIG_LEN];
	int err;

	err = ktls_hash_digest(KTLS_HASH_SHA256, content, len, digest,
			       sizeof(digest));
	if (!err)
		err = ktls_p256_ecdsa_sign(sig, hs->id->private_key, digest,
					   sizeof(digest));
	if (err)
		return err;
	return ktls_p256_sig_to_der(der, KTLS_P256_SIG_DER_MAX, sig);
}

/* ------------------------------------------------- the first hello */

/* The client's server_name, for getsockopt and tracing, whatever comes. */
void ktls_hs_note_sni(struct ktls_hs *hs, const struct ktls_hs_client_hello *ch)
{
	struct ktls_hs_session *s = &hs->session;
	size_t len = 0;

	if (ktls_hs_ch_has(ch, KTLS_EXTB_SERVER_NAME)) {
		len = min_t(size_t, ch->server_name.len, sizeof(s->sni) - 1);
		memcpy(s->sni, ch->server_name.data, len);
	}
	s->sni[len] = '\0';
}

/*
 * RFC 8449 4: the client's record_size_limit holds for every protected
 * record we send under keys of this handshake, handshake ones included,
 * and for the application's after it (ktls_hs_keys()).  In TLS 1.3 the
 * limit counts the inner content type.  One above the version's maximum
 * is taken as that maximum: a server must not refuse it.  Being
 * negotiated per handshake, a resumed session takes it afresh, and a
 * max_fragment_length beside it is ignored (RFC 8449 5), as we ignore
 * that extension anyway.
 *
 * Our own limit is what our receive side enforces with record_overflow:
 * 2^14 bytes of plaintext, which in TLS 1.3 is 2^14 + 1 with the type.
 */
void ktls_hs_take_record_limit(struct ktls_hs *hs,
			       const struct ktls_hs_client_hello *ch,
			       u16 version)
{
	bool tls13 = version == KTLS_VERSION_TLS13;

	hs->peer_max_plain = 0;
	hs->record_limit = 0;
	hs->session.record_limit_declined = false;
	ktls_hs_tx_set_max_plain(&hs->tx, KTLS_MAX_PLAINTEXT);
	if (!ktls_hs_ch_has(ch, KTLS_EXTB_RECORD_SIZE_LIMIT))
		return;
	hs->peer_max_plain = min_t(unsigned int,
				   ch->record_size_limit - tls13,
				   KTLS_MAX_PLAINTEXT);
	hs->record_limit = KTLS_MAX_PLAINTEXT + tls13;
	ktls_hs_tx_set_max_plain(&hs->tx, hs->peer_max_plain);
}

/*
 * The output buffer is sized for records of 2^14 bytes, and the pool
 * block it lies in for the chain: sizing it for the smallest limit a
 * client may set would cost every handshake a third more room for its
 * chain.  A client whose limit our flight does not fit at gets no answer
 * instead: without one the extension is not negotiated, and records of
 * any size the protocol permits may be sent (RFC 8449 4), as a server
 * that knows nothing of it would.
 */
void ktls_hs_decline_record_limit(struct ktls_hs *hs)
{
	hs->peer_max_plain = 0;
	hs->record_limit = 0;
	hs->session.record_limit_declined = true;
	ktls_hs_tx_set_max_plain(&hs->tx, KTLS_MAX_PLAINTEXT);
}

/*
 * Whether the alert a first ClientHello earned may hand it to userspace
 * instead: only what a fuller TLS stack could serve (another version,
 * suite, group or signature algorithm; a name of another server), never
 * a hello that is malformed or breaks the protocol.
 */
static bool ktls_hs_may_fall_back(const struct ktls_hs_config *cfg, int alert)
{
	switch (alert) {
	case KTLS_ALERT_PROTOCOL_VERSION:
	case KTLS_ALERT_HANDSHAKE_FAILURE:
		return cfg->fallback;
	case KTLS_ALERT_UNRECOGNIZED_NAME:
		return cfg->sni_policy == KTLS_HS_SNI_FALLBACK;
	}
	return false;
}

/*
 * A first ClientHello earned @alert, and nothing went out yet: refuse it,
 * or leave it to userspace where the listener asked for that.
 */
int ktls_hs_refuse_hello(struct ktls_hs *hs, int alert)
{
	if (alert > 0 && ktls_hs_may_fall_back(hs->cfg, alert)) {
		/* The glue leaves the hello in TCP's queue for the application. */
		hs->state = KTLS_HS_STATE_FALLBACK;
		hs->alert = alert;
		return 0;
	}
	return alert;
}

/*
 * Every handshake starts here, whatever its version: the version
 * decides which state machine takes the hello and the states after it.
 */
static int ktls_hs_wait_client_hello(struct ktls_hs *hs, const u8 *msg,
				     size_t len)
{
	struct ktls_hs_client_hello ch;
	int err;

	err = ktls_hs_parse_client_hello(msg, len, &ch);
	if (err)
		return err;
	ktls_hs_note_sni(hs, &ch);
	switch (ktls_hs_choose_version(hs->cfg, &ch)) {
	case KTLS_VERSION_TLS13:
		return ktls_hs13_client_hello(hs, &ch, msg, len);
	case KTLS_VERSION_TLS12:
		return ktls_hs12_client_hello(hs, &ch, msg, len);
	default:
		return ktls_hs_refuse_hello(hs, KTLS_ALERT_PROTOCOL_VERSION);
	}
}

/* ------------------------------------------------------ the step table */

/*
 * What each waiting state takes, who handles it, and whether the message
 * may share its record with the next (RFC 8446 5.1: not where a key
 * change follows; nor where the client's flight ends).
 */
static const struct ktls_hs_step {
	u8 type;
	bool more;
	ktls_hs_step_fn *handle;
} ktls_hs_steps[] = {
	[KTLS_HS_WAIT_CH]	= { KTLS_HS_CLIENT_HELLO, false, ktls_hs_wait_client_hello },
	[KTLS_HS_WAIT_CH2]	= { KTLS_HS_CLIENT_HELLO, false,
				    ktls_hs13_wait_client_hello2 },
	[KTLS_HS_WAIT_CERT]	= { KTLS_HS_CERTIFICATE, true, ktls_hs13_wait_certificate },
	[KTLS_HS_WAIT_CERT_VERIFY] = { KTLS_HS_CERTIFICATE_VERIFY, true,
				       ktls_hs13_wait_certificate_verify },
	[KTLS_HS_WAIT_FINISHED]	= { KTLS_HS_FINISHED, false, ktls_hs13_wait_finished },
	/*
	 * In TLS 1.2 the client's Certificate, ClientKeyExchange and
	 * CertificateVerify come together, its ChangeCipherSpec after
	 * them; a ClientKeyExchange with no certificate before it ends the
	 * record (ktls_hs_rx_expect()).
	 */
	[KTLS_HS12_WAIT_CERT]	= { KTLS_HS_CERTIFICATE, true,
				    ktls_hs12_wait_certificate },
	[KTLS_HS12_WAIT_CKE]	= { KTLS_HS_CLIENT_KEY_EXCHANGE, false,
				    ktls_hs12_wait_client_key_exchange },
	[KTLS_HS12_WAIT_CERT_VERIFY] = { KTLS_HS_CERTIFICATE_VERIFY, false,
					 ktls_hs12_wait_certificate_verify },
	[KTLS_HS12_WAIT_FINISHED] = { KTLS_HS_FINISHED, false, ktls_hs12_wait_finished },
	[KTLS_HS12_WAIT_RESUMED] = { KTLS_HS_FINISHED, false, ktls_hs12_wait_resumed },
};

static int ktls_hs_step(struct ktls_hs *hs, const u8 *msg, size_t len)
{
	const struct ktls_hs_step *step = &ktls_hs_steps[hs->state];

	if (msg[0] != step->type)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	return step->handle(hs, msg, len);
}

/* What the input framing checks of the message the state waits for. */
static void ktls_hs_rx_expect(struct ktls_hs *hs)
{
	hs->rx.expect = ktls_hs_steps[hs->state].type;
	hs->rx.more = ktls_hs_steps[hs->state].more ||
		      (hs->state == KTLS_HS12_WAIT_CKE && hs->tls12.client_cert);
}

/* ---------------------------------------------------------------- API */

enum ktls_hs_status ktls_hs_status(const struct ktls_hs *hs)
{
	switch (hs->state) {
	case KTLS_HS_STATE_DONE:
		return KTLS_HS_DONE;
	case KTLS_HS_STATE_FAILED:
		return KTLS_HS_FAILED;
	case KTLS_HS_STATE_FALLBACK:
		return KTLS_HS_HANDED_BACK;
	default:
		return KTLS_HS_RUNNING;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_status);

size_t ktls_hs_want(struct ktls_hs *hs, u8 **buf)
{
	*buf = NULL;
	if (ktls_hs_status(hs) != KTLS_HS_RUNNING)
		return 0;
	return ktls_hs_rx_want(&hs->rx, buf);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_want);

enum ktls_hs_status ktls_hs_received(struct ktls_hs *hs, size_t len)
{
	const u8 *msg;
	size_t msg_len;
	u8 *unused;
	int err;

	if (ktls_hs_status(hs) != KTLS_HS_RUNNING)
		return ktls_hs_status(hs);
	if (WARN_ON_ONCE(len > ktls_hs_rx_want(&hs->rx, &unused))) {
		ktls_hs_fail(hs, -EINVAL);
		return KTLS_HS_FAILED;
	}
	if (!len)
		return KTLS_HS_RUNNING;

	ktls_hs_rx_expect(hs);
	err = ktls_hs_rx_received(&hs->rx, len, &msg, &msg_len);
	/* A record may complete several messages: each in turn. */
	while (!err && msg_len) {
		err = ktls_hs_step(hs, msg, msg_len);
		if (err || ktls_hs_status(hs) != KTLS_HS_RUNNING)
			break;
		ktls_hs_rx_expect(hs);
		err = ktls_hs_rx_next(&hs->rx, &msg, &msg_len);
	}
	if (err)
		ktls_hs_fail(hs, err);
	return ktls_hs_status(hs);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_received);

size_t ktls_hs_output(struct ktls_hs *hs, const u8 **buf)
{
	return ktls_hs_tx_output(&hs->tx, buf);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_output);

void ktls_hs_output_sent(struct ktls_hs *hs, size_t len)
{
	ktls_hs_tx_sent(&hs->tx, len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_output_sent);

u8 ktls_hs_alert(const struct ktls_hs *hs)
{
	return hs->alert;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_alert);

const struct ktls_hs_session *ktls_hs_session(const struct ktls_hs *hs)
{
	return &hs->session;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_session);

int ktls_hs_keys(struct ktls_hs *hs, struct ktls_hs_keys *keys)
{
	if (hs->state != KTLS_HS_STATE_DONE)
		return -EINVAL;
	memcpy(keys, &hs->keys, sizeof(*keys));
	keys->max_plain = hs->peer_max_plain;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_keys);
