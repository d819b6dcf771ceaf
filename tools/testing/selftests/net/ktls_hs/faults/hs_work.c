// SPDX-License-Identifier: GPL-2.0-only
/*
 * Handshakes under injected allocation failures: OpenSSL clients against
 * an armed listener (the handshake runs in softirq) and against sockets
 * an acceptor hands to the kernel with KTLS_HS_START, TLS 1.3 and 1.2,
 * full and resumed from a ticket, and a TLS 1.3 key update both ways.
 * After the handshake one message goes through the kTLS socket and back.
 *
 * Every round must end in time: complete, or fail with an alert, or with
 * a close or reset, before the handshake's timeout.  A round the timeout
 * ended, a client still waiting past it, a certificate or record that
 * does not verify, or an echo that differs is a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "../../../../../../include/uapi/linux/ktls_hs.h"
#include "faults.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#define HOST		"www.example.test"
#define KEY_GROUP	7	/* the listener and per-socket tickets share keys */

static int hs_key;
static unsigned int hs_timeout_ms;
static int armed_fd, plain_fd;
static int armed_port, plain_port;
static SSL_CTX *ctx13, *ctx12;
static SSL_SESSION *sess13, *sess12;
static int stopping;
unsigned long hs_not_resumed, hs_timed_out;

static void set_timeout(int fd, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* The client's limit: the handshake's own, and time for the close. */
static unsigned int client_limit_ms(void)
{
	return hs_timeout_ms + 4000;
}

/*
 * One message back, as it came; a KeyUpdate asked for by "rekey" is
 * answered with one of ours first.  Then wait for the client to go, so
 * that its last records (a KeyUpdate, close_notify) are read.
 */
static void serve(int fd)
{
	int req = KTLS_HS_REKEY_REQUEST;
	char buf[64];
	ssize_t n;

	set_timeout(fd, client_limit_ms());
	n = recv(fd, buf, sizeof(buf), 0);
	if (n <= 0)
		goto out;
	if (n == 5 && !memcmp(buf, "rekey", 5) &&
	    setsockopt(fd, SOL_TLS, KTLS_HS_REKEY, &req, sizeof(req)))
		goto out;
	if (send(fd, buf, n, MSG_NOSIGNAL) != n)
		goto out;
	while (recv(fd, buf, sizeof(buf), 0) > 0)
		;
out:
	close(fd);
}

static int set_tickets(int fd)
{
	struct ktls_hs_tickets t = { .lifetime_s = 3600, .key_group = KEY_GROUP };

	return setsockopt(fd, SOL_TLS, KTLS_HS_TICKETS, &t, sizeof(t));
}

static void *armed_acceptor(void *arg)
{
	int fd;

	(void)arg;
	while (!__atomic_load_n(&stopping, __ATOMIC_RELAXED)) {
		fd = accept(armed_fd, NULL, NULL);
		if (fd >= 0)
			serve(fd);
	}
	return NULL;
}

/* A socket of the application's, handed to the kernel's handshake. */
static void *plain_acceptor(void *arg)
{
	int fd;

	(void)arg;
	while (!__atomic_load_n(&stopping, __ATOMIC_RELAXED)) {
		fd = accept(plain_fd, NULL, NULL);
		if (fd < 0)
			continue;
		if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls")) ||
		    setsockopt(fd, SOL_TLS, KTLS_HS_IDENTITY, &hs_key, sizeof(hs_key)) ||
		    setsockopt(fd, SOL_TLS, KTLS_HS_TIMEOUT, &hs_timeout_ms,
			       sizeof(hs_timeout_ms)) ||
		    set_tickets(fd) ||
		    setsockopt(fd, SOL_TLS, KTLS_HS_START, NULL, 0)) {
			/* An ENOMEM here is the application's to handle: it closes. */
			close(fd);
			continue;
		}
		serve(fd);
	}
	return NULL;
}

