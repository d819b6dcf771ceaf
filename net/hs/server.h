/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state of one server handshake behind engine.h, shared by the core
 * of the engine (engine.c), which takes every first ClientHello and
 * chooses the version, and the two state machines it hands the hello
 * to: tls13_server.c and tls12_server.c.  The core's services to both
 * are declared here; the machines' states for the core, in steps.h.
 */
#ifndef _KTLS_HS_SERVER_H
#define _KTLS_HS_SERVER_H

#include <linux/slab.h>
#include <linux/types.h>

#include <ktls_hs/kdf.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/trust.h>

#include "codec.h"
#include "engine.h"
#include "hs_records.h"
#include "tls13_psk.h"

struct ktls_hs_suite;
struct ktls_hs12_suite;
struct ktls_identity;

enum ktls_hs_state {
	KTLS_HS_WAIT_CH,
	KTLS_HS_WAIT_CH2,	/* after our HelloRetryRequest */
	KTLS_HS_WAIT_CERT,	/* after our CertificateRequest */
	KTLS_HS_WAIT_CERT_VERIFY, /* after a client certificate */
	KTLS_HS_WAIT_FINISHED,
	KTLS_HS12_WAIT_CERT,	/* TLS 1.2: after a CertificateRequest */
	KTLS_HS12_WAIT_CKE,	/* TLS 1.2: after ServerHelloDone */
	KTLS_HS12_WAIT_CERT_VERIFY, /* TLS 1.2: a client certificate came */
	KTLS_HS12_WAIT_FINISHED, /* TLS 1.2: after ClientKeyExchange */
	KTLS_HS12_WAIT_RESUMED,	/* TLS 1.2: after our Finished, resuming */
	KTLS_HS_STATE_DONE,
	KTLS_HS_STATE_FAILED,
	KTLS_HS_STATE_FALLBACK,	/* the first hello left to userspace */
};

/**
 * struct ktls_hs12_state - what a TLS 1.2 handshake keeps between messages
 * @suite:	the suite chosen
 * @group:	the group of our ephemeral key
 * @priv:	our ephemeral private key, until the ClientKeyExchange
 * @client_random: the randoms, for the signature and the key block
 * @server_random:
 * @ems:	the extended master secret is used (RFC 7627)
 * @ticket:	a NewSessionTicket goes out before our ChangeCipherSpec
 * @client_cert: the client sent a certificate, whose CertificateVerify
 *		comes after its ClientKeyExchange
 * @cv_hash:	with a CertificateRequest and a SHA-384 suite: SHA-256 of
 *		the messages, which the client's ecdsa_secp256r1_sha256
 *		CertificateVerify signs (RFC 5246 7.4.8), until it came; in
 *		the engine's client-authentication room (ktls_hs12_cv_mem())
 */
struct ktls_hs12_state {
	const struct ktls_hs12_suite *suite;
	u16 group;
	u8 priv[KTLS_P256_SCALAR_LEN];
	u8 client_random[KTLS_HS_RANDOM_LEN];
	u8 server_random[KTLS_HS_RANDOM_LEN];
	bool ems;
	bool ticket;
	bool client_cert;
	struct ktls_transcript *cv_hash;
};

/**
 * struct ktls_hs - one server handshake
 * @cfg:	what we offer, held by the glue
 * @state:	where we are
 * @alert:	the alert we sent on failure, 0 if none; on fallback, the
 *		one we did not send
 * @ccs_sent:	our middlebox-compatibility ChangeCipherSpec went out
 * @sni_ack:	the identity was chosen by the client's server_name
 * @suite:	the negotiated suite, once a ClientHello was accepted
 * @hash_len:	its hash length
 * @id:		the identity chosen
 * @alpn:	the ALPN protocol chosen (inside @cfg), len 0 if none
 * @hrr_group:	the group our HelloRetryRequest asked for
 * @peer_max_plain: most plaintext our protected records may carry, from
 *		the client's record_size_limit (RFC 8449); 0 if it sent none
 * @record_limit: our record_size_limit in answer to it, 0 for none
 * @session_id: the client's legacy_session_id, echoed
 * @session_id_len: its length
 * @ch1_digest:	what the second ClientHello must repeat of the first,
 *		as ktls_hs_ch_retry_digest() sums it up
 * @transcript:	the handshake transcript
 * @s_hs:	server handshake traffic secret, until our Finished
 * @c_hs:	client handshake traffic secret, until the client's Finished
 * @master:	master secret, until the application secrets are derived
 * @th:		Transcript-Hash through the server Finished
 * @psk:	the ticket's PSK when resuming (@psk.len), until the
 *		handshake secrets are derived
 * @peer:	where a verified client certificate is described (the
 *		glue's), NULL when none was asked for
 * @verify_scratch: the start of @out, with a trust store: the chain
 *		verifier's memory, KTLS_VERIFY_SCRATCH_SIZE bytes, then a
 *		TLS 1.2 transcript (KTLS_HS_AUTH_ROOM in all); else NULL
 * @session:	what was negotiated
 * @keys:	the application traffic keys, once done (in TLS 1.2, once
 *		the ClientKeyExchange is in)
 * @tls12:	the state of a TLS 1.2 handshake
 * @tx:		output framing
 * @rx:		input framing
 * @out:	the output buffer, sized by ktls_hs_size(), behind the
 *		verifier's memory if there is any
 */
