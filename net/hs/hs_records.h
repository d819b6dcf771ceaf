/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The record layer of the server handshake, below the state machines of
 * tls13_server.c and tls12_server.c: it frames what the client sends
 * into handshake messages (plaintext records first, then records
 * protected with the client's handshake traffic key, or in TLS 1.2 with
 * its write key once its ChangeCipherSpec came), drops the middlebox-
 * compatibility ChangeCipherSpec of 1.3, and frames what the server
 * sends into plaintext or protected records in its output buffer.
 *
 * Buffers are the engine's; nothing here allocates or sleeps.
 */
#ifndef _KTLS_HS_HS_RECORDS_H
#define _KTLS_HS_HS_RECORDS_H

#include <linux/types.h>

#include <ktls_hs/aead_lib.h>

#include "../record/record.h"
#include "codec.h"

/* RFC 8446 5.2: a protected record's body may exceed 2^14 by up to 256. */
#define KTLS_HS_MAX_CIPHERTEXT	(KTLS_MAX_PLAINTEXT + 256)
/* RFC 5246 6.2.3: by up to 2048 in TLS 1.2 (read behind a small message). */
#define KTLS_HS_MAX_CIPHERTEXT12	(KTLS_MAX_PLAINTEXT + 2048)
/* Pending message bytes, then one record body right behind them. */
#define KTLS_HS_RX_BUF_LEN	(KTLS_HS_MAX_CLIENT_MSG + KTLS_HS_MAX_CIPHERTEXT)
/* See ktls_hs_rx_spare(). */
#define KTLS_HS_RX_SPARE_ALIGN	8
#define KTLS_HS_RX_SPARE_MIN(keep) \
	((KTLS_HS_RX_BUF_LEN - (keep)) / 2 - KTLS_HS_RX_SPARE_ALIGN)
/* What protection adds to a record: header, inner content type, tag. */
#define KTLS_HS_PROT_OVERHEAD	(KTLS_HEADER_LEN + 1 + KTLS_LIB_AEAD_TAG_SIZE)
/* TLS 1.2 AES-GCM (RFC 5288 3): the explicit part of the nonce instead. */
#define KTLS_HS_EXPLICIT_NONCE	8
#define KTLS_HS_PROT12_OVERHEAD	(KTLS_HEADER_LEN + KTLS_HS_EXPLICIT_NONCE + \
				 KTLS_LIB_AEAD_TAG_SIZE)
/*
 * The least content a protected record of ours may be held to: a TLS 1.3
 * record_size_limit of 64 counts the inner content type (RFC 8449 4).
 */
#define KTLS_HS_MIN_PLAIN	(KTLS_MIN_RECORD_LIMIT - 1)
/* Room kept free in the output buffer so a fatal alert always fits. */
#define KTLS_HS_ALERT_ROOM	(KTLS_HS_PROT12_OVERHEAD + 2)
/*
 * Early data a client may send after offering it, which a server that
 * declines must skip (RFC 8446 4.2.10).  Our tickets never announce a
 * max_early_data_size, so none was ever allowed; this bounds the work.
 */
#define KTLS_HS_EARLY_SKIP_MAX	(4 * KTLS_HS_MAX_CIPHERTEXT)

/* Returned instead of an alert when the client sent one: no answer. */
#define KTLS_HS_PEER_ALERT	(-ECONNRESET)

/**
 * struct ktls_hs_prot - handshake traffic protection of one direction
 * @aead:	keyed AEAD, if @on
 * @iv:		the static iv of RFC 8446 5.3
 * @seq:	sequence number of the next record
 * @on:		records are protected
 * @tls12:	as TLS 1.2 does it (RFC 5246 6.2.3.3): the real content
 *		type outside, the sequence number in the additional data
 * @explicit:	and the nonce is @iv's 4-byte salt, then 8 bytes carried
 *		in each record (AES-GCM, RFC 5288); else @iv XOR seq
 *		(ChaCha20-Poly1305, RFC 7905)
 */
struct ktls_hs_prot {
	struct ktls_lib_aead aead;
	u8 iv[KTLS_LIB_AEAD_NONCE_SIZE];
	u64 seq;
	bool on;
	bool tls12;
	bool explicit;
};

/**
 * struct ktls_hs_rx - input framing
 * @prot:	the client's handshake traffic protection, once set
 * @hdr:	header of the record in hand
 * @hdr_len:	bytes of @hdr received
 * @body_len:	length of its body, from @hdr
 * @body_got:	bytes of the body received
 * @msg_len:	handshake bytes buffered at the start of @buf: one partial
 *		message, since a complete one is handed up at once, and
 *		while one is up, what its record held behind it
 * @taken:	bytes of @buf handed up as a message that the record went
 *		on behind (@more), 0 if none
 * @ccs_ok:	a middlebox-compatibility ChangeCipherSpec may come now
 * @armed:	TLS 1.2: @prot is keyed, and turns on with the client's
 *		ChangeCipherSpec
 * @early_skip:	bytes of declined early data that may still be skipped
 * @expect:	the handshake message type the state machine waits for,
 *		0 for any
 * @more:	that message may share its record with the next one, as a
 *		client's Certificate and CertificateVerify do; any other
 *		must end its record
 * @buf:	message bytes, then the body of the record in hand
 */
struct ktls_hs_rx {
	struct ktls_hs_prot prot;
	u8 hdr[KTLS_HEADER_LEN];
	u8 hdr_len;
	u16 body_len;
	u16 body_got;
	u32 msg_len;
	u32 taken;
	bool ccs_ok;
	bool armed;
	u32 early_skip;
	u8 expect;
	bool more;
	u8 buf[KTLS_HS_RX_BUF_LEN];
};

