// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the handshake hashes and key derivation against published
 * vectors: HKDF (RFC 5869 appendix A), HMAC with an over-long key
 * (RFC 4231 4.7), the TLS 1.3 key schedule of the "Simple 1-RTT
 * Handshake" and "Resumed 0-RTT Handshake" traces of RFC 8448, the TLS 1.2
 * PRF vectors posted to the IETF TLS list, and the argument checks that
 * stand between a handshake state machine and an overrun.
 *
 * The vectors are data, transcribed from the documents named beside each
 * one.  The few without a published source (KeyUpdate, the
 * HelloRetryRequest transcript, the TLS 1.2 master secret, key_block,
 * Finished and extended master secret) were computed with Python's hmac
 * and hashlib and, for the PRF ones, agree with OpenSSL 3.0's
 * `openssl kdf TLS1-PRF`.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/hex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <ktls_hs/kdf.h>

#include "rfc8448_1rtt.h"

/* Decode a vector given in hex into test-managed memory. */
static u8 *kdf_hex(struct kunit *test, const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	u8 *buf;

	KUNIT_ASSERT_EQ(test, strlen(hex) % 2, 0);
	buf = kunit_kzalloc(test, n ?: 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, hex2bin(buf, hex, n), 0);
	if (len)
		*len = n;
	return buf;
}

/* The message names the vector, since the failing line is this one. */
static void kdf_expect_hex(struct kunit *test, const u8 *got, const char *hex)
{
	size_t n;
	const u8 *want = kdf_hex(test, hex, &n);

	KUNIT_EXPECT_MEMEQ_MSG(test, got, want, n, "expected %s", hex);
}

static const char sha256_empty[] =
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/*
 * RFC 8448 section 3, "Simple 1-RTT Handshake" (TLS_AES_128_GCM_SHA256,
 * x25519): every secret, key and IV of the schedule; the messages are in
 * rfc8448_1rtt.h.
 */
static const char rfc8448_early[] =
	"33ad0a1c607ec03b09e6cd9893680ce210adf300aa1f2660e1b22e10f170f92a";
static const char rfc8448_derived_early[] =
	"6f2615a108c702c5678f54fc9dbab69716c076189c48250cebeac3576c3611ba";
static const char rfc8448_shared[] =
	"8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d";
static const char rfc8448_hash_ch_sh[] =
	"860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8";
static const char rfc8448_handshake[] =
	"1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac";
static const char rfc8448_c_hs_traffic[] =
	"b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21";
static const char rfc8448_s_hs_traffic[] =
	"b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38";
static const char rfc8448_s_hs_key[] = "3fce516009c21727d0f2e4e86ee403bc";
static const char rfc8448_s_hs_iv[] = "5d313eb2671276ee13000b30";
static const char rfc8448_c_hs_key[] = "dbfaa693d1762c5b666af5d950258d01";
static const char rfc8448_c_hs_iv[] = "5bd3c71b836e0b76bb73265f";
static const char rfc8448_s_finished_key[] =
	"008d3b66f816ea559f96b537e885c31fc068bf492c652f01f288a1d8cdc19fc8";
static const char rfc8448_s_verify_data[] =
	"9b9b141d906337fbd2cbdce71df4deda4ab42c309572cb7fffee5454b78f0718";
static const char rfc8448_master[] =
	"18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919";
static const char rfc8448_hash_ch_sf[] =
	"9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13";
static const char rfc8448_c_ap_traffic[] =
	"9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5";
static const char rfc8448_s_ap_traffic[] =
	"a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643";
static const char rfc8448_exp_master[] =
	"fe22f881176eda18eb8f44529e6792c50c9a3f89452f68d8ae311b4309d3cf50";
static const char rfc8448_s_ap_key[] = "9f02283b6c9c07efc26bb9f2ac92e356";
static const char rfc8448_s_ap_iv[] = "cf782b88dd83549aadf1e984";
static const char rfc8448_c_ap_key[] = "17422dda596ed5d9acd890e3c63f5051";
static const char rfc8448_c_ap_iv[] = "5b78923dee08579033e523d9";
static const char rfc8448_c_finished_key[] =
	"b80ad01015fb2f0bd65ff7d4da5d6bf83f84821d1f87fdc7d3c75b5a7b42d9c4";
static const char rfc8448_c_verify_data[] =
	"a8ec436d677634ae525ac1fcebe11a039ec17694fac6e98527b642f2edd5ce61";
static const char rfc8448_hash_ch_cf[] =
	"209145a96ee8e2a122ff810047cc952684658d6049e86429426db87c54ad143d";
static const char rfc8448_res_master[] =
	"7df235f2031d2a051287d02b0241b0bfdaf86cc856231f2d5aba46c434ec196c";
/* NewSessionTicket ticket_nonce 00 00, and the PSK it yields */
static const char rfc8448_res_psk[] =
	"4ecd0eb6ec3b4d87f5d6028f922ca4c5851a277fd41311c9e62d2c9492e1c4f3";

/* RFC 8448 section 4, "Resumed 0-RTT Handshake": the PSK binder ... */
static const char rfc8448_res_early[] =
	"9b2188e9b2fc6d64d71dc329900e20bb41915000f678aa839cbb797cb7d8332c";
static const char rfc8448_binder_hash[] =
	"63224b2e4573f2d3454ca84b9d009a04f6be9e05711a8396473aefa01e924a14";
static const char rfc8448_res_binder_key[] =
	"69fe131a3bbad5d63c64eebcc30e395b9d8107726a13d074e389dbc8a4e47256";
static const char rfc8448_binder_finished_key[] =
	"5588673e72cb59c87d220caffe94f2dea9a3b1609f7d50e90a48227db9ed7eaa";
static const char rfc8448_binder[] =
	"3add4fb2d8fdf822a0ca3cf7678ef5e88dae990141c5924d57bb6fa31b9e5f9d";
/* ... and the early secrets, over the hash of the whole ClientHello */
static const char rfc8448_hash_ch_0rtt[] =
	"08ad0fa05d7c7233b1775ba2ff9f4c5b8b59276b7f227f13a976245f5d960913";
static const char rfc8448_c_e_traffic[] =
	"3fbbe6a60deb66c30a32795aba0eff7eaa10105586e7be5c09678d63b6caab62";
static const char rfc8448_e_exp_master[] =
	"b2026866610937d7423e5be90862ccf24c0e6091186d34f812089ff5be2ef7df";
static const char rfc8448_c_e_key[] = "920205a5b7bf2115e6fc5c2942834f54";
static const char rfc8448_c_e_iv[] = "6d475f0993c8e564610db2b9";

/* ---- HMAC and HKDF ---- */

