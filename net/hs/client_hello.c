// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ClientHello parser (RFC 8446 4.1.2, RFC 5246 7.4.1.2) and the
 * look-ups the state machine makes in what it produced.
 *
 * Everything a client sends is checked here, once: each vector must fit
 * its parent exactly and respect the bounds its RFC gives it, and the
 * extensions we recognise must have the shape their RFC defines.  Past
 * this file the handshake walks the lists without checking lengths
 * again.  Whether what the client offers is acceptable (versions,
 * suites, groups) is decided by the state machine, not here.
 */
#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/string.h>

#include <ktls_hs/kdf.h>

#include "../record/record.h"
#include "codec.h"
#include "wire.h"

/*
 * Duplicates of extensions we do not recognise are refused too (RFC 8446
 * 4.2), found by looking back over the extensions before them.  Real
 * clients send a dozen or two, GREASE included; a ClientHello with more
 * than this many extensions is refused (decode_error) rather than
 * checked in quadratic time.  Key shares and groups have no such limit:
 * those we do not know are skipped in one pass (RFC 8446 4.2.7, 4.2.8).
 */
#define CH_MAX_EXTS		1024

/* RFC 8446 4.2.11: a binder is a MAC of at least 32 bytes. */
#define CH_MIN_BINDER_LEN	32

#define CH_DECODE	KTLS_ALERT_DECODE_ERROR
#define CH_ILLEGAL	KTLS_ALERT_ILLEGAL_PARAMETER

/* Contents of an extension that must be exactly one @width vector. */
static bool ch_whole_vec(struct ktls_rd *data, unsigned int width,
			 struct ktls_rd *list)
{
	return ktls_rd_vec(data, width, list) && ktls_rd_empty(data);
}

/*
 * An extension holding one non-empty vector (length prefix of @width
 * bytes) of @entry byte entries, the common shape of the lists.
 */
static int ch_list(struct ktls_rd *data, unsigned int width,
		   unsigned int entry, struct ktls_hs_vec *out)
{
	struct ktls_rd list;

	if (!ch_whole_vec(data, width, &list) || ktls_rd_empty(&list) ||
	    list.left % entry)
		return CH_DECODE;
	ktls_rd_to_vec(&list, out);
	return 0;
}

/* RFC 1035 2.3.4 */
#define CH_MAX_LABEL_LEN	63

static bool ch_ldh(u8 c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-';
}

/*
 * RFC 6066 3: a HostName is a DNS host name in ASCII, "without a
 * trailing dot".  We take letters, digits and hyphens in labels of 1 to
 * 63 bytes between single dots, so no empty label anywhere: the trailing
 * dot, a leading dot and ".." are all refused.  Anything else (control
 * bytes, '_', '%', ':' of an IPv6 literal, UTF-8 rather than its A-label)
 * never reaches the identity match, getsockopt(KTLS_HS_SESSION) or the
 * tracepoints.  Where a hyphen may stand in a label is not checked: that
 * is the name's registry's rule, not one a server needs.
 */
static bool ch_host_name_ok(const struct ktls_rd *name)
{
	size_t i, label = 0;

	for (i = 0; i < name->left; i++) {
		if (name->p[i] == '.') {
			if (!label)
				return false;
			label = 0;
		} else if (!ch_ldh(name->p[i]) || ++label > CH_MAX_LABEL_LEN) {
			return false;
		}
	}
	return label;
}

/*
 * RFC 6066 3.  A name that is not a HostName gets illegal_parameter, not
 * unrecognized_name: that alert is for a well-formed name we do not
 * serve, which the listener's SNI policy may let through or hand to
 * userspace; a malformed one is a broken hello under any policy.
 */
static int ch_server_name(struct ktls_hs_client_hello *ch,
			  struct ktls_rd *data, const u8 *msg)
{
	struct ktls_rd list, name;
	bool seen = false;
	u8 type;

	if (!ch_whole_vec(data, 2, &list) || ktls_rd_empty(&list))
		return CH_DECODE;
	while (!ktls_rd_empty(&list)) {
		/*
		 * host_name is the only NameType there is; the length of
		 * any other entry is unknown, so the list cannot be read.
		 */
		if (!ktls_rd_u8(&list, &type) || type != KTLS_SNI_HOST_NAME)
			return CH_DECODE;
		if (!ktls_rd_vec(&list, 2, &name) || ktls_rd_empty(&name))
			return CH_DECODE;
		/* Well formed, but the RFC allows one name of a type. */
		if (seen)
			return CH_ILLEGAL;
		if (name.left > KTLS_HS_MAX_SNI_LEN ||
		    !ch_host_name_ok(&name))
			return CH_ILLEGAL;
		ktls_rd_to_vec(&name, &ch->server_name);
		seen = true;
	}
	return 0;
}

