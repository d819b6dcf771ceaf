// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "ktls_identity" key type: a server's certificate chain and private
 * key in the kernel keyring, loaded with stock keyutils
 * ("keyctl padd ktls_identity '' @u < bundle.pem").  The payload is a
 * refcounted, immutable struct ktls_identity; update and revoke swap or
 * drop the key's pointer, so handshakes holding the old identity finish
 * with it.  keyctl read returns the chain; the private key never leaves
 * the kernel, and is wiped when the last holder lets go.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/err.h>
#include <linux/key-type.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "bundle.h"

static struct key_type ktls_identity_key_type;

static void ktls_identity_free(struct ktls_identity *id)
{
	/* Nobody can reach these any more: only the count is read under RCU. */
	memzero_explicit(id->private_key, sizeof(id->private_key));
	kfree(id->subject);
	kfree(id->names);
	kfree(id->certs);
	kfree(id->chain);
	/* ktls_identity_get() may still be looking at the count. */
	kfree_rcu(id, rcu);
}

/**
 * ktls_identity_put() - drop a reference taken by ktls_identity_get()
 * @id:	the identity, or NULL
 */
void ktls_identity_put(struct ktls_identity *id)
{
	if (id && refcount_dec_and_test(&id->ref))
		ktls_identity_free(id);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_identity_put);

/*
 * Under rcu_read_lock(): a reference to the identity the key holds, or
 * NULL.  A count already at zero means an update or a revoke dropped the
 * identity after publishing its successor, or NULL: read again.
 */
static struct ktls_identity *ktls_identity_grab(const struct key *key)
{
	struct ktls_identity *id;

	do {
		id = dereference_key_rcu(key);
	} while (id && !refcount_inc_not_zero(&id->ref));
	return id;
}

/**
 * ktls_identity_get() - the identity a key holds now
 * @key:	a key of type "ktls_identity"; the caller holds a reference
 *
 * Callable from any context.  The identity stays valid until
 * ktls_identity_put(), whatever happens to the key meanwhile.
 *
 * Return: the identity, or ERR_PTR() of -EINVAL if @key is of another
 * type, -ENOKEY if it is not instantiated or was invalidated,
 * -EKEYREVOKED or -EKEYEXPIRED.
 */
struct ktls_identity *ktls_identity_get(struct key *key)
{
	struct ktls_identity *id = NULL;
	int err;

	if (key->type != &ktls_identity_key_type)
		return ERR_PTR(-EINVAL);
	if (!key_is_positive(key))
		return ERR_PTR(-ENOKEY);

	rcu_read_lock();
	err = key_validate(key);
	if (!err) {
		id = ktls_identity_grab(key);
		if (!id)
			err = -EKEYREVOKED;
	}
	rcu_read_unlock();
	return err ? ERR_PTR(err) : id;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_identity_get);

/*
 * Any user may add keys to their own keyrings, so the reasons for
 * refusing a bundle are rate limited like other user-triggered messages.
 */
static DEFINE_RATELIMIT_STATE(ktls_identity_rs, 5 * HZ, 32);

/* A key added with an empty description is named after the leaf. */
static char *ktls_identity_description(const struct ktls_identity *id)
{
	unsigned int i;

	for (i = 0; i < id->nr_names; i++) {
		if (id->names[i].type == KTLS_IDENTITY_NAME_DNS)
			return kmemdup_nul(id->names[i].name, id->names[i].len,
					   GFP_KERNEL);
	}
	return kstrdup(*id->subject ? id->subject : "ktls_identity",
		       GFP_KERNEL);
}

