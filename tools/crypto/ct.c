// SPDX-License-Identifier: GPL-2.0-only
/*
 * Constant-time check: run under valgrind memcheck, with every secret
 * marked undefined, the paths that handle secrets: public-key derivation,
 * hedged ECDSA signing, key generation and ECDH.  Memcheck then reports
 * any branch or memory address computed from a secret as a use of an
 * uninitialised value.  The values the algorithms make public (results,
 * range checks of candidates) are declassified in the code itself with
 * p256_declassify(); outside valgrind this program just runs.
 */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include <linux/types.h>
#include <ktls_hs/p256.h>

/* CAVS 14.1 KAS ECC CDH [P-256] COUNT = 0: dIUT and QCAVS */
static const u8 fixed_priv[32] = {
	0x7d, 0x7d, 0xc5, 0xf7, 0x1e, 0xb2, 0x9d, 0xda, 0xf8, 0x0d, 0x62, 0x14,
	0x63, 0x2e, 0xea, 0xe0, 0x3d, 0x90, 0x58, 0xaf, 0x1f, 0xb6, 0xd2, 0x2e,
	0xd8, 0x0b, 0xad, 0xb6, 0x2b, 0xc1, 0xa5, 0x34,
};

static const u8 peer[65] = {
	0x04,
	0x70, 0x0c, 0x48, 0xf7, 0x7f, 0x56, 0x58, 0x4c, 0x5c, 0xc6, 0x32, 0xca,
	0x65, 0x64, 0x0d, 0xb9, 0x1b, 0x6b, 0xac, 0xce, 0x3a, 0x4d, 0xf6, 0xb4,
	0x2c, 0xe7, 0xcc, 0x83, 0x88, 0x33, 0xd2, 0x87,
	0xdb, 0x71, 0xe5, 0x09, 0xe3, 0xfd, 0x9b, 0x06, 0x0d, 0xdb, 0x20, 0xba,
	0x5c, 0x51, 0xdc, 0xc5, 0x94, 0x8d, 0x46, 0xfb, 0xf6, 0x40, 0xdf, 0xe0,
	0x44, 0x17, 0x82, 0xca, 0xb8, 0x5f, 0xa4, 0xac,
};

int main(void)
{
	u8 priv[32], pub[65], sig[64], secret[32], digest[32] = { 0x42 };
	u8 epriv[32], epub[65];
	int i, ret = 0;

	for (i = 0; i < 4; i++) {
		/* vary the key so one run covers different digit patterns */
		memcpy(priv, fixed_priv, sizeof(priv));
		priv[31] ^= i;
		VALGRIND_MAKE_MEM_UNDEFINED(priv, sizeof(priv));

		ret |= ktls_p256_public_key(pub, priv);
		/* the nonce's random half comes from get_random_bytes(): undefined too */
		ret |= ktls_p256_ecdsa_sign(sig, priv, digest, sizeof(digest));
		ret |= ktls_p256_ecdh(secret, priv, peer);
		ret |= ktls_p256_ecdh_keygen(epriv, epub);
		ret |= ktls_p256_ecdh(secret, epriv, peer);
	}
	/* the outputs are public: using them must not be reported */
	if (ret || ktls_p256_ecdsa_verify(pub, digest, sizeof(digest), sig)) {
		fprintf(stderr, "ct: the secret paths failed functionally\n");
		return 1;
	}
	return 0;
}
