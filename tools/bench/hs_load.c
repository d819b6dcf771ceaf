// SPDX-License-Identifier: GPL-2.0-only
/*
 * hs_load: load generator for tools/bench/hs_run.  Keeps a fixed number of
 * TLS 1.3 connections in flight against one server, each a new TCP
 * connection with a full handshake (X25519, TLS_AES_128_GCM_SHA256, no
 * session resumption, no certificate verification: the server is being
 * measured, not the client), and counts what completes in a fixed time.
 *
 *   hs_load [-h HOST] [-p PORT] [-c CONNS] [-t THREADS] [-w SECONDS]
 *	     [-d SECONDS] [-g PATH [-l BYTES]] [-n SNI] [-L [-M]] [-2] [-r]
 *	     [-C CERT -K KEY]
 *
 * -2 speaks TLS 1.2 instead (ECDHE-ECDSA-AES128-GCM-SHA256, X25519, the
 * extended master secret).  -r resumes: one connection first takes a
 * session (a TLS 1.3 ticket, or a TLS 1.2 session ticket), then every
 * connection of the load offers a copy of it, and one the server does
 * not resume counts as failed.  The server must issue tickets; stateless ones, as
 * both servers of hs_run issue, resume any number of times.
 *
 * -C and -K give libssl a client certificate chain (PEM, leaf first) and
 * its key, which it sends when the server asks for one: every handshake
 * then signs a CertificateVerify and makes the server verify the chain.
 * A server that does not ask gets none.
 *
 * Without -g a connection is done when the handshake is, and is closed at
 * once.  With -g it then sends "GET PATH" and reads the whole response,
 * which must be a 200 whose body is -l bytes if -l is given.
 *
 * The load runs for -w seconds of warm-up, then -d seconds in which
 * completions count.  Counting only once the pipeline is full, and
 * dropping what is in flight at the end, makes the count the steady
 * rate times the time: a drain, or the first connections' latency,
 * would favour whichever server is faster.
 *
 * -t spreads the connections over that many threads, each with its own
 * epoll loop, so that the client can use every CPU the server can.
 *
 * -L replaces libssl by hs_lite.c, a client that does only what the
 * server needs from it (one X25519 share per thread, the server's
 * certificate and signature decrypted and hashed but not checked, its
 * Finished checked), at a fraction of
 * libssl's cost: with the client on the same CPUs as the server, what
 * the client spends is taken from the server.  -M (with -L) offers the
 * post-quantum hybrid X25519MLKEM768 first, with an X25519 share beside
 * it, as browsers do; the ML-KEM-768 is the module's own crypto/ code
 * built in userspace (hs_mlkem.c), Debian 12's OpenSSL having none.
 *
 * One line on stdout:
 *	result <mode> <completed> <errors> <seconds> <per second>
 * with mode "handshake" or "get".  Exit status 1 if nothing completed or
 * more than 1% of the attempts failed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "hs_lite.h"

#define CONNS_MAX	4096
#define THREADS_MAX	64
#define RESP_MAX	(16 * 1024)	/* headers and the 1 KB file, with room */
/* The first errors are worth printing, the next thousand not. */
#define ERRORS_SHOWN	5

enum conn_state { CS_HANDSHAKE, CS_REQUEST, CS_RESPONSE };

struct conn {
	int fd;
	SSL *ssl;
	struct lite_conn *lite;		/* -L */
	enum conn_state state;
	size_t req_off;
	size_t resp_len;
	char resp[RESP_MAX + 1];
};

struct worker {
	pthread_t thread;
	int conns;
	unsigned long done, errors;
};

static struct sockaddr_storage server;
static socklen_t server_len;
static SSL_CTX *ctx;
static const char *get_path;	/* NULL: handshakes only */
static long body_len = -1;	/* -l: the size the body must have */
static const char *sni;
static const char *cert_file, *key_file;	/* -C, -K */
static bool use_lite, tls12, resume;
static SSL_SESSION *session;	/* -r: the session every connection offers */
static char request[1024];
static size_t request_len;
static double measure_from, deadline;	/* CLOCK_MONOTONIC seconds */
static unsigned long errors_shown;
static pthread_mutex_t errors_lock = PTHREAD_MUTEX_INITIALIZER;

