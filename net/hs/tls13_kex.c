// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TLS 1.3 server's key exchange: ECDHE over X25519 or P-256 (RFC
 * 8446 4.2.8.2, 7.4), and the post-quantum hybrids of
 * draft-ietf-tls-ecdhe-mlkem, which encapsulate to the client's
 * ML-KEM-768 key beside the ECDH and give the key schedule both secrets,
 * concatenated: ML-KEM first in X25519MLKEM768, ECDH first in
 * SecP256r1MLKEM768, in the shares as in the secret.
 *
 * negotiate.c checked the lengths of the client's share; what is left to
 * refuse here is a bad key inside it, with illegal_parameter: a P-256
 * point not on the curve, an X25519 key giving the all-zero secret, an
 * encapsulation key with a coefficient not below q (FIPS 203 7.2).
 */
#include <linux/errno.h>
#include <linux/string.h>

#include "messages.h"
#include "tls13_kex.h"

size_t ktls_hs_kex_client_len(u16 group)
{
	switch (group) {
	case KTLS_GROUP_X25519:
		return KTLS_X25519_KEY_LEN;
	case KTLS_GROUP_SECP256R1:
		return KTLS_P256_POINT_LEN;
	case KTLS_GROUP_X25519MLKEM768:
		return KTLS_X25519MLKEM768_CLIENT_LEN;
	case KTLS_GROUP_SECP256R1MLKEM768:
		return KTLS_P256MLKEM768_CLIENT_LEN;
	}
	return 0;
}

static int ktls_hs_kex_x25519(struct ktls_hs_kex *k, const u8 *peer,
			      u8 *pub, u8 *secret)
{
	int err;

	err = ktls_x25519_keygen(k->priv, pub);
	if (err)
		return err;
	/* RFC 8446 7.4.2: an all-zero secret is refused. */
	if (ktls_x25519(secret, k->priv, peer))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

static int ktls_hs_kex_p256(struct ktls_hs_kex *k, const u8 *peer, u8 *pub,
			    u8 *secret)
{
	int err;

	err = ktls_p256_ecdh_keygen(k->priv, pub);
	if (err)
		return err;
	/* Not on the curve, or infinity: RFC 8446 4.2.8.2. */
	if (ktls_p256_ecdh(secret, k->priv, peer))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

static int ktls_hs_kex_mlkem(struct ktls_hs_kex *k, const u8 *ek, u8 *ct,
			     u8 *secret)
{
	/* Its only failure: the FIPS 203 7.2 check of the key. */
	if (ktls_mlkem768_encaps(ct, secret, ek, KTLS_MLKEM768_EK_LEN,
				 &k->mlkem))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

int ktls_hs_kex(struct ktls_hs_kex *k, u16 group, const u8 *share)
{
	u8 *pub = k->pub, *ss = k->secret;
	int err;

	switch (group) {
	case KTLS_GROUP_X25519:
		k->pub_len = KTLS_X25519_KEY_LEN;
		k->secret_len = KTLS_X25519_KEY_LEN;
		return ktls_hs_kex_x25519(k, share, pub, ss);
	case KTLS_GROUP_SECP256R1:
		k->pub_len = KTLS_P256_POINT_LEN;
		k->secret_len = KTLS_P256_SCALAR_LEN;
		return ktls_hs_kex_p256(k, share, pub, ss);
	case KTLS_GROUP_X25519MLKEM768:
		k->pub_len = KTLS_X25519MLKEM768_SERVER_LEN;
		k->secret_len = KTLS_MLKEM_SS_LEN + KTLS_X25519_KEY_LEN;
		err = ktls_hs_kex_mlkem(k, share, pub, ss);
		if (!err)
			err = ktls_hs_kex_x25519(k, share + KTLS_MLKEM768_EK_LEN,
						 pub + KTLS_MLKEM768_CT_LEN,
						 ss + KTLS_MLKEM_SS_LEN);
		return err;
	case KTLS_GROUP_SECP256R1MLKEM768:
		k->pub_len = KTLS_P256MLKEM768_SERVER_LEN;
		k->secret_len = KTLS_P256_SCALAR_LEN + KTLS_MLKEM_SS_LEN;
		err = ktls_hs_kex_p256(k, share, pub, ss);
		if (!err)
			err = ktls_hs_kex_mlkem(k, share + KTLS_P256_POINT_LEN,
						pub + KTLS_P256_POINT_LEN,
						ss + KTLS_P256_SCALAR_LEN);
		return err;
	}
	return -EINVAL;
}

void ktls_hs_kex_wipe(struct ktls_hs_kex *k)
{
	memzero_explicit(k, sizeof(*k));
}
