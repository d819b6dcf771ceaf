// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls run: start a server with its listeners armed as it makes them.
 * COMMAND runs with ktls_preload.so preloaded; its listen() hands each
 * listener on a chosen port to this process, which stays beside COMMAND
 * to arm them (with its own credentials, so the server needs no right
 * on the keys), passes on the signals a service manager sends, and exits
 * as COMMAND does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktls.h"

#ifndef KTLS_LIBDIR
#define KTLS_LIBDIR "/usr/local/lib/ktls"
#endif

/* Passed on to COMMAND; SIGINT and SIGQUIT from a terminal reach it anyway. */
static const int forwarded[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };

static void help(FILE *f)
{
	fputs("usage: ktls run --port PORT[,PORT...] --identity NAME[,NAME...]\n"
	      "                [--alpn PROTO[,PROTO...]] [--tickets SECONDS]\n"
	      "                [--ticket-keys NAME] [--versions 1.2,1.3]\n"
	      "                [--groups GROUP[,GROUP...]]\n"
	      "                [--handshake-timeout MS]\n"
	      "                [--client-ca NAME [--client-auth optional|required]]\n"
	      "                -- COMMAND [ARGS...]\n"
	      "\n"
	      "Run COMMAND with every TCP listener it opens on PORT armed as it calls\n"
	      "listen(), through an LD_PRELOAD shim (ktls_preload.so).  A listener\n"
	      "that cannot be armed stops listening and listen() fails.  Not for\n"
	      "static binaries, Go programs or anything that does not call libc's\n"
	      "listen(): use 'ktls arm --pid' for those.  Exits as COMMAND does;\n"
	      "SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 are passed on to it.\n"
	      "--ticket-keys seals tickets with the ticket keys NAME ('ktls tickets')\n"
	      "instead of the kernel's own: every machine with them resumes them.\n"
	      "--client-ca asks clients for a certificate and verifies it against the\n"
	      "trust store NAME ('ktls trust'): required, or optional with\n"
	      "--client-auth optional.\n", f);
}

/* ktls_preload.so beside the binary (the build tree), else installed. */
static int preload_path(char *path, size_t len)
{
	char exe[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, len, "%s/ktls_preload.so", exe);
			if (!access(path, R_OK))
				return 0;
		}
	}
	snprintf(path, len, "%s/ktls_preload.so", KTLS_LIBDIR);
	if (!access(path, R_OK))
		return 0;
	return ktls_err(KTLS_EXIT_FAIL, "cannot find ktls_preload.so (beside ktls, or in %s)",
			KTLS_LIBDIR);
}

/* One listener the shim passed: arm it, answer with 0 or an errno. */
static void serve_request(int ctl, struct ktls_settings *s,
			  const unsigned short *ports, int nr_ports)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))], data[8], where[96];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct sockaddr_in6 a;
	socklen_t len = sizeof(a);
	int fds[2] = { -1, -1 }, err = 0, i;
	struct cmsghdr *cm;
	char ulp[32];

	if (recvmsg(ctl, &msg, MSG_CMSG_CLOEXEC) < 0)
		return;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(sizeof(fds))) {
		/* not the shim's; close whatever came */
		if (cm && cm->cmsg_type == SCM_RIGHTS)
			for (i = 0; i < (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int)); i++)
				close(((int *)CMSG_DATA(cm))[i]);
		return;
	}
	memcpy(fds, CMSG_DATA(cm), sizeof(fds));
	if (getsockname(fds[0], (struct sockaddr *)&a, &len)) {
		err = errno;
		goto reply;
	}
	s->port = ntohs(a.sin6_port);
	for (i = 0; i < nr_ports && ports[i] != s->port; i++)
		;
	err = i == nr_ports ? EINVAL : -ktls_listener_state(fds[0], ulp, sizeof(ulp));
	if (err || !strcmp(ulp, KTLS_ULP_ARMED))
		goto reply;
	snprintf(where, sizeof(where), "port %u", s->port);
	err = -ktls_settings_apply(fds[0], s, true);
	if (err)
		ktls_settings_err(-err, where);
	else
		fprintf(stderr, "ktls run: armed %s\n", where);
reply:
	send(fds[1], &err, sizeof(err), MSG_NOSIGNAL);
	close(fds[0]);
	close(fds[1]);
}

