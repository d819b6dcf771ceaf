// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hand-over of connections the kernel cannot serve, and the policy
 * for unknown server names, with hand-made ClientHellos: the options and
 * their errnos; a hello the kernel lacks what for (only TLS 1.2, only a
 * suite or a group we do not have, an unknown name under
 * KTLS_HS_SNI_FALLBACK) reaching accept() untouched, split over records
 * and segments, with what followed it, byte for byte, the server having
 * sent nothing; malformed hellos still getting their alert; unknown
 * names refused with unrecognized_name or served with the first
 * identity.  Run by hs_fallback.sh with KTLS_HS_KEY, an identity for
 * www.example.test.  The OpenSSL side is hs_fallback_srv.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/tls.h>

#include "kselftest_harness.h"
#include "../../../../../include/uapi/linux/ktls_hs.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#define SUITE_AES_128_GCM	0x1301
#define SUITE_AES_128_CCM	0x1304
#define SUITE_RSA_AES_128_CBC	0x002f	/* TLS 1.2, RSA key exchange */
#define GROUP_X25519		0x001d
#define GROUP_FFDHE2048		0x0100
#define ALERT_DECODE_ERROR	50
#define ALERT_UNRECOGNIZED_NAME	112

static int env_serial(const char *name)
{
	const char *v = getenv(name);

	return v ? atoi(v) : -1;
}

static int set_u32(int fd, int opt, unsigned int v)
{
	return setsockopt(fd, SOL_TLS, opt, &v, sizeof(v));
}

static int get_u32(int fd, int opt, unsigned int *v)
{
	socklen_t len = sizeof(*v);

	return getsockopt(fd, SOL_TLS, opt, v, &len);
}

static int ulp(int fd, const char *name)
{
	return setsockopt(fd, IPPROTO_TCP, TCP_ULP, name, strlen(name) + 1);
}

static int listener(struct sockaddr_in *sa)
{
	socklen_t len = sizeof(*sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)sa, len) || listen(fd, 8) ||
	    getsockname(fd, (struct sockaddr *)sa, &len))
		return -1;
	return fd;
}

static int connect_to(const struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;

	if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return -1;
	return fd;
}

/* accept() within @ms, or -1 */
static int accept_within(int lfd, int ms)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return -1;
	return accept(lfd, NULL, NULL);
}

