/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stateless session tickets: the keys that seal them, made by the
 * kernel (ticket_keys.c) or supplied by an operator through the keyring
 * (ticket_keyring.c), and the sealed format (ticket.c).  A ticket
 * carries everything a later handshake needs to resume the session,
 * encrypted and authenticated under a key that never leaves the kernel;
 * the server keeps no per-session state.
 *
 * Nothing here knows the TLS version of the session it seals: the TLS
 * 1.3 handshake puts a resumption PSK in the state, a TLS 1.2 one
 * would put its master secret, and both go through the same sealing.
 * A session whose client was authenticated by certificate carries what
 * was verified of it (ticket_peer.c), which a resumption checks against
 * the listener's trust store again.
 */
#ifndef _KTLS_HS_TICKET_H
#define _KTLS_HS_TICKET_H

#include <linux/time64.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include <ktls_hs/kdf.h>
#include <ktls_hs/trust.h>

struct ktls_hs_client_hello;
struct ktls_identity;
struct ktls_peer_cert;
struct ktls_trust;
struct net;

#define KTLS_HS_TICKET_SECRET_LEN	32

/*
 * A key group: the current ticket key, and the previous one, still
 * taken for one rotation period after it was replaced.  Shared by the
 * listeners (of one network namespace and user) that ask for the same
 * group, so that each resumes the sessions of the others.
 */
struct ktls_hs_ticket_keys;

struct ktls_hs_ticket_keys *ktls_hs_ticket_keys_get(struct net *net,
						    kuid_t uid, u32 group,
						    u32 rotate_s);
/*
 * The keys of the operator's "ktls_tickets" key @serial, which the
 * caller must be allowed to search; they change as the key does.
 * Process context.  ERR_PTR: -EINVAL (not a serial, or a key of another
 * type), -ENOKEY, -EACCES, -EKEYREVOKED, -EKEYEXPIRED, -ENOMEM.
 */
struct ktls_hs_ticket_keys *ktls_hs_ticket_keys_keyring(s32 serial);
void ktls_hs_ticket_keys_hold(struct ktls_hs_ticket_keys *k);
void ktls_hs_ticket_keys_put(struct ktls_hs_ticket_keys *k);
void ktls_hs_ticket_keys_rotate(struct ktls_hs_ticket_keys *k, u64 now_ms);
u32 ktls_hs_ticket_keys_group(const struct ktls_hs_ticket_keys *k);
u32 ktls_hs_ticket_keys_period(const struct ktls_hs_ticket_keys *k);
/* The serial of the operator's key, 0 for keys of the kernel's own. */
s32 ktls_hs_ticket_keys_serial(const struct ktls_hs_ticket_keys *k);

/*
 * The kernel's own keys count time on the boot clock, in ms, which no
 * step of the wall clock moves: they are this host's alone.  Keys an
 * operator shares across machines count it on the one clock those
 * machines share, the wall clock.  ktls_hs_ticket_keys_now() is the
 * clock of @k; tickets are sealed and opened on it.
 */
u64 ktls_hs_ticket_now_ms(void);
u64 ktls_hs_ticket_real_ms(void);
u64 ktls_hs_ticket_keys_now(const struct ktls_hs_ticket_keys *k);

/* "ktls_tickets", the key type of ticket_keyring.c */
int ktls_hs_ticket_keyring_init(void);
void ktls_hs_ticket_keyring_exit(void);

/* ktls_hs_ticket_state.flags */
#define KTLS_HS_TICKET_EMS	0x01	/* TLS 1.2: extended master secret */

#define KTLS_HS_TICKET_SNI_MAX		255
#define KTLS_HS_TICKET_DIGEST_LEN	32

