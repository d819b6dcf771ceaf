// SPDX-License-Identifier: GPL-2.0-only
/*
 * The messages of client authentication, both versions: the server's
 * CertificateRequest (RFC 8446 4.3.2, RFC 5246 7.4.4) built, and the
 * client's Certificate (RFC 8446 4.4.2, RFC 5246 7.4.6) and
 * CertificateVerify (RFC 8446 4.4.3, RFC 5246 7.4.8) parsed.  What the
 * certificates say is the verifier's business (net/identity/verify.c);
 * here only the framing around them is checked.
 */
#include <kunit/visibility.h>

#include <ktls_hs/trust.h>

#include "codec.h"
#include "wire.h"

/*
 * A DistinguishedName as TLS carries it: the DER of the Name, a SEQUENCE
 * around the contents the trust store keeps.
 */
static size_t ktls_hs_dn_len(u32 contents)
{
	if (contents < 0x80)
		return 2 + contents;
	if (contents < 0x100)
		return 3 + contents;
	return 4 + contents;
}

static void ktls_hs_wr_dn(struct ktls_wr *w, const u8 *contents, u32 len)
{
	ktls_wr_u8(w, 0x30);
	if (len >= 0x100) {
		ktls_wr_u8(w, 0x82);
		ktls_wr_u16(w, len);
	} else if (len >= 0x80) {
		ktls_wr_u8(w, 0x81);
		ktls_wr_u8(w, len);
	} else {
		ktls_wr_u8(w, len);
	}
	ktls_wr_bytes(w, contents, len);
}

size_t ktls_hs_ca_names_len(const struct ktls_trust *trust)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < trust->nr_anchors; i++)
		len += 2 + ktls_hs_dn_len(trust->anchors[i].subject_len);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ca_names_len);

/* The DistinguishedName list of @trust's anchors, without its length. */
static void ktls_hs_wr_ca_names(struct ktls_wr *w,
				const struct ktls_trust *trust)
{
	const struct ktls_trust_anchor *a;
	unsigned int i;
	size_t dn;

	for (i = 0; i < trust->nr_anchors; i++) {
		a = &trust->anchors[i];
		/* A Name of 64 KiB is not in a certificate of ours. */
		if (a->subject_len > 0xfff0) {
			w->err = -EINVAL;
			return;
		}
		dn = ktls_wr_open(w, 2);
		ktls_hs_wr_dn(w, a->subject, a->subject_len);
		ktls_wr_close(w, dn, 2);
	}
}

int ktls_hs_build_certificate_request(struct ktls_hs_buf *b,
				      const struct ktls_trust *cas)
{
	size_t msg, exts, ext, list;
	struct ktls_wr w;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_CERTIFICATE_REQUEST);
	ktls_wr_u8(&w, 0);	/* certificate_request_context: empty */
	exts = ktls_wr_open(&w, 2);
	/* The one scheme our verifier checks, for the chain and the CV. */
	ktls_wr_u16(&w, KTLS_EXT_SIGNATURE_ALGORITHMS);
	ext = ktls_wr_open(&w, 2);
	list = ktls_wr_open(&w, 2);
	ktls_wr_u16(&w, KTLS_SIG_ECDSA_SECP256R1_SHA256);
	ktls_wr_close(&w, list, 2);
	ktls_wr_close(&w, ext, 2);
	if (cas && cas->nr_anchors) {
		ktls_wr_u16(&w, KTLS_EXT_CERTIFICATE_AUTHORITIES);
		ext = ktls_wr_open(&w, 2);
		list = ktls_wr_open(&w, 2);
		ktls_hs_wr_ca_names(&w, cas);
		ktls_wr_close(&w, list, 2);
		ktls_wr_close(&w, ext, 2);
	}
	ktls_wr_close(&w, exts, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_build_certificate_request);

int ktls_hs12_build_certificate_request(struct ktls_hs_buf *b,
					const struct ktls_trust *cas)
{
	size_t msg, vec;
	struct ktls_wr w;

	ktls_wr_init(&w, b);
	msg = ktls_wr_msg_open(&w, KTLS_HS_CERTIFICATE_REQUEST);
	vec = ktls_wr_open(&w, 1);
	ktls_wr_u8(&w, KTLS_CERT_TYPE_ECDSA_SIGN);
	ktls_wr_close(&w, vec, 1);
	vec = ktls_wr_open(&w, 2);
	ktls_wr_u16(&w, KTLS_SIG_ECDSA_SECP256R1_SHA256);
	ktls_wr_close(&w, vec, 2);
	/* The list is there, empty or not (RFC 5246 7.4.4). */
	vec = ktls_wr_open(&w, 2);
	if (cas)
		ktls_hs_wr_ca_names(&w, cas);
	ktls_wr_close(&w, vec, 2);
	ktls_wr_close(&w, msg, 3);
	return ktls_wr_commit(&w);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs12_build_certificate_request);

int ktls_hs_parse_client_certificate(const u8 *msg, size_t len, bool tls13,
				     struct ktls_verify_cert *certs,
				     unsigned int max, unsigned int *nr)
{
	struct ktls_rd r, body, ctx, list, data, exts;
	unsigned int n = 0;
	u8 type;

	*nr = 0;
	ktls_rd_init(&r, msg, len);
	if (!ktls_rd_u8(&r, &type))
		return KTLS_ALERT_DECODE_ERROR;
	if (type != KTLS_HS_CERTIFICATE)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (!ktls_rd_vec(&r, 3, &body) || !ktls_rd_empty(&r))
		return KTLS_ALERT_DECODE_ERROR;
	if (tls13) {
		if (!ktls_rd_vec(&body, 1, &ctx))
			return KTLS_ALERT_DECODE_ERROR;
		/* Ours was empty: the answer must carry the same. */
		if (!ktls_rd_empty(&ctx))
			return KTLS_ALERT_ILLEGAL_PARAMETER;
	}
	if (!ktls_rd_vec(&body, 3, &list) || !ktls_rd_empty(&body))
		return KTLS_ALERT_DECODE_ERROR;
	while (!ktls_rd_empty(&list)) {
		if (!ktls_rd_vec(&list, 3, &data) || ktls_rd_empty(&data))
			return KTLS_ALERT_DECODE_ERROR;
		if (tls13) {
			if (!ktls_rd_vec(&list, 2, &exts))
				return KTLS_ALERT_DECODE_ERROR;
			/*
			 * RFC 8446 4.4.2: only extensions our request asked
			 * for, and it asked for none.
			 */
			if (!ktls_rd_empty(&exts))
				return KTLS_ALERT_UNSUPPORTED_EXTENSION;
		}
		if (n == max)
			return KTLS_ALERT_BAD_CERTIFICATE;
		certs[n].der = data.p;
		certs[n].len = data.left;
		n++;
	}
	*nr = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_parse_client_certificate);

int ktls_hs_parse_certificate_verify(const u8 *msg, size_t len, u16 *scheme,
				     struct ktls_hs_vec *sig)
{
	struct ktls_rd r, body, s;
	u8 type;

	ktls_rd_init(&r, msg, len);
	if (!ktls_rd_u8(&r, &type))
		return KTLS_ALERT_DECODE_ERROR;
	if (type != KTLS_HS_CERTIFICATE_VERIFY)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (!ktls_rd_vec(&r, 3, &body) || !ktls_rd_empty(&r) ||
	    !ktls_rd_u16(&body, scheme) || !ktls_rd_vec(&body, 2, &s) ||
	    !ktls_rd_empty(&body))
		return KTLS_ALERT_DECODE_ERROR;
	ktls_rd_to_vec(&s, sig);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_parse_certificate_verify);
