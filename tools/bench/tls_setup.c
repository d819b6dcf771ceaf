// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a kTLS socket's setup costs the application, the calls that a
 * driver's slow tls_dev_add() must not lengthen (issue 7):
 *
 *   server ADDR PORT N		accepts N connections and drains them
 *   client ADDR PORT N [12|13]	connects N times, attaches the "tls"
 *				ULP, times setsockopt(TLS_TX) and then
 *				setsockopt(TLS_RX), sends one record,
 *				keeps the connection 20 ms
 *   armed ADDR PORT N KEY [12|13]
 *				an armed listener (the handshake in the
 *				kernel, identity key serial KEY): waits
 *				until it is readable, times accept(),
 *				keeps the socket 20 ms
 *   hsclient ADDR PORT N [12|13]
 *				N TLS handshakes with OpenSSL, AES-GCM-128,
 *				each waiting for the server to close
 *
 * The servers print "ready" once they listen.  "client" and "armed"
 * print the median, 90th percentile and maximum of their times in
 * microseconds, the first connection (a warm-up: it builds the AEADs)
 * left out.  tools/bench/offload_setup runs them over the simulated
 * offload NIC.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/tls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../../include/uapi/linux/ktls_hs.h"

#ifndef SOL_TLS
#define SOL_TLS 282
#endif

/* How long a connection lives after its setup; see hold(). */
#define HOLD_US 20000

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* " NAME median M p90 P max X": one field group of the output line. */
static void print_stats(const char *name, double *us, int n)
{
	qsort(us, n, sizeof(*us), cmp_double);
	printf(" %s median %.0f p90 %.0f max %.0f", name, us[n / 2],
	       us[n * 9 / 10], us[n - 1]);
}

static int listen_on(struct sockaddr_in *sa, const char *ulp, int key,
		     __u16 version)
{
	__u32 versions = version == TLS_1_2_VERSION ? KTLS_HS_VERSION_TLS12 :
						      KTLS_HS_VERSION_TLS13;
	/* AES-GCM-128 whichever version the client offers. */
	__u32 suites = KTLS_HS_SUITE_AES_128_GCM_SHA256 |
		       KTLS_HS_SUITE_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (void *)sa, sizeof(*sa)) || listen(fd, 64)) {
		perror("listen");
		return -1;
	}
	/* The handshake ULP arms a listening socket. */
	if (ulp && (setsockopt(fd, IPPROTO_TCP, TCP_ULP, ulp, strlen(ulp) + 1) ||
		    setsockopt(fd, SOL_TLS, KTLS_HS_IDENTITY, &key, sizeof(key)) ||
		    setsockopt(fd, SOL_TLS, KTLS_HS_VERSIONS, &versions,
			       sizeof(versions)) ||
		    setsockopt(fd, SOL_TLS, KTLS_HS_SUITES, &suites,
			       sizeof(suites)))) {
		perror("arming the listener");
		close(fd);
		return -1;
	}
	/* Clients may come now. */
	printf("ready\n");
	fflush(stdout);
	return fd;
}

static int serve(struct sockaddr_in *sa, int n)
{
	char buf[65536];
	int lfd, fd, i;

	lfd = listen_on(sa, NULL, 0, 0);
	if (lfd < 0)
		return 1;
	for (i = 0; i < n; i++) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			perror("accept");
			return 1;
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
	}
	close(lfd);
	return 0;
}

/* The server may start after us: retry for two seconds. */
static int connect_to(struct sockaddr_in *sa)
{
	int fd, i;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	for (i = 0; connect(fd, (void *)sa, sizeof(*sa)); i++) {
		if (i == 100) {
			perror("connect");
			close(fd);
			return -1;
		}
		usleep(20000);
	}
	return fd;
}

/*
 * Connections live a while after their setup, long enough for the
 * device to get their keys: an RX install finds a closed socket
 * otherwise, and the device counters would not show that it took them.
 */
static void hold(void)
{
	usleep(HOLD_US);
}

static double timed_setsockopt(int fd, int opt, const void *val, int len)
{
	double t0 = now_us();

	if (setsockopt(fd, SOL_TLS, opt, val, len)) {
		perror(opt == TLS_TX ? "TLS_TX" : "TLS_RX");
		return -1;
	}
	return now_us() - t0;
}

/* One connection: the times of TLS_TX and TLS_RX; false on error. */
static int one_setup(struct sockaddr_in *sa, __u16 version, double *tx,
		     double *rx)
{
	struct tls12_crypto_info_aes_gcm_128 ci;
	char rec[1000];
	int fd, ok;

	fd = connect_to(sa);
	if (fd < 0)
		return 0;
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls"))) {
		perror("TCP_ULP");
		close(fd);
		return 0;
	}
	memset(&ci, 0x5a, sizeof(ci));
	ci.info.version = version;
	ci.info.cipher_type = TLS_CIPHER_AES_GCM_128;
	*tx = timed_setsockopt(fd, TLS_TX, &ci, sizeof(ci));
	/* The peer never sends: RX's keys need not match anything. */
	ci.key[0] ^= 0xff;
	*rx = *tx < 0 ? -1 : timed_setsockopt(fd, TLS_RX, &ci, sizeof(ci));
	memset(rec, 'x', sizeof(rec));
	ok = *rx >= 0 && send(fd, rec, sizeof(rec), 0) == sizeof(rec);
	hold();
	close(fd);
	return ok;
}

