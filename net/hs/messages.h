/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Wire constants of the TLS handshake (RFC 8446, RFC 5246 and the
 * extension RFCs), named once.  Only numbers live here; the layouts are
 * parsed and built in codec files, with their bounds checked there.
 */
#ifndef _KTLS_HS_MESSAGES_H
#define _KTLS_HS_MESSAGES_H

#include <linux/sizes.h>

/* Handshake message header: type(1) length(3) */
#define KTLS_HS_MSG_HDR_LEN		4
#define KTLS_HS_RANDOM_LEN		32
#define KTLS_HS_SESSION_ID_MAX		32

/* HandshakeType */
enum {
	KTLS_HS_CLIENT_HELLO		= 1,
	KTLS_HS_SERVER_HELLO		= 2,
	KTLS_HS_NEW_SESSION_TICKET	= 4,
	KTLS_HS_END_OF_EARLY_DATA	= 5,
	KTLS_HS_ENCRYPTED_EXTENSIONS	= 8,
	KTLS_HS_CERTIFICATE		= 11,
	KTLS_HS_SERVER_KEY_EXCHANGE	= 12,	/* 1.2 */
	KTLS_HS_CERTIFICATE_REQUEST	= 13,
	KTLS_HS_SERVER_HELLO_DONE	= 14,	/* 1.2 */
	KTLS_HS_CERTIFICATE_VERIFY	= 15,
	KTLS_HS_CLIENT_KEY_EXCHANGE	= 16,	/* 1.2 */
	KTLS_HS_FINISHED		= 20,
	KTLS_HS_KEY_UPDATE		= 24,
	KTLS_HS_MESSAGE_HASH		= 254,
};

/* ExtensionType */
enum {
	KTLS_EXT_SERVER_NAME		= 0,
	KTLS_EXT_MAX_FRAGMENT_LENGTH	= 1,
	KTLS_EXT_SUPPORTED_GROUPS	= 10,
	KTLS_EXT_EC_POINT_FORMATS	= 11,
	KTLS_EXT_SIGNATURE_ALGORITHMS	= 13,
	KTLS_EXT_ALPN			= 16,
	KTLS_EXT_PADDING		= 21,
	KTLS_EXT_EXTENDED_MASTER_SECRET	= 23,
	KTLS_EXT_RECORD_SIZE_LIMIT	= 28,
	KTLS_EXT_SESSION_TICKET		= 35,
	KTLS_EXT_PRE_SHARED_KEY		= 41,
	KTLS_EXT_EARLY_DATA		= 42,
	KTLS_EXT_SUPPORTED_VERSIONS	= 43,
	KTLS_EXT_COOKIE			= 44,
	KTLS_EXT_PSK_KEY_EXCHANGE_MODES	= 45,
	KTLS_EXT_CERTIFICATE_AUTHORITIES = 47,
	KTLS_EXT_SIGNATURE_ALGORITHMS_CERT = 50,
	KTLS_EXT_KEY_SHARE		= 51,
	KTLS_EXT_RENEGOTIATION_INFO	= 0xff01,
};

/* AlertDescription; every alert we send is fatal (level 2). */
#define KTLS_ALERT_LEVEL_WARNING	1
#define KTLS_ALERT_LEVEL_FATAL		2
enum {
	KTLS_ALERT_CLOSE_NOTIFY			= 0,
	KTLS_ALERT_UNEXPECTED_MESSAGE		= 10,
	KTLS_ALERT_BAD_RECORD_MAC		= 20,
	KTLS_ALERT_RECORD_OVERFLOW		= 22,
	KTLS_ALERT_HANDSHAKE_FAILURE		= 40,
	KTLS_ALERT_BAD_CERTIFICATE		= 42,
	KTLS_ALERT_UNSUPPORTED_CERTIFICATE	= 43,
	KTLS_ALERT_CERTIFICATE_EXPIRED		= 45,
	KTLS_ALERT_ILLEGAL_PARAMETER		= 47,
	KTLS_ALERT_UNKNOWN_CA			= 48,
	KTLS_ALERT_DECODE_ERROR			= 50,
	KTLS_ALERT_DECRYPT_ERROR		= 51,
	KTLS_ALERT_PROTOCOL_VERSION		= 70,
	KTLS_ALERT_INSUFFICIENT_SECURITY	= 71,
	KTLS_ALERT_INTERNAL_ERROR		= 80,
	KTLS_ALERT_INAPPROPRIATE_FALLBACK	= 86,
	KTLS_ALERT_MISSING_EXTENSION		= 109,
	KTLS_ALERT_UNSUPPORTED_EXTENSION	= 110,
	KTLS_ALERT_UNRECOGNIZED_NAME		= 112,
	KTLS_ALERT_CERTIFICATE_REQUIRED		= 116,
	KTLS_ALERT_NO_APPLICATION_PROTOCOL	= 120,
};

