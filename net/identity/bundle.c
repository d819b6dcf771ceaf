// SPDX-License-Identifier: GPL-2.0-only
/*
 * Identity bundles: the payload of a "ktls_identity" key, turned into a
 * struct ktls_identity.  A bundle is a certificate chain, leaf first, and
 * the leaf's P-256 private key, either as PEM blocks or as DER elements
 * back to back.  Everything is checked here, once, before the identity
 * exists: the structure of every certificate (by our walk and by the
 * kernel's X.509 parser), the leaf's key type, and that the private key
 * is the one the leaf certifies.
 */
#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <crypto/algapi.h>

#include "bundle.h"
#include "der.h"
#include "eckey.h"
#include "pem.h"
#include "x509.h"

/**
 * struct bundle - the elements of a payload, before they are checked
 * @certs:	the certificates in payload order
 * @nr_certs:	how many
 * @key:	the private key, or no data if there was none
 * @scratch:	where PEM bodies are decoded to; holds the private key
 * @scratch_size: its size
 * @scratch_used: bytes of it in use
 */
struct bundle {
	struct ktls_der certs[KTLS_IDENTITY_MAX_CERTS];
	unsigned int nr_certs;
	struct ktls_der key;
	u8 *scratch;
	size_t scratch_size;
	size_t scratch_used;
};

static int bundle_add(struct bundle *b, const u8 *der, size_t len,
		      bool is_key, const char **why)
{
	if (is_key) {
		if (b->key.data) {
			*why = "bundle holds more than one private key";
			return -EINVAL;
		}
		b->key.data = der;
		b->key.len = len;
		return 0;
	}
	if (b->nr_certs == KTLS_IDENTITY_MAX_CERTS) {
		*why = "chain is longer than 16 certificates";
		return -E2BIG;
	}
	b->certs[b->nr_certs].data = der;
	b->certs[b->nr_certs].len = len;
	b->nr_certs++;
	return 0;
}

/*
 * DER elements back to back.  A certificate starts with its
 * tbsCertificate SEQUENCE, a private key (SEC1 or PKCS#8) with its
 * version INTEGER.
 */
static int bundle_split_der(struct bundle *b, const u8 *data, size_t len,
			    const char **why)
{
	struct ktls_der d = { .data = data, .len = len }, el, v;
	const u8 *start;
	u8 tag;
	int err;

	while (d.len) {
		start = d.data;
		if (ktls_der_get(&d, KTLS_DER_SEQUENCE, &el) ||
		    ktls_der_next(&el, &tag, &v)) {
			*why = "truncated or malformed DER element";
			return -EBADMSG;
		}
		err = bundle_add(b, start, d.data - start,
				 tag == KTLS_DER_INTEGER, why);
		if (err)
			return err;
	}
	return 0;
}

enum bundle_pem_kind {
	BUNDLE_PEM_CERT,
	BUNDLE_PEM_KEY,
	BUNDLE_PEM_IGNORE,
};

static const struct {
	const char *label;
	int kind;	/* enum bundle_pem_kind, or an errno */
	const char *why;
} bundle_pem_labels[] = {
	{ "CERTIFICATE", BUNDLE_PEM_CERT },
	{ "EC PRIVATE KEY", BUNDLE_PEM_KEY },
	{ "PRIVATE KEY", BUNDLE_PEM_KEY },
	/* "openssl ecparam -genkey" writes it; the key names its curve. */
	{ "EC PARAMETERS", BUNDLE_PEM_IGNORE },
	{ "ENCRYPTED PRIVATE KEY", -ENOPKG,
	  "encrypted private keys are not supported" },
	{ "RSA PRIVATE KEY", -ENOPKG, "private key is RSA, not P-256" },
};

static int bundle_pem_kind(const struct ktls_pem *blk, const char **why)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bundle_pem_labels); i++) {
		const char *label = bundle_pem_labels[i].label;

		if (blk->label_len == strlen(label) &&
		    !memcmp(blk->label, label, blk->label_len)) {
			*why = bundle_pem_labels[i].why;
			return bundle_pem_labels[i].kind;
		}
	}
	*why = "unexpected PEM block in bundle";
	return -EINVAL;
}

