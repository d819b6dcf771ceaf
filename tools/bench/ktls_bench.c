// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls_bench: throughput of whichever kTLS provider owns the TCP ULP "tls"
 * (ktls_hs.ko or the in-tree tls.ko), over a loopback TCP pair.
 *
 * Keys are fixed and set straight through SOL_TLS, so no handshake and no
 * userspace crypto is timed.  Each TX case encrypts on one socket and a
 * plain socket drains the ciphertext; the RX case replays a ciphertext
 * stream captured from the provider's own TX through a plain socket into a
 * kTLS receiver.  The clock stops when the far side has everything, so a
 * provider cannot look fast by leaving data queued.
 *
 * One line per measurement on stdout, for tools/bench/run:
 *	result <suite> <case> <bytes> <seconds> <MB/s>
 *	error <suite> <case> <reason>
 * Exit status 1 if any case failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/tls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#define MB (1024 * 1024)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A stuck provider must fail the case, not hang the bench. */
#define IO_TIMEOUT_S 120

struct suite {
	const char *name;
	__u16 version;
	__u16 cipher;
};

static const struct suite suites[] = {
	{ "tls13-aes-gcm-128", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128 },
	{ "tls13-chacha20-poly1305", TLS_1_3_VERSION, TLS_CIPHER_CHACHA20_POLY1305 },
	{ "tls12-aes-gcm-128", TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128 },
	{ "tls12-chacha20-poly1305", TLS_1_2_VERSION, TLS_CIPHER_CHACHA20_POLY1305 },
};

union crypto_info {
	struct tls_crypto_info info;
	struct tls12_crypto_info_aes_gcm_128 gcm128;
	struct tls12_crypto_info_chacha20_poly1305 chacha;
};

/* Byte counts are multiplied by -s; each case runs -r times. */
static double scale = 1.0;
static int repeats = 1;
static const char *tmpdir = "/tmp";
static const char *only_case;	/* -c: run just this case */
static int failures;

static unsigned char *pattern;	/* PATTERN_LEN bytes, repeated as plaintext */
#define PATTERN_LEN (64 * 1024)

static void report_error(const struct suite *s, const char *tcase,
			 const char *fmt, ...)
{
	va_list ap;

	printf("error %s %s ", s->name, tcase);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failures++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t scaled(size_t mb)
{
	size_t n = (size_t)(mb * scale * MB);

	return n < 64 * 1024 ? 64 * 1024 : n;
}

static int set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = IO_TIMEOUT_S };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -1;
	return 0;
}

/* A connected loopback pair: fds[0] the client, fds[1] the accepted end. */
static int tcp_pair(int fds[2])
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int lfd, c = -1, a = -1;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		return -1;
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&addr, &len))
		goto err_listen;
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0)
		goto err_listen;
	if (connect(c, (struct sockaddr *)&addr, sizeof(addr)))
		goto err_client;
	a = accept(lfd, NULL, NULL);
	if (a < 0)
		goto err_client;
	if (set_timeouts(c) || set_timeouts(a))
		goto err_accepted;
	close(lfd);
	fds[0] = c;
	fds[1] = a;
	return 0;

err_accepted:
	close(a);
err_client:
	close(c);
err_listen:
	close(lfd);
	return -1;
}

static void close_pair(int fds[2])
{
	close(fds[0]);
	close(fds[1]);
}

/* The same fixed key for every socket, so a captured TX stream decrypts. */
static socklen_t fill_crypto_info(const struct suite *s, union crypto_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->info.version = s->version;
	ci->info.cipher_type = s->cipher;
	switch (s->cipher) {
	case TLS_CIPHER_AES_GCM_128:
		memset(ci->gcm128.key, 0x5a, sizeof(ci->gcm128.key));
		memset(ci->gcm128.iv, 0x11, sizeof(ci->gcm128.iv));
		memset(ci->gcm128.salt, 0x22, sizeof(ci->gcm128.salt));
		return sizeof(ci->gcm128);
	case TLS_CIPHER_CHACHA20_POLY1305:
		memset(ci->chacha.key, 0x5a, sizeof(ci->chacha.key));
		memset(ci->chacha.iv, 0x11, sizeof(ci->chacha.iv));
		return sizeof(ci->chacha);
	}
	return 0;
}