static void conn_error(const char *what, const char *why)
{
	pthread_mutex_lock(&errors_lock);
	if (errors_shown++ < ERRORS_SHOWN)
		fprintf(stderr, "hs_load: %s: %s\n", what, why);
	pthread_mutex_unlock(&errors_lock);
}

/* What the server said instead: its status line. */
static void conn_bad_response(const char *resp)
{
	char line[96];

	snprintf(line, sizeof(line), "not a 200 with the expected body: \"%.*s\"",
		 (int)strcspn(resp, "\r\n"), resp);
	conn_error("response", line);
}

/* OpenSSL's reason if it has one, else errno's, else an EOF. */
static void conn_ssl_error(const char *what)
{
	unsigned long e = ERR_peek_error();
	int err = errno;
	char buf[256];

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	conn_error(what, e ? buf : err ? strerror(err) : "EOF");
	ERR_clear_error();
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Milliseconds to the deadline, 0 once it has passed. */
static int time_left(void)
{
	double left = deadline - now();

	return left > 0 ? (int)(left * 1000) + 1 : 0;
}

static void conn_close(int ep, struct conn *c)
{
	if (c->fd < 0)
		return;
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	/*
	 * No close_notify: it would cost both sides a record that neither
	 * server needs to tell the end of the connection.  Yet libssl
	 * would take a session freed without it for a broken one, and
	 * never offer it again: -r's shared one must stay resumable.
	 */
	if (c->ssl) {
		SSL_set_shutdown(c->ssl, SSL_SENT_SHUTDOWN);
		SSL_free(c->ssl);
	}
	close(c->fd);
	c->ssl = NULL;
	c->fd = -1;
}

/*
 * -r: each connection offers a copy of the one session.  libssl marks a
 * session it saw fail (an alert, an unclean end) as not resumable, and a
 * shared one would then make every later connection a full handshake:
 * one client's failure would bill the rest of the run.  Clients of a
 * real server each hold their own session.
 */
static bool offer_session(SSL *ssl)
{
	SSL_SESSION *copy = SSL_SESSION_dup(session);
	bool ok;

	if (!copy)
		return false;
	ok = SSL_set_session(ssl, copy);
	SSL_SESSION_free(copy);
	return ok;
}

/* A new TCP connection and TLS session; false if either failed. */
static bool conn_open(int ep, struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = c };
	int one = 1;

	c->state = CS_HANDSHAKE;
	c->req_off = 0;
	c->resp_len = 0;
	c->fd = socket(server.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (c->fd < 0) {
		conn_error("socket", strerror(errno));
		return false;
	}
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(c->fd, (struct sockaddr *)&server, server_len) &&
	    errno != EINPROGRESS) {
		conn_error("connect", strerror(errno));
		goto err_close;
	}
	if (use_lite) {
		lite_start(c->lite, sni);
		goto add;
	}
	c->ssl = SSL_new(ctx);
	if (!c->ssl || !SSL_set_fd(c->ssl, c->fd)) {
		conn_ssl_error("SSL_new");
		goto err_free;
	}
	if (sni && !SSL_set_tlsext_host_name(c->ssl, sni)) {
		conn_ssl_error("SNI");
		goto err_free;
	}
	if (session && !offer_session(c->ssl)) {
		conn_ssl_error("SSL_set_session");
		goto err_free;
	}
add:
	if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev)) {
		conn_error("epoll_ctl", strerror(errno));
		goto err_free;
	}
	return true;

err_free:
	SSL_free(c->ssl);
	c->ssl = NULL;
err_close:
	close(c->fd);
	c->fd = -1;
	return false;
}

/* Wait for what OpenSSL asked for; false if the call failed for good. */
static bool conn_wait(int ep, struct conn *c, int ret, const char *what)
{
	struct epoll_event ev = { .data.ptr = c };

	switch (SSL_get_error(c->ssl, ret)) {
	case SSL_ERROR_WANT_READ:
		ev.events = EPOLLIN;
		break;
	case SSL_ERROR_WANT_WRITE:
		ev.events = EPOLLOUT;
		break;
	default:
		conn_ssl_error(what);
		return false;
	}
	epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
	return true;
}