static int listener(int *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len))
		return -1;
	*port = ntohs(sa.sin_port);
	/* accept() returns now and then, so that the thread sees stopping. */
	set_timeout(fd, 1000);
	return fd;
}

static SSL_CTX *client_ctx(int version, const char *ca)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());

	if (!ctx)
		return NULL;
	SSL_CTX_set_min_proto_version(ctx, version);
	SSL_CTX_set_max_proto_version(ctx, version);
	SSL_CTX_load_verify_locations(ctx, ca, NULL);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	return ctx;
}

/* How an OpenSSL call failed, in the terms of enum outcome. */
static enum outcome failed(SSL *ssl, int rc, const char *what, double t0)
{
	int err = SSL_get_error(ssl, rc), e = errno;
	unsigned long code = ERR_peek_last_error();
	int reason = ERR_GET_REASON(code);
	double took = now_s() - t0;

	if (err == SSL_ERROR_ZERO_RETURN)
		return OUT_CLOSED;
	if ((err == SSL_ERROR_SYSCALL || err == SSL_ERROR_WANT_READ ||
	     err == SSL_ERROR_WANT_WRITE) && (e == EAGAIN || e == EWOULDBLOCK)) {
		bad("%s: no answer after %.1f s", what, took);
		return OUT_BAD;
	}
	/*
	 * Ended by the handshake's timer: the failure stalled it, where it
	 * should have ended it (TCP retransmits a dropped segment sooner).
	 */
	if (took * 1000 >= hs_timeout_ms * 0.9) {
		hs_timed_out++;
		bad("%s: ended only by the handshake timeout, after %.1f s", what, took);
		return OUT_BAD;
	}
	if (err == SSL_ERROR_SYSCALL)
		return OUT_CLOSED;
	if (err == SSL_ERROR_SSL && reason >= SSL_AD_REASON_OFFSET &&
	    reason < SSL_AD_REASON_OFFSET + 256)
		return OUT_ALERT;
	if (err == SSL_ERROR_SSL && reason == SSL_R_UNEXPECTED_EOF_WHILE_READING)
		return OUT_CLOSED;
	bad("%s: %s", what, ERR_error_string(code, NULL));
	return OUT_BAD;
}

/*
 * One client: connect, handshake (resuming @sess if given), with
 * @rekey a KeyUpdate both ways, one message there and back, close.
 * With @keep, the session is kept there for later resumption.
 */
static enum outcome client(int port, SSL_CTX *ctx, SSL_SESSION *sess,
			   bool rekey, SSL_SESSION **keep)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *msg = rekey ? "rekey" : "hello";
	enum outcome out = OUT_OK;
	double t0 = now_s();
	char buf[16];
	SSL *ssl;
	int fd, rc;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons(port);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	set_timeout(fd, client_limit_ms());
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		bad("connect: %s", strerror(errno));
		close(fd);
		return OUT_BAD;
	}
	ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	SSL_set_tlsext_host_name(ssl, HOST);
	SSL_set1_host(ssl, HOST);
	if (sess)
		SSL_set_session(ssl, sess);
	ERR_clear_error();
	errno = 0;
	rc = SSL_connect(ssl);
	if (rc != 1) {
		out = failed(ssl, rc, "handshake", t0);
		goto out;
	}
	if (sess && !SSL_session_reused(ssl))
		hs_not_resumed++;
	if (rekey && !SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED)) {
		bad("SSL_key_update");
		out = OUT_BAD;
		goto out;
	}
	rc = SSL_write(ssl, msg, 5);
	if (rc != 5) {
		out = failed(ssl, rc, "write", t0);
		goto out;
	}
	rc = SSL_read(ssl, buf, sizeof(buf));
	if (rc <= 0) {
		out = failed(ssl, rc, "read", t0);
		goto out;
	}
	if (rc != 5 || memcmp(buf, msg, 5)) {
		bad("echo differs (%d bytes)", rc);
		out = OUT_BAD;
		goto out;
	}
	if (keep)
		*keep = SSL_get1_session(ssl);
	SSL_shutdown(ssl);
