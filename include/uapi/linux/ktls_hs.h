/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * ktls-hs: the in-kernel TLS server handshake, user API.
 *
 * Everything here is in addition to <linux/tls.h>, whose SOL_TLS options
 * (1..6 upstream) keep their meaning; ours are numbered from 100 so that
 * they never collide with upstream's.
 *
 * Armed listener:
 *	listen(fd, backlog);
 *	setsockopt(fd, IPPROTO_TCP, TCP_ULP, "ktls_hs", sizeof("ktls_hs"));
 *	setsockopt(fd, SOL_TLS, KTLS_HS_IDENTITY, &serial, sizeof(serial));
 *	(optional: KTLS_HS_SUITES, KTLS_HS_GROUPS, KTLS_HS_ALPN, KTLS_HS_TIMEOUT,
 *	 KTLS_HS_VERSIONS, KTLS_HS_EMS_OPTIONAL, KTLS_HS_CLIENT_AUTH, ...)
 *	c = accept(fd, ...);	c speaks TLS already: read/write/sendfile
 *
 * The ULP of an armed listener is "ktls_hs" rather than "tls": the
 * upstream API (and its selftest) define TCP_ULP "tls" on a listening
 * socket as -ENOTCONN, and that stays true.  Accepted sockets carry the
 * "tls" ULP like any other kTLS socket.
 *
 * Per-socket: on an established socket with TCP_ULP "tls" and no keys,
 * set the options above, then KTLS_HS_START; poll()/recv() wait for the
 * handshake.  If it fails, recv(), send() and KTLS_HS_SESSION fail for
 * good with the socket's own error when TCP set one (ECONNRESET on a
 * reset), ETIMEDOUT at KTLS_HS_TIMEOUT, or EPROTO (an alert, or a FIN
 * before the end), and poll() reports EPOLLERR.
 */
#ifndef _UAPI_LINUX_KTLS_HS_H
#define _UAPI_LINUX_KTLS_HS_H

#include <linux/types.h>

/*
 * Upstream's TLS_TX_MAX_PAYLOAD_LEN (Linux 6.19), for building against
 * an older <linux/tls.h>: set/get __u16, the most plaintext one TX record
 * carries.  For a peer's RFC 8449 record_size_limit L that is L in TLS
 * 1.2 and L - 1 in TLS 1.3 (the inner content type counts in L); 64 ..
 * 16384 in TLS 1.2, 63 .. 16384 in TLS 1.3, default 16384.  EBUSY while
 * a TX record is open (MSG_MORE).  See Documentation/handshake.rst.
 */
#ifndef TLS_TX_MAX_PAYLOAD_LEN
#define TLS_TX_MAX_PAYLOAD_LEN	5
#endif

/* SOL_TLS option names */
/* set: __s32 serial of a "ktls_identity" key, adds one (up to 8); get: all */
#define KTLS_HS_IDENTITY	100
#define KTLS_HS_SUITES		101	/* set/get: __u32, KTLS_HS_SUITE_* bits */
#define KTLS_HS_GROUPS		102	/* set/get: __u32, KTLS_HS_GROUP_* bits */
#define KTLS_HS_ALPN		103	/* set/get: ALPN protocol_name_list, wire format */
#define KTLS_HS_TIMEOUT		104	/* set/get: __u32 handshake timeout, ms */
#define KTLS_HS_START		105	/* set: none; start the server handshake */
#define KTLS_HS_SESSION		106	/* get: struct ktls_hs_session_info */
#define KTLS_HS_STATS		107	/* get: struct ktls_hs_listen_stats (listener) */
/*
 * set: int, on a socket whose TLS 1.3 keys come from the in-kernel
 * handshake: send a KeyUpdate and switch to our next traffic key; 1 also
 * asks the peer to update its own (KTLS_HS_REKEY_REQUEST).  Errors:
 * EINVAL (optlen not sizeof(int), or another value), EOPNOTSUPP (keys set
 * by userspace, or none), EINPROGRESS (handshake running), or what a
 * blocking send() would fail with.  The kernel also answers the peer's
 * KeyUpdate on such sockets by itself; see Documentation/handshake.rst.
 */
#define KTLS_HS_REKEY	108
/* set/get: __u32, KTLS_HS_VERSION_* bits the handshake may negotiate */
#define KTLS_HS_VERSIONS	109
/*
 * set/get: int 0/1; 1 lets TLS 1.2 clients without the extended master
 * secret (RFC 7627) through.  Default 0: they get handshake_failure.
 */
#define KTLS_HS_EMS_OPTIONAL	110

/*
 * set/get: struct ktls_hs_tickets, on an armed listener (or before
 * KTLS_HS_START): issue session tickets (TLS 1.3, and RFC 5077 ones in
 * TLS 1.2) and resume sessions from them.  Errors: EINVAL (optlen, a
 * lifetime or period over KTLS_HS_TICKET_LIFETIME_MAX, an unknown flag,
 * or a group or period with lifetime 0), EBUSY (the key group exists
 * with another rotation period), ENOMEM.  With KTLS_HS_TICKETS_KEYRING,
 * also: EINVAL (rotate_s not 0, key_group not a serial, or the key not a
 * "ktls_tickets" one), ENOKEY (no such key), EACCES (the caller may not
 * search it), EKEYREVOKED, EKEYEXPIRED.  See Documentation/handshake.rst.
 */
