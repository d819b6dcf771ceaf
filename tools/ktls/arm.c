// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls arm: arm the listeners of a running process.  pidfd_getfd(2)
 * gives us a file descriptor of the server's own listening socket (the
 * same open file description, so the same socket); the setsockopt calls
 * on it arm the server's listener, and every later accept() of the
 * server returns a TLS socket.  Nothing in the server runs: this works
 * for a static Go binary as for nginx.
 *
 * Every check comes before the first change: the identities, a dry run
 * of the settings on a listener of our own, the process, our right to
 * take its sockets, that each is a TCP listener and not armed yet.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ktls.h"

struct target {
	struct ktls_listener l;
	int fd;			/* ours */
	bool armed;
};

struct arm_args {
	struct ktls_settings s;
	pid_t pids[64];
	int nr_pids;
	int fd;			/* --fd, or -1 */
	bool tree, replace;
	unsigned long wait_s;
};

static void help(FILE *f)
{
	fputs("usage: ktls arm --pid PID[,PID...] [--tree] --port PORT | --fd FD\n"
	      "                --identity NAME[,NAME...] [--alpn PROTO[,PROTO...]]\n"
	      "                [--tickets SECONDS] [--ticket-keys NAME]\n"
	      "                [--versions 1.2,1.3] [--groups GROUP[,GROUP...]]\n"
	      "                [--handshake-timeout MS] [--replace] [--wait SECONDS]\n"
	      "                [--client-ca NAME [--client-auth optional|required]]\n"
	      "\n"
	      "Arm the TCP listeners process PID holds on PORT (or its descriptor FD):\n"
	      "from then on its accept() returns sockets whose TLS handshake the\n"
	      "kernel ran.  --tree includes PID's descendants (workers that made\n"
	      "SO_REUSEPORT listeners of their own).  A listener held by several\n"
	      "processes is armed once.  Hand-over to userspace is off and ALPN is\n"
	      "off unless --alpn names protocols.  An armed listener is refused\n"
	      "unless --replace, which sets every option again and adds identities.\n"
	      "--groups takes x25519mlkem768, secp256r1mlkem768, x25519 and p256\n"
	      "(default: all, a hybrid share preferred) and hybrid-retry, which asks\n"
	      "clients that list a hybrid but sent no hybrid share for one.\n"
	      "--wait retries for SECONDS until PID listens (ExecStartPost=).\n"
	      "--ticket-keys seals tickets with the ticket keys NAME ('ktls tickets')\n"
	      "instead of the kernel's own: every machine with them resumes them.\n"
	      "--client-ca asks clients for a certificate and verifies it against the\n"
	      "trust store NAME ('ktls trust'): required, or optional with\n"
	      "--client-auth optional.\n"
	      "Needs ptrace rights over PID (pidfd_getfd): root, or CAP_SYS_PTRACE.\n", f);
}

/* The ULP of listener @fd into @ulp ("" when none): 0, or -errno. */
int ktls_listener_state(int fd, char *ulp, size_t len)
{
	socklen_t n = len - 1;

	memset(ulp, 0, len);
	if (getsockopt(fd, IPPROTO_TCP, TCP_ULP, ulp, &n))
		return -errno;
	return 0;
}

