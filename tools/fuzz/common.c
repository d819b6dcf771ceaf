// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stand-ins every target links: a deterministic generator for
 * get_random_bytes(), so that a saved input replays the same run, and
 * the kernel's X.509 parser, which bundle.c asks whether a certificate
 * parses: OpenSSL's answers that question here.
 */
#include <linux/err.h>
#include <linux/errno.h>
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
