// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "ktls_tickets" key type: session ticket secrets an operator
 * supplies, so that every machine of a fleet seals and opens the same
 * tickets and a client resumes on whichever one it reaches.
 *
 *	keyctl padd ktls_tickets fleet @u < payload
 *
 * The payload (ticket_payload.c) names the current secret and, if it
 * likes, the previous one, each with an id.  A key type of ours rather
 * than "logon": the payload is checked when it is added, so a bad one
 * is an errno at keyctl rather than tickets that silently never work;
 * it is parsed and its keys derived once, not per handshake; an update
 * can move the current key to previous, which "logon" (a replace) could
 * not; /proc/keys can show ids and ages.  Like "logon", it has no read:
 * the secrets never leave the kernel.
 *
 * The key holds an immutable struct ktls_hs_ticket_ring.  Handshakes
 * (softirq) copy the generation they need under rcu_read_lock(); update
 * and revoke publish a successor (or nothing) and free the old one,
 * wiped, after a grace period, so a handshake racing an update seals or
 * opens with the keys before it or after it, never a mix.  A revoked,
 * invalidated or expired key seals and opens nothing: its sessions get
 * full handshakes and no tickets.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <crypto/utils.h>
#include <linux/err.h>
#include <linux/key-type.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "ticket.h"
#include "ticket_priv.h"

static struct key_type ktls_hs_ticket_key_type;

static void ktls_hs_ticket_ring_free_rcu(struct rcu_head *head)
{
	kfree_sensitive(container_of(head, struct ktls_hs_ticket_ring, rcu));
}

/* Readers may be copying from it: wiped and freed after them. */
static void ktls_hs_ticket_ring_free(struct ktls_hs_ticket_ring *r)
{
	if (r)
		call_rcu(&r->rcu, ktls_hs_ticket_ring_free_rcu);
}

static bool ktls_hs_ticket_key_same(const struct ktls_hs_ticket_key *a,
				    const struct ktls_hs_ticket_key *b)
{
	return a->live && b->live && a->id == b->id &&
	       !crypto_memneq(a->secret, b->secret, sizeof(a->secret));
}

/* A generation the key held already keeps its age. */
static void ktls_hs_ticket_keep_age(struct ktls_hs_ticket_key *k,
				    const struct ktls_hs_ticket_ring *old)
{
	if (ktls_hs_ticket_key_same(k, &old->cur))
		k->born_ms = old->cur.born_ms;
	else if (ktls_hs_ticket_key_same(k, &old->prev))
		k->born_ms = old->prev.born_ms;
}

/**
 * ktls_hs_ticket_ring_merge() - the keys of an update
 * @new:	the update's payload, derived; changed to what the key holds next
 * @old:	what the key holds now
 *
 * A payload with a previous key says all: it replaces both.  One
 * without is a rotation: the key's current generation becomes previous,
 * unless the payload repeats it, id and secret, which changes nothing
 * (configuration management pushes the same secret again and again).
 *
 * Return: 0, or -EEXIST when a rotation's id is the current one's with
 * another secret: one id names one secret, or a ticket would not say
 * which it was sealed with.
 */
int ktls_hs_ticket_ring_merge(struct ktls_hs_ticket_ring *new,
			      const struct ktls_hs_ticket_ring *old)
{
	if (new->prev.live) {
		ktls_hs_ticket_keep_age(&new->cur, old);
		ktls_hs_ticket_keep_age(&new->prev, old);
		return 0;
	}
	if (old->cur.live && new->cur.id == old->cur.id) {
		if (!ktls_hs_ticket_key_same(&new->cur, &old->cur))
			return -EEXIST;
		*new = *old;
		return 0;
	}
	new->prev = old->cur;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_ring_merge);

/* Any user may add keys to their keyrings: the log is rate limited. */
static DEFINE_RATELIMIT_STATE(ktls_hs_ticket_rs, 5 * HZ, 32);

static int ktls_hs_ticket_preparse(struct key_preparsed_payload *prep)
{
	struct ktls_hs_ticket_payload *tp;
	struct ktls_hs_ticket_ring *r;
	u64 now = ktls_hs_ticket_real_ms();
	unsigned int line;
	const char *why;
	int err = -ENOMEM;

	tp = kmalloc(sizeof(*tp), GFP_KERNEL);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!tp || !r)
		goto out;
	err = ktls_hs_ticket_payload_parse(prep->data, prep->datalen, tp,
					   &why, &line);
	if (err) {
		if (__ratelimit(&ktls_hs_ticket_rs))
			pr_notice("ticket keys rejected: line %u: %s\n", line,
				  why);
		goto out;
	}
	err = ktls_hs_ticket_key_derive(&r->cur, tp->cur.id, tp->cur.secret,
					tp->cur.len, now);
	if (!err && tp->has_prev)
		err = ktls_hs_ticket_key_derive(&r->prev, tp->prev.id,
						tp->prev.secret, tp->prev.len,
						now);
	if (err)
		goto out;
	prep->payload.data[0] = r;
	prep->quotalen = sizeof(*r);
	r = NULL;
out:
	kfree_sensitive(tp);
	kfree_sensitive(r);
	return err;
}

static void ktls_hs_ticket_free_preparse(struct key_preparsed_payload *prep)
{
	/* Never published: nobody reads it. */
	kfree_sensitive(prep->payload.data[0]);
}