static int parse(struct arm_args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "tree", no_argument, NULL, 'r' },
		{ "port", required_argument, NULL, 'P' },
		{ "fd", required_argument, NULL, 'f' },
		{ "identity", required_argument, NULL, 'i' },
		{ "alpn", required_argument, NULL, 'a' },
		{ "tickets", required_argument, NULL, 't' },
		{ "ticket-keys", required_argument, NULL, 'K' },
		{ "versions", required_argument, NULL, 'V' },
		{ "groups", required_argument, NULL, 'G' },
		{ "handshake-timeout", required_argument, NULL, 'T' },
		{ "client-ca", required_argument, NULL, 'C' },
		{ "client-auth", required_argument, NULL, 'A' },
		{ "replace", no_argument, NULL, 'R' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char *list, *p, *save = NULL;
	bool by_port, by_fd;
	unsigned long v;
	int o, rc;

	a->fd = -1;
	while ((o = getopt_long(argc, argv, "p:P:i:h", opts, NULL)) != -1) {
		switch (o) {
		case 'p':
			list = strdup(optarg);
			for (p = strtok_r(list, ",", &save); p;
			     p = strtok_r(NULL, ",", &save)) {
				if (ktls_parse_uint(p, 1 << 22, &v) || !v ||
				    a->nr_pids == ARRAY_SIZE(a->pids)) {
					free(list);
					return ktls_err(KTLS_EXIT_USAGE, "--pid: '%s'", optarg);
				}
				a->pids[a->nr_pids++] = v;
			}
			free(list);
			break;
		case 'r':
			a->tree = true;
			break;
		case 'P':
			if (ktls_parse_uint(optarg, 65535, &v) || !v)
				return ktls_err(KTLS_EXIT_USAGE, "--port: 1 to 65535");
			a->s.port = v;
			break;
		case 'f':
			if (ktls_parse_uint(optarg, 1 << 30, &v))
				return ktls_err(KTLS_EXIT_USAGE, "--fd: a descriptor number");
			a->fd = v;
			break;
		case 'R':
			a->replace = true;
			break;
		case 'w':
			if (ktls_parse_uint(optarg, 3600, &a->wait_s))
				return ktls_err(KTLS_EXIT_USAGE, "--wait: seconds");
			break;
		case 'h':
			help(stdout);
			return -1;
		case '?':
			help(stderr);
			return KTLS_EXIT_USAGE;
		default:
			rc = ktls_settings_parse(&a->s, o, optarg);
			if (rc)
				return rc;
		}
	}
	by_port = a->s.port;
	by_fd = a->fd >= 0;
	if (optind != argc || !a->nr_pids || by_port == by_fd ||
	    (a->fd >= 0 && (a->nr_pids != 1 || a->tree)) || !a->s.nr_ids) {
		help(stderr);
		return KTLS_EXIT_USAGE;
	}
	return 0;
}

static int take_fd(int pidfd, pid_t pid, int fd)
{
	int ours = ktls_pidfd_getfd(pidfd, fd);

	if (ours >= 0)
		return ours;
	if (errno == EPERM) {
		ktls_err(KTLS_EXIT_PERM, "not permitted to take process %d's sockets", pid);
		ktls_note("pidfd_getfd needs ptrace rights over it: root (CAP_SYS_PTRACE),");
		ktls_note("or its own user where kernel.yama.ptrace_scope allows");
		return -KTLS_EXIT_PERM;
	}
	if (errno == EBADF)
		return -ktls_err(KTLS_EXIT_NOTFOUND, "process %d has no descriptor %d",
				 pid, fd);
	return -ktls_err(ktls_errno_code(errno), "pidfd_getfd(%d, %d): %s", pid,
			 fd, strerror(errno));
}

/* Is our @fd a TCP listener, and still the socket @ino? */
static int check_listener(int fd, pid_t pid, struct ktls_listener *l)
{
	int proto = 0, acc = 0;
	socklen_t len = sizeof(int);
	struct sockaddr_in6 a;
	struct stat st;

	if (fstat(fd, &st) || !S_ISSOCK(st.st_mode) ||
	    getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len))
		proto = 0;
	/*
	 * An MPTCP listener shows in /proc/net/tcp as a TCP one, and Go
	 * (1.24 on) listens with MPTCP by default; its connections are read
	 * through MPTCP, not TCP, so no TCP ULP can sit under them.
	 */
	if (proto == IPPROTO_MPTCP) {
		ktls_err(KTLS_EXIT_INVALID,
			 "descriptor %d of process %d is an MPTCP listener: kTLS needs plain TCP",
			 l->fd, pid);
		ktls_note("a Go server: start it with GODEBUG=multipathtcp=0");
		return KTLS_EXIT_INVALID;
	}
	if (proto != IPPROTO_TCP ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &len) || !acc)
		return ktls_err(KTLS_EXIT_INVALID,
				"descriptor %d of process %d is not a TCP listener",
				l->fd, pid);
	if (l->ino && l->ino != st.st_ino)
		return ktls_err(KTLS_EXIT_NOTFOUND,
				"process %d closed its listener meanwhile", pid);
	l->ino = st.st_ino;
	len = sizeof(a);
	if (!l->port && !getsockname(fd, (struct sockaddr *)&a, &len)) {
		l->port = ntohs(a.sin6_port);
		l->family = a.sin6_family;
		snprintf(l->addr, sizeof(l->addr), "fd %d", l->fd);
	}
	return 0;
}

