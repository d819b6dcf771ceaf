// SPDX-License-Identifier: GPL-2.0-only
/*
 * The messages a TLS 1.3 server sends (RFC 8446 4.1.3 to 4.4.4), built
 * into a struct ktls_hs_buf, and the parser of the one message the
 * client answers them with, Finished.
 *
 * Builders go through the writer of wire.h: each appends one whole
 * message or, when it does not fit, nothing.  Length prefixes are filled
 * in after their contents, so no length is ever computed by hand.
 * Extensions are written in the order RFC 8448 shows them, which lets
 * the tests compare our messages with the trace's byte for byte.
 */
#include <kunit/visibility.h>

#include "codec.h"
#include "wire.h"

/* RFC 8446 4.1.3: SHA-256("HelloRetryRequest"), marking a ServerHello as HRR. */
static const u8 ktls_hs_hrr_random[KTLS_HS_RANDOM_LEN] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02,
	0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

/* RFC 8446 4.4.3: what a CertificateVerify signature is bound to. */
static const char ktls_hs_cv_server[] = "TLS 1.3, server CertificateVerify";
static const char ktls_hs_cv_client[] = "TLS 1.3, client CertificateVerify";
#define KTLS_HS_CV_PAD		64
#define KTLS_HS_CV_HASH_MAX	48

/* An extension of @type; the contents follow until ktls_hs_ext_close(). */
static size_t ktls_hs_ext_open(struct ktls_wr *w, u16 type)
{
	ktls_wr_u16(w, type);
	return ktls_wr_open(w, 2);
}

static void ktls_hs_ext_close(struct ktls_wr *w, size_t ext)
{
	ktls_wr_close(w, ext, 2);
}

/*
 * What ServerHello and HelloRetryRequest share, up to their extensions
 * (RFC 8446 4.1.3): the 1.2 version number, for middleboxes, and the
 * client's session id echoed.
 */
static void ktls_hs_server_hello_head(struct ktls_wr *w, const u8 *random,
				      const struct ktls_hs_vec *session_id,
				      u16 suite)
{
	size_t sid;

	ktls_wr_u16(w, KTLS_VERSION_TLS12);
	ktls_wr_bytes(w, random, KTLS_HS_RANDOM_LEN);
	sid = ktls_wr_open(w, 1);
	ktls_wr_bytes(w, session_id->data, session_id->len);
	ktls_wr_close(w, sid, 1);
	ktls_wr_u16(w, suite);
	ktls_wr_u8(w, 0);	/* legacy_compression_method: null */
}

static void ktls_hs_supported_versions(struct ktls_wr *w)
{
	size_t ext = ktls_hs_ext_open(w, KTLS_EXT_SUPPORTED_VERSIONS);

	ktls_wr_u16(w, KTLS_VERSION_TLS13);
	ktls_hs_ext_close(w, ext);
}

static int ktls_hs_server_hello(struct ktls_hs_buf *b, const u8 *random,
				const struct ktls_hs_vec *session_id,
				u16 suite, u16 group, const u8 *share,
				size_t share_len, int psk_index)
{
	size_t msg, exts, ext, key;
	struct ktls_wr w;

	if (session_id->len > KTLS_HS_SESSION_ID_MAX || !share_len ||
	    psk_index > U16_MAX)
		return -EINVAL;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_SERVER_HELLO);
	ktls_hs_server_hello_head(&w, random, session_id, suite);
	exts = ktls_wr_open(&w, 2);

	ext = ktls_hs_ext_open(&w, KTLS_EXT_KEY_SHARE);
	ktls_wr_u16(&w, group);
	key = ktls_wr_open(&w, 2);
	ktls_wr_bytes(&w, share, share_len);
	ktls_wr_close(&w, key, 2);
	ktls_hs_ext_close(&w, ext);

	/* RFC 8446 4.2.11: the identity of the client's list we took. */
	if (psk_index >= 0) {
		ext = ktls_hs_ext_open(&w, KTLS_EXT_PRE_SHARED_KEY);
		ktls_wr_u16(&w, psk_index);
		ktls_hs_ext_close(&w, ext);
	}

	ktls_hs_supported_versions(&w);

	ktls_wr_close(&w, exts, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}

