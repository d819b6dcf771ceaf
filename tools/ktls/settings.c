// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an armed listener gets, for arm and run alike: the options that
 * set it (--identity, --alpn, --tickets, --ticket-keys, --versions, --groups,
 * --handshake-timeout, --client-ca, --client-auth),
 * the setsockopt calls that apply it, and a dry run on a throwaway
 * listener of our own that lets the kernel judge every value before any
 * server's socket is touched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktls.h"

static const char *failed_what = "";

/* The option the last failed ktls_settings_apply() was setting. */
const char *ktls_settings_what(void)
{
	return failed_what;
}

static int parse_identities(struct ktls_settings *s, const char *arg)
{
	char *list = strdup(arg), *name, *save = NULL;
	int rc = 0;

	if (!list)
		return ktls_err(KTLS_EXIT_FAIL, "out of memory");
	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (s->nr_ids == KTLS_HS_IDENTITIES_MAX) {
			rc = ktls_err(KTLS_EXIT_USAGE, "at most %d identities",
				      KTLS_HS_IDENTITIES_MAX);
			break;
		}
		if (strlen(name) > KTLS_NAME_MAX) {
			rc = ktls_err(KTLS_EXIT_USAGE, "identity name too long");
			break;
		}
		snprintf(s->names[s->nr_ids++], sizeof(s->names[0]), "%s", name);
	}
	free(list);
	return rc;
}

/* "h2,http/1.1" as a protocol_name_list: each name after its length. */
static int parse_alpn(struct ktls_settings *s, const char *arg)
{
	const char *p = arg, *e;
	size_t len;

	s->alpn_len = 0;
	while (*p) {
		e = strchrnul(p, ',');
		len = e - p;
		if (!len || len > 255 || s->alpn_len + 1 + len > KTLS_HS_ALPN_MAX)
			return ktls_err(KTLS_EXIT_USAGE,
					"--alpn: protocol names of 1 to 255 bytes, %d bytes in all",
					KTLS_HS_ALPN_MAX);
		s->alpn[s->alpn_len++] = len;
		memcpy(s->alpn + s->alpn_len, p, len);
		s->alpn_len += len;
		p = *e ? e + 1 : e;
	}
	return 0;
}

static int parse_versions(struct ktls_settings *s, const char *arg)
{
	char *list = strdup(arg), *v, *save = NULL;
	int rc = 0;

	if (!list)
		return ktls_err(KTLS_EXIT_FAIL, "out of memory");
	s->versions = 0;
	for (v = strtok_r(list, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (!strcmp(v, "1.2")) {
			s->versions |= KTLS_HS_VERSION_TLS12;
		} else if (!strcmp(v, "1.3")) {
			s->versions |= KTLS_HS_VERSION_TLS13;
		} else {
			rc = ktls_err(KTLS_EXIT_USAGE, "--versions: 1.2, 1.3 or 1.2,1.3, not '%s'",
				      v);
			break;
		}
	}
	if (!rc && !s->versions)
		rc = ktls_err(KTLS_EXIT_USAGE, "--versions: at least one version");
	free(list);
	return rc;
}

/* The names --groups takes, and what ktls show prints. */
const struct ktls_group_name ktls_group_names[] = {
	{ "x25519mlkem768", KTLS_HS_GROUP_X25519MLKEM768 },
	{ "secp256r1mlkem768", KTLS_HS_GROUP_SECP256R1MLKEM768 },
	{ "x25519", KTLS_HS_GROUP_X25519 },
	{ "p256", KTLS_HS_GROUP_SECP256R1 },
	{ "hybrid-retry", KTLS_HS_GROUP_HYBRID_RETRY },
	{}
};

static int parse_groups(struct ktls_settings *s, const char *arg)
{
	char *list = strdup(arg), *g, *save = NULL;
	const struct ktls_group_name *n;
	int rc = 0;

	if (!list)
		return ktls_err(KTLS_EXIT_FAIL, "out of memory");
	s->groups = 0;
	for (g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
		for (n = ktls_group_names; n->name && strcmp(g, n->name); n++)
			;
		if (!n->name) {
			rc = ktls_err(KTLS_EXIT_USAGE,
				      "--groups: x25519mlkem768, secp256r1mlkem768, x25519, p256, hybrid-retry; not '%s'",
				      g);
			break;
		}
		s->groups |= n->bit;
	}
	if (!rc && !(s->groups & ~KTLS_HS_GROUP_HYBRID_RETRY))
		rc = ktls_err(KTLS_EXIT_USAGE, "--groups: at least one group");
	free(list);
	return rc;
}

static int parse_client_auth(struct ktls_settings *s, const char *arg)
{
	static const char *const modes[] = {
		[KTLS_HS_CLIENT_AUTH_NONE] = "none",
		[KTLS_HS_CLIENT_AUTH_OPTIONAL] = "optional",
		[KTLS_HS_CLIENT_AUTH_REQUIRED] = "required",
	};
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(modes); i++)
		if (!strcmp(arg, modes[i])) {
			s->client_auth = i;
			s->client_auth_given = true;
			return 0;
		}
	return ktls_err(KTLS_EXIT_USAGE,
			"--client-auth: none, optional or required, not '%s'", arg);
}