/* The listeners to arm, each with a descriptor of ours. */
static int collect(struct arm_args *a, struct ktls_listener **ls, int *nr,
		   int *other)
{
	pid_t *tree;
	int i, j, n, err;

	for (i = 0; i < a->nr_pids; i++) {
		if (a->fd >= 0) {
			*ls = calloc(1, sizeof(**ls));
			if (!*ls)
				return -ENOMEM;
			(*ls)->pid = a->pids[0];
			(*ls)->fd = a->fd;
			*nr = 1;
			return 0;
		}
		n = 1;
		tree = &a->pids[i];
		if (a->tree && ktls_pid_children(a->pids[i], &tree, &n))
			return -ENOMEM;
		for (j = 0; j < n; j++) {
			err = ktls_listeners_of(tree[j], a->s.port, ls, nr, other);
			/* a descendant may exit meanwhile */
			if (err && (j == 0 || err != -ENOENT)) {
				if (tree != &a->pids[i])
					free(tree);
				return err;
			}
		}
		if (tree != &a->pids[i])
			free(tree);
	}
	return 0;
}

static int find_targets(struct arm_args *a, int *pidfds, struct target **out,
			int *nr_out)
{
	struct ktls_listener *ls = NULL;
	struct timespec t0, now;
	int nr = 0, other = 0, err, i, p, pidfd, rc = 0;
	struct target *t;
	char ulp[32];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		err = collect(a, &ls, &nr, &other);
		if (err == -EACCES || err == -EPERM)
			return ktls_err(KTLS_EXIT_PERM, "%s of process %d (/proc/PID/fd): %s",
					"not permitted to read the descriptors",
					a->pids[0], "ptrace rights needed");
		if (err == -ENOENT || err == -ESRCH)
			return ktls_err(KTLS_EXIT_NOTFOUND, "no such process");
		if (err)
			return ktls_err(KTLS_EXIT_FAIL, "%s", strerror(-err));
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (nr || now.tv_sec - t0.tv_sec >= (time_t)a->wait_s)
			break;
		usleep(100000);
	}
	if (!nr) {
		if (other)
			return ktls_err(KTLS_EXIT_INVALID,
					"process %d has a %s socket on port %u, no TCP listener",
					a->pids[0], other == 1 ? "TCP" : "UDP",
					a->s.port);
		return ktls_err(KTLS_EXIT_NOTFOUND, "process %d%s has no TCP listener on port %u",
				a->pids[0], a->tree ? " (or its descendants)" : "",
				a->s.port);
	}
	t = calloc(nr, sizeof(*t));
	if (!t) {
		free(ls);
		return ktls_err(KTLS_EXIT_FAIL, "out of memory");
	}
	*out = t;
	for (i = 0; i < nr; i++) {
		t[i].l = ls[i];
		t[i].fd = -1;
		(*nr_out)++;
		for (p = 0; p < a->nr_pids && a->pids[p] != ls[i].pid; p++)
			;
		pidfd = p < a->nr_pids ? pidfds[p] : ktls_pidfd_open(ls[i].pid);
		t[i].fd = take_fd(pidfd, ls[i].pid, ls[i].fd);
		/* a descendant's pidfd is ours alone */
		if (p == a->nr_pids && pidfd >= 0)
			close(pidfd);
		if (t[i].fd < 0) {
			rc = -t[i].fd;
			break;
		}
		rc = check_listener(t[i].fd, ls[i].pid, &t[i].l);
		if (rc)
			break;
		err = ktls_listener_state(t[i].fd, ulp, sizeof(ulp));
		if (err) {
			rc = ktls_err(KTLS_EXIT_FAIL, "TCP_ULP of %s:%u: %s", t[i].l.addr,
				      t[i].l.port, strerror(-err));
			break;
		}
		t[i].armed = !strcmp(ulp, KTLS_ULP_ARMED);
		if (ulp[0] && !t[i].armed) {
			rc = ktls_err(KTLS_EXIT_INVALID, "%s:%u has the ULP %s", t[i].l.addr,
				      t[i].l.port, ulp);
			break;
		}
		if (t[i].armed && !a->replace) {
			rc = ktls_err(KTLS_EXIT_EXISTS, "%s:%u (process %d) is armed already",
				      t[i].l.addr, t[i].l.port, t[i].l.pid);
			ktls_note("--replace sets its options again");
			break;
		}
	}
	free(ls);
	return rc;
}

