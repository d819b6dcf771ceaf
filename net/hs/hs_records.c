// SPDX-License-Identifier: GPL-2.0-only
/*
 * Records of the server handshake (RFC 8446 5, RFC 5246 6.2): which
 * record types the client may send at each point, the protection of the
 * handshake traffic keys (inner content type, padding), the middlebox-
 * compatibility ChangeCipherSpec, declined early data, reassembly of
 * handshake messages across records, and the framing of the server's
 * own messages and alerts.  TLS 1.2 protects only the two Finished
 * messages (and an alert after ours), behind a ChangeCipherSpec each.
 * The state machines above see whole messages only and never a record.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include <ktls_hs/kdf.h>

#include "hs_records.h"

/* RFC 8446 5.3: the static iv XORed with the record's sequence number. */
static void ktls_hs_nonce(const struct ktls_hs_prot *p,
			  u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE])
{
	int i;

	memcpy(nonce, p->iv, KTLS_LIB_AEAD_NONCE_SIZE);
	for (i = 0; i < 8; i++)
		nonce[KTLS_LIB_AEAD_NONCE_SIZE - 1 - i] ^= (u8)(p->seq >> (8 * i));
}

/* TLS 1.2 AES-GCM: the salt, then the explicit part the record carries. */
static void ktls_hs_nonce12(const struct ktls_hs_prot *p, const u8 *explicit,
			    u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE])
{
	memcpy(nonce, p->iv, KTLS_LIB_AEAD_NONCE_SIZE - KTLS_HS_EXPLICIT_NONCE);
	memcpy(nonce + KTLS_LIB_AEAD_NONCE_SIZE - KTLS_HS_EXPLICIT_NONCE,
	       explicit, KTLS_HS_EXPLICIT_NONCE);
}

/* RFC 5246 6.2.3.3: seq_num, type, version, length of the plaintext. */
#define KTLS_HS_AAD12_LEN	(8 + KTLS_HEADER_LEN)

static void ktls_hs_aad12(const struct ktls_hs_prot *p, u8 type, size_t len,
			  u8 aad[KTLS_HS_AAD12_LEN])
{
	put_unaligned_be64(p->seq, aad);
	ktls_record_header(aad + 8, type, len);
}

static int ktls_hs_prot_set(struct ktls_hs_prot *p, enum ktls_lib_aead_alg alg,
			    const u8 *key, size_t key_len,
			    const u8 iv[KTLS_LIB_AEAD_NONCE_SIZE])
{
	int err;

	err = ktls_lib_aead_setkey(&p->aead, alg, key, key_len);
	if (err)
		return err;
	memcpy(p->iv, iv, KTLS_LIB_AEAD_NONCE_SIZE);
	p->seq = 0;
	p->on = true;
	return 0;
}

static int ktls_hs_prot_set12(struct ktls_hs_prot *p,
			      enum ktls_lib_aead_alg alg, const u8 *key,
			      size_t key_len, const u8 *iv)
{
	u8 full[KTLS_LIB_AEAD_NONCE_SIZE] = {};
	bool explicit = alg == KTLS_LIB_AES_GCM;
	int err;

	memcpy(full, iv, explicit ?
	       KTLS_LIB_AEAD_NONCE_SIZE - KTLS_HS_EXPLICIT_NONCE :
	       KTLS_LIB_AEAD_NONCE_SIZE);
	err = ktls_hs_prot_set(p, alg, key, key_len, full);
	memzero_explicit(full, sizeof(full));
	p->tls12 = true;
	p->explicit = explicit;
	return err;
}

/* Bytes of a record's body before its ciphertext. */
static size_t ktls_hs_prot_lead(const struct ktls_hs_prot *p)
{
	return p->on && p->explicit ? KTLS_HS_EXPLICIT_NONCE : 0;
}

static void ktls_hs_prot_wipe(struct ktls_hs_prot *p)
{
	ktls_lib_aead_wipe(&p->aead);
	memzero_explicit(p, sizeof(*p));
}

/* ---------------------------------------------------------------- input */