/*
 * One option of arm or run: 'i' --identity, 'a' --alpn, 't' --tickets,
 * 'K' --ticket-keys, 'V' --versions, 'G' --groups, 'T' --handshake-timeout,
 * 'C' --client-ca, 'A' --client-auth.  0, or the exit code.
 */
int ktls_settings_parse(struct ktls_settings *s, int opt, const char *arg)
{
	unsigned long v;

	switch (opt) {
	case 'i':
		return parse_identities(s, arg);
	case 'a':
		return parse_alpn(s, arg);
	case 'V':
		return parse_versions(s, arg);
	case 'G':
		return parse_groups(s, arg);
	case 't':
		if (ktls_parse_uint(arg, KTLS_HS_TICKET_LIFETIME_MAX, &v))
			return ktls_err(KTLS_EXIT_USAGE, "--tickets: seconds, 0 to %d",
					KTLS_HS_TICKET_LIFETIME_MAX);
		s->ticket_lifetime = v;
		return 0;
	case 'K':
		if (!*arg || strlen(arg) > KTLS_NAME_MAX)
			return ktls_err(KTLS_EXIT_USAGE, "--ticket-keys: a name of 1 to %d bytes",
					KTLS_NAME_MAX);
		snprintf(s->ticket_keys, sizeof(s->ticket_keys), "%s", arg);
		return 0;
	case 'T':
		if (ktls_parse_uint(arg, 600000, &v) || !v)
			return ktls_err(KTLS_EXIT_USAGE,
					"--handshake-timeout: milliseconds, 1 to 600000");
		s->timeout_ms = v;
		return 0;
	case 'C':
		if (!*arg || strlen(arg) > KTLS_NAME_MAX)
			return ktls_err(KTLS_EXIT_USAGE, "--client-ca: a name of 1 to %d bytes",
					KTLS_NAME_MAX);
		snprintf(s->client_ca, sizeof(s->client_ca), "%s", arg);
		return 0;
	case 'A':
		return parse_client_auth(s, arg);
	}
	return KTLS_EXIT_USAGE;
}