/* Read exactly @len bytes within a few seconds. */
static int read_all(int fd, uint8_t *buf, size_t len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (poll(&p, 1, 5000) != 1)
			return -1;
		n = read(fd, buf + got, len - got);
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

struct hello {
	int tls13;		/* supported_versions 1.3 and a key_share */
	uint16_t suite;
	uint16_t group;
	const char *sni;	/* NULL: no server_name */
	int malformed;		/* an extension longer than what is left */
};

static uint8_t *put16(uint8_t *p, unsigned int v)
{
	p[0] = v >> 8;
	p[1] = v;
	return p + 2;
}

/* A ClientHello message (no record header); returns its length. */
static size_t build_hello(uint8_t *out, const struct hello *h)
{
	uint8_t *p = out + 4, *exts, *e;
	size_t n, i;

	p = put16(p, 0x0303);
	for (i = 0; i < 32; i++)
		*p++ = rand();
	*p++ = 32;			/* a legacy session id */
	for (i = 0; i < 32; i++)
		*p++ = rand();
	p = put16(p, 2);
	p = put16(p, h->suite);
	*p++ = 1;
	*p++ = 0;
	exts = p;
	p += 2;
	if (h->sni) {
		n = strlen(h->sni);
		p = put16(p, 0x0000);
		p = put16(p, n + 5);
		p = put16(p, n + 3);
		*p++ = 0;
		p = put16(p, n);
		memcpy(p, h->sni, n);
		p += n;
	}
	p = put16(p, 0x000a);		/* supported_groups */
	p = put16(p, 4);
	p = put16(p, 2);
	p = put16(p, h->group);
	p = put16(p, 0x000d);		/* signature_algorithms */
	p = put16(p, 4);
	p = put16(p, 2);
	p = put16(p, 0x0403);
	if (h->tls13) {
		p = put16(p, 0x002b);	/* supported_versions */
		p = put16(p, 3);
		*p++ = 2;
		p = put16(p, 0x0304);
		p = put16(p, 0x0033);	/* key_share */
		if (h->group == GROUP_X25519) {
			p = put16(p, 2 + 4 + 32);
			p = put16(p, 4 + 32);
			p = put16(p, GROUP_X25519);
			p = put16(p, 32);
			for (i = 0; i < 32; i++)
				*p++ = 9 + i;
		} else {
			/* No share: the group decides before any is needed. */
			p = put16(p, 2);
			p = put16(p, 0);
		}
	}
	if (h->malformed) {
		p = put16(p, 0x0015);	/* padding, claiming more than follows */
		p = put16(p, 200);
	}
	e = exts;
	put16(e, p - exts - 2);
	n = p - out;
	out[0] = 1;
	out[1] = (n - 4) >> 16;
	out[2] = (n - 4) >> 8;
	out[3] = n - 4;
	return n;
}

/*
 * Frame @msg into handshake records of at most @frag bytes; returns the
 * length of the stream.
 */
static size_t frame(uint8_t *out, const uint8_t *msg, size_t len, size_t frag)
{
	size_t off = 0, o = 0, n;

	while (off < len) {
		n = len - off < frag ? len - off : frag;
		out[o++] = 0x16;
		out[o++] = 3;
		out[o++] = 1;
		o = put16(out + o, n) - out;
		memcpy(out + o, msg + off, n);
		o += n;
		off += n;
	}
	return o;
}

/* Send @len bytes in pieces of @piece with a pause between: segments. */
static int send_slowly(int fd, const uint8_t *buf, size_t len, size_t piece)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	size_t off = 0, n;

	while (off < len) {
		n = len - off < piece ? len - off : piece;
		if (send(fd, buf + off, n, 0) != (ssize_t)n)
			return -1;
		off += n;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Whether the server sent nothing at all so far. */
static int nothing_received(int fd)
{
	uint8_t b;

	return recv(fd, &b, 1, MSG_DONTWAIT) == -1 && errno == EAGAIN;
}

/* The fatal alert the server sent, -1 if none came. */
static int alert_received(int fd)
{
	uint8_t rec[7];

	if (read_all(fd, rec, sizeof(rec)) || rec[0] != 0x15 || rec[4] != 2 ||
	    rec[5] != 2)
		return -1;
	return rec[6];
}

FIXTURE(fb)
{
	int lfd;
	struct sockaddr_in sa;
	int key;
};

FIXTURE_SETUP(fb)
{
	self->key = env_serial("KTLS_HS_KEY");
	ASSERT_GT(self->key, 0) TH_LOG("KTLS_HS_KEY not set: run hs_fallback.sh");
	self->lfd = listener(&self->sa);
	ASSERT_GE(self->lfd, 0);
	ASSERT_EQ(ulp(self->lfd, "ktls_hs"), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, self->key), 0);
}

FIXTURE_TEARDOWN(fb)
{
	close(self->lfd);
}

TEST_F(fb, options)
{
	unsigned int v;
	socklen_t len;
	short s16 = 1;
	int cfd, afd;

	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_FALLBACK, &v), 0);
	EXPECT_EQ(v, 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_SNI_POLICY, &v), 0);
	EXPECT_EQ(v, KTLS_HS_SNI_DEFAULT);

	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, 2), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_FALLBACK, &s16,
			     sizeof(s16)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_FALLBACK, NULL, 4), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_FALLBACK,
			     (void *)8, 4), -1);
	EXPECT_EQ(errno, EFAULT);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, 1), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_FALLBACK, &v), 0);
	EXPECT_EQ(v, 1);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, 0), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_FALLBACK, &v), 0);
	EXPECT_EQ(v, 0);
	len = 2;
	EXPECT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_FALLBACK, &v, &len), -1);
	EXPECT_EQ(errno, EINVAL);

	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, 3), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, -1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_SNI_POLICY, &s16,
			     sizeof(s16)), -1);
	EXPECT_EQ(errno, EINVAL);
	for (v = KTLS_HS_SNI_DEFAULT; v <= KTLS_HS_SNI_FALLBACK; v++) {
		unsigned int got;

		EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, v), 0);
		ASSERT_EQ(get_u32(self->lfd, KTLS_HS_SNI_POLICY, &got), 0);
		EXPECT_EQ(got, v);
	}

	/* KTLS_HS_FALLEN_BACK: read-only, about accepted sockets. */
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_FALLEN_BACK, 1), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	EXPECT_EQ(get_u32(self->lfd, KTLS_HS_FALLEN_BACK, &v), -1);
	EXPECT_EQ(errno, EINVAL);

	/* A socket the application keys itself was never handed over. */
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	EXPECT_EQ(ulp(cfd, "tls"), 0);
	ASSERT_EQ(get_u32(cfd, KTLS_HS_FALLEN_BACK, &v), 0);
	EXPECT_EQ(v, 0);
	len = 3;
	EXPECT_EQ(getsockopt(cfd, SOL_TLS, KTLS_HS_FALLEN_BACK, &v, &len), -1);
	EXPECT_EQ(errno, EINVAL);
	/* Nor is TCP_ULP a second time anything but TCP's EEXIST there. */
	EXPECT_EQ(ulp(cfd, "tls"), -1);
	EXPECT_EQ(errno, EEXIST);
	/* Settings are fixed once a per-socket handshake started. */
	EXPECT_EQ(set_u32(cfd, KTLS_HS_IDENTITY, self->key), 0);
	EXPECT_EQ(setsockopt(cfd, SOL_TLS, KTLS_HS_START, NULL, 0), 0);
	EXPECT_EQ(set_u32(cfd, KTLS_HS_FALLBACK, 1), -1);
	EXPECT_EQ(errno, EISCONN);
	EXPECT_EQ(set_u32(cfd, KTLS_HS_SNI_POLICY, 1), -1);
	EXPECT_EQ(errno, EISCONN);
	close(cfd);
	/* The listener's child of that connection never completes. */
	afd = accept_within(self->lfd, 200);
	EXPECT_EQ(afd, -1);
}