out:
	SSL_free(ssl);
	close(fd);
	return out;
}

static enum outcome armed13(void) { return client(armed_port, ctx13, NULL, false, NULL); }
static enum outcome armed13r(void) { return client(armed_port, ctx13, sess13, false, NULL); }
static enum outcome armed12(void) { return client(armed_port, ctx12, NULL, false, NULL); }
static enum outcome armed12r(void) { return client(armed_port, ctx12, sess12, false, NULL); }
static enum outcome start13(void) { return client(plain_port, ctx13, NULL, false, NULL); }
static enum outcome start13r(void) { return client(plain_port, ctx13, sess13, false, NULL); }
static enum outcome start12(void) { return client(plain_port, ctx12, NULL, false, NULL); }
static enum outcome start12r(void) { return client(plain_port, ctx12, sess12, false, NULL); }
static enum outcome armed13ku(void) { return client(armed_port, ctx13, NULL, true, NULL); }

const struct work hs_works[] = {
	{ "armed listener, TLS 1.3 full", NULL, armed13 },
	{ "armed listener, TLS 1.3 resumed", NULL, armed13r },
	{ "armed listener, TLS 1.2 full", NULL, armed12 },
	{ "armed listener, TLS 1.2 resumed", NULL, armed12r },
	{ "KTLS_HS_START, TLS 1.3 full", NULL, start13 },
	{ "KTLS_HS_START, TLS 1.3 resumed", NULL, start13r },
	{ "KTLS_HS_START, TLS 1.2 full", NULL, start12 },
	{ "KTLS_HS_START, TLS 1.2 resumed", NULL, start12r },
	{ "armed listener, TLS 1.3 key update both ways", NULL, armed13ku },
};

const unsigned int hs_nr_works = ARRAY_SIZE(hs_works);

static pthread_t armed_thr, plain_thr;

/* Listeners, their acceptors, and a ticket of each version; no injection. */
int hs_setup(int key, const char *ca, unsigned int timeout_ms)
{
	hs_key = key;
	hs_timeout_ms = timeout_ms;
	armed_fd = listener(&armed_port);
	plain_fd = listener(&plain_port);
	if (armed_fd < 0 || plain_fd < 0 ||
	    setsockopt(armed_fd, IPPROTO_TCP, TCP_ULP, "ktls_hs", sizeof("ktls_hs")) ||
	    setsockopt(armed_fd, SOL_TLS, KTLS_HS_IDENTITY, &key, sizeof(key)) ||
	    setsockopt(armed_fd, SOL_TLS, KTLS_HS_TIMEOUT, &timeout_ms,
		       sizeof(timeout_ms)) ||
	    set_tickets(armed_fd)) {
		printf("# listeners: %s\n", strerror(errno));
		return -1;
	}
	pthread_create(&armed_thr, NULL, armed_acceptor, NULL);
	pthread_create(&plain_thr, NULL, plain_acceptor, NULL);
	ctx13 = client_ctx(TLS1_3_VERSION, ca);
	ctx12 = client_ctx(TLS1_2_VERSION, ca);
	if (!ctx13 || !ctx12 ||
	    client(armed_port, ctx13, NULL, false, &sess13) != OUT_OK ||
	    client(armed_port, ctx12, NULL, false, &sess12) != OUT_OK ||
	    !sess13 || !sess12) {
		printf("# handshakes without injection failed: %s\n", why_bad);
		return -1;
	}
	return 0;
}

void hs_teardown(void)
{
	__atomic_store_n(&stopping, 1, __ATOMIC_RELAXED);
	pthread_join(armed_thr, NULL);
	pthread_join(plain_thr, NULL);
	close(armed_fd);
	close(plain_fd);
	SSL_SESSION_free(sess13);
	SSL_SESSION_free(sess12);
	SSL_CTX_free(ctx13);
	SSL_CTX_free(ctx12);
}
