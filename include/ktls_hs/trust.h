/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Client certificates: the trust stores the handshake checks them
 * against (keys of type "ktls_trust") and the RFC 5280 path verifier
 * (see Documentation/identities.rst, "Trust stores").  A trust store,
 * like an identity, is immutable once published and refcounted: a
 * handshake that took one keeps it while the key is updated or revoked.
 *
 * The verifier runs where the Certificate message arrives, in softirq:
 * it sleeps on nothing and allocates nothing (its memory is the
 * caller's KTLS_VERIFY_SCRATCH_SIZE bytes), recurses nowhere, and the work
 * a peer can make it do is capped by the KTLS_VERIFY_MAX_* limits.
 */
#ifndef _KTLS_HS_TRUST_H
#define _KTLS_HS_TRUST_H

#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/time64.h>
#include <linux/types.h>

#include <crypto/sha2.h>

#include <ktls_hs/p256.h>

struct key;

/* Trust store payloads larger than this are refused with -EMSGSIZE. */
#define KTLS_TRUST_MAX_PAYLOAD		(256 * 1024)
/* More CAs than this in one store: -E2BIG. */
#define KTLS_TRUST_MAX_ANCHORS		64
/* More denylist entries than this: -E2BIG. */
#define KTLS_TRUST_MAX_DENY		1024

/* What a peer may make one verification do (Documentation/identities.rst). */
#define KTLS_VERIFY_MAX_CERTS		10	/* in the certificate_list */
#define KTLS_VERIFY_MAX_BYTES		(32 * 1024)	/* of all of them */
#define KTLS_VERIFY_MAX_DEPTH		4	/* intermediates in the path */
#define KTLS_VERIFY_MAX_SIG_CHECKS	8	/* ECDSA verifications */

/**
 * struct ktls_trust_anchor - one CA certificate of a trust store
 * @der:	its DER encoding, inside &ktls_trust.ders
 * @len:	length of @der
 * @subject:	contents of its subject Name, inside @der
 * @subject_len: length of @subject
 * @ski:	its subjectKeyIdentifier inside @der, or NULL
 * @ski_len:	length of @ski
 * @path_len:	its pathLenConstraint, or -1 for none
 * @not_before:	start of its validity
 * @not_after:	end of its validity
 * @public_key:	its P-256 key, uncompressed
 * @fingerprint: SHA-256 of @der, by which a session ticket names the
 *		anchor its client's path ended at
 */
struct ktls_trust_anchor {
	const u8 *der;
	u32 len;
	const u8 *subject;
	u32 subject_len;
	const u8 *ski;
	u32 ski_len;
	int path_len;
	time64_t not_before;
	time64_t not_after;
	u8 public_key[KTLS_P256_POINT_LEN];
	u8 fingerprint[SHA256_DIGEST_SIZE];
};

/**
 * struct ktls_trust - a set of trust anchors and a denylist
 * @ref:	holders: the key while this is its payload, and each
 *		handshake that took it with ktls_trust_get()
 * @nr_anchors:	number of @anchors, at least one
 * @anchors:	the CA certificates, in payload order
 * @ders:	their DER encodings back to back
 * @nr_deny:	number of @deny entries
 * @deny:	SHA-256 fingerprints of certificates refused in any path
 * @pem:	the payload as loaded, what keyctl read returns
 * @pem_len:	its length
 * @rcu:	readers find the store from the key under RCU
 *
 * Every field is immutable once the store is published.
 */
struct ktls_trust {
	refcount_t ref;
	unsigned int nr_anchors;
	struct ktls_trust_anchor *anchors;
	u8 *ders;
	unsigned int nr_deny;
	u8 (*deny)[SHA256_DIGEST_SIZE];
	char *pem;
	size_t pem_len;
	struct rcu_head rcu;
};

/*
 * The outcome of a verification: 0, or the TLS alert (RFC 8446 6.2)
 * the handshake sends.
 */
enum ktls_verify_result {
	KTLS_VERIFY_OK			= 0,
	/*
	 * malformed, a signature that does not verify, a CA or usage
	 * constraint broken, or one of the KTLS_VERIFY_MAX_* limits
	 */
	KTLS_VERIFY_BAD_CERTIFICATE	= 42,
	/*
	 * a key other than P-256, an unknown signature algorithm, an
	 * unknown critical extension
	 */
	KTLS_VERIFY_UNSUPPORTED		= 43,
	/* now is outside a certificate's validity, either side */
	KTLS_VERIFY_EXPIRED		= 45,
	/* no path to an anchor of the store; a denylisted certificate */
	KTLS_VERIFY_UNKNOWN_CA		= 48,
};

/**
 * struct ktls_verify_cert - one entry of a TLS certificate_list
 * @der:	the cert_data, one DER certificate (the caller's buffer)
 * @len:	its length
 */
struct ktls_verify_cert {
	const u8 *der;
	u32 len;
};

/* The names of a verified peer kept for later, after its DER is gone. */
#define KTLS_PEER_NAME_MAX		256	/* subject, issuer */
#define KTLS_PEER_MAX_SANS		8
#define KTLS_PEER_SAN_BYTES		512

enum ktls_peer_san_type {
	KTLS_PEER_SAN_EMAIL	= 1,	/* rfc822Name */
	KTLS_PEER_SAN_DNS	= 2,	/* dNSName */
	KTLS_PEER_SAN_URI	= 6,	/* uniformResourceIdentifier: SPIFFE IDs */
};

/**
 * struct ktls_peer_san - one subjectAltName of the peer's leaf
 * @type:	enum ktls_peer_san_type, the GeneralName tag number
 * @off:	where its text starts in &ktls_peer_cert.san_text
 * @len:	its length; printable ASCII, NUL terminated there too
 */
struct ktls_peer_san {
	u8 type;
	u16 off;
	u16 len;
};

/**
 * struct ktls_peer_cert - what a successful verification leaves
 * @public_key:	the leaf's P-256 key, for CertificateVerify
 * @fingerprint: SHA-256 of the leaf's DER
 * @not_after:	end of the leaf's validity
 * @depth:	certificates in the path below the anchor, leaf included
 * @anchor:	index of the anchor in &ktls_trust.anchors
 * @anchor_fp:	that anchor's &ktls_trust_anchor.fingerprint, which still
 *		names it once the store was replaced
 * @subject:	the leaf's subject, one printable line ("CN=a, O=b"), cut
 *		short (and NUL terminated) if longer
 * @issuer:	its issuer, the same way
 * @nr_sans:	entries of @sans
 * @sans_truncated: the leaf has names that did not fit
 * @sans:	the leaf's email, DNS and URI names, in certificate order
 * @san_text:	their text
 */
struct ktls_peer_cert {
	u8 public_key[KTLS_P256_POINT_LEN];
	u8 fingerprint[SHA256_DIGEST_SIZE];
	time64_t not_after;
	unsigned int depth;
	unsigned int anchor;
	u8 anchor_fp[SHA256_DIGEST_SIZE];
	char subject[KTLS_PEER_NAME_MAX];
	char issuer[KTLS_PEER_NAME_MAX];
	unsigned int nr_sans;
	bool sans_truncated;
	struct ktls_peer_san sans[KTLS_PEER_MAX_SANS];
	char san_text[KTLS_PEER_SAN_BYTES];
};

/*
 * The verifier's working memory: the parsed certificate_list, some 2 KiB,
 * too much for a softirq stack.  The caller provides it, 8-byte aligned,
 * from its handshake's memory; it holds nothing once the call returns.
 */
#define KTLS_VERIFY_SCRATCH_SIZE	2560

/* trust.c: the "ktls_trust" key type */
int ktls_trust_init(void);
void ktls_trust_exit(void);
struct ktls_trust *ktls_trust_get(struct key *key);
void ktls_trust_put(struct ktls_trust *trust);

/* trust_store.c: payloads */
struct ktls_trust *ktls_trust_parse(const u8 *data, size_t len,
				    const char **why);
bool ktls_trust_denied(const struct ktls_trust *trust,
		       const u8 fingerprint[SHA256_DIGEST_SIZE]);
const struct ktls_trust_anchor *
ktls_trust_anchor_find(const struct ktls_trust *trust,
		       const u8 fingerprint[SHA256_DIGEST_SIZE]);

/* verify.c: path validation */
enum ktls_verify_result ktls_verify_peer(const struct ktls_trust *trust,
					 const struct ktls_verify_cert *certs,
					 unsigned int nr_certs, time64_t now,
					 void *scratch,
					 struct ktls_peer_cert *peer,
					 const char **why);
/*
 * Add a subjectAltName of @type, @len bytes of printable text, to @peer;
 * false, with @peer->sans_truncated set, when it does not fit.
 */
bool ktls_peer_add_san(struct ktls_peer_cert *peer, u8 type, const u8 *text,
		       size_t len);

#endif /* _KTLS_HS_TRUST_H */
