// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TCP ULP "tls" as userspace sees it before any key is installed:
 * where it attaches, where it refuses to, and that a socket carrying it
 * still behaves as TCP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

static void loopback(int family, struct sockaddr_storage *ss, socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = family;
	if (family == AF_INET6) {
		((struct sockaddr_in6 *)ss)->sin6_addr = in6addr_loopback;
		*len = sizeof(struct sockaddr_in6);
	} else {
		((struct sockaddr_in *)ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(struct sockaddr_in);
	}
}

/* A bound, listening socket on loopback; its address in *ss. */
static int listener(int family, struct sockaddr_storage *ss, socklen_t *len)
{
	int fd = socket(family, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	loopback(family, ss, len);
	if (bind(fd, (struct sockaddr *)ss, *len) ||
	    listen(fd, 4) ||
	    getsockname(fd, (struct sockaddr *)ss, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

FIXTURE(ulp)
{
	int cli, srv;
};

FIXTURE_VARIANT(ulp)
{
	int family;
};

FIXTURE_VARIANT_ADD(ulp, ipv4)
{
	.family = AF_INET,
};

FIXTURE_VARIANT_ADD(ulp, ipv6)
{
	.family = AF_INET6,
};

FIXTURE_SETUP(ulp)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int lsn;

	lsn = listener(variant->family, &ss, &len);
	ASSERT_GE(lsn, 0);
	self->cli = socket(variant->family, SOCK_STREAM, 0);
	ASSERT_GE(self->cli, 0);
	ASSERT_EQ(connect(self->cli, (struct sockaddr *)&ss, len), 0);
	self->srv = accept(lsn, NULL, NULL);
	ASSERT_GE(self->srv, 0);
	close(lsn);
}

FIXTURE_TEARDOWN(ulp)
{
	close(self->cli);
	close(self->srv);
}

TEST_F(ulp, attach_established)
{
	char name[16] = {};
	socklen_t len = sizeof(name);

	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), 0);
	ASSERT_EQ(getsockopt(self->cli, IPPROTO_TCP, TCP_ULP, name, &len), 0);
	EXPECT_STREQ(name, "tls");
}

TEST_F(ulp, attach_twice)
{
	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), 0);
	EXPECT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), -1);
	EXPECT_EQ(errno, EEXIST);
}

TEST_F(ulp, attach_listener)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int lsn;

	lsn = listener(variant->family, &ss, &len);
	ASSERT_GE(lsn, 0);
	EXPECT_EQ(setsockopt(lsn, IPPROTO_TCP, TCP_ULP, "tls", 3), -1);
	EXPECT_EQ(errno, ENOTCONN);
	close(lsn);
}

TEST_F(ulp, attach_unconnected)
{
	int fd = socket(variant->family, SOCK_STREAM, 0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", 3), -1);
	EXPECT_EQ(errno, ENOTCONN);
	close(fd);
}

TEST_F(ulp, sol_tls_unknown_option)
{
	int one = 1;
	socklen_t len = sizeof(one);

	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), 0);
	EXPECT_EQ(setsockopt(self->cli, SOL_TLS, 0x7fff, &one, sizeof(one)), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	EXPECT_EQ(getsockopt(self->cli, SOL_TLS, 0x7fff, &one, &len), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
}

/* SOL_TLS on a socket without the ULP is TCP's business: not ours. */
TEST_F(ulp, sol_tls_without_ulp)
{
	int one = 1;

	EXPECT_EQ(setsockopt(self->cli, SOL_TLS, 1, &one, sizeof(one)), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
}

TEST_F(ulp, tcp_options_pass_through)
{
	int val = 1;
	socklen_t len = sizeof(val);

	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), 0);
	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_NODELAY, &val, sizeof(val)), 0);
	val = 0;
	ASSERT_EQ(getsockopt(self->cli, IPPROTO_TCP, TCP_NODELAY, &val, &len), 0);
	EXPECT_EQ(val, 1);
}

/* Before keys are installed, bytes travel as plain TCP in both directions. */
TEST_F(ulp, plain_data_before_keys)
{
	char buf[64];

	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), 0);
	ASSERT_EQ(send(self->cli, "ping", 4, 0), 4);
	ASSERT_EQ(recv(self->srv, buf, sizeof(buf), MSG_WAITALL | MSG_DONTWAIT), 4);
	EXPECT_EQ(memcmp(buf, "ping", 4), 0);
	ASSERT_EQ(send(self->srv, "pong", 4, 0), 4);
	ASSERT_EQ(recv(self->cli, buf, 4, MSG_WAITALL), 4);
	EXPECT_EQ(memcmp(buf, "pong", 4), 0);
}

TEST_F(ulp, close_reaches_peer)
{
	char c;

	ASSERT_EQ(setsockopt(self->cli, IPPROTO_TCP, TCP_ULP, "tls", 3), 0);
	ASSERT_EQ(send(self->cli, "x", 1, 0), 1);
	ASSERT_EQ(close(self->cli), 0);
	self->cli = -1;
	EXPECT_EQ(recv(self->srv, &c, 1, 0), 1);
	EXPECT_EQ(recv(self->srv, &c, 1, 0), 0);
}

TEST(listed_in_available_ulps)
{
	char buf[256] = {};
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_ulp", "r");

	ASSERT_NE(f, NULL);
	ASSERT_NE(fgets(buf, sizeof(buf), f), NULL);
	fclose(f);
	EXPECT_NE(strstr(buf, "tls"), NULL);
}

TEST_HARNESS_MAIN