#define KTLS_HS_TICKETS		111
/*
 * set: none; replace the current ticket key of the socket's key group
 * now: tickets of the key before it are no longer taken.  EINVAL for an
 * argument, ENOENT without tickets, EOPNOTSUPP when the keys are an
 * operator's (KTLS_HS_TICKETS_KEYRING): those rotate by a key update.
 */
#define KTLS_HS_TICKET_ROTATE	112

/*
 * set/get: int 0/1, on an armed listener or before KTLS_HS_START.  1: a
 * client asking for what the kernel lacks (protocol version, cipher
 * suite, group, signature algorithm) is not refused but handed over
 * untouched, through accept() or to the per-socket caller: no keys, the
 * ClientHello still unread, for the application's own TLS library.  See
 * Documentation/handshake.rst.
 */
#define KTLS_HS_FALLBACK	113
/* get: int, 1 if the socket was handed over as above, else 0 */
#define KTLS_HS_FALLEN_BACK	114
/* set/get: __u32 KTLS_HS_SNI_*, for a server_name no identity matches */
#define KTLS_HS_SNI_POLICY	115

/*
 * set/get: struct ktls_hs_client_auth, on an armed listener or before
 * KTLS_HS_START: ask the client for a certificate and verify its chain
 * against a trust store, a "ktls_trust" key (`ktls trust add`).  Errors:
 * EINVAL (optlen, an unknown mode or flag, reserved not 0, a trust
 * serial with mode NONE or none without), ENOKEY (no such key), EACCES
 * (the caller may not search it), EKEYREVOKED, EKEYEXPIRED, or EINVAL
 * for a key of another type.  See Documentation/handshake.rst.
 */
#define KTLS_HS_CLIENT_AUTH	116
/*
 * get: struct ktls_hs_peer_info, the client certificate the handshake
 * verified, or, for a session resumed from a ticket, the one its ticket
 * carried (flag KTLS_HS_PEER_F_RESUMED).  ENOENT when the client sent
 * none (or none was asked for), EINPROGRESS while the handshake runs,
 * its error if it failed.
 */
#define KTLS_HS_PEER		117

/* KTLS_HS_REKEY values */
#define KTLS_HS_REKEY_OURS		0	/* update_not_requested */
#define KTLS_HS_REKEY_REQUEST	1	/* update_requested */

/* KTLS_HS_SNI_POLICY values */
#define KTLS_HS_SNI_DEFAULT	0	/* serve the first identity */
#define KTLS_HS_SNI_REJECT	1	/* fatal unrecognized_name alert */
#define KTLS_HS_SNI_FALLBACK	2	/* hand the connection to userspace */

/*
 * KTLS_HS_SUITES bits: TLS 1.3 cipher suites; default: all but
 * TLS_AES_128_CCM_SHA256, which is there for whoever asks for it
 */
#define KTLS_HS_SUITE_AES_128_GCM_SHA256	0x00000001U
#define KTLS_HS_SUITE_AES_256_GCM_SHA384	0x00000002U
#define KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256	0x00000004U
#define KTLS_HS_SUITE_AES_128_CCM_SHA256	0x00000008U
/* TLS 1.2 cipher suites (RFC 5289, RFC 7905) */
#define KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256	0x00000100U
#define KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384	0x00000200U
#define KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256	0x00000400U

/* KTLS_HS_VERSIONS bits; default: both.  1.3 wins when both sides can. */
#define KTLS_HS_VERSION_TLS12			0x00000001U
#define KTLS_HS_VERSION_TLS13			0x00000002U

/*
 * KTLS_HS_GROUPS bits; default: the four groups, without
 * KTLS_HS_GROUP_HYBRID_RETRY.  TLS 1.3 takes the client's share of a
 * post-quantum hybrid group (draft-ietf-tls-ecdhe-mlkem: X25519MLKEM768,
 * then SecP256r1MLKEM768) over one of X25519 over one of P-256; with no
 * share it can use, it asks for X25519, then P-256, then a hybrid, by
 * HelloRetryRequest.  TLS 1.2 knows X25519 and P-256 only.
 */
#define KTLS_HS_GROUP_X25519			0x00000001U
#define KTLS_HS_GROUP_SECP256R1			0x00000002U
#define KTLS_HS_GROUP_X25519MLKEM768		0x00000004U
#define KTLS_HS_GROUP_SECP256R1MLKEM768		0x00000008U
/*
 * Not a group but how to treat one: a client that lists a hybrid group
 * allowed here, without a share of one, is asked for that share by
 * HelloRetryRequest, even when it sent one of X25519 or P-256 we could
 * take.  Clients that list no hybrid group are served as without it.
 */