/* ProtocolVersion */
#define KTLS_VERSION_SSL30		0x0300
#define KTLS_VERSION_TLS12		0x0303
#define KTLS_VERSION_TLS13		0x0304

/* NamedGroup */
#define KTLS_GROUP_SECP256R1		0x0017
#define KTLS_GROUP_X25519		0x001d
/* draft-ietf-tls-ecdhe-mlkem */
#define KTLS_GROUP_SECP256R1MLKEM768	0x11eb
#define KTLS_GROUP_X25519MLKEM768	0x11ec

/* SignatureScheme */
#define KTLS_SIG_ECDSA_SECP256R1_SHA256	0x0403

/* ClientCertificateType (TLS 1.2, RFC 4492 5.5) */
#define KTLS_CERT_TYPE_ECDSA_SIGN	64

/* CipherSuite (TLS 1.3) */
#define KTLS_SUITE_AES_128_GCM_SHA256		0x1301
#define KTLS_SUITE_AES_256_GCM_SHA384		0x1302
#define KTLS_SUITE_CHACHA20_POLY1305_SHA256	0x1303
#define KTLS_SUITE_AES_128_CCM_SHA256		0x1304
/* Signalling values a 1.2 ClientHello may carry in its suite list */
#define KTLS_SUITE_EMPTY_RENEGOTIATION_SCSV	0x00ff
#define KTLS_SUITE_FALLBACK_SCSV		0x5600

/* PskKeyExchangeMode */
#define KTLS_PSK_KE			0
#define KTLS_PSK_DHE_KE			1

/* ServerNameType */
#define KTLS_SNI_HOST_NAME		0

/* Key share sizes of the groups we implement */
#define KTLS_X25519_KEY_LEN		32
#define KTLS_P256_SHARE_LEN		65

/*
 * RFC 8446 4.1.2 bounds a ClientHello's body: legacy_version, random,
 * legacy_session_id<0..32>, cipher_suites<2..2^16-2>,
 * legacy_compression_methods<1..2^8-1>, extensions<8..2^16-1>.
 */
#define KTLS_HS_CLIENT_HELLO_MAX_BODY	(2 + 32 + 1 + 32 + 2 + 65534 + \
					 1 + 255 + 2 + 65535)
/* A handshake message's length field is 24 bits (RFC 8446 4). */
#define KTLS_HS_MAX_MSG_BODY		((1 << 24) - 1)

/*
 * Limits on what a client may make us hold.  The engine keeps this many
 * bytes of a message in hand while the next record (up to 2^14 + 256
 * bytes) is read behind them, and a message may fill both: ~23 KB, so a
 * ClientHello in plaintext records has room for GREASE, post-quantum
 * shares (1.2 KB each) and a few hundred shares of groups we do not
 * know.  Anything bigger is refused before it is buffered.  7 KiB rather
 * than 8: the KiB went to the output buffer, for the hybrid key share
 * of our ServerHello, so that an engine stays within its pool block.
 */
#define KTLS_HS_MAX_CLIENT_MSG		(7 * SZ_1K)
#define KTLS_HS_MAX_ALPN_LEN		255	/* one protocol name */
#define KTLS_HS_MAX_SNI_LEN		255	/* one DNS host name */

#endif /* _KTLS_HS_MESSAGES_H */
