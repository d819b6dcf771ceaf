/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The server handshake engine: a byte-stream state machine with no
 * socket in it.  The connection glue (listen.c, conn.c) pulls bytes out
 * of TCP's receive queue into the buffer the engine hands out, lets the
 * engine process them, and sends whatever the engine queued for output.
 * When the engine reports done, the glue installs the keys it returns
 * into the record layer.
 *
 * The engine asks for input one record at a time and never more than
 * completes the record in hand, so bytes the client sends after its
 * Finished are left in TCP's queue for the record layer.
 *
 * Every call is made with the connection's socket locked (bh-locked in
 * softirq, or owned by a process), never concurrently for one engine.
 * Nothing in here sleeps or allocates: the glue sizes the engine once,
 * before the first byte arrives.
 */
#ifndef _KTLS_HS_ENGINE_H
#define _KTLS_HS_ENGINE_H

#include <linux/types.h>
#include <uapi/linux/ktls_hs.h>

#include "../record/record.h"

struct ktls_identity;
struct ktls_hs_ticket_keys;
struct ktls_peer_cert;
struct ktls_trust;

#define KTLS_HS_MAX_IDENTITIES		8
#define KTLS_HS_ALPN_LIST_MAX		256

/**
 * struct ktls_hs_config - what the server side offers; shared, refcounted
 * by the glue and immutable once a handshake holds it
 * @identities:	certificate chains with keys, referenced; the first whose
 *		names match the client's server_name is used, else the
 *		first one
 * @nr_identities: how many
 * @suites:	KTLS_HS_SUITE_* (uapi) allowed (server preference: the client's
 *		order among these is honoured, as most servers do for 1.3)
 * @groups:	KTLS_HS_GROUP_* (uapi) allowed, and whether to insist on a
 *		hybrid; a share of a hybrid group is preferred, then X25519
 * @alpn:	ALPN protocol_name_list in wire format (length-prefixed
 *		names), server preference order; @alpn_len 0 = no ALPN
 * @versions:	KTLS_HS_VERSION_* (uapi) allowed
 * @ems_optional: a TLS 1.2 client need not offer extended master secret
 * @fallback:	a first ClientHello asking for what we lack is handed back
 *		(KTLS_HS_FALLBACK) rather than refused
 * @sni_policy:	KTLS_HS_SNI_* (uapi): what a server_name no identity
 *		matches gets
 * @tickets:	the key group tickets are sealed with, NULL for no tickets
 *		and no resumption; held by the glue
 * @ticket_lifetime: seconds a ticket is good for
 * @trust:	the trust store client certificates are verified against,
 *		held by the glue; NULL: no CertificateRequest
 * @client_auth: KTLS_HS_CLIENT_AUTH_* (uapi) with @trust: whether a
 *		client may answer with no certificate
 * @ca_names:	the CertificateRequest names @trust's CAs
 */
struct ktls_hs_config {
	struct ktls_identity *identities[KTLS_HS_MAX_IDENTITIES];
	unsigned int nr_identities;
	u32 suites;
	u32 groups;
	u16 alpn_len;
	u8 alpn[KTLS_HS_ALPN_LIST_MAX];
	u32 versions;
	bool ems_optional;
	bool fallback;
	u8 sni_policy;
	struct ktls_hs_ticket_keys *tickets;
	u32 ticket_lifetime;
	struct ktls_trust *trust;
	u8 client_auth;
	bool ca_names;
};

enum ktls_hs_status {
	KTLS_HS_RUNNING,	/* wants more input */
	KTLS_HS_DONE,		/* keys ready; output may still be pending */
	KTLS_HS_FAILED,		/* an alert is queued as the last output */
	/*
	 * The first ClientHello asks for what the configuration lets the
	 * glue hand to userspace; nothing was or will be sent.
	 */
	KTLS_HS_HANDED_BACK,
};

