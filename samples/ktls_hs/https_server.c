// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small HTTPS file server on an armed listener: the TLS handshake runs
 * in the kernel, accept() returns sockets that speak TLS already, and
 * files go out with sendfile().  No TLS library in sight.
 *
 *   https_server --port 8443 --root /srv/www --key SERIAL|DESCRIPTION
 *		[--groups x25519mlkem768,secp256r1mlkem768,x25519,p256,hybrid-retry]
 *		[--suites aes128,aes256,chacha,ccm]
 *		[--tickets SECONDS [--ticket-keys SERIAL|DESCRIPTION]]
 *		[--client-ca SERIAL|DESCRIPTION [--client-auth optional|required]
 *		 [--ca-names]]
 *		[--alpn] [--verbose]
 *
 * Each --key (up to 8) is a "ktls_identity" key (keyctl padd ktls_identity NAME @u <
 * bundle.pem), named by serial or by description.  Only GET of regular
 * files under --root; one request per connection.  --tickets issues
 * session tickets good for SECONDS, and resumes sessions from them;
 * --ticket-keys seals them with the keys of a "ktls_tickets" key
 * (keyctl padd ktls_tickets NAME @u < payload) instead of the kernel's
 * own, so that every server given the same payload resumes them.
 * --client-ca asks clients for a certificate and verifies it against a
 * "ktls_trust" key (ktls trust add NAME --ca CAS.pem): required unless
 * --client-auth optional; --ca-names names its CAs in the request.  A
 * verified client's subject and names come back in X-Client-Subject and
 * X-Client-SAN response headers, and X-Client-Resumed: yes when they are
 * what a resumed session's ticket carried.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/keyctl.h>

#include "../../include/uapi/linux/ktls_hs.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#define REQ_MAX 4096
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct conn {
	int fd;
	int file;
	off_t off, size;
	size_t req_len, hdr_len, hdr_off;
	char req[REQ_MAX + 1];
	char hdr[1536];
};

static bool verbose;
static int root_fd = -1;
static unsigned int groups, suites, versions, ticket_lifetime;
static int ticket_keys;
static bool ems_optional;
static struct ktls_hs_client_auth client_auth;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* A comma-separated list of names to KTLS_HS_* bits. */
static unsigned int bits_of(const char *list, const char *const names[],
			    const unsigned int values[], int n)
{
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned int bits = 0;
	int i;

	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < n && strcmp(tok, names[i]); i++)
			;
		if (i == n) {
			fprintf(stderr, "unknown name \"%s\"\n", tok);
			exit(2);
		}
		bits |= values[i];
	}
	free(copy);
	return bits;
}

/* A key serial from a number, or the search of our keyrings for it. */
/* A key of @type, by serial or by description. */
static int key_serial(const char *type, const char *arg)
{
	static const int rings[] = { KEY_SPEC_SESSION_KEYRING,
				     KEY_SPEC_USER_KEYRING,
				     KEY_SPEC_USER_SESSION_KEYRING };
	char *end;
	long v;
	size_t i;

	v = strtol(arg, &end, 0);
	if (*arg && !*end && v > 0 && v <= INT_MAX)
		return v;
	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		v = syscall(SYS_keyctl, KEYCTL_SEARCH, rings[i], type, arg, 0);
		if (v > 0)
			return v;
	}
	fprintf(stderr, "no %s key \"%s\" in our keyrings\n", type, arg);
	exit(1);
}