struct hkdf_vector {
	const char *name;
	const u8 *ikm, *salt, *info, *prk, *okm;
	size_t ikm_len, salt_len, info_len, okm_len;
};

/* RFC 5869 appendix A, test cases 1-3 (SHA-256) */
static const u8 rfc5869_a1_ikm[] = {
	0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
	0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
};

static const u8 rfc5869_a1_salt[] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	0x0c,
};

static const u8 rfc5869_a1_info[] = {
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9,
};

static const u8 rfc5869_a1_prk[] = {
	0x07, 0x77, 0x09, 0x36, 0x2c, 0x2e, 0x32, 0xdf, 0x0d, 0xdc, 0x3f, 0x0d,
	0xc4, 0x7b, 0xba, 0x63, 0x90, 0xb6, 0xc7, 0x3b, 0xb5, 0x0f, 0x9c, 0x31,
	0x22, 0xec, 0x84, 0x4a, 0xd7, 0xc2, 0xb3, 0xe5,
};

static const u8 rfc5869_a1_okm[] = {
	0x3c, 0xb2, 0x5f, 0x25, 0xfa, 0xac, 0xd5, 0x7a, 0x90, 0x43, 0x4f, 0x64,
	0xd0, 0x36, 0x2f, 0x2a, 0x2d, 0x2d, 0x0a, 0x90, 0xcf, 0x1a, 0x5a, 0x4c,
	0x5d, 0xb0, 0x2d, 0x56, 0xec, 0xc4, 0xc5, 0xbf, 0x34, 0x00, 0x72, 0x08,
	0xd5, 0xb8, 0x87, 0x18, 0x58, 0x65,
};

static const u8 rfc5869_a2_ikm[] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
	0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23,
	0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x3b,
	0x3c, 0x3d, 0x3e, 0x3f, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47,
	0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f,
};

static const u8 rfc5869_a2_salt[] = {
	0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b,
	0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
	0x78, 0x79, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f, 0x80, 0x81, 0x82, 0x83,
	0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
	0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b,
	0x9c, 0x9d, 0x9e, 0x9f, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
};

static const u8 rfc5869_a2_info[] = {
	0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb,
	0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7,
	0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3,
	0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf,
	0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xeb,
	0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
	0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff,
};

static const u8 rfc5869_a2_prk[] = {
	0x06, 0xa6, 0xb8, 0x8c, 0x58, 0x53, 0x36, 0x1a, 0x06, 0x10, 0x4c, 0x9c,
	0xeb, 0x35, 0xb4, 0x5c, 0xef, 0x76, 0x00, 0x14, 0x90, 0x46, 0x71, 0x01,
	0x4a, 0x19, 0x3f, 0x40, 0xc1, 0x5f, 0xc2, 0x44,
};

static const u8 rfc5869_a2_okm[] = {
	0xb1, 0x1e, 0x39, 0x8d, 0xc8, 0x03, 0x27, 0xa1, 0xc8, 0xe7, 0xf7, 0x8c,
	0x59, 0x6a, 0x49, 0x34, 0x4f, 0x01, 0x2e, 0xda, 0x2d, 0x4e, 0xfa, 0xd8,
	0xa0, 0x50, 0xcc, 0x4c, 0x19, 0xaf, 0xa9, 0x7c, 0x59, 0x04, 0x5a, 0x99,
	0xca, 0xc7, 0x82, 0x72, 0x71, 0xcb, 0x41, 0xc6, 0x5e, 0x59, 0x0e, 0x09,
	0xda, 0x32, 0x75, 0x60, 0x0c, 0x2f, 0x09, 0xb8, 0x36, 0x77, 0x93, 0xa9,
	0xac, 0xa3, 0xdb, 0x71, 0xcc, 0x30, 0xc5, 0x81, 0x79, 0xec, 0x3e, 0x87,
	0xc1, 0x4c, 0x01, 0xd5, 0xc1, 0xf3, 0x43, 0x4f, 0x1d, 0x87,
};

static const u8 rfc5869_a3_ikm[] = {
	0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
	0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b, 0x0b,
};

static const u8 rfc5869_a3_prk[] = {
	0x19, 0xef, 0x24, 0xa3, 0x2c, 0x71, 0x7b, 0x16, 0x7f, 0x33, 0xa9, 0x1d,
	0x6f, 0x64, 0x8b, 0xdf, 0x96, 0x59, 0x67, 0x76, 0xaf, 0xdb, 0x63, 0x77,
	0xac, 0x43, 0x4c, 0x1c, 0x29, 0x3c, 0xcb, 0x04,
};

static const u8 rfc5869_a3_okm[] = {
	0x8d, 0xa4, 0xe7, 0x75, 0xa5, 0x63, 0xc1, 0x8f, 0x71, 0x5f, 0x80, 0x2a,
	0x06, 0x3c, 0x5a, 0x31, 0xb8, 0xa1, 0x1f, 0x5c, 0x5e, 0xe1, 0x87, 0x9e,
	0xc3, 0x45, 0x4e, 0x5f, 0x3c, 0x73, 0x8d, 0x2d, 0x9d, 0x20, 0x13, 0x95,
	0xfa, 0xa4, 0xb6, 0x1a, 0x96, 0xc8,
};

static const struct hkdf_vector hkdf_vectors[] = {
	{
		.name = "rfc5869_a1",
		.ikm = rfc5869_a1_ikm, .ikm_len = sizeof(rfc5869_a1_ikm),
		.salt = rfc5869_a1_salt, .salt_len = sizeof(rfc5869_a1_salt),
		.info = rfc5869_a1_info, .info_len = sizeof(rfc5869_a1_info),
		.prk = rfc5869_a1_prk,
		.okm = rfc5869_a1_okm, .okm_len = sizeof(rfc5869_a1_okm),
	},
	{
		.name = "rfc5869_a2",
		.ikm = rfc5869_a2_ikm, .ikm_len = sizeof(rfc5869_a2_ikm),
		.salt = rfc5869_a2_salt, .salt_len = sizeof(rfc5869_a2_salt),
		.info = rfc5869_a2_info, .info_len = sizeof(rfc5869_a2_info),
		.prk = rfc5869_a2_prk,
		.okm = rfc5869_a2_okm, .okm_len = sizeof(rfc5869_a2_okm),
	},
	{
		/* No salt and no info at all: passed as NULL, not as "" */
		.name = "rfc5869_a3",
		.ikm = rfc5869_a3_ikm, .ikm_len = sizeof(rfc5869_a3_ikm),
		.prk = rfc5869_a3_prk,
		.okm = rfc5869_a3_okm, .okm_len = sizeof(rfc5869_a3_okm),
	},
};

