// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target of the record framer's parsing (net/record/record.c), the
 * part of the RX path (net/record/rx_framer.c) that reads bytes a peer chose before
 * any key has checked them: the header and its length, and, in TLS
 * 1.3, the walk back over the zero padding to the inner content type;
 * then the content of each handshake record, in order, through the
 * reassembly of post-handshake messages (net/record/rx_hs.c) as rx.c feeds it.
 *
 * The first byte picks the cipher and version; the rest is a stream of
 * records, framed as rx_framer.c frames them.  Each record's "plaintext" (the
 * body less nonce and tag, as if decryption had left it there) is laid
 * over pages the way rx.c holds a record, so the page walk is the real
 * one, on memory ASan bounds exactly.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/highmem.h>

#include "record/record.h"
#include "fuzz.h"

static const u16 framer_ciphers[] = {
	TLS_CIPHER_AES_GCM_128, TLS_CIPHER_AES_GCM_256, TLS_CIPHER_AES_CCM_128,
	TLS_CIPHER_CHACHA20_POLY1305, TLS_CIPHER_SM4_GCM, TLS_CIPHER_SM4_CCM,
	TLS_CIPHER_ARIA_GCM_128, TLS_CIPHER_ARIA_GCM_256,
};

#define FRAMER_PAGES	DIV_ROUND_UP(KTLS_REC_MAX, PAGE_SIZE)

/* As rx.c hands a handshake record's content to rx_hs.c. */
static void framer_post_hs(struct ktls_rx_hs *hs, const u8 *content,
			   unsigned int len)
{
	u8 peek[KTLS_RX_HS_PEEK];
	unsigned int n = min_t(unsigned int, len, sizeof(peek));
	u8 alert = 0;
	int ret;

	memcpy(peek, content, n);
	ret = ktls_rx_hs_feed(hs, peek, n, &alert);
	/* Never more than the largest message, and nothing but a part. */
	if (hs->len >= KTLS_RX_HS_MAX_MSG)
		abort();
	if (ret < 0) {
		/* Refused with an alert, and nothing kept. */
		if ((ret != -EPROTO && ret != -EBADMSG) || !alert || hs->len)
			abort();
		return;
	}
	/* A whole KeyUpdate leaves nothing behind. */
	if (ret > KTLS_RX_HS_UPDATE_REQUESTED ||
	    (ret != KTLS_RX_HS_MORE && hs->len))
		abort();
}

static void framer_record(const struct ktls_prot *prot, struct ktls_rx_hs *hs,
			  const u8 *rec, unsigned int len)
{
	struct page *pages[FRAMER_PAGES] = {};
	unsigned int end = len - prot->tag_len, i;
	u8 type = rec[0];
	int pos;

	if (prot->version != TLS_1_3_VERSION)
		return;
	/* Only the pages the record covers exist, as in rx.c. */
	for (i = 0; i < DIV_ROUND_UP(len, PAGE_SIZE); i++) {
		pages[i] = malloc(sizeof(*pages[i]));
		if (!pages[i])
			abort();
		memcpy(pages[i]->data, rec + i * PAGE_SIZE,
		       min_t(size_t, PAGE_SIZE, len - i * PAGE_SIZE));
	}
	pos = ktls_record_inner_type(pages, prot->prepend_len, end, &type);
	if (pos >= 0 && (pos < prot->prepend_len || pos >= end ||
			 rec[pos] != type || !type))
		abort();
	if (pos >= 0 && type == KTLS_TYPE_HANDSHAKE)
		framer_post_hs(hs, rec + prot->prepend_len,
			       pos - prot->prepend_len);
	for (i = 0; i < FRAMER_PAGES; i++)
		free(pages[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static bool setup;
	const struct ktls_cipher *cs;
	struct ktls_rx_hs hs = {};
	struct ktls_prot prot;
	size_t pos = 1;
	u8 *rec;
	int need;

	if (!setup) {
		ktls_cipher_setup();
		setup = true;
	}
	if (len < 1)
		return 0;
	cs = ktls_cipher_find(framer_ciphers[(data[0] & 0x7f) %
					     ARRAY_SIZE(framer_ciphers)]);
	if (!cs)
		abort();
	ktls_prot_init(&prot, data[0] & 0x80 ? TLS_1_3_VERSION : TLS_1_2_VERSION,
		       cs);

	while (len - pos >= KTLS_HEADER_LEN) {
		need = ktls_record_parse_header(&prot, data + pos);
		if (need < 0)
			break;
		/* What rx.h sizes a record buffer for. */
		if (need < KTLS_HEADER_LEN + prot.nonce_len + prot.tag_len ||
		    need > KTLS_REC_MAX)
			abort();
		if ((size_t)need > len - pos)
			break;
		/* Exactly the record: ASan catches a read past it. */
		rec = malloc(need);
		if (!rec)
			abort();
		memcpy(rec, data + pos, need);
		framer_record(&prot, &hs, rec, need);
		free(rec);
		pos += need;
	}
	return 0;
}