/* What the kernel lacks, each handed over as sent. */
FIXTURE(handover)
{
	int lfd;
	struct sockaddr_in sa;
};

FIXTURE_VARIANT(handover)
{
	struct hello hello;
	int fallback;
	unsigned int sni_policy;
	size_t frag;		/* record size */
	size_t piece;		/* segment size */
};

FIXTURE_VARIANT_ADD(handover, tls12_only_split)
{
	.hello = { .tls13 = 0, .suite = SUITE_RSA_AES_128_CBC,
		   .group = GROUP_X25519, .sni = "www.example.test" },
	.fallback = 1, .frag = 16, .piece = 7,
};

FIXTURE_VARIANT_ADD(handover, ccm_only)
{
	.hello = { .tls13 = 1, .suite = SUITE_AES_128_CCM,
		   .group = GROUP_X25519, .sni = "www.example.test" },
	.fallback = 1, .frag = 16384, .piece = 16384,
};

FIXTURE_VARIANT_ADD(handover, ffdhe_only_records)
{
	.hello = { .tls13 = 1, .suite = SUITE_AES_128_GCM,
		   .group = GROUP_FFDHE2048 },
	.fallback = 1, .frag = 1, .piece = 4096,
};

FIXTURE_VARIANT_ADD(handover, unknown_name)
{
	.hello = { .tls13 = 1, .suite = SUITE_AES_128_GCM,
		   .group = GROUP_X25519, .sni = "nope.example.test" },
	.sni_policy = KTLS_HS_SNI_FALLBACK, .frag = 100, .piece = 50,
};

