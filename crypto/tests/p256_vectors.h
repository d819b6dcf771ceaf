/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Known-answer vectors for the P-256 code, shared by the KUnit suite
 * (crypto/tests/p256_kunit.c) and the userspace tests (tools/crypto/kat.c)
 * so both check the same cases.  Values are hex strings; each table says
 * where its values come from.
 */
#ifndef _KTLS_HS_P256_VECTORS_H
#define _KTLS_HS_P256_VECTORS_H

struct p256_sign_vector {
	const char *name;
	const char *digest;
	const char *k;
	const char *sig;
};

struct p256_verify_vector {
	const char *name;
	const char *pub;
	const char *digest;
	const char *sig;
	int ret;
};

struct p256_ecdh_vector {
	const char *name;
	const char *priv;
	const char *peer;
	const char *secret;
	int ret;
};

struct p256_der_vector {
	const char *name;
	const char *der;
	const char *sig;
	int ret;
};

/* a * b / 2^256 mod p or n, the Montgomery product, on raw limbs */
struct p256_mont_vector {
	const char *name;
	char mod;
	const char *a;
	const char *b;
	const char *prod;
};

struct p256_pubkey_vector {
	const char *name;
	const char *priv;
	const char *pub;
	int ret;
};

/* RFC 6979 A.2.5: the P-256 key pair */
static const struct p256_pubkey_vector p256_rfc6979_key = {
	.name = "RFC 6979 A.2.5 key",
	.priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
	.pub =
		"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
};

/*
 * RFC 6979 A.2.5 signatures with SHA-256: the digest is SHA-256 of the
 * message, k the deterministic nonce, r || s the signature.  (The RFC's
 * nonces for other hashes use HMAC with that hash, and ours is always
 * HMAC-SHA256, so its SHA-1 and SHA-512 signatures appear only among the
 * verification vectors, where they check digest truncation.)
 */
static const struct p256_sign_vector p256_rfc6979_vectors[] = {
	{
		.name = "sample, SHA-256",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.k = "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
	},
	{
		.name = "test, SHA-256",
		.digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		.k = "d16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0",
		.sig =
			"f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
	},
};

/*
 * Verification.  RFC 6979 A.2.5's SHA-1 and SHA-512 "sample" signatures
 * check FIPS 186 digest handling (a 20-byte digest is used whole, a
 * 64-byte one is truncated to its leftmost 32 bytes).  "CAVS" cases are
 * NIST CAVP 186-4 SigVer [P-256,SHA-256] (the digest is SHA-256 of the
 * listed Msg; the public keys of the "Q changed" cases are on the curve,
 * just not the signer's); the rest follow Wycheproof's
 * ecdsa_secp256r1_sha256 categories on RFC 6979's "sample" signature:
 * out-of-range r and s, a modified digest, the malleated s' = n - s (valid
 * ECDSA), and public keys that are invalid encodings or not on the curve.
 * The last three follow Wycheproof's "k*G has a large x-coordinate": R is
 * the curve point with x = n + 3, r = 3, s fixed, and the public key is
 * made to fit, Q = r^-1 (s R - e G) (computed with Python integers), so
 * only a verifier that also tries r + n accepts it.
 */