/*
 * The response (NUL-terminated, @resp_len bytes) is complete once its
 * headers and Content-Length are in: 1, 0 while incomplete, -1 if bad.
 */
static int response_check(const char *resp, size_t resp_len)
{
	const char *end, *cl;
	long len;

	end = strstr(resp, "\r\n\r\n");
	if (!end)
		return resp_len < RESP_MAX ? 0 : -1;
	if (strncmp(resp, "HTTP/1.1 200 ", 13))
		return -1;
	cl = strcasestr(resp, "\r\nContent-Length:");
	if (!cl || cl > end)
		return -1;
	len = strtol(cl + 17, NULL, 10);
	if (len < 0 || (body_len >= 0 && len != body_len))
		return -1;
	if (resp_len - (end + 4 - resp) < (size_t)len)
		return resp_len < RESP_MAX ? 0 : -1;
	return 1;
}

/* conn_step() of -L: hs_lite does the whole exchange. */
static int conn_step_lite(int ep, struct conn *c)
{
	struct epoll_event ev = { .data.ptr = c };
	const char *why = NULL;
	unsigned int events;
	int ret;

	ret = lite_step(c->lite, c->fd, get_path ? request : NULL,
			request_len, c->resp, RESP_MAX, &c->resp_len,
			response_check, &events, &why);
	if (ret < 0 && !why) {
		conn_bad_response(c->resp);
	} else if (ret < 0) {
		conn_error("exchange", why);
	} else if (!ret) {
		ev.events = events;
		epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
	}
	return ret;
}

/*
 * Advance one connection as far as it goes without blocking.  Returns 1
 * when it completed, 0 while it waits, -1 on failure.
 */
static int conn_step(int ep, struct conn *c)
{
	int ret;

	if (use_lite)
		return conn_step_lite(ep, c);
	/* so that an EOF does not show as some earlier call's errno */
	errno = 0;
	if (c->state == CS_HANDSHAKE) {
		ret = SSL_connect(c->ssl);
		if (ret != 1)
			return conn_wait(ep, c, ret, "handshake") ? 0 : -1;
		if (session && !SSL_session_reused(c->ssl)) {
			conn_error("handshake", "session not resumed");
			return -1;
		}
		if (!get_path)
			return 1;
		c->state = CS_REQUEST;
	}
	while (c->state == CS_REQUEST) {
		ret = SSL_write(c->ssl, request + c->req_off,
				request_len - c->req_off);
		if (ret <= 0)
			return conn_wait(ep, c, ret, "request") ? 0 : -1;
		c->req_off += ret;
		if (c->req_off == request_len)
			c->state = CS_RESPONSE;
	}
	for (;;) {
		ret = SSL_read(c->ssl, c->resp + c->resp_len,
			       RESP_MAX - c->resp_len);
		if (ret <= 0)
			return conn_wait(ep, c, ret, "response") ? 0 : -1;
		c->resp_len += ret;
		c->resp[c->resp_len] = '\0';
		ret = response_check(c->resp, c->resp_len);
		if (ret) {
			if (ret < 0)
				conn_bad_response(c->resp);
			return ret;
		}
	}
}

static void conns_free(struct conn *conns, int n)
{
	int i;

	for (i = 0; conns && i < n; i++)
		free(conns[i].lite);
	free(conns);
}

/* A thread's connections; with -L each has its hs_lite state too. */
static struct conn *conns_alloc(int n)
{
	struct conn *conns = calloc(n, sizeof(*conns));
	int i;

	if (!conns || !use_lite)
		return conns;
	if (!lite_thread_init()) {
		errno = ENOMEM;
		goto err;
	}
	for (i = 0; i < n; i++) {
		conns[i].lite = malloc(sizeof(*conns[i].lite));
		if (!conns[i].lite)
			goto err;
	}
	return conns;
err:
	conns_free(conns, n);
	return NULL;
}