/* Attaches the ULP and installs the key for one direction (TLS_TX/TLS_RX). */
static const char *ktls_setup(int fd, const struct suite *s, int dir)
{
	union crypto_info ci;
	socklen_t len = fill_crypto_info(s, &ci);

	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls")))
		return "setsockopt(TCP_ULP, \"tls\")";
	if (setsockopt(fd, SOL_TLS, dir, &ci, len))
		return dir == TLS_TX ? "setsockopt(SOL_TLS, TLS_TX)" :
				       "setsockopt(SOL_TLS, TLS_RX)";
	return NULL;
}

/* Counts what arrives on a plain socket until EOF; keeps it if asked. */
struct drain {
	int fd;
	unsigned char *keep;	/* NULL: discard */
	size_t keep_cap;
	size_t got;
	int err;
};

static void *drain_thread(void *arg)
{
	struct drain *d = arg;
	static unsigned char buf[256 * 1024];
	ssize_t n;

	for (;;) {
		n = recv(d->fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		if (d->keep) {
			if (d->got + n > d->keep_cap) {
				d->err = ENOSPC;
				return NULL;
			}
			memcpy(d->keep + d->got, buf, n);
		}
		d->got += n;
	}
	d->err = n < 0 ? errno : 0;
	return NULL;
}

enum tx_kind { TX_SEND, TX_SENDFILE };

struct tx_case {
	const char *name;
	enum tx_kind kind;
	size_t chunk;		/* bytes per send() */
	size_t mb;		/* unscaled total */
};

/* Sizes in MB at scale 1: what a loaded 2-core host gets through under TCG in a few s. */
#define RX_MB 16
#define SENDFILE_MB 64
static const struct tx_case tx_cases[] = {
	{ "send-1k", TX_SEND, 1024, 4 },
	{ "send-16k", TX_SEND, 16384, 16 },
	{ "sendfile", TX_SENDFILE, 0, SENDFILE_MB },
};

static int send_all(int fd, size_t total, size_t chunk)
{
	size_t off = 0, len;
	ssize_t n;

	while (off < total) {
		len = total - off < chunk ? total - off : chunk;
		n = send(fd, pattern + off % PATTERN_LEN, len, MSG_NOSIGNAL);
		if (n < 0)
			return -1;
		off += n;
	}
	return 0;
}

static int sendfile_all(int sock, int file, size_t total)
{
	off_t off = 0;
	ssize_t n;

	while ((size_t)off < total) {
		n = sendfile(sock, file, &off, total - off);
		if (n <= 0)
			return -1;
	}
	return 0;
}

/*
 * One TX measurement: encrypt total bytes on a kTLS socket while a thread
 * drains the ciphertext; the time ends at the drain's EOF.  keep, if not
 * NULL, receives the ciphertext (the RX case's input).
 */
static int run_tx(const struct suite *s, const struct tx_case *tc, int file,
		  size_t total, unsigned char *keep, size_t keep_cap,
		  size_t *wire, double *secs)
{
	struct drain d = { .keep = keep, .keep_cap = keep_cap };
	const char *what;
	pthread_t th;
	int fds[2], ret;
	double t0;

	if (tcp_pair(fds)) {
		report_error(s, tc->name, "loopback pair: %s", strerror(errno));
		return -1;
	}
	what = ktls_setup(fds[0], s, TLS_TX);
	if (what) {
		report_error(s, tc->name, "%s: %s", what, strerror(errno));
		close_pair(fds);
		return -1;
	}
	d.fd = fds[1];
	if (pthread_create(&th, NULL, drain_thread, &d)) {
		report_error(s, tc->name, "pthread_create");
		close_pair(fds);
		return -1;
	}
	t0 = now();
	ret = tc->kind == TX_SEND ? send_all(fds[0], total, tc->chunk) :
				     sendfile_all(fds[0], file, total);
	if (ret)
		report_error(s, tc->name, "%s: %s",
			     tc->kind == TX_SEND ? "send" : "sendfile", strerror(errno));
	shutdown(fds[0], SHUT_WR);
	pthread_join(th, NULL);
	*secs = now() - t0;
	close_pair(fds);
	if (ret)
		return -1;
	if (d.err) {
		report_error(s, tc->name, "peer recv: %s", strerror(d.err));
		return -1;
	}
	/* At least one record header and tag per 16 KB of plaintext. */
	if (d.got <= total) {
		report_error(s, tc->name, "peer got %zu bytes for %zu of plaintext",
			     d.got, total);
		return -1;
	}
	*wire = d.got;
	return 0;
}

/* Whether buf holds the plaintext stream's bytes from offset off on. */
static int matches_pattern(const unsigned char *buf, size_t len, size_t off)
{
	size_t at, n;

	while (len) {
		at = off % PATTERN_LEN;
		n = len < PATTERN_LEN - at ? len : PATTERN_LEN - at;
		if (memcmp(buf, pattern + at, n))
			return 0;
		buf += n;
		off += n;
		len -= n;
	}
	return 1;
}

struct replay {
	int fd;
	const unsigned char *buf;
	size_t len;
	int err;
};

static void *replay_thread(void *arg)
{
	struct replay *r = arg;
	size_t off = 0;
	ssize_t n;

	while (off < r->len) {
		n = send(r->fd, r->buf + off, r->len - off, MSG_NOSIGNAL);
		if (n < 0) {
			r->err = errno;
			break;
		}
		off += n;
	}
	shutdown(r->fd, SHUT_WR);
	return NULL;
}

/*
 * One RX measurement: a plain socket replays the captured records into a
 * kTLS receiver, which must give back exactly the plaintext.
 */
static int run_rx(const struct suite *s, const unsigned char *wire, size_t wire_len,
		  size_t total, double *secs)
{
	static unsigned char buf[256 * 1024];
	struct replay r = { .buf = wire, .len = wire_len };
	size_t got = 0, bad = 0;
	const char *what;
	pthread_t th;
	int fds[2], err = 0;
	ssize_t n;
	double t0;

	if (tcp_pair(fds)) {
		report_error(s, "recv", "loopback pair: %s", strerror(errno));
		return -1;
	}
	what = ktls_setup(fds[1], s, TLS_RX);
	if (what) {
		report_error(s, "recv", "%s: %s", what, strerror(errno));
		close_pair(fds);
		return -1;
	}
	r.fd = fds[0];
	if (pthread_create(&th, NULL, replay_thread, &r)) {
		report_error(s, "recv", "pthread_create");
		close_pair(fds);
		return -1;
	}
	t0 = now();
	for (;;) {
		n = recv(fds[1], buf, sizeof(buf), 0);
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		if (got + n > total || !matches_pattern(buf, n, got))
			bad++;
		got += n;
	}
	*secs = now() - t0;
	/* A receiver that failed must not leave the replay blocked in send(). */
	close(fds[1]);
	pthread_join(th, NULL);
	close(fds[0]);
	if (err || r.err) {
		report_error(s, "recv", "%s: %s", err ? "recv" : "replay send",
			     strerror(err ? err : r.err));
		return -1;
	}
	if (got != total || bad) {
		report_error(s, "recv", "got %zu of %zu bytes, %zu reads not matching",
			     got, total, bad);
		return -1;
	}
	return 0;
}

static void report(const struct suite *s, const char *tcase, size_t bytes,
		   double *secs, int n)
{
	double best = secs[0];
	int i;

	/* The fastest run: slower ones measure other load on the host. */
	for (i = 1; i < n; i++)
		if (secs[i] < best)
			best = secs[i];
	printf("result %s %s %zu %.6f %.2f\n", s->name, tcase, bytes, best,
	       bytes / best / MB);
	fflush(stdout);
}

static int make_file(size_t total)
{
	char path[4096];
	size_t off;
	int fd;

	snprintf(path, sizeof(path), "%s/ktls_bench.XXXXXX", tmpdir);
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	for (off = 0; off < total; off += PATTERN_LEN)
		if (write(fd, pattern, PATTERN_LEN) != PATTERN_LEN) {
			close(fd);
			return -1;
		}
	return fd;
}

static int wanted(const char *tcase)
{
	return !only_case || !strcmp(only_case, tcase);
}

static void bench_suite(const struct suite *s, int file, size_t file_len)
{
	size_t rx_total = scaled(RX_MB), wire_cap, wire_len = 0, total, wire;
	const struct tx_case rx_capture = { "recv", TX_SEND, 16384, RX_MB };
	unsigned char *wire_buf;
	double secs[16];
	unsigned int i;
	int r, ok;

	for (i = 0; i < ARRAY_SIZE(tx_cases); i++) {
		const struct tx_case *tc = &tx_cases[i];

		if (!wanted(tc->name))
			continue;
		total = tc->kind == TX_SENDFILE ? file_len : scaled(tc->mb);
		ok = 1;
		for (r = 0; r < repeats && ok; r++)
			ok = !run_tx(s, tc, file, total, NULL, 0, &wire, &secs[r]);
		if (ok)
			report(s, tc->name, total, secs, repeats);
	}

	if (!wanted("recv"))
		return;
	/* Records carry at most 16 KB plus a small header and tag. */
	wire_cap = rx_total + (rx_total / 16384 + 1) * 64;
	wire_buf = malloc(wire_cap);
	if (!wire_buf) {
		report_error(s, "recv", "no memory for %zu bytes", wire_cap);
		return;
	}
	if (run_tx(s, &rx_capture, -1, rx_total, wire_buf, wire_cap, &wire_len,
		   &secs[0]))
		goto out;
	ok = 1;
	for (r = 0; r < repeats && ok; r++)
		ok = !run_rx(s, wire_buf, wire_len, rx_total, &secs[r]);
	if (ok)
		report(s, "recv", rx_total, secs, repeats);
out:
	free(wire_buf);
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s scale] [-r repeats] [-d tmpdir] [-c case] [suite...]\n"
		"  -s  multiply the byte counts (default 1: 4 MB of 1 KB sends,\n"
		"      16 MB of 16 KB sends, a 64 MB sendfile, 16 MB received)\n"
		"  -r  runs per case, the fastest is reported (default 1, max 16)\n"
		"  -d  where the sendfile source file is made (default /tmp)\n"
		"  -c  run one case: send-1k, send-16k, sendfile or recv\n"
		"suites (default: all):", prog);
	for (unsigned int i = 0; i < ARRAY_SIZE(suites); i++)
		fprintf(stderr, " %s", suites[i].name);
	fprintf(stderr, "\n");
	exit(2);
}

