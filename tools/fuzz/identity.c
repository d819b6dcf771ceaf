// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer targets of the identity parsers in net/: the bundle as a
 * whole (PEM or DER, chain, key and their match), and each parser on its
 * own so that inputs need not get through the earlier ones first.  Built
 * four times, KTLS_FUZZ_TARGET choosing which entry point this is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/errno.h>

#include "../../net/identity/bundle.h"
#include "../../net/identity/eckey.h"
#include "../../net/identity/pem.h"
#include "../../net/identity/x509.h"
#include "fuzz.h"

#define TARGET_BUNDLE	1
#define TARGET_X509	2
#define TARGET_ECKEY	3
#define TARGET_PEM	4

/* What bundle.c frees on the error path and the key type on revoke. */
void ktls_identity_put(struct ktls_identity *id)
{
	if (!id || !refcount_dec_and_test(&id->ref))
		return;
	free(id->subject);
	free(id->names);
	free(id->certs);
	free(id->chain);
	free(id);
}

static void fuzz_bundle(const u8 *data, size_t len)
{
	struct ktls_identity *id;
	const char *why = NULL;

	id = ktls_bundle_parse(data, len, &why);
	if (IS_ERR(id)) {
		/* Every refusal but ENOMEM says why, for the kernel message. */
		if (!why && PTR_ERR(id) != -ENOMEM)
			abort();
		return;
	}
	ktls_identity_put(id);
}

static void fuzz_x509(const u8 *data, size_t len)
{
	u8 pub[KTLS_IDENTITY_P256_PUB_SIZE];
	struct ktls_identity_name name;
	struct ktls_x509 cert;
	const char *why;
	char subject[512];
	int n;

	if (ktls_x509_parse(&cert, data, len, &why))
		return;
	ktls_x509_p256_key(&cert, pub, &why);
	while (ktls_x509_next_name(&cert.san, &name, &why) > 0)
		;
	n = ktls_x509_format_name(&cert.subject, NULL, 0);
	if (n >= 0 && (size_t)n < sizeof(subject) &&
	    (ktls_x509_format_name(&cert.subject, subject, n + 1) != n ||
	     strlen(subject) != (size_t)n))
		abort();
}

static void fuzz_eckey(const u8 *data, size_t len)
{
	u8 priv[KTLS_IDENTITY_P256_PRIV_SIZE], pub[KTLS_IDENTITY_P256_PUB_SIZE];
	const char *why;
	bool has_pub;

	ktls_eckey_parse(data, len, priv, pub, &has_pub, &why);
}

static void fuzz_pem(const u8 *data, size_t len)
{
	const char *pos = (const char *)data, *end = pos + len;
	struct ktls_pem blk;
	const char *why;
	u8 *out;
	size_t n;

	out = malloc(len + 1);
	if (!out)
		abort();
	while (ktls_pem_next(&pos, end, &blk, &why) > 0) {
		n = len + 1;
		ktls_base64_decode(blk.body, blk.body_len, out, &n, &why);
	}
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	/* A copy of exactly @len bytes, so ASan sees any read past it. */
	u8 *buf = malloc(len ? len : 1);

	if (!buf)
		abort();
	memcpy(buf, data, len);
	switch (KTLS_FUZZ_TARGET) {
	case TARGET_BUNDLE:
		fuzz_bundle(buf, len);
		break;
	case TARGET_X509:
		fuzz_x509(buf, len);
		break;
	case TARGET_ECKEY:
		fuzz_eckey(buf, len);
		break;
	case TARGET_PEM:
		fuzz_pem(buf, len);
		break;
	}
	free(buf);
	return 0;
}