/**
 * struct ktls_hs_session - what was negotiated, for getsockopt
 * @version:	TLS_1_3_VERSION or TLS_1_2_VERSION
 * @suite:	IANA cipher suite number
 * @group:	IANA named group
 * @cipher_type: TLS_CIPHER_* of the record layer
 * @resumed:	the session was resumed from a ticket
 * @record_limit_declined: the client's record_size_limit went
 *		unanswered, our flight not fitting the output buffer at it
 * @peer_verified: the client's certificate was verified, and what it
 *		says written where ktls_hs_set_peer() said
 * @alpn:	the chosen protocol (NUL-terminated), "" if none
 * @sni:	the client's server_name (NUL-terminated), "" if none
 */
struct ktls_hs_session {
	u16 version;
	u16 suite;
	u16 group;
	u16 cipher_type;
	bool resumed;
	bool record_limit_declined;
	bool peer_verified;
	char alpn[256];
	char sni[256];
};

/**
 * struct ktls_hs_keys - record-layer keys at the end of a handshake
 * @tx:		server application traffic keys, as the SOL_TLS API
 *		takes them (crypto_info with key, salt, iv, rec_seq)
 * @rx:		client application traffic keys
 * @secrets:	the application traffic secrets they come from, which the
 *		record layer needs to follow KeyUpdate
 * @max_plain:	most plaintext a TX record may carry, from the client's
 *		record_size_limit (RFC 8449); 0 if it sent none
 * Wiped by the glue once installed.
 */
struct ktls_hs_keys {
	union ktls_crypto_info tx;
	union ktls_crypto_info rx;
	struct ktls_secrets secrets;
	u16 max_plain;
};

struct ktls_hs;

/*
 * Bytes the engine needs for @cfg: sizeof the state plus the output
 * buffer, which depends on the largest certificate chain configured.
 */
size_t ktls_hs_size(const struct ktls_hs_config *cfg);
/*
 * Set up an engine in @mem (ktls_hs_size() bytes, any alignment of
 * kmalloc).  Takes no reference on @cfg: the glue holds it for the
 * engine's life.  Randomness comes from get_random_bytes().
 */
struct ktls_hs *ktls_hs_init(void *mem, size_t size,
			     const struct ktls_hs_config *cfg);
/*
 * Where the client's verified certificate is described, with a @cfg that
 * has a trust store: the glue's memory, which outlives the engine.  A
 * client certificate arriving without it ends the handshake with
 * internal_error.
 */
void ktls_hs_set_peer(struct ktls_hs *hs, struct ktls_peer_cert *peer);
/* Wipe every secret; the memory is the glue's to free. */
void ktls_hs_wipe(struct ktls_hs *hs);

/*
 * Where to put the next input bytes and how many the engine wants now:
 * at most the rest of the record in hand (5 header bytes first), 0 when
 * it wants nothing (done, failed, or output must drain first).
 */
size_t ktls_hs_want(struct ktls_hs *hs, u8 **buf);
/*
 * @len bytes were written at the place ktls_hs_want() gave.  Runs the
 * state machine as far as the input allows.  Returns the status.
 */
enum ktls_hs_status ktls_hs_received(struct ktls_hs *hs, size_t len);

/* Output to send: pointer and length; 0 when nothing is queued. */
size_t ktls_hs_output(struct ktls_hs *hs, const u8 **buf);
/* @len bytes of the output were handed to TCP. */
void ktls_hs_output_sent(struct ktls_hs *hs, size_t len);

enum ktls_hs_status ktls_hs_status(const struct ktls_hs *hs);
/*
 * The alert sent on failure (KTLS_ALERT_*), 0 if none (the client's
 * alert ended it); on KTLS_HS_HANDED_BACK, the alert the hello would have
 * got instead.
 */
u8 ktls_hs_alert(const struct ktls_hs *hs);
/*
 * The negotiated parameters (valid once a ServerHello was chosen, but
 * the client's server_name, set once its first hello parsed) and,
 * once done, the traffic keys.  ktls_hs_keys() fails with -EINVAL
 * before KTLS_HS_DONE.
 */
const struct ktls_hs_session *ktls_hs_session(const struct ktls_hs *hs);
int ktls_hs_keys(struct ktls_hs *hs, struct ktls_hs_keys *keys);

#endif /* _KTLS_HS_ENGINE_H */