static void *worker_run(void *arg)
{
	struct epoll_event evs[64];
	struct worker *w = arg;
	struct conn *conns;
	int ep, i, n, left, live = 0;

	conns = conns_alloc(w->conns);
	ep = epoll_create1(0);
	if (!conns || ep < 0) {
		fprintf(stderr, "hs_load: %s\n", strerror(errno));
		w->errors++;
		if (ep >= 0)
			close(ep);
		conns_free(conns, w->conns);
		return NULL;
	}
	for (i = 0; i < w->conns; i++) {
		if (conn_open(ep, &conns[i]))
			live++;
		else
			w->errors++;
	}
	/*
	 * At the deadline, connections in flight are dropped, not waited
	 * for: a drain with fewer and fewer connections would measure
	 * something else than the steady state.
	 */
	while (live && (left = time_left())) {
		n = epoll_wait(ep, evs, 64, left);
		if (n < 0 && errno != EINTR)
			break;
		for (i = 0; i < n; i++) {
			struct conn *c = evs[i].data.ptr;
			int ret;

			/* failed to reopen earlier in this batch */
			if (c->fd < 0)
				continue;
			ret = conn_step(ep, c);
			if (!ret)
				continue;
			if (ret < 0)
				w->errors++;
			else if (now() >= measure_from)
				w->done++;
			conn_close(ep, c);
			live--;
			if (conn_open(ep, c))
				live++;
			else
				w->errors++;
		}
	}
	for (i = 0; i < w->conns; i++)
		conn_close(ep, &conns[i]);
	close(ep);
	conns_free(conns, w->conns);
	return NULL;
}

static SSL_CTX *client_ctx(void)
{
	int version = tls12 ? TLS1_2_VERSION : TLS1_3_VERSION;
	SSL_CTX *c = SSL_CTX_new(TLS_client_method());

	if (!c ||
	    !SSL_CTX_set_min_proto_version(c, version) ||
	    !SSL_CTX_set_max_proto_version(c, version) ||
	    !SSL_CTX_set_ciphersuites(c, "TLS_AES_128_GCM_SHA256") ||
	    !SSL_CTX_set_cipher_list(c, "ECDHE-ECDSA-AES128-GCM-SHA256") ||
	    !SSL_CTX_set1_groups_list(c, "X25519:P-256")) {
		ERR_print_errors_fp(stderr);
		exit(2);
	}
	SSL_CTX_set_verify(c, SSL_VERIFY_NONE, NULL);
	if (cert_file &&
	    (SSL_CTX_use_certificate_chain_file(c, cert_file) != 1 ||
	     SSL_CTX_use_PrivateKey_file(c, key_file, SSL_FILETYPE_PEM) != 1 ||
	     SSL_CTX_check_private_key(c) != 1)) {
		ERR_print_errors_fp(stderr);
		fprintf(stderr, "hs_load: no client certificate from %s and %s\n",
			cert_file, key_file);
		exit(2);
	}
	/*
	 * No session cache: without -r every handshake is full and asks for
	 * no ticket; with it, hs_load keeps the one session itself.
	 */
	SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
	if (!resume)
		SSL_CTX_set_options(c, SSL_OP_NO_TICKET);
	return c;
}

/* A session -r can resume: resumable, with a ticket. */
static bool session_ok(const SSL_SESSION *sess)
{
	return sess && SSL_SESSION_is_resumable(sess) &&
	       SSL_SESSION_has_ticket(sess);
}

/*
 * -r: one blocking handshake, then the session it left.  A TLS 1.3
 * ticket comes after the handshake: read until it is in, or a second
 * has passed.
 */