FIXTURE_SETUP(handover)
{
	int key = env_serial("KTLS_HS_KEY");

	ASSERT_GT(key, 0) TH_LOG("KTLS_HS_KEY not set: run hs_fallback.sh");
	self->lfd = listener(&self->sa);
	ASSERT_GE(self->lfd, 0);
	ASSERT_EQ(ulp(self->lfd, "ktls_hs"), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, key), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, variant->fallback), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, variant->sni_policy), 0);
}

FIXTURE_TEARDOWN(handover)
{
	close(self->lfd);
}

TEST_F(handover, bytes_unread)
{
	static const char after[] = "and then some application bytes";
	static uint8_t msg[4096], stream[32768], got[32768];
	struct ktls_hs_session_info info;
	char name[16] = "";
	size_t mlen, slen;
	unsigned int v;
	socklen_t len;
	int cfd, afd;

	mlen = build_hello(msg, &variant->hello);
	slen = frame(stream, msg, mlen, variant->frag);
	memcpy(stream + slen, after, sizeof(after));
	slen += sizeof(after);

	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(send_slowly(cfd, stream, slen, variant->piece), 0);
	afd = accept_within(self->lfd, 5000);
	ASSERT_GE(afd, 0);

	ASSERT_EQ(get_u32(afd, KTLS_HS_FALLEN_BACK, &v), 0);
	EXPECT_EQ(v, 1);
	len = sizeof(info);
	EXPECT_EQ(getsockopt(afd, SOL_TLS, KTLS_HS_SESSION, &info, &len), -1);
	EXPECT_EQ(errno, ENOENT);
	/* The server said nothing before handing over. */
	EXPECT_TRUE(nothing_received(cfd));

	/* Every byte, in order, then nothing more. */
	ASSERT_EQ(read_all(afd, got, slen), 0);
	EXPECT_EQ(memcmp(got, stream, slen), 0);
	EXPECT_TRUE(nothing_received(afd));

	/* Plain TCP both ways. */
	ASSERT_EQ(write(afd, "plain", 5), 5);
	ASSERT_EQ(read_all(cfd, got, 5), 0);
	EXPECT_EQ(memcmp(got, "plain", 5), 0);
	ASSERT_EQ(write(cfd, "more", 4), 4);
	ASSERT_EQ(read_all(afd, got, 4), 0);
	EXPECT_EQ(memcmp(got, "more", 4), 0);

	/* A TLS library may ask for the ULP to key kTLS itself. */
	EXPECT_EQ(ulp(afd, "tls"), 0);
	EXPECT_EQ(ulp(afd, "ktls_hs"), -1);
	EXPECT_EQ(errno, EEXIST);
	len = sizeof(name);
	ASSERT_EQ(getsockopt(afd, IPPROTO_TCP, TCP_ULP, name, &len), 0);
	EXPECT_STREQ(name, "tls");
	close(afd);
	close(cfd);
}

/* A per-socket handshake hands over the same way, to recv(). */
TEST(per_socket_handover)
{
	struct hello h = { .tls13 = 0, .suite = SUITE_RSA_AES_128_CBC,
			   .group = GROUP_X25519 };
	static uint8_t msg[4096], stream[8192], got[8192];
	int key = env_serial("KTLS_HS_KEY");
	struct sockaddr_in sa;
	int lfd, cfd, afd;
	unsigned int v;
	size_t slen;

	ASSERT_GT(key, 0);
	lfd = listener(&sa);
	ASSERT_GE(lfd, 0);
	cfd = connect_to(&sa);
	ASSERT_GE(cfd, 0);
	afd = accept(lfd, NULL, NULL);
	ASSERT_GE(afd, 0);
	ASSERT_EQ(ulp(afd, "tls"), 0);
	ASSERT_EQ(set_u32(afd, KTLS_HS_IDENTITY, key), 0);
	ASSERT_EQ(set_u32(afd, KTLS_HS_FALLBACK, 1), 0);
	ASSERT_EQ(setsockopt(afd, SOL_TLS, KTLS_HS_START, NULL, 0), 0);
	ASSERT_EQ(get_u32(afd, KTLS_HS_FALLEN_BACK, &v), 0);
	EXPECT_EQ(v, 0);

	slen = frame(stream, msg, build_hello(msg, &h), 50);
	memcpy(stream + slen, "tail", 4);
	slen += 4;
	ASSERT_EQ(send_slowly(cfd, stream, slen, 30), 0);
	/* recv() waits for the handshake, then gets the hello. */
	ASSERT_EQ(read_all(afd, got, slen), 0);
	EXPECT_EQ(memcmp(got, stream, slen), 0);
	ASSERT_EQ(get_u32(afd, KTLS_HS_FALLEN_BACK, &v), 0);
	EXPECT_EQ(v, 1);
	EXPECT_TRUE(nothing_received(cfd));
	close(afd);
	close(cfd);
	close(lfd);
}