static void hkdf_vector_desc(const struct hkdf_vector *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hkdf_vector, hkdf_vectors, hkdf_vector_desc);

static void hkdf_rfc5869(struct kunit *test)
{
	const struct hkdf_vector *v = test->param_value;
	u8 prk[32], *okm;

	okm = kunit_kzalloc(test, v->okm_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, okm);

	KUNIT_ASSERT_EQ(test, ktls_hkdf_extract(KTLS_HASH_SHA256, v->salt,
						v->salt_len, v->ikm,
						v->ikm_len, prk, sizeof(prk)),
			0);
	KUNIT_EXPECT_MEMEQ(test, prk, v->prk, sizeof(prk));
	KUNIT_ASSERT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, prk,
					       sizeof(prk), v->info,
					       v->info_len, okm, v->okm_len),
			0);
	KUNIT_EXPECT_MEMEQ(test, okm, v->okm, v->okm_len);
}

/* RFC 4231 4.7: a key longer than the block is hashed first. */
static void hmac_long_key(struct kunit *test)
{
	static const char data[] =
		"Test Using Larger Than Block-Size Key - Hash Key First";
	struct ktls_hmac hmac;
	u8 key[131], out[KTLS_HASH_MAX_SIZE];

	memset(key, 0xaa, sizeof(key));

	KUNIT_ASSERT_EQ(test, ktls_hmac_setkey(&hmac, KTLS_HASH_SHA256, key,
					       sizeof(key)), 0);
	KUNIT_ASSERT_EQ(test, ktls_hmac(&hmac, (const u8 *)data,
					sizeof(data) - 1, out, 32), 0);
	kdf_expect_hex(test, out,
		       "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");

	KUNIT_ASSERT_EQ(test, ktls_hmac_setkey(&hmac, KTLS_HASH_SHA384, key,
					       sizeof(key)), 0);
	KUNIT_ASSERT_EQ(test, ktls_hmac(&hmac, (const u8 *)data,
					sizeof(data) - 1, out, 48), 0);
	kdf_expect_hex(test, out,
		       "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952");

	/* A wiped key is no key. */
	ktls_hmac_wipe(&hmac);
	KUNIT_EXPECT_EQ(test, ktls_hmac(&hmac, key, 1, out, 48), -EINVAL);
}

/*
 * HKDF-Expand-Label as RFC 8448 section 3 traces it: "derived" from the
 * early secret over the empty hash.
 */
static void hkdf_expand_label_rfc8448(struct kunit *test)
{
	u8 *early = kdf_hex(test, rfc8448_early, NULL);
	u8 *empty = kdf_hex(test, sha256_empty, NULL);
	u8 out[32];

	KUNIT_ASSERT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, early,
						     32, "derived", 7, empty,
						     32, out, sizeof(out)), 0);
	kdf_expect_hex(test, out, rfc8448_derived_early);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive_secret(KTLS_HASH_SHA256, early,
						       32, "derived", 7, empty,
						       32, out, sizeof(out)),
			0);
	kdf_expect_hex(test, out, rfc8448_derived_early);
}

/* The longest output HKDF allows, and that it extends the shorter ones. */
static void hkdf_expand_max(struct kunit *test)
{
	size_t max = 255 * 32;
	u8 prk[32], short_okm[42], *okm;

	memset(prk, 0x5a, sizeof(prk));
	okm = kunit_kzalloc(test, max + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, okm);

	KUNIT_ASSERT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, prk, 32,
					       NULL, 0, short_okm,
					       sizeof(short_okm)), 0);
	KUNIT_ASSERT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, prk, 32,
					       NULL, 0, okm, max), 0);
	KUNIT_EXPECT_MEMEQ(test, okm, short_okm, sizeof(short_okm));
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, prk, 32,
					       NULL, 0, okm, max + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA384, prk, 32,
					       NULL, 0, okm, 48), -EINVAL);
}

static void hkdf_bad_args(struct kunit *test)
{
	u8 secret[48] = {}, out[64], *ctx;
	char *label;

	label = kunit_kzalloc(test, 256, GFP_KERNEL);
	ctx = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, label);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	memset(label, 'a', 256);

	/* No such hash */
	KUNIT_EXPECT_EQ(test, ktls_hash_size(KTLS_HASH_NONE), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hash_size(KTLS_HASH_NR), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_extract(KTLS_HASH_NONE, NULL, 0,
						secret, 32, out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_extract(KTLS_HASH_NR, NULL, 0,
						secret, 32, out, 32), -EINVAL);

	/* PRK buffer of the wrong size, input without a buffer */
	KUNIT_EXPECT_EQ(test, ktls_hkdf_extract(KTLS_HASH_SHA256, NULL, 0,
						secret, 32, out, 48), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_extract(KTLS_HASH_SHA384, NULL, 0,
						secret, 32, out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_extract(KTLS_HASH_SHA256, NULL, 0,
						NULL, 32, out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_extract(KTLS_HASH_SHA256, NULL, 5,
						secret, 32, out, 32), -EINVAL);

	/* Expand: no output, PRK shorter than HashLen, info without buffer */
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, secret, 32,
					       NULL, 0, out, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, secret, 31,
					       NULL, 0, out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, NULL, 32,
					       NULL, 0, out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand(KTLS_HASH_SHA256, secret, 32,
					       NULL, 3, out, 32), -EINVAL);

	/* Labels: "tls13 " plus at most 249 bytes, and never empty */
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, label,
						     KTLS_TLS13_LABEL_MAX, NULL,
						     0, out, 32), 0);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, label,
						     KTLS_TLS13_LABEL_MAX + 1,
						     NULL, 0, out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, label, 0, NULL, 0,
						     out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, NULL, 3, NULL, 0,
						     out, 32), -EINVAL);

	/* Context of at most 255 bytes; Length fits in 16 bits */
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, "key", 3, ctx, 255,
						     out, 32), 0);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, "key", 3, ctx, 256,
						     out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA256, secret,
						     32, "key", 3, NULL, 1,
						     out, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_hkdf_expand_label(KTLS_HASH_SHA384, secret,
						     48, "key", 3, NULL, 0,
						     out, 65536), -EINVAL);

	/* Derive-Secret: secret, transcript hash and output are HashLen */
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive_secret(KTLS_HASH_SHA256,
						       secret, 48, "derived",
						       7, ctx, 32, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive_secret(KTLS_HASH_SHA256,
						       secret, 32, "derived",
						       7, ctx, 48, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive_secret(KTLS_HASH_SHA256,
						       secret, 32, "derived",
						       7, ctx, 32, out, 16),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive_secret(KTLS_HASH_SHA256,
						       secret, 32, "derived",
						       7, NULL, 32, out, 32),
			-EINVAL);

	/* HMAC: key length without a key, output of the wrong size */
	{
		struct ktls_hmac hmac;

		KUNIT_EXPECT_EQ(test, ktls_hmac_setkey(&hmac, KTLS_HASH_SHA256,
						       NULL, 4), -EINVAL);
		KUNIT_EXPECT_EQ(test, ktls_hmac_setkey(&hmac, KTLS_HASH_NONE,
						       secret, 4), -EINVAL);
		KUNIT_ASSERT_EQ(test, ktls_hmac_setkey(&hmac, KTLS_HASH_SHA256,
						       secret, 4), 0);
		KUNIT_EXPECT_EQ(test, ktls_hmac(&hmac, secret, 4, out, 48),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, ktls_hmac(&hmac, NULL, 4, out, 32),
				-EINVAL);
		ktls_hmac_wipe(&hmac);
	}
}

