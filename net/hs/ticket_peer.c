// SPDX-License-Identifier: GPL-2.0-only
/*
 * The client certificate a session ticket carries: the peer block of a
 * format-3 ticket (ticket.h), and what a resumption checks of it.
 *
 *	leaf_sha256(32) not_after(8) anchor_sha256(32) depth(1) flags(1)
 *	subject<0..255> issuer<0..255> nr_sans(1) { type(1) text<1..2^16-1> }
 *
 * all integers big-endian: what KTLS_HS_PEER reports of a verified
 * client, so that a resumed session reports the same.  The certificate
 * itself is not in the ticket, and nothing is verified again at
 * resumption: the kernel has no CRL or OCSP client, so what can still
 * take a session's client away is what withdraws a certificate from a
 * new handshake too.  A ticket resumes while the CA its path ended at is
 * an anchor of the listener's trust store, within its validity, while
 * the leaf is not on the store's denylist, and not past the leaf's
 * notAfter; its lifetime is capped at that notAfter when it is issued.
 * An intermediate CA put on the denylist after the ticket was issued
 * does not stop it: the ticket names the two ends of the path only.
 */
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include <ktls_hs/trust.h>

#include "ticket.h"

#define KTLS_HS_TICKET_PEER_FIXED	(SHA256_DIGEST_SIZE + 8 + \
					 SHA256_DIGEST_SIZE + 1 + 1)

static size_t ktls_hs_ticket_name_len(const char *name)
{
	return strnlen(name, KTLS_PEER_NAME_MAX - 1);
}

size_t ktls_hs_ticket_peer_len(const struct ktls_peer_cert *peer)
{
	size_t len = KTLS_HS_TICKET_PEER_FIXED + 1 + 1 + 1;
	unsigned int i;

	len += ktls_hs_ticket_name_len(peer->subject);
	len += ktls_hs_ticket_name_len(peer->issuer);
	for (i = 0; i < peer->nr_sans; i++)
		len += 1 + 2 + peer->sans[i].len;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_peer_len);

static u8 *ktls_hs_ticket_put_name(u8 *p, const char *name)
{
	size_t n = ktls_hs_ticket_name_len(name);

	*p++ = n;
	memcpy(p, name, n);
	return p + n;
}

/* Into @p, ktls_hs_ticket_peer_len() bytes. */
void ktls_hs_ticket_peer_encode(const struct ktls_peer_cert *peer, u8 *p)
{
	const struct ktls_peer_san *san;
	unsigned int i;

	memcpy(p, peer->fingerprint, SHA256_DIGEST_SIZE);
	p += SHA256_DIGEST_SIZE;
	put_unaligned_be64(peer->not_after, p);
	p += 8;
	memcpy(p, peer->anchor_fp, SHA256_DIGEST_SIZE);
	p += SHA256_DIGEST_SIZE;
	*p++ = peer->depth;
	*p++ = peer->sans_truncated ? KTLS_HS_TICKET_PEER_SANS_TRUNCATED : 0;
	p = ktls_hs_ticket_put_name(p, peer->subject);
	p = ktls_hs_ticket_put_name(p, peer->issuer);
	*p++ = peer->nr_sans;
	for (i = 0; i < peer->nr_sans; i++) {
		san = &peer->sans[i];
		*p++ = san->type;
		put_unaligned_be16(san->len, p);
		memcpy(p + 2, peer->san_text + san->off, san->len);
		p += 2 + san->len;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_peer_encode);

/*
 * What the verifier made of the names (net/identity): subject and issuer
 * without controls, as ktls_x509_format_name() writes them (UTF-8 is
 * left as it is), subjectAltNames printable ASCII without blanks.
 */
static bool ktls_hs_ticket_text_ok(const u8 *p, size_t n, bool san)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f ||
		    (san && (p[i] == 0x20 || p[i] > 0x7f)))
			return false;
	}
	return true;
}

static bool ktls_hs_ticket_get_name(const u8 **p, const u8 *end, char *name)
{
	size_t n;

	if (*p == end)
		return false;
	n = *(*p)++;
	if (n > (size_t)(end - *p) || n >= KTLS_PEER_NAME_MAX ||
	    !ktls_hs_ticket_text_ok(*p, n, false))
		return false;
	memcpy(name, *p, n);
	name[n] = '\0';
	*p += n;
	return true;
}

static bool ktls_hs_ticket_get_sans(const u8 *p, const u8 *end,
				    struct ktls_peer_cert *peer)
{
	unsigned int i, nr;
	size_t n;
	u8 type;

	if (p == end)
		return false;
	nr = *p++;
	if (nr > KTLS_PEER_MAX_SANS)
		return false;
	for (i = 0; i < nr; i++) {
		if (end - p < 3)
			return false;
		type = p[0];
		n = get_unaligned_be16(p + 1);
		p += 3;
		if (type != KTLS_PEER_SAN_EMAIL && type != KTLS_PEER_SAN_DNS &&
		    type != KTLS_PEER_SAN_URI)
			return false;
		if (!n || n > (size_t)(end - p) ||
		    !ktls_hs_ticket_text_ok(p, n, true) ||
		    !ktls_peer_add_san(peer, type, p, n))
			return false;
		p += n;
	}
	return p == end;
}

/* All of @len bytes at @p, into @peer (which holds nothing on failure). */
bool ktls_hs_ticket_peer_decode(const u8 *p, size_t len,
				struct ktls_peer_cert *peer)
{
	const u8 *end = p + len;
	u8 flags;

	memset(peer, 0, sizeof(*peer));
	if (len < KTLS_HS_TICKET_PEER_FIXED)
		goto bad;
	memcpy(peer->fingerprint, p, SHA256_DIGEST_SIZE);
	p += SHA256_DIGEST_SIZE;
	peer->not_after = get_unaligned_be64(p);
	p += 8;
	memcpy(peer->anchor_fp, p, SHA256_DIGEST_SIZE);
	p += SHA256_DIGEST_SIZE;
	peer->depth = *p++;
	flags = *p++;
	if (!peer->depth || peer->depth > KTLS_VERIFY_MAX_DEPTH + 1 ||
	    flags & ~KTLS_HS_TICKET_PEER_SANS_TRUNCATED)
		goto bad;
	if (!ktls_hs_ticket_get_name(&p, end, peer->subject) ||
	    !ktls_hs_ticket_get_name(&p, end, peer->issuer) ||
	    !ktls_hs_ticket_get_sans(p, end, peer))
		goto bad;
	/* Set last: adding the names above must not have needed it. */
	peer->sans_truncated = flags & KTLS_HS_TICKET_PEER_SANS_TRUNCATED;
	return true;
bad:
	memzero_explicit(peer, sizeof(*peer));
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_peer_decode);

u32 ktls_hs_ticket_peer_lifetime(const struct ktls_peer_cert *peer,
				 u32 lifetime_s, time64_t now)
{
	if (peer->not_after <= now)
		return 0;
	return min_t(u64, lifetime_s, peer->not_after - now);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_peer_lifetime);

bool ktls_hs_ticket_peer_trusted(const struct ktls_hs_ticket_state *st,
				 const struct ktls_trust *trust,
				 bool required, time64_t now)
{
	const struct ktls_trust_anchor *a;

	if (!st->peer)
		return !required;
	/* Opened only with the room of a listener that has a store. */
	if (!trust)
		return false;
	a = ktls_trust_anchor_find(trust, st->peer->anchor_fp);
	return a && now >= a->not_before && now <= a->not_after &&
	       now <= st->peer->not_after &&
	       !ktls_trust_denied(trust, st->peer->fingerprint);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_peer_trusted);
