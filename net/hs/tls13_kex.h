/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The key exchange of the TLS 1.3 server (tls13_kex.c): from the client's
 * share of the group negotiate.c chose, our share and the shared secret
 * that enters the key schedule as the (EC)DHE input (RFC 8446 7.1).
 */
#ifndef _KTLS_HS_TLS13_KEX_H
#define _KTLS_HS_TLS13_KEX_H

#include <linux/types.h>

#include <ktls_hs/mlkem.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/x25519.h>

/*
 * draft-ietf-tls-ecdhe-mlkem 4.1: a hybrid share is the two shares one
 * after the other, ML-KEM first in X25519MLKEM768, ECDH first in
 * SecP256r1MLKEM768; the client sends an encapsulation key, we answer
 * with a ciphertext.
 */
#define KTLS_X25519MLKEM768_CLIENT_LEN	(KTLS_MLKEM768_EK_LEN + KTLS_X25519_KEY_LEN)
#define KTLS_X25519MLKEM768_SERVER_LEN	(KTLS_MLKEM768_CT_LEN + KTLS_X25519_KEY_LEN)
#define KTLS_P256MLKEM768_CLIENT_LEN	(KTLS_P256_POINT_LEN + KTLS_MLKEM768_EK_LEN)
#define KTLS_P256MLKEM768_SERVER_LEN	(KTLS_P256_POINT_LEN + KTLS_MLKEM768_CT_LEN)

/* The largest shares either side sends, and the largest secret */
#define KTLS_HS_KEX_CLIENT_MAX		KTLS_P256MLKEM768_CLIENT_LEN
#define KTLS_HS_KEX_SERVER_MAX		KTLS_P256MLKEM768_SERVER_LEN
#define KTLS_HS_KEX_SECRET_MAX		(KTLS_P256_SCALAR_LEN + KTLS_MLKEM_SS_LEN)

/**
 * struct ktls_hs_kex - one key exchange, with its working memory
 * @mlkem:	the ML-KEM encapsulation's, wiped by it
 * @priv:	our ephemeral ECDH key
 * @pub:	our share, @pub_len bytes
 * @pub_len:	its length
 * @secret:	the shared secret, @secret_len bytes
 * @secret_len:	its length
 *
 * Some 7 KiB: never on the stack.  The TLS 1.3 server borrows it from
 * its input buffer (ktls_hs_rx_spare()), and wipes it when done.
 */
struct ktls_hs_kex {
	struct ktls_mlkem768_scratch mlkem;
	u8 priv[KTLS_P256_SCALAR_LEN];
	u8 pub[KTLS_HS_KEX_SERVER_MAX];
	u8 secret[KTLS_HS_KEX_SECRET_MAX];
	u16 pub_len;
	u16 secret_len;
};

/* The length of the client's share of @group, 0 for a group we lack. */
size_t ktls_hs_kex_client_len(u16 group);
/*
 * Our key pair of @group and the secret shared with the client's @share,
 * whose length ktls_hs_kex_client_len() gave: 0, the alert a bad peer
 * key earns (KTLS_ALERT_ILLEGAL_PARAMETER), or a negative errno.  @k's
 * secrets stay until ktls_hs_kex_wipe(), whatever the result.
 */
int ktls_hs_kex(struct ktls_hs_kex *k, u16 group, const u8 *share);
void ktls_hs_kex_wipe(struct ktls_hs_kex *k);

#endif /* _KTLS_HS_TLS13_KEX_H */