static int ch_supported_groups(struct ktls_hs_client_hello *ch,
			       struct ktls_rd *data, const u8 *msg)
{
	return ch_list(data, 2, 2, &ch->groups);	/* RFC 8446 4.2.7 */
}

static int ch_ec_point_formats(struct ktls_hs_client_hello *ch,
			       struct ktls_rd *data, const u8 *msg)
{
	return ch_list(data, 1, 1, &ch->ec_point_formats); /* RFC 8422 5.1.2 */
}

static int ch_signature_algorithms(struct ktls_hs_client_hello *ch,
				   struct ktls_rd *data, const u8 *msg)
{
	return ch_list(data, 2, 2, &ch->sig_algs);	/* RFC 8446 4.2.3 */
}

static int ch_signature_algorithms_cert(struct ktls_hs_client_hello *ch,
					struct ktls_rd *data, const u8 *msg)
{
	return ch_list(data, 2, 2, &ch->sig_algs_cert);
}

/* RFC 7301 3.1: names of 1..255 bytes, "empty strings MUST NOT" appear. */
static int ch_alpn(struct ktls_hs_client_hello *ch, struct ktls_rd *data,
		   const u8 *msg)
{
	struct ktls_rd list, walk, name;

	if (!ch_whole_vec(data, 2, &list) || ktls_rd_empty(&list))
		return CH_DECODE;
	walk = list;
	while (!ktls_rd_empty(&walk))
		if (!ktls_rd_vec(&walk, 1, &name) || ktls_rd_empty(&name))
			return CH_DECODE;
	ktls_rd_to_vec(&list, &ch->alpn);
	return 0;
}

/* extended_master_secret and early_data carry nothing in a ClientHello. */
static int ch_empty(struct ktls_hs_client_hello *ch, struct ktls_rd *data,
		    const u8 *msg)
{
	return ktls_rd_empty(data) ? 0 : CH_DECODE;
}

/* RFC 5077 3.2: a ticket, or nothing to ask for one; opaque either way. */
static int ch_session_ticket(struct ktls_hs_client_hello *ch,
			     struct ktls_rd *data, const u8 *msg)
{
	ktls_rd_to_vec(data, &ch->session_ticket);
	return 0;
}

/* RFC 8446 4.2.11 */
static int ch_pre_shared_key(struct ktls_hs_client_hello *ch,
			     struct ktls_rd *data, const u8 *msg)
{
	struct ktls_rd ids, binders, walk, item;
	unsigned int nr_ids = 0, nr_binders = 0;
	const u8 *binders_at, *age;

	if (!ktls_rd_vec(data, 2, &ids) || ktls_rd_empty(&ids))
		return CH_DECODE;
	walk = ids;
	while (!ktls_rd_empty(&walk)) {
		if (!ktls_rd_vec(&walk, 2, &item) || ktls_rd_empty(&item) ||
		    !ktls_rd_bytes(&walk, 4, &age))
			return CH_DECODE;
		nr_ids++;
	}

	/* The binders MAC everything before their own length (4.2.11.2). */
	binders_at = data->p;
	if (!ch_whole_vec(data, 2, &binders) || ktls_rd_empty(&binders))
		return CH_DECODE;
	walk = binders;
	while (!ktls_rd_empty(&walk)) {
		if (!ktls_rd_vec(&walk, 1, &item) ||
		    item.left < CH_MIN_BINDER_LEN)
			return CH_DECODE;
		nr_binders++;
	}
	/* Both lists parse; that they disagree is a matter of content. */
	if (nr_ids != nr_binders)
		return CH_ILLEGAL;

	ktls_rd_to_vec(&ids, &ch->psk_identities);
	ktls_rd_to_vec(&binders, &ch->psk_binders);
	ch->binders_offset = binders_at - msg;
	return 0;
}

static int ch_supported_versions(struct ktls_hs_client_hello *ch,
				 struct ktls_rd *data, const u8 *msg)
{
	return ch_list(data, 1, 2, &ch->versions);	/* RFC 8446 4.2.1 */
}

static int ch_cookie(struct ktls_hs_client_hello *ch, struct ktls_rd *data,
		     const u8 *msg)
{
	return ch_list(data, 2, 1, &ch->cookie);	/* RFC 8446 4.2.2 */
}