/**
 * struct ktls_hs_tx - output framing
 * @prot:	the server's handshake traffic protection, once set
 * @buf:	the output buffer
 * @cap:	its size, KTLS_HS_ALERT_ROOM of it kept for an alert
 * @len:	bytes queued
 * @sent:	bytes of those handed to TCP
 * @max_plain:	most content one protected record carries: the client's
 *		record_size_limit (RFC 8449) once known, else 2^14
 */
struct ktls_hs_tx {
	struct ktls_hs_prot prot;
	u8 *buf;
	size_t cap;
	size_t len;
	size_t sent;
	u16 max_plain;
};

void ktls_hs_rx_init(struct ktls_hs_rx *rx);
size_t ktls_hs_rx_want(struct ktls_hs_rx *rx, u8 **buf);
/*
 * @len bytes arrived where ktls_hs_rx_want() said.  Returns 0, the alert
 * to send, or KTLS_HS_PEER_ALERT.  Sets *@msg and *@msg_len (else 0) when
 * the record completed a handshake message, which stays valid until the
 * next call.
 */
int ktls_hs_rx_received(struct ktls_hs_rx *rx, size_t len, const u8 **msg,
			size_t *msg_len);
/*
 * The message handed up last was dealt with: the next one its record
 * held, if complete, as ktls_hs_rx_received() hands it up (@expect and
 * @more set for it first); else its start stays buffered.
 */
int ktls_hs_rx_next(struct ktls_hs_rx *rx, const u8 **msg, size_t *msg_len);
/* Records from now on are protected with @key and @iv. */
int ktls_hs_rx_set_key(struct ktls_hs_rx *rx, enum ktls_lib_aead_alg alg,
		       const u8 *key, size_t key_len,
		       const u8 iv[KTLS_LIB_AEAD_NONCE_SIZE]);
/*
 * TLS 1.2 (RFC 5246 7.1): records are protected with @key and @iv from
 * the client's next ChangeCipherSpec on, which may come now and must
 * precede any further handshake record.  @iv is the 4-byte salt of
 * AES-GCM or the 12-byte iv of ChaCha20-Poly1305.
 */
int ktls_hs_rx_arm_key12(struct ktls_hs_rx *rx, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len, const u8 *iv);
/*
 * Working memory of @size bytes in the input buffer, aligned to
 * KTLS_HS_RX_SPARE_ALIGN, clear of the @keep_len bytes at @keep: for a
 * state handling a message just handed up, done with all of it but
 * @keep.  The message ended its record, so until the next input the
 * buffer holds nothing else the record layer needs.  There is always
 * room for KTLS_HS_RX_SPARE_MIN(@keep_len) bytes, the larger of the two
 * parts @keep leaves being at least half of the rest; NULL if @size is
 * more than there is.
 */
void *ktls_hs_rx_spare(struct ktls_hs_rx *rx, const u8 *keep,
		       size_t keep_len, size_t size);
void ktls_hs_rx_wipe(struct ktls_hs_rx *rx);

void ktls_hs_tx_init(struct ktls_hs_tx *tx, u8 *buf, size_t cap);
int ktls_hs_tx_set_key(struct ktls_hs_tx *tx, enum ktls_lib_aead_alg alg,
		       const u8 *key, size_t key_len,
		       const u8 iv[KTLS_LIB_AEAD_NONCE_SIZE]);
/*
 * Protected records carry at most @max_plain content bytes from now on,
 * KTLS_HS_MIN_PLAIN .. KTLS_MAX_PLAINTEXT; plaintext ones are not bound
 * by a record_size_limit (RFC 8449 4).
 */
void ktls_hs_tx_set_max_plain(struct ktls_hs_tx *tx, unsigned int max_plain);
/* TLS 1.2: records from now on are protected as ktls_hs_rx_arm_key12(). */
int ktls_hs_tx_set_key12(struct ktls_hs_tx *tx, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len, const u8 *iv);
/*
 * Handshake messages are built in @b, in the free part of the output
 * buffer, then framed where they lie into records of @type by
 * ktls_hs_tx_commit(): protected ones if a key is set.  Several
 * messages committed at once share records.
 */
void ktls_hs_tx_stage(struct ktls_hs_tx *tx, struct ktls_hs_buf *b);
int ktls_hs_tx_commit(struct ktls_hs_tx *tx, const struct ktls_hs_buf *b,
		      u8 type);
int ktls_hs_tx_ccs(struct ktls_hs_tx *tx);
/* A fatal alert; always fits. */
void ktls_hs_tx_alert(struct ktls_hs_tx *tx, u8 desc);
size_t ktls_hs_tx_output(const struct ktls_hs_tx *tx, const u8 **buf);
void ktls_hs_tx_sent(struct ktls_hs_tx *tx, size_t len);
void ktls_hs_tx_wipe(struct ktls_hs_tx *tx);
/*
 * Output bytes @plain bytes of handshake messages take as records of
 * 2^14 bytes, protected as TLS 1.3 does it if @protected.
 */
size_t ktls_hs_tx_framed_len(size_t plain, bool protected);
/*
 * Whether messages of @parts[0..@nr-1] bytes, each staged and committed
 * in turn as TLS 1.3 protected records of at most @max_plain content
 * bytes, fit in @avail bytes of output (the alert's room not counted
 * in it).  False for a @max_plain out of KTLS_HS_MIN_PLAIN ..
 * KTLS_MAX_PLAINTEXT.
 */
bool ktls_hs_tx_limit_fits(size_t avail, const size_t *parts,
			   unsigned int nr, unsigned int max_plain);

#endif /* _KTLS_HS_HS_RECORDS_H */
