// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cipher suites of the SOL_TLS API: for each TLS_CIPHER_* number, the
 * layout of its tls12_crypto_info_* struct, its sizes on the wire and the
 * crypto API algorithm behind it.  Everything else in the record layer is
 * driven by this table, so a new suite is one entry here.
 */
#include <linux/build_bug.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <kunit/visibility.h>

#include "record.h"

/*
 * Every tls12_crypto_info_* is the common header, then iv, key, salt and
 * rec_seq in that order: the table takes the sizes from the uapi
 * constants, the offsets follow from them, and KTLS_CHECK_LAYOUT() below
 * holds the uapi structs to that.
 */
#define KTLS_CIPHER(_n, _nonce, _ccm, _v12, _v13, _alg) {		\
	.type		= TLS_CIPHER_##_n,				\
	.key_len	= TLS_CIPHER_##_n##_KEY_SIZE,			\
	.iv_len		= TLS_CIPHER_##_n##_IV_SIZE,			\
	.salt_len	= TLS_CIPHER_##_n##_SALT_SIZE,			\
	.seq_len	= TLS_CIPHER_##_n##_REC_SEQ_SIZE,		\
	.tag_len	= TLS_CIPHER_##_n##_TAG_SIZE,			\
	.nonce_len	= _nonce,					\
	.ccm		= _ccm,						\
	.tls12		= _v12,						\
	.tls13		= _v13,						\
	.alg		= _alg,						\
}

/*
 * SM4 is defined for TLS 1.3 only (RFC 8998) and ARIA for TLS 1.2 only
 * (RFC 6209); the in-tree API accepts SM4 with 1.2 as well, and so do we,
 * since refusing it would break applications that work with tls.ko.
 */
static struct ktls_cipher ktls_ciphers[] __ro_after_init = {
	KTLS_CIPHER(AES_GCM_128, 8, false, true, true, "gcm(aes)"),
	KTLS_CIPHER(AES_GCM_256, 8, false, true, true, "gcm(aes)"),
	KTLS_CIPHER(AES_CCM_128, 8, true, true, true, "ccm(aes)"),
	KTLS_CIPHER(CHACHA20_POLY1305, 0, false, true, true,
		    "rfc7539(chacha20,poly1305)"),
	KTLS_CIPHER(SM4_GCM, 8, false, true, true, "gcm(sm4)"),
	KTLS_CIPHER(SM4_CCM, 8, true, true, true, "ccm(sm4)"),
	KTLS_CIPHER(ARIA_GCM_128, 8, false, true, false, "gcm(aria)"),
	KTLS_CIPHER(ARIA_GCM_256, 8, false, true, false, "gcm(aria)"),
};

/*
 * The uapi structs are laid out as ktls_cipher_setup() assumes, and the
 * per-socket buffers sized by KTLS_MAX_* hold every suite: salt and iv
 * together are the 12-byte nonce of each.
 */
#define KTLS_CHECK_LAYOUT(_n, _s)					\
	static_assert(offsetof(struct tls12_crypto_info_##_s, key) ==	\
		      sizeof(struct tls_crypto_info) + TLS_CIPHER_##_n##_IV_SIZE && \
		      offsetof(struct tls12_crypto_info_##_s, salt) ==	\
		      offsetof(struct tls12_crypto_info_##_s, key) +	\
		      TLS_CIPHER_##_n##_KEY_SIZE &&			\
		      offsetof(struct tls12_crypto_info_##_s, rec_seq) ==	\
		      offsetof(struct tls12_crypto_info_##_s, salt) +	\
		      TLS_CIPHER_##_n##_SALT_SIZE &&			\
		      sizeof(struct tls12_crypto_info_##_s) ==		\
		      offsetof(struct tls12_crypto_info_##_s, rec_seq) +	\
		      TLS_CIPHER_##_n##_REC_SEQ_SIZE &&			\
		      sizeof_field(struct tls12_crypto_info_##_s, key) <= KTLS_MAX_KEY_LEN && \
		      sizeof_field(struct tls12_crypto_info_##_s, salt) <= KTLS_MAX_SALT_LEN && \
		      sizeof_field(struct tls12_crypto_info_##_s, salt) +	\
		      sizeof_field(struct tls12_crypto_info_##_s, iv) == KTLS_MAX_IV_LEN && \
		      sizeof_field(struct tls12_crypto_info_##_s, rec_seq) == KTLS_MAX_SEQ_LEN)
KTLS_CHECK_LAYOUT(AES_GCM_128, aes_gcm_128);
KTLS_CHECK_LAYOUT(AES_GCM_256, aes_gcm_256);
KTLS_CHECK_LAYOUT(AES_CCM_128, aes_ccm_128);
KTLS_CHECK_LAYOUT(CHACHA20_POLY1305, chacha20_poly1305);
KTLS_CHECK_LAYOUT(SM4_GCM, sm4_gcm);
KTLS_CHECK_LAYOUT(SM4_CCM, sm4_ccm);
KTLS_CHECK_LAYOUT(ARIA_GCM_128, aria_gcm_128);
KTLS_CHECK_LAYOUT(ARIA_GCM_256, aria_gcm_256);

/* Fill in the offsets that follow from the sizes, once at load. */
void __init ktls_cipher_setup(void)
{
	struct ktls_cipher *cs;

	for (cs = ktls_ciphers; cs < ktls_ciphers + ARRAY_SIZE(ktls_ciphers); cs++) {
		cs->iv_off = sizeof(struct tls_crypto_info);
		cs->key_off = cs->iv_off + cs->iv_len;
		cs->salt_off = cs->key_off + cs->key_len;
		cs->seq_off = cs->salt_off + cs->salt_len;
		cs->info_len = cs->seq_off + cs->seq_len;
	}
}

const struct ktls_cipher *ktls_cipher_find(u16 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ktls_ciphers); i++)
		if (ktls_ciphers[i].type == type)
			return &ktls_ciphers[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_cipher_find);
