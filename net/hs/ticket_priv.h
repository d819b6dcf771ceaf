/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The inside of ticket keys, shared by ticket_keys.c, which keeps and
 * rotates the kernel's own, ticket_keyring.c, which holds those an
 * operator supplies, and ticket.c, which seals with either.
 */
#ifndef _KTLS_HS_TICKET_PRIV_H
#define _KTLS_HS_TICKET_PRIV_H

#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "ticket.h"

struct key;

/*
 * What a ticket key seals: tickets of one TLS version each, so that a
 * ticket of one version can never be opened as one of the other, even
 * where the plaintext layouts agree.
 */
enum ktls_hs_ticket_use {
	KTLS_HS_TICKET_USE_TLS13,
	KTLS_HS_TICKET_USE_TLS12,
	KTLS_HS_TICKET_USES,
};

/**
 * struct ktls_hs_ticket_key - one generation of ticket keys
 * @id:		carried in the clear by its tickets: random for the
 *		kernel's keys, the operator's number for theirs
 * @live:	set: a key
 * @born_ms:	when it became current, on the clock of its keys
 * @secret:	per use; each ticket's own key is derived from one of
 *		them and the ticket's salt
 */
struct ktls_hs_ticket_key {
	u32 id;
	bool live;
	u64 born_ms;
	u8 secret[KTLS_HS_TICKET_USES][KTLS_HS_TICKET_SECRET_LEN];
};

/**
 * struct ktls_hs_ticket_keys - the keys a listener seals tickets with
 * @ref:	settings that use it
 * @lock:	guards @cur and @prev (taken in softirq)
 * @node:	on the list of shared groups, if @group
 * @net:	the namespace of its listeners
 * @uid:	the user that made it
 * @group:	its number, 0 for a private group
 * @period_s:	rotation period
 * @cur:	the key that seals
 * @prev:	the key before, which still opens
 * @keyring:	set: the operator's "ktls_tickets" key, referenced; the
 *		keys are that key's, and the members above unused
 */
struct ktls_hs_ticket_keys {
	refcount_t ref;
	spinlock_t lock;	/* see above */
	struct list_head node;
	struct net *net;
	kuid_t uid;
	u32 group;
	u32 period_s;
	struct ktls_hs_ticket_key cur;
	struct ktls_hs_ticket_key prev;
	struct key *keyring;
};

/* What an operator's payload may hold (ticket_payload.c). */
#define KTLS_HS_TICKET_PAYLOAD_MAX	1024
#define KTLS_HS_TICKET_OP_SECRET_MIN	32
#define KTLS_HS_TICKET_OP_SECRET_MAX	64

struct ktls_hs_ticket_op_key {
	u32 id;
	u8 len;
	u8 secret[KTLS_HS_TICKET_OP_SECRET_MAX];
};

/**
 * struct ktls_hs_ticket_payload - a "ktls_tickets" payload, parsed
 * @cur:	the key that seals
 * @prev:	the key before, if @has_prev
 * @has_prev:	the payload names the previous key; else an update makes
 *		the key's current one previous
 */
struct ktls_hs_ticket_payload {
	struct ktls_hs_ticket_op_key cur;
	struct ktls_hs_ticket_op_key prev;
	bool has_prev;
};

/**
 * struct ktls_hs_ticket_ring - what a "ktls_tickets" key holds; immutable
 * once published, read under RCU, freed (and wiped) after a grace period
 * @cur:	the generation that seals
 * @prev:	the one before, which only opens; !@prev.live: none
 * @rcu:	for the free
 */
struct ktls_hs_ticket_ring {
	struct ktls_hs_ticket_key cur;
	struct ktls_hs_ticket_key prev;
	struct rcu_head rcu;
};

/* ticket_payload.c */
int ktls_hs_ticket_payload_parse(const u8 *data, size_t len,
				 struct ktls_hs_ticket_payload *tp,
				 const char **why, unsigned int *line);

/* ticket_keys.c */
bool ktls_hs_ticket_keys_current(struct ktls_hs_ticket_keys *k, u64 now_ms,
				 struct ktls_hs_ticket_key *out);
bool ktls_hs_ticket_keys_find(struct ktls_hs_ticket_keys *k, u64 now_ms,
			      u32 id, struct ktls_hs_ticket_key *out);
int ktls_hs_ticket_key_derive(struct ktls_hs_ticket_key *key, u32 id,
			      const u8 *secret, size_t len, u64 born_ms);

/* ticket_keyring.c */
int ktls_hs_ticket_ring_merge(struct ktls_hs_ticket_ring *new,
			      const struct ktls_hs_ticket_ring *old);
struct key *ktls_hs_ticket_keyring_lookup(s32 serial);
bool ktls_hs_ticket_keyring_current(struct key *key,
				    struct ktls_hs_ticket_key *out);
bool ktls_hs_ticket_keyring_find(struct key *key, u32 id,
				 struct ktls_hs_ticket_key *out);

#endif /* _KTLS_HS_TICKET_PRIV_H */
