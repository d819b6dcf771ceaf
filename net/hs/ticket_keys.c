// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ticket key groups: the secrets session tickets are sealed with, made
 * by the kernel, rotated by it, never shown to anyone; and the handle
 * through which a listener seals with the keys an operator supplies in
 * a "ktls_tickets" key (ticket_keyring.c) instead.
 *
 * A group holds the current key and the one before it.  Keys rotate
 * lazily, when a ticket is sealed or opened and the current key is older
 * than the rotation period; the previous key is taken for one period
 * after it was replaced, so every ticket stays good for at least one
 * period.  A key unused for two periods is dropped at the next use.
 *
 * Listeners asking for group 0 get keys of their own.  Others share one
 * group per (network namespace, user, group number), so that the
 * SO_REUSEPORT listeners of a server's workers resume each other's
 * sessions, while another user's listener, asking for the same number,
 * cannot take or mint tickets of theirs.  Groups are looked up in
 * process context (setsockopt) and put from any context.
 *
 * A generation of keys is one key per use (ticket_priv.h): random for
 * the kernel's keys, derived for the operator's (ktls_hs_ticket_key_derive()).
 */
#include <linux/kernel.h>
#include <linux/key.h>
#include <linux/list.h>
#include <linux/random.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>
#include <net/net_namespace.h>

#include <ktls_hs/kdf.h>

#include "ticket.h"
#include "ticket_priv.h"

static LIST_HEAD(ktls_hs_ticket_groups);
/* Guards the list; taken in softirq by the last put. */
static DEFINE_SPINLOCK(ktls_hs_ticket_groups_lock);

u64 ktls_hs_ticket_now_ms(void)
{
	return ktime_get_boottime_ns() / NSEC_PER_MSEC;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_now_ms);

u64 ktls_hs_ticket_real_ms(void)
{
	return ktime_get_real_ns() / NSEC_PER_MSEC;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_real_ms);

u64 ktls_hs_ticket_keys_now(const struct ktls_hs_ticket_keys *k)
{
	return k->keyring ? ktls_hs_ticket_real_ms() : ktls_hs_ticket_now_ms();
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_keys_now);

/* HKDF-Extract's salt, and the start of each use's HKDF-Expand info. */
static const char ktls_hs_ticket_kdf_salt[] = "ktls_hs ticket keys";
static const char *const ktls_hs_ticket_kdf_use[KTLS_HS_TICKET_USES] = {
	[KTLS_HS_TICKET_USE_TLS13] = "ktls_hs tls13 tickets",
	[KTLS_HS_TICKET_USE_TLS12] = "ktls_hs tls12 tickets",
};

/**
 * ktls_hs_ticket_key_derive() - the keys of an operator's secret
 * @key:	filled in
 * @id:		the operator's id of the secret
 * @secret:	the secret
 * @len:	its bytes
 * @born_ms:	when it became current
 *
 * PRK = HKDF-Extract(SHA-256, "ktls_hs ticket keys", secret), and the
 * key of each use HKDF-Expand(PRK, its label || id, 32).  The extract
 * turns a secret of any length the payload allows into one uniform key;
 * the id in the info makes one secret under two ids two keys, so that a
 * ticket names the generation it was sealed by, whatever the operator's
 * secret store did.  Process context.
 *
 * Return: 0 or the errno of the hash.
 */
int ktls_hs_ticket_key_derive(struct ktls_hs_ticket_key *key, u32 id,
			      const u8 *secret, size_t len, u64 born_ms)
{
	u8 prk[KTLS_HS_TICKET_SECRET_LEN];
	u8 info[32];
	size_t n;
	int i, err;

	memset(key, 0, sizeof(*key));
	err = ktls_hkdf_extract(KTLS_HASH_SHA256, ktls_hs_ticket_kdf_salt,
				sizeof(ktls_hs_ticket_kdf_salt) - 1, secret, len,
				prk, sizeof(prk));
	for (i = 0; !err && i < KTLS_HS_TICKET_USES; i++) {
		n = strlen(ktls_hs_ticket_kdf_use[i]);
		memcpy(info, ktls_hs_ticket_kdf_use[i], n);
		put_unaligned_be32(id, info + n);
		err = ktls_hkdf_expand(KTLS_HASH_SHA256, prk, sizeof(prk),
				       info, n + 4, key->secret[i],
				       KTLS_HS_TICKET_SECRET_LEN);
	}
	memzero_explicit(prk, sizeof(prk));
	if (err) {
		memzero_explicit(key, sizeof(*key));
		return err;
	}
	key->id = id;
	key->born_ms = born_ms;
	key->live = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_key_derive);

