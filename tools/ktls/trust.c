// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls trust add|list|show|del: trust stores, the CA certificates client
 * certificates must chain to and a denylist of certificate fingerprints,
 * as "ktls_trust" keys in the "ktls" keyring.  The kernel checks a store
 * when it takes it; what is checked here turns the common mistakes (no
 * certificate, an RSA CA, a private key in the file, a fingerprint of
 * the wrong length) into messages that name them, before anything
 * changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/keyctl.h>

#include "ktls.h"

/* The largest payload the key type takes (Documentation/identities.rst). */
#define KTLS_TRUST_MAX		0x40000
#define KTLS_TRUST_MAX_CAS	64
#define KTLS_TRUST_MAX_DENY	1024
#define KTLS_CERT_MAX		16384

/* As for identities: root's services may use a store they do not possess. */
#define KEY_POS_ALL	0x3f000000
#define KEY_USR_VIEW	0x00010000
#define KEY_USR_READ	0x00020000
#define KEY_USR_SEARCH	0x00080000

/* A fingerprint as 64 lowercase hex digits; colons and case are accepted. */
static int parse_fingerprint(const char *s, char out[2 * KTLS_SHA256_SIZE + 1])
{
	size_t n = 0;

	for (; *s; s++) {
		if (*s == ':')
			continue;
		if (n == 2 * KTLS_SHA256_SIZE || !strchr("0123456789abcdefABCDEF", *s))
			return -1;
		out[n++] = *s | 0x20;
	}
	out[n] = '\0';
	return n == 2 * KTLS_SHA256_SIZE ? 0 : -1;
}

static void hex(const unsigned char *p, size_t len, char *out)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

/*
 * The payload: the CERTIFICATE blocks of @path, each checked to be a
 * P-256 key, then a "deny" line per fingerprint.
 */
static int make_store(const char *path, char **deny, int nr_deny,
		      struct ktls_buf *out)
{
	char label[64], fp[2 * KTLS_SHA256_SIZE + 1];
	const char *start, *end;
	struct ktls_cert_info info;
	unsigned char *der = NULL;
	struct ktls_buf cas = {};
	size_t pos = 0, n = 0, len;
	int rc, i, ncerts = 0;

	rc = ktls_read_file(path, &cas);
	if (rc)
		return rc;
	rc = KTLS_EXIT_INVALID;
	out->p = malloc(cas.len + nr_deny * (sizeof(fp) + 8) + 1);
	der = malloc(KTLS_CERT_MAX);
	if (!out->p || !der) {
		rc = ktls_err(KTLS_EXIT_FAIL, "out of memory");
		goto out;
	}
	while (ktls_pem_next(cas.p, &pos, label, sizeof(label), &start, &end)) {
		if (!end) {
			ktls_err(rc, "%s: a '%s' block without its END line",
				 path, label);
			goto out;
		}
		if (strstr(label, "PRIVATE KEY")) {
			ktls_err(rc, "%s: holds a private key; a trust store takes CA certificates only",
				 path);
			goto out;
		}
		if (strcmp(label, "CERTIFICATE"))
			continue;
		ncerts++;
		len = ktls_pem_der(start, end, der, KTLS_CERT_MAX);
		if (ktls_x509_parse(der, len, &info)) {
			ktls_err(rc, "%s: certificate %d is not a readable X.509 certificate",
				 path, ncerts);
			goto out;
		}
		if (strcmp(info.key_type, "EC P-256")) {
			ktls_err(rc, "%s: certificate %d (%s): its key is %s; only ECDSA P-256 CAs are supported",
				 path, ncerts, info.subject, info.key_type);
			goto out;
		}
		memcpy(out->p + n, start, end - start);
		n += end - start;
		out->p[n++] = '\n';
	}
	if (!ncerts) {
		ktls_err(rc, "%s: no certificate (no PEM 'BEGIN CERTIFICATE' block)",
			 path);
		goto out;
	}
	if (ncerts > KTLS_TRUST_MAX_CAS) {
		ktls_err(rc, "%s: %d certificates; a trust store holds at most %d",
			 path, ncerts, KTLS_TRUST_MAX_CAS);
		goto out;
	}
	for (i = 0; i < nr_deny; i++) {
		parse_fingerprint(deny[i], fp);
		n += sprintf(out->p + n, "deny %s\n", fp);
	}
	out->len = n;
	rc = 0;
out:
	free(der);
	free(cas.p);
	return rc;
}