static struct kunit_case hkdf_cases[] = {
	KUNIT_CASE_PARAM(hkdf_rfc5869, hkdf_vector_gen_params),
	KUNIT_CASE(hmac_long_key),
	KUNIT_CASE(hkdf_expand_label_rfc8448),
	KUNIT_CASE(hkdf_expand_max),
	KUNIT_CASE(hkdf_bad_args),
	{}
};

static struct kunit_suite hkdf_suite = {
	.name = "ktls_hs_hkdf",
	.test_cases = hkdf_cases,
};

/* ---- TLS 1.3 key schedule ---- */

struct tls13_ctx {
	struct kunit *test;
	struct ktls_transcript t;
	u8 th[32];
};

static void tls13_feed(struct tls13_ctx *c, const u8 *msg, size_t len)
{
	KUNIT_ASSERT_EQ(c->test, ktls_transcript_update(&c->t, msg, len), 0);
	KUNIT_ASSERT_EQ(c->test, ktls_transcript_digest(&c->t, c->th,
							sizeof(c->th)), 0);
}

static void tls13_expect_keys(struct kunit *test, const u8 *secret,
			      const char *key_hex, const char *iv_hex)
{
	u8 key[16], iv[12];

	KUNIT_ASSERT_EQ(test, ktls_tls13_traffic_keys(KTLS_HASH_SHA256, secret,
						      32, key, sizeof(key),
						      iv, sizeof(iv)), 0);
	kdf_expect_hex(test, key, key_hex);
	kdf_expect_hex(test, iv, iv_hex);
}

/*
 * The whole server side of RFC 8448 section 3, driven by its messages:
 * every Transcript-Hash comes from our transcript, every secret from the
 * one before it.
 */
static void tls13_rfc8448_1rtt(struct kunit *test)
{
	const enum ktls_hash h = KTLS_HASH_SHA256;
	struct tls13_ctx c = { .test = test };
	u8 early[32], hs[32], master[32], c_hs[32], s_hs[32];
	u8 c_ap[32], s_ap[32], secret[32], vd[32];
	u8 *shared = kdf_hex(test, rfc8448_shared, NULL);

	KUNIT_ASSERT_EQ(test, ktls_tls13_early_secret(h, NULL, 0, early, 32),
			0);
	kdf_expect_hex(test, early, rfc8448_early);

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&c.t, h), 0);
	tls13_feed(&c, rfc8448_client_hello, sizeof(rfc8448_client_hello));
	tls13_feed(&c, rfc8448_server_hello, sizeof(rfc8448_server_hello));
	kdf_expect_hex(test, c.th, rfc8448_hash_ch_sh);

	KUNIT_ASSERT_EQ(test, ktls_tls13_handshake_secret(h, early, 32, shared,
							  32, hs, 32), 0);
	kdf_expect_hex(test, hs, rfc8448_handshake);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_C_HS_TRAFFIC, hs,
						32, c.th, 32, c_hs, 32), 0);
	kdf_expect_hex(test, c_hs, rfc8448_c_hs_traffic);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_S_HS_TRAFFIC, hs,
						32, c.th, 32, s_hs, 32), 0);
	kdf_expect_hex(test, s_hs, rfc8448_s_hs_traffic);
	tls13_expect_keys(test, s_hs, rfc8448_s_hs_key, rfc8448_s_hs_iv);
	tls13_expect_keys(test, c_hs, rfc8448_c_hs_key, rfc8448_c_hs_iv);

	KUNIT_ASSERT_EQ(test, ktls_tls13_master_secret(h, hs, 32, master, 32),
			0);
	kdf_expect_hex(test, master, rfc8448_master);

	/* Server Finished over ClientHello..CertificateVerify */
	tls13_feed(&c, rfc8448_encrypted_extensions,
		   sizeof(rfc8448_encrypted_extensions));
	tls13_feed(&c, rfc8448_certificate, sizeof(rfc8448_certificate));
	tls13_feed(&c, rfc8448_certificate_verify,
		   sizeof(rfc8448_certificate_verify));
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished_key(h, s_hs, 32, secret, 32),
			0);
	kdf_expect_hex(test, secret, rfc8448_s_finished_key);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished(h, s_hs, 32, c.th, 32, vd,
						  32), 0);
	kdf_expect_hex(test, vd, rfc8448_s_verify_data);
	/* ... which is also what the Finished message carries */
	KUNIT_EXPECT_MEMEQ(test, vd, rfc8448_server_finished + 4, 32);

	tls13_feed(&c, rfc8448_server_finished,
		   sizeof(rfc8448_server_finished));
	kdf_expect_hex(test, c.th, rfc8448_hash_ch_sf);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_C_AP_TRAFFIC,
						master, 32, c.th, 32, c_ap, 32),
			0);
	kdf_expect_hex(test, c_ap, rfc8448_c_ap_traffic);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_S_AP_TRAFFIC,
						master, 32, c.th, 32, s_ap, 32),
			0);
	kdf_expect_hex(test, s_ap, rfc8448_s_ap_traffic);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_EXP_MASTER,
						master, 32, c.th, 32, secret,
						32), 0);
	kdf_expect_hex(test, secret, rfc8448_exp_master);
	tls13_expect_keys(test, s_ap, rfc8448_s_ap_key, rfc8448_s_ap_iv);
	tls13_expect_keys(test, c_ap, rfc8448_c_ap_key, rfc8448_c_ap_iv);

	/* The client's Finished, checked as the server checks it */
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished_key(h, c_hs, 32, secret, 32),
			0);
	kdf_expect_hex(test, secret, rfc8448_c_finished_key);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished(h, c_hs, 32, c.th, 32, vd,
						  32), 0);
	kdf_expect_hex(test, vd, rfc8448_c_verify_data);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_check(h, c_hs, 32, c.th, 32,
							rfc8448_client_finished + 4,
							32), 0);
	vd[31] ^= 1;
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_check(h, c_hs, 32, c.th, 32,
							vd, 32), -EBADMSG);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_check(h, c_hs, 32, c.th, 32,
							rfc8448_client_finished + 4,
							31), -EBADMSG);

	tls13_feed(&c, rfc8448_client_finished,
		   sizeof(rfc8448_client_finished));
	kdf_expect_hex(test, c.th, rfc8448_hash_ch_cf);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_RES_MASTER,
						master, 32, c.th, 32, secret,
						32), 0);
	kdf_expect_hex(test, secret, rfc8448_res_master);

	/* The ticket of section 3 has ticket_nonce 00 00. */
	KUNIT_ASSERT_EQ(test, ktls_tls13_resumption_psk(h, secret, 32,
							(const u8 *)"\0\0", 2,
							vd, 32), 0);
	kdf_expect_hex(test, vd, rfc8448_res_psk);
	ktls_transcript_wipe(&c.t);
}

