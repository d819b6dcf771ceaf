// SPDX-License-Identifier: GPL-2.0-only
/*
 * The user API of the in-kernel handshake, short of a handshake: where
 * TCP_ULP "ktls_hs" attaches, every SOL_TLS option of ours with good
 * and bad arguments, the errno of each misuse, that a connection whose
 * handshake never completes is not accept()ed and times out, and how a
 * per-socket handshake holds the data path.  Run by hs_api.sh, which
 * makes the identity keys and passes their serials:
 * KTLS_HS_KEY (a "ktls_identity" key), KTLS_HS_USER_KEY (a "user" key).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
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

/* A listening socket on IPv4 loopback; its address in *sa. */
static int listener(struct sockaddr_in *sa, int backlog)
{
	socklen_t len = sizeof(*sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)sa, len) ||
	    listen(fd, backlog) || getsockname(fd, (struct sockaddr *)sa, &len))
		return -1;
	return fd;
}

static int connect_to(const struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof(*sa)))
		return -1;
	return fd;
}

FIXTURE(armed)
{
	int lfd;
	struct sockaddr_in sa;
	int key;
};

FIXTURE_SETUP(armed)
{
	self->key = env_serial("KTLS_HS_KEY");
	ASSERT_GT(self->key, 0) TH_LOG("KTLS_HS_KEY not set: run hs_api.sh");
	self->lfd = listener(&self->sa, 8);
	ASSERT_GE(self->lfd, 0);
	ASSERT_EQ(ulp(self->lfd, "ktls_hs"), 0);
}

FIXTURE_TEARDOWN(armed)
{
	close(self->lfd);
}

TEST(ulp_where)
{
	struct sockaddr_in sa;
	int fd, lfd, cfd, afd;

	/* Not yet listening: the ULP for listeners refuses. */
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(ulp(fd, "ktls_hs"), -1);
	EXPECT_EQ(errno, EINVAL);
	close(fd);

	lfd = listener(&sa, 4);
	ASSERT_GE(lfd, 0);
	/* "tls" on a listener stays upstream's ENOTCONN. */
	EXPECT_EQ(ulp(lfd, "tls"), -1);
	EXPECT_EQ(errno, ENOTCONN);

	/* An established socket takes "tls", not "ktls_hs". */
	cfd = connect_to(&sa);
	ASSERT_GE(cfd, 0);
	afd = accept(lfd, NULL, NULL);
	ASSERT_GE(afd, 0);
	EXPECT_EQ(ulp(afd, "ktls_hs"), -1);
	EXPECT_EQ(errno, EINVAL);

	EXPECT_EQ(ulp(lfd, "ktls_hs"), 0);
	EXPECT_EQ(ulp(lfd, "ktls_hs"), -1);
	EXPECT_EQ(errno, EEXIST);
	close(afd);
	close(cfd);
	close(lfd);
}

