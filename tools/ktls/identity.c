// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls identity add|list|show|update|del: server identities (a P-256
 * certificate chain and its key) as "ktls_identity" keys in the "ktls"
 * keyring.  The kernel checks a bundle when it takes it; what is checked
 * here only turns the common mistakes (a missing file, no certificate,
 * no key, an encrypted or RSA key) into messages that name them, before
 * anything changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/keyctl.h>

#include "ktls.h"

/* The largest payload the key type takes (Documentation/identities.rst). */
#define KTLS_BUNDLE_MAX	0x10000

/* The owner's (root's) rights added to a new identity, beside possession. */
#define KEY_POS_ALL	0x3f000000
#define KEY_USR_VIEW	0x00010000
#define KEY_USR_READ	0x00020000
#define KEY_USR_SEARCH	0x00080000

/*
 * The bundle the kernel takes: the CERTIFICATE blocks of @cert, in
 * order, then the private key block of @key.  Only those, so that the
 * same combined file may be given as both.
 */
static int make_bundle(const char *cpath, const char *kpath,
		       struct ktls_buf *out)
{
	struct ktls_buf cert = {}, key = {};
	const char *start, *end, *kstart = NULL, *kend = NULL;
	char label[64];
	size_t pos = 0, n = 0, nkeys = 0, ncerts = 0;
	int rc;

	rc = ktls_read_file(cpath, &cert);
	if (!rc)
		rc = ktls_read_file(kpath, &key);
	if (rc)
		goto out;
	rc = KTLS_EXIT_INVALID;
	/* every block taken whole, and a newline after each */
	out->p = malloc(2 * (cert.len + key.len) + 2);
	if (!out->p) {
		rc = ktls_err(KTLS_EXIT_FAIL, "out of memory");
		goto out;
	}
	while (ktls_pem_next(cert.p, &pos, label, sizeof(label), &start, &end)) {
		if (!end) {
			ktls_err(rc, "%s: a '%s' block without its END line",
				 cpath, label);
			goto out;
		}
		if (strcmp(label, "CERTIFICATE"))
			continue;
		memcpy(out->p + n, start, end - start);
		n += end - start;
		out->p[n++] = '\n';
		ncerts++;
	}
	if (!ncerts) {
		ktls_err(rc, "%s: no certificate (no PEM 'BEGIN CERTIFICATE' block)",
			 cpath);
		goto out;
	}
	pos = 0;
	while (ktls_pem_next(key.p, &pos, label, sizeof(label), &start, &end)) {
		if (!strcmp(label, "ENCRYPTED PRIVATE KEY")) {
			ktls_err(rc, "%s: the private key is encrypted; decrypt it first (openssl pkey -in KEY -out PLAIN.key)",
				 kpath);
			goto out;
		}
		if (!strcmp(label, "RSA PRIVATE KEY") ||
		    !strcmp(label, "DSA PRIVATE KEY")) {
			ktls_err(rc, "%s: an %.3s key; only ECDSA P-256 (prime256v1) identities are supported",
				 kpath, label);
			goto out;
		}
		if (strcmp(label, "EC PRIVATE KEY") && strcmp(label, "PRIVATE KEY"))
			continue;
		if (!end) {
			ktls_err(rc, "%s: a '%s' block without its END line",
				 kpath, label);
			goto out;
		}
		kstart = start;
		kend = end;
		nkeys++;
	}
	if (nkeys != 1) {
		ktls_err(rc, nkeys ? "%s: more than one private key" :
			 "%s: no private key (no PEM 'BEGIN EC PRIVATE KEY' or 'BEGIN PRIVATE KEY' block)",
			 kpath);
		goto out;
	}
	memcpy(out->p + n, kstart, kend - kstart);
	n += kend - kstart;
	out->p[n++] = '\n';
	out->len = n;
	rc = 0;
out:
	free(cert.p);
	free(key.p);
	return rc;
}

