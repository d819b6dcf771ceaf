// SPDX-License-Identifier: GPL-2.0-only
/*
 * The handshake fuzzer's pass-through crypto, in place of
 * crypto/aead_lib.c and net/hs/ticket_keys.c.
 *
 * A byte-stream fuzzer cannot forge an AEAD tag or a Finished MAC, so
 * with real crypto it would never get past the client's first
 * encrypted record.  Here sealing leaves the plaintext as it is and
 * appends a zero tag, opening drops the tag unchecked, and (with
 * KTLS_FUZZ_PASSTHROUGH, see tools/crypto/shim/crypto/utils.h) every
 * Finished, binder and tag comparison succeeds: a client's later
 * flights are plaintext the fuzzer can mutate, and tickets are their
 * plaintext state.  Hashes, the key schedule, X25519 and P-256 stay real.
 *
 * Ticket keys: one group, one live key and a clock that stands still,
 * so that a ticket recorded in a seed stays good for every replay.
 */
#include <linux/errno.h>
#include <linux/string.h>

#include <ktls_hs/aead_lib.h>

#include "hs/ticket.h"
#include "hs/ticket_priv.h"
#include "fuzz.h"

int ktls_lib_aead_setkey(struct ktls_lib_aead *a, enum ktls_lib_aead_alg alg,
			 const u8 *key, size_t key_len)
{
	if (!((alg == KTLS_LIB_AES_GCM && (key_len == 16 || key_len == 32)) ||
	      (alg == KTLS_LIB_CHACHA20_POLY1305 && key_len == 32)))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->alg = alg;
	return 0;
}

int ktls_lib_aead_seal(const struct ktls_lib_aead *a,
		       const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE],
		       const u8 *aad, size_t aad_len, u8 *buf, size_t len)
{
	if (a->alg == KTLS_LIB_AEAD_NONE || len > KTLS_LIB_AEAD_MAX_LEN)
		return -EINVAL;
	memset(buf + len, 0, KTLS_LIB_AEAD_TAG_SIZE);
	return 0;
}

int ktls_lib_aead_open(const struct ktls_lib_aead *a,
		       const u8 nonce[KTLS_LIB_AEAD_NONCE_SIZE],
		       const u8 *aad, size_t aad_len, u8 *buf, size_t len)
{
	if (a->alg == KTLS_LIB_AEAD_NONE) {
		memset(buf, 0, len);
		return -EINVAL;
	}
	if (len < KTLS_LIB_AEAD_TAG_SIZE) {
		memset(buf, 0, len);
		return -EBADMSG;
	}
	return 0;
}

void ktls_lib_aead_wipe(struct ktls_lib_aead *a)
{
	memzero_explicit(a, sizeof(*a));
}

#define FUZZ_NOW_MS		1000000000ULL
#define FUZZ_TICKET_KEY_ID	0x4b544c53	/* "KTLS" */

u64 ktls_hs_ticket_now_ms(void)
{
	return FUZZ_NOW_MS;
}

u64 ktls_hs_ticket_keys_now(const struct ktls_hs_ticket_keys *k)
{
	return FUZZ_NOW_MS;
}

static void fuzz_ticket_key(struct ktls_hs_ticket_key *out)
{
	memset(out, 0, sizeof(*out));
	out->id = FUZZ_TICKET_KEY_ID;
	out->live = true;
	out->born_ms = FUZZ_NOW_MS;
	memset(out->secret, 0x5a, sizeof(out->secret));
}

bool ktls_hs_ticket_keys_current(struct ktls_hs_ticket_keys *k, u64 now_ms,
				 struct ktls_hs_ticket_key *out)
{
	fuzz_ticket_key(out);
	return true;
}

bool ktls_hs_ticket_keys_find(struct ktls_hs_ticket_keys *k, u64 now_ms,
			      u32 id, struct ktls_hs_ticket_key *out)
{
	if (id != FUZZ_TICKET_KEY_ID)
		return false;
	fuzz_ticket_key(out);
	return true;
}