TEST_F(armed, identity)
{
	int serials[KTLS_HS_IDENTITIES_MAX + 1], user_key, i;
	socklen_t len;
	short s16 = 1;

	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_IDENTITY, &s16,
			     sizeof(s16)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	/* A serial that names no key. */
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, 0x7ffffff0), -1);
	EXPECT_EQ(errno, ENOKEY);
	/* A key of another type. */
	user_key = env_serial("KTLS_HS_USER_KEY");
	if (user_key > 0) {
		EXPECT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, user_key), -1);
		EXPECT_EQ(errno, EINVAL);
	}

	len = sizeof(serials);
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_IDENTITY, serials,
			     &len), 0);
	EXPECT_EQ(len, 0);

	for (i = 0; i < KTLS_HS_IDENTITIES_MAX; i++)
		ASSERT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, self->key), 0);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, self->key), -1);
	EXPECT_EQ(errno, ENOSPC);

	len = sizeof(serials);
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_IDENTITY, serials,
			     &len), 0);
	EXPECT_EQ(len, KTLS_HS_IDENTITIES_MAX * sizeof(int));
	EXPECT_EQ(serials[0], self->key);
	/* Too small a buffer for the list. */
	len = sizeof(int);
	EXPECT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_IDENTITY, serials,
			     &len), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_F(armed, suites_groups_timeout)
{
	unsigned int v;

	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_SUITES, &v), 0);
	EXPECT_EQ(v, 0x707);
	/* Every group, the post-quantum hybrids included; no retry for them. */
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_GROUPS, &v), 0);
	EXPECT_EQ(v, KTLS_HS_GROUP_X25519 | KTLS_HS_GROUP_SECP256R1 |
		     KTLS_HS_GROUP_X25519MLKEM768 |
		     KTLS_HS_GROUP_SECP256R1MLKEM768);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_TIMEOUT, &v), 0);
	EXPECT_EQ(v, KTLS_HS_TIMEOUT_DEFAULT);

	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SUITES, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SUITES, 0x10), -1);
	EXPECT_EQ(errno, EINVAL);
	/* AES-CCM is off by default, and on when asked for. */
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SUITES,
			  KTLS_HS_SUITE_AES_128_CCM_SHA256), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_SUITES, &v), 0);
	EXPECT_EQ(v, KTLS_HS_SUITE_AES_128_CCM_SHA256);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SUITES, 0x800), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_SUITES,
			  KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_SUITES, &v), 0);
	EXPECT_EQ(v, KTLS_HS_SUITE_CHACHA20_POLY1305_SHA256);

	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_GROUPS, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_GROUPS, 0x10), -1);
	EXPECT_EQ(errno, EINVAL);
	/* The retry flag is not a group: alone it allows none. */
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_GROUPS,
			  KTLS_HS_GROUP_HYBRID_RETRY), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_GROUPS,
			  KTLS_HS_GROUP_X25519MLKEM768 |
			  KTLS_HS_GROUP_HYBRID_RETRY), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_GROUPS, &v), 0);
	EXPECT_EQ(v, KTLS_HS_GROUP_X25519MLKEM768 | KTLS_HS_GROUP_HYBRID_RETRY);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_GROUPS, KTLS_HS_GROUP_SECP256R1), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_GROUPS, &v), 0);
	EXPECT_EQ(v, KTLS_HS_GROUP_SECP256R1);

	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_TIMEOUT, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_TIMEOUT, 600001), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_TIMEOUT, 1500), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_TIMEOUT, &v), 0);
	EXPECT_EQ(v, 1500);

	/* Wrong length of a u32 option. */
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_TIMEOUT, &v, 2), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_TIMEOUT, NULL, 4), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_F(armed, alpn)
{
	static const char good[] = "\x02h2\x08http/1.1";
	char buf[300];
	socklen_t len;

	len = sizeof(buf);
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, buf, &len), 0);
	EXPECT_EQ(len, 0);

	/* A name running past the end, an empty name, too long a list. */
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, "\x05h2", 3), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, "\x00\x02h2", 4), -1);
	EXPECT_EQ(errno, EINVAL);
	memset(buf, 1, sizeof(buf));
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, buf, 256), -1);
	EXPECT_EQ(errno, EINVAL);

	ASSERT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, good,
			     sizeof(good) - 1), 0);
	len = sizeof(buf);
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, buf, &len), 0);
	ASSERT_EQ(len, sizeof(good) - 1);
	EXPECT_EQ(memcmp(buf, good, len), 0);
	/* An empty list turns ALPN off. */
	ASSERT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, NULL, 0), 0);
	len = sizeof(buf);
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_ALPN, buf, &len), 0);
	EXPECT_EQ(len, 0);
}