/**
 * struct ktls_hs_ticket_state - what a ticket carries
 * @version:	TLS version of the session (0x0304, or 0x0303)
 * @suite:	its cipher suite, IANA number
 * @flags:	KTLS_HS_TICKET_*
 * @created_ms:	when the ticket was issued, ktls_hs_ticket_now_ms()
 * @lifetime_s:	how long it is good for from then
 * @age_add:	the ticket_age_add the client was given (TLS 1.3)
 * @secret_len:	bytes of @secret, 1..48
 * @secret:	the resumption PSK (1.3) or master secret (1.2)
 * @id_digest:	SHA-256 of the leaf certificate the session was
 *		authenticated with: the ticket resumes under that identity only
 * @sni_len:	bytes of @sni, 0 if the client sent no server_name
 * @sni:	the server_name of the session, which a resumption must repeat
 * @peer:	the client certificate the session was authenticated with,
 *		NULL for none: sealed from it, opened into it (see
 *		struct ktls_hs_ticket_room)
 */
struct ktls_hs_ticket_state {
	u16 version;
	u16 suite;
	u8 flags;
	u64 created_ms;
	u32 lifetime_s;
	u32 age_add;
	u8 secret_len;
	u8 secret[KTLS_HASH_MAX_SIZE];
	u8 id_digest[KTLS_HS_TICKET_DIGEST_LEN];
	u8 sni_len;
	u8 sni[KTLS_HS_TICKET_SNI_MAX];
	struct ktls_peer_cert *peer;
};

/*
 * Sealed: format(1) key_id(4) salt(16) ciphertext tag(16); the plaintext
 * is the state above, serialised with its variable parts as long as they
 * are.  Format 1 sealed every ticket with one key per generation; format
 * 2 seals TLS 1.3 and TLS 1.2 tickets with keys of their own; format 3
 * is format 2 with the client's certificate behind (the peer block), for
 * a session that verified one.  Tickets without a peer stay format 2, so
 * that a fleet part of whose machines predate format 3 still resumes them.
 */
#define KTLS_HS_TICKET_FORMAT		2
#define KTLS_HS_TICKET_FORMAT_PEER	3
#define KTLS_HS_TICKET_SALT_LEN		16
#define KTLS_HS_TICKET_HDR_LEN		(1 + 4 + KTLS_HS_TICKET_SALT_LEN)
#define KTLS_HS_TICKET_PLAIN_MAX	(2 + 2 + 1 + 8 + 4 + 4 + \
					 1 + KTLS_HASH_MAX_SIZE + \
					 KTLS_HS_TICKET_DIGEST_LEN + \
					 1 + KTLS_HS_TICKET_SNI_MAX)
#define KTLS_HS_TICKET_MAX_LEN		(KTLS_HS_TICKET_HDR_LEN + \
					 KTLS_HS_TICKET_PLAIN_MAX + 16)

/*
 * The peer block (ticket_peer.c): leaf_sha256(32) not_after(8)
 * anchor_sha256(32) depth(1) flags(1) subject<0..255> issuer<0..255>
 * nr_sans(1), then per name type(1) text<1..2^16-1>; the names' text,
 * each NUL-terminated, fills at most the peer's KTLS_PEER_SAN_BYTES.
 */
#define KTLS_HS_TICKET_PEER_MAX		(32 + 8 + 32 + 1 + 1 + \
					 2 * KTLS_PEER_NAME_MAX + 1 + \
					 KTLS_PEER_MAX_SANS * 3 + \
					 KTLS_PEER_SAN_BYTES)
#define KTLS_HS_TICKET_PEER_MAX_LEN	(KTLS_HS_TICKET_MAX_LEN + \
					 KTLS_HS_TICKET_PEER_MAX)

/* Flags of the peer block */
#define KTLS_HS_TICKET_PEER_SANS_TRUNCATED	0x01

/**
 * struct ktls_hs_ticket_room - where a ticket with a peer block is made
 * or opened: too large for the softirq stack, so the handshake lends
 * memory of its own (the chain verifier's, idle before the client's
 * Certificate and after it was verified)
 * @peer:	the client certificate, sealed from or opened into
 * @buf:	KTLS_HS_TICKET_PEER_MAX_LEN bytes, 8-byte aligned
 */
struct ktls_hs_ticket_room {
	struct ktls_peer_cert *peer;
	u8 *buf;
};

