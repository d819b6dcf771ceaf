// SPDX-License-Identifier: GPL-2.0-only
/*
 * The choices of a TLS 1.3 server from a ClientHello (RFC 8446 4.1.1,
 * 4.2): the first of the client's suites the listener allows, a share of
 * a post-quantum hybrid group over an X25519 share over a P-256 share
 * over a HelloRetryRequest, the identity by server_name (RFC 6066), the
 * ALPN protocol in server order (RFC 7301), and the checks that decide
 * which alert a hello we cannot take gets.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tls.h>
#include <linux/unaligned.h>

#include <ktls_hs/identity.h>

#include "negotiate.h"
#include "tls13_kex.h"

static const struct ktls_hs_suite ktls_hs_suites[] = {
	{ KTLS_SUITE_AES_128_GCM_SHA256, KTLS_HS_SUITE_AES_128_GCM_SHA256,
	  KTLS_HASH_SHA256, KTLS_LIB_AES_GCM, 16, TLS_CIPHER_AES_GCM_128 },
	{ KTLS_SUITE_AES_256_GCM_SHA384, KTLS_HS_SUITE_AES_256_GCM_SHA384,
	  KTLS_HASH_SHA384, KTLS_LIB_AES_GCM, 32, TLS_CIPHER_AES_GCM_256 },
	{ KTLS_SUITE_CHACHA20_POLY1305_SHA256, KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256,
	  KTLS_HASH_SHA256, KTLS_LIB_CHACHA20_POLY1305, 32,
	  TLS_CIPHER_CHACHA20_POLY1305 },
	{ KTLS_SUITE_AES_128_CCM_SHA256, KTLS_HS_SUITE_AES_128_CCM_SHA256,
	  KTLS_HASH_SHA256, KTLS_LIB_AES_CCM, 16, TLS_CIPHER_AES_CCM_128 },
};

/*
 * Groups in our order of preference for a share the client sent: a
 * hybrid's, which protects the session against a later quantum computer
 * for about a tenth of a millisecond more (Documentation/benchmarks.rst),
 * then the ECDH ones, X25519 being the cheaper.  @p256 is a group whose
 * share opens with a P-256 point.
 */
static const struct ktls_hs_group {
	u16 id;
	u32 bit;
	bool hybrid;
	bool p256;
} ktls_hs_groups[] = {
	{ KTLS_GROUP_X25519MLKEM768, KTLS_HS_GROUP_X25519MLKEM768, true, false },
	{ KTLS_GROUP_SECP256R1MLKEM768, KTLS_HS_GROUP_SECP256R1MLKEM768, true,
	  true },
	{ KTLS_GROUP_X25519, KTLS_HS_GROUP_X25519, false, false },
	{ KTLS_GROUP_SECP256R1, KTLS_HS_GROUP_SECP256R1, false, true },
};

#define KTLS_HS_GROUPS_END	(ktls_hs_groups + ARRAY_SIZE(ktls_hs_groups))

static int ktls_hs_choose_suite(const struct ktls_hs_config *cfg,
				const struct ktls_hs_client_hello *ch,
				struct ktls_hs_choice *c)
{
	unsigned int i, j;

	/* The client's order among what we allow, as most 1.3 servers do. */
	for (i = 0; i + 2 <= ch->suites.len; i += 2) {
		u16 id = get_unaligned_be16(ch->suites.data + i);

		for (j = 0; j < ARRAY_SIZE(ktls_hs_suites); j++) {
			if (ktls_hs_suites[j].id == id &&
			    (cfg->suites & ktls_hs_suites[j].bit)) {
				c->suite = &ktls_hs_suites[j];
				return 0;
			}
		}
	}
	return KTLS_ALERT_HANDSHAKE_FAILURE;
}

/* How many of the client's key shares are of @group. */
static unsigned int ktls_hs_count_shares(const struct ktls_hs_client_hello *ch,
					 u16 group)
{
	const u8 *p = ch->key_shares.data;
	const u8 *end = p + ch->key_shares.len;
	unsigned int nr = 0;

	/* The parser checked the framing; this only walks it. */
	while (end - p >= 4) {
		if (get_unaligned_be16(p) == group)
			nr++;
		p += 4 + get_unaligned_be16(p + 2);
	}
	return nr;
}

/*
 * RFC 8446 4.2.8: no two shares of a group, none of a group the client
 * did not list.  Servers "MAY check"; we do for the groups we implement,
 * in one pass each, and ignore the rest as 4.2.7 asks of what a server
 * does not recognise (GREASE, new and unassigned code points): checking
 * those would cost time quadratic in a hello of hundreds of them, and
 * refuse clients for the contents of entries we would never use.
 */
