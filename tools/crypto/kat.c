// SPDX-License-Identifier: GPL-2.0-only
/*
 * Known-answer tests of the P-256 code in userspace, in TAP: the vectors
 * of crypto/tests/p256_vectors.h (the KUnit suite runs the same ones in
 * the kernel), plus a differential run against OpenSSL's libcrypto on
 * random keys, which only userspace can do.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/ecdh.h>
#include <openssl/ecdsa.h>
#include <openssl/obj_mac.h>

#include <linux/types.h>
#include <linux/random.h>
#include <ktls_hs/p256.h>
#include "p256_internal.h"
#include "p256_vectors.h"

static int test_no, failures;

static void tap(int ok, const char *fmt, const char *name)
{
	printf("%s %d - ", ok ? "ok" : "not ok", ++test_no);
	printf(fmt, name);
	printf("\n");
	if (!ok)
		failures++;
}

static size_t unhex(u8 *out, size_t max, const char *hex)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int b;

	if (n > max)
		abort();
	for (i = 0; i < n; i++) {
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			abort();
		out[i] = b;
	}
	return n;
}

static void test_pubkeys(void)
{
	const struct p256_pubkey_vector *v;
	u8 priv[32], pub[65], want[65];

	for (v = p256_pubkey_vectors; v < p256_pubkey_vectors + ARRAY_SIZE(p256_pubkey_vectors);
	     v++) {
		int ret;

		unhex(priv, 32, v->priv);
		ret = ktls_p256_public_key(pub, priv);
		if (v->ret)
			tap(ret == v->ret, "public key: %s refused", v->name);
		else
			tap(!ret && unhex(want, 65, v->pub) == 65 && !memcmp(pub, want, 65),
			    "public key: %s", v->name);
	}
}

static void test_rfc6979(void)
{
	const struct p256_sign_vector *v;
	u8 priv[32], pub[65], digest[64], k[32], want_k[32], sig[64], want[64];
	size_t len;

	unhex(priv, 32, p256_rfc6979_key.priv);
	unhex(pub, 65, p256_rfc6979_key.pub);
	for (v = p256_rfc6979_vectors; v < p256_rfc6979_vectors + ARRAY_SIZE(p256_rfc6979_vectors);
	     v++) {
		len = unhex(digest, sizeof(digest), v->digest);
		unhex(want_k, 32, v->k);
		unhex(want, 64, v->sig);
		p256_rfc6979_nonce(k, priv, digest, len, NULL);
		tap(!memcmp(k, want_k, 32), "RFC 6979 nonce: %s", v->name);
		tap(!p256_ecdsa_sign_extra(sig, priv, digest, len, NULL) &&
		    !memcmp(sig, want, 64), "RFC 6979 signature: %s", v->name);
		tap(!ktls_p256_ecdsa_verify(pub, digest, len, sig), "verify own signature: %s",
		    v->name);
	}
}

static void test_verify(void)
{
	const struct p256_verify_vector *v;
	u8 pub[65], digest[64], sig[64];
	size_t len;

	for (v = p256_verify_vectors; v < p256_verify_vectors + ARRAY_SIZE(p256_verify_vectors);
	     v++) {
		unhex(pub, 65, v->pub);
		len = unhex(digest, sizeof(digest), v->digest);
		unhex(sig, 64, v->sig);
		tap(ktls_p256_ecdsa_verify(pub, digest, len, sig) == v->ret, "verify: %s",
		    v->name);
	}
}

static void test_ecdh(void)
{
	const struct p256_ecdh_vector *v;
	u8 priv[32], peer[65], secret[32], want[32];

	for (v = p256_ecdh_vectors; v < p256_ecdh_vectors + ARRAY_SIZE(p256_ecdh_vectors); v++) {
		int ret;

		unhex(priv, 32, v->priv);
		unhex(peer, 65, v->peer);
		unhex(want, 32, v->secret);
		ret = ktls_p256_ecdh(secret, priv, peer);
		tap(ret == v->ret && (ret || !memcmp(secret, want, 32)), "ECDH: %s", v->name);
	}
}

static void test_der(void)
{
	const struct p256_der_vector *v;
	u8 der[80], sig[64], want[64], out[80];
	size_t len;

	for (v = p256_der_vectors; v < p256_der_vectors + ARRAY_SIZE(p256_der_vectors); v++) {
		len = unhex(der, sizeof(der), v->der);
		if (v->ret) {
			tap(ktls_p256_sig_from_der(sig, der, len) == v->ret, "DER: %s refused",
			    v->name);
			continue;
		}
		unhex(want, 64, v->sig);
		tap(!ktls_p256_sig_from_der(sig, der, len) && !memcmp(sig, want, 64),
		    "DER decode: %s", v->name);
		tap(ktls_p256_sig_to_der(out, sizeof(out), want) == (int)len &&
		    !memcmp(out, der, len), "DER encode: %s", v->name);
		tap(ktls_p256_sig_to_der(out, len - 1, want) == -ENOSPC,
		    "DER encode: %s into a short buffer", v->name);
	}
}

/* Our keys, signatures and secrets against libcrypto's, on random keys. */
static void test_openssl(int rounds)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	int i, bad_pub = 0, bad_ours = 0, bad_theirs = 0, bad_ecdh = 0;

	for (i = 0; i < rounds; i++) {
		u8 a[32], apub[65], b[32], bpub[65], sig[64], digest[32], s1[32], s2[32];
		u8 buf[65];
		EC_KEY *ka = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
		EC_KEY *kb = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1);
		EC_POINT *pt = EC_POINT_new(g);
		ECDSA_SIG *es;
		const BIGNUM *er, *esv;
		BIGNUM *br, *bs;

		ktls_p256_ecdh_keygen(a, apub);
		ktls_p256_ecdh_keygen(b, bpub);
		get_random_bytes(digest, sizeof(digest));
		VALGRIND_MAKE_MEM_DEFINED(a, 32);
		VALGRIND_MAKE_MEM_DEFINED(b, 32);
		VALGRIND_MAKE_MEM_DEFINED(digest, 32);

		EC_KEY_oct2priv(ka, a, 32);
		EC_POINT_mul(g, pt, EC_KEY_get0_private_key(ka), NULL, NULL, NULL);
		EC_KEY_set_public_key(ka, pt);
		EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, buf, 65, NULL);
		bad_pub += !!memcmp(buf, apub, 65);
		EC_KEY_oct2priv(kb, b, 32);

		/* ours signs, OpenSSL verifies */
		ktls_p256_ecdsa_sign(sig, a, digest, 32);
		br = BN_bin2bn(sig, 32, NULL);
		bs = BN_bin2bn(sig + 32, 32, NULL);
		es = ECDSA_SIG_new();
		ECDSA_SIG_set0(es, br, bs);
		bad_ours += ECDSA_do_verify(digest, 32, es, ka) != 1;
		ECDSA_SIG_free(es);

		/* OpenSSL signs, ours verifies */
		es = ECDSA_do_sign(digest, 32, ka);
		ECDSA_SIG_get0(es, &er, &esv);
		BN_bn2binpad(er, sig, 32);
		BN_bn2binpad(esv, sig + 32, 32);
		bad_theirs += ktls_p256_ecdsa_verify(apub, digest, 32, sig) != 0;
		ECDSA_SIG_free(es);

		/* both sides of one exchange */
		EC_POINT_oct2point(g, pt, bpub, 65, NULL);
		ECDH_compute_key(s1, 32, pt, ka, NULL);
		ktls_p256_ecdh(s2, b, apub);
		bad_ecdh += !!memcmp(s1, s2, 32);

		EC_POINT_free(pt);
		EC_KEY_free(ka);
		EC_KEY_free(kb);
	}
	EC_GROUP_free(g);
	tap(!bad_pub, "libcrypto: %s random public keys agree", "200");
	tap(!bad_ours, "libcrypto: %s of our signatures verify there", "200");
	tap(!bad_theirs, "libcrypto: %s of its signatures verify here", "200");
	tap(!bad_ecdh, "libcrypto: %s ECDH secrets agree", "200");
}