/*
 * A ticket made up to this long before its own creation time, by the
 * clock of the machine that opens it, counts as made just now: the
 * wall clocks of a fleet's machines are close, not equal.
 */
#define KTLS_HS_TICKET_SKEW_MS		1000

/*
 * Seal @st under the current key of @k (rotating it first when due) into
 * @out, of @cap bytes, with the key for @st->version's tickets; in format
 * 3 when @st->peer is set.  Returns the ticket's length, -EINVAL, or
 * -ENOKEY when @k has no key to seal with (the operator's key was
 * revoked): the session gets no ticket.
 */
int ktls_hs_ticket_seal(struct ktls_hs_ticket_keys *k, u64 now_ms,
			const struct ktls_hs_ticket_state *st, u8 *out,
			size_t cap);
/*
 * Open a ticket a client presented into @st, as one of a TLS @version
 * session.  A ticket with a peer block opens only with a @room, into
 * @room->peer (@st->peer then points at it); without one, it is
 * -EBADMSG as a ticket of an unknown format is.  0, or: -EBADMSG for a
 * ticket that is not one of ours, of another format or another version,
 * or was altered, -ENOKEY when its key was rotated out, -EKEYEXPIRED
 * past its lifetime.  @st (and @room->peer) hold nothing on failure;
 * every failure means a full handshake, never an alert.
 */
int ktls_hs_ticket_open(struct ktls_hs_ticket_keys *k, u64 now_ms,
			u16 version, const u8 *in, size_t len,
			const struct ktls_hs_ticket_room *room,
			struct ktls_hs_ticket_state *st);
/* Wipe @st, and the peer it was opened into if any. */
void ktls_hs_ticket_forget(struct ktls_hs_ticket_state *st);

/*
 * Bind @st to the session's identity @id (the SHA-256 of its leaf
 * certificate) and the client's server name @sni ("" if none), cap its
 * lifetime at the end of @st->peer's validity if it has a peer, then
 * seal it as ktls_hs_ticket_seal() does, at @st->created_ms.  Returns
 * the ticket's length or an errno; -ENOKEY: the session gets no ticket
 * (no key to seal with, or a client certificate about to expire).
 */
int ktls_hs_ticket_issue(struct ktls_hs_ticket_keys *k,
			 struct ktls_hs_ticket_state *st,
			 const struct ktls_identity *id, const char *sni,
			 u8 *out, size_t cap);
/*
 * Whether the session in @st was bound to @id, the identity the
 * ClientHello @ch picked again, and to the server_name @ch sends now.
 */
bool ktls_hs_ticket_bound(const struct ktls_hs_ticket_state *st,
			  const struct ktls_identity *id,
			  const struct ktls_hs_client_hello *ch);

/* ticket_peer.c: the peer block */
size_t ktls_hs_ticket_peer_len(const struct ktls_peer_cert *peer);
void ktls_hs_ticket_peer_encode(const struct ktls_peer_cert *peer, u8 *p);
bool ktls_hs_ticket_peer_decode(const u8 *p, size_t len,
				struct ktls_peer_cert *peer);
/*
 * Seconds a ticket of @peer's session may live, of the @lifetime_s
 * asked for, at the real time @now: not past the end of the client
 * certificate's validity.  0: no ticket.
 */
u32 ktls_hs_ticket_peer_lifetime(const struct ktls_peer_cert *peer,
				 u32 lifetime_s, time64_t now);
/*
 * Whether the client side of @st resumes under a listener with the
 * trust store @trust (NULL: none), which insists on a client
 * certificate if @required, at the real time @now.  A ticket without a
 * peer resumes where a certificate is optional; one with a peer only
 * while its anchor is still in @trust and valid, its leaf is not on the
 * denylist and has not expired.
 */
bool ktls_hs_ticket_peer_trusted(const struct ktls_hs_ticket_state *st,
				 const struct ktls_trust *trust,
				 bool required, time64_t now);

#endif /* _KTLS_HS_TICKET_H */