static int armed_listener(int port, const int *keys, int nr_keys, bool alpn)
{
	static const char protos[] = "\x08http/1.1";
	struct sockaddr_in6 sa = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(port),
		.sin6_addr = IN6ADDR_ANY_INIT,
	};
	int fd, one = 1, i;

	fd = socket(AF_INET6, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1024))
		die("bind/listen");
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "ktls_hs", sizeof("ktls_hs")))
		die("TCP_ULP ktls_hs (is ktls_hs.ko loaded?)");
	/* Several identities: the client's server_name picks one. */
	for (i = 0; i < nr_keys; i++)
		if (setsockopt(fd, SOL_TLS, KTLS_HS_IDENTITY, &keys[i],
			       sizeof(keys[i])))
			die("KTLS_HS_IDENTITY");
	if (groups && setsockopt(fd, SOL_TLS, KTLS_HS_GROUPS, &groups,
				 sizeof(groups)))
		die("KTLS_HS_GROUPS");
	if (versions && setsockopt(fd, SOL_TLS, KTLS_HS_VERSIONS, &versions,
				   sizeof(versions)))
		die("setsockopt KTLS_HS_VERSIONS");
	if (ems_optional && setsockopt(fd, SOL_TLS, KTLS_HS_EMS_OPTIONAL,
				       &(int){ 1 }, sizeof(int)))
		die("setsockopt KTLS_HS_EMS_OPTIONAL");
	if (suites && setsockopt(fd, SOL_TLS, KTLS_HS_SUITES, &suites,
				 sizeof(suites)))
		die("KTLS_HS_SUITES");
	if (alpn && setsockopt(fd, SOL_TLS, KTLS_HS_ALPN, protos,
			       sizeof(protos) - 1))
		die("KTLS_HS_ALPN");
	if (ticket_lifetime) {
		struct ktls_hs_tickets t = { .lifetime_s = ticket_lifetime };

		if (ticket_keys) {
			t.key_group = ticket_keys;
			t.flags = KTLS_HS_TICKETS_KEYRING;
		}

		if (setsockopt(fd, SOL_TLS, KTLS_HS_TICKETS, &t, sizeof(t)))
			die("KTLS_HS_TICKETS");
	}
	if (client_auth.mode &&
	    setsockopt(fd, SOL_TLS, KTLS_HS_CLIENT_AUTH, &client_auth,
		       sizeof(client_auth)))
		die("KTLS_HS_CLIENT_AUTH");
	return fd;
}

static void show_session(int fd)
{
	struct ktls_hs_session_info s;
	socklen_t len = sizeof(s);

	if (getsockopt(fd, SOL_TLS, KTLS_HS_SESSION, &s, &len)) {
		perror("KTLS_HS_SESSION");
		return;
	}
	fprintf(stderr, "accepted: TLS %#x suite %#06x group %#06x alpn \"%s\" sni \"%s\"\n",
		s.version, s.cipher_suite, s.group, s.alpn, s.server_name);
}

/*
 * The verified client certificate as response headers, "" for none: the
 * subject, and the first of its names (SPIFFE IDs are URI names).
 */
static void peer_headers(int fd, char *out, size_t size)
{
	struct ktls_hs_peer_info p;
	socklen_t len = sizeof(p);
	char *nl;

	out[0] = '\0';
	if (getsockopt(fd, SOL_TLS, KTLS_HS_PEER, &p, &len))
		return;
	nl = strchr(p.sans, '\n');
	if (nl)
		*nl = '\0';
	snprintf(out, size,
		 "X-Client-Subject: %.255s\r\nX-Client-SAN: %.700s\r\n%s",
		 p.subject, p.sans, p.flags & KTLS_HS_PEER_F_RESUMED ?
		 "X-Client-Resumed: yes\r\n" : "");
	if (verbose)
		fprintf(stderr, "client: %s (issuer %s) %s\n", p.subject,
			p.issuer, p.sans);
}

static void conn_close(int ep, struct conn *c)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	if (c->file >= 0)
		close(c->file);
	free(c);
}

static void respond_error(struct conn *c, int code, const char *text)
{
	if (code == 404 && client_auth.mode) {
		/* Who asked, all the same. */
		char peer[1024];

		peer_headers(c->fd, peer, sizeof(peer));
		c->hdr_len = snprintf(c->hdr, sizeof(c->hdr),
				      "HTTP/1.1 %d %s\r\n%sContent-Length: 0\r\nConnection: close\r\n\r\n",
				      code, text, peer);
		c->size = 0;
		return;
	}
	c->hdr_len = snprintf(c->hdr, sizeof(c->hdr),
			      "HTTP/1.1 %d %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
			      code, text);
	c->size = 0;
}

