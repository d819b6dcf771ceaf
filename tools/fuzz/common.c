// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-ins every target links: a deterministic generator for
 * get_random_bytes() and a fixed wall clock, so that a saved input
 * replays the same run; the release of a trust store; and the kernel's
 * X.509 parser, which bundle.c asks whether a certificate parses:
 * OpenSSL's answers that question here.
 */
#include <stdlib.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/timekeeping.h>
#include <ktls_hs/trust.h>
#include <openssl/x509.h>

#include "../../net/identity/x509.h"
#include "fuzz.h"

static uint64_t fuzz_rng = 1;

void ktls_fuzz_random_seed(uint64_t seed)
{
	fuzz_rng = seed | 1;
}

/* xorshift64*: not for secrets, only for repeatable ones. */
void ktls_fuzz_random(void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len--) {
		fuzz_rng ^= fuzz_rng >> 12;
		fuzz_rng ^= fuzz_rng << 25;
		fuzz_rng ^= fuzz_rng >> 27;
		*p++ = (fuzz_rng * 0x2545f4914f6cdd1dULL) >> 56;
	}
}

/*
 * The wall clock of the code under test: fixed, inside the validity of
 * the verifier's test certificates (net/identity/tests/), so that a
 * reproducer replays the same verification.
 */
time64_t ktls_fuzz_now(void)
{
	return 1893456000;	/* 2030-01-01 00:00:00 UTC */
}

/* What trust_store.c frees on its error path, and the targets after. */
void ktls_trust_put(struct ktls_trust *t)
{
	if (!t || !refcount_dec_and_test(&t->ref))
		return;
	free(t->anchors);
	free(t->ders);
	free(t->deny);
	free(t->pem);
	free(t);
}

struct x509_certificate *x509_cert_parse(const void *data, size_t datalen)
{
	const unsigned char *p = data;
	X509 *x;

	x = d2i_X509(NULL, &p, datalen);
	if (!x)
		return ERR_PTR(-EBADMSG);
	if (p != (const unsigned char *)data + datalen) {
		X509_free(x);
		return ERR_PTR(-EBADMSG);
	}
	return (struct x509_certificate *)x;
}

void x509_free_certificate(struct x509_certificate *cert)
{
	X509_free((X509 *)cert);
}