TEST_F(armed, not_for_listeners)
{
	struct tls12_crypto_info_aes_gcm_128 info = {
		.info.version = TLS_1_3_VERSION,
		.info.cipher_type = TLS_CIPHER_AES_GCM_128,
	};
	struct ktls_hs_session_info session;
	socklen_t len = sizeof(info);

	/* Record-layer keys make no sense on a listener. */
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, TLS_TX, &info, sizeof(info)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(getsockopt(self->lfd, SOL_TLS, TLS_TX, &info, &len), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_START, NULL, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	len = sizeof(session);
	EXPECT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_SESSION, &session,
			     &len), -1);
	EXPECT_EQ(errno, ENOENT);
	/* Read-only options. */
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_STATS, &session, 4), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_PEER, &session, 4), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
	/* Upstream's unknown-option errno past our range. */
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_PEER + 1, 1), -1);
	EXPECT_EQ(errno, ENOPROTOOPT);
}

TEST_F(armed, versions_ems)
{
	socklen_t len;
	unsigned int v;
	int flag;

	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_VERSIONS, &v), 0);
	EXPECT_EQ(v, KTLS_HS_VERSION_TLS12 | KTLS_HS_VERSION_TLS13);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_VERSIONS, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_VERSIONS, 4), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_VERSIONS, &v, 2), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_u32(self->lfd, KTLS_HS_VERSIONS, KTLS_HS_VERSION_TLS12), 0);
	ASSERT_EQ(get_u32(self->lfd, KTLS_HS_VERSIONS, &v), 0);
	EXPECT_EQ(v, KTLS_HS_VERSION_TLS12);

	len = sizeof(flag);
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag,
			     &len), 0);
	EXPECT_EQ(flag, 0);
	EXPECT_EQ(len, sizeof(flag));
	flag = 2;
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag,
			     sizeof(flag)), -1);
	EXPECT_EQ(errno, EINVAL);
	flag = -1;
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag,
			     sizeof(flag)), -1);
	EXPECT_EQ(errno, EINVAL);
	flag = 1;
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag, 1),
		  -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, NULL,
			     sizeof(flag)), -1);
	EXPECT_EQ(setsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag,
			     sizeof(flag)), 0);
	len = sizeof(flag);
	flag = 0;
	ASSERT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag,
			     &len), 0);
	EXPECT_EQ(flag, 1);
	/* A buffer too short for the int. */
	len = 2;
	EXPECT_EQ(getsockopt(self->lfd, SOL_TLS, KTLS_HS_EMS_OPTIONAL, &flag,
			     &len), -1);
	EXPECT_EQ(errno, EINVAL);
}

static int get_stats(int fd, struct ktls_hs_listen_stats *st)
{
	socklen_t len = sizeof(*st);

	return getsockopt(fd, SOL_TLS, KTLS_HS_STATS, st, &len);
}

/*
 * A client that connects and says nothing is never accept()ed; the
 * handshake times out and the client sees the connection close.
 */
TEST_F(armed, silent_client_times_out)
{
	struct ktls_hs_listen_stats st;
	struct pollfd pfd;
	int cfd, afd;
	char c;

	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, self->key), 0);
	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_TIMEOUT, 500), 0);
	/* accept() must not wait: nothing should be there to take. */
	ASSERT_EQ(fcntl(self->lfd, F_SETFL, O_NONBLOCK), 0);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);

	pfd.fd = self->lfd;
	pfd.events = POLLIN;
	EXPECT_EQ(poll(&pfd, 1, 200), 0);
	afd = accept(self->lfd, NULL, NULL);
	EXPECT_EQ(afd, -1);
	EXPECT_EQ(errno, EAGAIN);
	ASSERT_EQ(get_stats(self->lfd, &st), 0);
	EXPECT_EQ(st.in_progress, 1);

	/* The server gives up: the client reads EOF, not a byte. */
	pfd.fd = cfd;
	ASSERT_EQ(poll(&pfd, 1, 5000), 1);
	EXPECT_EQ(recv(cfd, &c, 1, 0), 0);
	ASSERT_EQ(get_stats(self->lfd, &st), 0);
	EXPECT_EQ(st.in_progress, 0);
	EXPECT_EQ(st.timed_out, 1);
	EXPECT_EQ(st.completed, 0);
	afd = accept(self->lfd, NULL, NULL);
	EXPECT_EQ(afd, -1);
	EXPECT_EQ(errno, EAGAIN);
	close(cfd);
}

