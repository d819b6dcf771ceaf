// SPDX-License-Identifier: GPL-2.0-only
/*
 * Settings of the in-kernel handshake, as setsockopt(SOL_TLS) gives them
 * to an armed listener or to a socket about to run a per-socket
 * handshake: identity keys, suites, groups, ALPN, timeout, versions,
 * whether TLS 1.2 requires the extended master secret, session
 * tickets, the hand-over to userspace, the policy for unknown server
 * names and client certificates.  A
 * settings object is immutable once published; every change publishes a
 * new one, so children cloned in softirq take a consistent snapshot
 * under RCU without the listener's lock.
 */
#include <linux/key.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sockptr.h>
#include <linux/uaccess.h>
#include <net/sock.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/trust.h>

#include "hs.h"
#include "pool.h"
#include "ticket.h"

#define KTLS_HS_SUITES_ALL	(KTLS_HS_SUITE_AES_128_GCM_SHA256 | \
				 KTLS_HS_SUITE_AES_256_GCM_SHA384 | \
				 KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256 | \
				 KTLS_HS_SUITE_AES_128_CCM_SHA256 | \
				 KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 | \
				 KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 | \
				 KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256)
/*
 * AES-CCM is off unless asked for, as in OpenSSL's and BoringSSL's
 * defaults: the suite is for constrained clients that ask for it alone,
 * while a client listing it first among others would otherwise get a
 * MAC that costs a second AES pass per block on every record.
 */
#define KTLS_HS_SUITES_DEFAULT	(KTLS_HS_SUITES_ALL & \
				 ~KTLS_HS_SUITE_AES_128_CCM_SHA256)
#define KTLS_HS_VERSIONS_ALL	(KTLS_HS_VERSION_TLS12 | KTLS_HS_VERSION_TLS13)
#define KTLS_HS_GROUPS_ALL	(KTLS_HS_GROUP_X25519 | KTLS_HS_GROUP_SECP256R1 | \
				 KTLS_HS_GROUP_X25519MLKEM768 | \
				 KTLS_HS_GROUP_SECP256R1MLKEM768)
/*
 * Every group, the hybrids included: clients that send a hybrid share
 * (browsers, Go, OpenSSL 3.5 by default) get one, at the cost of an
 * ML-KEM encapsulation; the others are served as before, with no
 * HelloRetryRequest, since KTLS_HS_GROUP_HYBRID_RETRY is not set.
 */
#define KTLS_HS_GROUPS_DEFAULT	KTLS_HS_GROUPS_ALL
#define KTLS_HS_TIMEOUT_MAX	600000	/* ms: ten minutes */

static_assert(KTLS_HS_IDENTITIES_MAX <= KTLS_HS_MAX_IDENTITIES);
static_assert(KTLS_HS_ALPN_MAX <= KTLS_HS_ALPN_LIST_MAX);

static void ktls_hs_settings_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct ktls_hs_settings, rcu));
}

void ktls_hs_settings_put(struct ktls_hs_settings *s)
{
	unsigned int i;

	if (!s || !refcount_dec_and_test(&s->ref))
		return;
	for (i = 0; i < s->nr_keys; i++)
		key_put(s->keys[i]);
	key_put(s->trust_key);
	ktls_hs_ticket_keys_put(s->tickets);
	/* A clone may still be looking at the count under RCU. */
	call_rcu(&s->rcu, ktls_hs_settings_free_rcu);
}

/**
 * ktls_hs_settings_get() - a reference to the settings in @slot
 * @slot:	a listener's or socket's settings pointer
 *
 * Any context; the owner of @slot may be replacing it concurrently.
 * Return: the settings with a reference held, or NULL if there are none.
 */
struct ktls_hs_settings *ktls_hs_settings_get(struct ktls_hs_settings __rcu **slot)
{
	struct ktls_hs_settings *s;

	rcu_read_lock();
	s = rcu_dereference(*slot);
	if (s && !refcount_inc_not_zero(&s->ref))
		s = NULL;
	rcu_read_unlock();
	return s;
}

