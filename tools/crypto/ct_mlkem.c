// SPDX-License-Identifier: GPL-2.0-only
/*
 * Constant-time check of ML-KEM-768: run under valgrind memcheck with the
 * secrets marked undefined (the seeds d and z of key generation, the
 * message m of encapsulation, the whole decapsulation key), so that any
 * branch or memory address computed from them is reported as a use of
 * an uninitialised value.  Decapsulation runs on a valid ciphertext and
 * on a modified one, the two paths implicit rejection must not tell
 * apart, with the key's bytes and with the key expanded.  What the
 * algorithm makes public (ek, rho, the ciphertext, the ek inside dk) is
 * declassified in the code with mlkem_declassify(); outside valgrind
 * this program just runs.
 */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include <linux/types.h>
#include <ktls_hs/mlkem.h>

static struct ktls_mlkem768_scratch scratch;
static struct ktls_mlkem768_dk_expanded key;
static u8 ek[KTLS_MLKEM768_EK_LEN], dk[KTLS_MLKEM768_DK_LEN], ct[KTLS_MLKEM768_CT_LEN];

int main(void)
{
	u8 d[32], z[32], m[32], ss[32], ss_ok[32], ss_bad[32], ss2[32], ss3[32];
	int i, bad = 0;

	for (i = 0; i < 3; i++) {
		memset(d, 0x11 * (i + 1), sizeof(d));
		memset(z, 0x22 * (i + 1), sizeof(z));
		memset(m, 0x33 * (i + 1), sizeof(m));
		VALGRIND_MAKE_MEM_UNDEFINED(d, sizeof(d));
		VALGRIND_MAKE_MEM_UNDEFINED(z, sizeof(z));
		VALGRIND_MAKE_MEM_UNDEFINED(m, sizeof(m));

		ktls_mlkem768_keygen_derand(ek, dk, d, z, &scratch);
		bad |= ktls_mlkem768_encaps_derand(ct, ss, ek, sizeof(ek), m, &scratch);

		VALGRIND_MAKE_MEM_UNDEFINED(dk, sizeof(dk));
		bad |= ktls_mlkem768_decaps(ss_ok, ct, sizeof(ct), dk, &scratch);
		ct[i * 300] ^= 4;
		VALGRIND_MAKE_MEM_UNDEFINED(dk, sizeof(dk));
		bad |= ktls_mlkem768_decaps(ss_bad, ct, sizeof(ct), dk, &scratch);

		/* the same two under the key expanded, from a secret dk */
		VALGRIND_MAKE_MEM_UNDEFINED(dk, sizeof(dk));
		bad |= ktls_mlkem768_expand_dk(&key, dk, &scratch);
		bad |= ktls_mlkem768_decaps_expanded(ss2, ct, sizeof(ct), &key, &scratch);
		ct[i * 300] ^= 4;
		bad |= ktls_mlkem768_decaps_expanded(ss3, ct, sizeof(ct), &key, &scratch);
		ct[i * 300] ^= 4;
		VALGRIND_MAKE_MEM_DEFINED(ss2, sizeof(ss2));
		VALGRIND_MAKE_MEM_DEFINED(ss3, sizeof(ss3));
		VALGRIND_MAKE_MEM_DEFINED(ss_bad, sizeof(ss_bad));
		bad |= memcmp(ss2, ss_bad, sizeof(ss2)) != 0;

		/* the secrets are compared here, in the open, to check the runs */
		VALGRIND_MAKE_MEM_DEFINED(ss, sizeof(ss));
		VALGRIND_MAKE_MEM_DEFINED(ss_ok, sizeof(ss_ok));
		VALGRIND_MAKE_MEM_DEFINED(ss_bad, sizeof(ss_bad));
		bad |= memcmp(ss, ss_ok, sizeof(ss)) != 0 || memcmp(ss, ss_bad, sizeof(ss)) == 0 ||
		       memcmp(ss, ss3, sizeof(ss)) != 0;
	}
	/* fresh randomness: the shim's get_random_bytes() marks it undefined */
	ktls_mlkem768_keygen(ek, dk, &scratch);
	bad |= ktls_mlkem768_encaps(ct, ss, ek, sizeof(ek), &scratch);
	bad |= ktls_mlkem768_decaps(ss_ok, ct, sizeof(ct), dk, &scratch);
	VALGRIND_MAKE_MEM_DEFINED(ss, sizeof(ss));
	VALGRIND_MAKE_MEM_DEFINED(ss_ok, sizeof(ss_ok));
	bad |= memcmp(ss, ss_ok, sizeof(ss)) != 0;

	if (bad) {
		fprintf(stderr, "ct_mlkem: the secret paths failed functionally\n");
		return 1;
	}
	return 0;
}