#define KTLS_HS_GROUP_HYBRID_RETRY		0x80000000U

#define KTLS_HS_IDENTITIES_MAX	8
#define KTLS_HS_ALPN_MAX	255	/* bytes of the whole protocol_name_list */
#define KTLS_HS_TIMEOUT_DEFAULT	10000	/* ms */

/* KTLS_HS_TICKETS */
struct ktls_hs_tickets {
	__u32 lifetime_s;	/* ticket lifetime; 0: no tickets, no resumption */
	__u32 key_group;	/* 0: own keys; else shared per netns and user */
	__u32 rotate_s;		/* ticket key rotation period; 0: lifetime_s */
	__u32 flags;		/* KTLS_HS_TICKETS_* */
};

/*
 * struct ktls_hs_tickets flags.  KEYRING: seal and open tickets with the
 * keys of the "ktls_tickets" key whose serial (a key_serial_t) is in
 * key_group, in place of a group number: keys an operator supplies and
 * rotates (keyctl update), the same on every machine of a fleet.
 * rotate_s must be 0.  Kernels without the flag refuse it with EINVAL.
 */
#define KTLS_HS_TICKETS_KEYRING		0x00000001U

#define KTLS_HS_TICKET_LIFETIME_MAX	604800	/* seconds: RFC 8446 4.6.1 */

/* KTLS_HS_SESSION */
struct ktls_hs_session_info {
	__u16 version;		/* TLS_1_3_VERSION or TLS_1_2_VERSION */
	__u16 cipher_suite;	/* IANA number, e.g. 0x1301 */
	__u16 group;		/* IANA number, e.g. 0x001d (X25519) */
	__u8 resumed;		/* 1 if resumed from a ticket */
	__u8 reserved;
	char alpn[256];		/* NUL-terminated, "" if none */
	char server_name[256];	/* SNI the client sent, "" if none */
};

/* KTLS_HS_CLIENT_AUTH */
struct ktls_hs_client_auth {
	__u32 mode;		/* KTLS_HS_CLIENT_AUTH_* */
	__s32 trust;		/* serial of a "ktls_trust" key; 0 with NONE */
	__u32 flags;		/* KTLS_HS_CLIENT_AUTH_F_* */
	__u32 reserved;		/* 0 */
};

/* struct ktls_hs_client_auth modes */
#define KTLS_HS_CLIENT_AUTH_NONE	0	/* no CertificateRequest (default) */
/* Ask; a client without a certificate goes through unauthenticated. */
#define KTLS_HS_CLIENT_AUTH_OPTIONAL	1
/*
 * Ask; a client without one gets certificate_required (in TLS 1.2
 * handshake_failure).
 */
#define KTLS_HS_CLIENT_AUTH_REQUIRED	2

/*
 * struct ktls_hs_client_auth flags.  CA_NAMES: the CertificateRequest
 * names the trust store's CAs (TLS 1.3 certificate_authorities), so that
 * a client with several certificates picks one of theirs; left out when
 * the names exceed KTLS_HS_CA_NAMES_MAX bytes.
 */
#define KTLS_HS_CLIENT_AUTH_F_CA_NAMES	0x00000001U
#define KTLS_HS_CA_NAMES_MAX		1024

/* KTLS_HS_PEER: the client's verified leaf certificate */
struct ktls_hs_peer_info {
	__u8 sha256[32];	/* SHA-256 of its DER */
	__s64 not_after;	/* end of its validity, seconds since 1970 */
	__u32 depth;		/* certificates in the path, leaf included */
	__u32 flags;		/* KTLS_HS_PEER_F_* */
	char subject[256];	/* one line, "CN=a, O=b", NUL-terminated */
	char issuer[256];
	/*
	 * Its subjectAltNames of the kinds DNS, URI (SPIFFE IDs) and email,
	 * in certificate order, each as "DNS:name\n", "URI:uri\n" or
	 * "email:addr\n"; printable ASCII, NUL-terminated.
	 */
	char sans[1024];
};

/* struct ktls_hs_peer_info flags */
#define KTLS_HS_PEER_F_SANS_TRUNCATED	0x00000001U	/* more names than fit */
/*
 * Verified when the session's ticket was issued, not now: the session
 * was resumed, and what it says is what its ticket carried.
 */
#define KTLS_HS_PEER_F_RESUMED		0x00000002U

/* KTLS_HS_STATS: counters of one armed listener */
struct ktls_hs_listen_stats {
	__u64 completed;	/* handshakes that reached accept() */
	__u64 failed;		/* an alert sent or received, a reset, a FIN */
	__u64 timed_out;	/* closed by KTLS_HS_TIMEOUT */
	__u64 dropped;		/* refused: no memory or too many in flight */
	__u32 in_progress;	/* handshakes running now */
	__u32 resumed;		/* of completed, resumed from a ticket; wraps */
};

#endif /* _UAPI_LINUX_KTLS_HS_H */