static int bundle_split_pem(struct bundle *b, const u8 *data, size_t len,
			    const char **why)
{
	const char *pos = (const char *)data, *end = pos + len;
	struct ktls_der d, v;
	struct ktls_pem blk;
	bool found = false;
	size_t n;
	int err, kind;
	u8 *out;

	/* Base64 makes 3 bytes of 4 symbols: all blocks fit in @len. */
	b->scratch = kvmalloc(len, GFP_KERNEL);
	if (!b->scratch) {
		*why = NULL;
		return -ENOMEM;
	}
	b->scratch_size = len;

	while ((err = ktls_pem_next(&pos, end, &blk, why)) > 0) {
		found = true;
		kind = bundle_pem_kind(&blk, why);
		if (kind < 0)
			return kind;
		if (kind == BUNDLE_PEM_IGNORE)
			continue;

		out = b->scratch + b->scratch_used;
		err = ktls_base64_decode(blk.body, blk.body_len, out, &n, why);
		if (err)
			return err;
		b->scratch_used += n;

		d.data = out;
		d.len = n;
		if (ktls_der_get(&d, KTLS_DER_SEQUENCE, &v) || d.len) {
			*why = "PEM block is not one DER element";
			return -EBADMSG;
		}
		err = bundle_add(b, out, n, kind == BUNDLE_PEM_KEY, why);
		if (err)
			return err;
	}
	if (err)
		return err;
	if (!found) {
		*why = "payload is neither DER nor PEM";
		return -EINVAL;
	}
	return 0;
}

static int bundle_check_kernel(const u8 *der, size_t len, const char **why)
{
	struct x509_certificate *cert;

	cert = x509_cert_parse(der, len);
	if (IS_ERR(cert)) {
		/*
		 * Keep our errnos: an algorithm it does not know is ENOPKG,
		 * anything else it refuses (EINVAL, say) is malformed.
		 */
		switch (PTR_ERR(cert)) {
		case -ENOMEM:
			*why = NULL;
			return -ENOMEM;
		case -ENOPKG:
			*why = "a certificate uses an algorithm the kernel does not know";
			return -ENOPKG;
		case -ENOENT:
			/*
			 * A self-signed certificate whose signature the kernel
			 * has no algorithm to check (Debian's 6.1 is built
			 * without CONFIG_CRYPTO_ECDSA): the parser decoded
			 * all of it, and the signature is never used.  The
			 * kernel's own ENOPKG for it is accepted the same way.
			 */
			return 0;
		default:
			*why = "the kernel's X.509 parser refuses a certificate";
			return -EBADMSG;
		}
	}
	x509_free_certificate(cert);
	return 0;
}

/* The certificates, copied into the identity, and walked there. */
static int bundle_chain(struct ktls_identity *id, const struct bundle *b,
			struct ktls_x509 *leaf, const char **why)
{
	struct ktls_x509 cert;
	size_t off = 0;
	unsigned int i;
	int err;

	for (i = 0; i < b->nr_certs; i++)
		id->chain_len += b->certs[i].len;
	id->chain = kmalloc(id->chain_len, GFP_KERNEL);
	id->certs = kcalloc(b->nr_certs, sizeof(*id->certs), GFP_KERNEL);
	if (!id->chain || !id->certs) {
		*why = NULL;
		return -ENOMEM;
	}

