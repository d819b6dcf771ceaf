// SPDX-License-Identifier: GPL-2.0-only
/*
 * The payload of a "ktls_tickets" key: the ticket secrets an operator
 * supplies, as text a shell line can make from any secret store.
 *
 *	# comment
 *	current ID HEX
 *	previous ID HEX
 *
 * One line per key, fields apart by blanks; blank lines and lines whose
 * first field starts with '#' are skipped.  ID is the key's number,
 * decimal, 1 to 4294967295, carried in the clear by every ticket it
 * seals; HEX its secret, 32 to 64 bytes in hexadecimal (openssl rand
 * -hex 32).  "current" once, "previous" at most once, under another id.
 * Without "previous", a key update makes the key's current one previous
 * (ticket_keyring.c).
 *
 * Text rather than a binary layout: what a secret store hands out is a
 * string, and printf can join it to an id without a tool of ours.  The
 * parser is strict, so that a payload means one thing or is refused:
 * every malformation is -EINVAL, with the reason and line for the log.
 */
#include <linux/errno.h>
#include <linux/hex.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "ticket_priv.h"

static bool ktls_hs_tp_blank(u8 c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next field of the line from *@p to @end, and its length. */
static size_t ktls_hs_tp_field(const u8 **p, const u8 *end, const u8 **f)
{
	while (*p < end && ktls_hs_tp_blank(**p))
		(*p)++;
	*f = *p;
	while (*p < end && !ktls_hs_tp_blank(**p))
		(*p)++;
	return *p - *f;
}

static bool ktls_hs_tp_is(const u8 *f, size_t n, const char *word)
{
	return n == strlen(word) && !memcmp(f, word, n);
}

/* Decimal, 1..U32_MAX: no sign, no other base, no overflow. */
static bool ktls_hs_tp_id(const u8 *f, size_t n, u32 *id)
{
	u64 v = 0;
	size_t i;

	if (!n || n > 10)
		return false;
	for (i = 0; i < n; i++) {
		if (f[i] < '0' || f[i] > '9')
			return false;
		v = v * 10 + (f[i] - '0');
	}
	if (!v || v > U32_MAX)
		return false;
	*id = v;
	return true;
}

/* One "current" or "previous" line after its keyword. */
static int ktls_hs_tp_key(const u8 *p, const u8 *end,
			  struct ktls_hs_ticket_op_key *k, const char **why)
{
	const u8 *f;
	size_t n;

	n = ktls_hs_tp_field(&p, end, &f);
	if (!ktls_hs_tp_id(f, n, &k->id)) {
		*why = "key id is not a number from 1 to 4294967295";
		return -EINVAL;
	}
	n = ktls_hs_tp_field(&p, end, &f);
	if (n % 2 || n < 2 * KTLS_HS_TICKET_OP_SECRET_MIN ||
	    n > 2 * KTLS_HS_TICKET_OP_SECRET_MAX) {
		*why = "secret is not 32 to 64 bytes in hex";
		return -EINVAL;
	}
	if (hex2bin(k->secret, f, n / 2)) {
		*why = "secret is not hexadecimal";
		return -EINVAL;
	}
	k->len = n / 2;
	if (ktls_hs_tp_field(&p, end, &f)) {
		*why = "more than a keyword, an id and a secret on a line";
		return -EINVAL;
	}
	return 0;
}

/**
 * ktls_hs_ticket_payload_parse() - the keys of a "ktls_tickets" payload
 * @data:	the payload
 * @len:	its bytes
 * @tp:		filled in; wiped on error
 * @why:	on error, what was wrong, for the log
 * @line:	on error, the line it was on (1-based; 0: the whole payload)
 *
 * Return: 0, or -EINVAL.
 */
int ktls_hs_ticket_payload_parse(const u8 *data, size_t len,
				 struct ktls_hs_ticket_payload *tp,
				 const char **why, unsigned int *line)
{
	const u8 *end = data + len, *eol, *p, *f;
	struct ktls_hs_ticket_op_key *k;
	bool has_cur = false;
	int err = 0;
	size_t n;

	memset(tp, 0, sizeof(*tp));
	*line = 0;
	if (!len || len > KTLS_HS_TICKET_PAYLOAD_MAX) {
		*why = "payload is empty or over 1024 bytes";
		return -EINVAL;
	}
	if (memchr(data, '\0', len)) {
		*why = "payload holds a NUL byte";
		return -EINVAL;
	}
	for (p = data; !err && p < end; p = eol < end ? eol + 1 : end) {
		eol = memchr(p, '\n', end - p) ?: end;
		++*line;
		n = ktls_hs_tp_field(&p, eol, &f);
		if (!n || *f == '#')
			continue;
		if (ktls_hs_tp_is(f, n, "current") && !has_cur) {
			k = &tp->cur;
			has_cur = true;
		} else if (ktls_hs_tp_is(f, n, "previous") && !tp->has_prev) {
			k = &tp->prev;
			tp->has_prev = true;
		} else {
			*why = "not one \"current\" and at most one \"previous\" line";
			err = -EINVAL;
			break;
		}
		err = ktls_hs_tp_key(p, eol, k, why);
	}
	if (!err && !has_cur) {
		*why = "no \"current\" line";
		*line = 0;
		err = -EINVAL;
	}
	if (!err && tp->has_prev && tp->prev.id == tp->cur.id) {
		*why = "current and previous keys have the same id";
		*line = 0;
		err = -EINVAL;
	}
	if (err)
		memzero_explicit(tp, sizeof(*tp));
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ticket_payload_parse);
