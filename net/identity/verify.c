// SPDX-License-Identifier: GPL-2.0-only
/*
 * Certificate path validation for client certificates (RFC 5280 section
 * 6, for the one key type we take): from the leaf of a TLS
 * certificate_list, issuer by issuer through the other certificates the
 * client sent, to an anchor of a trust store, checking each link's
 * ECDSA P-256 signature, validity, CA and usage constraints on the way.
 *
 * A client chooses every byte and runs this in softirq on our CPU, so
 * the work is bounded before it starts: at most KTLS_VERIFY_MAX_CERTS
 * certificates of KTLS_VERIFY_MAX_BYTES, a path of KTLS_VERIFY_MAX_DEPTH
 * intermediates, and KTLS_VERIFY_MAX_SIG_CHECKS P-256 signature
 * verifications, whatever the client sends.  Path building is a loop,
 * not a search: at each step the first candidate issuer whose signature
 * verifies is taken, anchors before the client's certificates, and there
 * is no backtracking; a certificate is used at most once, so the loop
 * ends.  Nothing is allocated: the parsed certificates live in the
 * caller's scratch memory.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include <ktls_hs/kdf.h>
#include <ktls_hs/trust.h>

#include "cert.h"
#include "x509.h"

/**
 * struct verify - one verification's state, in the caller's scratch
 * @list:	the certificate_list
 * @certs:	@list, parsed
 * @used:	which of @certs the path holds
 * @nr_certs:	length of the certificate_list
 * @sig_checks:	signature verifications so far
 * @now:	the time to check validity against
 * @why:	what was wrong, for the caller's message
 */
struct verify {
	const struct ktls_verify_cert *list;
	struct ktls_cert certs[KTLS_VERIFY_MAX_CERTS];
	bool used[KTLS_VERIFY_MAX_CERTS];
	unsigned int nr_certs;
	unsigned int sig_checks;
	time64_t now;
	const char *why;
};

static_assert(sizeof(struct verify) <= KTLS_VERIFY_SCRATCH_SIZE);

static enum ktls_verify_result verify_fail(struct verify *v,
					   enum ktls_verify_result res,
					   const char *why)
{
	v->why = why;
	return res;
}

static bool verify_in_time(const struct verify *v, time64_t not_before,
			   time64_t not_after)
{
	return v->now >= not_before && v->now <= not_after;
}

/* Whether @issuer_name (and key id) can be the issuer @c names. */
static bool verify_names_issuer(const struct ktls_cert *c, const u8 *name,
				size_t name_len, const u8 *ski, size_t ski_len)
{
	if (c->issuer.len != name_len ||
	    memcmp(c->issuer.data, name, name_len))
		return false;
	/* Both key identifiers present: they must agree (RFC 5280 4.2.1.1). */
	if (c->aki.len && ski_len &&
	    (c->aki.len != ski_len || memcmp(c->aki.data, ski, ski_len)))
		return false;
	return true;
}

/*
 * Whether @pub signed @c.  -E2BIG once the budget of signature checks is
 * spent, -EBADMSG if the signature does not verify.
 */
static int verify_signature(struct verify *v, const struct ktls_cert *c,
			    const u8 pub[KTLS_P256_POINT_LEN])
{
	u8 digest[KTLS_HASH_MAX_SIZE], sig[KTLS_P256_SIG_LEN];
	int len, err;

	if (v->sig_checks == KTLS_VERIFY_MAX_SIG_CHECKS)
		return -E2BIG;
	v->sig_checks++;
	len = ktls_hash_size(c->sig_hash);
	if (len < 0)
		return len;
	err = ktls_hash_digest(c->sig_hash, c->tbs.data, c->tbs.len, digest,
			       len);
	if (err)
		return err;
	err = ktls_p256_sig_from_der(sig, c->sig.data, c->sig.len);
	if (err)
		return -EBADMSG;
	return ktls_p256_ecdsa_verify(pub, digest, len, sig) ? -EBADMSG : 0;
}

static bool verify_denied(const struct ktls_trust *trust, const u8 *der,
			  size_t len, u8 fp[SHA256_DIGEST_SIZE])
{
	if (ktls_hash_digest(KTLS_HASH_SHA256, der, len, fp,
			     SHA256_DIGEST_SIZE))
		return true;	/* cannot tell: refuse */
	return ktls_trust_denied(trust, fp);
}