/* --replace cannot take identities away: the kernel only adds them. */
static int check_replace(const struct target *t, const struct ktls_settings *s)
{
	__s32 cur[KTLS_HS_IDENTITIES_MAX];
	socklen_t len = sizeof(cur);
	char name[KTLS_NAME_MAX + 2];
	unsigned int i, j;

	if (!t->armed)
		return 0;
	if (getsockopt(t->fd, SOL_TLS, KTLS_HS_IDENTITY, cur, &len))
		return ktls_err(KTLS_EXIT_FAIL, "%s:%u: KTLS_HS_IDENTITY: %s",
				t->l.addr, t->l.port, strerror(errno));
	for (i = 0; i < len / sizeof(cur[0]); i++) {
		for (j = 0; j < s->nr_ids && s->serials[j] != cur[i]; j++)
			;
		if (j < s->nr_ids)
			continue;
		ktls_err(KTLS_EXIT_EXISTS, "%s:%u serves identity %s, which --identity leaves out",
			 t->l.addr, t->l.port,
			 ktls_identity_name(cur[i], name, sizeof(name)));
		ktls_note("an armed listener cannot drop an identity: restart the server,");
		ktls_note("or rotate the identity with 'ktls identity update'");
		return KTLS_EXIT_EXISTS;
	}
	return 0;
}

int ktls_cmd_arm(int argc, char **argv)
{
	struct arm_args a = {};
	struct target *t = NULL;
	int pidfds[ARRAY_SIZE(a.pids)];
	int i, nr = 0, rc, err;
	char where[96];

	ktls_cmd = "arm";
	rc = parse(&a, argc, argv);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = ktls_need_module();
	if (!rc)
		rc = ktls_keyring_setup();
	if (!rc)
		rc = ktls_settings_resolve(&a.s);
	if (rc)
		return rc;
	err = ktls_settings_probe(&a.s);
	if (err)
		return ktls_settings_err(err, "dry run");
	for (i = 0; i < a.nr_pids; i++) {
		pidfds[i] = ktls_pidfd_open(a.pids[i]);
		if (pidfds[i] < 0) {
			rc = ktls_err(errno == ESRCH ? KTLS_EXIT_NOTFOUND :
				      ktls_errno_code(errno), "process %d: %s",
				      a.pids[i], errno == ESRCH ?
				      "no such process" : strerror(errno));
			a.nr_pids = i;
			goto out;
		}
	}
	rc = find_targets(&a, pidfds, &t, &nr);
	for (i = 0; !rc && i < nr; i++)
		rc = check_replace(&t[i], &a.s);
	/* Checked: from here on, change. */
	for (i = 0; !rc && i < nr; i++) {
		if (!a.s.port)
			a.s.port = t[i].l.port;
		snprintf(where, sizeof(where), "%s:%u", t[i].l.addr, t[i].l.port);
		err = ktls_settings_apply(t[i].fd, &a.s, !t[i].armed);
		if (err) {
			rc = ktls_settings_err(err, where);
			if (i || t[i].armed)
				ktls_err(rc, "listeners before %s were %s", where,
					 "changed already");
			break;
		}
		printf("%s %s (pid %d fd %d)\n", t[i].armed ? "updated" : "armed",
		       where, t[i].l.pid, t[i].l.fd);
	}
out:
	for (i = 0; i < nr; i++)
		if (t[i].fd >= 0)
			close(t[i].fd);
	free(t);
	for (i = 0; i < a.nr_pids; i++)
		close(pidfds[i]);
	return rc;
}