static void ktls_hs_ticket_key_new(struct ktls_hs_ticket_key *key,
				   u32 not_id, u64 now_ms)
{
	do {
		key->id = get_random_u32();
	} while (key->id == not_id);
	/* Random, so independent per use without a derivation. */
	get_random_bytes(key->secret, sizeof(key->secret));
	key->born_ms = now_ms;
	key->live = true;
}

/* The current key becomes the previous one. */
static void ktls_hs_ticket_keys_shift(struct ktls_hs_ticket_keys *k,
				      u64 now_ms)
{
	lockdep_assert_held(&k->lock);
	k->prev = k->cur;
	ktls_hs_ticket_key_new(&k->cur, k->prev.id, now_ms);
}

/* Rotate if due. */
static void ktls_hs_ticket_keys_refresh(struct ktls_hs_ticket_keys *k,
					u64 now_ms)
{
	u64 period = (u64)k->period_s * MSEC_PER_SEC;

	lockdep_assert_held(&k->lock);
	if (now_ms < k->cur.born_ms + period)
		return;
	ktls_hs_ticket_keys_shift(k, now_ms);
	/* Unused for two periods: what it sealed is past its time anyway. */
	if (now_ms >= k->prev.born_ms + 2 * period)
		memzero_explicit(&k->prev, sizeof(k->prev));
}

/* False only for an operator's key that was revoked or went. */
bool ktls_hs_ticket_keys_current(struct ktls_hs_ticket_keys *k, u64 now_ms,
				 struct ktls_hs_ticket_key *out)
{
	if (k->keyring)
		return ktls_hs_ticket_keyring_current(k->keyring, out);
	spin_lock_bh(&k->lock);
	ktls_hs_ticket_keys_refresh(k, now_ms);
	*out = k->cur;
	spin_unlock_bh(&k->lock);
	return true;
}

bool ktls_hs_ticket_keys_find(struct ktls_hs_ticket_keys *k, u64 now_ms,
			      u32 id, struct ktls_hs_ticket_key *out)
{
	bool found = false;

	if (k->keyring)
		return ktls_hs_ticket_keyring_find(k->keyring, id, out);
	spin_lock_bh(&k->lock);
	ktls_hs_ticket_keys_refresh(k, now_ms);
	if (k->cur.live && k->cur.id == id) {
		*out = k->cur;
		found = true;
	} else if (k->prev.live && k->prev.id == id) {
		*out = k->prev;
		found = true;
	}
	spin_unlock_bh(&k->lock);
	return found;
}

/**
 * ktls_hs_ticket_keys_rotate() - replace the current key now
 * @k:		the group
 * @now_ms:	ktls_hs_ticket_now_ms()
 *
 * Tickets of the current key stay good for one period; those of the
 * previous one are refused from now on.  Keys of the kernel's own only:
 * the operator rotates theirs in the keyring.
 */
void ktls_hs_ticket_keys_rotate(struct ktls_hs_ticket_keys *k, u64 now_ms)
{
	if (WARN_ON_ONCE(k->keyring))
		return;
	spin_lock_bh(&k->lock);
	memzero_explicit(&k->prev, sizeof(k->prev));
	ktls_hs_ticket_keys_shift(k, now_ms);
	spin_unlock_bh(&k->lock);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_keys_rotate);

u32 ktls_hs_ticket_keys_group(const struct ktls_hs_ticket_keys *k)
{
	return k->group;
}

u32 ktls_hs_ticket_keys_period(const struct ktls_hs_ticket_keys *k)
{
	return k->period_s;
}

s32 ktls_hs_ticket_keys_serial(const struct ktls_hs_ticket_keys *k)
{
	return k->keyring ? k->keyring->serial : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_keys_serial);

static struct ktls_hs_ticket_keys *ktls_hs_ticket_keys_alloc(struct net *net,
							     kuid_t uid,
							     u32 group,
							     u32 period_s)
{
	struct ktls_hs_ticket_keys *k;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return NULL;
	refcount_set(&k->ref, 1);
	spin_lock_init(&k->lock);
	INIT_LIST_HEAD(&k->node);
	k->net = net;
	k->uid = uid;
	k->group = group;
	k->period_s = period_s;
	ktls_hs_ticket_key_new(&k->cur, 0, ktls_hs_ticket_now_ms());
	return k;
}

