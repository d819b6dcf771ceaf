// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls show: the identities, the armed listeners with their owners,
 * settings and counters, the kTLS sockets with version, suite, peer and
 * the client certificate a kernel handshake verified,
 * and the host's handshake counters and pool.  Sockets come from
 * sock_diag as `ss -tie` gets them (the ULP name and its TLS info, which
 * the kernel gives to CAP_NET_ADMIN only); the owners from /proc/PID/fd;
 * a listener's settings from getsockopt on a descriptor pidfd_getfd(2)
 * gives us.  The current network namespace only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tls.h>

#include "ktls.h"

struct sock_ent {
	int family;
	unsigned int state;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	unsigned short sport, dport;
	ino_t ino;
	char ulp[16];
	unsigned int version, cipher, txconf, rxconf;
	pid_t pid;		/* first owner found */
	pid_t last_pid;		/* last owner added to @owners */
	int fd;
	char owners[128];	/* "pid,pid..." */
};

struct socks {
	struct sock_ent *e;
	int nr;
};

static bool json;

/* A JSON string, or the text as is. */
static void str(const char *s)
{
	if (!json) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void parse_tls(struct sock_ent *e, struct rtattr *nest)
{
	int len = RTA_PAYLOAD(nest);
	struct rtattr *a = RTA_DATA(nest);

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (RTA_PAYLOAD(a) < sizeof(__u16))
			continue;
		switch (a->rta_type) {
		case TLS_INFO_VERSION:
			e->version = *(__u16 *)RTA_DATA(a);
			break;
		case TLS_INFO_CIPHER:
			e->cipher = *(__u16 *)RTA_DATA(a);
			break;
		case TLS_INFO_TXCONF:
			e->txconf = *(__u16 *)RTA_DATA(a);
			break;
		case TLS_INFO_RXCONF:
			e->rxconf = *(__u16 *)RTA_DATA(a);
			break;
		}
	}
}

static void parse_ulp(struct sock_ent *e, struct rtattr *nest)
{
	int len = RTA_PAYLOAD(nest);
	struct rtattr *a = RTA_DATA(nest);

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == INET_ULP_INFO_NAME)
			snprintf(e->ulp, sizeof(e->ulp), "%.*s",
				 (int)RTA_PAYLOAD(a), (char *)RTA_DATA(a));
		else if (a->rta_type == INET_ULP_INFO_TLS)
			parse_tls(e, a);
	}
}

/* One socket of the dump; kept if it has a ULP. */
static int add_sock(struct socks *socks, struct nlmsghdr *h)
{
	struct inet_diag_msg *m = NLMSG_DATA(h);
	int len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
	struct rtattr *a = (struct rtattr *)(m + 1);
	struct sock_ent e = {}, *n;

	if (len < 0)
		return 0;
	for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
		if (a->rta_type == INET_DIAG_ULP_INFO)
			parse_ulp(&e, a);
	if (!e.ulp[0])
		return 0;
	e.family = m->idiag_family;
	e.state = m->idiag_state;
	e.ino = m->idiag_inode;
	e.sport = ntohs(m->id.idiag_sport);
	e.dport = ntohs(m->id.idiag_dport);
	inet_ntop(e.family, m->id.idiag_src, e.src, sizeof(e.src));
	inet_ntop(e.family, m->id.idiag_dst, e.dst, sizeof(e.dst));
	n = realloc(socks->e, (socks->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	socks->e = n;
	socks->e[socks->nr++] = e;
	return 0;
}

static int dump(int family, struct socks *socks)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.r = {
			.sdiag_family = family,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = ~0U,
			.idiag_ext = 1 << (INET_DIAG_INFO - 1),
		},
	};
	/* long: the alignment netlink headers want */
	static long lbuf[32768 / sizeof(long)];
	char *buf = (char *)lbuf;
	struct nlmsghdr *h;
	int fd, err = 0;
	ssize_t n;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		n = recv(fd, buf, sizeof(lbuf), 0);
		if (n < 0) {
			err = -errno;
			goto out;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = -EPROTO;
				goto out;
			}
			err = add_sock(socks, h);
			if (err)
				goto out;
		}
	}