	for (i = 0; i < b->nr_certs; i++) {
		struct ktls_identity_cert *c = &id->certs[i];

		memcpy(id->chain + off, b->certs[i].data, b->certs[i].len);
		c->der = id->chain + off;
		c->len = b->certs[i].len;
		off += c->len;
		id->nr_certs++;

		err = ktls_x509_parse(i ? &cert : leaf, c->der, c->len, why);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Last, as what x509_cert_parse() takes depends on the kernel's config
 * (one without RSA refuses an RSA certificate): an RSA leaf must get the
 * same errno everywhere.
 */
static int bundle_check_chain(const struct ktls_identity *id,
			      const char **why)
{
	unsigned int i;
	int err;

	for (i = 0; i < id->nr_certs; i++) {
		err = bundle_check_kernel(id->certs[i].der, id->certs[i].len,
					  why);
		if (err)
			return err;
	}
	return 0;
}

/* The leaf's names and subject, for SNI and for people. */
static int bundle_names(struct ktls_identity *id, const struct ktls_x509 *leaf,
			const char **why)
{
	struct ktls_identity_name name;
	struct ktls_der san = leaf->san;
	unsigned int n = 0;
	int err, len;

	while ((err = ktls_x509_next_name(&san, &name, why)) > 0)
		n++;
	if (err)
		return err;
	if (n) {
		id->names = kcalloc(n, sizeof(*id->names), GFP_KERNEL);
		if (!id->names) {
			*why = NULL;
			return -ENOMEM;
		}
		san = leaf->san;
		while (id->nr_names < n &&
		       ktls_x509_next_name(&san, &name, why) > 0)
			id->names[id->nr_names++] = name;
	}

	len = ktls_x509_format_name(&leaf->subject, NULL, 0);
	if (len < 0) {
		*why = "malformed subject in leaf certificate";
		return len;
	}
	id->subject = kmalloc(len + 1, GFP_KERNEL);
	if (!id->subject) {
		*why = NULL;
		return -ENOMEM;
	}
	ktls_x509_format_name(&leaf->subject, id->subject, len + 1);
	return 0;
}

/*
 * The private key must be the leaf's: its public key, computed from the
 * scalar, must be the one the leaf certifies.  A copy of the public key in
 * the key's encoding must agree too, or the encoding contradicts itself.
 */
static int bundle_key(struct ktls_identity *id, const struct bundle *b,
		      const struct ktls_x509 *leaf, const char **why)
{
	u8 pub[KTLS_P256_POINT_LEN], computed[KTLS_P256_POINT_LEN];
	bool has_pub;
	int err;

	err = ktls_x509_p256_key(leaf, id->public_key, why);
	if (err)
		return err;
	err = ktls_eckey_parse(b->key.data, b->key.len, id->private_key, pub,
			       &has_pub, why);
	if (err)
		return err;
	if (ktls_p256_public_key(computed, id->private_key)) {
		*why = "private key is out of range for P-256";
		return -EKEYREJECTED;
	}
	if (crypto_memneq(computed, id->public_key, sizeof(computed)) ||
	    (has_pub && crypto_memneq(pub, id->public_key, sizeof(pub)))) {
		*why = "private key does not match the leaf certificate";
		return -EKEYREJECTED;
	}
	return 0;
}

/**
 * ktls_bundle_parse() - check a bundle and make an identity of it
 * @data:	the payload, PEM or DER
 * @len:	its length
 * @why:	what was wrong, on error other than -ENOMEM
 *
 * A payload starting with a SEQUENCE tag is DER, anything else is looked
 * at as PEM.  The errors are documented in Documentation/identities.rst.
 *
 * Return: a new identity holding one reference, or an ERR_PTR().
 */
struct ktls_identity *ktls_bundle_parse(const u8 *data, size_t len,
					const char **why)
{
	struct bundle b = {};
	struct ktls_identity *id = NULL;
	struct ktls_x509 leaf;
	int err;

	*why = NULL;
	if (!len) {
		*why = "empty payload";
		return ERR_PTR(-EINVAL);
	}
	if (len > KTLS_IDENTITY_MAX_PAYLOAD) {
		*why = "bundle is larger than 64 KiB";
		return ERR_PTR(-EMSGSIZE);
	}

	if (data[0] == KTLS_DER_SEQUENCE)
		err = bundle_split_der(&b, data, len, why);
	else
		err = bundle_split_pem(&b, data, len, why);
	if (err)
		goto out;
	if (!b.nr_certs) {
		*why = "bundle has no certificate";
		err = -ENODATA;
		goto out;
	}
	if (!b.key.data) {
		*why = "bundle has no private key";
		err = -ENOKEY;
		goto out;
	}

	id = kzalloc(sizeof(*id), GFP_KERNEL);
	if (!id) {
		err = -ENOMEM;
		goto out;
	}
	refcount_set(&id->ref, 1);

	err = bundle_chain(id, &b, &leaf, why);
	if (!err)
		err = bundle_key(id, &b, &leaf, why);
	if (!err)
		err = bundle_check_chain(id, why);
	if (!err)
		err = bundle_names(id, &leaf, why);
	if (err) {
		ktls_identity_put(id);
		id = NULL;
	}
out:
	kvfree_sensitive(b.scratch, b.scratch_size);
	return err ? ERR_PTR(err) : id;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_bundle_parse);