/*
 * What any certificate of the path must be, and what the leaf must be
 * besides: a P-256 key fit for signing a TLS handshake for a client.
 */
static enum ktls_verify_result verify_leaf(struct verify *v,
					   const struct ktls_cert *leaf,
					   struct ktls_peer_cert *peer)
{
	const char *why;
	int err;

	err = ktls_x509_p256_key(&leaf->x, peer->public_key, &why);
	if (err)
		return verify_fail(v, err == -ENOPKG ? KTLS_VERIFY_UNSUPPORTED :
				   KTLS_VERIFY_BAD_CERTIFICATE,
				   ktls_cert_is_rsa(leaf) ?
				   "client certificate has an RSA key, not P-256" :
				   why);
	if (leaf->unknown_critical)
		return verify_fail(v, KTLS_VERIFY_UNSUPPORTED,
				   "client certificate has an unknown critical extension");
	if (leaf->has_ku && !(leaf->ku & KTLS_CERT_KU_DIGITAL_SIGNATURE))
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "client certificate keyUsage lacks digitalSignature");
	if (leaf->has_eku &&
	    !(leaf->eku & (KTLS_CERT_EKU_CLIENT_AUTH | KTLS_CERT_EKU_ANY)))
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "client certificate extendedKeyUsage lacks clientAuth");
	return KTLS_VERIFY_OK;
}

/*
 * An intermediate CA the client sent, once it signed the certificate
 * below it; @below counts the intermediates between it and the leaf.
 */
static enum ktls_verify_result verify_ca(struct verify *v,
					 const struct ktls_cert *ca,
					 unsigned int below)
{
	if (!ca->is_ca)
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "an issuing certificate is not a CA");
	if (ca->has_ku && !(ca->ku & KTLS_CERT_KU_KEY_CERT_SIGN))
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "an issuing CA's keyUsage lacks keyCertSign");
	if (ca->unknown_critical)
		return verify_fail(v, KTLS_VERIFY_UNSUPPORTED,
				   "an issuing CA has an unknown critical extension");
	if (ca->path_len != KTLS_CERT_NO_PATH_LEN && below > ca->path_len)
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "an issuing CA's pathLenConstraint is exceeded");
	return KTLS_VERIFY_OK;
}

/*
 * Signed by an anchor of @trust?  1 with the anchor's index in @found,
 * 0 if no anchor has the issuer's name, or a negative errno: -EBADMSG if
 * one has and its signature does not verify, -E2BIG past the budget.
 */
static int verify_by_anchor(struct verify *v, const struct ktls_trust *trust,
			    const struct ktls_cert *c, unsigned int *found)
{
	unsigned int i;
	int ret = 0, err;

	for (i = 0; i < trust->nr_anchors; i++) {
		const struct ktls_trust_anchor *a = &trust->anchors[i];

		if (!verify_names_issuer(c, a->subject, a->subject_len, a->ski,
					 a->ski_len))
			continue;
		err = verify_signature(v, c, a->public_key);
		if (!err) {
			*found = i;
			return 1;
		}
		if (err == -E2BIG)
			return err;
		ret = -EBADMSG;
	}
	return ret;
}

/* Signed by a certificate the client sent?  As verify_by_anchor(). */
static int verify_by_peer_cert(struct verify *v, const struct ktls_cert *c,
			       unsigned int *found)
{
	u8 pub[KTLS_P256_POINT_LEN];
	const char *why;
	unsigned int i;
	int ret = 0, err;

	for (i = 1; i < v->nr_certs; i++) {
		const struct ktls_cert *ca = &v->certs[i];

		if (v->used[i] ||
		    !verify_names_issuer(c, ca->x.subject.data,
					 ca->x.subject.len, ca->ski.data,
					 ca->ski.len))
			continue;
		/* Not P-256: it did not make our ECDSA P-256 signature. */
		if (ktls_x509_p256_key(&ca->x, pub, &why)) {
			ret = ret ?: -ENOPKG;
			continue;
		}
		err = verify_signature(v, c, pub);
		if (!err) {
			*found = i;
			return 1;
		}
		if (err == -E2BIG)
			return err;
		ret = -EBADMSG;
	}
	return ret;
}

