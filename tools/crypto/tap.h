/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * TAP output and hex input for the test programs of tools/crypto that
 * came after kat.c: one "ok"/"not ok" line per check, a count at the end.
 */
#ifndef _KTLS_TOOLS_CRYPTO_TAP_H
#define _KTLS_TOOLS_CRYPTO_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>

static int tap_no, tap_failures;

static void __printf(2, 3) tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++tap_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		tap_failures++;
	fflush(stdout);
}

static int tap_done(void)
{
	printf("1..%d\n", tap_no);
	printf("# %d passed, %d failed\n", tap_no - tap_failures, tap_failures);
	return tap_failures ? 1 : 0;
}

/* hex to bytes; aborts on bad data or too much of it */
static size_t __maybe_unused unhex(unsigned char *out, size_t max, const char *hex)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int b;

	if (n > max || strlen(hex) % 2)
		abort();
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			abort();
		out[i] = b;
	}
	return n;
}

static void __maybe_unused tohex(char *out, const unsigned char *in, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", in[i]);
}

#endif
