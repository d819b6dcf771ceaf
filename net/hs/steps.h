/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The states of each TLS version's server handshake, as the core of the
 * engine (engine.c) sees them: the handlers its step table dispatches
 * client messages to, and the output room each version needs.  Each
 * machine provides its own and calls back only into the core
 * (server.h), never into the other's.
 */
#ifndef _KTLS_HS_STEPS_H
#define _KTLS_HS_STEPS_H

#include <linux/types.h>

struct ktls_hs;
struct ktls_hs_client_hello;

/*
 * A waiting state's handler of the client's message @msg, whose type
 * the core checked: 0, or the alert to end the handshake with (a
 * negative errno for our own failure).
 */
typedef int ktls_hs_step_fn(struct ktls_hs *hs, const u8 *msg, size_t len);
/*
 * A first ClientHello that negotiated the handler's version, parsed
 * (@ch) from @msg: returns as a step does.
 */
typedef int ktls_hs_hello_fn(struct ktls_hs *hs,
			     const struct ktls_hs_client_hello *ch,
			     const u8 *msg, size_t len);
/*
 * Output bytes a handshake with @cert_len bytes of Certificate and a
 * NewSessionTicket of at most @nst_len bytes needs.
 */
typedef size_t ktls_hs_out_len_fn(size_t cert_len, size_t nst_len);

/* tls13_server.c */
ktls_hs_hello_fn ktls_hs13_client_hello;
ktls_hs_step_fn ktls_hs13_wait_client_hello2;	/* after HelloRetryRequest */
ktls_hs_step_fn ktls_hs13_wait_certificate;	/* after CertificateRequest */
ktls_hs_step_fn ktls_hs13_wait_certificate_verify;
ktls_hs_step_fn ktls_hs13_wait_finished;
ktls_hs_out_len_fn ktls_hs13_out_len;

/* tls12_server.c */
ktls_hs_hello_fn ktls_hs12_client_hello;
ktls_hs_step_fn ktls_hs12_wait_certificate;	/* after CertificateRequest */
ktls_hs_step_fn ktls_hs12_wait_client_key_exchange;
ktls_hs_step_fn ktls_hs12_wait_certificate_verify;
ktls_hs_step_fn ktls_hs12_wait_finished;
ktls_hs_step_fn ktls_hs12_wait_resumed;	/* a session resumed */
ktls_hs_out_len_fn ktls_hs12_out_len;

#endif /* _KTLS_HS_STEPS_H */