static int ktls_hs_check_shares(const struct ktls_hs_client_hello *ch)
{
	unsigned int i, nr;

	for (i = 0; i < ARRAY_SIZE(ktls_hs_groups); i++) {
		nr = ktls_hs_count_shares(ch, ktls_hs_groups[i].id);
		if (nr > 1 || (nr && !ktls_hs_vec_has_u16(&ch->groups,
							  ktls_hs_groups[i].id)))
			return KTLS_ALERT_ILLEGAL_PARAMETER;
	}
	return 0;
}

/*
 * The first group in our order, hybrid or not as @hybrid says, that we
 * allow and the client lists: the one a HelloRetryRequest asks for.
 */
static const struct ktls_hs_group *
ktls_hs_retry_group(const struct ktls_hs_config *cfg,
		    const struct ktls_hs_client_hello *ch, bool hybrid)
{
	const struct ktls_hs_group *g;

	for (g = ktls_hs_groups; g < KTLS_HS_GROUPS_END; g++)
		if (g->hybrid == hybrid && (cfg->groups & g->bit) &&
		    ktls_hs_vec_has_u16(&ch->groups, g->id))
			return g;
	return NULL;
}

static int ktls_hs_choose_group(const struct ktls_hs_config *cfg,
				const struct ktls_hs_client_hello *ch,
				struct ktls_hs_choice *c)
{
	const struct ktls_hs_group *g, *insist = NULL;
	struct ktls_hs_vec share;

	/*
	 * A listener that wants post-quantum keys wherever the client can
	 * do them would rather spend a round trip than take an ECDH share.
	 */
	if (cfg->groups & KTLS_HS_GROUP_HYBRID_RETRY)
		insist = ktls_hs_retry_group(cfg, ch, true);

	/* A share we can use saves the round trip of a HelloRetryRequest. */
	for (g = ktls_hs_groups; g < KTLS_HS_GROUPS_END; g++) {
		if (!(cfg->groups & g->bit) ||
		    !ktls_hs_ch_key_share(ch, g->id, &share))
			continue;
		if (insist && !g->hybrid)
			break;
		/*
		 * 4.2.8.1-2: the one length and form of the group, so an
		 * empty share is of the wrong length too; whether it is a
		 * point of the curve, or an ML-KEM key within the modulus,
		 * is the key exchange's check.
		 */
		if (share.len != ktls_hs_kex_client_len(g->id) ||
		    (g->p256 && share.data[0] != 0x04))
			return KTLS_ALERT_ILLEGAL_PARAMETER;
		c->group = g->id;
		c->share = share;
		return 0;
	}

	/*
	 * None: ask for the cheapest that will do, ECDH before a hybrid,
	 * unless the listener insists on the hybrid.
	 */
	g = insist ?: ktls_hs_retry_group(cfg, ch, false) ?:
		ktls_hs_retry_group(cfg, ch, true);
	if (!g)
		return KTLS_ALERT_HANDSHAKE_FAILURE;
	c->group = g->id;
	c->share.len = 0;
	return 0;
}

/*
 * RFC 6066 3: a server_name no identity answers to gets the first one,
 * or, as the listener chose, unrecognized_name (which KTLS_HS_SNI_FALLBACK
 * turns into the hand-over, see engine.c).  No server_name always
 * gets the first.  Returns 0 or that alert.
 */
int ktls_hs_choose_identity(const struct ktls_hs_config *cfg,
			    const struct ktls_hs_client_hello *ch,
			    const struct ktls_identity **id, bool *sni_ack)
{
	unsigned int i;

	*id = cfg->identities[0];
	*sni_ack = false;
	if (!ktls_hs_ch_has(ch, KTLS_EXTB_SERVER_NAME))
		return 0;
	for (i = 0; i < cfg->nr_identities; i++) {
		if (ktls_identity_matches_name(cfg->identities[i],
					       (const char *)ch->server_name.data,
					       ch->server_name.len)) {
			*id = cfg->identities[i];
			*sni_ack = true;
			return 0;
		}
	}
	if (cfg->sni_policy != KTLS_HS_SNI_DEFAULT)
		return KTLS_ALERT_UNRECOGNIZED_NAME;
	return 0;
}

bool ktls_hs_version_enabled(const struct ktls_hs_config *cfg, u16 version)
{
	if (version == KTLS_VERSION_TLS13)
		return (cfg->versions & KTLS_HS_VERSION_TLS13) &&
		       (cfg->suites & KTLS_HS_SUITES_TLS13);
	if (version == KTLS_VERSION_TLS12)
		return (cfg->versions & KTLS_HS_VERSION_TLS12) &&
		       (cfg->suites & KTLS_HS_SUITES_TLS12);
	return false;
}

