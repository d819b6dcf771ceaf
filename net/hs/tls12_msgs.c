// SPDX-License-Identifier: GPL-2.0-only
/*
 * The messages of a TLS 1.2 server (RFC 5246 7.4, RFC 8422 5), built
 * into a struct ktls_hs_buf, and the parser of the client's
 * ClientKeyExchange.  Finished is the same message in both versions and
 * lives with the TLS 1.3 codec in server_msgs.c.  Builders go through the
 * writer of wire.h: each appends one whole message or nothing.
 */
#include <kunit/visibility.h>

#include "tls12.h"
#include "wire.h"

static size_t ktls_hs12_ext_open(struct ktls_wr *w, u16 type)
{
	ktls_wr_u16(w, type);
	return ktls_wr_open(w, 2);
}

static bool ktls_hs12_has_exts(const struct ktls_hs12_sh_exts *e)
{
	return e->reneg || e->ems || e->ec_point_formats || e->sni_ack ||
	       e->alpn || e->session_ticket || e->record_limit;
}

int ktls_hs12_build_server_hello(struct ktls_hs_buf *b,
				 const u8 random[KTLS_HS_RANDOM_LEN],
				 const struct ktls_hs_vec *session_id,
				 u16 suite,
				 const struct ktls_hs12_sh_exts *e)
{
	size_t msg, exts, ext, list, name, sid;
	struct ktls_wr w;

	if ((e->alpn && (!e->alpn->len ||
			 e->alpn->len > KTLS_HS_MAX_ALPN_LEN)) ||
	    (session_id && session_id->len > KTLS_HS_SESSION_ID_MAX))
		return -EINVAL;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_SERVER_HELLO);
	ktls_wr_u16(&w, KTLS_VERSION_TLS12);
	ktls_wr_bytes(&w, random, KTLS_HS_RANDOM_LEN);
	/*
	 * Empty in a full handshake: no session is ever resumed by id.  A
	 * resumption from a ticket echoes the client's (RFC 5077 3.4).
	 */
	sid = ktls_wr_open(&w, 1);
	if (session_id)
		ktls_wr_bytes(&w, session_id->data, session_id->len);
	ktls_wr_close(&w, sid, 1);
	ktls_wr_u16(&w, suite);
	ktls_wr_u8(&w, 0);	/* compression_method: null */

	/* RFC 5246 7.4.1.4: no extensions, no extensions block. */
	if (!ktls_hs12_has_exts(e))
		goto out;
	exts = ktls_wr_open(&w, 2);
	if (e->reneg) {
		/* renegotiated_connection is empty in an initial handshake */
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_RENEGOTIATION_INFO);
		ktls_wr_u8(&w, 0);
		ktls_wr_close(&w, ext, 2);
	}
	if (e->sni_ack) {
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_SERVER_NAME);
		ktls_wr_close(&w, ext, 2);
	}
	if (e->ec_point_formats) {
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_EC_POINT_FORMATS);
		list = ktls_wr_open(&w, 1);
		ktls_wr_u8(&w, KTLS_HS12_POINT_UNCOMPRESSED);
		ktls_wr_close(&w, list, 1);
		ktls_wr_close(&w, ext, 2);
	}
	if (e->alpn) {
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_ALPN);
		list = ktls_wr_open(&w, 2);
		name = ktls_wr_open(&w, 1);
		ktls_wr_bytes(&w, e->alpn->data, e->alpn->len);
		ktls_wr_close(&w, name, 1);
		ktls_wr_close(&w, list, 2);
		ktls_wr_close(&w, ext, 2);
	}
	if (e->ems) {
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_EXTENDED_MASTER_SECRET);
		ktls_wr_close(&w, ext, 2);
	}
	if (e->session_ticket) {
		/* RFC 5077 3.2: empty, a NewSessionTicket will follow */
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_SESSION_TICKET);
		ktls_wr_close(&w, ext, 2);
	}
	if (e->record_limit) {
		ext = ktls_hs12_ext_open(&w, KTLS_EXT_RECORD_SIZE_LIMIT);
		ktls_wr_u16(&w, e->record_limit);
		ktls_wr_close(&w, ext, 2);
	}
	ktls_wr_close(&w, exts, 2);
out:
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_build_server_hello);

size_t ktls_hs12_ecdh_params(u8 *out, u16 group, const u8 *share,
			     size_t share_len)
{
	if (!share_len || share_len > KTLS_HS12_PARAMS_MAX - 4)
		return 0;
	out[0] = KTLS_HS12_NAMED_CURVE;
	put_unaligned_be16(group, out + 1);
	out[3] = share_len;
	memcpy(out + 4, share, share_len);
	return 4 + share_len;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_ecdh_params);

int ktls_hs12_build_server_key_exchange(struct ktls_hs_buf *b,
					const u8 *params, size_t params_len,
					u16 scheme, const u8 *sig,
					size_t sig_len)
{
	size_t msg, vec;
	struct ktls_wr w;

	if (!params_len || !sig_len)
		return -EINVAL;
	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_SERVER_KEY_EXCHANGE);
	ktls_wr_bytes(&w, params, params_len);
	/* DigitallySigned (RFC 5246 4.7): algorithm, then the signature. */
	ktls_wr_u16(&w, scheme);
	vec = ktls_wr_open(&w, 2);
	ktls_wr_bytes(&w, sig, sig_len);
	ktls_wr_close(&w, vec, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_build_server_key_exchange);

int ktls_hs12_build_server_hello_done(struct ktls_hs_buf *b)
{
	struct ktls_wr w;
	size_t msg;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_SERVER_HELLO_DONE);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_build_server_hello_done);

int ktls_hs12_build_new_session_ticket(struct ktls_hs_buf *b, u32 hint,
				       const u8 *ticket, size_t len)
{
	size_t msg, vec;
	struct ktls_wr w;

	/*
	 * RFC 5077 3.3: an empty ticket takes back the one the ServerHello
	 * announced, when there is no key to seal it with after all.
	 */
	if (len > U16_MAX)
		return -EINVAL;
	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_NEW_SESSION_TICKET);
	ktls_wr_u32(&w, hint);
	vec = ktls_wr_open(&w, 2);
	ktls_wr_bytes(&w, ticket, len);
	ktls_wr_close(&w, vec, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_build_new_session_ticket);

int ktls_hs12_parse_client_key_exchange(const u8 *msg, size_t len,
					struct ktls_hs_vec *point)
{
	struct ktls_rd r, body, p;
	u8 type;

	ktls_rd_init(&r, msg, len);
	if (!ktls_rd_u8(&r, &type))
		return KTLS_ALERT_DECODE_ERROR;
	if (type != KTLS_HS_CLIENT_KEY_EXCHANGE)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (!ktls_rd_vec(&r, 3, &body) || !ktls_rd_empty(&r))
		return KTLS_ALERT_DECODE_ERROR;
	/* ECPoint ecdh_Yc<1..2^8-1>, and nothing after it. */
	if (!ktls_rd_vec(&body, 1, &p) || ktls_rd_empty(&p) ||
	    !ktls_rd_empty(&body))
		return KTLS_ALERT_DECODE_ERROR;
	ktls_rd_to_vec(&p, point);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_parse_client_key_exchange);