static const struct p256_verify_vector p256_verify_vectors[] = {
	{
		.name = "RFC 6979 sample, SHA-1 (digest shorter than n)",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "8151325dcdbae9e0ff95f9f9658432dbedfdb209",
		.sig =
			"61340c88c3aaebeb4f6d667f672ca9759a6ccaa9fa8811313039ee4a35471d326d7f147dac089441bb2e2fe8f7a3fa264b9c475098fdcf6e00d7c996e1b8b7eb",
		.ret = 0,
	},
	{
		.name = "RFC 6979 sample, SHA-512 (digest truncated)",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest =
			"39a5e04aaff7455d9850c605364f514c11324ce64016960d23d5dc57d3ffd8f49a739468ab8049bf18eef820cdb1ad6c9015f838556bc7fad4138b23fdf986c7",
		.sig =
			"8496a60b5e9b47c825488827e0495b0e3fa109ec4568fd3f8d1097678eb97f002362ab1adbe2b8adf9cb9edab740ea6049c028114f2460f96554f61fae3302fe",
		.ret = 0,
	},
	{
		.name = "CAVS S changed",
		.pub =
			"0487f8f2b218f49845f6f10eec3877136269f5c1a54736dbdf69f89940cad41555e15f369036f49842fac7a86c8a2b0557609776814448b8f5e84aa9f4395205e9",
		.digest = "a82c31412f537135d1c418bd7136fb5fde9426e70c70e7c2fb11f02f30fdeae2",
		.sig =
			"d19ff48b324915576416097d2544f7cbdf8768b1454ad20e0baac50e211f23b0a3e81e59311cdfff2d4784949f7a2cb50ba6c3a91fa54710568e61aca3e847c6",
		.ret = -EBADMSG,
	},
	{
		.name = "CAVS R changed",
		.pub =
			"045cf02a00d205bdfee2016f7421807fc38ae69e6b7ccd064ee689fc1a94a9f7d2ec530ce3cc5c9d1af463f264d685afe2b4db4b5828d7e61b748930f3ce622a85",
		.digest = "5984eab8854d0a9aa5f0c70f96deeb510e5f9ff8c51befcdc3c41bac53577f22",
		.sig =
			"dc23d130c6117fb5751201455e99f36f59aba1a6a21cf2d0e7481a97451d6693d6ce7708c18dbf35d4f8aa7240922dc6823f2e7058cbc1484fcad1599db5018c",
		.ret = -EBADMSG,
	},
	{
		.name = "CAVS Q changed",
		.pub =
			"042ddfd145767883ffbb0ac003ab4a44346d08fa2570b3120dcce94562422244cb5f70c7d11ac2b7a435ccfbbae02c3df1ea6b532cc0e9db74f93fffca7c6f9a64",
		.digest = "44b02ad3088076f997220a68ff0b27a58ecfa528b604427097cce5ca956274c5",
		.sig =
			"9913111cff6f20c5bf453a99cd2c2019a4e749a49724a08774d14e4c113edda89467cd4cd21ecb56b0cab0a9a453b43386845459127a952421f5c6382866c5cc",
		.ret = -EBADMSG,
	},
	{
		.name = "CAVS valid",
		.pub =
			"04e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c970eed7aa2bc48651545949de1dddaf0127e5965ac85d1243d6f60e7dfaee927",
		.digest = "d1b8ef21eb4182ee270638061063a3f3c16c114e33937f69fb232cc833965a94",
		.sig =
			"bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981fd9347f4f17c55095819089c2e03b9cd415abdf12444e323075d98f31920b9e0f57ec871c",
		.ret = 0,
	},
	{
		.name = "CAVS valid",
		.pub =
			"04e0fc6a6f50e1c57475673ee54e3a57f9a49f3328e743bf52f335e3eeaa3d28647f59d689c91e463607d9194d99faf316e25432870816dde63f5d4b373f12f22a",
		.digest = "b9336a8d1f3e8ede001d19f41320bc7672d772a3d2cb0e435fff3c27d6804a2c",
		.sig =
			"1d75830cd36f4c9aa181b2c4221e87f176b7f05b7c87824e82e396c88315c407cb2acb01dac96efc53a32d4a0d85d0c2e48955214783ecf50a4f0414a319c05a",
		.ret = 0,
	},
	{
		.name = "CAVS message changed",
		.pub =
			"0469b7667056e1e11d6caf6e45643f8b21e7a4bebda463c7fdbc13bc98efbd0214d3f9b12eb46c7c6fda0da3fc85bc1fd831557f9abc902a3be3cb3e8be7d1aa2f",
		.digest = "d80e9933e86769731ec16ff31e6821531bcf07fcbad9e2ac16ec9e6cb343a870",
		.sig =
			"288f7a1cd391842cce21f00e6f15471c04dc182fe4b14d92dc18910879799790247b3c4e89a3bcadfea73c7bfd361def43715fa382b8c3edf4ae15d6e55e9979",
		.ret = -EBADMSG,
	},
	{
		.name = "CAVS valid",
		.pub =
			"042d98ea01f754d34bbc3003df5050200abf445ec728556d7ed7d5c54c55552b6d9b52672742d637a32add056dfd6d8792f2a33c2e69dafabea09b960bc61e230a",
		.digest = "41007876926a20f821d72d9c6f2c9dae6c03954123ea6e6939d7e6e669438891",
		.sig =
			"06108e525f845d0155bf60193222b3219c98e3d49424c2fb2a0987f825c1795962b5cdd591e5b507e560167ba8f6f7cda74673eb315680cb89ccbc4eec477dce",
		.ret = 0,
	},
	{
		.name = "RFC 6979 sample, valid",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = 0,
	},
	{
		.name = "s replaced by n - s, still valid",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf37160834e36ad29a83bf2bc9385e491d6099c8fdf9d1ed67aa7ea5f51f93782857a9",
		.ret = 0,
	},
	{
		.name = "digest modified",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1be",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EBADMSG,
	},
	{
		.name = "r = 0",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"0000000000000000000000000000000000000000000000000000000000000000f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EBADMSG,
	},
	{
		.name = "s = 0",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf37160000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EBADMSG,
	},
	{
		.name = "r = n",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EBADMSG,
	},
	{
		.name = "s = n",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
		.ret = -EBADMSG,
	},
	{
		.name = "r + n",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EBADMSG,
	},
	{
		.name = "r and s swapped",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
		.ret = -EBADMSG,
	},
	{
		.name = "r = s = 1 (n - 1)",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"0000000000000000000000000000000000000000000000000000000000000001ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.ret = -EBADMSG,
	},
	{
		.name = "public key not on the curve",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d446229a",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EINVAL,
	},
	{
		.name = "public key is (0, 0)",
		.pub =
			"0400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EINVAL,
	},
	{
		.name = "public key x = p",
		.pub =
			"04ffffffff00000001000000000000000000000000ffffffffffffffffffffffff7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EINVAL,
	},
	{
		.name = "public key in compressed-form tag",
		.pub =
			"0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EINVAL,
	},
	{
		.name = "public key of another signer",
		.pub =
			"046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
		.digest = "af2bdbe1aa9b6ec1e2ade1d694f41fc71a831d0268e9891562113d8a62add1bf",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = -EBADMSG,
	},
	{
		.name = "x(R) = n + 3: r = 3 matches only as x - n",
		.pub =
			"040dff41489ed5ba701627ddcd39bd873d7974b2139e2eef889df2fc2b3b17989ce8dfa2950db93f8fc957dfd7c1baf9bd6e6b1dd6372b6f02dd856a6694cd73cf",
		.digest = "d70386fde33a50395b4f47c87c6cb4b64d85603d4def74c3ed131c7498a43609",
		.sig =
			"00000000000000000000000000000000000000000000000000000000000000031234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef",
		.ret = 0,
	},
	{
		.name = "x(R) = n + 3, digest modified",
		.pub =
			"040dff41489ed5ba701627ddcd39bd873d7974b2139e2eef889df2fc2b3b17989ce8dfa2950db93f8fc957dfd7c1baf9bd6e6b1dd6372b6f02dd856a6694cd73cf",
		.digest = "d70386fde33a50395b4f47c87c6cb4b64d85603d4def74c3ed131c7498a43608",
		.sig =
			"00000000000000000000000000000000000000000000000000000000000000031234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef",
		.ret = -EBADMSG,
	},
	{
		.name = "x(R) = n + 3 given as r = n + 3",
		.pub =
			"040dff41489ed5ba701627ddcd39bd873d7974b2139e2eef889df2fc2b3b17989ce8dfa2950db93f8fc957dfd7c1baf9bd6e6b1dd6372b6f02dd856a6694cd73cf",
		.digest = "d70386fde33a50395b4f47c87c6cb4b64d85603d4def74c3ed131c7498a43609",
		.sig =
			"ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc6325541234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef",
		.ret = -EBADMSG,
	},
};