/* Parse "GET /path HTTP/1.x" and open the file under the root. */
static void handle_request(struct conn *c)
{
	char *path, *sp, peer[1024] = "";
	struct stat st;

	if (strncmp(c->req, "GET /", 5))
		return respond_error(c, 405, "Method Not Allowed");
	path = c->req + 5;
	sp = strchr(path, ' ');
	if (!sp)
		return respond_error(c, 400, "Bad Request");
	*sp = '\0';
	if (!*path || strstr(path, "..") || *path == '/')
		return respond_error(c, 404, "Not Found");
	c->file = openat(root_fd, path, O_RDONLY | O_CLOEXEC);
	if (c->file < 0 || fstat(c->file, &st) || !S_ISREG(st.st_mode))
		return respond_error(c, 404, "Not Found");
	c->size = st.st_size;
	if (client_auth.mode)
		peer_headers(c->fd, peer, sizeof(peer));
	c->hdr_len = snprintf(c->hdr, sizeof(c->hdr),
			      "HTTP/1.1 200 OK\r\n%sContent-Length: %lld\r\nConnection: close\r\n\r\n",
			      peer, (long long)c->size);
}

/* Returns true when the connection is finished with. */
static bool conn_io(int ep, struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = c };
	ssize_t n;

	if (!c->hdr_len) {
		n = recv(c->fd, c->req + c->req_len, REQ_MAX - c->req_len, 0);
		if (n <= 0)
			return n == 0 || errno != EAGAIN;
		c->req_len += n;
		c->req[c->req_len] = '\0';
		if (!strstr(c->req, "\r\n\r\n"))
			return c->req_len == REQ_MAX;
		handle_request(c);
		epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
	}
	while (c->hdr_off < c->hdr_len) {
		n = send(c->fd, c->hdr + c->hdr_off, c->hdr_len - c->hdr_off,
			 c->size ? MSG_MORE : 0);
		if (n < 0)
			return errno != EAGAIN;
		c->hdr_off += n;
	}
	while (c->off < c->size) {
		n = sendfile(c->fd, c->file, &c->off, c->size - c->off);
		if (n < 0)
			return errno != EAGAIN;
		if (n == 0)
			return true;
	}
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "root", required_argument, NULL, 'r' },
		{ "key", required_argument, NULL, 'k' },
		{ "groups", required_argument, NULL, 'g' },
		{ "suites", required_argument, NULL, 's' },
		{ "alpn", no_argument, NULL, 'a' },
		{ "versions", required_argument, NULL, 'V' },
		{ "ems-optional", no_argument, NULL, 'E' },
		{ "tickets", required_argument, NULL, 'T' },
		{ "ticket-keys", required_argument, NULL, 'K' },
		{ "client-ca", required_argument, NULL, 'C' },
		{ "client-auth", required_argument, NULL, 'A' },
		{ "ca-names", no_argument, NULL, 'N' },
		{ "verbose", no_argument, NULL, 'v' },
		{}
	};
	struct epoll_event ev, evs[64];
	int keys[KTLS_HS_IDENTITIES_MAX], nr_keys = 0;
	const char *root = ".";
	int port = 8443, lfd, ep, o, i, n;
	const char *auth = NULL;
	bool alpn = false;

	static const char *const group_names[] = {
		"x25519mlkem768", "secp256r1mlkem768", "x25519", "p256",
		"hybrid-retry",
	};
	static const unsigned int group_bits[] = {
		KTLS_HS_GROUP_X25519MLKEM768, KTLS_HS_GROUP_SECP256R1MLKEM768,
		KTLS_HS_GROUP_X25519, KTLS_HS_GROUP_SECP256R1,
		KTLS_HS_GROUP_HYBRID_RETRY,
	};
	static const char *const suite_names[] = {
		"aes128", "aes256", "chacha", "ccm",
		"ecdsa-aes128", "ecdsa-aes256", "ecdsa-chacha",
	};
	static const unsigned int suite_bits[] = {
		KTLS_HS_SUITE_AES_128_GCM_SHA256,
		KTLS_HS_SUITE_AES_256_GCM_SHA384,
		KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256,
		KTLS_HS_SUITE_AES_128_CCM_SHA256,
		KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
		KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
		KTLS_HS_SUITE_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
	};
	static const char *const version_names[] = { "1.2", "1.3" };
	static const unsigned int version_bits[] = { KTLS_HS_VERSION_TLS12,
						     KTLS_HS_VERSION_TLS13 };

	while ((o = getopt_long(argc, argv, "p:r:k:g:s:av", opts, NULL)) != -1) {
		switch (o) {
		case 'g':
			groups = bits_of(optarg, group_names, group_bits,
					 ARRAY_SIZE(group_bits));
			break;
		case 's':
			suites = bits_of(optarg, suite_names, suite_bits,
					 ARRAY_SIZE(suite_bits));
			break;
		case 'V':
			versions = bits_of(optarg, version_names, version_bits,
					   ARRAY_SIZE(version_bits));
			break;
		case 'E':
			ems_optional = true;
			break;
		case 'T':
			ticket_lifetime = atoi(optarg);
			break;
		case 'K':
			ticket_keys = key_serial("ktls_tickets", optarg);
			break;
		case 'C':
			client_auth.trust = key_serial("ktls_trust", optarg);
			break;
		case 'A':
			auth = optarg;
			break;
		case 'N':
			client_auth.flags |= KTLS_HS_CLIENT_AUTH_F_CA_NAMES;
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'r':
			root = optarg;
			break;
		case 'k':
			if (nr_keys == KTLS_HS_IDENTITIES_MAX) {
				fprintf(stderr, "at most %d keys\n", nr_keys);
				return 2;
			}
			keys[nr_keys++] = key_serial("ktls_identity", optarg);
			break;
		case 'a':
			alpn = true;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: %s --port N --root DIR --key SERIAL|DESC\n"
				"\t[--groups G,..] [--suites S,..] [--versions 1.2,1.3]\n"
				"\t[--ems-optional] [--tickets SECONDS] [--ticket-keys KEY]\n"
				"\t[--client-ca KEY [--client-auth optional|required] [--ca-names]]\n"
				"\t[--alpn] [--verbose]\n",
				argv[0]);
			return 2;
		}
	}
	if (!nr_keys) {
		fprintf(stderr, "--key is required\n");
		return 2;
	}
	if (auth && strcmp(auth, "none") && strcmp(auth, "optional") &&
	    strcmp(auth, "required")) {
		fprintf(stderr, "--client-auth: none, optional or required\n");
		return 2;
	}
	if (client_auth.trust && !(auth && !strcmp(auth, "none"))) {
		client_auth.mode = auth && !strcmp(auth, "optional") ?
				   KTLS_HS_CLIENT_AUTH_OPTIONAL :
				   KTLS_HS_CLIENT_AUTH_REQUIRED;
	} else if ((auth && strcmp(auth, "none")) || client_auth.flags) {
		fprintf(stderr, "--client-auth and --ca-names need --client-ca\n");
		return 2;
	}
	if (!client_auth.mode)
		client_auth.trust = 0;
	signal(SIGPIPE, SIG_IGN);
	root_fd = open(root, O_RDONLY | O_DIRECTORY);
	if (root_fd < 0)
		die(root);
	lfd = armed_listener(port, keys, nr_keys, alpn);
	ep = epoll_create1(0);
	ev.events = EPOLLIN;
	ev.data.ptr = NULL;
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev))
		die("epoll");
	printf("listening on port %d\n", port);
	fflush(stdout);

	for (;;) {
		n = epoll_wait(ep, evs, 64, -1);
		if (n < 0 && errno != EINTR)
			die("epoll_wait");
		for (i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			int fd;

			if (c) {
				if (conn_io(ep, c))
					conn_close(ep, c);
				continue;
			}
			/* Every socket accept() gives has finished its handshake. */
			while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
				c = calloc(1, sizeof(*c));
				if (!c) {
					close(fd);
					continue;
				}
				c->fd = fd;
				c->file = -1;
				if (verbose)
					show_session(fd);
				ev.events = EPOLLIN;
				ev.data.ptr = c;
				if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
					conn_close(ep, c);
			}
		}
	}
}
