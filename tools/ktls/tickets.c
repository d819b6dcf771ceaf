// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls tickets add|list|show|rotate|del: session ticket keys an operator
 * supplies, as "ktls_tickets" keys in the "ktls" keyring, for listeners
 * armed with --ticket-keys NAME to seal and open tickets with, so that
 * every machine of a fleet resumes the sessions of the others.
 *
 * A payload comes from a file or stdin, as the fleet's secret store
 * hands it out, and goes to the kernel unchanged: the kernel checks it
 * and says why it refused one in its log.  Without one, add and rotate
 * make a random key, which suits a single machine only.  Nothing here
 * prints a secret; the kernel never gives one back, and list and show
 * print what /proc/keys says of a key: its ids and their ages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <linux/keyctl.h>

#include "ktls.h"

/* The largest payload the kernel takes (Documentation/handshake.rst). */
#define TICKETS_PAYLOAD_MAX	1024

/* Possessor's rights, and the owner's: a service may search without possessing. */
#define KEY_POS_ALL	0x3f000000
#define KEY_USR_VIEW	0x00010000
#define KEY_USR_SEARCH	0x00080000

struct payload {
	char p[TICKETS_PAYLOAD_MAX + 1];
	size_t len;
};

/* What /proc/keys says of a key: ids and ages in seconds; 0: none. */
struct tickets_info {
	unsigned int cur, prev;
	unsigned long long cur_age, prev_age;
};

static void payload_wipe(struct payload *pl)
{
	explicit_bzero(pl, sizeof(*pl));
}

/* The payload in @from, a file or "-" for stdin. */
static int payload_read(const char *from, struct payload *pl)
{
	FILE *f = strcmp(from, "-") ? fopen(from, "r") : stdin;
	size_t n;

	if (!f)
		return ktls_err(errno == ENOENT ? KTLS_EXIT_NOTFOUND :
				ktls_errno_code(errno), "%s: %s", from,
				strerror(errno));
	n = fread(pl->p, 1, sizeof(pl->p), f);
	if (f != stdin)
		fclose(f);
	if (n > TICKETS_PAYLOAD_MAX)
		return ktls_err(KTLS_EXIT_INVALID, "%s: over %d bytes", from,
				TICKETS_PAYLOAD_MAX);
	if (!n)
		return ktls_err(KTLS_EXIT_INVALID, "%s: empty", from);
	pl->len = n;
	return 0;
}

/* A random current key under a random id other than @not_id. */
static int payload_random(struct payload *pl, unsigned int not_id)
{
	unsigned char secret[32];
	unsigned int id = 0, i;
	int n;

	do {
		if (getrandom(&id, sizeof(id), 0) != sizeof(id))
			return ktls_err(KTLS_EXIT_FAIL, "getrandom: %s",
					strerror(errno));
	} while (!id || id == not_id);
	if (getrandom(secret, sizeof(secret), 0) != sizeof(secret))
		return ktls_err(KTLS_EXIT_FAIL, "getrandom: %s", strerror(errno));
	n = snprintf(pl->p, sizeof(pl->p), "current %u ", id);
	for (i = 0; i < sizeof(secret); i++)
		n += snprintf(pl->p + n, sizeof(pl->p) - n, "%02x", secret[i]);
	n += snprintf(pl->p + n, sizeof(pl->p) - n, "\n");
	pl->len = n;
	explicit_bzero(secret, sizeof(secret));
	return 0;
}

/* The ids and ages of key @serial, from its /proc/keys line. */
static int tickets_info(__s32 serial, struct tickets_info *ti)
{
	char line[1024], prefix[16], *p, *q;
	FILE *f = fopen("/proc/keys", "r");
	int err = -ENOKEY;

	memset(ti, 0, sizeof(*ti));
	if (!f)
		return -errno;
	snprintf(prefix, sizeof(prefix), "%08x ", serial);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		/* The name comes before, and may hold anything. */
		for (p = NULL, q = line; (q = strstr(q, ": current ")); q++)
			p = q;
		if (p && sscanf(p, ": current %u age %llu previous %u age %llu",
				&ti->cur, &ti->cur_age, &ti->prev,
				&ti->prev_age) >= 2)
			err = 0;
		else
			err = -EKEYREVOKED;
		break;
	}
	fclose(f);
	return err;
}