struct ktls_hs {
	const struct ktls_hs_config *cfg;
	enum ktls_hs_state state;
	u8 alert;
	bool ccs_sent;
	bool sni_ack;
	const struct ktls_hs_suite *suite;
	size_t hash_len;
	const struct ktls_identity *id;
	struct ktls_hs_vec alpn;
	u16 hrr_group;
	u16 peer_max_plain;
	u16 record_limit;
	u8 session_id[KTLS_HS_SESSION_ID_MAX];
	u8 session_id_len;
	u8 ch1_digest[KTLS_HS_CH_DIGEST_LEN];
	struct ktls_transcript transcript;
	u8 s_hs[KTLS_HASH_MAX_SIZE];
	u8 c_hs[KTLS_HASH_MAX_SIZE];
	u8 master[KTLS_HASH_MAX_SIZE];
	u8 th[KTLS_HASH_MAX_SIZE];
	struct ktls_hs_psk psk;
	struct ktls_peer_cert *peer;
	void *verify_scratch;
	struct ktls_hs_session session;
	struct ktls_hs_keys keys;
	struct ktls_hs12_state tls12;
	struct ktls_hs_tx tx;
	struct ktls_hs_rx rx;
	u8 out[] __aligned(8);
};

/* The glue's memory comes from kmalloc. */
static_assert(__alignof__(struct ktls_hs) <= ARCH_KMALLOC_MINALIGN);

/*
 * What a handshake that may authenticate its client has in front of its
 * output buffer: the verifier's memory, then room for the SHA-256 of a
 * TLS 1.2 client's CertificateVerify (kept out of struct ktls_hs, which
 * every handshake pays for).
 */
#define KTLS_HS_AUTH_ROOM	(KTLS_VERIFY_SCRATCH_SIZE + \
				 sizeof(struct ktls_transcript))

static inline struct ktls_transcript *ktls_hs12_cv_mem(struct ktls_hs *hs)
{
	return hs->verify_scratch + KTLS_VERIFY_SCRATCH_SIZE;
}

/*
 * engine.c: what the core gives both state machines.  Wipe all but the
 * final keys and pending output; the identity's Certificate message,
 * 1.2 or 1.3 form, and its signature over @content (the DER length, or
 * a negative errno); note the client's server_name; and take the alert a
 * first ClientHello earned, or hand it over (0).
 */
void ktls_hs_wipe_handshake(struct ktls_hs *hs);
int ktls_hs_add_certificate(struct ktls_hs *hs, struct ktls_hs_buf *b,
			    bool tls13);
int ktls_hs_sign(const struct ktls_hs *hs, const u8 *content, size_t len,
		 u8 der[KTLS_P256_SIG_DER_MAX]);
void ktls_hs_note_sni(struct ktls_hs *hs,
		      const struct ktls_hs_client_hello *ch);
int ktls_hs_refuse_hello(struct ktls_hs *hs, int alert);
/*
 * The client's record_size_limit, if it sent one, for the @version
 * chosen: from now on it bounds our protected records, and
 * @hs->record_limit is what we answer with.
 */
void ktls_hs_take_record_limit(struct ktls_hs *hs,
			       const struct ktls_hs_client_hello *ch,
			       u16 version);
/*
 * Not to acknowledge the limit just taken, which our protected flight
 * does not fit the output buffer at: no bound, no answer, no cap.
 */
void ktls_hs_decline_record_limit(struct ktls_hs *hs);
/* Bytes of the identity's TLS 1.3 Certificate message, header included. */
size_t ktls_hs_cert_msg_len(const struct ktls_identity *id);

/*
 * client_auth.c: client certificates, both versions.  The room our
 * CertificateRequest takes in the flight (none without a trust store);
 * adding it; taking the client's Certificate, whose leaf @hs->peer then
 * describes if it verified (*@presented: the list was not empty; an
 * empty one passes where the policy lets it); and checking the client's
 * CertificateVerify, signed over the SHA-256 @digest, with that leaf's
 * key, which makes the peer verified.  0, or the alert.
 */
size_t ktls_hs_cert_request_len(const struct ktls_hs_config *cfg);
int ktls_hs_add_cert_request(struct ktls_hs *hs, struct ktls_hs_buf *b,
			     bool tls13);
int ktls_hs_take_client_cert(struct ktls_hs *hs, const u8 *msg, size_t len,
			     bool tls13, bool *presented);
int ktls_hs_check_client_cert_verify(struct ktls_hs *hs, const u8 *msg,
				     size_t len, const u8 digest[32]);
/*
 * Where a session ticket with the client's certificate in it is made or
 * opened (ticket.h), set up in @room: the verifier's memory, idle but
 * while the client's Certificate is verified, and @hs->peer.  NULL for
 * a handshake without a trust store, which takes no such ticket.
 */
const struct ktls_hs_ticket_room *
ktls_hs_ticket_room(struct ktls_hs *hs, struct ktls_hs_ticket_room *room);
/* Output room for a NewSessionTicket, either version. */
size_t ktls_hs_nst_len(const struct ktls_hs_config *cfg);

#endif /* _KTLS_HS_SERVER_H */
