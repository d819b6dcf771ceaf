/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Handshake message codecs: parsing of what a client sends (ClientHello,
 * Finished) and building of what the server sends.  Pure functions over
 * byte buffers: no socket, no allocation, no crypto beyond what a caller
 * passes in, so every path is reachable from KUnit with hostile input.
 *
 * Parsers check every length once, at the edge, and return 0 or the
 * TLS alert description (KTLS_ALERT_*, always > 0) the RFC asks for.
 * The parsed view points into the caller's buffer, which must outlive it.
 * Builders append one whole handshake message (header included) to a
 * struct ktls_hs_buf and return 0 or -ENOSPC, leaving the buffer as it
 * was on failure.
 */
#ifndef _KTLS_HS_CODEC_H
#define _KTLS_HS_CODEC_H

#include <linux/types.h>

#include "messages.h"

/* A list from the wire: @len bytes at @data, already checked for shape. */
struct ktls_hs_vec {
	const u8 *data;
	u16 len;
};

/* Extensions of a ClientHello we recognise, one bit each. */
enum ktls_hs_ext_bit {
	KTLS_EXTB_SERVER_NAME,
	KTLS_EXTB_SUPPORTED_GROUPS,
	KTLS_EXTB_EC_POINT_FORMATS,
	KTLS_EXTB_SIGNATURE_ALGORITHMS,
	KTLS_EXTB_ALPN,
	KTLS_EXTB_EXTENDED_MASTER_SECRET,
	KTLS_EXTB_SESSION_TICKET,
	KTLS_EXTB_PRE_SHARED_KEY,
	KTLS_EXTB_EARLY_DATA,
	KTLS_EXTB_SUPPORTED_VERSIONS,
	KTLS_EXTB_COOKIE,
	KTLS_EXTB_PSK_KEY_EXCHANGE_MODES,
	KTLS_EXTB_SIGNATURE_ALGORITHMS_CERT,
	KTLS_EXTB_KEY_SHARE,
	KTLS_EXTB_RENEGOTIATION_INFO,
	KTLS_EXTB_RECORD_SIZE_LIMIT,
	KTLS_EXTB_NR,
};

/**
 * struct ktls_hs_client_hello - a validated ClientHello
 * @legacy_version:	client_version field
 * @random:		32 bytes
 * @session_id:		legacy_session_id, 0..32 bytes
 * @suites:		cipher_suites, even length >= 2
 * @compression:	legacy_compression_methods, holding 0 (null); a
 *			TLS 1.3 ClientHello must hold only that
 * @exts:		KTLS_EXTB_* bits of the extensions present
 * @versions:		supported_versions list (2 bytes each), if present
 * @groups:		supported_groups list (2 bytes each)
 * @key_shares:		key_share client_shares: entries of
 *			group(2) length(2) key, each checked for shape, no
 *			group twice (RFC 8446 4.2.8)
 * @sig_algs:		signature_algorithms list (2 bytes each)
 * @sig_algs_cert:	signature_algorithms_cert list
 * @server_name:	the host_name of server_name, if present
 *			(1..255 bytes, no NUL)
 * @alpn:		ALPN protocol_name_list: entries of length(1) name,
 *			each 1..255 bytes
 * @psk_modes:		psk_key_exchange_modes (1 byte each)
 * @cookie:		cookie extension contents (the cookie itself)
 * @psk_identities:	pre_shared_key identities list (entries of
 *			length(2) identity obfuscated_ticket_age(4))
 * @psk_binders:	pre_shared_key binders list (entries of length(1)
 *			binder)
 * @binders_offset:	offset from the start of the ClientHello message
 *			(its 4-byte header) of the binders list, i.e. the
 *			length of the truncated ClientHello the binders
 *			cover (RFC 8446 4.2.11.2)
 * @ec_point_formats:	ec_point_formats list (1 byte each, 1.2)
 * @session_ticket:	SessionTicket extension contents (1.2, may be empty)
 * @renegotiation_info:	renegotiation_info contents (must be a single 0
 *			byte in an initial handshake)
 * @record_size_limit:	record_size_limit (RFC 8449), 64 at least, if
 *			present; any larger value is let through
 * @scsv_reneg:		TLS_EMPTY_RENEGOTIATION_INFO_SCSV was in the suites
 * @scsv_fallback:	TLS_FALLBACK_SCSV was in the suites
 */
struct ktls_hs_client_hello {
	u16 legacy_version;
	const u8 *random;
	struct ktls_hs_vec session_id;
	struct ktls_hs_vec suites;
	struct ktls_hs_vec compression;
	u32 exts;
	struct ktls_hs_vec versions;
	struct ktls_hs_vec groups;
	struct ktls_hs_vec key_shares;
	struct ktls_hs_vec sig_algs;
	struct ktls_hs_vec sig_algs_cert;
	struct ktls_hs_vec server_name;
	struct ktls_hs_vec alpn;
	struct ktls_hs_vec psk_modes;
	struct ktls_hs_vec cookie;
	struct ktls_hs_vec psk_identities;
	struct ktls_hs_vec psk_binders;
	u32 binders_offset;
	struct ktls_hs_vec ec_point_formats;
	struct ktls_hs_vec session_ticket;
	struct ktls_hs_vec renegotiation_info;
	u16 record_size_limit;
	bool scsv_reneg;
	bool scsv_fallback;
};

