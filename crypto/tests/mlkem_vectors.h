/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Known answers for ML-KEM-768 (crypto/mlkem*.c), shared by the KUnit
 * suite (crypto/tests/mlkem_kunit.c) and the userspace tests
 * (tools/crypto/kat_mlkem.c).  Values are hex.
 *
 * "CCTV unlucky sample" is C2SP's CCTV ML-KEM-768 vector whose matrix
 * entry A[0][0] needs more SHAKE128 output than three blocks
 * (ML-KEM/unluckysample/ML-KEM-768.txt): the seeds d, z and m, the
 * shared secret K, H(ek) as its dk carries it, and SHA3-256 of its dk
 * and its ciphertext c, whose full values the file lists.  "Go CAST" is
 * the self-test of Go's FIPS 140 module (seeds 0x01.., 0x21.., 0x41..;
 * only K is published).
 *
 * The accumulated test is the one Go's crypto/mlkem runs
 * (TestAccumulated): from a SHAKE128 stream of the empty string, each
 * iteration reads 64 bytes d || z, a key pair is made and ek absorbed
 * into a second SHAKE128; 32 bytes m are read, encapsulated to ek, and
 * the ciphertext and the secret absorbed; the ciphertext must
 * decapsulate to the secret; then 1088 random bytes are read as a
 * ciphertext, decapsulated (implicit rejection, almost surely) and the
 * secret absorbed.  The digest is the first 32 bytes squeezed.
 */
#ifndef _KTLS_HS_MLKEM_VECTORS_H
#define _KTLS_HS_MLKEM_VECTORS_H

/* the hashes are SHA3-256, or NULL where not published */
struct mlkem_vector {
	const char *name;
	const char *d, *z, *m;
	const char *ek_hash, *dk_hash, *ct_hash;
	const char *ss;		/* K */
};

static const struct mlkem_vector mlkem_vectors[] = {
	{
		.name = "CCTV unlucky sample",
		.d = "82c4a361586b9715c2375a45fb85c32d04be7fe6e26acd820ec5d4080093afe1",
		.z = "8476013560151d986dc7834dcb57c75f845f8d7ee71558d0955f3f4feb723cf2",
		.m = "e48f74ad416e99631003ded1478aec62a02c245d88ed7f2fae92aedf13ca03b3",
		.ek_hash = "451f9b6547b8f6e927fbfe7598658160206040fdb57dd39ba8bf1f3a5ff89b9c",
		.dk_hash = "7f2dd0ad9dc1d87809d36fb96df939148006246af01591321f6f09609949b7e9",
		.ct_hash = "9eb061a5fb76505eefffdedea62615eab765aa3d89ff7f1f3df7d8142981a30b",
		.ss = "4f7cc64c040fc4e335a539691f4638caf8b1bf5da6455754afe699e41813801b",
	},
	{
		.name = "Go CAST",
		.d = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
		.z = "2122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f40",
		.m = "4142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f60",
		.ss = "5501fc523b745f41762a188de44a59b920f430146204ee4e793732396df7aa48",
	},
};

struct mlkem_accumulated {
	unsigned int iterations;
	const char *digest;
};

static const struct mlkem_accumulated mlkem_accumulated[] = {
	{ 100, "1114b1b6699ed191734fa339376afa7e285c9e6acf6ff0177d346696ce564415" },
	{ 10000, "8a518cc63da366322a8e7a818c7a0d63483cb3528d34a4cf42f35d5ad73f22fc" },
};

#endif /* _KTLS_HS_MLKEM_VECTORS_H */
