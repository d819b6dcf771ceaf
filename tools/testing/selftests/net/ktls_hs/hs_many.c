// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many handshakes at once against an armed listener: N OpenSSL clients
 * (default 500) connect together and drive TLS 1.3 handshakes over
 * non-blocking sockets while a thread accept()s.  Every client must
 * finish, verify the chain, and echo a byte through its kTLS peer; the
 * listener's counters must agree.  KTLS_HS_KEY names the identity,
 * KTLS_HS_CA the CA file (hs_many.sh sets both).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "../../../../../include/uapi/linux/ktls_hs.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

struct client {
	int fd;
	SSL *ssl;
	int state;	/* 0 handshaking, 1 to write, 2 wrote, 3 done, -1 failed */
};

static int nr_clients = 500;
static int accepted;

static void *acceptor(void *arg)
{
	int lfd = *(int *)arg, fd, i;
	ssize_t n;
	char c;

	/* Echo one byte on each: read and written through kTLS. */
	for (i = 0; i < nr_clients; i++) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			break;
		accepted++;
		n = recv(fd, &c, 1, MSG_WAITALL);
		if (n == 1)
			n = send(fd, &c, 1, 0);
		/* What a client that fails then saw is ours to explain. */
		if (n != 1)
			printf("# accepted %d: echo failed: %zd (%s)\n", i, n,
			       n < 0 ? strerror(errno) : "EOF");
		close(fd);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct ktls_hs_listen_stats st;
	socklen_t len = sizeof(sa);
	struct client *cl;
	struct pollfd *pfd;
	int lfd, key, i, left, done = 0, failed = 0, rc;
	unsigned int timeout = 120000;
	bool ok;
	pthread_t thr;
	SSL_CTX *ctx;

	if (argc > 1)
		nr_clients = atoi(argv[1]);
	if (!getenv("KTLS_HS_KEY") || !getenv("KTLS_HS_CA")) {
		printf("Bail out! KTLS_HS_KEY/KTLS_HS_CA unset: run hs_many.sh\n");
		return 1;
	}
	key = atoi(getenv("KTLS_HS_KEY"));
	/* A failed client must be counted, not kill us. */
	signal(SIGPIPE, SIG_IGN);
	printf("TAP version 13\n1..3\n");

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, len) ||
	    listen(lfd, nr_clients + 16) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &len) ||
	    setsockopt(lfd, IPPROTO_TCP, TCP_ULP, "ktls_hs", sizeof("ktls_hs")) ||
	    setsockopt(lfd, SOL_TLS, KTLS_HS_IDENTITY, &key, sizeof(key)) ||
	    /* Hundreds at once on an emulated CPU take a while. */
	    setsockopt(lfd, SOL_TLS, KTLS_HS_TIMEOUT, &timeout, sizeof(timeout))) {
		printf("Bail out! armed listener: %s\n", strerror(errno));
		return 1;
	}
	pthread_create(&thr, NULL, acceptor, &lfd);

	ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
	SSL_CTX_load_verify_locations(ctx, getenv("KTLS_HS_CA"), NULL);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	cl = calloc(nr_clients, sizeof(*cl));
	pfd = calloc(nr_clients, sizeof(*pfd));
	for (i = 0; i < nr_clients; i++) {
		cl[i].fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(cl[i].fd, (struct sockaddr *)&sa, sizeof(sa));
		cl[i].ssl = SSL_new(ctx);
		SSL_set_fd(cl[i].ssl, cl[i].fd);
		SSL_set_tlsext_host_name(cl[i].ssl, "www.example.test");
		SSL_set1_host(cl[i].ssl, "www.example.test");
	}

	/* Drive every client until each has its byte back, or fails. */
	for (left = nr_clients; left > 0;) {
		int n = 0;

		for (i = 0; i < nr_clients; i++) {
			struct client *c = &cl[i];
			char b = 'x';
			int want = 0;

			if (c->state < 0 || c->state == 3)
				continue;
			/* so that a failure does not show an earlier errno */
			errno = 0;
			if (c->state == 0) {
				rc = SSL_connect(c->ssl);
				if (rc == 1)
					c->state = 1;
				else
					want = SSL_get_error(c->ssl, rc);
			}
			/*
			 * The byte goes once: the acceptor reads one and
			 * closes, and a second would be unread data, which
			 * makes TCP answer the close with a reset that can
			 * overtake the echo.
			 */
			if (c->state == 1 && !want) {
				rc = SSL_write(c->ssl, &b, 1);
				if (rc == 1)
					c->state = 2;
				else
					want = SSL_get_error(c->ssl, rc);
			}
			if (c->state == 2 && !want) {
				rc = SSL_read(c->ssl, &b, 1);
				if (rc == 1) {
					c->state = 3;
					done++;
					left--;
					continue;
				}
				want = SSL_get_error(c->ssl, rc);
			}
			if (want != SSL_ERROR_WANT_READ &&
			    want != SSL_ERROR_WANT_WRITE) {
				printf("# client %d: %s failed: SSL error %d, errno %d (%s)\n",
				       i, c->state ? "echo" : "handshake", want,
				       errno, strerror(errno));
				c->state = -1;
				failed++;
				left--;
				ERR_print_errors_fp(stdout);
				continue;
			}
			pfd[n].fd = c->fd;
			pfd[n].events = want == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT;
			n++;
		}
		if (left && poll(pfd, n, 60000) <= 0) {
			printf("# stalled with %d clients left\n", left);
			break;
		}
	}
	printf("%s 1 %d concurrent handshakes verified and echoed # %d done, %d failed\n",
	       done == nr_clients ? "ok" : "not ok", nr_clients, done, failed);

	for (i = 0; i < nr_clients; i++) {
		SSL_free(cl[i].ssl);
		close(cl[i].fd);
	}
	pthread_join(thr, NULL);
	printf("%s 2 accept() returned every one # %d\n",
	       accepted == nr_clients ? "ok" : "not ok", accepted);

	len = sizeof(st);
	rc = getsockopt(lfd, SOL_TLS, KTLS_HS_STATS, &st, &len);
	ok = !rc && st.completed == (unsigned int)nr_clients && !st.failed &&
	     !st.in_progress;
	printf("%s 3 listener counters # completed %llu failed %llu ",
	       ok ? "ok" : "not ok", (unsigned long long)st.completed,
	       (unsigned long long)st.failed);
	printf("timed out %llu dropped %llu in progress %u\n",
	       (unsigned long long)st.timed_out, (unsigned long long)st.dropped,
	       st.in_progress);
	close(lfd);
	SSL_CTX_free(ctx);
	return done == nr_clients && accepted == nr_clients ? 0 : 1;
}