static inline bool ktls_hs_ch_has(const struct ktls_hs_client_hello *ch,
				  enum ktls_hs_ext_bit bit)
{
	return ch->exts & (1U << bit);
}

/*
 * Parse a whole ClientHello message, @msg pointing at its 4-byte header,
 * @len covering exactly header and body.  Checks: every vector fits its
 * parent exactly, no extension appears twice, pre_shared_key is last,
 * compression_methods holds the null method, list lengths are even where
 * entries are 2 bytes, empty lists where the RFC forbids them, and the
 * shapes documented in struct ktls_hs_client_hello.  Unknown extensions
 * are skipped, but not repeated.  Version negotiation and what is
 * *supported* is the state machine's business, not the parser's.
 * A message with a type other than ClientHello gets unexpected_message;
 * one with more than 1024 extensions gets decode_error (a bound on the
 * work of finding duplicates).  On error
 * @ch holds nothing useful.
 */
int ktls_hs_parse_client_hello(const u8 *msg, size_t len,
			       struct ktls_hs_client_hello *ch);

/* Whether a list of 2-byte entries (suites, groups, ...) holds @value. */
bool ktls_hs_vec_has_u16(const struct ktls_hs_vec *vec, u16 value);
/* Whether a list of 1-byte entries holds @value. */
bool ktls_hs_vec_has_u8(const struct ktls_hs_vec *vec, u8 value);

/*
 * The client's key share for @group, or false if it sent none.  The
 * share's length is not checked against the group here.
 */
bool ktls_hs_ch_key_share(const struct ktls_hs_client_hello *ch, u16 group,
			  struct ktls_hs_vec *share);

/* Size of what ktls_hs_ch_retry_digest() writes: a SHA-256. */
#define KTLS_HS_CH_DIGEST_LEN	32

/*
 * RFC 8446 4.1.2: a digest of what the ClientHello @msg (of @len bytes,
 * parsed into @ch) must repeat after a HelloRetryRequest: all but the
 * key_share, early_data, cookie, pre_shared_key and padding extensions,
 * the other extensions in their order.  Two hellos with the same digest
 * differ in nothing else.  0 or a negative errno.
 */
int ktls_hs_ch_retry_digest(const u8 *msg, size_t len,
			    const struct ktls_hs_client_hello *ch,
			    u8 out[KTLS_HS_CH_DIGEST_LEN]);

/*
 * Pick the first protocol of the server's @ours (the contents of an ALPN
 * protocol_name_list, entries of length(1) name, as the listener was
 * configured)
 * that the client also offered; server preference order.  Returns true
 * and the name (pointing into @ours) on a match.
 */
bool ktls_hs_alpn_select(const struct ktls_hs_client_hello *ch,
			 const struct ktls_hs_vec *ours,
			 struct ktls_hs_vec *chosen);

/*
 * Output buffer the builders append to.  A builder also returns -EINVAL,
 * writing nothing, for what no message can carry: a session id over 32
 * bytes, an empty key share or cookie, an ALPN name of 0 or over 255
 * bytes, no certificate or an empty one, a vector too long for its
 * length field.
 */
struct ktls_hs_buf {
	u8 *data;
	size_t len;
	size_t cap;
};

/*
 * ServerHello (RFC 8446 4.1.3) with supported_versions = TLS 1.3 and a
 * key_share of @group carrying @share.  @session_id echoes the client's.
 */
int ktls_hs_build_server_hello(struct ktls_hs_buf *b,
			       const u8 random[KTLS_HS_RANDOM_LEN],
			       const struct ktls_hs_vec *session_id,
			       u16 suite, u16 group, const u8 *share,
			       size_t share_len);

/*
 * The same with a pre_shared_key extension selecting the client's PSK
 * identity @psk_index (RFC 8446 4.2.11), for a resumed session.
 */
int ktls_hs_build_server_hello_psk(struct ktls_hs_buf *b,
				   const u8 random[KTLS_HS_RANDOM_LEN],
				   const struct ktls_hs_vec *session_id,
				   u16 suite, u16 group, const u8 *share,
				   size_t share_len, u16 psk_index);

/*
 * HelloRetryRequest (RFC 8446 4.1.4): a ServerHello with the special
 * random, supported_versions, key_share naming @group, and a cookie
 * extension if @cookie is non-NULL.
 */
int ktls_hs_build_hello_retry(struct ktls_hs_buf *b,
			      const struct ktls_hs_vec *session_id,
			      u16 suite, u16 group,
			      const struct ktls_hs_vec *cookie);