static void print_age(unsigned long long s)
{
	if (s >= 86400)
		printf("%llud%02lluh", s / 86400, s % 86400 / 3600);
	else if (s >= 3600)
		printf("%lluh%02llum", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		printf("%llum%02llus", s / 60, s % 60);
	else
		printf("%llus", s);
}

/* The kernel's answer to a payload, as a message. */
static int payload_errno(const char *name, int err)
{
	switch (err) {
	case EINVAL:
		ktls_err(KTLS_EXIT_INVALID, "%s: the kernel refused the payload", name);
		ktls_note("its log says why: dmesg | grep 'ticket keys rejected'");
		return KTLS_EXIT_INVALID;
	case EEXIST:
		ktls_err(KTLS_EXIT_EXISTS,
			 "%s: the current id names another secret already", name);
		ktls_note("a new secret takes a new id");
		return KTLS_EXIT_EXISTS;
	case ENODEV:
		return ktls_need_module() ?: ktls_err(KTLS_EXIT_NOMODULE,
			"%s: the kernel has no ktls_tickets key type", name);
	}
	return ktls_err(ktls_errno_code(err), "%s: %s", name, strerror(err));
}

/* "[--from FILE|-]" of add and rotate: the file, or NULL for random. */
static int parse_from(int argc, char **argv, const char **name,
		      const char **from)
{
	int i;

	*name = NULL;
	*from = NULL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc)
			*from = argv[++i];
		else if (!strncmp(argv[i], "--from=", 7))
			*from = argv[i] + 7;
		else if (argv[i][0] != '-' && !*name)
			*name = argv[i];
		else
			return -1;
	}
	return *name ? 0 : -1;
}

static void help_add(FILE *f)
{
	fputs("usage: ktls tickets add NAME [--from FILE|-]\n"
	      "       ktls tickets rotate NAME [--from FILE|-]\n"
	      "\n"
	      "add loads session ticket keys as the ktls_tickets key NAME; rotate\n"
	      "updates them.  The payload (FILE, or - for stdin) names the current\n"
	      "key and, if it likes, the previous one:\n"
	      "\n"
	      "    current ID HEX\n"
	      "    previous ID HEX\n"
	      "\n"
	      "ID 1 to 4294967295, HEX a secret of 32 to 64 bytes (openssl rand -hex 32).\n"
	      "Without \"previous\", rotate makes the current key previous: its tickets\n"
	      "still resume, new ones are sealed with the new key.  Give every machine\n"
	      "of a fleet the same payload.  Without --from, a random key: for a\n"
	      "single machine only, as no other has it.  Prints the key's serial.\n", f);
}

static int tickets_load(int argc, char **argv, bool rotate)
{
	struct tickets_info ti = {};
	const char *name, *from;
	struct payload pl = {};
	__s32 serial, ring;
	int rc;

	if (ktls_is_help(argc, argv)) {
		help_add(stdout);
		return 0;
	}
	if (parse_from(argc, argv, &name, &from)) {
		help_add(stderr);
		return KTLS_EXIT_USAGE;
	}
	if (!ktls_name_ok(name))
		return ktls_err(KTLS_EXIT_USAGE, "'%s': %s", name,
				"1 to 255 letters, digits and ._:@+- (not first: . -)");
	rc = ktls_need_module();
	if (!rc)
		rc = ktls_keyring_setup();
	if (rc)
		return rc;
	serial = ktls_key_find(KTLS_TICKETS_TYPE, name);
	if (serial < 0 && serial != -ENOKEY)
		return ktls_err(ktls_errno_code(-serial), "the ktls keyring: %s",
				strerror(-serial));
	if (serial > 0 && !rotate) {
		ktls_err(KTLS_EXIT_EXISTS, "%s exists (serial %d)", name, serial);
		ktls_note("'ktls tickets rotate' updates it");
		return KTLS_EXIT_EXISTS;
	}
	if (serial < 0 && rotate)
		return ktls_err(KTLS_EXIT_NOTFOUND,
				"no ticket keys %s ('ktls tickets add' loads some)", name);
	if (serial > 0)
		tickets_info(serial, &ti);
	rc = from ? payload_read(from, &pl) : payload_random(&pl, ti.cur);
	if (rc)
		goto out;
	if (serial > 0) {
		if (ktls_keyctl(KEYCTL_UPDATE, serial, (unsigned long)pl.p,
				pl.len, 0) < 0)
			rc = payload_errno(name, errno);
	} else {
		ring = ktls_keyring(true);
		if (ring < 0) {
			rc = ktls_err(ktls_errno_code(-ring), "cannot make the ktls keyring: %s",
				      strerror(-ring));
			goto out;
		}
		serial = ktls_add_key(KTLS_TICKETS_TYPE, name, pl.p, pl.len, ring);
		if (serial < 0) {
			rc = payload_errno(name, errno);
			goto out;
		}
		/* root's services may arm with it without possessing it. */
		ktls_keyctl(KEYCTL_SETPERM, serial, KEY_POS_ALL | KEY_USR_VIEW |
			    KEY_USR_SEARCH, 0, 0);
	}
	if (!rc)
		printf("%d\n", serial);
out:
	payload_wipe(&pl);
	return rc;
}