/* What is not a hand-over: a malformed hello, refused names. */
TEST_F(fb, malformed_gets_alert)
{
	struct hello h = { .tls13 = 0, .suite = SUITE_RSA_AES_128_CBC,
			   .group = GROUP_X25519, .malformed = 1 };
	static uint8_t msg[4096], stream[8192];
	size_t slen;
	int cfd;

	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, 1), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, KTLS_HS_SNI_FALLBACK), 0);
	slen = frame(stream, msg, build_hello(msg, &h), 16384);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(send(cfd, stream, slen, 0), (ssize_t)slen);
	EXPECT_EQ(alert_received(cfd), ALERT_DECODE_ERROR);
	EXPECT_EQ(accept_within(self->lfd, 300), -1);
	close(cfd);
}

TEST_F(fb, unknown_name_rejected)
{
	struct hello h = { .tls13 = 1, .suite = SUITE_AES_128_GCM,
			   .group = GROUP_X25519, .sni = "nope.example.test" };
	static uint8_t msg[4096], stream[8192];
	size_t slen;
	int cfd;

	/* KTLS_HS_FALLBACK alone does not hand over unknown names. */
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, 1), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, KTLS_HS_SNI_REJECT), 0);
	slen = frame(stream, msg, build_hello(msg, &h), 16384);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(send(cfd, stream, slen, 0), (ssize_t)slen);
	EXPECT_EQ(alert_received(cfd), ALERT_UNRECOGNIZED_NAME);
	EXPECT_EQ(accept_within(self->lfd, 300), -1);
	close(cfd);
}

TEST_F(fb, unknown_name_default)
{
	struct hello h = { .tls13 = 1, .suite = SUITE_AES_128_GCM,
			   .group = GROUP_X25519, .sni = "nope.example.test" };
	static uint8_t msg[4096], stream[8192];
	uint8_t hdr[5];
	size_t slen;
	int cfd;

	/* The default: the first identity answers. */
	slen = frame(stream, msg, build_hello(msg, &h), 16384);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(send(cfd, stream, slen, 0), (ssize_t)slen);
	ASSERT_EQ(read_all(cfd, hdr, sizeof(hdr)), 0);
	EXPECT_EQ(hdr[0], 0x16);	/* a ServerHello, not an alert */
	close(cfd);
}

TEST_F(fb, known_name_served)
{
	struct hello h = { .tls13 = 1, .suite = SUITE_AES_128_GCM,
			   .group = GROUP_X25519, .sni = "www.example.test" };
	static uint8_t msg[4096], stream[8192];
	uint8_t hdr[5];
	size_t slen;
	int cfd;

	/* With every hand-over on, what the kernel serves it serves. */
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_FALLBACK, 1), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_SNI_POLICY, KTLS_HS_SNI_FALLBACK), 0);
	slen = frame(stream, msg, build_hello(msg, &h), 7);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(send_slowly(cfd, stream, slen, 11), 0);
	ASSERT_EQ(read_all(cfd, hdr, sizeof(hdr)), 0);
	EXPECT_EQ(hdr[0], 0x16);
	EXPECT_EQ(accept_within(self->lfd, 300), -1);
	close(cfd);
}

TEST_HARNESS_MAIN
