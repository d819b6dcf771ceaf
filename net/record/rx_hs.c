// SPDX-License-Identifier: GPL-2.0-only
/*
 * Handshake messages after a kernel TLS 1.3 handshake, where the record
 * layer is the TLS implementation: which messages the peer may send now,
 * and the reassembly of one split over records (RFC 8446 5.1).  This file
 * owns struct ktls_rx_hs and touches no socket: rx.c hands it the
 * plaintext of each handshake record, in order, and key_update.c follows
 * the KeyUpdate it returns.
 *
 * Our server never asks for post-handshake authentication and a client
 * sends no tickets, so KeyUpdate is the only message the peer may send,
 * and at five bytes it bounds what a partial message can make us hold.
 * A header declaring another type or another length is refused as soon
 * as its bytes are in, without waiting for the rest of the message.
 */
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>

#include "record.h"

/*
 * The body length a message of @type must have now, or 0 if the peer
 * may not send it at all (RFC 8446 4: unexpected_message).
 */
static unsigned int ktls_rx_hs_body_len(u8 type)
{
	/* RFC 8446 4.6.3: the body is request_update alone. */
	if (type == KTLS_KEY_UPDATE_TYPE)
		return KTLS_KEY_UPDATE_LEN - KTLS_RX_HS_HDR_LEN;
	return 0;
}

static_assert(KTLS_KEY_UPDATE_LEN <= KTLS_RX_HS_MAX_MSG);

static int ktls_rx_hs_refuse(struct ktls_rx_hs *hs, u8 *alert, u8 desc)
{
	hs->len = 0;
	*alert = desc;
	return desc == KTLS_RX_ALERT_UNEXPECTED ? -EPROTO : -EBADMSG;
}

/* Move up to @want - hs->len bytes of the record into the message. */
static void ktls_rx_hs_take(struct ktls_rx_hs *hs, const u8 **data,
			    unsigned int *len, unsigned int want)
{
	unsigned int n = min(*len, want - hs->len);

	memcpy(hs->buf + hs->len, *data, n);
	hs->len += n;
	*data += n;
	*len -= n;
}

/**
 * ktls_rx_hs_feed() - the plaintext of one handshake record
 * @hs:		the message being put together
 * @data:	the record's content
 * @len:	its length; a caller may cut a longer record to
 *		KTLS_RX_HS_PEEK bytes, since a record that long can only
 *		be refused, and is refused the same way
 * @alert:	where the fatal alert to answer goes, on an error
 *
 * Return: KTLS_RX_HS_MORE when the record ended inside a message (only
 * a handshake record may come next), KTLS_RX_HS_UPDATE or
 * KTLS_RX_HS_UPDATE_REQUESTED when it ended with a whole KeyUpdate: the
 * next record is under the peer's next key.  -EPROTO with
 * unexpected_message for an empty record, a message the peer may not
 * send, or bytes behind a KeyUpdate (RFC 8446 5.1: a message before a key
 * change ends its record); -EBADMSG with decode_error for a KeyUpdate
 * whose length is not 1, or with illegal_parameter for a request_update
 * other than 0 or 1 (RFC 8446 4.6.3, 6).
 */
int ktls_rx_hs_feed(struct ktls_rx_hs *hs, const u8 *data, unsigned int len,
		    u8 *alert)
{
	unsigned int body;

	/* RFC 8446 5.1: no zero-length fragments of Handshake type. */
	if (!len)
		return ktls_rx_hs_refuse(hs, alert, KTLS_RX_ALERT_UNEXPECTED);

	if (hs->len < KTLS_RX_HS_HDR_LEN) {
		ktls_rx_hs_take(hs, &data, &len, KTLS_RX_HS_HDR_LEN);
		if (!ktls_rx_hs_body_len(hs->buf[0]))
			return ktls_rx_hs_refuse(hs, alert,
						 KTLS_RX_ALERT_UNEXPECTED);
		if (hs->len < KTLS_RX_HS_HDR_LEN)
			return KTLS_RX_HS_MORE;
		if (get_unaligned_be24(hs->buf + 1) !=
		    ktls_rx_hs_body_len(hs->buf[0]))
			return ktls_rx_hs_refuse(hs, alert,
						 KTLS_RX_ALERT_DECODE_ERROR);
	}

	/* The header was checked: the whole message fits in hs->buf. */
	body = get_unaligned_be24(hs->buf + 1);
	ktls_rx_hs_take(hs, &data, &len, KTLS_RX_HS_HDR_LEN + body);
	if (hs->len < KTLS_RX_HS_HDR_LEN + body)
		return KTLS_RX_HS_MORE;
	if (len)
		return ktls_rx_hs_refuse(hs, alert, KTLS_RX_ALERT_UNEXPECTED);

	hs->len = 0;
	switch (hs->buf[KTLS_RX_HS_HDR_LEN]) {
	case KTLS_KEY_UPDATE_NOT_REQUESTED:
		return KTLS_RX_HS_UPDATE;
	case KTLS_KEY_UPDATE_REQUESTED:
		return KTLS_RX_HS_UPDATE_REQUESTED;
	default:
		return ktls_rx_hs_refuse(hs, alert,
					 KTLS_RX_ALERT_ILLEGAL_PARAM);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktls_rx_hs_feed);