/*
 * RFC 8448 section 4: the early secret of the resumption PSK, its binder
 * key and binder, and the early traffic and exporter secrets.
 */
static void tls13_rfc8448_0rtt(struct kunit *test)
{
	const enum ktls_hash h = KTLS_HASH_SHA256;
	u8 *psk = kdf_hex(test, rfc8448_res_psk, NULL);
	u8 *binder_hash = kdf_hex(test, rfc8448_binder_hash, NULL);
	u8 *binder = kdf_hex(test, rfc8448_binder, NULL);
	u8 *ch_hash = kdf_hex(test, rfc8448_hash_ch_0rtt, NULL);
	u8 early[32], bkey[32], out[32];

	KUNIT_ASSERT_EQ(test, ktls_tls13_early_secret(h, psk, 32, early, 32),
			0);
	kdf_expect_hex(test, early, rfc8448_res_early);
	KUNIT_ASSERT_EQ(test, ktls_tls13_binder_key(h, early, 32, true, bkey,
						    32), 0);
	kdf_expect_hex(test, bkey, rfc8448_res_binder_key);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished_key(h, bkey, 32, out, 32), 0);
	kdf_expect_hex(test, out, rfc8448_binder_finished_key);
	KUNIT_ASSERT_EQ(test, ktls_tls13_finished(h, bkey, 32, binder_hash, 32,
						  out, 32), 0);
	kdf_expect_hex(test, out, rfc8448_binder);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_check(h, bkey, 32,
							binder_hash, 32,
							binder, 32), 0);

	/* An external PSK's binder key differs by its label. */
	KUNIT_ASSERT_EQ(test, ktls_tls13_binder_key(h, early, 32, false, out,
						    32), 0);
	KUNIT_EXPECT_MEMNEQ(test, out, bkey, 32);

	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_E_EXP_MASTER,
						early, 32, ch_hash, 32, out,
						32), 0);
	kdf_expect_hex(test, out, rfc8448_e_exp_master);
	KUNIT_ASSERT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_C_E_TRAFFIC,
						early, 32, ch_hash, 32, out,
						32), 0);
	kdf_expect_hex(test, out, rfc8448_c_e_traffic);
	tls13_expect_keys(test, out, rfc8448_c_e_key, rfc8448_c_e_iv);
}

/*
 * KeyUpdate from the server application traffic secret of RFC 8448
 * section 3 (the trace has no KeyUpdate; computed with Python), in place
 * as the record layer will call it.
 */
static void tls13_key_update(struct kunit *test)
{
	u8 *secret = kdf_hex(test, rfc8448_s_ap_traffic, NULL);
	u8 next[32];

	KUNIT_ASSERT_EQ(test, ktls_tls13_next_secret(KTLS_HASH_SHA256, secret,
						     32, next, 32), 0);
	kdf_expect_hex(test, next,
		       "51921b8aa3001976eb401d0a4319a8516416a6c56001a357e5d162031e84f916");
	KUNIT_ASSERT_EQ(test, ktls_tls13_next_secret(KTLS_HASH_SHA256, secret,
						     32, secret, 32), 0);
	KUNIT_EXPECT_MEMEQ(test, secret, next, 32);
}

/*
 * What the record layer does on each KeyUpdate of a kernel handshake's
 * socket: the next secret in place, then its key and iv.  Two
 * generations from the RFC 8448 server secret, and one SHA-384
 * generation from the bytes 0x30..0x5f; computed with Python's
 * cryptography HKDFExpand and the HkdfLabel of RFC 8446 7.1.
 */
static void tls13_key_update_generations(struct kunit *test)
{
	u8 *secret = kdf_hex(test, rfc8448_s_ap_traffic, NULL);
	u8 s384[48], key[32], iv[12];
	unsigned int i;

	for (i = 0; i < 2; i++)
		KUNIT_ASSERT_EQ(test, ktls_tls13_next_secret(KTLS_HASH_SHA256,
							     secret, 32,
							     secret, 32), 0);
	kdf_expect_hex(test, secret,
		       "6418ddd5d277cde37bfaae96363a805a95abfaa55ccd80713848de187fb082f6");
	tls13_expect_keys(test, secret, "65b9c2b0f1a857bc47aac35f79d007c8",
			  "3945073c176791288c5d8ce5");

	for (i = 0; i < sizeof(s384); i++)
		s384[i] = 0x30 + i;
	KUNIT_ASSERT_EQ(test, ktls_tls13_next_secret(KTLS_HASH_SHA384, s384,
						     48, s384, 48), 0);
	/* In two halves, to keep within 100 columns. */
	kdf_expect_hex(test, s384,
		       "d6bb23cff8ddf16c731f2a3eb1af12bf284e56405dc091ec");
	kdf_expect_hex(test, s384 + 24,
		       "eeeffd0df56e6afbcbbc7ad7c5bae8e3557d527bb226acbd");
	KUNIT_ASSERT_EQ(test, ktls_tls13_traffic_keys(KTLS_HASH_SHA384, s384,
						      48, key, 32, iv, 12), 0);
	kdf_expect_hex(test, key,
		       "5115c1b05c3aa4b738df9e5264d0a995d1a129dade4dd5883c68e37f567229c8");
	kdf_expect_hex(test, iv, "344bf53c18088cbb5d1d2c3a");
}

/*
 * The handshake runs in softirq context: derive with bottom halves off,
 * where DEBUG_ATOMIC_SLEEP reports any sleep or GFP_KERNEL allocation.
 */