static enum ktls_verify_result verify_no_issuer(struct verify *v, int err)
{
	switch (err) {
	case -E2BIG:
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "too many signatures to check");
	case -EBADMSG:
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "certificate signature does not verify");
	case -ENOPKG:
		return verify_fail(v, KTLS_VERIFY_UNSUPPORTED,
				   "issuing certificate key is not P-256");
	case 0:
		return verify_fail(v, KTLS_VERIFY_UNKNOWN_CA,
				   "no path to a trusted CA");
	default:
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "cannot hash a certificate");
	}
}

/* From the leaf up, one issuer a turn, until an anchor signed one. */
static enum ktls_verify_result verify_path(struct verify *v,
					   const struct ktls_trust *trust,
					   struct ktls_peer_cert *peer)
{
	const struct ktls_cert *c = &v->certs[0];
	u8 fp[SHA256_DIGEST_SIZE];
	enum ktls_verify_result res;
	unsigned int depth, i;
	int err;

	for (depth = 0; ; depth++) {
		if (!verify_in_time(v, c->not_before, c->not_after))
			return verify_fail(v, KTLS_VERIFY_EXPIRED,
					   v->now < c->not_before ?
					   "a certificate is not yet valid" :
					   "a certificate has expired");
		if (c->sig_hash == KTLS_HASH_NONE)
			return verify_fail(v, KTLS_VERIFY_UNSUPPORTED,
					   "signature algorithm is not ECDSA with SHA-256 or SHA-384");

		err = verify_by_anchor(v, trust, c, &i);
		if (err > 0)
			break;
		if (err == -E2BIG)
			return verify_no_issuer(v, err);
		if (depth == KTLS_VERIFY_MAX_DEPTH)
			return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
					   "path is longer than the limit");
		/* Keep the anchor's verdict if no client certificate fits. */
		err = verify_by_peer_cert(v, c, &i) ?: err;
		if (err <= 0)
			return verify_no_issuer(v, err);

		v->used[i] = true;
		c = &v->certs[i];
		res = verify_ca(v, c, depth);
		if (res)
			return res;
		if (verify_denied(trust, v->list[i].der, v->list[i].len, fp))
			return verify_fail(v, KTLS_VERIFY_UNKNOWN_CA,
					   "an issuing certificate is on the denylist");
	}

	/* Signed by an anchor: is the anchor fit to sign this path? */
	peer->anchor = i;
	memcpy(peer->anchor_fp, trust->anchors[i].fingerprint,
	       sizeof(peer->anchor_fp));
	peer->depth = depth + 1;
	if (!verify_in_time(v, trust->anchors[i].not_before,
			    trust->anchors[i].not_after))
		return verify_fail(v, KTLS_VERIFY_EXPIRED,
				   "the trusted CA has expired or is not yet valid");
	if (trust->anchors[i].path_len >= 0 &&
	    depth > trust->anchors[i].path_len)
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "the trusted CA's pathLenConstraint is exceeded");
	return KTLS_VERIFY_OK;
}

/**
 * ktls_peer_add_san() - one subjectAltName of the leaf, kept in @peer
 * @peer:	where the names go
 * @type:	enum ktls_peer_san_type
 * @text:	the name, printable ASCII
 * @len:	its length
 *
 * Also how a session ticket's names are put back (net/hs/ticket_peer.c).
 *
 * Return: true, or false with @peer->sans_truncated set: no room.
 */
bool ktls_peer_add_san(struct ktls_peer_cert *peer, u8 type, const u8 *text,
		       size_t len)
{
	size_t off = peer->nr_sans ?
		     peer->sans[peer->nr_sans - 1].off +
		     peer->sans[peer->nr_sans - 1].len + 1 : 0;

	if (peer->nr_sans == KTLS_PEER_MAX_SANS ||
	    len + 1 > sizeof(peer->san_text) - off) {
		peer->sans_truncated = true;
		return false;
	}
	memcpy(peer->san_text + off, text, len);
	peer->san_text[off + len] = '\0';
	peer->sans[peer->nr_sans].type = type;
	peer->sans[peer->nr_sans].off = off;
	peer->sans[peer->nr_sans].len = len;
	peer->nr_sans++;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_peer_add_san);

/* The leaf's names, for logs and for the application to match on. */
static enum ktls_verify_result verify_names(struct verify *v,
					    const struct ktls_cert *leaf,
					    struct ktls_peer_cert *peer)
{
	struct ktls_der san = leaf->x.san, val;
	size_t i;
	u8 tag;