static int ktls_hs_ticket_update(struct key *key,
				 struct key_preparsed_payload *prep)
{
	struct ktls_hs_ticket_ring *old = dereference_key_locked(key);
	struct ktls_hs_ticket_ring *new = prep->payload.data[0];
	int err;

	lockdep_assert_held_write(&key->sem);
	if (old) {
		err = ktls_hs_ticket_ring_merge(new, old);
		if (err)
			return err;
	}
	err = key_payload_reserve(key, prep->quotalen);
	if (err)
		return err;
	rcu_assign_keypointer(key, new);
	prep->payload.data[0] = NULL;
	ktls_hs_ticket_ring_free(old);
	return 0;
}

static void ktls_hs_ticket_revoke(struct key *key)
{
	struct ktls_hs_ticket_ring *r = dereference_key_locked(key);

	lockdep_assert_held_write(&key->sem);
	key_payload_reserve(key, 0);
	rcu_assign_keypointer(key, NULL);
	ktls_hs_ticket_ring_free(r);
}

/* The key is unreachable, but a handshake may still be copying. */
static void ktls_hs_ticket_destroy(struct key *key)
{
	ktls_hs_ticket_ring_free(key->payload.data[0]);
}

static void ktls_hs_ticket_describe_key(struct seq_file *m, const char *what,
					const struct ktls_hs_ticket_key *k,
					u64 now)
{
	u64 age = now > k->born_ms ? now - k->born_ms : 0;

	seq_printf(m, " %s %u age %llu", what, k->id, age / MSEC_PER_SEC);
}

/*
 * The /proc/keys line: ids and ages (seconds since this kernel took
 * each), which `ktls tickets show` prints.  Never the secrets.
 */
static void ktls_hs_ticket_describe(const struct key *key, struct seq_file *m)
{
	const struct ktls_hs_ticket_ring *r;
	u64 now = ktls_hs_ticket_real_ms();

	seq_puts(m, key->description);
	if (!key_is_positive(key))
		return;
	r = dereference_key_rcu(key);
	if (!r)
		return;
	seq_putc(m, ':');
	ktls_hs_ticket_describe_key(m, "current", &r->cur, now);
	if (r->prev.live)
		ktls_hs_ticket_describe_key(m, "previous", &r->prev, now);
}

static struct key_type ktls_hs_ticket_key_type = {
	.name		= "ktls_tickets",
	.preparse	= ktls_hs_ticket_preparse,
	.free_preparse	= ktls_hs_ticket_free_preparse,
	.instantiate	= generic_key_instantiate,
	.update		= ktls_hs_ticket_update,
	.revoke		= ktls_hs_ticket_revoke,
	.destroy	= ktls_hs_ticket_destroy,
	.describe	= ktls_hs_ticket_describe,
};

/**
 * ktls_hs_ticket_keyring_lookup() - a "ktls_tickets" key, by serial
 * @serial:	from the caller, who must be allowed to search the key
 *
 * Process context.
 * Return: the key, referenced, or an ERR_PTR: -EINVAL (not a serial, or
 * a key of another type), and what lookup_user_key() refuses with:
 * -ENOKEY (no such key), -EACCES, -EKEYREVOKED, -EKEYEXPIRED.
 */
struct key *ktls_hs_ticket_keyring_lookup(s32 serial)
{
	key_ref_t ref;
	struct key *key;

	if (serial <= 0)
		return ERR_PTR(-EINVAL);
	ref = lookup_user_key(serial, 0, KEY_NEED_SEARCH);
	if (IS_ERR(ref))
		return ERR_CAST(ref);
	key = key_ref_to_ptr(ref);
	if (key->type != &ktls_hs_ticket_key_type) {
		key_put(key);
		return ERR_PTR(-EINVAL);
	}
	return key;
}

/*
 * Under rcu_read_lock(): what @key holds, if it still counts: a key
 * revoked, invalidated (keyctl invalidate, ktls tickets del) or past
 * its expiry seals and opens nothing.
 */
static const struct ktls_hs_ticket_ring *ktls_hs_ticket_ring_rcu(struct key *key)
{
	if (!key_is_positive(key) || key_validate(key))
		return NULL;
	return dereference_key_rcu(key);
}

/* Any context, as handshakes seal and open. */
bool ktls_hs_ticket_keyring_current(struct key *key,
				    struct ktls_hs_ticket_key *out)
{
	const struct ktls_hs_ticket_ring *r;
	bool found = false;

	rcu_read_lock();
	r = ktls_hs_ticket_ring_rcu(key);
	if (r) {
		*out = r->cur;
		found = true;
	}
	rcu_read_unlock();
	return found;
}

bool ktls_hs_ticket_keyring_find(struct key *key, u32 id,
				 struct ktls_hs_ticket_key *out)
{
	const struct ktls_hs_ticket_ring *r;
	bool found = false;

	rcu_read_lock();
	r = ktls_hs_ticket_ring_rcu(key);
	if (r && r->cur.id == id) {
		*out = r->cur;
		found = true;
	} else if (r && r->prev.live && r->prev.id == id) {
		*out = r->prev;
		found = true;
	}
	rcu_read_unlock();
	return found;
}

int ktls_hs_ticket_keyring_init(void)
{
	return register_key_type(&ktls_hs_ticket_key_type);
}

/*
 * Keys of the type are destroyed before this returns; their payloads
 * are freed by call_rcu(), which the module's exit waits for.
 */
void ktls_hs_ticket_keyring_exit(void)
{
	unregister_key_type(&ktls_hs_ticket_key_type);
}