static void tls13_bh_disabled(struct kunit *test)
{
	const enum ktls_hash h = KTLS_HASH_SHA256;
	u8 *shared = kdf_hex(test, rfc8448_shared, NULL);
	u8 early[32], hs[32], th[32], s_hs[32], key[16], iv[12];
	struct ktls_transcript t;
	int err;

	local_bh_disable();
	err = ktls_transcript_init(&t, h);
	if (!err)
		err = ktls_transcript_update(&t, rfc8448_client_hello,
					     sizeof(rfc8448_client_hello));
	if (!err)
		err = ktls_transcript_update(&t, rfc8448_server_hello,
					     sizeof(rfc8448_server_hello));
	if (!err)
		err = ktls_transcript_digest(&t, th, 32);
	if (!err)
		err = ktls_tls13_early_secret(h, NULL, 0, early, 32);
	if (!err)
		err = ktls_tls13_handshake_secret(h, early, 32, shared, 32, hs,
						  32);
	if (!err)
		err = ktls_tls13_derive(h, KTLS_TLS13_S_HS_TRAFFIC, hs, 32,
					th, 32, s_hs, 32);
	if (!err)
		err = ktls_tls13_traffic_keys(h, s_hs, 32, key, 16, iv, 12);
	local_bh_enable();

	KUNIT_ASSERT_EQ(test, err, 0);
	kdf_expect_hex(test, s_hs, rfc8448_s_hs_traffic);
	kdf_expect_hex(test, key, rfc8448_s_hs_key);
	kdf_expect_hex(test, iv, rfc8448_s_hs_iv);
}