int ktls_hs_build_server_hello(struct ktls_hs_buf *b,
			       const u8 random[KTLS_HS_RANDOM_LEN],
			       const struct ktls_hs_vec *session_id,
			       u16 suite, u16 group, const u8 *share,
			       size_t share_len)
{
	return ktls_hs_server_hello(b, random, session_id, suite, group, share,
				    share_len, -1);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_server_hello);

int ktls_hs_build_server_hello_psk(struct ktls_hs_buf *b,
				   const u8 random[KTLS_HS_RANDOM_LEN],
				   const struct ktls_hs_vec *session_id,
				   u16 suite, u16 group, const u8 *share,
				   size_t share_len, u16 psk_index)
{
	return ktls_hs_server_hello(b, random, session_id, suite, group, share,
				    share_len, psk_index);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_server_hello_psk);

int ktls_hs_build_hello_retry(struct ktls_hs_buf *b,
			      const struct ktls_hs_vec *session_id,
			      u16 suite, u16 group,
			      const struct ktls_hs_vec *cookie)
{
	size_t msg, exts, ext, vec;
	struct ktls_wr w;

	/* RFC 8446 4.2.2: a cookie is 1..2^16-1 bytes. */
	if (session_id->len > KTLS_HS_SESSION_ID_MAX ||
	    (cookie && !cookie->len))
		return -EINVAL;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_SERVER_HELLO);
	ktls_hs_server_hello_head(&w, ktls_hs_hrr_random, session_id, suite);
	exts = ktls_wr_open(&w, 2);

	/* In an HRR, key_share holds only the group wanted (4.2.8). */
	ext = ktls_hs_ext_open(&w, KTLS_EXT_KEY_SHARE);
	ktls_wr_u16(&w, group);
	ktls_hs_ext_close(&w, ext);

	if (cookie) {
		ext = ktls_hs_ext_open(&w, KTLS_EXT_COOKIE);
		vec = ktls_wr_open(&w, 2);
		ktls_wr_bytes(&w, cookie->data, cookie->len);
		ktls_wr_close(&w, vec, 2);
		ktls_hs_ext_close(&w, ext);
	}

	ktls_hs_supported_versions(&w);

	ktls_wr_close(&w, exts, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_hello_retry);

int ktls_hs_build_encrypted_extensions(struct ktls_hs_buf *b, bool sni_ack,
				       const struct ktls_hs_vec *alpn,
				       u16 record_limit)
{
	size_t msg, exts, ext, list, name;
	struct ktls_wr w;

	/* RFC 7301 3.1: the server names one protocol of 1..255 bytes. */
	if (alpn && (!alpn->len || alpn->len > KTLS_HS_MAX_ALPN_LEN))
		return -EINVAL;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_ENCRYPTED_EXTENSIONS);
	exts = ktls_wr_open(&w, 2);

	/* RFC 6066 3: an empty server_name says the name was used. */
	if (sni_ack) {
		ext = ktls_hs_ext_open(&w, KTLS_EXT_SERVER_NAME);
		ktls_hs_ext_close(&w, ext);
	}
	if (alpn) {
		ext = ktls_hs_ext_open(&w, KTLS_EXT_ALPN);
		list = ktls_wr_open(&w, 2);
		name = ktls_wr_open(&w, 1);
		ktls_wr_bytes(&w, alpn->data, alpn->len);
		ktls_wr_close(&w, name, 1);
		ktls_wr_close(&w, list, 2);
		ktls_hs_ext_close(&w, ext);
	}
	if (record_limit) {
		ext = ktls_hs_ext_open(&w, KTLS_EXT_RECORD_SIZE_LIMIT);
		ktls_wr_u16(&w, record_limit);
		ktls_hs_ext_close(&w, ext);
	}

	ktls_wr_close(&w, exts, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_encrypted_extensions);

