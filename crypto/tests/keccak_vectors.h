/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Known answers for crypto/keccak.c, shared by the KUnit suite
 * (crypto/tests/keccak_kunit.c) and the userspace tests
 * (tools/crypto/kat_keccak.c).  Digests are hex.
 *
 * The empty message and 200 bytes of 0xa3 (1600 bits, longer than every
 * rate) are NIST's "examples with intermediate values" for FIPS 202; the
 * SHAKE outputs are the first bytes of those examples, and the
 * squeeze vectors bytes 480 to 511 of the 4096-bit ones.  "abc", the 448-
 * and 896-bit messages and a million 'a' are the classic SHA test
 * messages, with their published SHA-3 digests.
 */
#ifndef _KTLS_HS_KECCAK_VECTORS_H
#define _KTLS_HS_KECCAK_VECTORS_H

/* @chunk absorbed @repeat times, in one call each */
struct keccak_vector {
	const char *name;
	const char *chunk;
	unsigned int chunk_len;
	unsigned int repeat;
	const char *sha3_256;
	const char *sha3_512;
	const char *shake128;	/* first 32 bytes */
	const char *shake256;	/* first 64 bytes */
};

static const struct keccak_vector keccak_vectors[] = {
	{
		.name = "empty message",
		.chunk = "", .chunk_len = 0, .repeat = 1,
		.sha3_256 = "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
		.sha3_512 =
			"a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
		.shake128 = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
		.shake256 =
			"46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be",
	},
	{
		.name = "abc",
		.chunk = "abc", .chunk_len = 3, .repeat = 1,
		.sha3_256 = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
		.sha3_512 =
			"b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
		.shake128 = "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8",
		.shake256 =
			"483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4",
	},
	{
		.name = "448 bits",
		.chunk = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		.chunk_len = 56, .repeat = 1,
		.sha3_256 = "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376",
		.sha3_512 =
			"04a371e84ecfb5b8b77cb48610fca8182dd457ce6f326a0fd3d7ec2f1e91636dee691fbe0c985302ba1b0d8dc78c086346b533b49c030d99a27daf1139d6e75e",
		.shake128 = "1a96182b50fb8c7e74e0a707788f55e98209b8d91fade8f32f8dd5cff7bf21f5",
		.shake256 =
			"4d8c2dd2435a0128eefbb8c36f6f87133a7911e18d979ee1ae6be5d4fd2e332940d8688a4e6a59aa8060f1f9bc996c05aca3c696a8b66279dc672c740bb224ec",
	},
	{
		.name = "896 bits",
		.chunk =
			"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		.chunk_len = 112, .repeat = 1,
		.sha3_256 = "916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18",
		.sha3_512 =
			"afebb2ef542e6579c50cad06d2e578f9f8dd6881d7dc824d26360feebf18a4fa73e3261122948efcfd492e74e82e2189ed0fb440d187f382270cb455f21dd185",
		.shake128 = "7b6df6ff181173b6d7898d7ff63fb07b7c237daf471a5ae5602adbccef9ccf4b",
		.shake256 =
			"98be04516c04cc73593fef3ed0352ea9f6443942d6950e29a372a681c3deaf4535423709b02843948684e029010badcc0acd8303fc85fdad3eabf4f78cae1656",
	},
	{
		.name = "1600 bits of 0xa3",
		.chunk = "\xa3\xa3\xa3\xa3\xa3", .chunk_len = 5, .repeat = 40,
		.sha3_256 = "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787",
		.sha3_512 =
			"e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca81b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00",
		.shake128 = "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037",
		.shake256 =
			"cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b",
	},
	{
		.name = "a million 'a'",
		.chunk = "aaaaaaaaaaaaaaaaaaaaaaaaa", .chunk_len = 25, .repeat = 40000,
		.sha3_256 = "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1",
		.sha3_512 =
			"3c3a876da14034ab60627c077bb98f7e120a2a5370212dffb3385a18d4f38859ed311d0a9d5141ce9cc5c66ee689b266a8aa18ace8282a0e0db596c90b0a7b87",
		.shake128 = "9d222c79c4ff9d092cf6ca86143aa411e369973808ef97093255826c5572ef58",
		.shake256 =
			"3578a7a4ca9137569cdf76ed617d31bb994fca9c1bbf8b184013de8234dfd13a3fd124d4df76c0a539ee7dd2f6e1ec346124c815d9410e145eb561bcd97b18ab",
	},
};

/* bytes 480..511 of SHAKE128("") and SHAKE256(""): many squeezes deep */
#define KECCAK_SQUEEZE_OFFSET	480
static const char keccak_shake128_squeeze[] =
	"43e41b45a653f2a5c4492c1add544512dda2529833462b71a41a45be97290b6f";
static const char keccak_shake256_squeeze[] =
	"ab0bae316339894304e35877b0c28a9b1fd166c796b9cc258a064a8f57e27f2a";

#endif /* _KTLS_HS_KECCAK_VECTORS_H */