static int ch_psk_modes(struct ktls_hs_client_hello *ch, struct ktls_rd *data,
			const u8 *msg)
{
	return ch_list(data, 1, 1, &ch->psk_modes);	/* RFC 8446 4.2.9 */
}

/*
 * RFC 8446 4.2.8.  An empty list is legal: the client asks which group
 * to use and gets a HelloRetryRequest.  Entries of groups we do not know
 * are skipped whatever their contents, so only the framing is checked
 * here.  An empty key_exchange is let through: it is the wrong length
 * for every group we implement, which is illegal_parameter when its
 * group is the one chosen (negotiate.c), as for any share of the wrong
 * length, and of no concern when it is not.  Offering a group twice is
 * checked there too, for the groups we use.
 */
static int ch_key_share(struct ktls_hs_client_hello *ch, struct ktls_rd *data,
			const u8 *msg)
{
	struct ktls_rd list, walk, key;
	u16 group;

	if (!ch_whole_vec(data, 2, &list))
		return CH_DECODE;
	walk = list;
	while (!ktls_rd_empty(&walk))
		if (!ktls_rd_u16(&walk, &group) ||
		    !ktls_rd_vec(&walk, 2, &key))
			return CH_DECODE;
	ktls_rd_to_vec(&list, &ch->key_shares);
	return 0;
}

/*
 * RFC 5746 3.6: the extension is one renegotiated_connection vector.  It
 * is kept whole; whether it is the single 0 of an initial handshake is
 * the state machine's check (handshake_failure).
 */
static int ch_renegotiation_info(struct ktls_hs_client_hello *ch,
				 struct ktls_rd *data, const u8 *msg)
{
	struct ktls_rd whole = *data, conn;

	if (!ch_whole_vec(data, 1, &conn))
		return CH_DECODE;
	ktls_rd_to_vec(&whole, &ch->renegotiation_info);
	return 0;
}

/*
 * RFC 8449 4: one uint16, and under 64 is illegal_parameter.  A limit
 * above what the version allows is taken, not refused: the RFC forbids
 * a server to enforce that bound, and the state machine caps it.
 */
static int ch_record_size_limit(struct ktls_hs_client_hello *ch,
				struct ktls_rd *data, const u8 *msg)
{
	u16 limit;

	if (!ktls_rd_u16(data, &limit) || !ktls_rd_empty(data))
		return CH_DECODE;
	if (limit < KTLS_MIN_RECORD_LIMIT)
		return CH_ILLEGAL;
	ch->record_size_limit = limit;
	return 0;
}

struct ch_ext {
	u16 type;
	u8 bit;
	int (*parse)(struct ktls_hs_client_hello *ch, struct ktls_rd *data,
		     const u8 *msg);
};

static const struct ch_ext ch_exts[] = {
	{ KTLS_EXT_SERVER_NAME, KTLS_EXTB_SERVER_NAME, ch_server_name },
	{ KTLS_EXT_SUPPORTED_GROUPS, KTLS_EXTB_SUPPORTED_GROUPS,
	  ch_supported_groups },
	{ KTLS_EXT_EC_POINT_FORMATS, KTLS_EXTB_EC_POINT_FORMATS,
	  ch_ec_point_formats },
	{ KTLS_EXT_SIGNATURE_ALGORITHMS, KTLS_EXTB_SIGNATURE_ALGORITHMS,
	  ch_signature_algorithms },
	{ KTLS_EXT_ALPN, KTLS_EXTB_ALPN, ch_alpn },
	{ KTLS_EXT_EXTENDED_MASTER_SECRET, KTLS_EXTB_EXTENDED_MASTER_SECRET,
	  ch_empty },
	{ KTLS_EXT_SESSION_TICKET, KTLS_EXTB_SESSION_TICKET,
	  ch_session_ticket },
	{ KTLS_EXT_PRE_SHARED_KEY, KTLS_EXTB_PRE_SHARED_KEY,
	  ch_pre_shared_key },
	{ KTLS_EXT_EARLY_DATA, KTLS_EXTB_EARLY_DATA, ch_empty },
	{ KTLS_EXT_SUPPORTED_VERSIONS, KTLS_EXTB_SUPPORTED_VERSIONS,
	  ch_supported_versions },
	{ KTLS_EXT_COOKIE, KTLS_EXTB_COOKIE, ch_cookie },
	{ KTLS_EXT_PSK_KEY_EXCHANGE_MODES, KTLS_EXTB_PSK_KEY_EXCHANGE_MODES,
	  ch_psk_modes },
	{ KTLS_EXT_SIGNATURE_ALGORITHMS_CERT,
	  KTLS_EXTB_SIGNATURE_ALGORITHMS_CERT, ch_signature_algorithms_cert },
	{ KTLS_EXT_KEY_SHARE, KTLS_EXTB_KEY_SHARE, ch_key_share },
	{ KTLS_EXT_RENEGOTIATION_INFO, KTLS_EXTB_RENEGOTIATION_INFO,
	  ch_renegotiation_info },
	{ KTLS_EXT_RECORD_SIZE_LIMIT, KTLS_EXTB_RECORD_SIZE_LIMIT,
	  ch_record_size_limit },
};