/* A blocking accept() is not held up by a client stuck in handshake. */
TEST_F(armed, accept_timeout_with_stalled_client)
{
	struct timeval tv = { .tv_sec = 0, .tv_usec = 300000 };
	int cfd;

	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, self->key), 0);
	ASSERT_EQ(setsockopt(self->lfd, SOL_SOCKET, SO_RCVTIMEO, &tv,
			     sizeof(tv)), 0);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	EXPECT_EQ(accept(self->lfd, NULL, NULL), -1);
	EXPECT_EQ(errno, EAGAIN);
	close(cfd);
}

/* A listener with no identity refuses its children before accept(). */
TEST_F(armed, no_identity)
{
	struct ktls_hs_listen_stats st;
	int cfd;
	char c;

	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	EXPECT_EQ(recv(cfd, &c, 1, 0), 0);
	ASSERT_EQ(get_stats(self->lfd, &st), 0);
	EXPECT_EQ(st.dropped, 1);
	close(cfd);
}

/* Garbage instead of a ClientHello: an alert, then the end. */
TEST_F(armed, garbage_gets_alert)
{
	static const char junk[] = "GET / HTTP/1.1\r\n\r\n";
	struct ktls_hs_listen_stats st;
	unsigned char buf[64];
	ssize_t n, got = 0;
	int cfd;

	ASSERT_EQ(set_u32(self->lfd, KTLS_HS_IDENTITY, self->key), 0);
	cfd = connect_to(&self->sa);
	ASSERT_GE(cfd, 0);
	ASSERT_EQ(send(cfd, junk, sizeof(junk) - 1, 0), sizeof(junk) - 1);
	while ((n = recv(cfd, buf + got, sizeof(buf) - got, 0)) > 0)
		got += n;
	/* One fatal alert record in plaintext: 21 03 03 00 02 02 desc */
	ASSERT_EQ(got, 7);
	EXPECT_EQ(buf[0], 21);
	EXPECT_EQ(buf[5], 2);
	ASSERT_EQ(get_stats(self->lfd, &st), 0);
	EXPECT_EQ(st.failed, 1);
	close(cfd);
}

FIXTURE(per_socket)
{
	int lfd, cfd, sfd;
	int key;
};

FIXTURE_SETUP(per_socket)
{
	struct sockaddr_in sa;

	self->key = env_serial("KTLS_HS_KEY");
	ASSERT_GT(self->key, 0);
	self->lfd = listener(&sa, 4);
	ASSERT_GE(self->lfd, 0);
	self->cfd = connect_to(&sa);
	ASSERT_GE(self->cfd, 0);
	self->sfd = accept(self->lfd, NULL, NULL);
	ASSERT_GE(self->sfd, 0);
	ASSERT_EQ(ulp(self->sfd, "tls"), 0);
}

FIXTURE_TEARDOWN(per_socket)
{
	close(self->sfd);
	close(self->cfd);
	close(self->lfd);
}