static void tls13_bad_args(struct kunit *test)
{
	const enum ktls_hash h = KTLS_HASH_SHA256;
	u8 secret[48] = {}, th[48] = {}, out[48], iv[12];
	u8 nonce[256] = {};

	KUNIT_EXPECT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_SECRET_NR,
						secret, 32, th, 32, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive(h, KTLS_TLS13_C_HS_TRAFFIC,
						secret, 48, th, 32, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive(KTLS_HASH_SHA384,
						KTLS_TLS13_C_HS_TRAFFIC,
						secret, 48, th, 32, out, 48),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_derive(KTLS_HASH_NONE,
						KTLS_TLS13_C_HS_TRAFFIC,
						secret, 32, th, 32, out, 32),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, ktls_tls13_early_secret(h, NULL, 32, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_early_secret(h, NULL, 0, out, 48),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_handshake_secret(h, secret, 31,
							  secret, 32, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_handshake_secret(h, secret, 32,
							  NULL, 32, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_master_secret(h, secret, 32, out, 16),
			-EINVAL);

	/* Key of no length, IV shorter than the 8 bytes of RFC 8446 5.3 */
	KUNIT_EXPECT_EQ(test, ktls_tls13_traffic_keys(h, secret, 32, out, 0,
						      iv, 12), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_traffic_keys(h, secret, 32, out, 16,
						      iv, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_traffic_keys(h, secret, 48, out, 16,
						      iv, 12), -EINVAL);

	KUNIT_EXPECT_EQ(test, ktls_tls13_next_secret(h, secret, 32, out, 48),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_key(h, secret, 48, out, 32),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished(h, secret, 32, th, 48, out,
						  32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished(h, secret, 32, th, 32, out,
						  12), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_finished_check(h, secret, 32, th, 32,
							NULL, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls13_binder_key(h, secret, 48, true, out,
						    32), -EINVAL);

	/* ticket_nonce<0..255> */
	KUNIT_EXPECT_EQ(test, ktls_tls13_resumption_psk(h, secret, 32, nonce,
							255, out, 32), 0);
	KUNIT_EXPECT_EQ(test, ktls_tls13_resumption_psk(h, secret, 32, nonce,
							256, out, 32), -EINVAL);
}

static struct kunit_case tls13_cases[] = {
	KUNIT_CASE(tls13_rfc8448_1rtt),
	KUNIT_CASE(tls13_rfc8448_0rtt),
	KUNIT_CASE(tls13_key_update),
	KUNIT_CASE(tls13_key_update_generations),
	KUNIT_CASE(tls13_bh_disabled),
	KUNIT_CASE(tls13_bad_args),
	{}
};

static struct kunit_suite tls13_suite = {
	.name = "ktls_hs_tls13_keys",
	.test_cases = tls13_cases,
};

/* ---- TLS 1.2 PRF ---- */

/*
 * The P_SHA256 and P_SHA384 vectors posted to the IETF TLS list,
 * https://www.ietf.org/mail-archive/web/tls/current/msg03416.html
 */
static const u8 prf_sha256_out[100] = {
	0xe3, 0xf2, 0x29, 0xba, 0x72, 0x7b, 0xe1, 0x7b, 0x8d, 0x12, 0x26, 0x20,
	0x55, 0x7c, 0xd4, 0x53, 0xc2, 0xaa, 0xb2, 0x1d, 0x07, 0xc3, 0xd4, 0x95,
	0x32, 0x9b, 0x52, 0xd4, 0xe6, 0x1e, 0xdb, 0x5a, 0x6b, 0x30, 0x17, 0x91,
	0xe9, 0x0d, 0x35, 0xc9, 0xc9, 0xa4, 0x6b, 0x4e, 0x14, 0xba, 0xf9, 0xaf,
	0x0f, 0xa0, 0x22, 0xf7, 0x07, 0x7d, 0xef, 0x17, 0xab, 0xfd, 0x37, 0x97,
	0xc0, 0x56, 0x4b, 0xab, 0x4f, 0xbc, 0x91, 0x66, 0x6e, 0x9d, 0xef, 0x9b,
	0x97, 0xfc, 0xe3, 0x4f, 0x79, 0x67, 0x89, 0xba, 0xa4, 0x80, 0x82, 0xd1,
	0x22, 0xee, 0x42, 0xc5, 0xa7, 0x2e, 0x5a, 0x51, 0x10, 0xff, 0xf7, 0x01,
	0x87, 0x34, 0x7b, 0x66,
};

static const u8 prf_sha384_out[148] = {
	0x7b, 0x0c, 0x18, 0xe9, 0xce, 0xd4, 0x10, 0xed, 0x18, 0x04, 0xf2, 0xcf,
	0xa3, 0x4a, 0x33, 0x6a, 0x1c, 0x14, 0xdf, 0xfb, 0x49, 0x00, 0xbb, 0x5f,
	0xd7, 0x94, 0x21, 0x07, 0xe8, 0x1c, 0x83, 0xcd, 0xe9, 0xca, 0x0f, 0xaa,
	0x60, 0xbe, 0x9f, 0xe3, 0x4f, 0x82, 0xb1, 0x23, 0x3c, 0x91, 0x46, 0xa0,
	0xe5, 0x34, 0xcb, 0x40, 0x0f, 0xed, 0x27, 0x00, 0x88, 0x4f, 0x9d, 0xc2,
	0x36, 0xf8, 0x0e, 0xdd, 0x8b, 0xfa, 0x96, 0x11, 0x44, 0xc9, 0xe8, 0xd7,
	0x92, 0xec, 0xa7, 0x22, 0xa7, 0xb3, 0x2f, 0xc3, 0xd4, 0x16, 0xd4, 0x73,
	0xeb, 0xc2, 0xc5, 0xfd, 0x4a, 0xbf, 0xda, 0xd0, 0x5d, 0x91, 0x84, 0x25,
	0x9b, 0x5b, 0xf8, 0xcd, 0x4d, 0x90, 0xfa, 0x0d, 0x31, 0xe2, 0xde, 0xc4,
	0x79, 0xe4, 0xf1, 0xa2, 0x60, 0x66, 0xf2, 0xee, 0xa9, 0xa6, 0x92, 0x36,
	0xa3, 0xe5, 0x26, 0x55, 0xc9, 0xe9, 0xae, 0xe6, 0x91, 0xc8, 0xf3, 0xa2,
	0x68, 0x54, 0x30, 0x8d, 0x5e, 0xaa, 0x3b, 0xe8, 0x5e, 0x09, 0x90, 0x70,
	0x3d, 0x73, 0xe5, 0x6f,
};

static void tls12_prf_ietf(struct kunit *test)
{
	u8 *secret, *seed, out[148];

	secret = kdf_hex(test, "9bbe436ba940f017b17652849a71db35", NULL);
	seed = kdf_hex(test, "a0ba9f936cda311827a6f796ffd5198c", NULL);
	KUNIT_ASSERT_EQ(test, ktls_tls12_prf(KTLS_HASH_SHA256, secret, 16,
					     "test label", 10, seed, 16, out,
					     sizeof(prf_sha256_out)), 0);
	KUNIT_EXPECT_MEMEQ(test, out, prf_sha256_out, sizeof(prf_sha256_out));

	secret = kdf_hex(test, "b80b733d6ceefcdc71566ea48e5567df", NULL);
	seed = kdf_hex(test, "cd665cf6a8447dd6ff8b27555edb7465", NULL);
	KUNIT_ASSERT_EQ(test, ktls_tls12_prf(KTLS_HASH_SHA384, secret, 16,
					     "test label", 10, seed, 16, out,
					     sizeof(prf_sha384_out)), 0);
	KUNIT_EXPECT_MEMEQ(test, out, prf_sha384_out, sizeof(prf_sha384_out));

	/* A prefix of the output is the output of a shorter request. */
	KUNIT_ASSERT_EQ(test, ktls_tls12_prf(KTLS_HASH_SHA384, secret, 16,
					     "test label", 10, seed, 16, out,
					     1), 0);
	KUNIT_EXPECT_EQ(test, out[0], prf_sha384_out[0]);
}

/*
 * A TLS 1.2 handshake's secrets from a 48-byte premaster secret
 * 03 03 40 41 .. 6d, client random 00 .. 1f and server random 80 .. 9f;
 * the session hash is SHA-256 or SHA-384 of the text below.
 */
static const u8 tls12_session[] = "ktls-hs extended master secret session";

static void tls12_randoms(u8 *pms, u8 *cr, u8 *sr)
{
	int i;

	pms[0] = 3;
	pms[1] = 3;
	for (i = 2; i < KTLS_TLS12_MASTER_SIZE; i++)
		pms[i] = 0x40 + i - 2;
	for (i = 0; i < KTLS_TLS12_RANDOM_SIZE; i++) {
		cr[i] = i;
		sr[i] = 0x80 + i;
	}
}

static void tls12_handshake_secrets(struct kunit *test)
{
	const enum ktls_hash h = KTLS_HASH_SHA256;
	u8 pms[48], cr[32], sr[32], ms[48], kb[40], sh[32], vd[12];

	tls12_randoms(pms, cr, sr);
	KUNIT_ASSERT_EQ(test, ktls_tls12_master_secret(h, pms, 48, cr, sr, ms,
						       48), 0);
	kdf_expect_hex(test, ms,
		       "4640ee837f25f968e75119925e65ef2e0b5afc5dbeaf7cd481aa6ac790cb7fe339587ad22bc0814d5e61fcdf09b598cc");

	/* AES-128-GCM: two 16-byte keys and two 4-byte salts */
	KUNIT_ASSERT_EQ(test, ktls_tls12_key_block(h, ms, 48, cr, sr, kb, 40),
			0);
	kdf_expect_hex(test, kb,
		       "d50feaf882c970809c5ee4ad679825e08f9b7703f590ce40a818bbfa3f48ada349300fd0ed991415");

	KUNIT_ASSERT_EQ(test, ktls_hash_digest(h, tls12_session,
					       sizeof(tls12_session) - 1, sh,
					       32), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls12_finished(h, ms, 48, true, sh, 32, vd,
						  12), 0);
	kdf_expect_hex(test, vd, "31dcc8f5a3ebdda15441208a");
	KUNIT_ASSERT_EQ(test, ktls_tls12_finished(h, ms, 48, false, sh, 32, vd,
						  12), 0);
	kdf_expect_hex(test, vd, "27ce71917ee64eb6c03caaa1");
}

/* RFC 7627: the session hash comes from the running transcript. */
static void tls12_extended_master_secret(struct kunit *test)
{
	u8 pms[48], cr[32], sr[32], ms[48], sh[48];
	struct ktls_transcript t;

	tls12_randoms(pms, cr, sr);

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA256), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, tls12_session,
						     sizeof(tls12_session) - 1),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, sh, 32), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls12_extended_master_secret(KTLS_HASH_SHA256,
								pms, 48, sh,
								32, ms, 48),
			0);
	kdf_expect_hex(test, ms,
		       "2e42ad1d2d205d13ea47d3b47357ea076510bdbc82d3ff5a228333d0a98df32b812cbc60472d3f1d0172953861694e98");

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA384), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, tls12_session,
						     sizeof(tls12_session) - 1),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, sh, 48), 0);
	KUNIT_ASSERT_EQ(test, ktls_tls12_extended_master_secret(KTLS_HASH_SHA384,
								pms, 48, sh,
								48, ms, 48),
			0);
	kdf_expect_hex(test, ms,
		       "4e86e3aa79314cfcdca778d39a36c97578bb2357fb29c9268499cb943f008fb5ef82c048e85144856c5cc1498f564267");
}