/* The leaf's key algorithm, when it is not the one the kernel takes. */
static int check_leaf(const char *cpath, const struct ktls_buf *bundle)
{
	struct ktls_cert_info info;
	unsigned char der[16384];
	const char *start, *end;
	char label[64];
	size_t pos = 0, n;

	if (!ktls_pem_next(bundle->p, &pos, label, sizeof(label), &start, &end))
		return 0;
	n = ktls_pem_der(start, end, der, sizeof(der));
	if (ktls_x509_parse(der, n, &info))
		return 0;	/* the kernel will say what is wrong */
	if (strcmp(info.key_type, "EC P-256"))
		return ktls_err(KTLS_EXIT_INVALID,
				"%s: the certificate's key is %s; only ECDSA P-256 (prime256v1) identities are supported",
				cpath, info.key_type);
	return 0;
}

/* add_key(2) and KEYCTL_UPDATE errors, as identities.rst lists them. */
static const struct {
	int err;
	const char *why, *more;
} bundle_errors[] = {
	{ EBADMSG, "malformed certificate or key",
	  "truncated, bad base64, not DER, or refused by the kernel's X.509 parser" },
	{ ENOPKG, "not a P-256 identity",
	  "a key not ECDSA P-256, or a certificate signed with an algorithm the kernel lacks" },
	{ EKEYREJECTED, "the private key is not the certificate's",
	  "the first certificate must be the leaf of this key" },
	{ ENODATA, "no certificate", NULL },
	{ ENOKEY, "no private key", NULL },
	{ EINVAL, "the kernel refused the bundle",
	  "a PEM block of an unexpected kind, or two keys" },
	{ EMSGSIZE, "the bundle is larger than 64 KiB", NULL },
	{ E2BIG, "a chain of more than 16 certificates", NULL },
	{ EDQUOT, "over the key quota", "/proc/sys/kernel/keys/maxbytes" },
};

static int bundle_errno(const char *name, int err)
{
	unsigned int i;

	if (err == EACCES || err == EPERM)
		return ktls_err(KTLS_EXIT_PERM, "%s: not permitted: %s", name,
				strerror(err));
	for (i = 0; i < ARRAY_SIZE(bundle_errors); i++) {
		if (bundle_errors[i].err != err)
			continue;
		ktls_err(KTLS_EXIT_INVALID, "%s: %s (%s)", name, bundle_errors[i].why,
			 strerror(err));
		if (bundle_errors[i].more)
			ktls_note("%s; the kernel log says more", bundle_errors[i].more);
		return KTLS_EXIT_INVALID;
	}
	return ktls_err(KTLS_EXIT_FAIL, "%s: %s", name, strerror(err));
}

static void help_add(FILE *f)
{
	fputs("usage: ktls identity add NAME --cert CHAIN.pem --key KEY.pem [--replace]\n"
	      "       ktls identity update NAME --cert CHAIN.pem --key KEY.pem\n"
	      "\n"
	      "Load a P-256 certificate chain (leaf first) and its private key as the\n"
	      "identity NAME, in the keyring \"ktls\" of the caller's user keyring, and\n"
	      "print its key serial.  add refuses an existing NAME unless --replace;\n"
	      "update replaces the chain and key of an existing NAME in place (same\n"
	      "serial): handshakes that start afterwards use the new ones.\n", f);
}

