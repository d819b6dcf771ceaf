// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a TLS record looks like around its payload: the header, the AEAD
 * nonce (RFC 5288 3 and RFC 7905 2 for TLS 1.2, RFC 8446 5.3 for 1.3), the
 * additional data (RFC 5246 6.2.3.3, RFC 8446 5.2), what the RX framer
 * checks of a header and of a TLS 1.3 inner plaintext (RFC 8446 5.4), and
 * the one AEAD call both directions share.  No socket state is touched here.
 */
#include <crypto/aead.h>
#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include "record.h"

void ktls_prot_init(struct ktls_prot *prot, u16 version,
		    const struct ktls_cipher *cs)
{
	bool tls13 = version == TLS_1_3_VERSION;

	prot->version = version;
	prot->cipher = cs;
	prot->nonce_len = tls13 ? 0 : cs->nonce_len;
	prot->prepend_len = KTLS_HEADER_LEN + prot->nonce_len;
	prot->tag_len = cs->tag_len;
	prot->tail_len = tls13 ? 1 : 0;
	prot->overhead = prot->prepend_len + prot->tail_len + prot->tag_len;
	prot->aad_len = tls13 ? KTLS_HEADER_LEN : KTLS_MAX_AAD_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_prot_init);

void ktls_record_header(u8 *hdr, u8 type, unsigned int body_len)
{
	hdr[0] = type;
	put_unaligned_be16(KTLS_LEGACY_VERSION, hdr + 1);
	put_unaligned_be16(body_len, hdr + 3);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_record_header);

/*
 * The content type is not judged here: TLS 1.2 authenticates it in the
 * AAD, and TLS 1.3 ignores the outer one (the AAD always says
 * application data, as upstream builds it); an undefined type is handed to
 * the reader as a control record.  The errnos are upstream's.
 */
int ktls_record_parse_header(const struct ktls_prot *prot, const u8 *hdr)
{
	unsigned int body = get_unaligned_be16(hdr + 3);

	if (body > ktls_max_body_len(prot))
		return -EMSGSIZE;
	if (body < prot->nonce_len + prot->tag_len)
		return -EBADMSG;
	if (get_unaligned_be16(hdr + 1) != KTLS_LEGACY_VERSION)
		return -EINVAL;
	return KTLS_HEADER_LEN + body;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_record_parse_header);

int ktls_record_inner_type(struct page *const *pages, unsigned int start,
			   unsigned int end, u8 *type)
{
	while (end > start) {
		/* The piece of [start, end) in the page holding byte end - 1. */
		unsigned int pos = max(start, round_down(end - 1, PAGE_SIZE));
		const u8 *p = kmap_local_page(pages[pos >> PAGE_SHIFT]);
		unsigned int i = end - pos;
		const u8 *at = p + offset_in_page(pos);

		while (i && !at[i - 1])
			i--;
		if (i)
			*type = at[i - 1];
		kunmap_local(p);
		if (i)
			return pos + i - 1;
		end = pos;
	}
	return -EBADMSG;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_record_inner_type);

static bool ktls_has_explicit_nonce(const struct ktls_prot *prot)
{
	return prot->nonce_len != 0;
}

void ktls_record_iv(u8 iv[KTLS_AEAD_IV_LEN], const struct ktls_prot *prot,
		    const struct ktls_crypto *c, const u8 *explicit)
{
	const struct ktls_cipher *cs = prot->cipher;
	u8 *nonce = iv;
	int i;

	memset(iv, 0, KTLS_AEAD_IV_LEN);
	/* ccm() takes RFC 3610's flags byte, then the nonce, then the counter. */
	if (cs->ccm)
		*nonce++ = KTLS_CCM_FLAGS;

	if (ktls_has_explicit_nonce(prot)) {
		memcpy(nonce, c->iv, cs->salt_len);
		memcpy(nonce + cs->salt_len, explicit, prot->nonce_len);
		return;
	}

	/* The static iv XORed with the sequence number, left-padded. */
	memcpy(nonce, c->iv, KTLS_MAX_IV_LEN);
	for (i = 0; i < 8; i++)
		nonce[KTLS_MAX_IV_LEN - 1 - i] ^= (u8)(c->seq >> (8 * i));
}
EXPORT_SYMBOL_IF_KUNIT(ktls_record_iv);

unsigned int ktls_record_aad(u8 *aad, const struct ktls_prot *prot, u64 seq,
			     u8 type, unsigned int inner_len)
{
	if (prot->version == TLS_1_3_VERSION) {
		/* The outer header: the real type is inside the ciphertext. */
		ktls_record_header(aad, KTLS_TYPE_DATA,
				   inner_len + prot->tag_len);
		return KTLS_HEADER_LEN;
	}

	put_unaligned_be64(seq, aad);
	ktls_record_header(aad + 8, type, inner_len);
	return KTLS_MAX_AAD_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_record_aad);

/* Big-endian increment of a counter of @len bytes, wrapping silently. */
static void ktls_be_inc(u8 *p, unsigned int len)
{
	while (len--)
		if (++p[len])
			break;
}

bool ktls_record_advance(const struct ktls_prot *prot, struct ktls_crypto *c)
{
	c->seq++;
	if (ktls_has_explicit_nonce(prot))
		ktls_be_inc(c->iv + prot->cipher->salt_len, prot->nonce_len);
	/*
	 * Not at any real rate, but userspace sets the first number
	 * (TLS_TX/TLS_RX's rec_seq), and sequence numbers never wrap
	 * (RFC 5246 6.1, RFC 8446 5.3): a nonce would repeat.
	 */
	return c->seq != 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_record_advance);

int ktls_aead_crypt(struct ktls_crypto *c, const struct ktls_prot *prot,
		    bool encrypt, struct scatterlist *src,
		    struct scatterlist *dst, unsigned int cryptlen, u8 *iv)
{
	struct aead_request *req = c->req;
	int err;

	aead_request_set_callback(req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &c->wait);
	aead_request_set_ad(req, prot->aad_len);
	aead_request_set_crypt(req, src, dst, cryptlen, iv);
	err = encrypt ? crypto_aead_encrypt(req) : crypto_aead_decrypt(req);
	return crypto_wait_req(err, &c->wait);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_aead_crypt);
