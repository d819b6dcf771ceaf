/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The inside of a ticket key group, shared by ticket_keys.c, which keeps
 * and rotates the keys, and ticket.c, which seals with them.
 */
#ifndef _KTLS_HS_TICKET_PRIV_H
#define _KTLS_HS_TICKET_PRIV_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "ticket.h"

/**
 * struct ktls_hs_ticket_key - one generation of a group's key
 * @id:		random, carried in the clear by its tickets
 * @live:	set: a key
 * @born_ms:	when it became current
 * @secret:	each ticket's own key is derived from it and the ticket's salt
 */
struct ktls_hs_ticket_key {
	u32 id;
	bool live;
	u64 born_ms;
	u8 secret[KTLS_HS_TICKET_SECRET_LEN];
};

/**
 * struct ktls_hs_ticket_keys - a key group
 * @ref:	settings that use it
 * @lock:	guards @cur and @prev (taken in softirq)
 * @node:	on the list of shared groups, if @group
 * @net:	the namespace of its listeners
 * @uid:	the user that made it
 * @group:	its number, 0 for a private group
 * @period_s:	rotation period
 * @cur:	the key that seals
 * @prev:	the key before, which still opens
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
};

void ktls_hs_ticket_keys_current(struct ktls_hs_ticket_keys *k, u64 now_ms,
				 struct ktls_hs_ticket_key *out);
bool ktls_hs_ticket_keys_find(struct ktls_hs_ticket_keys *k, u64 now_ms,
			      u32 id, struct ktls_hs_ticket_key *out);

#endif /* _KTLS_HS_TICKET_PRIV_H */
