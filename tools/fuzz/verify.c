// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target of client certificate verification (net/identity/
 * verify.c and cert.c): the input is a TLS certificate_list, entries of a
 * 24-bit length and a certificate, verified against a store made once
 * from the test PKI of the KUnit tests (its root and int1, and a deny
 * line) at their fixed clock.  Besides the sanitizers it checks what the
 * handshake relies on: a refusal says why and is one of the four alerts,
 * and a success leaves a P-256 key and NUL-terminated names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/errno.h>

#include <ktls_hs/kdf.h>
#include <ktls_hs/trust.h>

#include "../../net/identity/tests/verify_vectors.h"
#include "fuzz.h"

#define FUZZ_NOW	1893456000LL	/* 2030-01-01, as verify_kunit.c */

static struct ktls_trust *fuzz_trust;

static void fuzz_setup(void)
{
	const char *why;
	char *pem;
	int n;

	if (ktls_kdf_init())
		abort();
	n = strlen(vec_root_pem) + strlen(vec_int1_pem) + 6 +
	    strlen(vec_leaf1_sha256);
	pem = malloc(n + 1);
	if (!pem)
		abort();
	snprintf(pem, n + 1, "%s%sdeny %s\n", vec_root_pem, vec_int1_pem,
		 vec_leaf1_sha256);
	fuzz_trust = ktls_trust_parse((const u8 *)pem, n, &why);
	free(pem);
	if (IS_ERR(fuzz_trust)) {
		fprintf(stderr, "fuzz-verify: store refused: %s\n", why);
		abort();
	}
}

static void fuzz_check_peer(const struct ktls_peer_cert *p)
{
	unsigned int i;

	if (p->public_key[0] != 0x04 || !p->depth ||
	    p->depth > KTLS_VERIFY_MAX_DEPTH + 1 ||
	    p->anchor >= fuzz_trust->nr_anchors ||
	    !memchr(p->subject, 0, sizeof(p->subject)) ||
	    !memchr(p->issuer, 0, sizeof(p->issuer)) ||
	    p->nr_sans > KTLS_PEER_MAX_SANS)
		abort();
	for (i = 0; i < p->nr_sans; i++) {
		const struct ktls_peer_san *s = &p->sans[i];

		if (s->off + s->len >= sizeof(p->san_text) ||
		    strlen(p->san_text + s->off) != s->len)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static void *scratch;
	struct ktls_verify_cert certs[KTLS_VERIFY_MAX_CERTS + 2];
	struct ktls_peer_cert peer;
	enum ktls_verify_result res;
	const char *why = NULL;
	unsigned int n = 0, i;
	u8 *buf[ARRAY_SIZE(certs)];
	size_t off = 0, clen;

	if (!fuzz_trust) {
		fuzz_setup();
		scratch = aligned_alloc(8, KTLS_VERIFY_SCRATCH_SIZE);
		if (!scratch)
			abort();
	}
	/* Each certificate in a buffer of its own size, for ASan. */
	while (n < ARRAY_SIZE(certs) && len - off >= 3) {
		clen = data[off] << 16 | data[off + 1] << 8 | data[off + 2];
		off += 3;
		if (clen > len - off)
			clen = len - off;
		buf[n] = malloc(clen ? clen : 1);
		if (!buf[n])
			abort();
		memcpy(buf[n], data + off, clen);
		certs[n].der = buf[n];
		certs[n].len = clen;
		off += clen;
		n++;
	}

	res = ktls_verify_peer(fuzz_trust, certs, n, FUZZ_NOW, scratch, &peer,
			       &why);
	switch (res) {
	case KTLS_VERIFY_OK:
		fuzz_check_peer(&peer);
		break;
	case KTLS_VERIFY_BAD_CERTIFICATE:
	case KTLS_VERIFY_UNSUPPORTED:
	case KTLS_VERIFY_EXPIRED:
	case KTLS_VERIFY_UNKNOWN_CA:
		if (!why)
			abort();
		break;
	default:
		abort();
	}
	for (i = 0; i < n; i++)
		free(buf[i]);
	return 0;
}
