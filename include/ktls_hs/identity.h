/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Server identities: what the handshake takes from a key of type
 * "ktls_identity" (see Documentation/identities.rst).  An identity is
 * immutable once published and refcounted, so a handshake that took one
 * keeps using it while the key is updated or revoked underneath; only
 * handshakes that start later see the change.
 */
#ifndef _KTLS_HS_IDENTITY_H
#define _KTLS_HS_IDENTITY_H

#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include <ktls_hs/p256.h>

struct key;

/* Bundles larger than this are refused with -EMSGSIZE. */
#define KTLS_IDENTITY_MAX_PAYLOAD	(64 * 1024)
/* Longest chain, leaf included; longer ones are refused with -E2BIG. */
#define KTLS_IDENTITY_MAX_CERTS		16

#define KTLS_IDENTITY_P256_PRIV_SIZE	KTLS_P256_SCALAR_LEN
#define KTLS_IDENTITY_P256_PUB_SIZE	KTLS_P256_POINT_LEN

/**
 * struct ktls_identity_cert - one certificate of the chain
 * @der:	its DER encoding, inside &ktls_identity.chain
 * @len:	length of @der
 */
struct ktls_identity_cert {
	const u8 *der;
	u32 len;
};

enum ktls_identity_name_type {
	KTLS_IDENTITY_NAME_DNS,
	KTLS_IDENTITY_NAME_IP,
};

/**
 * struct ktls_identity_name - one subjectAltName entry of the leaf
 * @type:	KTLS_IDENTITY_NAME_DNS (printable ASCII, not NUL terminated)
 *		or KTLS_IDENTITY_NAME_IP (4 or 16 bytes, network order)
 * @len:	length of @name
 * @name:	the value, inside &ktls_identity.chain
 */
struct ktls_identity_name {
	enum ktls_identity_name_type type;
	u16 len;
	const u8 *name;
};

/**
 * struct ktls_identity - a certificate chain and the leaf's private key
 * @ref:	holders: the key while the identity is its payload, and each
 *		handshake that took it with ktls_identity_get()
 * @nr_certs:	number of certificates, at least one
 * @certs:	the chain in the order the Certificate message sends it,
 *		leaf first
 * @chain:	the certificates' DER encodings back to back, what keyctl
 *		read returns
 * @chain_len:	length of @chain
 * @nr_names:	number of @names
 * @names:	the leaf's dNSName and iPAddress subjectAltNames, in
 *		certificate order
 * @subject:	the leaf's subject, one printable line ("CN=a, O=b")
 * @public_key:	the leaf's P-256 public key, uncompressed
 * @private_key: its private scalar, big-endian; never leaves the kernel
 *		and is wiped when the last reference goes
 * @rcu:	readers find the identity from the key under RCU
 *
 * Every field is immutable once the identity is published.
 */
struct ktls_identity {
	refcount_t ref;
	unsigned int nr_certs;
	struct ktls_identity_cert *certs;
	u8 *chain;
	size_t chain_len;
	unsigned int nr_names;
	struct ktls_identity_name *names;
	char *subject;
	u8 public_key[KTLS_IDENTITY_P256_PUB_SIZE];
	u8 private_key[KTLS_IDENTITY_P256_PRIV_SIZE];
	struct rcu_head rcu;
};

struct ktls_identity *ktls_identity_get(struct key *key);
void ktls_identity_put(struct ktls_identity *id);
bool ktls_identity_matches_name(const struct ktls_identity *id,
				const char *name, size_t len);

/* The "ktls_identity" key type, registered at module load. */
int ktls_identity_init(void);
void ktls_identity_exit(void);

#endif /* _KTLS_HS_IDENTITY_H */