int ktls_hs_build_certificate(struct ktls_hs_buf *b,
			      const struct ktls_hs_cert_ref *certs,
			      unsigned int nr, bool tls13)
{
	size_t msg, list, data;
	struct ktls_wr w;
	unsigned int i;

	/* A server's list is never empty, nor a certificate in it. */
	if (!nr)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (!certs[i].len)
			return -EINVAL;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_CERTIFICATE);
	if (tls13)
		ktls_wr_u8(&w, 0);	/* certificate_request_context: empty */
	list = ktls_wr_open(&w, 3);
	for (i = 0; i < nr; i++) {
		data = ktls_wr_open(&w, 3);
		ktls_wr_bytes(&w, certs[i].der, certs[i].len);
		ktls_wr_close(&w, data, 3);
		if (tls13)
			ktls_wr_u16(&w, 0);	/* no per-certificate extensions */
	}
	ktls_wr_close(&w, list, 3);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_certificate);

size_t ktls_hs_cert_verify_content(u8 *out, bool server,
				   const u8 *transcript_hash, size_t hash_len)
{
	const char *label = server ? ktls_hs_cv_server : ktls_hs_cv_client;
	size_t label_len = sizeof(ktls_hs_cv_server);	/* with its NUL */

	BUILD_BUG_ON(sizeof(ktls_hs_cv_server) != sizeof(ktls_hs_cv_client));
	BUILD_BUG_ON(KTLS_HS_CV_PAD + sizeof(ktls_hs_cv_server) +
		     KTLS_HS_CV_HASH_MAX != KTLS_HS_CV_CONTENT_MAX);

	if (hash_len > KTLS_HS_CV_HASH_MAX)
		return 0;
	memset(out, 0x20, KTLS_HS_CV_PAD);
	/* The label's terminating NUL is the separating zero byte. */
	memcpy(out + KTLS_HS_CV_PAD, label, label_len);
	memcpy(out + KTLS_HS_CV_PAD + label_len, transcript_hash, hash_len);
	return KTLS_HS_CV_PAD + label_len + hash_len;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_cert_verify_content);

int ktls_hs_build_certificate_verify(struct ktls_hs_buf *b, u16 scheme,
				     const u8 *sig, size_t sig_len)
{
	size_t msg, vec;
	struct ktls_wr w;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_CERTIFICATE_VERIFY);
	ktls_wr_u16(&w, scheme);
	vec = ktls_wr_open(&w, 2);
	ktls_wr_bytes(&w, sig, sig_len);
	ktls_wr_close(&w, vec, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_certificate_verify);

int ktls_hs_build_finished(struct ktls_hs_buf *b, const u8 *verify_data,
			   size_t len)
{
	struct ktls_wr w;
	size_t msg;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_FINISHED);
	ktls_wr_bytes(&w, verify_data, len);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_finished);

int ktls_hs_parse_finished(const u8 *msg, size_t len, size_t expected,
			   const u8 **verify_data)
{
	struct ktls_rd r, body;
	u8 type;

	ktls_rd_init(&r, msg, len);
	if (!ktls_rd_u8(&r, &type))
		return KTLS_ALERT_DECODE_ERROR;
	if (type != KTLS_HS_FINISHED)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	/* verify_data is exactly Hash.length bytes (RFC 8446 4.4.4). */
	if (!ktls_rd_vec(&r, 3, &body) || !ktls_rd_empty(&r) ||
	    body.left != expected)
		return KTLS_ALERT_DECODE_ERROR;
	*verify_data = body.p;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_parse_finished);

/*
 * NewSessionTicket (RFC 8446 4.6.1), without extensions: we take no
 * early data, so there is no max_early_data_size to announce.
 */
int ktls_hs_build_new_session_ticket(struct ktls_hs_buf *b, u32 lifetime,
				     u32 age_add, const u8 *nonce,
				     size_t nonce_len, const u8 *ticket,
				     size_t ticket_len)
{
	size_t msg, vec;
	struct ktls_wr w;

	if (nonce_len > U8_MAX || !ticket_len || ticket_len > U16_MAX)
		return -EINVAL;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_NEW_SESSION_TICKET);
	ktls_wr_u32(&w, lifetime);
	ktls_wr_u32(&w, age_add);
	vec = ktls_wr_open(&w, 1);
	ktls_wr_bytes(&w, nonce, nonce_len);
	ktls_wr_close(&w, vec, 1);
	vec = ktls_wr_open(&w, 2);
	ktls_wr_bytes(&w, ticket, ticket_len);
	ktls_wr_close(&w, vec, 2);
	ktls_wr_u16(&w, 0);	/* extensions */
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_new_session_ticket);