static int parse(int argc, char **argv, struct ktls_settings *s,
		 unsigned short *ports, int *nr_ports)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'P' },
		{ "identity", required_argument, NULL, 'i' },
		{ "alpn", required_argument, NULL, 'a' },
		{ "tickets", required_argument, NULL, 't' },
		{ "ticket-keys", required_argument, NULL, 'K' },
		{ "versions", required_argument, NULL, 'V' },
		{ "groups", required_argument, NULL, 'G' },
		{ "handshake-timeout", required_argument, NULL, 'T' },
		{ "client-ca", required_argument, NULL, 'C' },
		{ "client-auth", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int o, rc;

	/* "+": COMMAND's own options are COMMAND's */
	while ((o = getopt_long(argc, argv, "+P:i:h", opts, NULL)) != -1) {
		switch (o) {
		case 'P':
			*nr_ports = ktls_ports_parse(optarg, ports, KTLS_PORTS_MAX);
			if (*nr_ports < 0)
				return ktls_err(KTLS_EXIT_USAGE, "--port: %s",
						"up to 16 ports, 1 to 65535");
			break;
		case 'h':
			help(stdout);
			return -1;
		case '?':
			help(stderr);
			return KTLS_EXIT_USAGE;
		default:
			rc = ktls_settings_parse(s, o, optarg);
			if (rc)
				return rc;
		}
	}
	if (optind >= argc || !*nr_ports || !s->nr_ids) {
		help(stderr);
		return KTLS_EXIT_USAGE;
	}
	return 0;
}

/* COMMAND, with the shim preloaded and the control socket inherited. */
static void child(char **cmd, int ctl, const char *preload, const char *ports,
		  const sigset_t *mask)
{
	const char *old = getenv("LD_PRELOAD");
	char *env, num[16];

	snprintf(num, sizeof(num), "%d", ctl);
	if (asprintf(&env, "%s%s%s", preload, old && *old ? ":" : "",
		     old ? old : "") < 0)
		_exit(KTLS_EXIT_FAIL);
	setenv("LD_PRELOAD", env, 1);
	setenv("KTLS_RUN_FD", num, 1);
	setenv("KTLS_RUN_PORTS", ports, 1);
	sigprocmask(SIG_SETMASK, mask, NULL);
	execvp(cmd[0], cmd);
	fprintf(stderr, "ktls run: %s: %s\n", cmd[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* Serve the shim until COMMAND exits; its exit status. */
static int supervise(pid_t pid, int ctl, int sfd, struct ktls_settings *s,
		     const unsigned short *ports, int nr_ports)
{
	struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN },
				 { .fd = ctl, .events = POLLIN } };
	struct signalfd_siginfo si;
	int status = 0, i;

	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			return KTLS_EXIT_FAIL;
		if (pfd[1].revents & POLLIN)
			serve_request(ctl, s, ports, nr_ports);
		else if (pfd[1].revents)
			pfd[1].fd = -1;	/* every holder of the shim's end is gone */
		if (!(pfd[0].revents & POLLIN) ||
		    read(sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		for (i = 0; i < (int)ARRAY_SIZE(forwarded); i++)
			if ((int)si.ssi_signo == forwarded[i])
				kill(pid, si.ssi_signo);
		if (si.ssi_signo == SIGCHLD &&
		    waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int ktls_cmd_run(int argc, char **argv)
{
	unsigned short ports[KTLS_PORTS_MAX];
	char preload[PATH_MAX], portlist[KTLS_PORTS_MAX * 6 + 1] = "";
	struct ktls_settings s = {};
	int nr_ports = 0, sv[2], sfd, rc, err, i;
	sigset_t mask, old;
	pid_t pid;

	ktls_cmd = "run";
	rc = parse(argc, argv, &s, ports, &nr_ports);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = ktls_need_module();
	if (!rc)
		rc = preload_path(preload, sizeof(preload));
	if (!rc)
		rc = ktls_keyring_setup();
	if (!rc)
		rc = ktls_settings_resolve(&s);
	if (rc)
		return rc;
	s.port = ports[0];
	err = ktls_settings_probe(&s);
	if (err)
		return ktls_settings_err(err, "dry run");
	for (i = 0; i < nr_ports; i++)
		snprintf(portlist + strlen(portlist), sizeof(portlist) - strlen(portlist),
			 "%s%u", i ? "," : "", ports[i]);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return ktls_err(KTLS_EXIT_FAIL, "socketpair: %s", strerror(errno));
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	for (i = 0; i < (int)ARRAY_SIZE(forwarded); i++)
		sigaddset(&mask, forwarded[i]);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0)
		return ktls_err(KTLS_EXIT_FAIL, "signalfd: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return ktls_err(KTLS_EXIT_FAIL, "fork: %s", strerror(errno));
	if (!pid) {
		close(sv[0]);
		child(argv + optind, sv[1], preload, portlist, &old);
	}
	close(sv[1]);
	/* A terminal's SIGINT reaches COMMAND itself; we wait for it to exit. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	return supervise(pid, sv[0], sfd, &s, ports, nr_ports);
}