out:
	close(fd);
	return err;
}

/* Owners of the sockets, by inode, from every process's descriptors. */
static void find_owners(struct socks *socks)
{
	char path[300], link[64], num[16];
	struct dirent *p, *f;
	unsigned long ino;
	DIR *pd, *fd;
	ssize_t n;
	int i;

	pd = opendir("/proc");
	if (!pd)
		return;
	while ((p = readdir(pd))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/fd", p->d_name);
		fd = opendir(path);
		if (!fd)
			continue;
		while ((f = readdir(fd))) {
			snprintf(path, sizeof(path), "/proc/%.16s/fd/%.16s", p->d_name,
				 f->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = '\0';
			if (sscanf(link, "socket:[%lu]", &ino) != 1)
				continue;
			for (i = 0; i < socks->nr; i++) {
				struct sock_ent *e = &socks->e[i];
				size_t l = strlen(e->owners);

				if (e->ino != ino)
					continue;
				snprintf(num, sizeof(num), "%.15s", p->d_name);
				if (!e->pid) {
					e->pid = atoi(num);
					e->fd = atoi(f->d_name);
				}
				/* once per process: its last one is this one */
				if (e->last_pid != atoi(num) &&
				    l + strlen(num) + 2 < sizeof(e->owners))
					snprintf(e->owners + l, sizeof(e->owners) - l,
						 "%s%s", l ? "," : "", num);
				e->last_pid = atoi(num);
			}
		}
		closedir(fd);
	}
	closedir(pd);
}

static const char *cipher_name(unsigned int c)
{
	switch (c) {
	case TLS_CIPHER_AES_GCM_128:
		return "AES-128-GCM";
	case TLS_CIPHER_AES_GCM_256:
		return "AES-256-GCM";
	case TLS_CIPHER_AES_CCM_128:
		return "AES-128-CCM";
	case TLS_CIPHER_CHACHA20_POLY1305:
		return "CHACHA20-POLY1305";
	}
	return "other";
}

static const char *conf_name(unsigned int c)
{
	static const char *const names[] = { "none", "base", "sw", "hw", "hw-record" };

	return c < ARRAY_SIZE(names) ? names[c] : "?";
}

/* One number of a listener: a JSON member, or " text N unit". */
static void field(const char *key, const char *text, unsigned long long v,
		  const char *unit)
{
	if (json)
		printf(", \"%s\": %llu", key, v);
	else
		printf(" %s %llu%s", text, v, unit);
}

/* The settings and counters of an armed listener, from its descriptor. */
static void listener_details(int fd)
{
	static const char *const modes[] = { "none", "optional", "required" };
	struct ktls_hs_client_auth auth;
	struct ktls_hs_listen_stats st;
	struct ktls_hs_tickets t;
	__s32 ids[KTLS_HS_IDENTITIES_MAX];
	char name[KTLS_NAME_MAX + 2], alpn[KTLS_HS_ALPN_MAX + 1];
	__u8 wire[KTLS_HS_ALPN_MAX];
	__u32 versions = 0, timeout = 0, groups = 0;
	char gnames[128] = "";
	const struct ktls_group_name *g;
	socklen_t len = sizeof(ids);
	int i, n, off, fb = 0;

	printf(json ? ", \"identities\": [" : "\n    identities:");
	n = getsockopt(fd, SOL_TLS, KTLS_HS_IDENTITY, ids, &len) ? 0 :
	    len / sizeof(ids[0]);
	for (i = 0; i < n; i++) {
		printf(json ? "%s" : "%s", i && json ? ", " : " ");
		str(ktls_identity_name(ids[i], name, sizeof(name)));
	}
	len = sizeof(wire);
	alpn[0] = '\0';
	if (!getsockopt(fd, SOL_TLS, KTLS_HS_ALPN, wire, &len))
		for (off = 0; off < (int)len && off + 1 + wire[off] <= (int)len;
		     off += 1 + wire[off])
			snprintf(alpn + strlen(alpn), sizeof(alpn) - strlen(alpn),
				 "%s%.*s", off ? "," : "", wire[off],
				 (char *)wire + off + 1);
	len = sizeof(versions);
	getsockopt(fd, SOL_TLS, KTLS_HS_VERSIONS, &versions, &len);
	len = sizeof(groups);
	getsockopt(fd, SOL_TLS, KTLS_HS_GROUPS, &groups, &len);
	for (g = ktls_group_names; g->name; g++)
		if (groups & g->bit)
			snprintf(gnames + strlen(gnames),
				 sizeof(gnames) - strlen(gnames), "%s%s",
				 gnames[0] ? "," : "", g->name);
	len = sizeof(timeout);
	getsockopt(fd, SOL_TLS, KTLS_HS_TIMEOUT, &timeout, &len);
	len = sizeof(fb);
	getsockopt(fd, SOL_TLS, KTLS_HS_FALLBACK, &fb, &len);
	memset(&t, 0, sizeof(t));
	len = sizeof(t);
	getsockopt(fd, SOL_TLS, KTLS_HS_TICKETS, &t, &len);
	memset(&st, 0, sizeof(st));
	len = sizeof(st);
	getsockopt(fd, SOL_TLS, KTLS_HS_STATS, &st, &len);
	memset(&auth, 0, sizeof(auth));
	len = sizeof(auth);
	getsockopt(fd, SOL_TLS, KTLS_HS_CLIENT_AUTH, &auth, &len);
	printf(json ? "], \"alpn\": " : "\n    alpn: ");
	str(alpn[0] ? alpn : json ? "" : "(none)");
	printf(json ? ", \"versions\": \"%s%s%s\"" : "\n    versions: %s%s%s,",
	       versions & KTLS_HS_VERSION_TLS12 ? "1.2" : "",
	       versions == (KTLS_HS_VERSION_TLS12 | KTLS_HS_VERSION_TLS13) ? "," : "",
	       versions & KTLS_HS_VERSION_TLS13 ? "1.3" : "");
	field("handshake_timeout_ms", "timeout", timeout, " ms,");
	field("fallback", "fallback", fb, ",");
	field("tickets_s", "tickets", t.lifetime_s, " s");
	printf(json ? ", \"groups\": " : "\n    groups: ");
	str(gnames);
	printf(json ? ", \"client_auth\": " : "\n    client certificates: ");
	str(auth.mode < ARRAY_SIZE(modes) ? modes[auth.mode] : "?");
	if (auth.mode) {
		printf(json ? ", \"client_ca\": " : ", trust store ");
		str(ktls_key_name(KTLS_TRUST_TYPE, auth.trust, name, sizeof(name)));
	}
	printf(json ? "" : "\n    handshakes:");
	field("completed", "completed", st.completed, ",");
	field("resumed", "resumed", st.resumed, ",");
	field("failed", "failed", st.failed, ",");
	field("timed_out", "timed out", st.timed_out, ",");
	field("dropped", "dropped", st.dropped, ",");
	field("in_progress", "in progress", st.in_progress, "");
}

static void show_listener(const struct sock_ent *e, bool first)
{
	int pidfd, fd = -1;
	char addr[80];

	snprintf(addr, sizeof(addr), e->family == AF_INET6 ? "[%s]:%u" : "%s:%u",
		 e->src, e->sport);
	printf(json ? "%s{\"address\": " : "  ", first ? "" : ", ");
	str(addr);
	printf(json ? ", \"owners\": [%s]" : "  pid %s", e->owners[0] ? e->owners :
	       json ? "" : "?");
	if (e->pid) {
		pidfd = ktls_pidfd_open(e->pid);
		if (pidfd >= 0) {
			fd = ktls_pidfd_getfd(pidfd, e->fd);
			close(pidfd);
		}
	}
	if (fd >= 0) {
		listener_details(fd);
		close(fd);
	} else if (!json) {
		printf("\n    (settings need ptrace rights over pid %d)", e->pid);
	}
	printf(json ? "}" : "\n");
}

/*
 * The client certificate the kernel's handshake verified on socket @e,
 * through a descriptor of its owner's: 0 and @p, or -errno (ENOENT: none,
 * EPERM: no ptrace rights over the owner).
 */
static int session_peer(const struct sock_ent *e, struct ktls_hs_peer_info *p)
{
	socklen_t len = sizeof(*p);
	int pidfd, fd, err = 0;

	if (!e->pid)
		return -ESRCH;
	pidfd = ktls_pidfd_open(e->pid);
	if (pidfd < 0)
		return -errno;
	fd = ktls_pidfd_getfd(pidfd, e->fd);
	if (fd < 0)
		err = -errno;
	close(pidfd);
	if (fd < 0)
		return err;
	if (getsockopt(fd, SOL_TLS, KTLS_HS_PEER, p, &len))
		err = -errno;
	close(fd);
	return err;
}

static void show_session(const struct sock_ent *e, bool first)
{
	char local[80], peer[80];
	const char *fmt = e->family == AF_INET6 ? "[%s]:%u" : "%s:%u";
	struct ktls_hs_peer_info p;
	bool client;
	char *nl;

	client = !session_peer(e, &p);
	if (client) {
		/* The names one a line: one line of them, comma-separated. */
		while ((nl = strchr(p.sans, '\n')))
			*nl = nl[1] ? ',' : '\0';
	}

	snprintf(local, sizeof(local), fmt, e->src, e->sport);
	snprintf(peer, sizeof(peer), fmt, e->dst, e->dport);
	if (json) {
		printf("%s{\"local\": ", first ? "" : ", ");
		str(local);
		printf(", \"peer\": ");
		str(peer);
		printf(", \"owners\": [%s], \"version\": \"%s\"", e->owners,
		       e->version == 0x0304 ? "1.3" : e->version == 0x0303 ? "1.2" : "");
		printf(", \"cipher\": \"%s\", \"tx\": \"%s\", \"rx\": \"%s\"",
		       cipher_name(e->cipher), conf_name(e->txconf),
		       conf_name(e->rxconf));
		if (client) {
			printf(", \"client\": {\"subject\": ");
			str(p.subject);
			printf(", \"issuer\": ");
			str(p.issuer);
			printf(", \"names\": ");
			str(p.sans);
			printf(", \"resumed\": %s}",
			       p.flags & KTLS_HS_PEER_F_RESUMED ? "true" : "false");
		}
		printf("}");
		return;
	}
	printf("  %s -> %s  pid %s  TLS %s %s  tx %s rx %s\n", local, peer,
	       e->owners[0] ? e->owners : "?",
	       e->version == 0x0304 ? "1.3" : e->version == 0x0303 ? "1.2" : "-",
	       e->version ? cipher_name(e->cipher) : "(no keys)",
	       conf_name(e->txconf), conf_name(e->rxconf));
	/* Resumed: as verified when the session's ticket was issued. */
	if (client)
		printf("    client: %s (issuer %s)%s%s%s\n", p.subject, p.issuer,
		       p.sans[0] ? " " : "", p.sans,
		       p.flags & KTLS_HS_PEER_F_RESUMED ? " (resumed)" : "");
}

/* "Name value" lines of a /proc/net file, as an object or as they are. */
static void show_counters(const char *path, const char *key)
{
	char name[64];
	unsigned long v;
	bool first = true;
	FILE *f = fopen(path, "r");

	printf(json ? ", \"%s\": {" : "%s:\n", key);
	while (f && fscanf(f, "%63s %lu", name, &v) == 2) {
		if (json)
			printf("%s\"%s\": %lu", first ? "" : ", ", name, v);
		else
			printf("  %-36s %lu\n", name, v);
		first = false;
	}
	if (!f && !json)
		printf("  (%s: %s)\n", path, strerror(errno));
	if (f)
		fclose(f);
	printf(json ? "}" : "");
}

static void show_identities(void)
{
	char type[64], name[KTLS_NAME_MAX + 1];
	struct ktls_cert_info info;
	unsigned char *der;
	__s32 *keys = NULL;
	bool first = true;
	int i, n;
	size_t len;

	n = ktls_keyring_setup() ? 0 : ktls_identity_list(&keys);
	printf(json ? "\"identities\": [" : "identities:\n");
	for (i = 0; i < n; i++) {
		if (ktls_key_describe(keys[i], type, sizeof(type), name, sizeof(name)))
			continue;
		memset(&info, 0, sizeof(info));
		if (!ktls_key_read(keys[i], &der, &len)) {
			ktls_x509_parse(der, len, &info);
			free(der);
		}
		if (!json) {
			printf("  %s  serial %d  %s  [%s]  not after %s\n", name,
			       keys[i], info.subject, info.dns, info.not_after);
			continue;
		}
		printf("%s{\"name\": ", first ? "" : ", ");
		first = false;
		str(name);
		printf(", \"serial\": %d, \"subject\": ", keys[i]);
		str(info.subject);
		printf(", \"names\": ");
		str(info.dns);
		printf(", \"not_after\": ");
		str(info.not_after);
		printf("}");
	}
	if (n <= 0 && !json)
		printf("  (none)\n");
	printf(json ? "]" : "");
	free(keys);
}

int ktls_cmd_show(int argc, char **argv)
{
	struct socks socks = {};
	bool first;
	int i, err;

	ktls_cmd = "show";
	if (ktls_is_help(argc, argv) || argc > 2 ||
	    (argc == 2 && strcmp(argv[1], "--json"))) {
		fputs("usage: ktls show [--json]\n\n"
		      "Identities; armed listeners (address, owner pids, identities,\n"
		      "ALPN, versions, tickets, handshake counters and those in progress);\n"
		      "kTLS sockets (local, peer, owner, version, cipher); the counters of\n"
		      "/proc/net/ktls_hs_stat and the handshake memory pool.  Sockets of\n"
		      "the current network namespace; needs CAP_NET_ADMIN for the ULP\n"
		      "of sockets and ptrace rights for a listener's settings.\n",
		      ktls_is_help(argc, argv) ? stdout : stderr);
		return ktls_is_help(argc, argv) ? 0 : KTLS_EXIT_USAGE;
	}
	json = argc == 2;
	if (!ktls_module_loaded() && !json)
		printf("module: ktls_hs is not loaded\n");
	if (json)
		printf("{\"module\": %s, ", ktls_module_loaded() ? "true" : "false");
	show_identities();
	err = dump(AF_INET, &socks);
	if (!err)
		err = dump(AF_INET6, &socks);
	if (err)
		ktls_err(KTLS_EXIT_FAIL, "sock_diag: %s", strerror(-err));
	find_owners(&socks);
	printf(json ? ", \"listeners\": [" : "armed listeners:\n");
	for (first = true, i = 0; i < socks.nr; i++) {
		if (strcmp(socks.e[i].ulp, KTLS_ULP_ARMED))
			continue;
		show_listener(&socks.e[i], first);
		first = false;
	}
	if (first && !json)
		printf("  (none%s)\n", getuid() ? "; CAP_NET_ADMIN shows them" : "");
	printf(json ? "], \"sessions\": [" : "tls sockets:\n");
	for (first = true, i = 0; i < socks.nr; i++) {
		if (strcmp(socks.e[i].ulp, "tls"))
			continue;
		show_session(&socks.e[i], first);
		first = false;
	}
	if (first && !json)
		printf("  (none)\n");
	printf(json ? "]" : "");
	show_counters("/proc/net/ktls_hs_stat", "counters");
	show_counters("/proc/net/tls_hs_pool", "pool");
	printf(json ? "}\n" : "");
	free(socks.e);
	return err ? KTLS_EXIT_FAIL : 0;
}
