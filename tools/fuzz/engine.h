/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The handshake engine as the fuzz target and the seed recorder drive
 * it: a configuration chosen by two bytes, then the client's bytes fed
 * through want/received the way the socket glue feeds TCP's.
 */
#ifndef _KTLS_FUZZ_ENGINE_H
#define _KTLS_FUZZ_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "hs/engine.h"

/* Leading bytes of an engine input that choose the configuration. */
#define FUZZ_CFG_LEN		2

/* byte 0 */
#define FUZZ_CFG_VERSIONS	0x03	/* 1: 1.3 only, 2: 1.2 only, else both */
#define FUZZ_CFG_TICKETS	0x04
#define FUZZ_CFG_FALLBACK	0x08
#define FUZZ_CFG_ALPN		0x10
#define FUZZ_CFG_EMS_OPTIONAL	0x20
#define FUZZ_CFG_SNI_SHIFT	6	/* KTLS_HS_SNI_*, 3 taken as 0 */
/* byte 1: what is left out */
#define FUZZ_CFG_NO_X25519	0x01	/* and X25519MLKEM768 */
#define FUZZ_CFG_NO_P256	0x02	/* and SecP256r1MLKEM768 */
#define FUZZ_CFG_NO_AES128	0x04
#define FUZZ_CFG_NO_AES256	0x08
#define FUZZ_CFG_NO_CHACHA	0x10
#define FUZZ_CFG_TWO_IDS	0x20	/* b.example beside a.example */
/* Ask for client certificates (the verifier's test root); optional ones. */
#define FUZZ_CFG_CLIENT_AUTH	0x40
#define FUZZ_CFG_AUTH_OPTIONAL	0x80

struct fuzz_engine {
	struct ktls_hs_config cfg;
	struct ktls_hs *hs;
	void *mem;
};

typedef void (*fuzz_output_fn)(void *ctx, const uint8_t *buf, size_t len);

int fuzz_engine_init(struct fuzz_engine *fe, const uint8_t cfg[FUZZ_CFG_LEN]);
/*
 * Feed @len bytes, as much as the engine takes, handing every output
 * byte to @out (may be NULL).  Returns the bytes taken.
 */
size_t fuzz_engine_feed(struct fuzz_engine *fe, const uint8_t *data,
			size_t len, fuzz_output_fn out, void *ctx);
/* Check what a finished engine reports, then wipe and free it. */
void fuzz_engine_end(struct fuzz_engine *fe);

#endif
