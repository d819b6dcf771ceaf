// SPDX-License-Identifier: GPL-2.0-only
/*
 * An echo server on an armed listener that serves in userspace, with
 * OpenSSL, what the kernel hands over: for each connection accepted it
 * reads KTLS_HS_FALLEN_BACK; a socket the kernel served is read and
 * written as it comes (kTLS), a handed-over one has its ClientHello
 * read from the socket and fed, before anything else, to an SSL object
 * through a BIO of ours that gives those bytes first and the socket's
 * after.  Each connection gets one line back, "echo <line>", and a line
 * on stdout saying how it was served.  Driven by hs_fallback.sh.
 *
 *	hs_fallback_srv --port P --key SERIAL --cert PEM --pkey KEY
 *			[--fallback] [--sni-policy N] [--timeout MS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "../../../../../include/uapi/linux/ktls_hs.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#define SUITES "TLS_AES_128_GCM_SHA256:TLS_AES_128_CCM_SHA256:TLS_AES_256_GCM_SHA384"

/* The BIO: the bytes read ahead first, then the socket. */
struct prefix_bio {
	int fd;
	unsigned char buf[16384 + 5];
	size_t len, off;
};

static int prefix_read(BIO *b, char *out, int outl)
{
	struct prefix_bio *p = BIO_get_data(b);
	ssize_t n;

	if (outl <= 0)
		return 0;
	if (p->off < p->len) {
		n = p->len - p->off < (size_t)outl ? p->len - p->off : (size_t)outl;
		memcpy(out, p->buf + p->off, n);
		p->off += n;
		return n;
	}
	n = read(p->fd, out, outl);
	return n < 0 ? -1 : n;
}

static int prefix_write(BIO *b, const char *in, int inl)
{
	struct prefix_bio *p = BIO_get_data(b);
	ssize_t n = write(p->fd, in, inl);

	return n < 0 ? -1 : n;
}

static long prefix_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	(void)b, (void)num, (void)ptr;
	return cmd == BIO_CTRL_FLUSH ? 1 : 0;
}

static BIO_METHOD *prefix_method(void)
{
	static BIO_METHOD *m;

	if (!m) {
		m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK,
				 "ktls_hs prefix");
		if (!m || !BIO_meth_set_read(m, prefix_read) ||
		    !BIO_meth_set_write(m, prefix_write) ||
		    !BIO_meth_set_ctrl(m, prefix_ctrl))
			return NULL;
	}
	return m;
}

/*
 * The ClientHello as the kernel left it: whole records, read until the
 * handshake message they carry is complete.  Returns 0 or -1.
 */
static int read_hello(int fd, struct prefix_bio *p)
{
	size_t need = 5, rec = 0, body, msg = 0, msg_len = 0, i;
	unsigned char hdr[4];
	ssize_t n;

	p->len = 0;
	for (;;) {
		/* A record header: the hello comes in handshake records. */
		while (p->len < need) {
			n = read(fd, p->buf + p->len, need - p->len);
			if (n <= 0)
				return -1;
			p->len += n;
		}
		body = p->buf[rec + 3] << 8 | p->buf[rec + 4];
		if (p->buf[rec] != 0x16 || !body ||
		    rec + 5 + body > sizeof(p->buf))
			return -1;
		need = rec + 5 + body;
		while (p->len < need) {
			n = read(fd, p->buf + p->len, need - p->len);
			if (n <= 0)
				return -1;
			p->len += n;
		}
		/* The message header may be split over records too. */
		for (i = 0; i < body && msg < 4; i++)
			hdr[msg++] = p->buf[rec + 5 + i];
		msg += body - i;
		if (!msg_len && msg >= 4) {
			if (hdr[0] != 1)
				return -1;
			msg_len = 4 + (hdr[1] << 16 | hdr[2] << 8 | hdr[3]);
		}
		if (msg_len && msg >= msg_len)
			return 0;
		rec = need;
		need = rec + 5;
	}
}

static int line(char *buf, size_t cap, int (*rd)(void *, char *, int),
		void *arg)
{
	size_t len = 0;
	int n;

	while (len + 1 < cap) {
		n = rd(arg, buf + len, 1);
		if (n <= 0)
			return -1;
		if (buf[len++] == '\n')
			break;
	}
	buf[len] = '\0';
	return len;
}

static int ssl_rd(void *ssl, char *b, int n)
{
	return SSL_read(ssl, b, n);
}

static int fd_rd(void *fd, char *b, int n)
{
	return read(*(int *)fd, b, n);
}