/* A private copy of the current settings (or the defaults) to change. */
static struct ktls_hs_settings *ktls_hs_settings_dup(const struct ktls_hs_settings *old)
{
	struct ktls_hs_settings *s;
	unsigned int i;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	if (old) {
		memcpy(s, old, sizeof(*s));
		for (i = 0; i < s->nr_keys; i++)
			key_get(s->keys[i]);
		if (s->tickets)
			ktls_hs_ticket_keys_hold(s->tickets);
		key_get(s->trust_key);
	} else {
		s->suites = KTLS_HS_SUITES_DEFAULT;
		s->groups = KTLS_HS_GROUPS_DEFAULT;
		s->timeout_ms = KTLS_HS_TIMEOUT_DEFAULT;
		s->versions = KTLS_HS_VERSIONS_ALL;
	}
	refcount_set(&s->ref, 1);
	return s;
}

/*
 * The engine's memory grows with the longest chain it may send, and must
 * fit a block of the pool: refused here rather than at every handshake.
 */
static bool ktls_hs_identity_fits(struct ktls_identity *id)
{
	struct ktls_hs_config cfg = {
		.identities = { id },
		.nr_identities = 1,
	};

	return ktls_hs_pool_block_size(ktls_hs_size(&cfg));
}

/* Key @serial, which the caller may search for, referenced. */
static struct key *ktls_hs_user_key(key_serial_t serial)
{
	key_ref_t ref;

	if (serial <= 0)
		return ERR_PTR(-EINVAL);
	ref = lookup_user_key(serial, 0, KEY_NEED_SEARCH);
	if (IS_ERR(ref))
		return ERR_CAST(ref);
	return key_ref_to_ptr(ref);
}

/* A "ktls_identity" key the caller may search for, referenced. */
static struct key *ktls_hs_identity_key(key_serial_t serial)
{
	struct ktls_identity *id;
	struct key *key;
	bool fits;

	key = ktls_hs_user_key(serial);
	if (IS_ERR(key))
		return key;
	/* Refuses other key types, negative and revoked keys. */
	id = ktls_identity_get(key);
	if (IS_ERR(id)) {
		key_put(key);
		return ERR_CAST(id);
	}
	fits = ktls_hs_identity_fits(id);
	ktls_identity_put(id);
	if (!fits) {
		key_put(key);
		return ERR_PTR(-EMSGSIZE);
	}
	return key;
}

/* A protocol_name_list: names of 1..255 bytes, filling @len exactly. */
static bool ktls_hs_alpn_valid(const u8 *list, unsigned int len)
{
	unsigned int off = 0;

	while (off < len) {
		if (!list[off] || list[off] > len - off - 1)
			return false;
		off += 1 + list[off];
	}
	return true;
}

static int ktls_hs_get_u32(sockptr_t optval, unsigned int optlen, u32 *val)
{
	if (sockptr_is_null(optval) || optlen != sizeof(*val))
		return -EINVAL;
	return copy_from_sockptr(val, optval, sizeof(*val)) ? -EFAULT : 0;
}

static_assert(KTLS_HS_TICKET_LIFETIME_MAX == 7 * 24 * 3600);

/*
 * KTLS_HS_TICKETS: the key group is looked up (or made), or the
 * operator's key looked up with the caller's rights, here, in process
 * context, so that handshakes only take a reference.
 *
 * The operator's key is named in the fields the struct has: a flag
 * says key_group holds its serial.  The struct keeps its size, so old
 * binaries and new ones pass the same optlen, and a kernel before the
 * flag refuses it with EINVAL instead of sealing with keys of its own.
 */