/* A group of the list with a reference taken. */
static struct ktls_hs_ticket_keys *ktls_hs_ticket_group_find(struct net *net,
							     kuid_t uid,
							     u32 group)
{
	struct ktls_hs_ticket_keys *k;

	lockdep_assert_held(&ktls_hs_ticket_groups_lock);
	list_for_each_entry(k, &ktls_hs_ticket_groups, node)
		if (k->net == net && uid_eq(k->uid, uid) && k->group == group &&
		    refcount_inc_not_zero(&k->ref))
			return k;
	return NULL;
}

/**
 * ktls_hs_ticket_keys_get() - the key group a listener asks for
 * @net:	the listener's network namespace
 * @uid:	the user configuring it
 * @group:	0 for keys of its own, else the group to share
 * @rotate_s:	rotation period, 1..KTLS_HS_TICKET_LIFETIME_MAX seconds
 *
 * Process context.  The namespace is a key of the group, not held: every
 * holder is a socket of that namespace, which holds it.
 * Return: the group, referenced, or an ERR_PTR: -EBUSY when the group
 * exists with another rotation period, -ENOMEM.
 */
struct ktls_hs_ticket_keys *ktls_hs_ticket_keys_get(struct net *net,
						    kuid_t uid, u32 group,
						    u32 rotate_s)
{
	struct ktls_hs_ticket_keys *k, *found;

	if (!group) {
		k = ktls_hs_ticket_keys_alloc(net, uid, 0, rotate_s);
		return k ? k : ERR_PTR(-ENOMEM);
	}
	spin_lock_bh(&ktls_hs_ticket_groups_lock);
	found = ktls_hs_ticket_group_find(net, uid, group);
	spin_unlock_bh(&ktls_hs_ticket_groups_lock);
	if (!found) {
		k = ktls_hs_ticket_keys_alloc(net, uid, group, rotate_s);
		if (!k)
			return ERR_PTR(-ENOMEM);
		spin_lock_bh(&ktls_hs_ticket_groups_lock);
		/* Someone may have made it meanwhile. */
		found = ktls_hs_ticket_group_find(net, uid, group);
		if (!found)
			list_add(&k->node, &ktls_hs_ticket_groups);
		spin_unlock_bh(&ktls_hs_ticket_groups_lock);
		if (!found)
			return k;
		kfree_sensitive(k);
	}
	if (found->period_s != rotate_s) {
		ktls_hs_ticket_keys_put(found);
		return ERR_PTR(-EBUSY);
	}
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_keys_get);

struct ktls_hs_ticket_keys *ktls_hs_ticket_keys_keyring(s32 serial)
{
	struct ktls_hs_ticket_keys *k;
	struct key *key;

	key = ktls_hs_ticket_keyring_lookup(serial);
	if (IS_ERR(key))
		return ERR_CAST(key);
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k) {
		key_put(key);
		return ERR_PTR(-ENOMEM);
	}
	refcount_set(&k->ref, 1);
	spin_lock_init(&k->lock);
	INIT_LIST_HEAD(&k->node);
	k->keyring = key;
	return k;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_keys_keyring);

/* Another reference, for a copy of the settings that hold @k. */
void ktls_hs_ticket_keys_hold(struct ktls_hs_ticket_keys *k)
{
	refcount_inc(&k->ref);
}

/*
 * Any context; the keys are wiped as they go.  A group at zero stays on
 * the list until it is taken off here, but ktls_hs_ticket_group_find()
 * no longer takes it.
 */
void ktls_hs_ticket_keys_put(struct ktls_hs_ticket_keys *k)
{
	if (!k || !refcount_dec_and_test(&k->ref))
		return;
	if (k->keyring) {
		/* Any context: the keyring's garbage collector frees it. */
		key_put(k->keyring);
		kfree(k);
		return;
	}
	spin_lock_bh(&ktls_hs_ticket_groups_lock);
	list_del(&k->node);
	spin_unlock_bh(&ktls_hs_ticket_groups_lock);
	kfree_sensitive(k);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_keys_put);