static int setups(struct sockaddr_in *sa, int n, __u16 version)
{
	double *tx, *rx, t, r;
	int i;

	tx = calloc(n, sizeof(*tx));
	rx = calloc(n, sizeof(*rx));
	if (!tx || !rx)
		return 1;
	/*
	 * The first TLS_TX after the module loaded builds the AEAD (and the
	 * crypto manager tests it): not what a connection pays.  The server
	 * counts it among its N.
	 */
	if (!one_setup(sa, version, &t, &r))
		return 1;
	for (i = 0; i < n - 1; i++)
		if (!one_setup(sa, version, &tx[i], &rx[i]))
			return 1;
	printf("n %d", n - 1);
	print_stats("tx", tx, n - 1);
	print_stats("rx", rx, n - 1);
	printf("\n");
	return 0;
}

/*
 * accept() of a child the kernel handshake finished: the listener is
 * readable only once one is, so the call times the dequeue and whatever
 * keying the socket still costs.
 */
static int accepts(struct sockaddr_in *sa, int n, int key, __u16 version)
{
	struct pollfd p = { .events = POLLIN };
	struct ktls_hs_session_info s;
	socklen_t len = sizeof(s);
	double *us, t0;
	int i, fd;

	us = calloc(n, sizeof(*us));
	if (!us)
		return 1;
	p.fd = listen_on(sa, "ktls_hs", key, version);
	if (p.fd < 0)
		return 1;
	for (i = 0; i < n; i++) {
		if (poll(&p, 1, 60000) != 1) {
			fprintf(stderr, "no handshake finished in 60 s\n");
			return 1;
		}
		t0 = now_us();
		fd = accept(p.fd, NULL, NULL);
		us[i] = now_us() - t0;
		if (fd < 0) {
			perror("accept");
			return 1;
		}
		if (getsockopt(fd, SOL_TLS, KTLS_HS_SESSION, &s, &len) ||
		    s.version != version) {
			fprintf(stderr, "accepted a socket without %#x keys\n",
				version);
			return 1;
		}
		hold();
		close(fd);
	}
	close(p.fd);
	/* The first one is the warm-up. */
	printf("n %d", n - 1);
	print_stats("accept", us + 1, n - 1);
	printf("\n");
	return 0;
}

/*
 * Benchmark client: the certificate is not checked.  It waits for the
 * server to close so that handshakes do not overlap.
 */
static int handshakes(struct sockaddr_in *sa, int n, __u16 version)
{
	char buf[4096];
	SSL_CTX *sc;
	int i, fd;
	SSL *ssl;

	sc = SSL_CTX_new(TLS_client_method());
	if (!sc || !SSL_CTX_set_min_proto_version(sc, version) ||
	    !SSL_CTX_set_max_proto_version(sc, version) ||
	    !SSL_CTX_set_ciphersuites(sc, "TLS_AES_128_GCM_SHA256") ||
	    !SSL_CTX_set_cipher_list(sc, "ECDHE-ECDSA-AES128-GCM-SHA256"))
		return 1;
	SSL_CTX_set_options(sc, SSL_OP_NO_TICKET);
	for (i = 0; i < n; i++) {
		fd = connect_to(sa);
		if (fd < 0)
			return 1;
		ssl = SSL_new(sc);
		if (!ssl || !SSL_set_fd(ssl, fd) ||
		    !SSL_set_tlsext_host_name(ssl, "www.example.test") ||
		    SSL_connect(ssl) != 1) {
			fprintf(stderr, "handshake %d failed\n", i);
			return 1;
		}
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		SSL_free(ssl);
		close(fd);
	}
	SSL_CTX_free(sc);
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	__u16 version = TLS_1_3_VERSION;
	int n, key = 0, vi = 5;

	if (argc < 5 || inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
		goto usage;
	sa.sin_port = htons(atoi(argv[3]));
	n = atoi(argv[4]);
	if (!strcmp(argv[1], "armed")) {
		if (argc < 6)
			goto usage;
		key = atoi(argv[5]);
		vi = 6;
	}
	if (argc > vi && !strcmp(argv[vi], "12"))
		version = TLS_1_2_VERSION;
	if (n < 2)
		goto usage;

	if (!strcmp(argv[1], "server"))
		return serve(&sa, n);
	if (!strcmp(argv[1], "client"))
		return setups(&sa, n, version);
	if (!strcmp(argv[1], "armed"))
		return accepts(&sa, n, key, version);
	if (!strcmp(argv[1], "hsclient"))
		return handshakes(&sa, n, version);
usage:
	fprintf(stderr,
		"tls_setup server|client|hsclient ADDR PORT N [12|13]\n"
		"tls_setup armed ADDR PORT N KEY [12|13]   (N >= 2)\n");
	return 2;
}
