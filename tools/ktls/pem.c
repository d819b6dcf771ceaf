// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files the user names and the PEM blocks in them, for identity and trust
 * store payloads.  The reading here is loose on purpose: it finds the
 * blocks to copy and the DER to name in a message, and leaves the strict
 * checks to the kernel, which refuses what is wrong with an errno the
 * caller turns into words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ktls.h"

#define KTLS_FILE_MAX	0x100000

/* @path, NUL terminated, in @b; an exit code, with the message printed. */
int ktls_read_file(const char *path, struct ktls_buf *b)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	size_t n;

	if (!f)
		return ktls_err(errno == ENOENT ? KTLS_EXIT_NOTFOUND :
				ktls_errno_code(errno), "%s: %s", path,
				strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) ||
	    st.st_size > KTLS_FILE_MAX) {
		fclose(f);
		return ktls_err(KTLS_EXIT_INVALID, "%s: not a regular file of at most 1 MiB",
				path);
	}
	b->p = malloc(st.st_size + 1);
	if (!b->p) {
		fclose(f);
		return ktls_err(KTLS_EXIT_FAIL, "out of memory");
	}
	n = fread(b->p, 1, st.st_size, f);
	fclose(f);
	b->p[n] = '\0';
	b->len = n;
	return 0;
}

/*
 * The next PEM block of @s from @*pos: its label and the whole block,
 * @end NULL if it has no END line.
 */
bool ktls_pem_next(const char *s, size_t *pos, char *label, size_t llen,
		   const char **start, const char **end)
{
	const char *b = strstr(s + *pos, "-----BEGIN "), *l, *e;
	char tail[128];

	if (!b)
		return false;
	l = b + strlen("-----BEGIN ");
	e = strstr(l, "-----");
	if (!e || (size_t)(e - l) >= llen) {
		*pos = strlen(s);
		return false;
	}
	snprintf(label, llen, "%.*s", (int)(e - l), l);
	snprintf(tail, sizeof(tail), "-----END %s-----", label);
	*start = b;
	e = strstr(e, tail);
	if (!e) {
		/* No END line: the kernel says EBADMSG, with less detail. */
		*end = NULL;
		*pos = strlen(s);
		return true;
	}
	*end = e + strlen(tail);
	*pos = *end - s;
	return true;
}

static int b64(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* The DER inside a PEM block, loosely: for the message, not the kernel. */
size_t ktls_pem_der(const char *start, const char *end, unsigned char *out,
		    size_t size)
{
	const char *p = strchr(start, '\n');
	unsigned int acc = 0, bits = 0;
	size_t n = 0;
	int v;

	for (; p && p < end && *p != '-' && n < size; p++) {
		v = b64(*p);
		if (v < 0)
			continue;
		acc = acc << 6 | v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = acc >> bits;
		}
	}
	return n;
}
