/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a ClientHello leads a TLS 1.3 server to: the version, then suite,
 * group (or a HelloRetryRequest for one), identity and ALPN protocol,
 * from the listener's configuration, or the alert the hello deserves.  A pure
 * function of the two, kept apart from the state machine that acts on
 * its answer.
 */
#ifndef _KTLS_HS_NEGOTIATE_H
#define _KTLS_HS_NEGOTIATE_H

#include <linux/types.h>

#include <ktls_hs/aead_lib.h>
#include <ktls_hs/kdf.h>

#include "codec.h"
#include "engine.h"

/**
 * struct ktls_hs_suite - a TLS 1.3 cipher suite we implement
 * @id:		IANA number
 * @bit:	KTLS_HS_SUITE_* of the configuration
 * @hash:	its hash
 * @alg:	its AEAD for the handshake records
 * @key_len:	AEAD key length
 * @cipher_type: TLS_CIPHER_* of the record layer
 */
struct ktls_hs_suite {
	u16 id;
	u32 bit;
	enum ktls_hash hash;
	enum ktls_lib_aead_alg alg;
	u8 key_len;
	u16 cipher_type;
};

/**
 * struct ktls_hs_choice - what a ClientHello leads us to
 * @suite:	the first of the client's suites we allow
 * @group:	the group of the key exchange, or to ask for
 * @share:	the client's share of @group; len 0: HelloRetryRequest
 * @id:		identity by server_name, else the first
 * @sni_ack:	@id was chosen by name
 * @alpn:	the protocol chosen, len 0 if none
 */
struct ktls_hs_choice {
	const struct ktls_hs_suite *suite;
	u16 group;
	struct ktls_hs_vec share;
	const struct ktls_identity *id;
	bool sni_ack;
	struct ktls_hs_vec alpn;
};

/* KTLS_HS_SUITE_* bits of each version */
#define KTLS_HS_SUITES_TLS13	(KTLS_HS_SUITE_AES_128_GCM_SHA256 | \
				 KTLS_HS_SUITE_AES_256_GCM_SHA384 | \
				 KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256 | \
				 KTLS_HS_SUITE_AES_128_CCM_SHA256)
#define KTLS_HS_SUITES_TLS12	(KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 | \
				 KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 | \
				 KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256)

/*
 * The version a ClientHello leads to under @cfg: KTLS_VERSION_TLS13 when
 * both sides can speak it, else KTLS_VERSION_TLS12 when both can speak
 * that, else 0 (protocol_version).  A version counts as enabled when
 * the configuration allows it and one of its suites.
 */
u16 ktls_hs_choose_version(const struct ktls_hs_config *cfg,
			   const struct ktls_hs_client_hello *ch);
bool ktls_hs_version_enabled(const struct ktls_hs_config *cfg, u16 version);
/*
 * The identity for the client's server_name, else the first (RFC 6066):
 * 0, or unrecognized_name where the SNI policy says so.
 */
int ktls_hs_choose_identity(const struct ktls_hs_config *cfg,
			    const struct ktls_hs_client_hello *ch,
			    const struct ktls_identity **id, bool *sni_ack);

/*
 * Fill @c from @ch under @cfg: 0, or the alert (KTLS_ALERT_*) to send.
 * @c points into @ch and @cfg.
 */
int ktls_hs_negotiate(const struct ktls_hs_config *cfg,
		      const struct ktls_hs_client_hello *ch,
		      struct ktls_hs_choice *c);

#endif /* _KTLS_HS_NEGOTIATE_H */