/* add_key(2) and KEYCTL_UPDATE errors, as identities.rst lists them. */
static const struct {
	int err;
	const char *why, *more;
} store_errors[] = {
	{ EBADMSG, "malformed certificate",
	  "truncated, bad base64, or not DER" },
	{ ENOPKG, "a CA the kernel does not take",
	  "a key not ECDSA P-256, or a critical extension it does not enforce" },
	{ ENODATA, "no certificate", NULL },
	{ EINVAL, "the kernel refused the trust store",
	  "a certificate that is not a CA, or a malformed deny line" },
	{ EMSGSIZE, "the trust store is larger than 256 KiB", NULL },
	{ E2BIG, "more than 64 CAs or 1024 denied fingerprints", NULL },
	{ EDQUOT, "over the key quota", "/proc/sys/kernel/keys/maxbytes" },
};

static int store_errno(const char *name, int err)
{
	unsigned int i;

	if (err == EACCES || err == EPERM)
		return ktls_err(KTLS_EXIT_PERM, "%s: not permitted: %s", name,
				strerror(err));
	for (i = 0; i < ARRAY_SIZE(store_errors); i++) {
		if (store_errors[i].err != err)
			continue;
		ktls_err(KTLS_EXIT_INVALID, "%s: %s (%s)", name,
			 store_errors[i].why, strerror(err));
		if (store_errors[i].more)
			ktls_note("%s; the kernel log says more", store_errors[i].more);
		return KTLS_EXIT_INVALID;
	}
	return ktls_err(KTLS_EXIT_FAIL, "%s: %s", name, strerror(err));
}

static void help_add(FILE *f)
{
	fputs("usage: ktls trust add NAME --ca CAS.pem [--deny SHA256]... [--replace]\n"
	      "\n"
	      "Load the P-256 CA certificates of CAS.pem as the trust store NAME, in the\n"
	      "keyring \"ktls\" of the caller's user keyring, and print its key serial.\n"
	      "Client certificates are verified against it.  Each --deny names, by the\n"
	      "SHA-256 of its DER (64 hex digits, colons allowed: openssl x509\n"
	      "-fingerprint -sha256), a certificate refused in any path: there is no\n"
	      "CRL or OCSP in the kernel.  add refuses an existing NAME unless\n"
	      "--replace, which replaces its contents in place (same serial).\n", f);
}