static int ktls_hs_settings_tickets(struct ktls_hs_settings *s,
				    struct sock *sk, sockptr_t optval,
				    unsigned int optlen)
{
	struct ktls_hs_ticket_keys *keys = NULL;
	struct ktls_hs_tickets t;
	bool keyring;

	if (sockptr_is_null(optval) || optlen != sizeof(t))
		return -EINVAL;
	if (copy_from_sockptr(&t, optval, sizeof(t)))
		return -EFAULT;
	keyring = t.flags & KTLS_HS_TICKETS_KEYRING;
	if ((t.flags & ~KTLS_HS_TICKETS_KEYRING) ||
	    t.lifetime_s > KTLS_HS_TICKET_LIFETIME_MAX ||
	    t.rotate_s > KTLS_HS_TICKET_LIFETIME_MAX ||
	    (!t.lifetime_s && (t.key_group || t.rotate_s || keyring)) ||
	    (keyring && t.rotate_s))
		return -EINVAL;
	if (keyring)
		keys = ktls_hs_ticket_keys_keyring((s32)t.key_group);
	else if (t.lifetime_s)
		keys = ktls_hs_ticket_keys_get(sock_net(sk), current_euid(),
					       t.key_group,
					       t.rotate_s ?: t.lifetime_s);
	if (IS_ERR(keys))
		return PTR_ERR(keys);
	ktls_hs_ticket_keys_put(s->tickets);
	s->tickets = keys;
	s->ticket_lifetime_s = t.lifetime_s;
	s->ticket_group = t.key_group;
	s->ticket_rotate_s = t.rotate_s;
	s->ticket_flags = t.flags;
	return 0;
}

/* A "ktls_trust" key the caller may search for, referenced. */
static struct key *ktls_hs_trust_key(key_serial_t serial)
{
	struct ktls_trust *trust;
	struct key *key;

	key = ktls_hs_user_key(serial);
	if (IS_ERR(key))
		return key;
	/* Refuses other key types, negative and revoked keys. */
	trust = ktls_trust_get(key);
	if (IS_ERR(trust)) {
		key_put(key);
		return ERR_CAST(trust);
	}
	ktls_trust_put(trust);
	return key;
}

/*
 * KTLS_HS_CLIENT_AUTH: the trust store is looked up with the caller's
 * rights here; each handshake takes what the key holds when it starts,
 * so an updated store applies to the handshakes after the update.
 */
static int ktls_hs_settings_client_auth(struct ktls_hs_settings *s,
					sockptr_t optval, unsigned int optlen)
{
	struct ktls_hs_client_auth a;
	struct key *key = NULL;

	if (sockptr_is_null(optval) || optlen != sizeof(a))
		return -EINVAL;
	if (copy_from_sockptr(&a, optval, sizeof(a)))
		return -EFAULT;
	if (a.mode > KTLS_HS_CLIENT_AUTH_REQUIRED || a.reserved ||
	    (a.flags & ~KTLS_HS_CLIENT_AUTH_F_CA_NAMES) ||
	    (a.mode == KTLS_HS_CLIENT_AUTH_NONE && (a.trust || a.flags)))
		return -EINVAL;
	if (a.mode != KTLS_HS_CLIENT_AUTH_NONE) {
		key = ktls_hs_trust_key(a.trust);
		if (IS_ERR(key))
			return PTR_ERR(key);
	}
	key_put(s->trust_key);
	s->trust_key = key;
	s->client_auth = a.mode;
	s->client_auth_flags = a.flags;
	return 0;
}