/* The serials of the identities named; the keyring is set up. */
int ktls_settings_resolve(struct ktls_settings *s)
{
	unsigned int i;
	__s32 serial;

	if (!s->nr_ids)
		return ktls_err(KTLS_EXIT_USAGE, "--identity NAME is required");
	for (i = 0; i < s->nr_ids; i++) {
		serial = ktls_identity_find(s->names[i]);
		if (serial == -ENOKEY)
			return ktls_err(KTLS_EXIT_NOTFOUND,
					"unknown identity '%s' ('ktls identity list' shows them)",
					s->names[i]);
		if (serial < 0)
			return ktls_err(ktls_errno_code(-serial), "identity %s: %s",
					s->names[i], strerror(-serial));
		s->serials[i] = serial;
	}
	if (*s->ticket_keys) {
		if (!s->ticket_lifetime)
			return ktls_err(KTLS_EXIT_USAGE,
					"--ticket-keys needs --tickets SECONDS");
		serial = ktls_key_find(KTLS_TICKETS_TYPE, s->ticket_keys);
		if (serial == -ENOKEY)
			return ktls_err(KTLS_EXIT_NOTFOUND,
					"unknown ticket keys '%s' ('ktls tickets list' shows them)",
					s->ticket_keys);
		if (serial < 0)
			return ktls_err(ktls_errno_code(-serial), "ticket keys %s: %s",
					s->ticket_keys, strerror(-serial));
		s->ticket_serial = serial;
	}
	/* A trust store asks for certificates: required unless told. */
	if (*s->client_ca &&
	    !(s->client_auth_given && s->client_auth == KTLS_HS_CLIENT_AUTH_NONE)) {
		serial = ktls_key_find(KTLS_TRUST_TYPE, s->client_ca);
		if (serial == -ENOKEY)
			return ktls_err(KTLS_EXIT_NOTFOUND,
					"unknown trust store '%s' ('ktls trust list' shows them)",
					s->client_ca);
		if (serial < 0)
			return ktls_err(ktls_errno_code(-serial), "trust store %s: %s",
					s->client_ca, strerror(-serial));
		s->client_ca_serial = serial;
		if (!s->client_auth_given)
			s->client_auth = KTLS_HS_CLIENT_AUTH_REQUIRED;
	} else if (s->client_auth != KTLS_HS_CLIENT_AUTH_NONE) {
		return ktls_err(KTLS_EXIT_USAGE,
				"--client-auth %s needs --client-ca NAME",
				s->client_auth == KTLS_HS_CLIENT_AUTH_OPTIONAL ?
				"optional" : "required");
	} else {
		s->client_auth = KTLS_HS_CLIENT_AUTH_NONE;
	}
	if (!s->versions)
		s->versions = KTLS_HS_VERSION_TLS12 | KTLS_HS_VERSION_TLS13;
	/* The kernel's default: every group, the hybrids preferred. */
	if (!s->groups)
		s->groups = KTLS_HS_GROUP_X25519MLKEM768 |
			    KTLS_HS_GROUP_SECP256R1MLKEM768 |
			    KTLS_HS_GROUP_X25519 | KTLS_HS_GROUP_SECP256R1;
	if (!s->timeout_ms)
		s->timeout_ms = KTLS_HS_TIMEOUT_DEFAULT;
	return 0;
}

static int set(int fd, int level, int opt, const void *val, socklen_t len,
	       const char *what)
{
	if (!setsockopt(fd, level, opt, val, len))
		return 0;
	failed_what = what;
	return -errno;
}

static bool has_serial(const __s32 *cur, int n, __s32 serial)
{
	int i;

	for (i = 0; i < n; i++)
		if (cur[i] == serial)
			return true;
	return false;
}

/**
 * ktls_settings_apply() - arm listener @fd with @s, or update it
 * @fd:		a TCP listener
 * @s:		resolved settings
 * @fresh:	arm it (TCP_ULP); else it is armed, and only updated
 *
 * Every option is set, to its default when not given, so that an update
 * leaves the listener as a fresh arm would.  The identities come last: a
 * child born before the first one is closed (the kernel has no identity
 * to serve it), and one born after it sees the other settings already.
 * An update adds the identities the listener lacks; the kernel has no
 * way to take one away.
 *
 * Return: 0 or -errno, with ktls_settings_what() naming the option.
 */