/*
 * RFC 8446 4.2.1: supported_versions, when present, is all that counts;
 * without it the client speaks up to its legacy_version (RFC 5246 E.1).
 * A legacy_version of SSL 3.0 (0x0300) or below is refused whatever
 * supported_versions says: D.5 demands protocol_version for 0x0300 (and
 * RFC 7568 forbids SSL 3.0), and lower values name no version at all;
 * as OpenSSL does, we treat the whole range 0x0000-0x0300 alike.
 */
u16 ktls_hs_choose_version(const struct ktls_hs_config *cfg,
			   const struct ktls_hs_client_hello *ch)
{
	bool listed = ktls_hs_ch_has(ch, KTLS_EXTB_SUPPORTED_VERSIONS);

	if (ch->legacy_version <= KTLS_VERSION_SSL30)
		return 0;

	if (listed && ktls_hs_vec_has_u16(&ch->versions, KTLS_VERSION_TLS13) &&
	    ktls_hs_version_enabled(cfg, KTLS_VERSION_TLS13))
		return KTLS_VERSION_TLS13;
	if ((listed ? ktls_hs_vec_has_u16(&ch->versions, KTLS_VERSION_TLS12) :
		      ch->legacy_version >= KTLS_VERSION_TLS12) &&
	    ktls_hs_version_enabled(cfg, KTLS_VERSION_TLS12))
		return KTLS_VERSION_TLS12;
	return 0;
}

/*
 * RFC 8446 9.2: without a pre_shared_key, signature_algorithms and
 * supported_groups are mandatory; supported_groups and key_share come
 * together or not at all, with or without one.  4.2.9: a PSK offer comes
 * with its modes.  Any of these missing is missing_extension.  A PSK
 * offer without signature_algorithms is still refused: we may have to
 * fall back to a full handshake, and that needs a signature algorithm.
 */
static int ktls_hs_check_extensions(const struct ktls_hs_client_hello *ch)
{
	bool psk = ktls_hs_ch_has(ch, KTLS_EXTB_PRE_SHARED_KEY);
	bool groups = ktls_hs_ch_has(ch, KTLS_EXTB_SUPPORTED_GROUPS);

	if (groups != ktls_hs_ch_has(ch, KTLS_EXTB_KEY_SHARE) ||
	    (!psk && !groups) ||
	    !ktls_hs_ch_has(ch, KTLS_EXTB_SIGNATURE_ALGORITHMS) ||
	    (psk && !ktls_hs_ch_has(ch, KTLS_EXTB_PSK_KEY_EXCHANGE_MODES)))
		return KTLS_ALERT_MISSING_EXTENSION;
	/*
	 * A PSK without (EC)DHE (psk_ke) is a mode we do not offer: it
	 * would have nothing to resume from but the PSK.
	 */
	if (!groups)
		return KTLS_ALERT_HANDSHAKE_FAILURE;
	return 0;
}

/* What a ClientHello leads to, or the alert it deserves. */
int ktls_hs_negotiate(const struct ktls_hs_config *cfg,
		      const struct ktls_hs_client_hello *ch,
		      struct ktls_hs_choice *c)
{
	int err;

	memset(c, 0, sizeof(*c));
	if (!ktls_hs_ch_has(ch, KTLS_EXTB_SUPPORTED_VERSIONS) ||
	    !ktls_hs_vec_has_u16(&ch->versions, KTLS_VERSION_TLS13))
		return KTLS_ALERT_PROTOCOL_VERSION;
	err = ktls_hs_check_extensions(ch);
	if (err)
		return err;
	/* RFC 8446 4.1.2: "exactly one byte, set to zero". */
	if (ch->compression.len != 1 || ch->compression.data[0])
		return KTLS_ALERT_ILLEGAL_PARAMETER;
	/* Only an answer to a HelloRetryRequest carries one, and ours don't. */
	if (ktls_hs_ch_has(ch, KTLS_EXTB_COOKIE))
		return KTLS_ALERT_ILLEGAL_PARAMETER;

	err = ktls_hs_choose_suite(cfg, ch, c);
	if (err)
		return err;
	if (!ktls_hs_vec_has_u16(&ch->sig_algs, KTLS_SIG_ECDSA_SECP256R1_SHA256))
		return KTLS_ALERT_HANDSHAKE_FAILURE;
	err = ktls_hs_check_shares(ch);
	if (err)
		return err;
	err = ktls_hs_choose_group(cfg, ch, c);
	if (err)
		return err;

	/* RFC 7301 3.2: both sides speak ALPN and share no protocol. */
	if (cfg->alpn_len && ktls_hs_ch_has(ch, KTLS_EXTB_ALPN)) {
		struct ktls_hs_vec ours = { cfg->alpn, cfg->alpn_len };

		if (!ktls_hs_alpn_select(ch, &ours, &c->alpn))
			return KTLS_ALERT_NO_APPLICATION_PROTOCOL;
	}
	return ktls_hs_choose_identity(cfg, ch, &c->id, &c->sni_ack);
}