static int trust_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ca", required_argument, NULL, 'c' },
		{ "deny", required_argument, NULL, 'd' },
		{ "replace", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char fp[2 * KTLS_SHA256_SIZE + 1], **deny;
	const char *ca = NULL, *name;
	struct ktls_buf store = {};
	int o, rc, nr_deny = 0;
	bool replace = false;
	__s32 ring, serial;

	deny = calloc(argc, sizeof(*deny));
	if (!deny)
		return ktls_err(KTLS_EXIT_FAIL, "out of memory");
	while ((o = getopt_long(argc, argv, "c:d:h", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			ca = optarg;
			break;
		case 'd':
			if (parse_fingerprint(optarg, fp)) {
				rc = ktls_err(KTLS_EXIT_USAGE,
					      "--deny '%s': want a SHA-256 fingerprint, 64 hex digits",
					      optarg);
				goto out;
			}
			if (nr_deny == KTLS_TRUST_MAX_DENY) {
				rc = ktls_err(KTLS_EXIT_USAGE, "more than %d --deny",
					      KTLS_TRUST_MAX_DENY);
				goto out;
			}
			deny[nr_deny++] = optarg;
			break;
		case 'r':
			replace = true;
			break;
		case 'h':
			help_add(stdout);
			rc = 0;
			goto out;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc || !ca) {
		if (optind + 1 == argc)
			ktls_err(KTLS_EXIT_USAGE, "--ca CAS.pem is required");
		goto usage;
	}
	name = argv[optind];
	if (!ktls_name_ok(name)) {
		rc = ktls_err(KTLS_EXIT_USAGE, "'%s': %s", name,
			      "1 to 255 letters, digits and ._:@+- (not first: . -)");
		goto out;
	}
	rc = make_store(ca, deny, nr_deny, &store);
	if (!rc && store.len > KTLS_TRUST_MAX)
		rc = store_errno(name, EMSGSIZE);
	if (!rc)
		rc = ktls_need_module();
	if (!rc)
		rc = ktls_keyring_setup();
	if (rc)
		goto out;
	serial = ktls_key_find(KTLS_TRUST_TYPE, name);
	if (serial < 0 && serial != -ENOKEY) {
		rc = ktls_err(ktls_errno_code(-serial), "the ktls keyring: %s",
			      strerror(-serial));
		goto out;
	}
	if (serial > 0 && !replace) {
		rc = ktls_err(KTLS_EXIT_EXISTS, "%s exists (serial %d)", name, serial);
		ktls_note("'ktls trust add --replace' replaces it");
		goto out;
	}
	if (serial > 0) {
		if (ktls_keyctl(KEYCTL_UPDATE, serial, (unsigned long)store.p,
				store.len, 0) < 0) {
			rc = store_errno(name, errno);
			goto out;
		}
	} else {
		ring = ktls_keyring(true);
		if (ring < 0) {
			rc = ktls_err(ktls_errno_code(-ring), "cannot make the ktls keyring: %s",
				      strerror(-ring));
			goto out;
		}
		serial = ktls_add_key(KTLS_TRUST_TYPE, name, store.p, store.len,
				      ring);
		if (serial < 0) {
			rc = store_errno(name, errno);
			goto out;
		}
		ktls_keyctl(KEYCTL_SETPERM, serial, KEY_POS_ALL | KEY_USR_VIEW |
			    KEY_USR_READ | KEY_USR_SEARCH, 0, 0);
	}
	printf("%d\n", serial);
	rc = 0;
out:
	free(store.p);
	free(deny);
	return rc;
usage:
	help_add(stderr);
	rc = KTLS_EXIT_USAGE;
	goto out;
}

/* What walk_store() counted. */
struct store_walk {
	int nr_cas;
	int nr_deny;
};

/* The CAs and deny lines of the store @serial: counted, and printed. */
static int walk_store(__s32 serial, struct store_walk *w, bool print)
{
	char label[64], fp[2 * KTLS_SHA256_SIZE + 1], *pem, *line, *save;
	struct ktls_cert_info info;
	const char *start, *end;
	unsigned char *buf, *der, sum[KTLS_SHA256_SIZE];
	size_t len, pos = 0, n;
	int err;

	err = ktls_key_read(serial, &buf, &len);
	if (err)
		return err;
	pem = malloc(len + 1);
	der = malloc(KTLS_CERT_MAX);
	if (!pem || !der) {
		free(pem);
		free(der);
		free(buf);
		return -ENOMEM;
	}
	memcpy(pem, buf, len);
	pem[len] = '\0';
	memset(w, 0, sizeof(*w));
	while (ktls_pem_next(pem, &pos, label, sizeof(label), &start, &end) &&
	       end) {
		if (strcmp(label, "CERTIFICATE"))
			continue;
		w->nr_cas++;
		n = ktls_pem_der(start, end, der, KTLS_CERT_MAX);
		if (!print)
			continue;
		ktls_sha256(der, n, sum);
		hex(sum, sizeof(sum), fp);
		if (ktls_x509_parse(der, n, &info)) {
			printf("  CA %d: (unreadable)\n", w->nr_cas);
			continue;
		}
		printf("  CA %d:\n"
		       "    subject:   %s\n"
		       "    not after: %s\n"
		       "    sha256:    %s\n", w->nr_cas, info.subject,
		       info.not_after, fp);
	}
	/* The deny lines, outside the blocks (strtok_r changes @pem). */
	for (line = strtok_r(pem, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "deny ", 5))
			continue;
		w->nr_deny++;
		if (print)
			printf("  deny: %s\n", line + 5);
	}
	free(pem);
	free(der);
	free(buf);
	return 0;
}

static int trust_list(int argc, char **argv)
{
	char name[KTLS_NAME_MAX + 1], type[64];
	struct store_walk w;
	__s32 *keys;
	int i, n;

	if (argc > 1) {
		if (!ktls_is_help(argc, argv))
			return ktls_err(KTLS_EXIT_USAGE, "usage: ktls trust list");
		puts("usage: ktls trust list\n\n"
		     "One line per trust store: serial, name, how many CAs and denied\n"
		     "fingerprints it holds.");
		return 0;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	n = ktls_key_list(KTLS_TRUST_TYPE, &keys);
	if (n < 0)
		return ktls_err(ktls_errno_code(-n), "the ktls keyring: %s",
				strerror(-n));
	for (i = 0; i < n; i++) {
		if (ktls_key_describe(keys[i], type, sizeof(type), name, sizeof(name)))
			continue;
		if (walk_store(keys[i], &w, false))
			printf("%d\t%s\t(unreadable)\n", keys[i], name);
		else
			printf("%d\t%s\t%d CA%s\t%d denied\n", keys[i], name,
			       w.nr_cas, w.nr_cas == 1 ? "" : "s", w.nr_deny);
	}
	free(keys);
	return 0;
}

static int trust_show(int argc, char **argv)
{
	struct store_walk w;
	__s32 serial;
	int err;

	if (ktls_is_help(argc, argv) || argc != 2) {
		fputs("usage: ktls trust show NAME\n\n"
		      "The trust store's serial and, for each CA: subject, end of validity\n"
		      "and SHA-256 fingerprint; then the denied fingerprints.\n",
		      argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : KTLS_EXIT_USAGE;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	serial = ktls_key_find(KTLS_TRUST_TYPE, argv[1]);
	if (serial < 0)
		return ktls_err(ktls_errno_code(-serial), "no trust store %s (%s)",
				argv[1], strerror(-serial));
	printf("trust store %s\n  serial: %d\n", argv[1], serial);
	err = walk_store(serial, &w, true);
	if (err)
		return ktls_err(ktls_errno_code(-err), "%s: %s", argv[1],
				strerror(-err));
	return 0;
}

static int trust_del(int argc, char **argv)
{
	__s32 serial, ring;

	if (ktls_is_help(argc, argv) || argc != 2) {
		fputs("usage: ktls trust del NAME\n\n"
		      "Remove the trust store NAME from the ktls keyring.  Handshakes that\n"
		      "hold it finish with it.\n",
		      argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : KTLS_EXIT_USAGE;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	serial = ktls_key_find(KTLS_TRUST_TYPE, argv[1]);
	if (serial < 0)
		return ktls_err(ktls_errno_code(-serial), "no trust store %s",
				argv[1]);
	ring = ktls_keyring(false);
	if (ring < 0 || ktls_keyctl(KEYCTL_UNLINK, serial, ring, 0, 0) < 0)
		return ktls_err(ktls_errno_code(errno), "%s: unlink: %s",
				argv[1], strerror(errno));
	return 0;
}

static void trust_usage(FILE *f)
{
	fputs("usage: ktls trust add NAME --ca CAS.pem [--deny SHA256]... [--replace]\n"
	      "       ktls trust list\n"
	      "       ktls trust show NAME\n"
	      "       ktls trust del NAME\n"
	      "\n"
	      "Trust stores are \"ktls_trust\" keys in the keyring \"ktls\" of the\n"
	      "caller's user keyring (root's, as root); NAME is the key's description.\n", f);
}

int ktls_cmd_trust(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub || !strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		trust_usage(sub ? stdout : stderr);
		return sub ? 0 : KTLS_EXIT_USAGE;
	}
	if (!strcmp(sub, "add")) {
		ktls_cmd = "trust add";
		return trust_add(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "list")) {
		ktls_cmd = "trust list";
		return trust_list(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "show")) {
		ktls_cmd = "trust show";
		return trust_show(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "del")) {
		ktls_cmd = "trust del";
		return trust_del(argc - 1, argv + 1);
	}
	fprintf(stderr, "ktls trust: unknown subcommand '%s'\n", sub);
	trust_usage(stderr);
	return KTLS_EXIT_USAGE;
}
