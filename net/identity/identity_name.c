// SPDX-License-Identifier: GPL-2.0-only
/*
 * Whether a client's server_name is one of an identity's names: the
 * leaf's dNSName entries, wildcards read strictly.  Apart from the key
 * type in identity.c because it is pure string work on bytes the client
 * chose, which the userspace fuzzers (tools/fuzz) run as they are.
 */
#include <kunit/visibility.h>
#include <linux/string.h>

#include <ktls_hs/identity.h>

/* DNS names compare without regard to ASCII case (RFC 4343). */
static bool ktls_identity_dns_equal(const u8 *a, const char *b, size_t len)
{
	return !strncasecmp((const char *)a, b, len);
}

/*
 * RFC 6125 6.4.3, the strict reading: "*" is the whole leftmost label,
 * matches exactly one non-empty label, and is followed by at least two
 * more labels, so "*.com" matches nothing.
 */
static bool ktls_identity_wildcard_match(const struct ktls_identity_name *n,
					 const char *name, size_t len)
{
	const char *dot = memchr(name, '.', len);
	const u8 *suffix = n->name + 1;
	size_t suffix_len = n->len - 1;

	if (n->len < 2 || n->name[0] != '*' || n->name[1] != '.' ||
	    !memchr(suffix + 1, '.', suffix_len - 1))
		return false;
	if (!dot || dot == name)
		return false;
	return len - (dot - name) == suffix_len &&
	       ktls_identity_dns_equal(suffix, dot, suffix_len);
}

/**
 * ktls_identity_matches_name() - whether a host name is one of the leaf's
 * @id:		the identity
 * @name:	the host name, as SNI carries it (no trailing dot)
 * @len:	its length
 *
 * Only dNSName entries count: RFC 6066 leaves IP literals out of SNI, and
 * RFC 9525 retired the fallback to the subject's common name.
 */
bool ktls_identity_matches_name(const struct ktls_identity *id,
				const char *name, size_t len)
{
	unsigned int i;

	if (!len || len > 253 || memchr(name, '*', len) ||
	    memchr(name, '\0', len))
		return false;
	for (i = 0; i < id->nr_names; i++) {
		const struct ktls_identity_name *n = &id->names[i];

		if (n->type != KTLS_IDENTITY_NAME_DNS)
			continue;
		if (n->len == len && ktls_identity_dns_equal(n->name, name, len))
			return true;
		if (ktls_identity_wildcard_match(n, name, len))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_identity_matches_name);
