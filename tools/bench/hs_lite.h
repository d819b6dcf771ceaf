/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hs_lite: the least a TLS 1.3 client must do to take a server through a
 * full handshake (and one request), for tools/bench/hs_load -L.  See
 * hs_lite.c for what it skips and why that is fair to every server.
 */
#ifndef HS_LITE_H
#define HS_LITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LITE_REC_MAX	(5 + 16384 + 256)	/* TLSCiphertext, at most */
#define LITE_OUT_MAX	2048	/* a ClientHello with an X25519MLKEM768 share */

/* ML-KEM-768 (FIPS 203) sizes, for X25519MLKEM768 */
#define LITE_MLKEM_EK_LEN	1184
#define LITE_MLKEM_DK_LEN	2400
#define LITE_MLKEM_CT_LEN	1088

struct lite_keys {
	uint8_t key[16];
	uint8_t iv[12];
	uint64_t seq;
};

struct lite_conn {
	int state;
	size_t in_len, out_off, out_len;
	size_t msg_len;			/* handshake message bytes buffered */
	struct lite_keys rd, wr;
	uint8_t secret[32];		/* handshake secret, then master */
	uint8_t c_hs[32], s_hs[32];
	uint8_t hash[112];		/* the running transcript hash (SHA256_CTX) */
	uint8_t in[LITE_REC_MAX];
	uint8_t msg[LITE_REC_MAX];
	uint8_t out[LITE_OUT_MAX];
};

/*
 * Set before the threads start: offer X25519MLKEM768 first, with an
 * X25519 share beside it, as browsers and Go do (hs_load -M).
 */
extern bool lite_hybrid;

/* Once per thread; false if libcrypto refused. */
bool lite_thread_init(void);

/* hs_mlkem.c: the module's ML-KEM-768 in userspace */
bool lite_mlkem_keygen(uint8_t *ek, uint8_t *dk);
bool lite_mlkem_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
/* Per connection: the ClientHello goes into @c->out. */
void lite_start(struct lite_conn *c, const char *sni);
/*
 * Drive the handshake on non-blocking @fd, then, if @req is not NULL,
 * send it and collect the response into @resp (at most @resp_max bytes,
 * NUL-terminated) with @done telling when it is complete.  Returns 1
 * when finished, 0 when waiting (*events: EPOLLIN or EPOLLOUT), -1 on
 * failure with *why, which is NULL when @done found the response bad.
 */
int lite_step(struct lite_conn *c, int fd, const char *req, size_t req_len,
	      char *resp, size_t resp_max, size_t *resp_len,
	      int (*done)(const char *resp, size_t len), unsigned int *events,
	      const char **why);

#endif /* HS_LITE_H */
