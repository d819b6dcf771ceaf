// SPDX-License-Identifier: GPL-2.0-only
/*
 * Client authentication by certificate, for the state machines of both
 * versions: our CertificateRequest, the client's certificate chain
 * verified against the listener's trust store (net/identity/verify.c),
 * and its CertificateVerify checked with the leaf's key.  Which messages
 * come when, and what the signature covers, is each machine's own.
 *
 * The verifier runs here, in softirq, on what the client chose to send:
 * its work is bounded by the KTLS_VERIFY_MAX_* limits, and its memory is
 * the engine's (@hs->verify_scratch), sized when the handshake started.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/ktime.h>

#include <ktls_hs/kdf.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/trust.h>

#include "server.h"
#include "ticket.h"

/*
 * A CertificateRequest: header, context, extensions, signature_algorithms
 * with one scheme (the TLS 1.2 form is smaller), then the CAs' names if
 * they are sent, which are left out past KTLS_HS_CA_NAMES_MAX bytes.
 */
#define KTLS_HS_CR_FIXED	32

/* The verifier's results are the alerts they are sent as. */
static_assert((int)KTLS_VERIFY_BAD_CERTIFICATE == (int)KTLS_ALERT_BAD_CERTIFICATE);
static_assert((int)KTLS_VERIFY_UNSUPPORTED == (int)KTLS_ALERT_UNSUPPORTED_CERTIFICATE);
static_assert((int)KTLS_VERIFY_EXPIRED == (int)KTLS_ALERT_CERTIFICATE_EXPIRED);
static_assert((int)KTLS_VERIFY_UNKNOWN_CA == (int)KTLS_ALERT_UNKNOWN_CA);

/* A ticket with a peer block fits the verifier's memory, which it borrows. */
static_assert(KTLS_HS_TICKET_PEER_MAX_LEN <= KTLS_VERIFY_SCRATCH_SIZE);

size_t ktls_hs_cert_request_len(const struct ktls_hs_config *cfg)
{
	if (!cfg->trust)
		return 0;
	return KTLS_HS_CR_FIXED + (cfg->ca_names ? 4 + KTLS_HS_CA_NAMES_MAX : 0);
}

/*
 * A listener that asks for client certificates issues tickets that carry
 * one, and keeps room for them whether tickets are on or not, as for
 * the others (tls13_server.c).
 */
size_t ktls_hs_nst_len(const struct ktls_hs_config *cfg)
{
	return cfg->trust ? KTLS_HS_NST_PEER_MAX : KTLS_HS_NST_MAX;
}

int ktls_hs_add_cert_request(struct ktls_hs *hs, struct ktls_hs_buf *b,
			     bool tls13)
{
	const struct ktls_trust *cas = NULL;

	if (hs->cfg->ca_names &&
	    ktls_hs_ca_names_len(hs->cfg->trust) <= KTLS_HS_CA_NAMES_MAX)
		cas = hs->cfg->trust;
	if (tls13)
		return ktls_hs_build_certificate_request(b, cas);
	return ktls_hs12_build_certificate_request(b, cas);
}

int ktls_hs_take_client_cert(struct ktls_hs *hs, const u8 *msg, size_t len,
			     bool tls13, bool *presented)
{
	struct ktls_verify_cert certs[KTLS_VERIFY_MAX_CERTS];
	enum ktls_verify_result res;
	const char *why = NULL;
	unsigned int nr;
	int err;

	*presented = false;
	err = ktls_hs_parse_client_certificate(msg, len, tls13, certs,
					       ARRAY_SIZE(certs), &nr);
	if (err)
		return err;
	if (!nr) {
		if (hs->cfg->client_auth == KTLS_HS_CLIENT_AUTH_OPTIONAL)
			return 0;
		/* RFC 8446 4.4.2.4; RFC 5246 7.4.6 has handshake_failure. */
		return tls13 ? KTLS_ALERT_CERTIFICATE_REQUIRED :
			       KTLS_ALERT_HANDSHAKE_FAILURE;
	}
	/* The glue gives both whenever it configures a trust store. */
	if (WARN_ON_ONCE(!hs->peer || !hs->verify_scratch))
		return -EINVAL;
	res = ktls_verify_peer(hs->cfg->trust, certs, nr,
			       ktime_get_real_seconds(), hs->verify_scratch,
			       hs->peer, &why);
	if (res != KTLS_VERIFY_OK)
		return res;	/* the alert itself */
	*presented = true;
	return 0;
}

int ktls_hs_check_client_cert_verify(struct ktls_hs *hs, const u8 *msg,
				     size_t len, const u8 digest[32])
{
	u8 sig[KTLS_P256_SIG_LEN];
	struct ktls_hs_vec der;
	u16 scheme;
	int err;

	err = ktls_hs_parse_certificate_verify(msg, len, &scheme, &der);
	if (err)
		return err;
	/* RFC 8446 4.4.3, RFC 5246 7.4.8: a scheme our request offered. */
	if (scheme != KTLS_SIG_ECDSA_SECP256R1_SHA256)
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	/* A signature that is not one is one that does not verify. */
	if (ktls_p256_sig_from_der(sig, der.data, der.len))
		return KTLS_ALERT_DECRYPT_ERROR;
	err = ktls_p256_ecdsa_verify(hs->peer->public_key, digest, 32, sig);
	if (err == -EBADMSG || err == -EINVAL)
		return KTLS_ALERT_DECRYPT_ERROR;
	if (err)
		return err;
	hs->session.peer_verified = true;
	return 0;
}

const struct ktls_hs_ticket_room *
ktls_hs_ticket_room(struct ktls_hs *hs, struct ktls_hs_ticket_room *room)
{
	if (!hs->peer || !hs->verify_scratch)
		return NULL;
	room->peer = hs->peer;
	room->buf = hs->verify_scratch;
	return room;
}