static SSL_SESSION *take_session(void)
{
	struct timeval tv = { .tv_sec = 1 };
	SSL_SESSION *sess = NULL;
	SSL *ssl = NULL;
	char byte;
	int fd;

	fd = socket(server.ss_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&server, server_len)) {
		perror("hs_load: connect");
		goto out;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	ssl = SSL_new(ctx);
	if (!ssl || !SSL_set_fd(ssl, fd) ||
	    (sni && !SSL_set_tlsext_host_name(ssl, sni)) ||
	    SSL_connect(ssl) != 1)
		goto out;
	while (!tls12 && !(session_ok(SSL_get0_session(ssl))) &&
	       SSL_read(ssl, &byte, 1) > 0)
		;
	sess = SSL_get1_session(ssl);
	if (sess && !session_ok(sess)) {
		SSL_SESSION_free(sess);
		sess = NULL;
	}
out:
	if (!sess) {
		ERR_print_errors_fp(stderr);
		fprintf(stderr, "hs_load: the server left no session to resume\n");
	}
	if (ssl)
		SSL_set_shutdown(ssl, SSL_SENT_SHUTDOWN);
	SSL_free(ssl);
	if (fd >= 0)
		close(fd);
	return sess;
}

static void resolve(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	int err;

	err = getaddrinfo(host, port, &hints, &res);
	if (err) {
		fprintf(stderr, "hs_load: %s: %s\n", host, gai_strerror(err));
		exit(2);
	}
	memcpy(&server, res->ai_addr, res->ai_addrlen);
	server_len = res->ai_addrlen;
	freeaddrinfo(res);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-h HOST] [-p PORT] [-c CONNS] [-t THREADS] [-w SECONDS] [-d SECONDS] [-g PATH [-l BYTES]] [-n SNI] [-L [-M]] [-2] [-r] [-C CERT -K KEY]\n",
		prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *host = "127.0.0.1", *port = "8443";
	struct worker workers[THREADS_MAX];
	int conns = 16, threads = 1, o, i;
	unsigned long done = 0, errors = 0;
	double secs = 10.0, warm = 0.0, took;

	while ((o = getopt(argc, argv, "h:p:c:t:w:d:g:l:n:LM2rC:K:")) != -1) {
		switch (o) {
		case 'h':
			host = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		case 'c':
			conns = atoi(optarg);
			break;
		case 't':
			threads = atoi(optarg);
			break;
		case 'w':
			warm = atof(optarg);
			break;
		case 'd':
			secs = atof(optarg);
			break;
		case 'g':
			get_path = optarg;
			break;
		case 'l':
			body_len = atol(optarg);
			break;
		case 'n':
			sni = optarg;
			break;
		case 'L':
			use_lite = true;
			break;
		case 'M':
			lite_hybrid = true;
			break;
		case '2':
			tls12 = true;
			break;
		case 'r':
			resume = true;
			break;
		case 'C':
			cert_file = optarg;
			break;
		case 'K':
			key_file = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc || conns < 1 || conns > CONNS_MAX || threads < 1 ||
	    threads > THREADS_MAX || threads > conns || !(secs > 0) || !(warm >= 0) ||
	    (use_lite && (tls12 || resume || cert_file)) ||
	    (lite_hybrid && !use_lite) || !cert_file != !key_file)
		usage(argv[0]);
	if (get_path) {
		request_len = snprintf(request, sizeof(request),
				       "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n",
				       get_path, sni ? sni : host);
		if (request_len >= sizeof(request))
			usage(argv[0]);
	}
	signal(SIGPIPE, SIG_IGN);
	resolve(host, port);
	ctx = client_ctx();
	if (resume) {
		session = take_session();
		if (!session)
			return 2;
	}

	measure_from = now() + warm;
	deadline = measure_from + secs;
	for (i = 0; i < threads; i++) {
		workers[i] = (struct worker){
			.conns = conns / threads + (i < conns % threads),
		};
		if (pthread_create(&workers[i].thread, NULL, worker_run,
				   &workers[i])) {
			fprintf(stderr, "hs_load: pthread_create failed\n");
			return 2;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(workers[i].thread, NULL);
		done += workers[i].done;
		errors += workers[i].errors;
	}
	took = now() - measure_from;

	printf("result %s %lu %lu %.3f %.1f\n", get_path ? "get" : "handshake",
	       done, errors, took, done / took);
	SSL_SESSION_free(session);
	SSL_CTX_free(ctx);
	return !done || errors * 100 > done + errors;
}