	if (ktls_x509_format_name(&leaf->x.subject, peer->subject,
				  sizeof(peer->subject)) < 0 ||
	    ktls_x509_format_name(&leaf->issuer, peer->issuer,
				  sizeof(peer->issuer)) < 0)
		return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				   "malformed name in client certificate");
	while (san.len) {
		if (ktls_der_next(&san, &tag, &val))
			return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
					   "malformed subjectAltName");
		if (tag != KTLS_DER_CONTEXT(KTLS_PEER_SAN_EMAIL) &&
		    tag != KTLS_DER_CONTEXT(KTLS_PEER_SAN_DNS) &&
		    tag != KTLS_DER_CONTEXT(KTLS_PEER_SAN_URI))
			continue;
		/* IA5String, and no spaces or controls in any of the three. */
		for (i = 0; i < val.len; i++) {
			if (val.data[i] <= 0x20 || val.data[i] >= 0x7f)
				return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
						   "subjectAltName is not printable");
		}
		if (!val.len)
			return verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
					   "empty subjectAltName");
		ktls_peer_add_san(peer, tag & 0x1f, val.data, val.len);
	}
	return KTLS_VERIFY_OK;
}

/**
 * ktls_verify_peer() - verify a client's certificate_list against a store
 * @trust:	the trust store
 * @certs:	the certificate_list, leaf first, as the Certificate message
 *		carries it; an empty list (no client certificate) is the
 *		handshake's business, refused here as bad_certificate
 * @nr_certs:	its length
 * @now:	the time to check validity against: ktime_get_real_seconds()
 *		in the handshake, another clock in tests
 * @scratch:	KTLS_VERIFY_SCRATCH_SIZE bytes, 8-byte aligned, for the
 *		duration of the call
 * @peer:	on success, the verified leaf's key and names; on failure,
 *		its subject and issuer if the leaf could be read
 * @why:	a constant string saying what was wrong, on failure
 *
 * Callable in softirq: allocates nothing and does at most
 * KTLS_VERIFY_MAX_SIG_CHECKS signature verifications.  The rules are in
 * Documentation/identities.rst.
 *
 * Return: KTLS_VERIFY_OK, or the alert to send.
 */
enum ktls_verify_result ktls_verify_peer(const struct ktls_trust *trust,
					 const struct ktls_verify_cert *certs,
					 unsigned int nr_certs, time64_t now,
					 void *scratch,
					 struct ktls_peer_cert *peer,
					 const char **why)
{
	struct verify *v = scratch;
	enum ktls_verify_result res;
	size_t total = 0;
	unsigned int i;

	memset(peer, 0, sizeof(*peer));
	memset(v->used, 0, sizeof(v->used));
	v->list = certs;
	v->nr_certs = nr_certs;
	v->sig_checks = 0;
	v->now = now;
	v->why = NULL;

	if (!nr_certs) {
		res = verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				  "no client certificate");
		goto out;
	}
	if (nr_certs > KTLS_VERIFY_MAX_CERTS) {
		res = verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				  "more certificates than the limit");
		goto out;
	}
	for (i = 0; i < nr_certs; i++)
		total += certs[i].len;
	if (total > KTLS_VERIFY_MAX_BYTES) {
		res = verify_fail(v, KTLS_VERIFY_BAD_CERTIFICATE,
				  "certificates larger than the limit");
		goto out;
	}
	for (i = 0; i < nr_certs; i++) {
		if (ktls_cert_parse(&v->certs[i], certs[i].der, certs[i].len,
				    &v->why)) {
			res = KTLS_VERIFY_BAD_CERTIFICATE;
			goto out;
		}
	}

	v->used[0] = true;
	res = verify_names(v, &v->certs[0], peer);
	if (!res)
		res = verify_leaf(v, &v->certs[0], peer);
	if (res)
		goto out;
	if (verify_denied(trust, certs[0].der, certs[0].len,
			  peer->fingerprint)) {
		res = verify_fail(v, KTLS_VERIFY_UNKNOWN_CA,
				  "client certificate is on the denylist");
		goto out;
	}
	peer->not_after = v->certs[0].not_after;
	res = verify_path(v, trust, peer);
out:
	*why = res ? v->why : NULL;
	return res;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_verify_peer);