/* Apply one option to @s, a private copy. */
static int ktls_hs_settings_apply(struct ktls_hs_settings *s, struct sock *sk,
				  int optname, sockptr_t optval,
				  unsigned int optlen)
{
	struct key *key;
	int flag;
	u32 val;
	int err;

	switch (optname) {
	case KTLS_HS_IDENTITY:
		err = ktls_hs_get_u32(optval, optlen, &val);
		if (err)
			return err;
		if (s->nr_keys == KTLS_HS_IDENTITIES_MAX)
			return -ENOSPC;
		key = ktls_hs_identity_key((key_serial_t)val);
		if (IS_ERR(key))
			return PTR_ERR(key);
		s->keys[s->nr_keys++] = key;
		return 0;
	case KTLS_HS_SUITES:
		err = ktls_hs_get_u32(optval, optlen, &val);
		if (!err && (!val || (val & ~KTLS_HS_SUITES_ALL)))
			err = -EINVAL;
		if (!err)
			s->suites = val;
		return err;
	case KTLS_HS_GROUPS:
		err = ktls_hs_get_u32(optval, optlen, &val);
		/* At least one group; the one flag is not a group. */
		if (!err && (!(val & KTLS_HS_GROUPS_ALL) ||
			     (val & ~(KTLS_HS_GROUPS_ALL |
				      KTLS_HS_GROUP_HYBRID_RETRY))))
			err = -EINVAL;
		if (!err)
			s->groups = val;
		return err;
	case KTLS_HS_TIMEOUT:
		err = ktls_hs_get_u32(optval, optlen, &val);
		if (!err && (!val || val > KTLS_HS_TIMEOUT_MAX))
			err = -EINVAL;
		if (!err)
			s->timeout_ms = val;
		return err;
	case KTLS_HS_VERSIONS:
		err = ktls_hs_get_u32(optval, optlen, &val);
		if (!err && (!val || (val & ~KTLS_HS_VERSIONS_ALL)))
			err = -EINVAL;
		if (!err)
			s->versions = val;
		return err;
	case KTLS_HS_EMS_OPTIONAL:
		if (sockptr_is_null(optval) || optlen != sizeof(flag))
			return -EINVAL;
		if (copy_from_sockptr(&flag, optval, sizeof(flag)))
			return -EFAULT;
		if (flag != 0 && flag != 1)
			return -EINVAL;
		s->ems_optional = flag;
		return 0;
	case KTLS_HS_FALLBACK:
		/* An int, as boolean socket options are. */
		err = ktls_hs_get_u32(optval, optlen, &val);
		if (!err && val > 1)
			err = -EINVAL;
		if (!err)
			s->fallback = val;
		return err;
	case KTLS_HS_SNI_POLICY:
		err = ktls_hs_get_u32(optval, optlen, &val);
		if (!err && val > KTLS_HS_SNI_FALLBACK)
			err = -EINVAL;
		if (!err)
			s->sni_policy = val;
		return err;
	case KTLS_HS_ALPN:
		/* An empty list turns ALPN off again. */
		if (optlen > KTLS_HS_ALPN_MAX ||
		    (optlen && sockptr_is_null(optval)))
			return -EINVAL;
		if (copy_from_sockptr(s->alpn, optval, optlen))
			return -EFAULT;
		if (!ktls_hs_alpn_valid(s->alpn, optlen))
			return -EINVAL;
		s->alpn_len = optlen;
		return 0;
	case KTLS_HS_TICKETS:
		return ktls_hs_settings_tickets(s, sk, optval, optlen);
	case KTLS_HS_CLIENT_AUTH:
		return ktls_hs_settings_client_auth(s, optval, optlen);
	}
	return -ENOPROTOOPT;
}

bool ktls_hs_is_settings_option(int optname)
{
	switch (optname) {
	case KTLS_HS_IDENTITY:
	case KTLS_HS_SUITES:
	case KTLS_HS_GROUPS:
	case KTLS_HS_ALPN:
	case KTLS_HS_TIMEOUT:
	case KTLS_HS_VERSIONS:
	case KTLS_HS_EMS_OPTIONAL:
	case KTLS_HS_FALLBACK:
	case KTLS_HS_SNI_POLICY:
	case KTLS_HS_TICKETS:
	case KTLS_HS_CLIENT_AUTH:
		return true;
	}
	return false;
}

/**
 * ktls_hs_settings_set() - setsockopt of one settings option
 * @sk:		the socket, locked
 * @slot:	its settings
 * @optname:	one of ktls_hs_is_settings_option()
 * @optval:	value from the caller
 * @optlen:	its length
 *
 * Return: 0 or the errno for the caller.  Nothing changes on error.
 */
int ktls_hs_settings_set(struct sock *sk,
			 struct ktls_hs_settings __rcu **slot, int optname,
			 sockptr_t optval, unsigned int optlen)
{
	struct ktls_hs_settings *old, *s;
	int err;

	/* Only the socket's owner writes the slot. */
	sock_owned_by_me(sk);
	old = rcu_dereference_protected(*slot, lockdep_sock_is_held(sk));
	s = ktls_hs_settings_dup(old);
	if (!s)
		return -ENOMEM;
	err = ktls_hs_settings_apply(s, sk, optname, optval, optlen);
	if (err) {
		ktls_hs_settings_put(s);
		return err;
	}
	rcu_assign_pointer(*slot, s);
	ktls_hs_settings_put(old);
	return 0;
}