static int tickets_list(int argc, char **argv)
{
	char name[KTLS_NAME_MAX + 1], type[64];
	struct tickets_info ti;
	__s32 *keys;
	int i, n;

	if (argc > 1) {
		if (!ktls_is_help(argc, argv))
			return ktls_err(KTLS_EXIT_USAGE, "usage: ktls tickets list");
		puts("usage: ktls tickets list\n\n"
		     "One line per set of ticket keys: serial, name, the current key's id\n"
		     "and age, the previous key's if there is one.  Ages count from when\n"
		     "this kernel took each key.  Never a secret.");
		return 0;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	n = ktls_key_list(KTLS_TICKETS_TYPE, &keys);
	if (n < 0)
		return ktls_err(ktls_errno_code(-n), "the ktls keyring: %s",
				strerror(-n));
	for (i = 0; i < n; i++) {
		if (ktls_key_describe(keys[i], type, sizeof(type), name, sizeof(name)))
			continue;
		printf("%d\t%s\t", keys[i], name);
		if (tickets_info(keys[i], &ti)) {
			puts("(revoked)");
			continue;
		}
		printf("current %u (", ti.cur);
		print_age(ti.cur_age);
		if (ti.prev) {
			printf(")\tprevious %u (", ti.prev);
			print_age(ti.prev_age);
		}
		puts(")");
	}
	free(keys);
	return 0;
}

static int tickets_show(int argc, char **argv)
{
	struct tickets_info ti;
	__s32 serial;
	int err;

	if (ktls_is_help(argc, argv) || argc != 2) {
		fputs("usage: ktls tickets show NAME\n\n"
		      "The serial of ticket keys NAME, and the id and age of its current\n"
		      "and previous key.  The secrets are never shown: the kernel does\n"
		      "not give them back.\n", argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : KTLS_EXIT_USAGE;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	serial = ktls_key_find(KTLS_TICKETS_TYPE, argv[1]);
	if (serial < 0)
		return ktls_err(ktls_errno_code(-serial), "no ticket keys %s (%s)",
				argv[1], strerror(-serial));
	err = tickets_info(serial, &ti);
	printf("tickets %s\n  serial: %d\n", argv[1], serial);
	if (err) {
		printf("  keys: none (%s)\n", strerror(-err));
		return 0;
	}
	printf("  current: id %u, age ", ti.cur);
	print_age(ti.cur_age);
	if (ti.prev) {
		printf("\n  previous: id %u, age ", ti.prev);
		print_age(ti.prev_age);
		puts(" (opens tickets, seals none)");
	} else {
		puts("\n  previous: none");
	}
	return 0;
}

static int tickets_del(int argc, char **argv)
{
	__s32 serial;

	if (ktls_is_help(argc, argv) || argc != 2) {
		fputs("usage: ktls tickets del NAME\n\n"
		      "Invalidate ticket keys NAME: listeners armed with them stop\n"
		      "issuing tickets and resuming sessions at once, and their clients\n"
		      "do full handshakes.\n", argc == 2 ? stdout : stderr);
		return argc == 2 ? 0 : KTLS_EXIT_USAGE;
	}
	if (ktls_keyring_setup())
		return KTLS_EXIT_FAIL;
	serial = ktls_key_find(KTLS_TICKETS_TYPE, argv[1]);
	if (serial < 0)
		return ktls_err(ktls_errno_code(-serial), "no ticket keys %s",
				argv[1]);
	if (ktls_keyctl(KEYCTL_INVALIDATE, serial, 0, 0, 0) < 0)
		return ktls_err(ktls_errno_code(errno), "%s: invalidate: %s",
				argv[1], strerror(errno));
	return 0;
}

static void tickets_usage(FILE *f)
{
	fputs("usage: ktls tickets add NAME [--from FILE|-]\n"
	      "       ktls tickets rotate NAME [--from FILE|-]\n"
	      "       ktls tickets list\n"
	      "       ktls tickets show NAME\n"
	      "       ktls tickets del NAME\n"
	      "\n"
	      "Session ticket keys are \"ktls_tickets\" keys in the keyring \"ktls\" of\n"
	      "the caller's user keyring; 'ktls arm|run --ticket-keys NAME' seals\n"
	      "tickets with them.\n", f);
}

int ktls_cmd_tickets(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub || !strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		tickets_usage(sub ? stdout : stderr);
		return sub ? 0 : KTLS_EXIT_USAGE;
	}
	if (!strcmp(sub, "add")) {
		ktls_cmd = "tickets add";
		return tickets_load(argc - 1, argv + 1, false);
	}
	if (!strcmp(sub, "rotate")) {
		ktls_cmd = "tickets rotate";
		return tickets_load(argc - 1, argv + 1, true);
	}
	if (!strcmp(sub, "list")) {
		ktls_cmd = "tickets list";
		return tickets_list(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "show")) {
		ktls_cmd = "tickets show";
		return tickets_show(argc - 1, argv + 1);
	}
	if (!strcmp(sub, "del")) {
		ktls_cmd = "tickets del";
		return tickets_del(argc - 1, argv + 1);
	}
	fprintf(stderr, "ktls tickets: unknown subcommand '%s'\n", sub);
	tickets_usage(stderr);
	return KTLS_EXIT_USAGE;
}
