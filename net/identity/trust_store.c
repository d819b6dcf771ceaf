// SPDX-License-Identifier: GPL-2.0-only
/*
 * Trust store payloads: the PEM a "ktls_trust" key is loaded from, turned
 * into a struct ktls_trust.  A payload is CERTIFICATE blocks, each a CA
 * whose key is P-256, and, outside the blocks, lines
 * "deny <64 hex digits>" naming the SHA-256 of certificates to refuse in
 * any path (the kernel has no CRL or OCSP client: this is the one way to
 * withdraw a client certificate before it expires).  Other text outside
 * the blocks is ignored, as bundles made by hand carry comments, but a
 * line starting "deny" must be a good one: a typo must not silently
 * leave a certificate trusted.  Everything a verification needs of an
 * anchor is taken out here, once, so the verifier parses no anchor.
 */
#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ktls_hs/kdf.h>
#include <ktls_hs/trust.h>

#include "cert.h"
#include "der.h"
#include "pem.h"

#define TRUST_DENY	"deny"

/**
 * struct trust_split - the elements of a payload, before they are checked
 * @certs:	the certificates, decoded into @scratch
 * @nr_certs:	how many
 * @deny:	the denylist
 * @nr_deny:	its length
 * @scratch:	where PEM bodies are decoded to
 * @used:	bytes of @scratch in use
 */
struct trust_split {
	struct ktls_der certs[KTLS_TRUST_MAX_ANCHORS];
	unsigned int nr_certs;
	u8 (*deny)[SHA256_DIGEST_SIZE];
	unsigned int nr_deny;
	u8 *scratch;
	size_t used;
};

static int trust_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "deny" then blanks then 64 hex digits, then blanks only. */
static int trust_deny_line(struct trust_split *s, const char *p,
			   const char *end, const char **why)
{
	u8 fp[SHA256_DIGEST_SIZE];
	int hi, lo;
	size_t i;

	*why = "malformed deny line (want: deny <SHA-256 in 64 hex digits>)";
	p += strlen(TRUST_DENY);
	if (p == end || (*p != ' ' && *p != '\t'))
		return -EINVAL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 2 * sizeof(fp))
		return -EINVAL;
	for (i = 0; i < sizeof(fp); i++) {
		hi = trust_nibble(p[2 * i]);
		lo = trust_nibble(p[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		fp[i] = hi << 4 | lo;
	}
	for (p += 2 * sizeof(fp); p < end; p++) {
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return -EINVAL;
	}
	if (s->nr_deny == KTLS_TRUST_MAX_DENY) {
		*why = "denylist is longer than 1024 entries";
		return -E2BIG;
	}
	if (s->deny)
		memcpy(s->deny[s->nr_deny], fp, sizeof(fp));
	s->nr_deny++;
	return 0;
}

/* The deny lines of text outside the PEM blocks. */
static int trust_text(struct trust_split *s, const char *p, const char *end,
		      const char **why)
{
	const char *eol;
	int err;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if ((size_t)(eol - p) >= strlen(TRUST_DENY) &&
		    !memcmp(p, TRUST_DENY, strlen(TRUST_DENY))) {
			err = trust_deny_line(s, p, eol, why);
			if (err)
				return err;
		}
	}
	return 0;
}

static int trust_block(struct trust_split *s, const struct ktls_pem *blk,
		       const char **why)
{
	static const char label[] = "CERTIFICATE";
	struct ktls_der d, v;
	u8 *out = s->scratch + s->used;
	size_t n;
	int err;

	if (blk->label_len != strlen(label) ||
	    memcmp(blk->label, label, blk->label_len)) {
		*why = "unexpected PEM block in trust store (only CERTIFICATE)";
		return -EINVAL;
	}
	if (s->nr_certs == KTLS_TRUST_MAX_ANCHORS) {
		*why = "trust store holds more than 64 certificates";
		return -E2BIG;
	}
	err = ktls_base64_decode(blk->body, blk->body_len, out, &n, why);
	if (err)
		return err;
	d.data = out;
	d.len = n;
	if (ktls_der_get(&d, KTLS_DER_SEQUENCE, &v) || d.len) {
		*why = "PEM block is not one DER element";
		return -EBADMSG;
	}
	s->certs[s->nr_certs].data = out;
	s->certs[s->nr_certs].len = n;
	s->nr_certs++;
	s->used += n;
	return 0;
}

/* Once to count the deny lines (@s->deny NULL), once to fill them in. */
static int trust_split(struct trust_split *s, const char *data, size_t len,
		       const char **why)
{
	const char *pos = data, *end = data + len, *prev = pos;
	struct ktls_pem blk;
	int err;

	s->nr_certs = 0;
	s->nr_deny = 0;
	s->used = 0;
	while ((err = ktls_pem_next(&pos, end, &blk, why)) > 0) {
		/* The text between the last block and this one's BEGIN line. */
		err = trust_text(s, prev, blk.label - strlen("-----BEGIN "),
				 why);
		prev = pos;
		if (!err)
			err = trust_block(s, &blk, why);
		if (err)
			return err;
	}
	if (!err)
		err = trust_text(s, pos, end, why);
	return err;
}