static const struct ch_ext *ch_ext_find(u16 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ch_exts); i++)
		if (ch_exts[i].type == type)
			return &ch_exts[i];
	return NULL;
}

/* Whether an extension of @type comes before @end in the block @exts. */
static bool ch_ext_seen(const struct ktls_rd *exts, const u8 *end, u16 type)
{
	struct ktls_rd walk = *exts, data;
	u16 got;

	while (walk.p < end && ktls_rd_u16(&walk, &got) &&
	       ktls_rd_vec(&walk, 2, &data))
		if (got == type)
			return true;
	return false;
}

static int ch_parse_extensions(struct ktls_hs_client_hello *ch,
			       struct ktls_rd *exts, const u8 *msg)
{
	const struct ktls_rd block = *exts;
	const struct ch_ext *ext;
	unsigned int nr = 0;
	struct ktls_rd data;
	const u8 *at;
	u16 type;
	int err;

	while (!ktls_rd_empty(exts)) {
		at = exts->p;
		if (!ktls_rd_u16(exts, &type) || !ktls_rd_vec(exts, 2, &data))
			return CH_DECODE;
		if (++nr > CH_MAX_EXTS)
			return CH_DECODE;
		/* RFC 8446 4.2.11: the binders cover all that precedes. */
		if (ktls_hs_ch_has(ch, KTLS_EXTB_PRE_SHARED_KEY))
			return CH_ILLEGAL;

		ext = ch_ext_find(type);
		if (!ext) {
			if (ch_ext_seen(&block, at, type))
				return CH_ILLEGAL;
			continue;
		}
		if (ktls_hs_ch_has(ch, ext->bit))
			return CH_ILLEGAL;
		ch->exts |= BIT(ext->bit);
		err = ext->parse(ch, &data, msg);
		if (err)
			return err;
	}
	return 0;
}

static void ch_note_scsvs(struct ktls_hs_client_hello *ch)
{
	ch->scsv_reneg = ktls_hs_vec_has_u16(&ch->suites,
					     KTLS_SUITE_EMPTY_RENEGOTIATION_SCSV);
	ch->scsv_fallback = ktls_hs_vec_has_u16(&ch->suites,
						KTLS_SUITE_FALLBACK_SCSV);
}

int ktls_hs_parse_client_hello(const u8 *msg, size_t len,
			       struct ktls_hs_client_hello *ch)
{
	struct ktls_rd r, body, v, exts;
	u8 type;

	memset(ch, 0, sizeof(*ch));
	ktls_rd_init(&r, msg, len);
	if (!ktls_rd_u8(&r, &type))
		return CH_DECODE;
	if (type != KTLS_HS_CLIENT_HELLO)
		return KTLS_ALERT_UNEXPECTED_MESSAGE;
	if (!ktls_rd_vec(&r, 3, &body) || !ktls_rd_empty(&r))
		return CH_DECODE;

	if (!ktls_rd_u16(&body, &ch->legacy_version) ||
	    !ktls_rd_bytes(&body, KTLS_HS_RANDOM_LEN, &ch->random))
		return CH_DECODE;

	if (!ktls_rd_vec(&body, 1, &v) || v.left > KTLS_HS_SESSION_ID_MAX)
		return CH_DECODE;
	ktls_rd_to_vec(&v, &ch->session_id);

	if (!ktls_rd_vec(&body, 2, &v) || ktls_rd_empty(&v) || v.left % 2)
		return CH_DECODE;
	ktls_rd_to_vec(&v, &ch->suites);
	ch_note_scsvs(ch);

	/*
	 * Every client must offer the null method (RFC 5246 7.4.1.2), and
	 * a TLS 1.3 one only that (RFC 8446 4.1.2); which of the two rules
	 * applies is known once the version is chosen, so the list is
	 * handed on for the second.
	 */
	if (!ktls_rd_vec(&body, 1, &v) || ktls_rd_empty(&v))
		return CH_DECODE;
	if (!memchr(v.p, 0, v.left))
		return CH_ILLEGAL;
	ktls_rd_to_vec(&v, &ch->compression);