/* big-endian hex to four little-endian limbs */
static void unhex_limbs(u64 v[4], const char *hex)
{
	u8 b[32];
	int i, j;

	if (unhex(b, sizeof(b), hex) != sizeof(b))
		abort();
	for (i = 0; i < 4; i++)
		for (v[i] = 0, j = 0; j < 8; j++)
			v[i] |= (u64)b[31 - 8 * i - j] << (8 * j);
}

static void test_mont(void)
{
	const struct p256_mont_vector *v;
	u64 a[4], b[4], want[4];
	int ok;

	for (v = p256_mont_vectors; v < p256_mont_vectors + ARRAY_SIZE(p256_mont_vectors); v++) {
		unhex_limbs(a, v->a);
		unhex_limbs(b, v->b);
		unhex_limbs(want, v->prod);
		if (v->mod == 'p') {
			struct p256_fe fa, fb, r;

			memcpy(fa.v, a, sizeof(a));
			memcpy(fb.v, b, sizeof(b));
			p256_fe_mul(&r, &fa, &fb);
			ok = !memcmp(r.v, want, sizeof(want));
			if (!memcmp(a, b, sizeof(a))) {
				p256_fe_sqr(&r, &fa);
				ok &= !memcmp(r.v, want, sizeof(want));
			}
		} else {
			struct p256_scalar sa, sb, r;

			memcpy(sa.v, a, sizeof(a));
			memcpy(sb.v, b, sizeof(b));
			p256_scalar_mont_mul(&r, &sa, &sb);
			ok = !memcmp(r.v, want, sizeof(want));
		}
		tap(ok, "Montgomery product mod %s", v->name);
	}
}

static void test_hedged(void)
{
	u8 priv[32], pub[65], digest[32] = { 1 }, s1[64], s2[64], zero[32] = { 0 };

	unhex(priv, 32, p256_rfc6979_key.priv);
	unhex(pub, 65, p256_rfc6979_key.pub);
	ktls_p256_ecdsa_sign(s1, priv, digest, sizeof(digest));
	ktls_p256_ecdsa_sign(s2, priv, digest, sizeof(digest));
	tap(memcmp(s1, s2, 64) != 0, "hedged: %s", "two signatures of one digest differ");
	tap(!ktls_p256_ecdsa_verify(pub, digest, 32, s1) &&
	    !ktls_p256_ecdsa_verify(pub, digest, 32, s2), "hedged: %s", "both verify");
	tap(ktls_p256_ecdsa_sign(s1, zero, digest, 32) == -EINVAL,
	    "sign: %s", "zero private key refused");
}

int main(void)
{
	printf("TAP version 13\n");
	test_mont();
	test_pubkeys();
	test_rfc6979();
	test_verify();
	test_ecdh();
	test_der();
	test_hedged();
	test_openssl(200);
	printf("1..%d\n", test_no);
	printf("# %d passed, %d failed\n", test_no - failures, failures);
	return failures ? 1 : 0;
}
