/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TLS 1.2 server handshake (RFC 5246, ECDHE-ECDSA of RFC 8422, the
 * extended master secret of RFC 7627, RFC 5746's renegotiation
 * indication): the codec of its messages (tls12_msgs.c), its choices
 * from a ClientHello and its state machine (tls12_server.c), which the
 * engine's core (engine.c) hands a ClientHello to when the version
 * negotiated is 1.2.
 */
#ifndef _KTLS_HS_TLS12_H
#define _KTLS_HS_TLS12_H

#include <linux/types.h>

#include <ktls_hs/aead_lib.h>
#include <ktls_hs/kdf.h>

#include "codec.h"
#include "engine.h"

struct ktls_hs_ticket_room;
struct ktls_identity;

/* ServerKeyExchange: curve_type named_curve (RFC 8422 5.4) */
#define KTLS_HS12_NAMED_CURVE		3
/* ec_point_formats: uncompressed, the only one (RFC 8422 5.1.2) */
#define KTLS_HS12_POINT_UNCOMPRESSED	0
/* ServerECDHParams of the largest share: type, group, length, point */
#define KTLS_HS12_PARAMS_MAX		(1 + 2 + 1 + 65)

/**
 * struct ktls_hs12_suite - a TLS 1.2 cipher suite we implement
 * @id:		IANA number
 * @bit:	KTLS_HS_SUITE_* of the configuration
 * @hash:	the hash of its PRF and transcript
 * @alg:	its AEAD for the Finished records
 * @key_len:	write key length
 * @iv_len:	fixed iv length: the 4-byte salt of AES-GCM (RFC 5288 3),
 *		the 12-byte iv of ChaCha20-Poly1305 (RFC 7905 2)
 * @cipher_type: TLS_CIPHER_* of the record layer
 */
struct ktls_hs12_suite {
	u16 id;
	u32 bit;
	enum ktls_hash hash;
	enum ktls_lib_aead_alg alg;
	u8 key_len;
	u8 iv_len;
	u16 cipher_type;
};

/**
 * struct ktls_hs12_sh_exts - what a TLS 1.2 ServerHello answers with
 * @reneg:	an empty renegotiation_info (RFC 5746 3.6)
 * @ems:	extended_master_secret (RFC 7627 5.1)
 * @ec_point_formats: uncompressed only (RFC 8422 5.2)
 * @sni_ack:	an empty server_name (RFC 6066 3)
 * @alpn:	the one protocol chosen (RFC 7301), or NULL
 * @session_ticket: an empty session_ticket: a NewSessionTicket follows
 *		(RFC 5077 3.2)
 * @record_limit: our record_size_limit (RFC 8449), 0 for none
 */
struct ktls_hs12_sh_exts {
	bool reneg;
	bool ems;
	bool ec_point_formats;
	bool sni_ack;
	const struct ktls_hs_vec *alpn;
	bool session_ticket;
	u16 record_limit;
};

/*
 * tls12_msgs.c: builders and parsers, as codec.h describes them.  The
 * ServerHello carries @session_id, or an empty one if NULL.
 */
int ktls_hs12_build_server_hello(struct ktls_hs_buf *b,
				 const u8 random[KTLS_HS_RANDOM_LEN],
				 const struct ktls_hs_vec *session_id,
				 u16 suite,
				 const struct ktls_hs12_sh_exts *exts);
/*
 * ServerECDHParams (RFC 8422 5.4) of @group and our @share into @out (at
 * least KTLS_HS12_PARAMS_MAX bytes); returns the length, 0 if it does
 * not fit a one-byte vector.
 */
size_t ktls_hs12_ecdh_params(u8 *out, u16 group, const u8 *share,
			     size_t share_len);
/* ServerKeyExchange: @params, then the DER signature @sig under @scheme. */
int ktls_hs12_build_server_key_exchange(struct ktls_hs_buf *b,
					const u8 *params, size_t params_len,
					u16 scheme, const u8 *sig,
					size_t sig_len);
int ktls_hs12_build_server_hello_done(struct ktls_hs_buf *b);
/*
 * NewSessionTicket of RFC 5077 3.3: the lifetime @hint in seconds and the
 * ticket, 1..65535 bytes (else -EINVAL).
 */
int ktls_hs12_build_new_session_ticket(struct ktls_hs_buf *b, u32 hint,
				       const u8 *ticket, size_t len);
/*
 * ClientKeyExchange of ECDHE (RFC 8422 5.7): the client's point, 1..255
 * bytes, filling the message exactly (else decode_error; another
 * message: unexpected_message).
 */
int ktls_hs12_parse_client_key_exchange(const u8 *msg, size_t len,
					struct ktls_hs_vec *point);

/**
 * struct ktls_hs12_resumption - the session a ClientHello's ticket resumes
 * @suite:	its suite; NULL: no session is resumed
 * @master:	its master secret
 * @peer:	the client certificate its ticket carried, in the room's
 *		peer; NULL: none
 */
struct ktls_hs12_resumption {
	const struct ktls_hs12_suite *suite;
	u8 master[KTLS_TLS12_MASTER_SIZE];
	struct ktls_peer_cert *peer;
};

/*
 * tls12_ticket.c: the session @ch resumes under @cfg with the identity
 * @id it picked, if any (RFC 5077 3.4, RFC 7627 5.3); a ticket with a
 * client certificate is opened in @room, NULL for a listener without a
 * trust store.  0, with @r->suite NULL for a full handshake; or the
 * alert.
 */
int ktls_hs12_ticket_select(const struct ktls_hs_config *cfg,
			    const struct ktls_hs_client_hello *ch,
			    const struct ktls_identity *id,
			    const struct ktls_hs_ticket_room *room,
			    struct ktls_hs12_resumption *r);
/*
 * Append a NewSessionTicket to @b for the session of @master with
 * @suite, its extended master secret use @ems, authenticated with @id
 * for the client's @sni ("" if none); with @room, for the client
 * certificate @room->peer.
 */
int ktls_hs12_ticket_new(const struct ktls_hs_config *cfg, u16 suite,
			 const u8 *master, bool ems,
			 const struct ktls_identity *id, const char *sni,
			 const struct ktls_hs_ticket_room *room,
			 struct ktls_hs_buf *b);

/*
 * tls12_server.c: the record-layer keys of a TLS 1.2 session (RFC 5246
 * 6.3): the key block of @master and the randoms, split into the
 * crypto_info of each direction, both at sequence number 1 since the
 * Finished messages took 0.  -EINVAL for a suite the record layer
 * cannot take.
 */
int ktls_hs12_record_keys(const struct ktls_hs12_suite *s, const u8 *master,
			  const u8 *client_random, const u8 *server_random,
			  union ktls_crypto_info *tx,
			  union ktls_crypto_info *rx);
const struct ktls_hs12_suite *ktls_hs12_suite_find(u16 id);

/*
 * Output bytes a TLS 1.2 exchange needs besides the Certificate message:
 * ServerHello (at most ~330 bytes, with a 255-byte ALPN name),
 * ServerKeyExchange (~150), ServerHelloDone, then ChangeCipherSpec and
 * our protected Finished (~50); and a NewSessionTicket, of which 1.3
 * sends a larger one.  Less than a 1.3 exchange needs besides its
 * (longer) Certificate, so 1.2 never makes an identity too large for
 * the pool that 1.3 fits.
 */
#define KTLS_HS12_OUT_EXTRA	640

#endif /* _KTLS_HS_TLS12_H */
