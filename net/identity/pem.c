// SPDX-License-Identifier: GPL-2.0-only
/*
 * PEM armour of identity bundles (RFC 7468): finding the BEGIN/END blocks
 * in a payload, and the base64 inside them.  Text outside the blocks is
 * ignored, as files assembled by hand and tools like "openssl pkcs12"
 * carry some; inside a block only base64 and whitespace are accepted, so
 * the encrypted legacy format with its "Proc-Type:" headers is refused.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "pem.h"

#define PEM_DASHES	"-----"
#define PEM_BEGIN	"-----BEGIN "
#define PEM_END		"-----END "
#define PEM_MAX_LABEL	64

/* The first occurrence of @str at the start of a line in [@p, @end). */
static const char *pem_find_line(const char *start, const char *p,
				 const char *end, const char *str)
{
	size_t n = strlen(str);

	for (; (size_t)(end - p) >= n; p++) {
		if ((p == start || p[-1] == '\n') && !memcmp(p, str, n))
			return p;
	}
	return NULL;
}

/* Past the end of the line at @p, which must hold only whitespace. */
static const char *pem_line_end(const char *p, const char *end)
{
	for (; p < end && *p != '\n'; p++) {
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return NULL;
	}
	return p < end ? p + 1 : p;
}

/* The label of a BEGIN or END line, and what follows its closing dashes. */
static const char *pem_label(const char *p, const char *end,
			     const char **label, size_t *len)
{
	const char *q;

	*label = p;
	for (q = p; q < end && q - p <= PEM_MAX_LABEL; q++) {
		if ((size_t)(end - q) >= strlen(PEM_DASHES) &&
		    !memcmp(q, PEM_DASHES, strlen(PEM_DASHES))) {
			*len = q - p;
			return *len ? pem_line_end(q + strlen(PEM_DASHES), end) : NULL;
		}
		if (*q < 0x20 || *q > 0x7e)
			return NULL;
	}
	return NULL;
}

/**
 * ktls_pem_next() - find the next PEM block
 * @pos:	where to start looking; moved past the block found
 * @end:	end of the payload
 * @blk:	the block found
 * @why:	what was wrong, on error
 *
 * Return: 1 if a block was found, 0 if there is none left, or -EBADMSG if
 * one starts but is not complete (no END line, a different label).
 */
int ktls_pem_next(const char **pos, const char *end, struct ktls_pem *blk,
		  const char **why)
{
	const char *start = *pos, *begin, *body, *fin, *label, *next;
	size_t len;

	/*
	 * @pos is the start of the payload or just past an END line, so it
	 * is the start of a line.
	 */
	begin = pem_find_line(start, start, end, PEM_BEGIN);
	if (!begin)
		return 0;
	body = pem_label(begin + strlen(PEM_BEGIN), end, &blk->label,
			 &blk->label_len);
	if (!body) {
		*why = "malformed PEM BEGIN line";
		return -EBADMSG;
	}
	fin = pem_find_line(start, body, end, PEM_END);
	if (!fin) {
		*why = "PEM block without an END line";
		return -EBADMSG;
	}
	next = pem_label(fin + strlen(PEM_END), end, &label, &len);
	if (!next || len != blk->label_len ||
	    memcmp(label, blk->label, len)) {
		*why = "PEM END line does not match its BEGIN line";
		return -EBADMSG;
	}
	blk->body = body;
	blk->body_len = fin - body;
	*pos = next;
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_pem_next);

static int base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/**
 * ktls_base64_decode() - decode the body of a PEM block
 * @src:	base64 text; whitespace anywhere is skipped
 * @len:	its length
 * @dst:	output, room for @len * 3 / 4 bytes
 * @dst_len:	bytes written
 * @why:	what was wrong, on error
 *
 * Only the canonical encoding is taken: padded to a multiple of four
 * symbols, and no bits set in the padding, so that one body has one
 * decoding.
 *
 * Return: 0, or -EBADMSG.
 */
int ktls_base64_decode(const char *src, size_t len, u8 *dst, size_t *dst_len,
		       const char **why)
{
	unsigned int bits = 0, nbits = 0, symbols = 0, pad = 0;
	size_t out = 0, i;

	for (i = 0; i < len; i++) {
		char c = src[i];
		int v;

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		symbols++;
		if (c == '=') {
			pad++;
			continue;
		}
		v = base64_value(c);
		if (v < 0 || pad) {
			*why = v < 0 ? "invalid character in PEM base64" :
				       "PEM base64 continues after padding";
			return -EBADMSG;
		}
		bits = (bits << 6 | v) & 0xffffff;
		nbits += 6;
		if (nbits >= 8) {
			nbits -= 8;
			dst[out++] = bits >> nbits;
		}
	}
	/* 2 or 4 leftover bits go with 2 or 1 padding symbols, all zero. */
	if (symbols % 4 || pad > 2 || pad * 2 != nbits ||
	    (bits & ((1u << nbits) - 1))) {
		*why = "PEM base64 is truncated or not canonical";
		return -EBADMSG;
	}
	*dst_len = out;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_base64_decode);