int ktls_settings_apply(int fd, const struct ktls_settings *s, bool fresh)
{
	struct ktls_hs_tickets t = {
		.lifetime_s = s->ticket_lifetime,
		/* SO_REUSEPORT siblings resume each other's sessions. */
		.key_group = s->ticket_lifetime ? s->port : 0,
	};
	struct ktls_hs_client_auth auth = {
		.mode = s->client_auth,
		.trust = s->client_auth ? s->client_ca_serial : 0,
	};
	const char *tickets_what = "--tickets";
	__s32 cur[KTLS_HS_IDENTITIES_MAX];
	socklen_t len = sizeof(cur);
	int off = 0, err, n = 0;
	unsigned int i;

	/* The operator's keys: every machine that has them resumes. */
	if (s->ticket_serial) {
		t.key_group = s->ticket_serial;
		t.flags = KTLS_HS_TICKETS_KEYRING;
		tickets_what = "--ticket-keys";
	}

	if (fresh)
		err = set(fd, IPPROTO_TCP, TCP_ULP, KTLS_ULP_ARMED,
			  sizeof(KTLS_ULP_ARMED), "TCP_ULP ktls_hs");
	else
		err = getsockopt(fd, SOL_TLS, KTLS_HS_IDENTITY, cur, &len) ?
		      -errno : 0;
	if (!fresh && !err)
		n = len / sizeof(cur[0]);
	if (!err)
		err = set(fd, SOL_TLS, KTLS_HS_VERSIONS, &s->versions,
			  sizeof(s->versions), "--versions");
	if (!err)
		err = set(fd, SOL_TLS, KTLS_HS_GROUPS, &s->groups,
			  sizeof(s->groups), "--groups");
	if (!err)
		err = set(fd, SOL_TLS, KTLS_HS_ALPN, s->alpn, s->alpn_len, "--alpn");
	if (!err)
		err = set(fd, SOL_TLS, KTLS_HS_TIMEOUT, &s->timeout_ms,
			  sizeof(s->timeout_ms), "--handshake-timeout");
	if (!err)
		err = set(fd, SOL_TLS, KTLS_HS_FALLBACK, &off, sizeof(off),
			  "KTLS_HS_FALLBACK");
	if (!err)
		err = set(fd, SOL_TLS, KTLS_HS_TICKETS, &t, sizeof(t),
			  tickets_what);
	/*
	 * Set when asked for, and on an update (to take it away again); a
	 * kernel without client certificates cannot have it set to undo.
	 */
	if (!err && (auth.mode || !fresh)) {
		err = set(fd, SOL_TLS, KTLS_HS_CLIENT_AUTH, &auth, sizeof(auth),
			  "--client-ca");
		if (err == -ENOPROTOOPT && !auth.mode)
			err = 0;
	}
	for (i = 0; !err && i < s->nr_ids; i++)
		if (!has_serial(cur, n, s->serials[i]))
			err = set(fd, SOL_TLS, KTLS_HS_IDENTITY, &s->serials[i],
				  sizeof(s->serials[i]), s->names[i]);
	return err;
}

/*
 * A dry run: a listener of our own on a loopback port the kernel picks,
 * armed with @s and closed.  The kernel's checks (the key's type, our
 * right to search it, whether its chain fits the handshake memory, the
 * ticket key group) then fail here, before any server's socket changes.
 */
int ktls_settings_probe(const struct ktls_settings *s)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 1)) {
		err = -errno;
		failed_what = "a loopback listener for the dry run";
	} else {
		err = ktls_settings_apply(fd, s, true);
	}
	if (fd >= 0)
		close(fd);
	return err;
}

/* The message and exit code for ktls_settings_apply()'s @err on @where. */
int ktls_settings_err(int err, const char *where)
{
	const char *what = failed_what, *why = strerror(-err);
	int code = ktls_errno_code(-err);

	if (!strcmp(what, "TCP_ULP ktls_hs")) {
		if (err == -ENOENT)
			return ktls_need_module() ?: ktls_err(KTLS_EXIT_NOMODULE,
				"%s: the kernel has no ULP ktls_hs", where);
		if (err == -EEXIST)
			why = "the socket has another ULP already";
		if (err == -EINVAL) {
			why = "not a listening socket";
			code = KTLS_EXIT_INVALID;
		}
	} else if (strncmp(what, "--", 2) && strcmp(what, "KTLS_HS_FALLBACK")) {
		/* an identity, by name */
		switch (-err) {
		case EACCES:
			why = "not permitted to search its key";
			break;
		case EINVAL:
			why = "its key is not a ktls_identity";
			break;
		case EMSGSIZE:
			why = "its chain needs more than the largest handshake block (64 KiB)";
			break;
		case EKEYREVOKED:
			why = "its key was revoked";
			break;
		case ENOSPC:
			why = "more than 8 identities";
			break;
		}
	} else if (!strcmp(what, "--ticket-keys")) {
		switch (-err) {
		case EACCES:
			why = "not permitted to search its key";
			break;
		case EINVAL:
			why = "not a ktls_tickets key, or a kernel without them";
			break;
		case EKEYREVOKED:
			why = "its key was revoked";
			break;
		}
	} else if (!strcmp(what, "--client-ca")) {
		switch (-err) {
		case EACCES:
			why = "not permitted to search its key";
			break;
		case EINVAL:
			why = "not a ktls_trust key";
			break;
		case ENOPROTOOPT:
			why = "the kernel's ktls_hs has no client certificates";
			break;
		case EKEYREVOKED:
			why = "its key was revoked";
			break;
		}
	} else if (!strcmp(what, "--tickets") && err == -EBUSY) {
		why = "the ticket keys of this port rotate at another lifetime";
		ktls_note("use the same --tickets, or restart the server");
	}
	return ktls_err(code, "%s: %s: %s", where, what, why);
}