/*
 * ECDH: NIST CAVS 14.1 KAS ECC CDH primitive, [P-256] COUNT = 0..4 (dIUT,
 * QCAVS, ZIUT) and its invalid-QCAVS case; then edge private keys (the
 * expected x coordinates computed independently, with Python integers)
 * and peer points that must be refused.
 */
static const struct p256_ecdh_vector p256_ecdh_vectors[] = {
	{
		.name = "CAVS 14.1 COUNT = 0",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b",
		.ret = 0,
	},
	{
		.name = "CAVS 14.1 COUNT = 1",
		.priv = "38f65d6dce47676044d58ce5139582d568f64bb16098d179dbab07741dd5caf5",
		.peer =
			"04809f04289c64348c01515eb03d5ce7ac1a8cb9498f5caa50197e58d43a86a7aeb29d84e811197f25eba8f5194092cb6ff440e26d4421011372461f579271cda3",
		.secret = "057d636096cb80b67a8c038c890e887d1adfa4195e9b3ce241c8a778c59cda67",
		.ret = 0,
	},
	{
		.name = "CAVS 14.1 COUNT = 2",
		.priv = "1accfaf1b97712b85a6f54b148985a1bdc4c9bec0bd258cad4b3d603f49f32c8",
		.peer =
			"04a2339c12d4a03c33546de533268b4ad667debf458b464d77443636440ee7fec3ef48a3ab26e20220bcda2c1851076839dae88eae962869a497bf73cb66faf536",
		.secret = "2d457b78b4614132477618a5b077965ec90730a8c81a1c75d6d4ec68005d67ec",
		.ret = 0,
	},
	{
		.name = "CAVS 14.1 COUNT = 3",
		.priv = "207c43a79bfee03db6f4b944f53d2fb76cc49ef1c9c4d34d51b6c65c4db6932d",
		.peer =
			"04df3989b9fa55495719b3cf46dccd28b5153f7808191dd518eff0c3cff2b705ed422294ff46003429d739a33206c8752552c8ba54a270defc06e221e0feaf6ac4",
		.secret = "96441259534b80f6aee3d287a6bb17b5094dd4277d9e294f8fe73e48bf2a0024",
		.ret = 0,
	},
	{
		.name = "CAVS 14.1 COUNT = 4",
		.priv = "59137e38152350b195c9718d39673d519838055ad908dd4757152fd8255c09bf",
		.peer =
			"0441192d2813e79561e6a1d6f53c8bc1a433a199c835e141b05a74a97b0faeb9221af98cc45e98a7e041b01cf35f462b7562281351c8ebf3ffa02e33a0722a1328",
		.secret = "19d44c8d63e8e8dd12c22a87b8cd4ece27acdde04dbf47f7f27537a6999a8e62",
		.ret = 0,
	},
	{
		.name = "priv = 1 gives the peer's x",
		.priv = "0000000000000000000000000000000000000000000000000000000000000001",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
		.ret = 0,
	},
	{
		.name = "priv = n - 1 gives the peer's x",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
		.ret = 0,
	},
	{
		.name = "priv = 2",
		.priv = "0000000000000000000000000000000000000000000000000000000000000002",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "e697267b1ae1fe830ff9ac568180b9e81c324b4845938feb29234a609dbe04f6",
		.ret = 0,
	},
	{
		.name = "priv = n - 2",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254f",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "e697267b1ae1fe830ff9ac568180b9e81c324b4845938feb29234a609dbe04f6",
		.ret = 0,
	},
	{
		.name = "priv = n - 3",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254e",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "a4f67fea5970b71ffcd878206d41e27fd2953d737ea9f3c78b5c91421664a82d",
		.ret = 0,
	},
	{
		.name = "priv = n - 15",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632542",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "65c487a2cc874b2b15f6f1654ae876128394e1a4ebcf8b171d42e6a2f417d44d",
		.ret = 0,
	},
	{
		.name = "priv = n - 16",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632541",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "5d0c39e4c99509eeee22516f7c4e3fe07f91d82326db137554ced24dc0bf137b",
		.ret = 0,
	},
	{
		.name = "priv = n - 17",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632540",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0d5234cf13795051b305e1171842b58ae988f4dbf665b45825b2db5daf7c3844",
		.ret = 0,
	},
	{
		.name = "priv = n - 31",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632532",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "9cef3887ff3ed5bf674110d493634ae8c32fdc47454b32ddeffff2f38f265d53",
		.ret = 0,
	},
	{
		.name = "priv = n - 32",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632531",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0d0c45ae6c586e7efefc00770aa7dce870aede721acd4063b506ed08d98fb2bc",
		.ret = 0,
	},
	{
		.name = "priv = n - 33",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632530",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "cf4f26fec7214d7c6abe659f09196b52aa44bf6541d7700fb2c78bf1ae87853a",
		.ret = 0,
	},
	{
		.name = "priv = 0",
		.priv = "0000000000000000000000000000000000000000000000000000000000000000",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "priv = n",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "priv = 2^256 - 1",
		.priv = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "CAVS invalid peer (x changed, off the curve)",
		.priv = "59137e38152350b195c9718d39673d519838055ad908dd4757152fd8255c09bf",
		.peer =
			"0451192d2813e79561e6a1d6f53c8bc1a433a199c835e141b05a74a97b0faeb9221af98cc45e98a7e041b01cf35f462b7562281351c8ebf3ffa02e33a0722a1328",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "peer y + 1",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ad",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "peer (0, 0), the usual stand-in for infinity",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.peer =
			"0400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "peer y = p - y + p (not reduced)",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.peer =
			"04700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "peer with tag 0x00",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.peer =
			"00700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "peer with hybrid tag 0x06",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.peer =
			"06700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		.secret = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
};

/*
 * Public-key derivation k * G: CAVS COUNT = 0's QIUT, RFC 6979's key, and
 * edge scalars around the window boundaries and n (1 G is the SEC 2
 * generator, (n - 1) G its negation; the others computed with Python
 * integers and cross-checked against OpenSSL).
 */
static const struct p256_pubkey_vector p256_pubkey_vectors[] = {
	{
		.name = "CAVS COUNT = 0 QIUT",
		.priv = "7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		.pub =
			"04ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b23028af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
		.ret = 0,
	},
	{
		.name = "RFC 6979 A.2.5",
		.priv = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
		.pub =
			"0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb67903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
		.ret = 0,
	},
	{
		.name = "k = 1",
		.priv = "0000000000000000000000000000000000000000000000000000000000000001",
		.pub =
			"046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5",
		.ret = 0,
	},
	{
		.name = "k = 2",
		.priv = "0000000000000000000000000000000000000000000000000000000000000002",
		.pub =
			"047cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc4766997807775510db8ed040293d9ac69f7430dbba7dade63ce982299e04b79d227873d1",
		.ret = 0,
	},
	{
		.name = "k = 3",
		.priv = "0000000000000000000000000000000000000000000000000000000000000003",
		.pub =
			"045ecbe4d1a6330a44c8f7ef951d4bf165e6c6b721efada985fb41661bc6e7fd6c8734640c4998ff7e374b06ce1a64a2ecd82ab036384fb83d9a79b127a27d5032",
		.ret = 0,
	},
	{
		.name = "k = 16",
		.priv = "0000000000000000000000000000000000000000000000000000000000000010",
		.pub =
			"0476a94d138a6b41858b821c629836315fcd28392eff6ca038a5eb4787e1277c6ea985fe61341f260e6cb0a1b5e11e87208599a0040fc78baa0e9ddd724b8c5110",
		.ret = 0,
	},
	{
		.name = "k = 17",
		.priv = "0000000000000000000000000000000000000000000000000000000000000011",
		.pub =
			"0447776904c0f1cc3a9c0984b66f75301a5fa68678f0d64af8ba1abce34738a73eaa005ee6b5b957286231856577648e8381b2804428d5733f32f787ff71f1fcdc",
		.ret = 0,
	},
	{
		.name = "k = 32",
		.priv = "0000000000000000000000000000000000000000000000000000000000000020",
		.pub =
			"042377c7d690a242ca6c45074e8ea5beefaa557fd5b68371d9d1475bd52a7ed0e147a13fb98413a4393f8d90e9bf901b7e6658a6cdecf46716e7c067b1ddb8d2b2",
		.ret = 0,
	},
	{
		.name = "k = 33",
		.priv = "0000000000000000000000000000000000000000000000000000000000000021",
		.pub =
			"049807d699fcd81356fa9aa25b89d9d34ea03b0a533aa872fd65c100f3cb2cd793c2a59cdccab11bf286a01a4d1d091b2fffe630b96c5878532f6bf92479634af4",
		.ret = 0,
	},
	{
		.name = "k = 2^255",
		.priv = "8000000000000000000000000000000000000000000000000000000000000000",
		.pub =
			"0477b20a912e6b23135066e911891524bc4efe3560e3e92350b52dec8f375f2b54a3dc291825cea3f7f7b10bfcdd038a72df623da1e850e0f1caa801fcd6cc67ff",
		.ret = 0,
	},
	{
		.name = "k = n - 33",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632530",
		.pub =
			"049807d699fcd81356fa9aa25b89d9d34ea03b0a533aa872fd65c100f3cb2cd7933d5a6322354ee40e795fe5b2e2f6e4d00019cf4793a787acd09406db869cb50b",
		.ret = 0,
	},
	{
		.name = "k = n - 32",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632531",
		.pub =
			"042377c7d690a242ca6c45074e8ea5beefaa557fd5b68371d9d1475bd52a7ed0e1b85ec0457bec5bc7c0726f16406fe48199a75933130b98e9183f984e22472d4d",
		.ret = 0,
	},
	{
		.name = "k = n - 17",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632540",
		.pub =
			"0447776904c0f1cc3a9c0984b66f75301a5fa68678f0d64af8ba1abce34738a73e55ffa1184a46a8d89dce7a9a889b717c7e4d7fbcd72a8cc0cd0878008e0e0323",
		.ret = 0,
	},
	{
		.name = "k = n - 16",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632541",
		.pub =
			"0476a94d138a6b41858b821c629836315fcd28392eff6ca038a5eb4787e1277c6e567a019dcbe0d9f2934f5e4a1ee178df7a665ffcf0387455f162228db473aeef",
		.ret = 0,
	},
	{
		.name = "k = n - 2",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254f",
		.pub =
			"047cf27b188d034f7e8a52380304b51ac3c08969e277f21b35a60b48fc47669978f888aaee24712fc0d6c26539608bcf244582521ac3167dd661fb4862dd878c2e",
		.ret = 0,
	},
	{
		.name = "k = n - 1",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.pub =
			"046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a",
		.ret = 0,
	},
	{
		.name = "k = 0",
		.priv = "0000000000000000000000000000000000000000000000000000000000000000",
		.ret = -EINVAL,
	},
	{
		.name = "k = n",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551",
		.ret = -EINVAL,
	},
	{
		.name = "k = n + 1",
		.priv = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632552",
		.ret = -EINVAL,
	},
	{
		.name = "k = 2^256 - 1",
		.priv = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.ret = -EINVAL,
	},
};

/*
 * DER Ecdsa-Sig-Value (RFC 5480, X.690 DER): the encodings of RFC 6979
 * signatures above, then malformed encodings that strict DER refuses
 * (sig is NULL for those).
 */
static const struct p256_der_vector p256_der_vectors[] = {
	{
		.name = "RFC 6979 sample: both need a zero byte",
		.der =
			"3046022100efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716022100f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.sig =
			"efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
		.ret = 0,
	},
	{
		.name = "RFC 6979 test: s has leading zero bits",
		.der =
			"3045022100f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d383670220019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
		.sig =
			"f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
		.ret = 0,
	},
	{
		.name = "r = s = 1",
		.der = "3006020101020101",
		.sig =
			"00000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001",
		.ret = 0,
	},
	{
		.name = "integer with an unneeded zero byte",
		.der = "300702020001020101",
		.ret = -EBADMSG,
	},
	{
		.name = "negative integer",
		.der = "3006020181020101",
		.ret = -EBADMSG,
	},
	{
		.name = "long-form sequence length",
		.der = "308106020101020101",
		.ret = -EBADMSG,
	},
	{
		.name = "trailing byte after the sequence",
		.der = "300602010102010100",
		.ret = -EBADMSG,
	},
	{
		.name = "sequence longer than the input",
		.der = "3007020101020101",
		.ret = -EBADMSG,
	},
	{
		.name = "zero-length integer",
		.der = "30050200020101",
		.ret = -EBADMSG,
	},
	{
		.name = "SET instead of SEQUENCE",
		.der = "3106020101020101",
		.ret = -EBADMSG,
	},
	{
		.name = "BIT STRING instead of INTEGER",
		.der = "3006030101020101",
		.ret = -EBADMSG,
	},
	{
		.name = "33-byte r with no sign byte",
		.der =
			"30260221011111111111111111111111111111111111111111111111111111111111111111020101",
		.ret = -EBADMSG,
	},
	{
		.name = "third element in the sequence",
		.der = "30080201010201010500",
		.ret = -EBADMSG,
	},
	{
		.name = "only one integer",
		.der = "3003020101",
		.ret = -EBADMSG,
	},
	{
		.name = "empty input",
		.der = "",
		.ret = -EBADMSG,
	},
};

/*
 * Montgomery products whose carries run the full length of the limbs:
 * operands made of all-ones limbs, at the top of their range, and a first
 * operand up to 2^256 - 1 as p256_fe_from_bytes() passes it.  Values are
 * big-endian 256-bit integers (the raw limbs, not Montgomery-decoded),
 * computed independently with Python's integers as a * b * 2^-256 mod m.
 */
static const struct p256_mont_vector p256_mont_vectors[] = {
	{
		.name = "p: (2^255 - 1)^2, carries into the top limb",
		.mod = 'p',
		.a = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.prod = "3fffffff00000002fffffffd0000000200000000fffffffe0000000300000000",
	},
	{
		.name = "p: (p - 1)^2",
		.mod = 'p',
		.a = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
		.b = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
		.prod = "fffffffe00000003fffffffd0000000200000001fffffffe0000000300000000",
	},
	{
		.name = "p: (2^256 - 1) (p - 1), a not reduced",
		.mod = 'p',
		.a = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
		.prod = "fffffffe00000003fffffffd0000000200000001fffffffe00000002ffffffff",
	},
	{
		.name = "p: (2^256 - 1) R^2, from_bytes of all ones",
		.mod = 'p',
		.a = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "00000004fffffffdfffffffffffffffefffffffbffffffff0000000000000003",
		.prod = "00000003fffffffefffffffffffffffefffffffcffffffff0000000000000002",
	},
	{
		.name = "p: limbs of all ones below p",
		.mod = 'p',
		.a = "fffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "ffffffff00000000ffffffffffffffffffffffffffffffffffffffffffffffff",
		.prod = "0000000000000000ffffffff0000000100000000000000000000000200000000",
	},
	{
		.name = "p: p - 2^64, squared",
		.mod = 'p',
		.a = "ffffffff00000001000000000000000000000000fffffffeffffffffffffffff",
		.b = "ffffffff00000001000000000000000000000000fffffffeffffffffffffffff",
		.prod = "00000000ffffffff0000000100000000ffffffff000000020000000000000000",
	},
	{
		.name = "p: 1 * 1",
		.mod = 'p',
		.a = "0000000000000000000000000000000000000000000000000000000000000001",
		.b = "0000000000000000000000000000000000000000000000000000000000000001",
		.prod = "fffffffe00000003fffffffd0000000200000001fffffffe0000000300000000",
	},
	{
		.name = "p: 0 * (p - 1)",
		.mod = 'p',
		.a = "0000000000000000000000000000000000000000000000000000000000000000",
		.b = "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
		.prod = "0000000000000000000000000000000000000000000000000000000000000000",
	},
	{
		.name = "n: (n - 1)^2",
		.mod = 'n',
		.a = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.b = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.prod = "60d066334905c1e907f8b6041e607725badef3e243566fafce1bc8f79c197c79",
	},
	{
		.name = "n: (2^255 - 1)^2",
		.mod = 'n',
		.a = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.prod = "a0d066334905c1e907f8b6041e607725badef3e243566fafce1bc8f79c197c78",
	},
	{
		.name = "n: (2^256 - 1) (n - 1), a not reduced",
		.mod = 'n',
		.a = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.prod = "60d066334905c1e907f8b6041e607725badef3e243566fafce1bc8f79c197c78",
	},
	{
		.name = "n: limbs of all ones below n",
		.mod = 'n',
		.a = "fffffffeffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
		.b = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
		.prod = "4ed122825b050599f5f972531e607725bf9684e6f8f5a8d65dac46b98d97475d",
	},
};

#endif /* _KTLS_HS_P256_VECTORS_H */