static void serve_userspace(SSL_CTX *ctx, int fd)
{
	static struct prefix_bio p;
	char buf[512], out[600];
	SSL *ssl = NULL;
	BIO *bio;
	int n;

	p.fd = fd;
	p.off = 0;
	if (read_hello(fd, &p)) {
		printf("conn fallback bad-hello\n");
		return;
	}
	bio = BIO_new(prefix_method());
	if (!bio)
		goto err;
	BIO_set_data(bio, &p);
	BIO_set_init(bio, 1);
	ssl = SSL_new(ctx);
	if (!ssl) {
		BIO_free(bio);
		goto err;
	}
	SSL_set_bio(ssl, bio, bio);
	if (SSL_accept(ssl) != 1)
		goto err;
	n = line(buf, sizeof(buf), ssl_rd, ssl);
	if (n < 0)
		goto err;
	n = snprintf(out, sizeof(out), "echo %s", buf);
	if (SSL_write(ssl, out, n) != n)
		goto err;
	printf("conn fallback hello=%zu version=%s cipher=%s group=%s sni=%s\n",
	       p.len, SSL_get_version(ssl), SSL_get_cipher_name(ssl),
	       SSL_group_to_name(ssl, SSL_get_negotiated_group(ssl)) ?: "-",
	       SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) ?: "-");
	SSL_shutdown(ssl);
	SSL_free(ssl);
	return;
err:
	printf("conn fallback failed\n");
	ERR_print_errors_fp(stdout);
	SSL_free(ssl);
}

static void serve_kernel(int fd)
{
	struct ktls_hs_session_info info;
	socklen_t len = sizeof(info);
	char buf[512], out[600];
	int n;

	if (getsockopt(fd, SOL_TLS, KTLS_HS_SESSION, &info, &len)) {
		printf("conn kernel no-session %s\n", strerror(errno));
		return;
	}
	n = line(buf, sizeof(buf), fd_rd, &fd);
	if (n < 0) {
		printf("conn kernel read-failed\n");
		return;
	}
	n = snprintf(out, sizeof(out), "echo %s", buf);
	if (write(fd, out, n) != n) {
		printf("conn kernel write-failed\n");
		return;
	}
	printf("conn kernel suite=0x%04x group=0x%04x sni=%s\n",
	       info.cipher_suite, info.group,
	       info.server_name[0] ? info.server_name : "-");
}

static int set_u32(int fd, int opt, unsigned int v)
{
	return setsockopt(fd, SOL_TLS, opt, &v, sizeof(v));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "key", required_argument, NULL, 'k' },
		{ "cert", required_argument, NULL, 'c' },
		{ "pkey", required_argument, NULL, 'K' },
		{ "fallback", no_argument, NULL, 'f' },
		{ "sni-policy", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{}
	};
	const char *cert = NULL, *pkey = NULL;
	int port = 0, key = 0, fallback = 0, sni = 0, timeout = 0;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int lfd, fd, c, one = 1, fb;
	SSL_CONF_CTX *cctx;
	socklen_t len;
	SSL_CTX *ctx;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			port = atoi(optarg);
			break;
		case 'k':
			key = atoi(optarg);
			break;
		case 'c':
			cert = optarg;
			break;
		case 'K':
			pkey = optarg;
			break;
		case 'f':
			fallback = 1;
			break;
		case 's':
			sni = atoi(optarg);
			break;
		case 't':
			timeout = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (!port || key <= 0 || !cert || !pkey) {
		fprintf(stderr, "usage: see the top of hs_fallback_srv.c\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);

	/*
	 * Configured as a configuration file would: what the kernel lacks
	 * is what userspace must be able to do.
	 */
	ctx = SSL_CTX_new(TLS_server_method());
	cctx = SSL_CONF_CTX_new();
	if (!ctx || !cctx) {
		ERR_print_errors_fp(stderr);
		return 1;
	}
	SSL_CONF_CTX_set_flags(cctx, SSL_CONF_FLAG_FILE | SSL_CONF_FLAG_SERVER |
			       SSL_CONF_FLAG_CERTIFICATE);
	SSL_CONF_CTX_set_ssl_ctx(cctx, ctx);
	if (SSL_CONF_cmd(cctx, "Certificate", cert) != 2 ||
	    SSL_CONF_cmd(cctx, "PrivateKey", pkey) != 2 ||
	    SSL_CONF_cmd(cctx, "MinProtocol", "TLSv1.2") != 2 ||
	    SSL_CONF_cmd(cctx, "Ciphersuites", SUITES) != 2 ||
	    SSL_CONF_cmd(cctx, "Groups", "X25519:P-256:ffdhe2048") != 2 ||
	    !SSL_CONF_CTX_finish(cctx)) {
		ERR_print_errors_fp(stderr);
		return 1;
	}
	SSL_CONF_CTX_free(cctx);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons(port);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 16) ||
	    setsockopt(lfd, IPPROTO_TCP, TCP_ULP, "ktls_hs", sizeof("ktls_hs")) ||
	    set_u32(lfd, KTLS_HS_IDENTITY, key) ||
	    set_u32(lfd, KTLS_HS_FALLBACK, fallback) ||
	    set_u32(lfd, KTLS_HS_SNI_POLICY, sni) ||
	    (timeout && set_u32(lfd, KTLS_HS_TIMEOUT, timeout))) {
		perror("armed listener");
		return 1;
	}
	printf("listening on %d\n", port);

	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			perror("accept");
			return 1;
		}
		len = sizeof(fb);
		if (getsockopt(fd, SOL_TLS, KTLS_HS_FALLEN_BACK, &fb, &len))
			printf("conn getsockopt %s\n", strerror(errno));
		else if (fb)
			serve_userspace(ctx, fd);
		else
			serve_kernel(fd);
		close(fd);
	}
}