	/* A TLS 1.2 ClientHello may end here (RFC 5246 7.4.1.2). */
	if (ktls_rd_empty(&body))
		return 0;
	if (!ktls_rd_vec(&body, 2, &exts) || !ktls_rd_empty(&body))
		return CH_DECODE;
	return ch_parse_extensions(ch, &exts, msg);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_parse_client_hello);

bool ktls_hs_vec_has_u16(const struct ktls_hs_vec *vec, u16 value)
{
	unsigned int i;

	for (i = 0; i + 2 <= vec->len; i += 2)
		if (get_unaligned_be16(vec->data + i) == value)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_vec_has_u16);

bool ktls_hs_vec_has_u8(const struct ktls_hs_vec *vec, u8 value)
{
	return vec->len && memchr(vec->data, value, vec->len);
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_vec_has_u8);

bool ktls_hs_ch_key_share(const struct ktls_hs_client_hello *ch, u16 group,
			  struct ktls_hs_vec *share)
{
	struct ktls_rd walk, key;
	u16 got;

	ktls_rd_init(&walk, ch->key_shares.data, ch->key_shares.len);
	while (ktls_rd_u16(&walk, &got) && ktls_rd_vec(&walk, 2, &key)) {
		if (got == group) {
			ktls_rd_to_vec(&key, share);
			return true;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ch_key_share);

/* Extensions a second ClientHello may change (RFC 8446 4.1.2). */
static bool ch_retry_may_change(u16 type)
{
	switch (type) {
	case KTLS_EXT_KEY_SHARE:
	case KTLS_EXT_EARLY_DATA:
	case KTLS_EXT_COOKIE:
	case KTLS_EXT_PRE_SHARED_KEY:
	case KTLS_EXT_PADDING:
		return true;
	}
	return false;
}

int ktls_hs_ch_retry_digest(const u8 *msg, size_t len,
			    const struct ktls_hs_client_hello *ch,
			    u8 out[KTLS_HS_CH_DIGEST_LEN])
{
	const u8 *head = msg + KTLS_HS_MSG_HDR_LEN;
	const u8 *tail = ch->compression.data + ch->compression.len;
	struct ktls_rd walk, exts, data;
	struct ktls_transcript t;
	const u8 *at;
	u16 type;
	int err;

	/* legacy_version through legacy_compression_methods, whole. */
	err = ktls_transcript_init(&t, KTLS_HASH_SHA256);
	if (!err)
		err = ktls_transcript_update(&t, head, tail - head);
	/* The parser checked the framing of what follows. */
	ktls_rd_init(&walk, tail, msg + len - tail);
	if (!ktls_rd_vec(&walk, 2, &exts))
		ktls_rd_init(&exts, NULL, 0);
	while (!err && !ktls_rd_empty(&exts)) {
		at = exts.p;
		if (!ktls_rd_u16(&exts, &type) || !ktls_rd_vec(&exts, 2, &data))
			break;
		if (!ch_retry_may_change(type))
			err = ktls_transcript_update(&t, at, exts.p - at);
	}
	if (!err)
		err = ktls_transcript_digest(&t, out, KTLS_HS_CH_DIGEST_LEN);
	ktls_transcript_wipe(&t);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_ch_retry_digest);

/* Whether the client's ALPN list holds the name @want. */
static bool ch_alpn_offered(const struct ktls_hs_client_hello *ch,
			    const struct ktls_rd *want)
{
	struct ktls_rd walk, name;

	ktls_rd_init(&walk, ch->alpn.data, ch->alpn.len);
	while (ktls_rd_vec(&walk, 1, &name))
		if (name.left == want->left &&
		    !memcmp(name.p, want->p, name.left))
			return true;
	return false;
}

bool ktls_hs_alpn_select(const struct ktls_hs_client_hello *ch,
			 const struct ktls_hs_vec *ours,
			 struct ktls_hs_vec *chosen)
{
	struct ktls_rd walk, name;

	if (!ktls_hs_ch_has(ch, KTLS_EXTB_ALPN))
		return false;
	ktls_rd_init(&walk, ours->data, ours->len);
	while (ktls_rd_vec(&walk, 1, &name)) {
		if (!ktls_rd_empty(&name) && ch_alpn_offered(ch, &name)) {
			ktls_rd_to_vec(&name, chosen);
			return true;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_hs_alpn_select);