void ktls_hs_rx_init(struct ktls_hs_rx *rx)
{
	memset(rx, 0, offsetof(struct ktls_hs_rx, buf));
}

size_t ktls_hs_rx_want(struct ktls_hs_rx *rx, u8 **buf)
{
	if (rx->hdr_len < KTLS_HEADER_LEN) {
		*buf = rx->hdr + rx->hdr_len;
		return KTLS_HEADER_LEN - rx->hdr_len;
	}
	/* The body lands right behind the pending message bytes. */
	*buf = rx->buf + rx->msg_len + rx->body_got;
	return rx->body_len - rx->body_got;
}

/* Whether a record of this header may come now, before reading its body. */
static int ktls_hs_rx_header(struct ktls_hs_rx *rx)
{
	unsigned int len = get_unaligned_be16(rx->hdr + 3);
	bool prot12 = rx->prot.on && rx->prot.tls12;
	u8 type = rx->hdr[0];

	/*
	 * legacy_record_version is ignored for all purposes (RFC 8446 5.1).
	 * A TLS 1.2 protected record keeps its real type outside and may be
	 * 2048 bytes over 2^14 (RFC 5246 6.2.3); what it decrypts to is
	 * checked once it opened.
	 */
	if (len > (prot12 ? KTLS_HS_MAX_CIPHERTEXT12 : KTLS_HS_MAX_CIPHERTEXT) ||
	    (type != KTLS_TYPE_DATA && !prot12 && len > KTLS_MAX_PLAINTEXT))
		return KTLS_ALERT_RECORD_OVERFLOW;

	switch (type) {
	case KTLS_TYPE_HANDSHAKE:
		/*
		 * No zero-length fragments, no plaintext once keys changed
		 * (or, in TLS 1.2, are about to), and protected handshake
		 * records only in TLS 1.2.
		 */
		if ((rx->prot.on && !rx->prot.tls12) || rx->armed || !len)
			return KTLS_ALERT_UNEXPECTED_MESSAGE;
		break;
	case KTLS_TYPE_CHANGE_CIPHER:
		/*
		 * RFC 8446 5: one byte, only after the first ClientHello and
		 * before the client's Finished, and (5.1) never between the
		 * fragments of a handshake message.
		 */
		if (!rx->ccs_ok || rx->msg_len || len != 1)
			return KTLS_ALERT_UNEXPECTED_MESSAGE;
		break;
	case KTLS_TYPE_ALERT:
		/*
		 * Nothing the client can say here lets the handshake go on;
		 * but a record that is no Alert (RFC 8446 5.1: never empty,
		 * never fragmented) gets an answer.  After its
		 * ChangeCipherSpec a TLS 1.2 client protects its alerts
		 * (RFC 5246 7.1): that one is opened first.
		 */
		if (prot12)
			break;
		if (len != KTLS_ALERT_LEN)
			return KTLS_ALERT_DECODE_ERROR;
		return KTLS_HS_PEER_ALERT;
	case KTLS_TYPE_DATA:
		/* TLS 1.2 has no data before the client's Finished. */
		if ((!rx->prot.on && !rx->early_skip) || rx->prot.tls12)
			return KTLS_ALERT_UNEXPECTED_MESSAGE;
		if (!len) {
			/* Cannot be a protected record: no tag. */
			if (!rx->early_skip)
				return KTLS_ALERT_BAD_RECORD_MAC;
			rx->hdr_len = 0;
			return 0;
		}
		break;
	default:
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	}
	/* The body lands behind the pending message bytes, in the buffer. */
	if (rx->msg_len + len > sizeof(rx->buf))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	rx->body_len = len;
	rx->body_got = 0;
	return 0;
}

/*
 * Open a protected record in place: on success *@type is the inner
 * content type and *@len the length of the content.  A record of
 * declined early data comes back as type 0, to be dropped.
 */