static void tls12_bad_args(struct kunit *test)
{
	const enum ktls_hash h = KTLS_HASH_SHA256;
	u8 pms[48] = {}, r[32] = {}, sh[48] = {}, out[64];

	KUNIT_EXPECT_EQ(test, ktls_tls12_prf(h, pms, 48, "", 0, r, 32, out,
					     32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_prf(h, pms, 48, "x", 1, r, 32, out,
					     0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_prf(h, pms, 48, "x", 1, NULL, 32, out,
					     32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_prf(KTLS_HASH_NONE, pms, 48, "x", 1,
					     r, 32, out, 32), -EINVAL);

	KUNIT_EXPECT_EQ(test, ktls_tls12_master_secret(h, pms, 48, r, r, out,
						       47), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_master_secret(h, pms, 0, r, r, out,
						       48), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_extended_master_secret(h, pms, 48, sh,
								48, out, 48),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_extended_master_secret(h, pms, 48,
								NULL, 32, out,
								48), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_key_block(h, pms, 32, r, r, out, 40),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_key_block(h, pms, 48, r, r, out, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_finished(h, pms, 48, true, sh, 32,
						  out, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_tls12_finished(KTLS_HASH_SHA384, pms, 48,
						  true, sh, 32, out, 12),
			-EINVAL);
}

static struct kunit_case tls12_cases[] = {
	KUNIT_CASE(tls12_prf_ietf),
	KUNIT_CASE(tls12_handshake_secrets),
	KUNIT_CASE(tls12_extended_master_secret),
	KUNIT_CASE(tls12_bad_args),
	{}
};

static struct kunit_suite tls12_suite = {
	.name = "ktls_hs_tls12_prf",
	.test_cases = tls12_cases,
};

/* ---- transcript ---- */

/* Snapshots leave the running hash alone; clones run on independently. */
static void transcript_snapshot_clone(struct kunit *test)
{
	struct ktls_transcript t, at_sh;
	u8 th[32];

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA256), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_client_hello,
						     sizeof(rfc8448_client_hello)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_server_hello,
						     sizeof(rfc8448_server_hello)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 32), 0);
	kdf_expect_hex(test, th, rfc8448_hash_ch_sh);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 32), 0);
	kdf_expect_hex(test, th, rfc8448_hash_ch_sh);

	ktls_transcript_clone(&at_sh, &t);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_encrypted_extensions,
						     sizeof(rfc8448_encrypted_extensions)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&at_sh, th, 32), 0);
	kdf_expect_hex(test, th, rfc8448_hash_ch_sh);

	/* The certificate in uneven pieces, across block boundaries */
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_certificate,
						     1), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_certificate + 1,
						     0), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_certificate + 1,
						     70), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_certificate + 71,
						     sizeof(rfc8448_certificate) - 71),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_certificate_verify,
						     sizeof(rfc8448_certificate_verify)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_server_finished,
						     sizeof(rfc8448_server_finished)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 32), 0);
	kdf_expect_hex(test, th, rfc8448_hash_ch_sf);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t,
						     rfc8448_client_finished,
						     sizeof(rfc8448_client_finished)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 32), 0);
	kdf_expect_hex(test, th, rfc8448_hash_ch_cf);

	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&at_sh, th, 32), 0);
	kdf_expect_hex(test, th, rfc8448_hash_ch_sh);
}

/* SHA-384 "abc" of FIPS 180-2, fed in two pieces */
static void transcript_sha384(struct kunit *test)
{
	struct ktls_transcript t;
	u8 th[48];

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA384), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, (const u8 *)"a", 1), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, (const u8 *)"bc", 2), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 48), 0);
	kdf_expect_hex(test, th,
		       "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
	KUNIT_ASSERT_EQ(test, ktls_hash_digest(KTLS_HASH_SHA384,
					       (const u8 *)"abc", 3, th, 48), 0);
	kdf_expect_hex(test, th,
		       "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
}

/*
 * RFC 8446 4.4.1: after a HelloRetryRequest, ClientHello1 counts as
 * message_hash(Hash(ClientHello1)).  With the RFC 8448 ClientHello as
 * ClientHello1 and its ServerHello after, computed with Python.
 */
static void transcript_hrr(struct kunit *test)
{
	struct ktls_transcript t;
	u8 th[48];

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA256), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_client_hello,
						     sizeof(rfc8448_client_hello)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_hrr(&t), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_server_hello,
						     sizeof(rfc8448_server_hello)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 32), 0);
	kdf_expect_hex(test, th,
		       "0caf860aaed3150fe14a74611154836a98e5bcb2c5f8015493c650698eaee18a");

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA384), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_client_hello,
						     sizeof(rfc8448_client_hello)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_hrr(&t), 0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_update(&t, rfc8448_server_hello,
						     sizeof(rfc8448_server_hello)),
			0);
	KUNIT_ASSERT_EQ(test, ktls_transcript_digest(&t, th, 48), 0);
	kdf_expect_hex(test, th,
		       "b77142d515303921c9bb64ffcb671098478ad4672804f78b6de7b09e343abb0767da0bc8796eab8fd1786f636f8f99d1");
}

static void transcript_bad_args(struct kunit *test)
{
	struct ktls_transcript t = {};
	u8 th[48] = {};

	/* Never set up, or wiped: refused */
	KUNIT_EXPECT_EQ(test, ktls_transcript_update(&t, th, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_digest(&t, th, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_hrr(&t), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_NONE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_NR), -EINVAL);

	KUNIT_ASSERT_EQ(test, ktls_transcript_init(&t, KTLS_HASH_SHA256), 0);
	KUNIT_EXPECT_EQ(test, ktls_transcript_update(&t, NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_update(&t, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, ktls_transcript_digest(&t, th, 48), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_digest(&t, NULL, 32), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_digest(&t, th, 32), 0);
	kdf_expect_hex(test, th, sha256_empty);
	KUNIT_EXPECT_EQ(test, ktls_hash_digest(KTLS_HASH_SHA256, NULL, 0, th,
					       48), -EINVAL);

	ktls_transcript_wipe(&t);
	KUNIT_EXPECT_EQ(test, ktls_transcript_update(&t, th, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktls_transcript_digest(&t, th, 32), -EINVAL);
}

static struct kunit_case transcript_cases[] = {
	KUNIT_CASE(transcript_snapshot_clone),
	KUNIT_CASE(transcript_sha384),
	KUNIT_CASE(transcript_hrr),
	KUNIT_CASE(transcript_bad_args),
	{}
};

static struct kunit_suite transcript_suite = {
	.name = "ktls_hs_transcript",
	.test_cases = transcript_cases,
};

kunit_test_suites(&hkdf_suite, &tls13_suite, &tls12_suite, &transcript_suite);