/* add (@update false) and update. */
static int identity_load(int argc, char **argv, bool update)
{
	static const struct option opts[] = {
		{ "cert", required_argument, NULL, 'c' },
		{ "key", required_argument, NULL, 'k' },
		{ "replace", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *cert = NULL, *key = NULL, *name;
	struct ktls_buf bundle = {};
	bool replace = update;
	__s32 ring, serial;
	int o, rc;

	while ((o = getopt_long(argc, argv, "c:k:h", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			cert = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case 'r':
			if (update)
				goto usage;
			replace = true;
			break;
		case 'h':
			help_add(stdout);
			return 0;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc || !cert || !key)
		goto usage;
	name = argv[optind];
	if (!ktls_name_ok(name))
		return ktls_err(KTLS_EXIT_USAGE, "'%s': %s", name,
				"1 to 255 letters, digits and ._:@+- (not first: . -)");
	rc = make_bundle(cert, key, &bundle);
	if (!rc)
		rc = check_leaf(cert, &bundle);
	if (!rc && bundle.len > KTLS_BUNDLE_MAX)
		rc = bundle_errno(name, EMSGSIZE);
	if (!rc)
		rc = ktls_need_module();
	if (!rc)
		rc = ktls_keyring_setup();
	if (rc)
		goto out;
	serial = ktls_identity_find(name);
	if (serial < 0 && serial != -ENOKEY) {
		rc = ktls_err(ktls_errno_code(-serial), "the ktls keyring: %s",
			      strerror(-serial));
		goto out;
	}
	if (serial > 0 && !replace) {
		rc = ktls_err(KTLS_EXIT_EXISTS, "%s exists (serial %d)", name, serial);
		ktls_note("'ktls identity update' or 'add --replace' replaces it");
		goto out;
	}
	if (serial < 0 && update) {
		rc = ktls_err(KTLS_EXIT_NOTFOUND, "no identity %s ('ktls identity add' loads one)",
			      name);
		goto out;
	}
	if (serial > 0) {
		if (ktls_keyctl(KEYCTL_UPDATE, serial, (unsigned long)bundle.p,
				bundle.len, 0) < 0) {
			rc = bundle_errno(name, errno);
			goto out;
		}
	} else {
		ring = ktls_keyring(true);
		if (ring < 0) {
			rc = ktls_err(ktls_errno_code(-ring), "cannot make the ktls keyring: %s",
				      strerror(-ring));
			goto out;
		}
		serial = ktls_add_key(KTLS_KEY_TYPE, name, bundle.p, bundle.len,
				      ring);
		if (serial < 0) {
			rc = bundle_errno(name, errno);
			goto out;
		}
		/* root's services may arm with it without possessing it. */
		ktls_keyctl(KEYCTL_SETPERM, serial, KEY_POS_ALL | KEY_USR_VIEW |
			    KEY_USR_READ | KEY_USR_SEARCH, 0, 0);
	}
	printf("%d\n", serial);
out:
	free(bundle.p);
	return rc;
usage:
	help_add(stderr);
	return KTLS_EXIT_USAGE;
}

/* The leaf of identity @serial, for list and show. */
static int leaf_info(__s32 serial, struct ktls_cert_info *leaf, int *chain)
{
	struct ktls_cert_info info;
	unsigned char *der;
	size_t len, off = 0;
	int err;

	err = ktls_key_read(serial, &der, &len);
	if (err)
		return err;
	*chain = 0;
	while (off < len && !ktls_x509_parse(der + off, len - off, &info)) {
		if (!*chain)
			*leaf = info;
		off += info.len;
		(*chain)++;
	}
	free(der);
	return *chain ? 0 : -EBADMSG;
}

static int identity_list(int argc, char **argv)
{
	char name[KTLS_NAME_MAX + 1], type[64];
	struct ktls_cert_info leaf;
	int i, n, chain;
	__s32 *keys;

	if (argc > 1) {
		if (!ktls_is_help(argc, argv))
			return ktls_err(KTLS_EXIT_USAGE, "usage: ktls identity list");
		puts("usage: ktls identity list\n\n"
		     "One line per identity: serial, name, the leaf's subject, its last\n"
		     "day of validity.");
		return 0;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	n = ktls_identity_list(&keys);
	if (n < 0)
		return ktls_err(ktls_errno_code(-n), "the ktls keyring: %s",
				strerror(-n));
	for (i = 0; i < n; i++) {
		if (ktls_key_describe(keys[i], type, sizeof(type), name, sizeof(name)))
			continue;
		if (leaf_info(keys[i], &leaf, &chain))
			printf("%d\t%s\t(unreadable)\n", keys[i], name);
		else
			printf("%d\t%s\t%s\tnot after %s\n", keys[i], name,
			       leaf.subject, leaf.not_after);
	}
	free(keys);
	return 0;
}

static int identity_show(int argc, char **argv)
{
	struct ktls_cert_info info;
	unsigned char *der;
	size_t len, off = 0;
	__s32 serial;
	int i = 0, err;

	if (ktls_is_help(argc, argv) || argc != 2) {
		fputs("usage: ktls identity show NAME\n\n"
		      "The identity's serial and, for each certificate of its chain, leaf\n"
		      "first: subject, issuer, DNS and IP names, end of validity, key type.\n"
		      "The private key is never shown: the kernel does not give it back.\n",
		      argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : KTLS_EXIT_USAGE;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	serial = ktls_identity_find(argv[1]);
	if (serial < 0)
		return ktls_err(ktls_errno_code(-serial), "no identity %s (%s)",
				argv[1], strerror(-serial));
	err = ktls_key_read(serial, &der, &len);
	if (err)
		return ktls_err(ktls_errno_code(-err), "%s: %s", argv[1],
				strerror(-err));
	printf("identity %s\n  serial: %d\n", argv[1], serial);
	while (off < len && !ktls_x509_parse(der + off, len - off, &info)) {
		printf("  certificate %d%s:\n"
		       "    subject:   %s\n"
		       "    issuer:    %s\n"
		       "    names:     %s\n"
		       "    not after: %s\n"
		       "    key:       %s\n", i, i ? "" : " (leaf)", info.subject,
		       info.issuer, info.dns[0] ? info.dns : "(none)",
		       info.not_after, info.key_type);
		off += info.len;
		i++;
	}
	free(der);
	return 0;
}

static int identity_del(int argc, char **argv)
{
	bool revoke = argc == 3 && !strcmp(argv[2], "--revoke");
	__s32 serial, ring;

	if (ktls_is_help(argc, argv) || (argc != 2 && !revoke)) {
		fputs("usage: ktls identity del NAME [--revoke]\n\n"
		      "Remove NAME from the ktls keyring.  Listeners armed with it keep\n"
		      "their reference and go on serving it until they close; --revoke\n"
		      "makes every handshake that starts afterwards fail instead.\n",
		      argc >= 2 ? stdout : stderr);
		return ktls_is_help(argc, argv) ? 0 : KTLS_EXIT_USAGE;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	serial = ktls_identity_find(argv[1]);
	if (serial < 0)
		return ktls_err(ktls_errno_code(-serial), "no identity %s",
				argv[1]);
	ring = ktls_keyring(false);
	if (revoke && ktls_keyctl(KEYCTL_REVOKE, serial, 0, 0, 0) < 0)
		return ktls_err(ktls_errno_code(errno), "%s: revoke: %s",
				argv[1], strerror(errno));
	if (ring < 0 || ktls_keyctl(KEYCTL_UNLINK, serial, ring, 0, 0) < 0)
		return ktls_err(ktls_errno_code(errno), "%s: unlink: %s",
				argv[1], strerror(errno));
	return 0;
}

static void identity_usage(FILE *f)
{
	fputs("usage: ktls identity add NAME --cert CHAIN.pem --key KEY.pem [--replace]\n"
	      "       ktls identity update NAME --cert CHAIN.pem --key KEY.pem\n"
	      "       ktls identity list\n"
	      "       ktls identity show NAME\n"
	      "       ktls identity del NAME [--revoke]\n"
	      "\n"
	      "Identities are \"ktls_identity\" keys in the keyring \"ktls\" of the\n"
	      "caller's user keyring (root's, as root); NAME is the key's description.\n", f);
}

int ktls_cmd_identity(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub || !strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		identity_usage(sub ? stdout : stderr);
		return sub ? 0 : KTLS_EXIT_USAGE;
	}
	if (!strcmp(sub, "add")) {
		ktls_cmd = "identity add";
		return identity_load(argc - 1, argv + 1, false);
	}
	if (!strcmp(sub, "update")) {
		ktls_cmd = "identity update";
		return identity_load(argc - 1, argv + 1, true);
	}
	if (!strcmp(sub, "list")) {
		ktls_cmd = "identity list";
		return identity_list(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "show")) {
		ktls_cmd = "identity show";
		return identity_show(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "del")) {
		ktls_cmd = "identity del";
		return identity_del(argc - 1, argv + 1);
	}
	fprintf(stderr, "ktls identity: unknown subcommand '%s'\n", sub);
	identity_usage(stderr);
	return KTLS_EXIT_USAGE;
}