static int ktls_hs_rx_open(struct ktls_hs_rx *rx, u8 *body, size_t *len,
			   u8 *type)
{
	u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	size_t n = *len;

	if (rx->prot.on && n > KTLS_LIB_AEAD_TAG_SIZE) {
		/* RFC 8446 5.4: TLSInnerPlaintext is at most 2^14 + 1. */
		if (n - KTLS_LIB_AEAD_TAG_SIZE > KTLS_MAX_PLAINTEXT + 1)
			return KTLS_ALERT_RECORD_OVERFLOW;
		ktls_hs_nonce(&rx->prot, nonce);
		if (!ktls_lib_aead_open(&rx->prot.aead, nonce, rx->hdr,
					KTLS_HEADER_LEN, body, n)) {
			rx->prot.seq++;
			rx->early_skip = 0;
			n -= KTLS_LIB_AEAD_TAG_SIZE;
			while (n && !body[n - 1])
				n--;
			if (!n)
				return KTLS_ALERT_UNEXPECTED_MESSAGE;
			*type = body[--n];
			*len = n;
			return 0;
		}
	}
	/*
	 * RFC 8446 4.2.10: a server that declines early data skips the
	 * records it cannot deprotect, up to a limit.
	 */
	if (rx->early_skip >= n) {
		rx->early_skip -= n;
		*type = 0;
		return 0;
	}
	return KTLS_ALERT_BAD_RECORD_MAC;
}

/*
 * Open a TLS 1.2 protected handshake record in place; on success the
 * plaintext is at @body and *@len its length.
 */
static int ktls_hs_rx_open12(struct ktls_hs_rx *rx, u8 *body, size_t *len)
{
	size_t lead = ktls_hs_prot_lead(&rx->prot);
	u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	u8 aad[KTLS_HS_AAD12_LEN];
	size_t n = *len;

	/* Nothing but a tag is an empty fragment, which is refused too. */
	if (n <= lead + KTLS_LIB_AEAD_TAG_SIZE)
		return KTLS_ALERT_BAD_RECORD_MAC;
	n -= lead;
	if (lead)
		ktls_hs_nonce12(&rx->prot, body, nonce);
	else
		ktls_hs_nonce(&rx->prot, nonce);
	ktls_hs_aad12(&rx->prot, rx->hdr[0], n - KTLS_LIB_AEAD_TAG_SIZE, aad);
	if (ktls_lib_aead_open(&rx->prot.aead, nonce, aad, sizeof(aad),
			       body + lead, n))
		return KTLS_ALERT_BAD_RECORD_MAC;
	rx->prot.seq++;
	n -= KTLS_LIB_AEAD_TAG_SIZE;
	/*
	 * RFC 5246 6.2.3: record_overflow is for a record that "decrypted
	 * to" too much, so only one that authenticated gets it.
	 */
	if (n > KTLS_MAX_PLAINTEXT)
		return KTLS_ALERT_RECORD_OVERFLOW;
	memmove(body, body + lead, n);
	*len = n;
	return 0;
}

/*
 * The longest body the RFCs let a client give a message of @type that a
 * server may wait for: past it, the length itself is malformed.
 */
static size_t ktls_hs_rx_max_body(u8 type)
{
	switch (type) {
	case KTLS_HS_CLIENT_HELLO:
		return KTLS_HS_CLIENT_HELLO_MAX_BODY;
	case KTLS_HS_CLIENT_KEY_EXCHANGE:
		/* RFC 8422 5.7: an ECPoint<1..2^8-1>, our only exchange. */
		return 1 + 255;
	case KTLS_HS_FINISHED:
		/* Hash.length (RFC 8446 4.4.4), 12 bytes in TLS 1.2. */
		return KTLS_HASH_MAX_SIZE;
	default:
		return KTLS_HS_MAX_MSG_BODY;
	}
}

/*
 * A message's header is in: its type must be the one the state machine
 * waits for, and its length possible for the type (decode_error) and
 * within what we buffer.  A longer message that is legal is refused
 * with illegal_parameter, as OpenSSL and BoringSSL refuse an excessive
 * message: the client asked for more than this server holds.
 */
