// SPDX-License-Identifier: GPL-2.0-only
/*
 * Throughput of the module's P-256 code, built for userspace, next to
 * OpenSSL's libcrypto on the same host in the same run: ECDSA sign/s,
 * verify/s and ECDH/s, and our rate as a fraction of OpenSSL's.
 *
 * Each side does the same work per operation: signing a 32-byte digest
 * (ours with hedged RFC 6979 nonces), verifying one (ours decodes and
 * validates the public key each time), and ECDH from an encoded peer
 * point, decoded and validated each time on both sides.  OpenSSL runs
 * through its EC_KEY/ECDSA/ECDH calls, whose P-256 is its x86_64
 * assembly (ecp_nistz256).
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/obj_mac.h>

#include <linux/types.h>
#include <ktls_hs/p256.h>

/*
 * The host is shared, so time is this thread's CPU time, and the two
 * sides of a row run in alternating slices: a burst of load elsewhere
 * then hits both, not one.
 */
#define BENCH_SLICES	8
#define BENCH_SLICE_SECONDS	0.125

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct ctx {
	u8 priv[32], pub[65], peer[65], digest[32], sig[64];
	EC_GROUP *group;
	EC_KEY *key;
	ECDSA_SIG *esig;
};

typedef void (*op_fn)(struct ctx *c);

/* one slice of at least BENCH_SLICE_SECONDS; adds to *ops and *secs */
static void slice(op_fn fn, struct ctx *c, double *ops, double *secs)
{
	double start = now(), t;
	long n = 0;
	int i;

	do {
		for (i = 0; i < 8; i++)
			fn(c);
		n += 8;
		t = now() - start;
	} while (t < BENCH_SLICE_SECONDS);
	*ops += n;
	*secs += t;
}

static void ours_sign(struct ctx *c)
{
	if (ktls_p256_ecdsa_sign(c->sig, c->priv, c->digest, 32))
		abort();
}

static void ours_verify(struct ctx *c)
{
	if (ktls_p256_ecdsa_verify(c->pub, c->digest, 32, c->sig))
		abort();
}

static void ours_ecdh(struct ctx *c)
{
	u8 secret[32];

	if (ktls_p256_ecdh(secret, c->priv, c->peer))
		abort();
}

static void ossl_sign(struct ctx *c)
{
	ECDSA_SIG *s = ECDSA_do_sign(c->digest, 32, c->key);

	if (!s)
		abort();
	ECDSA_SIG_free(s);
}

static void ossl_verify(struct ctx *c)
{
	if (ECDSA_do_verify(c->digest, 32, c->esig, c->key) != 1)
		abort();
}

static void ossl_ecdh(struct ctx *c)
{
	EC_POINT *p = EC_POINT_new(c->group);
	u8 secret[32];

	if (!p || !EC_POINT_oct2point(c->group, p, c->peer, 65, NULL) ||
	    ECDH_compute_key(secret, 32, p, c->key, NULL) != 32)
		abort();
	EC_POINT_free(p);
}

int main(void)
{
	static const struct {
		const char *name;
		op_fn ours, ossl;
	} ops[] = {
		{ "ECDSA sign", ours_sign, ossl_sign },
		{ "ECDSA verify", ours_verify, ossl_verify },
		{ "ECDH", ours_ecdh, ossl_ecdh },
	};
	struct ctx c;
	u8 peer_priv[32];
	EC_POINT *pt;
	size_t i;

	memset(c.digest, 0x5a, sizeof(c.digest));
	ktls_p256_ecdh_keygen(c.priv, c.pub);
	ktls_p256_ecdh_keygen(peer_priv, c.peer);
	ktls_p256_ecdsa_sign(c.sig, c.priv, c.digest, 32);

	c.group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	c.key = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
	pt = EC_POINT_new(c.group);
	if (!c.group || !c.key || !pt || !EC_KEY_oct2priv(c.key, c.priv, 32) ||
	    !EC_POINT_oct2point(c.group, pt, c.pub, 65, NULL) ||
	    !EC_KEY_set_public_key(c.key, pt))
		abort();
	c.esig = ECDSA_SIG_new();
	ECDSA_SIG_set0(c.esig, BN_bin2bn(c.sig, 32, NULL), BN_bin2bn(c.sig + 32, 32, NULL));

	printf("P-256, one thread, %.1f s of CPU time per cell in %d alternating slices; %s\n\n",
	       BENCH_SLICES * BENCH_SLICE_SECONDS, BENCH_SLICES,
	       OpenSSL_version(OPENSSL_VERSION));
	printf("| operation    |    ktls_hs/s |    OpenSSL/s | ratio |\n");
	printf("|--------------|--------------|--------------|-------|\n");
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		double ours = 0, ours_t = 0, ossl = 0, ossl_t = 0, a, b;
		int j;

		for (j = 0; j < BENCH_SLICES; j++) {
			slice(ops[i].ours, &c, &ours, &ours_t);
			slice(ops[i].ossl, &c, &ossl, &ossl_t);
		}
		a = ours / ours_t;
		b = ossl / ossl_t;

		printf("| %-12s | %12.0f | %12.0f | %5.2f |\n", ops[i].name, a, b, a / b);
	}
	EC_POINT_free(pt);
	ECDSA_SIG_free(c.esig);
	EC_KEY_free(c.key);
	EC_GROUP_free(c.group);
	return 0;
}
