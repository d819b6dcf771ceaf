// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "ktls_trust" key type: the CA certificates client certificates are
 * verified against, and a denylist, loaded with stock keyutils
 * ("keyctl padd ktls_trust clients @u < cas.pem").  The payload is a
 * refcounted, immutable struct ktls_trust, published and replaced as
 * identity.c does it, so a handshake reads it under RCU from softirq and
 * keeps the store it took while the key is updated or revoked.
 *
 * Why a key type of ours and not the kernel's "asymmetric" keys in a
 * keyring: the asymmetric type checks one signature at a time and does
 * no RFC 5280 path validation (validity, basicConstraints, path length,
 * key and extended key usage, critical extensions), which we would have
 * to redo around it anyway; its signature API changed in 6.13 while we
 * build from 6.1 on; and a handshake in softirq wants each anchor's name,
 * key identifier, constraints and P-256 point parsed once, at load, not
 * a keyring search and a parse per client.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/key-type.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ktls_hs/trust.h>

static struct key_type ktls_trust_key_type;

/**
 * ktls_trust_put() - drop a reference taken by ktls_trust_get()
 * @trust:	the store, or NULL
 */
void ktls_trust_put(struct ktls_trust *trust)
{
	if (!trust || !refcount_dec_and_test(&trust->ref))
		return;
	kfree(trust->anchors);
	kfree(trust->ders);
	kfree(trust->deny);
	kfree(trust->pem);
	/* ktls_trust_get() may still be looking at the count. */
	kfree_rcu(trust, rcu);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_trust_put);

/* Under rcu_read_lock(), as ktls_identity_grab(). */
static struct ktls_trust *ktls_trust_grab(const struct key *key)
{
	struct ktls_trust *trust;

	do {
		trust = dereference_key_rcu(key);
	} while (trust && !refcount_inc_not_zero(&trust->ref));
	return trust;
}

/**
 * ktls_trust_get() - the trust store a key holds now
 * @key:	a key of type "ktls_trust"; the caller holds a reference
 *
 * Callable from any context.  The store stays valid until
 * ktls_trust_put(), whatever happens to the key meanwhile.
 *
 * Return: the store, or ERR_PTR() of -EINVAL if @key is of another type,
 * -ENOKEY if it is not instantiated, -EKEYREVOKED or -EKEYEXPIRED.
 */
struct ktls_trust *ktls_trust_get(struct key *key)
{
	struct ktls_trust *trust = NULL;
	int err;

	if (key->type != &ktls_trust_key_type)
		return ERR_PTR(-EINVAL);
	if (!key_is_positive(key))
		return ERR_PTR(-ENOKEY);

	rcu_read_lock();
	err = key_validate(key);
	if (!err) {
		trust = ktls_trust_grab(key);
		if (!trust)
			err = -EKEYREVOKED;
	}
	rcu_read_unlock();
	return err ? ERR_PTR(err) : trust;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_trust_get);

/* Any user may add keys: refusals are rate limited. */
static DEFINE_RATELIMIT_STATE(ktls_trust_rs, 5 * HZ, 32);

static int ktls_trust_preparse(struct key_preparsed_payload *prep)
{
	struct ktls_trust *trust;
	const char *why;

	/*
	 * Not a word on the description: update has none to give, and on
	 * add the key core refuses an empty one (EINVAL), as we set none.
	 */
	trust = ktls_trust_parse(prep->data, prep->datalen, &why);
	if (IS_ERR(trust)) {
		if (why && __ratelimit(&ktls_trust_rs))
			pr_notice("trust store rejected: %s (%ld)\n", why,
				  PTR_ERR(trust));
		return PTR_ERR(trust);
	}
	prep->payload.data[0] = trust;
	prep->quotalen = trust->pem_len;
	return 0;
}

static void ktls_trust_free_preparse(struct key_preparsed_payload *prep)
{
	ktls_trust_put(prep->payload.data[0]);
}

static int ktls_trust_update(struct key *key, struct key_preparsed_payload *prep)
{
	struct ktls_trust *old = dereference_key_locked(key);
	int err;

	lockdep_assert_held_write(&key->sem);
	err = key_payload_reserve(key, prep->quotalen);
	if (err)
		return err;
	rcu_assign_keypointer(key, prep->payload.data[0]);
	prep->payload.data[0] = NULL;
	ktls_trust_put(old);
	return 0;
}

static void ktls_trust_revoke(struct key *key)
{
	struct ktls_trust *trust = dereference_key_locked(key);

	lockdep_assert_held_write(&key->sem);
	key_payload_reserve(key, 0);
	rcu_assign_keypointer(key, NULL);
	ktls_trust_put(trust);
}

static void ktls_trust_destroy(struct key *key)
{
	ktls_trust_put(key->payload.data[0]);
}

/* The /proc/keys line, from a reference of our own (see identity.c). */
static void ktls_trust_describe(const struct key *key, struct seq_file *m)
{
	struct ktls_trust *trust;

	seq_puts(m, key->description);
	if (!key_is_positive(key))
		return;
	trust = ktls_trust_grab(key);
	if (!trust)
		return;
	seq_printf(m, ": %u CA%s, %u denied", trust->nr_anchors,
		   trust->nr_anchors == 1 ? "" : "s", trust->nr_deny);
	ktls_trust_put(trust);
}

/* The PEM as loaded: CAs and deny lines. */
static long ktls_trust_read(const struct key *key, char *buffer, size_t buflen)
{
	const struct ktls_trust *trust = dereference_key_locked(key);

	lockdep_assert_held(&key->sem);
	if (!trust)
		return -EKEYREVOKED;
	if (buffer && buflen >= trust->pem_len)
		memcpy(buffer, trust->pem, trust->pem_len);
	return trust->pem_len;
}

static struct key_type ktls_trust_key_type = {
	.name		= "ktls_trust",
	.preparse	= ktls_trust_preparse,
	.free_preparse	= ktls_trust_free_preparse,
	.instantiate	= generic_key_instantiate,
	.update		= ktls_trust_update,
	.revoke		= ktls_trust_revoke,
	.destroy	= ktls_trust_destroy,
	.describe	= ktls_trust_describe,
	.read		= ktls_trust_read,
};

int ktls_trust_init(void)
{
	return register_key_type(&ktls_trust_key_type);
}

void ktls_trust_exit(void)
{
	unregister_key_type(&ktls_trust_key_type);
}