int main(int argc, char **argv)
{
	size_t file_len;
	unsigned int i;
	int opt, file, any;

	while ((opt = getopt(argc, argv, "s:r:d:c:h")) != -1) {
		switch (opt) {
		case 's':
			scale = atof(optarg);
			if (scale <= 0)
				print_usage(argv[0]);
			break;
		case 'r':
			repeats = atoi(optarg);
			if (repeats < 1 || repeats > 16)
				print_usage(argv[0]);
			break;
		case 'd':
			tmpdir = optarg;
			break;
		case 'c':
			only_case = optarg;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	for (i = optind; i < (unsigned int)argc; i++) {
		unsigned int j;

		for (j = 0; j < ARRAY_SIZE(suites); j++)
			if (!strcmp(argv[i], suites[j].name))
				break;
		if (j == ARRAY_SIZE(suites))
			print_usage(argv[0]);
	}

	if (only_case && strcmp(only_case, "recv")) {
		for (i = 0; i < ARRAY_SIZE(tx_cases); i++)
			if (!strcmp(only_case, tx_cases[i].name))
				break;
		if (i == ARRAY_SIZE(tx_cases))
			print_usage(argv[0]);
	}

	/* A peer that fails closes early: see it as EPIPE, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	pattern = malloc(PATTERN_LEN);
	if (!pattern)
		return 1;
	srandom(1);
	for (i = 0; i < PATTERN_LEN; i++)
		pattern[i] = random();

	file_len = scaled(SENDFILE_MB) / PATTERN_LEN * PATTERN_LEN;
	file = wanted("sendfile") ? make_file(file_len) : open("/dev/null", O_RDONLY);
	if (file < 0) {
		fprintf(stderr, "ktls_bench: cannot make %zu-byte file in %s: %s\n",
			file_len, tmpdir, strerror(errno));
		return 1;
	}

	for (i = 0; i < ARRAY_SIZE(suites); i++) {
		any = optind == argc;
		for (int j = optind; j < argc; j++)
			if (!strcmp(argv[j], suites[i].name))
				any = 1;
		if (any)
			bench_suite(&suites[i], file, file_len);
	}
	close(file);
	free(pattern);
	return failures ? 1 : 0;
}