TEST_F(per_socket, start_needs_identity)
{
	struct ktls_hs_session_info session;
	socklen_t len = sizeof(session);

	EXPECT_EQ(setsockopt(self->sfd, SOL_TLS, KTLS_HS_START, NULL, 0), -1);
	EXPECT_EQ(errno, ENOKEY);
	EXPECT_EQ(getsockopt(self->sfd, SOL_TLS, KTLS_HS_SESSION, &session,
			     &len), -1);
	EXPECT_EQ(errno, ENOENT);
	EXPECT_EQ(getsockopt(self->sfd, SOL_TLS, KTLS_HS_STATS, &session,
			     &len), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST_F(per_socket, holds_data_path_then_times_out)
{
	struct tls12_crypto_info_aes_gcm_128 info = {
		.info.version = TLS_1_3_VERSION,
		.info.cipher_type = TLS_CIPHER_AES_GCM_128,
	};
	struct ktls_hs_session_info session;
	socklen_t len = sizeof(session);
	struct pollfd pfd;
	char buf[16];

	ASSERT_EQ(set_u32(self->sfd, KTLS_HS_IDENTITY, self->key), 0);
	ASSERT_EQ(set_u32(self->sfd, KTLS_HS_TIMEOUT, 700), 0);
	ASSERT_EQ(setsockopt(self->sfd, SOL_TLS, KTLS_HS_START, NULL, 0), 0);
	EXPECT_EQ(setsockopt(self->sfd, SOL_TLS, KTLS_HS_START, NULL, 0), -1);
	EXPECT_EQ(errno, EALREADY);
	EXPECT_EQ(set_u32(self->sfd, KTLS_HS_TIMEOUT, 900), -1);
	EXPECT_EQ(errno, EISCONN);
	EXPECT_EQ(setsockopt(self->sfd, SOL_TLS, TLS_TX, &info, sizeof(info)), -1);
	EXPECT_EQ(errno, EBUSY);
	EXPECT_EQ(getsockopt(self->sfd, SOL_TLS, KTLS_HS_SESSION, &session,
			     &len), -1);
	EXPECT_EQ(errno, EINPROGRESS);

	/* What the client sends is not the application's to read. */
	ASSERT_EQ(send(self->cfd, "x", 1, 0), 1);
	pfd.fd = self->sfd;
	pfd.events = POLLIN | POLLOUT;
	EXPECT_EQ(poll(&pfd, 1, 100), 0);
	EXPECT_EQ(recv(self->sfd, buf, sizeof(buf), MSG_DONTWAIT), -1);
	EXPECT_EQ(errno, EAGAIN);

	/* A lone "x" is no record header yet: the timeout ends it. */
	EXPECT_EQ(recv(self->sfd, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
	EXPECT_EQ(recv(self->sfd, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
	EXPECT_EQ(send(self->sfd, "y", 1, 0), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
	len = sizeof(session);
	EXPECT_EQ(getsockopt(self->sfd, SOL_TLS, KTLS_HS_SESSION, &session,
			     &len), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
}

/*
 * connect(AF_UNSPEC) would have TCP drop the queues and state the
 * handshake runs on: refused, before and during the handshake, and the
 * handshake is not disturbed (it ends on its own timeout here).
 */
TEST_F(per_socket, no_disconnect)
{
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	char buf[16];

	EXPECT_EQ(connect(self->sfd, &unspec, sizeof(unspec)), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	ASSERT_EQ(set_u32(self->sfd, KTLS_HS_IDENTITY, self->key), 0);
	ASSERT_EQ(set_u32(self->sfd, KTLS_HS_TIMEOUT, 500), 0);
	ASSERT_EQ(setsockopt(self->sfd, SOL_TLS, KTLS_HS_START, NULL, 0), 0);
	ASSERT_EQ(send(self->cfd, "\x16\x03\x01", 3, 0), 3);
	EXPECT_EQ(connect(self->sfd, &unspec, sizeof(unspec)), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	EXPECT_EQ(recv(self->sfd, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
}

TEST_F(per_socket, not_after_keys)
{
	struct tls12_crypto_info_aes_gcm_128 info = {
		.info.version = TLS_1_3_VERSION,
		.info.cipher_type = TLS_CIPHER_AES_GCM_128,
	};

	ASSERT_EQ(setsockopt(self->sfd, SOL_TLS, TLS_TX, &info, sizeof(info)), 0);
	ASSERT_EQ(set_u32(self->sfd, KTLS_HS_IDENTITY, self->key), 0);
	EXPECT_EQ(setsockopt(self->sfd, SOL_TLS, KTLS_HS_START, NULL, 0), -1);
	EXPECT_EQ(errno, EISCONN);
}

TEST_HARNESS_MAIN