static int ktls_hs_rx_msg_header(const struct ktls_hs_rx *rx, size_t body)
{
	u8 type = rx->buf[0];

	if (rx->expect && type != rx->expect)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (body > ktls_hs_rx_max_body(type))
		return KTLS_ALERT_DECODE_ERROR;
	if (KTLS_HS_MSG_HDR_LEN + body > sizeof(rx->buf))
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

/* Hand up the buffered message if it is complete. */
static int ktls_hs_rx_message(struct ktls_hs_rx *rx, const u8 **msg,
			      size_t *msg_len)
{
	size_t need;
	int err;

	if (rx->msg_len < KTLS_HS_MSG_HDR_LEN)
		return 0;
	need = get_unaligned_be24(rx->buf + 1);
	err = ktls_hs_rx_msg_header(rx, need);
	if (err)
		return err;
	need += KTLS_HS_MSG_HDR_LEN;
	if (rx->msg_len < need)
		return 0;
	/*
	 * A message a key change follows (ClientHello, Finished) must end
	 * its record (RFC 8446 5.1), and one that ends the client's flight
	 * has nothing behind it: only a client's Certificate and
	 * CertificateVerify may have company.
	 */
	rx->taken = 0;
	if (rx->msg_len > need) {
		if (!rx->more)
			return KTLS_ALERT_UNEXPECTED_MESSAGE;
		rx->taken = need;
	} else {
		rx->msg_len = 0;
	}
	*msg = rx->buf;
	*msg_len = need;
	return 0;
}

int ktls_hs_rx_next(struct ktls_hs_rx *rx, const u8 **msg, size_t *msg_len)
{
	*msg = NULL;
	*msg_len = 0;
	if (!rx->taken)
		return 0;
	rx->msg_len -= rx->taken;
	memmove(rx->buf, rx->buf + rx->taken, rx->msg_len);
	rx->taken = 0;
	return ktls_hs_rx_message(rx, msg, msg_len);
}

static int ktls_hs_rx_record(struct ktls_hs_rx *rx, const u8 **msg,
			     size_t *msg_len)
{
	u8 *body = rx->buf + rx->msg_len;
	size_t len = rx->body_len;
	u8 type = rx->hdr[0];
	int err;

	rx->hdr_len = 0;
	if (type == KTLS_TYPE_CHANGE_CIPHER) {
		if (body[0] != 1)
			return KTLS_ALERT_UNEXPECTED_MESSAGE;
		/*
		 * RFC 8446 5: each one is dropped, up to the client's
		 * Finished.  A client sends one (D.4), and a peer that sends
		 * more spends its own bytes and the handshake's time limit,
		 * so no count is kept.  In TLS 1.2 it is the key change
		 * (RFC 5246 7.1), which comes once.
		 */
		if (rx->armed) {
			rx->ccs_ok = false;
			rx->armed = false;
			rx->prot.on = true;
		}
		return 0;
	}
	if ((type == KTLS_TYPE_HANDSHAKE || type == KTLS_TYPE_ALERT) &&
	    rx->prot.on) {
		err = ktls_hs_rx_open12(rx, body, &len);
		if (err)
			return err;
		if (type == KTLS_TYPE_ALERT)
			return len == KTLS_ALERT_LEN ? KTLS_HS_PEER_ALERT :
			       KTLS_ALERT_DECODE_ERROR;
	}
	if (type == KTLS_TYPE_DATA) {
		err = ktls_hs_rx_open(rx, body, &len, &type);
		if (err)
			return err;
		if (!type)
			return 0;
		if (type == KTLS_TYPE_ALERT)
			return len == KTLS_ALERT_LEN ? KTLS_HS_PEER_ALERT :
			       KTLS_ALERT_DECODE_ERROR;
		/*
		 * No application data before the client's Finished, and a
		 * protected ChangeCipherSpec is refused by RFC 8446 5.
		 */
		if (type != KTLS_TYPE_HANDSHAKE || !len)
			return KTLS_ALERT_UNEXPECTED_MESSAGE;
	}
	rx->msg_len += len;
	return ktls_hs_rx_message(rx, msg, msg_len);
}

int ktls_hs_rx_received(struct ktls_hs_rx *rx, size_t len, const u8 **msg,
			size_t *msg_len)
{
	*msg = NULL;
	*msg_len = 0;
	if (rx->hdr_len < KTLS_HEADER_LEN) {
		rx->hdr_len += len;
		if (rx->hdr_len < KTLS_HEADER_LEN)
			return 0;
		return ktls_hs_rx_header(rx);
	}
	rx->body_got += len;
	if (rx->body_got < rx->body_len)
		return 0;
	return ktls_hs_rx_record(rx, msg, msg_len);
}

int ktls_hs_rx_set_key(struct ktls_hs_rx *rx, enum ktls_lib_aead_alg alg,
		       const u8 *key, size_t key_len,
		       const u8 iv[KTLS_LIB_AEAD_NONCE_SIZE])
{
	/* RFC 8446 5.1: no message may span a key change. */
	if (rx->msg_len)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (ktls_hs_prot_set(&rx->prot, alg, key, key_len, iv))
		return KTLS_ALERT_INTERNAL_ERROR;
	return 0;
}

int ktls_hs_rx_arm_key12(struct ktls_hs_rx *rx, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len, const u8 *iv)
{
	if (rx->msg_len || rx->prot.on)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (ktls_hs_prot_set12(&rx->prot, alg, key, key_len, iv))
		return KTLS_ALERT_INTERNAL_ERROR;
	rx->prot.on = false;
	rx->armed = true;
	rx->ccs_ok = true;
	return 0;
}

void *ktls_hs_rx_spare(struct ktls_hs_rx *rx, const u8 *keep,
		       size_t keep_len, size_t size)
{
	uintptr_t lo = (uintptr_t)rx->buf, hi = lo + sizeof(rx->buf);
	uintptr_t k = (uintptr_t)keep, at;

	/* Behind what is kept, else in front of it. */
	if (k < lo || k + keep_len > hi)
		k = lo, keep_len = 0;
	at = ALIGN(k + keep_len, KTLS_HS_RX_SPARE_ALIGN);
	if (at + size <= hi)
		return (void *)at;
	at = ALIGN(lo, KTLS_HS_RX_SPARE_ALIGN);
	if (at + size <= k)
		return (void *)at;
	return NULL;
}

void ktls_hs_rx_wipe(struct ktls_hs_rx *rx)
{
	ktls_hs_prot_wipe(&rx->prot);
	/* Plaintext of protected records may still be in the buffer. */
	memzero_explicit(rx->buf, sizeof(rx->buf));
}

/* --------------------------------------------------------------- output */

void ktls_hs_tx_init(struct ktls_hs_tx *tx, u8 *buf, size_t cap)
{
	memset(tx, 0, sizeof(*tx));
	tx->buf = buf;
	tx->cap = cap;
	tx->max_plain = KTLS_MAX_PLAINTEXT;
}

void ktls_hs_tx_set_max_plain(struct ktls_hs_tx *tx, unsigned int max_plain)
{
	tx->max_plain = clamp_t(unsigned int, max_plain, KTLS_HS_MIN_PLAIN,
				KTLS_MAX_PLAINTEXT);
}

int ktls_hs_tx_set_key(struct ktls_hs_tx *tx, enum ktls_lib_aead_alg alg,
		       const u8 *key, size_t key_len,
		       const u8 iv[KTLS_LIB_AEAD_NONCE_SIZE])
{
	return ktls_hs_prot_set(&tx->prot, alg, key, key_len, iv);
}

int ktls_hs_tx_set_key12(struct ktls_hs_tx *tx, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len, const u8 *iv)
{
	return ktls_hs_prot_set12(&tx->prot, alg, key, key_len, iv);
}

/* Content bytes per record with the protection now in force. */
static size_t ktls_hs_tx_frag(const struct ktls_hs_tx *tx)
{
	return tx->prot.on ? tx->max_plain : KTLS_MAX_PLAINTEXT;
}

/* What framing adds to each record with the protection now in force. */
static size_t ktls_hs_tx_record_overhead(const struct ktls_hs_tx *tx)
{
	if (!tx->prot.on)
		return KTLS_HEADER_LEN;
	if (tx->prot.tls12)
		return KTLS_HEADER_LEN + ktls_hs_prot_lead(&tx->prot) +
		       KTLS_LIB_AEAD_TAG_SIZE;
	return KTLS_HS_PROT_OVERHEAD;
}

/* Bytes @plain message bytes take as records of @frag content, @o framing. */
static size_t ktls_hs_framed(size_t plain, size_t frag, size_t o)
{
	return plain + DIV_ROUND_UP(plain, frag) * o;
}

/*
 * The most message bytes that fit in @avail bytes once framed so: whole
 * records, then what a last, shorter one holds.  It never shrinks as
 * @avail grows, so a message that fits some room fits any larger one.
 */
static size_t ktls_hs_tx_room(size_t avail, size_t frag, size_t o)
{
	size_t rest = avail % (frag + o);

	return avail / (frag + o) * frag + (rest > o ? rest - o : 0);
}

size_t ktls_hs_tx_framed_len(size_t plain, bool protected)
{
	return ktls_hs_framed(plain, KTLS_MAX_PLAINTEXT,
			      protected ? KTLS_HS_PROT_OVERHEAD :
					  KTLS_HEADER_LEN);
}

bool ktls_hs_tx_limit_fits(size_t avail, const size_t *parts,
			   unsigned int nr, unsigned int max_plain)
{
	unsigned int i;

	if (max_plain < KTLS_HS_MIN_PLAIN || max_plain > KTLS_MAX_PLAINTEXT)
		return false;
	/*
	 * Each part is staged in what the ones before it left; one that
	 * fits its room frames into at most @avail, so nothing wraps.
	 */
	for (i = 0; i < nr; i++) {
		if (parts[i] > ktls_hs_tx_room(avail, max_plain,
					       KTLS_HS_PROT_OVERHEAD))
			return false;
		avail -= ktls_hs_framed(parts[i], max_plain,
					KTLS_HS_PROT_OVERHEAD);
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_tx_limit_fits);

void ktls_hs_tx_stage(struct ktls_hs_tx *tx, struct ktls_hs_buf *b)
{
	size_t avail = tx->cap - KTLS_HS_ALERT_ROOM - tx->len;

	b->data = tx->buf + tx->len + KTLS_HEADER_LEN;
	b->len = 0;
	b->cap = ktls_hs_tx_room(avail, ktls_hs_tx_frag(tx),
				 ktls_hs_tx_record_overhead(tx));
}

/* Protect the @len content bytes behind the header at @rec. */
static int ktls_hs_tx_seal(struct ktls_hs_tx *tx, u8 *rec, u8 type, size_t len)
{
	u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	u8 *body = rec + KTLS_HEADER_LEN;
	int err;

	/* TLSInnerPlaintext without padding: content, then its type. */
	body[len] = type;
	ktls_record_header(rec, KTLS_TYPE_DATA,
			   len + 1 + KTLS_LIB_AEAD_TAG_SIZE);
	ktls_hs_nonce(&tx->prot, nonce);
	err = ktls_lib_aead_seal(&tx->prot.aead, nonce, rec, KTLS_HEADER_LEN,
				 body, len + 1);
	tx->prot.seq++;
	return err;
}

/*
 * TLS 1.2: protect the @len content bytes behind the header at @rec and
 * the explicit nonce, if any; the explicit nonce is the sequence
 * number, which never repeats under one key.
 */
static int ktls_hs_tx_seal12(struct ktls_hs_tx *tx, u8 *rec, u8 type,
			     size_t len)
{
	size_t lead = ktls_hs_prot_lead(&tx->prot);
	u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE];
	u8 aad[KTLS_HS_AAD12_LEN];
	u8 *body = rec + KTLS_HEADER_LEN;
	int err;

	if (lead) {
		put_unaligned_be64(tx->prot.seq, body);
		ktls_hs_nonce12(&tx->prot, body, nonce);
	} else {
		ktls_hs_nonce(&tx->prot, nonce);
	}
	ktls_hs_aad12(&tx->prot, type, len, aad);
	ktls_record_header(rec, type, lead + len + KTLS_LIB_AEAD_TAG_SIZE);
	err = ktls_lib_aead_seal(&tx->prot.aead, nonce, aad, sizeof(aad),
				 body + lead, len);
	tx->prot.seq++;
	return err;
}

int ktls_hs_tx_commit(struct ktls_hs_tx *tx, const struct ktls_hs_buf *b,
		      u8 type)
{
	size_t o = ktls_hs_tx_record_overhead(tx);
	size_t lead = ktls_hs_prot_lead(&tx->prot);
	size_t frag = ktls_hs_tx_frag(tx);
	size_t n = DIV_ROUND_UP(b->len, frag);
	size_t stride = frag + o;
	u8 *base = tx->buf + tx->len;
	size_t i, off, clen;
	int err;

	if (WARN_ON_ONCE(b->data != base + KTLS_HEADER_LEN))
		return -EINVAL;
	/*
	 * The first record's content is already in place, but for an
	 * explicit nonce; each later one moves out to make room for the
	 * framing of those before it, last first so nothing is
	 * overwritten before it moved.
	 */
	for (i = n; i-- > 0;) {
		if (!i && !lead)
			break;
		off = i * frag;
		clen = min_t(size_t, b->len - off, frag);
		memmove(base + i * stride + KTLS_HEADER_LEN + lead,
			b->data + off, clen);
	}
	for (i = 0; i < n; i++) {
		u8 *rec = base + i * stride;

		clen = min_t(size_t, b->len - i * frag, frag);
		if (tx->prot.on && tx->prot.tls12) {
			err = ktls_hs_tx_seal12(tx, rec, type, clen);
			if (err)
				return err;
		} else if (tx->prot.on) {
			err = ktls_hs_tx_seal(tx, rec, type, clen);
			if (err)
				return err;
		} else {
			ktls_record_header(rec, type, clen);
		}
	}
	tx->len += b->len + n * o;
	return 0;
}

int ktls_hs_tx_ccs(struct ktls_hs_tx *tx)
{
	u8 *rec = tx->buf + tx->len;

	if (tx->len + KTLS_HEADER_LEN + 1 > tx->cap - KTLS_HS_ALERT_ROOM)
		return -ENOSPC;
	ktls_record_header(rec, KTLS_TYPE_CHANGE_CIPHER, 1);
	rec[KTLS_HEADER_LEN] = 1;
	tx->len += KTLS_HEADER_LEN + 1;
	return 0;
}

void ktls_hs_tx_alert(struct ktls_hs_tx *tx, u8 desc)
{
	u8 *rec = tx->buf + tx->len;
	size_t lead = ktls_hs_prot_lead(&tx->prot);

	/* Room is kept: this overwrites at most a flight never committed. */
	rec[KTLS_HEADER_LEN + lead] = KTLS_ALERT_LEVEL_FATAL;
	rec[KTLS_HEADER_LEN + lead + 1] = desc;
	if (!tx->prot.on) {
		ktls_record_header(rec, KTLS_TYPE_ALERT, 2);
		tx->len += KTLS_HEADER_LEN + 2;
	} else if (tx->prot.tls12) {
		if (!ktls_hs_tx_seal12(tx, rec, KTLS_TYPE_ALERT, 2))
			tx->len += ktls_hs_tx_record_overhead(tx) + 2;
	} else if (!ktls_hs_tx_seal(tx, rec, KTLS_TYPE_ALERT, 2)) {
		tx->len += KTLS_HS_PROT_OVERHEAD + 2;
	}
}

size_t ktls_hs_tx_output(const struct ktls_hs_tx *tx, const u8 **buf)
{
	*buf = tx->buf + tx->sent;
	return tx->len - tx->sent;
}

void ktls_hs_tx_sent(struct ktls_hs_tx *tx, size_t len)
{
	if (WARN_ON_ONCE(len > tx->len - tx->sent))
		len = tx->len - tx->sent;
	tx->sent += len;
	if (tx->sent == tx->len) {
		tx->sent = 0;
		tx->len = 0;
	}
}

void ktls_hs_tx_wipe(struct ktls_hs_tx *tx)
{
	ktls_hs_prot_wipe(&tx->prot);
}