static int ktls_identity_preparse(struct key_preparsed_payload *prep)
{
	struct ktls_identity *id;
	const char *why;

	id = ktls_bundle_parse(prep->data, prep->datalen, &why);
	if (IS_ERR(id)) {
		if (why && __ratelimit(&ktls_identity_rs))
			pr_notice("identity rejected: %s (%ld)\n", why,
				  PTR_ERR(id));
		return PTR_ERR(id);
	}
	if (!prep->orig_description) {
		prep->description = ktls_identity_description(id);
		if (!prep->description) {
			ktls_identity_put(id);
			return -ENOMEM;
		}
	}
	prep->payload.data[0] = id;
	prep->quotalen = id->chain_len;
	return 0;
}

static void ktls_identity_free_preparse(struct key_preparsed_payload *prep)
{
	kfree(prep->description);
	ktls_identity_put(prep->payload.data[0]);
}

static int ktls_identity_update(struct key *key,
				struct key_preparsed_payload *prep)
{
	struct ktls_identity *old = dereference_key_locked(key);
	int err;

	lockdep_assert_held_write(&key->sem);
	err = key_payload_reserve(key, prep->quotalen);
	if (err)
		return err;
	rcu_assign_keypointer(key, prep->payload.data[0]);
	prep->payload.data[0] = NULL;
	ktls_identity_put(old);
	return 0;
}

static void ktls_identity_revoke(struct key *key)
{
	struct ktls_identity *id = dereference_key_locked(key);

	lockdep_assert_held_write(&key->sem);
	key_payload_reserve(key, 0);
	rcu_assign_keypointer(key, NULL);
	ktls_identity_put(id);
}

/* The key is unreachable: no reader is left. */
static void ktls_identity_destroy(struct key *key)
{
	ktls_identity_put(key->payload.data[0]);
}

/*
 * The /proc/keys line.  Only rcu_read_lock() is held, so an update may
 * drop the identity meanwhile: print from a reference of our own.
 */
static void ktls_identity_describe(const struct key *key, struct seq_file *m)
{
	struct ktls_identity *id;
	unsigned int i;

	seq_puts(m, key->description);
	if (!key_is_positive(key))
		return;
	id = ktls_identity_grab(key);
	if (!id)
		return;

	seq_printf(m, ": subject \"%s\" san", id->subject);
	for (i = 0; i < id->nr_names; i++) {
		const struct ktls_identity_name *n = &id->names[i];

		seq_putc(m, i ? ',' : ' ');
		if (n->type == KTLS_IDENTITY_NAME_DNS)
			seq_printf(m, "DNS:%.*s", n->len,
				   (const char *)n->name);
		else if (n->len == 4)
			seq_printf(m, "IP:%pI4", n->name);
		else
			seq_printf(m, "IP:%pI6c", n->name);
	}
	if (!id->nr_names)
		seq_puts(m, " none");
	seq_printf(m, " chain %u", id->nr_certs);
	ktls_identity_put(id);
}

/* The chain, DER certificates back to back, leaf first; never the key. */
static long ktls_identity_read(const struct key *key, char *buffer,
			       size_t buflen)
{
	const struct ktls_identity *id = dereference_key_locked(key);

	lockdep_assert_held(&key->sem);
	if (!id)
		return -EKEYREVOKED;
	if (buffer && buflen >= id->chain_len)
		memcpy(buffer, id->chain, id->chain_len);
	return id->chain_len;
}

static struct key_type ktls_identity_key_type = {
	.name		= "ktls_identity",
	.preparse	= ktls_identity_preparse,
	.free_preparse	= ktls_identity_free_preparse,
	.instantiate	= generic_key_instantiate,
	.update		= ktls_identity_update,
	.revoke		= ktls_identity_revoke,
	.destroy	= ktls_identity_destroy,
	.describe	= ktls_identity_describe,
	.read		= ktls_identity_read,
};

int ktls_identity_init(void)
{
	return register_key_type(&ktls_identity_key_type);
}

/*
 * Keys of the type are destroyed before this returns; identities that
 * handshakes still hold are freed with kfree_rcu(), which needs no code
 * of ours.
 */
void ktls_identity_exit(void)
{
	unregister_key_type(&ktls_identity_key_type);
}
