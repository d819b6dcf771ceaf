// SPDX-License-Identifier: GPL-2.0-only
/*
 * How long setsockopt(SOL_TLS, TLS_TX) takes: the syscall a kTLS sender
 * pays once per connection, which a driver's slow tls_dev_add() must not
 * lengthen (issue 7).  "server" accepts connections and drains them;
 * "client" connects N times, attaches the "tls" ULP, times TLS_TX, sends
 * one record and closes.  Prints the median, 90th percentile and maximum
 * of the times in microseconds, the first connection (a warm-up) left
 * out.  tools/bench/offload_setup runs it over the simulated offload NIC.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/tls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_TLS
#define SOL_TLS 282
#endif

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

static int serve(struct sockaddr_in *sa, int n)
{
	int lfd, fd, one = 1, i;
	char buf[65536];

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (void *)sa, sizeof(*sa)) || listen(lfd, 64)) {
		perror("listen");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
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

/* One connection: the time TLS_TX took, or a negative value on error. */
static double one_setup(struct sockaddr_in *sa, __u16 version)
{
	struct tls12_crypto_info_aes_gcm_128 ci;
	char rec[1000];
	double t0, t;
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
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls"))) {
		perror("TCP_ULP");
		close(fd);
		return -1;
	}
	memset(&ci, 0x5a, sizeof(ci));
	ci.info.version = version;
	ci.info.cipher_type = TLS_CIPHER_AES_GCM_128;
	t0 = now_us();
	if (setsockopt(fd, SOL_TLS, TLS_TX, &ci, sizeof(ci))) {
		perror("TLS_TX");
		close(fd);
		return -1;
	}
	t = now_us() - t0;
	memset(rec, 'x', sizeof(rec));
	if (send(fd, rec, sizeof(rec), 0) != sizeof(rec))
		t = -1;
	close(fd);
	return t;
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	__u16 version = TLS_1_3_VERSION;
	double *us;
	int n, i;

	if (argc < 5 || inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1) {
		fprintf(stderr, "tls_setup server|client ADDR PORT N [12|13]\n");
		return 2;
	}
	sa.sin_port = htons(atoi(argv[3]));
	n = atoi(argv[4]);
	if (argc > 5 && !strcmp(argv[5], "12"))
		version = TLS_1_2_VERSION;
	if (n <= 0)
		return 2;
	if (!strcmp(argv[1], "server"))
		return serve(&sa, n);

	us = calloc(n, sizeof(*us));
	if (!us)
		return 1;
	/*
	 * The first TLS_TX after the module loaded builds the AEAD (and the
	 * crypto manager tests it): not what a connection pays.  The server
	 * counts it among its N.
	 */
	if (one_setup(&sa, version) < 0)
		return 1;
	for (i = 0; i < n - 1; i++) {
		us[i] = one_setup(&sa, version);
		if (us[i] < 0)
			return 1;
	}
	n--;
	if (!n)
		return 0;
	qsort(us, n, sizeof(*us), cmp_double);
	printf("setsockopt(TLS_TX) us: median %.0f p90 %.0f max %.0f (n=%d)\n",
	       us[n / 2], us[n * 9 / 10], us[n - 1], n);
	return 0;
}