/* What makes a certificate an anchor: a P-256 CA key, nothing unenforced. */
static int trust_anchor(struct ktls_trust_anchor *a, const u8 *der, size_t len,
			const char **why)
{
	struct ktls_cert cert;
	int err;

	err = ktls_cert_parse(&cert, der, len, why);
	if (err)
		return err;
	if (ktls_cert_is_rsa(&cert)) {
		*why = "CA certificate has an RSA key; only P-256 ECDSA CAs are supported";
		return -ENOPKG;
	}
	if (ktls_x509_p256_key(&cert.x, a->public_key, why)) {
		*why = "CA certificate key is not ECDSA P-256";
		return -ENOPKG;
	}
	if (!cert.is_ca) {
		*why = "certificate is not a CA (no basicConstraints cA TRUE)";
		return -EINVAL;
	}
	if (cert.has_ku && !(cert.ku & KTLS_CERT_KU_KEY_CERT_SIGN)) {
		*why = "CA certificate keyUsage lacks keyCertSign";
		return -EINVAL;
	}
	if (cert.unknown_critical) {
		*why = "CA certificate has a critical extension we do not enforce";
		return -ENOPKG;
	}
	a->der = der;
	a->len = len;
	a->subject = cert.x.subject.data;
	a->subject_len = cert.x.subject.len;
	a->ski = cert.ski.len ? cert.ski.data : NULL;
	a->ski_len = cert.ski.len;
	a->path_len = cert.path_len;
	a->not_before = cert.not_before;
	a->not_after = cert.not_after;
	return ktls_hash_digest(KTLS_HASH_SHA256, der, len, a->fingerprint,
				sizeof(a->fingerprint));
}

static int trust_build(struct ktls_trust *t, struct trust_split *s,
		       const char **why)
{
	size_t off = 0;
	unsigned int i;
	int err;

	t->anchors = kcalloc(s->nr_certs, sizeof(*t->anchors), GFP_KERNEL);
	t->ders = kmalloc(s->used, GFP_KERNEL);
	if (!t->anchors || !t->ders)
		return -ENOMEM;
	for (i = 0; i < s->nr_certs; i++) {
		memcpy(t->ders + off, s->certs[i].data, s->certs[i].len);
		err = trust_anchor(&t->anchors[i], t->ders + off,
				   s->certs[i].len, why);
		if (err)
			return err;
		off += s->certs[i].len;
		t->nr_anchors++;
	}
	return 0;
}

/**
 * ktls_trust_parse() - check a trust store payload and make a store of it
 * @data:	the payload, PEM
 * @len:	its length
 * @why:	what was wrong, on error other than -ENOMEM
 *
 * The errors are documented in Documentation/identities.rst.
 *
 * Return: a new store holding one reference, or an ERR_PTR().
 */
struct ktls_trust *ktls_trust_parse(const u8 *data, size_t len,
				    const char **why)
{
	struct ktls_trust *t = NULL;
	struct trust_split *s;
	int err;

	*why = NULL;
	if (!len) {
		*why = "empty payload";
		return ERR_PTR(-EINVAL);
	}
	if (len > KTLS_TRUST_MAX_PAYLOAD) {
		*why = "trust store is larger than 256 KiB";
		return ERR_PTR(-EMSGSIZE);
	}
	/* 1 KiB of certificate windows: not for the stack. */
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	/* Base64 makes 3 bytes of 4 symbols: all blocks fit in @len. */
	s->scratch = kvmalloc(len, GFP_KERNEL);
	if (!s->scratch) {
		err = -ENOMEM;
		goto out;
	}
	err = trust_split(s, (const char *)data, len, why);
	if (err)
		goto out;
	if (!s->nr_certs) {
		*why = "trust store has no CERTIFICATE block";
		err = -ENODATA;
		goto out;
	}

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		err = -ENOMEM;
		goto out;
	}
	refcount_set(&t->ref, 1);
	t->pem = kmemdup(data, len, GFP_KERNEL);
	t->pem_len = len;
	if (s->nr_deny)
		t->deny = kcalloc(s->nr_deny, sizeof(*t->deny), GFP_KERNEL);
	if (!t->pem || (s->nr_deny && !t->deny)) {
		err = -ENOMEM;
		goto out;
	}
	s->deny = t->deny;
	err = trust_split(s, (const char *)data, len, why);
	if (!err) {
		t->nr_deny = s->nr_deny;
		err = trust_build(t, s, why);
	}
out:
	if (err == -ENOMEM)
		*why = NULL;
	if (err) {
		ktls_trust_put(t);
		t = ERR_PTR(err);
	}
	kvfree(s->scratch);
	kfree(s);
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_trust_parse);

/**
 * ktls_trust_denied() - whether a certificate is on the store's denylist
 * @trust:	the store
 * @fingerprint: SHA-256 of the certificate's DER
 *
 * Return: true if it is.
 */
bool ktls_trust_denied(const struct ktls_trust *trust,
		       const u8 fingerprint[SHA256_DIGEST_SIZE])
{
	unsigned int i;

	for (i = 0; i < trust->nr_deny; i++) {
		if (!memcmp(trust->deny[i], fingerprint, SHA256_DIGEST_SIZE))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_trust_denied);

/**
 * ktls_trust_anchor_find() - the anchor of a store with this fingerprint
 * @trust:	the store
 * @fingerprint: SHA-256 of the anchor's DER
 *
 * Return: the anchor, or NULL if the store has none such.
 */
const struct ktls_trust_anchor *
ktls_trust_anchor_find(const struct ktls_trust *trust,
		       const u8 fingerprint[SHA256_DIGEST_SIZE])
{
	unsigned int i;

	for (i = 0; i < trust->nr_anchors; i++) {
		if (!memcmp(trust->anchors[i].fingerprint, fingerprint,
			    SHA256_DIGEST_SIZE))
			return &trust->anchors[i];
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_trust_anchor_find);