/**
 * ktls_hs_settings_rotate() - KTLS_HS_TICKET_ROTATE
 * @sk:		the socket, locked
 * @slot:	its settings
 *
 * Return: 0, -ENOENT when the socket issues no tickets, -EOPNOTSUPP
 * when its keys are the operator's, who rotates them in the keyring.
 */
int ktls_hs_settings_rotate(struct sock *sk,
			    struct ktls_hs_settings __rcu **slot)
{
	struct ktls_hs_settings *s;

	s = rcu_dereference_protected(*slot, lockdep_sock_is_held(sk));

	if (!s || !s->tickets)
		return -ENOENT;
	if (ktls_hs_ticket_keys_serial(s->tickets))
		return -EOPNOTSUPP;
	ktls_hs_ticket_keys_rotate(s->tickets, ktls_hs_ticket_now_ms());
	return 0;
}

static int ktls_hs_put_bytes(char __user *optval, int __user *optlen,
			     const void *data, unsigned int len)
{
	int ulen;

	if (get_user(ulen, optlen))
		return -EFAULT;
	if (ulen < 0 || (unsigned int)ulen < len)
		return -EINVAL;
	if (put_user(len, optlen) || copy_to_user(optval, data, len))
		return -EFAULT;
	return 0;
}

/**
 * ktls_hs_settings_get_opt() - getsockopt of one settings option
 * @s:		the settings, or NULL for the defaults
 * @optname:	one of ktls_hs_is_settings_option()
 * @optval:	user buffer
 * @optlen:	its length in, the length written out
 *
 * KTLS_HS_IDENTITY gives the serials of the identity keys, as __s32s.
 */
int ktls_hs_settings_get_opt(const struct ktls_hs_settings *s, int optname,
			     char __user *optval, int __user *optlen)
{
	s32 serials[KTLS_HS_IDENTITIES_MAX];
	unsigned int i, nr = s ? s->nr_keys : 0;
	int flag;
	struct ktls_hs_client_auth a = {};
	struct ktls_hs_tickets t = {};
	u32 val;

	switch (optname) {
	case KTLS_HS_IDENTITY:
		for (i = 0; i < nr; i++)
			serials[i] = s->keys[i]->serial;
		return ktls_hs_put_bytes(optval, optlen, serials,
					 nr * sizeof(serials[0]));
	case KTLS_HS_ALPN:
		return ktls_hs_put_bytes(optval, optlen, s ? s->alpn : NULL,
					 s ? s->alpn_len : 0);
	case KTLS_HS_SUITES:
		val = s ? s->suites : KTLS_HS_SUITES_DEFAULT;
		break;
	case KTLS_HS_GROUPS:
		val = s ? s->groups : KTLS_HS_GROUPS_DEFAULT;
		break;
	case KTLS_HS_TIMEOUT:
		val = s ? s->timeout_ms : KTLS_HS_TIMEOUT_DEFAULT;
		break;
	case KTLS_HS_VERSIONS:
		val = s ? s->versions : KTLS_HS_VERSIONS_ALL;
		break;
	case KTLS_HS_EMS_OPTIONAL:
		flag = s ? s->ems_optional : 0;
		return ktls_hs_put_bytes(optval, optlen, &flag, sizeof(flag));
	case KTLS_HS_FALLBACK:
		val = s ? s->fallback : 0;
		break;
	case KTLS_HS_SNI_POLICY:
		val = s ? s->sni_policy : KTLS_HS_SNI_DEFAULT;
		break;
	case KTLS_HS_TICKETS:
		if (s) {
			t.lifetime_s = s->ticket_lifetime_s;
			t.key_group = s->ticket_group;
			t.rotate_s = s->ticket_rotate_s;
			t.flags = s->ticket_flags;
		}
		return ktls_hs_put_bytes(optval, optlen, &t, sizeof(t));
	case KTLS_HS_CLIENT_AUTH:
		if (s && s->trust_key) {
			a.mode = s->client_auth;
			a.trust = s->trust_key->serial;
			a.flags = s->client_auth_flags;
		}
		return ktls_hs_put_bytes(optval, optlen, &a, sizeof(a));
	default:
		return -ENOPROTOOPT;
	}
	return ktls_hs_put_bytes(optval, optlen, &val, sizeof(val));
}
