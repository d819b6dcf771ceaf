// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls: the administration tool of the in-kernel TLS handshake, as wg is
 * WireGuard's.  This file dispatches the subcommands and owns what they
 * share: error messages, exit codes, the module check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ktls.h"

/* "identity add", "arm": the prefix of every message. */
const char *ktls_cmd = "";

static void ktls_vsay(const char *fmt, va_list ap)
{
	fprintf(stderr, "ktls%s%s: ", *ktls_cmd ? " " : "", ktls_cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int ktls_err(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktls_vsay(fmt, ap);
	va_end(ap);
	return code;
}

/* A second line to an error: what to do about it. */
void ktls_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktls_vsay(fmt, ap);
	va_end(ap);
}

/* pidfd_open(2) and pidfd_getfd(2), which older libcs do not wrap. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

int ktls_pidfd_open(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

int ktls_pidfd_getfd(int pidfd, int fd)
{
	return syscall(SYS_pidfd_getfd, pidfd, fd, 0);
}

/* The exit code for an errno the kernel gave. */
int ktls_errno_code(int err)
{
	switch (err) {
	case EPERM:
	case EACCES:
		return KTLS_EXIT_PERM;
	case ESRCH:
	case ENOENT:
	case ENOKEY:
		return KTLS_EXIT_NOTFOUND;
	case EEXIST:
		return KTLS_EXIT_EXISTS;
	}
	return KTLS_EXIT_FAIL;
}

bool ktls_module_loaded(void)
{
	return access("/sys/module/ktls_hs", F_OK) == 0;
}

int ktls_need_module(void)
{
	if (ktls_module_loaded())
		return 0;
	return ktls_err(KTLS_EXIT_NOMODULE,
			"the ktls_hs module is not loaded (modprobe ktls_hs)");
}

bool ktls_is_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	}
	return false;
}

#define KTLS_NAME_CHARS	"abcdefghijklmnopqrstuvwxyz" \
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:@+-"

/* A key name the tool makes: printable in any message, no option. */
bool ktls_name_ok(const char *name)
{
	size_t len = strlen(name);

	if (!len || len > KTLS_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	return strspn(name, KTLS_NAME_CHARS) == len;
}

int ktls_parse_uint(const char *s, unsigned long max, unsigned long *val)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*val = strtoul(s, &end, 10);
	if (errno || *end || *val > max)
		return -1;
	return 0;
}

static void print_usage(FILE *f)
{
	fputs("usage: ktls COMMAND [ARGS]\n"
	      "\n"
	      "  identity add|list|show|update|del  server identities in the keyring\n"
	      "  trust add|list|show|del           CAs that client certificates chain to\n"
	      "  tickets add|list|show|rotate|del   session ticket keys shared by a fleet\n"
	      "  arm --pid PID --port PORT --identity NAME[,NAME...]\n"
	      "                                 arm the listeners of a running process\n"
	      "  run --port PORT --identity NAME -- COMMAND [ARGS...]\n"
	      "                                 start COMMAND with its listeners armed\n"
	      "  show [--json]                  identities, armed listeners, sessions\n"
	      "\n"
	      "'ktls COMMAND --help' describes each; man 8 ktls.\n", f);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		print_usage(stderr);
		return KTLS_EXIT_USAGE;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		print_usage(stdout);
		return KTLS_EXIT_OK;
	}
	if (!strcmp(cmd, "identity"))
		return ktls_cmd_identity(argc - 1, argv + 1);
	if (!strcmp(cmd, "trust"))
		return ktls_cmd_trust(argc - 1, argv + 1);
	if (!strcmp(cmd, "tickets"))
		return ktls_cmd_tickets(argc - 1, argv + 1);
	if (!strcmp(cmd, "arm"))
		return ktls_cmd_arm(argc - 1, argv + 1);
	if (!strcmp(cmd, "run"))
		return ktls_cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "show"))
		return ktls_cmd_show(argc - 1, argv + 1);
	fprintf(stderr, "ktls: unknown command '%s'\n", cmd);
	print_usage(stderr);
	return KTLS_EXIT_USAGE;
}
