// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target of the server handshake engine (net/hs), both TLS
 * versions, driven through net/hs/engine.h as the socket glue drives
 * it.  An input is two configuration bytes (engine.h) and then the
 * client's byte stream: every flight of one connection.  The crypto is
 * the pass-through kind of passthrough.c, so a recorded conversation
 * (seeds.c) replays to the end and its mutations reach every state:
 * HelloRetryRequest, resumption from a ticket in either version, the
 * hand-back to userspace, client certificates (verified against the
 * verifier's test root), the client's Finished and the final keys.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/errno.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/kdf.h>
#include <ktls_hs/p256.h>
#include <ktls_hs/trust.h>

#include "hs/ticket_priv.h"
#include "../../net/identity/tests/verify_vectors.h"
#include "engine.h"
#include "fuzz.h"

struct fuzz_identity {
	struct ktls_identity id;
	struct ktls_identity_cert certs[2];
	struct ktls_identity_name name;
	u8 der[2][300];
};

static struct fuzz_identity fuzz_ids[2];
static struct ktls_hs_ticket_keys fuzz_ticket_keys;
static struct ktls_trust *fuzz_trust;
static struct ktls_peer_cert fuzz_peer;

/* The store the verifier's tests use: their root, for client certificates. */
static struct ktls_trust *fuzz_trust_store(void)
{
	const char *why;

	if (fuzz_trust)
		return fuzz_trust;
	fuzz_trust = ktls_trust_parse((const u8 *)vec_root_pem,
				      strlen(vec_root_pem), &why);
	if (IS_ERR(fuzz_trust)) {
		fprintf(stderr, "fuzz-engine: store refused: %s\n", why);
		abort();
	}
	return fuzz_trust;
}

/*
 * The engine sends certificates without reading them: the chain is
 * filler bytes, the key a real P-256 key so that CertificateVerify is
 * really signed.
 */
static struct ktls_identity *fuzz_identity(unsigned int i, const char *dns,
					   unsigned int nr_certs)
{
	struct fuzz_identity *t = &fuzz_ids[i];
	unsigned int c;

	if (t->id.nr_certs)
		return &t->id;
	memset(t->id.private_key, 0x11 + i, sizeof(t->id.private_key));
	t->id.private_key[0] = 0x01;
	if (ktls_p256_public_key(t->id.public_key, t->id.private_key))
		abort();
	for (c = 0; c < nr_certs; c++) {
		memset(t->der[c], 0x30 + c, sizeof(t->der[c]));
		t->certs[c].der = t->der[c];
		t->certs[c].len = sizeof(t->der[c]);
	}
	t->id.nr_certs = nr_certs;
	t->id.certs = t->certs;
	t->id.chain = t->der[0];
	t->id.chain_len = sizeof(t->der[0]) * nr_certs;
	t->name.type = KTLS_IDENTITY_NAME_DNS;
	t->name.len = strlen(dns);
	t->name.name = (const u8 *)dns;
	t->id.nr_names = 1;
	t->id.names = &t->name;
	refcount_set(&t->id.ref, 1);
	return &t->id;
}

static void fuzz_config(struct ktls_hs_config *cfg, const uint8_t b[2])
{
	static const char alpn[] = "\x02h2\x08http/1.1";

	memset(cfg, 0, sizeof(*cfg));
	cfg->identities[cfg->nr_identities++] = fuzz_identity(0, "a.example", 1);
	if (b[1] & FUZZ_CFG_TWO_IDS)
		cfg->identities[cfg->nr_identities++] =
			fuzz_identity(1, "b.example", 2);

	switch (b[0] & FUZZ_CFG_VERSIONS) {
	case 1:
		cfg->versions = KTLS_HS_VERSION_TLS13;
		break;
	case 2:
		cfg->versions = KTLS_HS_VERSION_TLS12;
		break;
	default:
		cfg->versions = KTLS_HS_VERSION_TLS13 | KTLS_HS_VERSION_TLS12;
	}
	if (b[0] & FUZZ_CFG_TICKETS) {
		cfg->tickets = &fuzz_ticket_keys;
		cfg->ticket_lifetime = 7200;
	}
	cfg->fallback = b[0] & FUZZ_CFG_FALLBACK;
	if (b[0] & FUZZ_CFG_ALPN) {
		memcpy(cfg->alpn, alpn, sizeof(alpn) - 1);
		cfg->alpn_len = sizeof(alpn) - 1;
	}
	cfg->ems_optional = b[0] & FUZZ_CFG_EMS_OPTIONAL;
	cfg->sni_policy = (b[0] >> FUZZ_CFG_SNI_SHIFT) % 3;

	if (b[1] & FUZZ_CFG_CLIENT_AUTH) {
		cfg->trust = fuzz_trust_store();
		cfg->client_auth = b[1] & FUZZ_CFG_AUTH_OPTIONAL ?
				   KTLS_HS_CLIENT_AUTH_OPTIONAL :
				   KTLS_HS_CLIENT_AUTH_REQUIRED;
		cfg->ca_names = b[0] & FUZZ_CFG_ALPN;
	}
	/*
	 * A listener's default groups, the hybrids included: a curve taken
	 * away takes its hybrid along.
	 */
	if (!(b[1] & FUZZ_CFG_NO_X25519))
		cfg->groups |= KTLS_HS_GROUP_X25519 |
			       KTLS_HS_GROUP_X25519MLKEM768;
	if (!(b[1] & FUZZ_CFG_NO_P256))
		cfg->groups |= KTLS_HS_GROUP_SECP256R1 |
			       KTLS_HS_GROUP_SECP256R1MLKEM768;
	if (!(b[1] & FUZZ_CFG_NO_AES128))
		cfg->suites |= KTLS_HS_SUITE_AES_128_GCM_SHA256 |
			       KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
	if (!(b[1] & FUZZ_CFG_NO_AES256))
		cfg->suites |= KTLS_HS_SUITE_AES_256_GCM_SHA384 |
			       KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384;
	if (!(b[1] & FUZZ_CFG_NO_CHACHA))
		cfg->suites |= KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256 |
			       KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256;
}

int fuzz_engine_init(struct fuzz_engine *fe, const uint8_t cfg[FUZZ_CFG_LEN])
{
	static bool setup;
	size_t size;

	if (!setup) {
		ktls_cipher_setup();
		if (ktls_kdf_init())
			abort();
		setup = true;
	}
	/* The same randomness every run: a saved input replays. */
	ktls_fuzz_random_seed(0x6b746c732d6873ULL);
	fuzz_config(&fe->cfg, cfg);
	size = ktls_hs_size(&fe->cfg);
	if (!size)
		return -1;
	/* Not zeroed, as in the glue: init must not rely on it. */
	fe->mem = malloc(size);
	if (!fe->mem)
		abort();
	memset(fe->mem, 0xa5, size);
	fe->hs = ktls_hs_init(fe->mem, size, &fe->cfg);
	if (!fe->hs)
		abort();
	if (fe->cfg.trust)
		ktls_hs_set_peer(fe->hs, &fuzz_peer);
	return 0;
}

static void fuzz_drain(struct fuzz_engine *fe, fuzz_output_fn out, void *ctx)
{
	const u8 *buf;
	size_t n;

	while ((n = ktls_hs_output(fe->hs, &buf))) {
		if (out)
			out(ctx, buf, n);
		ktls_hs_output_sent(fe->hs, n);
	}
}

size_t fuzz_engine_feed(struct fuzz_engine *fe, const uint8_t *data,
			size_t len, fuzz_output_fn out, void *ctx)
{
	size_t pos = 0, n;
	u8 *buf;

	for (;;) {
		fuzz_drain(fe, out, ctx);
		n = ktls_hs_want(fe->hs, &buf);
		if (!n || pos == len)
			break;
		if (n > len - pos)
			n = len - pos;
		memcpy(buf, data + pos, n);
		pos += n;
		ktls_hs_received(fe->hs, n);
	}
	return pos;
}

void fuzz_engine_end(struct fuzz_engine *fe)
{
	const struct ktls_hs_session *s = ktls_hs_session(fe->hs);
	struct ktls_hs_keys keys;
	int err;

	err = ktls_hs_keys(fe->hs, &keys);
	switch (ktls_hs_status(fe->hs)) {
	case KTLS_HS_DONE:
		/* Done means keys of the version and suite negotiated. */
		if (err || keys.tx.info.cipher_type != s->cipher_type ||
		    keys.rx.info.cipher_type != s->cipher_type ||
		    keys.tx.info.version != s->version ||
		    (s->version != 0x0303 && s->version != 0x0304))
			abort();
		if (!memchr(s->alpn, 0, sizeof(s->alpn)) ||
		    !memchr(s->sni, 0, sizeof(s->sni)))
			abort();
		/*
		 * A required certificate verified, or carried by the ticket
		 * that resumed the session; else no handshake.
		 */
		if (fe->cfg.client_auth == KTLS_HS_CLIENT_AUTH_REQUIRED &&
		    !s->peer_verified)
			abort();
		if (s->peer_verified && !fe->cfg.trust)
			abort();
		break;
	default:
		if (err != -EINVAL)
			abort();
	}
	memset(&keys, 0, sizeof(keys));
	ktls_hs_wipe(fe->hs);
	free(fe->mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fuzz_engine fe;

	if (len < FUZZ_CFG_LEN || fuzz_engine_init(&fe, data))
		return 0;
	fuzz_engine_feed(&fe, data + FUZZ_CFG_LEN, len - FUZZ_CFG_LEN, NULL,
			 NULL);
	fuzz_engine_end(&fe);
	return 0;
}