/*
 * EncryptedExtensions: an empty server_name if @sni_ack (we used the
 * client's name), ALPN with the one protocol @alpn if non-NULL, and
 * record_size_limit (RFC 8449) @record_limit if not 0.
 */
int ktls_hs_build_encrypted_extensions(struct ktls_hs_buf *b, bool sni_ack,
				       const struct ktls_hs_vec *alpn,
				       u16 record_limit);

/*
 * A Certificate message of @nr DER certificates, leaf first: in TLS 1.2
 * (RFC 5246 7.4.2) the chain alone; in TLS 1.3 (@tls13, RFC 8446 4.4.2)
 * with an empty context and no extensions.
 */
struct ktls_hs_cert_ref {
	const u8 *der;
	u32 len;
};

int ktls_hs_build_certificate(struct ktls_hs_buf *b,
			      const struct ktls_hs_cert_ref *certs,
			      unsigned int nr, bool tls13);

/*
 * The content a TLS 1.3 CertificateVerify signs (RFC 8446 4.4.3): 64
 * spaces, the context string, a zero byte, the transcript hash.  Writes
 * it to @out (at least KTLS_HS_CV_CONTENT_MAX bytes), returns its length,
 * or 0 for a @hash_len over 48.
 */
#define KTLS_HS_CV_CONTENT_MAX	(64 + 33 + 1 + 48)
size_t ktls_hs_cert_verify_content(u8 *out, bool server,
				   const u8 *transcript_hash, size_t hash_len);

/* CertificateVerify carrying @scheme and the DER signature @sig. */
int ktls_hs_build_certificate_verify(struct ktls_hs_buf *b, u16 scheme,
				     const u8 *sig, size_t sig_len);

/* Finished carrying @verify_data. */
int ktls_hs_build_finished(struct ktls_hs_buf *b, const u8 *verify_data,
			   size_t len);

/*
 * Parse a Finished message (@msg at its header, @len exact) of @expected
 * length; returns 0 and the verify_data, or the alert (decode_error;
 * unexpected_message for another message type).
 */
int ktls_hs_parse_finished(const u8 *msg, size_t len, size_t expected,
			   const u8 **verify_data);

/*
 * NewSessionTicket (RFC 8446 4.6.1) with no extensions; -EINVAL for a
 * nonce over 255 bytes or a ticket of 0 or over 65535.
 */
int ktls_hs_build_new_session_ticket(struct ktls_hs_buf *b, u32 lifetime,
				     u32 age_add, const u8 *nonce,
				     size_t nonce_len, const u8 *ticket,
				     size_t ticket_len);

/* client_cert_msgs.c: client authentication, both versions */
struct ktls_trust;
struct ktls_verify_cert;

/*
 * Bytes the DistinguishedNames of @trust's anchors take in a
 * CertificateRequest, their length prefixes included.
 */
size_t ktls_hs_ca_names_len(const struct ktls_trust *trust);

/*
 * TLS 1.3 CertificateRequest (RFC 8446 4.3.2): an empty context, the
 * signature_algorithms we verify (ecdsa_secp256r1_sha256), and the
 * subjects of @cas's anchors as certificate_authorities if @cas is not
 * NULL.
 */
int ktls_hs_build_certificate_request(struct ktls_hs_buf *b,
				      const struct ktls_trust *cas);

/*
 * TLS 1.2 CertificateRequest (RFC 5246 7.4.4): certificate type
 * ecdsa_sign, ecdsa_secp256r1_sha256, and the subjects of @cas's anchors
 * (an empty list for a NULL @cas).
 */
int ktls_hs12_build_certificate_request(struct ktls_hs_buf *b,
					const struct ktls_trust *cas);

/*
 * The client's Certificate, @msg at its header and @len exact: in TLS 1.3
 * (@tls13, RFC 8446 4.4.2) with the empty context our request had and
 * no extensions (we asked for none), else the TLS 1.2 form (RFC 5246
 * 7.4.6).  Its entries go to @certs, pointing into @msg, at most @max of
 * them; their count to @nr, 0 for an empty list.  Returns 0 or the
 * alert: decode_error (malformed, an empty cert_data), illegal_parameter
 * (another context), unsupported_extension, bad_certificate (over @max).
 */
int ktls_hs_parse_client_certificate(const u8 *msg, size_t len, bool tls13,
				     struct ktls_verify_cert *certs,
				     unsigned int max, unsigned int *nr);

/*
 * CertificateVerify, the same layout in both versions (RFC 8446 4.4.3,
 * RFC 5246 7.4.8): the signature scheme and the signature, pointing into
 * @msg.  Returns 0 or decode_error.
 */
int ktls_hs_parse_certificate_verify(const u8 *msg, size_t len, u16 *scheme,
				     struct ktls_hs_vec *sig);

#endif /* _KTLS_HS_CODEC_H */
