// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the ULP glue: attaching "tls" to kernel TCP sockets over
 * loopback, for IPv4 and IPv6, and what the attached socket does before
 * any keys are installed.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/net.h>
#include <linux/string.h>
#include <linux/tcp.h>
#include <linux/uio.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "../ktls.h"

struct ulp_pair {
	struct socket *cli;
	struct socket *srv;
};

static void ulp_sock_release(void *sock)
{
	sock_release(sock);
}

static struct socket *ulp_socket(struct kunit *test, int family)
{
	struct socket *sock;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, family, SOCK_STREAM,
					       IPPROTO_TCP, &sock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ulp_sock_release,
							sock), 0);
	return sock;
}

/* A listener on loopback, port chosen by the kernel; returns its address length. */
static int ulp_listener(struct kunit *test, int family, struct socket **lsn,
			struct sockaddr_storage *addr)
{
	int len;

	memset(addr, 0, sizeof(*addr));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)addr;

		a6->sin6_family = AF_INET6;
		a6->sin6_addr = in6addr_loopback;
		len = sizeof(*a6);
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)addr;

		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a4);
	}

	*lsn = ulp_socket(test, family);
	KUNIT_ASSERT_EQ(test, kernel_bind(*lsn, (struct sockaddr *)addr, len), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(*lsn, 4), 0);
	KUNIT_ASSERT_EQ(test, kernel_getsockname(*lsn, (struct sockaddr *)addr), len);
	return len;
}

static void ulp_connect(struct kunit *test, int family, struct ulp_pair *p)
{
	struct sockaddr_storage addr;
	struct socket *lsn;
	int len;

	len = ulp_listener(test, family, &lsn, &addr);
	p->cli = ulp_socket(test, family);
	KUNIT_ASSERT_EQ(test, kernel_connect(p->cli, (struct sockaddr *)&addr,
					     len, 0), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(lsn, &p->srv, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ulp_sock_release,
							p->srv), 0);
}

static int ulp_attach(struct socket *sock, const char *name)
{
	char buf[TCP_ULP_NAME_MAX];
	ssize_t len = strscpy(buf, name, sizeof(buf));

	/* A kernel sockptr_t is writable memory: hand over a copy. */
	if (len < 0)
		return len;
	return sock->ops->setsockopt(sock, SOL_TCP, TCP_ULP,
				     KERNEL_SOCKPTR(buf), len);
}

static int ulp_set_int(struct socket *sock, int level, int optname, int val)
{
	return sock->ops->setsockopt(sock, level, optname,
				     KERNEL_SOCKPTR(&val), sizeof(val));
}

static const int ulp_families[] = { AF_INET, AF_INET6 };

static void ulp_family_desc(const int *family, char *desc)
{
	strscpy(desc, *family == AF_INET6 ? "ipv6" : "ipv4",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ulp_family, ulp_families, ulp_family_desc);

static int ulp_param_family(struct kunit *test)
{
	return *(const int *)test->param_value;
}

static void ulp_attach_established(struct kunit *test)
{
	struct ulp_pair p;
	struct ktls_ctx *ctx;
	struct sock *sk;

	ulp_connect(test, ulp_param_family(test), &p);
	sk = p.cli->sk;
	KUNIT_ASSERT_EQ(test, ulp_attach(p.cli, "tls"), 0);

	KUNIT_EXPECT_PTR_EQ(test, inet_csk(sk)->icsk_ulp_ops,
			    (const struct tcp_ulp_ops *)&ktls_ulp_ops);
	ctx = ktls_ctx(sk);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_EXPECT_PTR_EQ(test, ctx->sk, sk);
	/*
	 * Our ops stand in front of TCP's, which the context remembers, at
	 * both the protocol and the socket level; TCP's own keep working
	 * for everything the record layer does not take over.
	 */
	KUNIT_EXPECT_PTR_NE(test, sk->sk_prot, ctx->sk_proto);
	KUNIT_EXPECT_PTR_EQ(test, p.srv->sk->sk_prot, ctx->sk_proto);
	KUNIT_EXPECT_PTR_EQ(test, sk->sk_prot->connect, ctx->sk_proto->connect);
	KUNIT_EXPECT_PTR_NE(test, p.cli->ops, ctx->sk_ops);
	KUNIT_EXPECT_PTR_EQ(test, p.srv->ops, ctx->sk_ops);
	KUNIT_EXPECT_PTR_EQ(test, p.cli->ops->bind, ctx->sk_ops->bind);
	/* Without keys nothing is TLS yet. */
	KUNIT_EXPECT_EQ(test, ctx->tx_conf, KTLS_CONF_BASE);
	KUNIT_EXPECT_EQ(test, ctx->rx_conf, KTLS_CONF_BASE);
}

static void ulp_attach_twice(struct kunit *test)
{
	struct ulp_pair p;

	ulp_connect(test, ulp_param_family(test), &p);
	KUNIT_ASSERT_EQ(test, ulp_attach(p.cli, "tls"), 0);
	KUNIT_EXPECT_EQ(test, ulp_attach(p.cli, "tls"), -EEXIST);
}

static void ulp_attach_not_established(struct kunit *test)
{
	int family = ulp_param_family(test);
	struct sockaddr_storage addr;
	struct socket *lsn, *fresh;

	ulp_listener(test, family, &lsn, &addr);
	KUNIT_EXPECT_EQ(test, ulp_attach(lsn, "tls"), -ENOTCONN);
	KUNIT_EXPECT_NULL(test, inet_csk(lsn->sk)->icsk_ulp_ops);

	fresh = ulp_socket(test, family);
	KUNIT_EXPECT_EQ(test, ulp_attach(fresh, "tls"), -ENOTCONN);
	KUNIT_EXPECT_NULL(test, inet_csk(fresh->sk)->icsk_ulp_ops);
}

static void ulp_sockopts_before_keys(struct kunit *test)
{
	struct ulp_pair p;

	ulp_connect(test, ulp_param_family(test), &p);
	KUNIT_ASSERT_EQ(test, ulp_attach(p.cli, "tls"), 0);

	/* Options of other levels still reach TCP. */
	KUNIT_EXPECT_EQ(test, ulp_set_int(p.cli, SOL_TCP, TCP_NODELAY, 1), 0);
	KUNIT_EXPECT_TRUE(test, tcp_sk(p.cli->sk)->nonagle & TCP_NAGLE_OFF);
	KUNIT_EXPECT_EQ(test, ulp_set_int(p.cli, SOL_TLS, 0x7fff, 1),
			-ENOPROTOOPT);
}

/* With no keys installed, bytes pass through untouched both ways. */
static void ulp_plain_data_before_keys(struct kunit *test)
{
	static const char msg[] = "no keys yet";
	char buf[sizeof(msg)] = {};
	struct msghdr mh = {};
	struct kvec iov;
	struct ulp_pair p;

	ulp_connect(test, ulp_param_family(test), &p);
	KUNIT_ASSERT_EQ(test, ulp_attach(p.cli, "tls"), 0);

	iov.iov_base = (void *)msg;
	iov.iov_len = sizeof(msg);
	KUNIT_ASSERT_EQ(test, kernel_sendmsg(p.cli, &mh, &iov, 1, sizeof(msg)),
			(int)sizeof(msg));
	iov.iov_base = buf;
	iov.iov_len = sizeof(buf);
	KUNIT_ASSERT_EQ(test, kernel_recvmsg(p.srv, &mh, &iov, 1, sizeof(buf),
					     MSG_WAITALL), (int)sizeof(buf));
	KUNIT_EXPECT_MEMEQ(test, buf, msg, sizeof(msg));
}

/* close() hands the socket back to TCP before TCP's close runs. */
static void ulp_close_detaches(struct kunit *test)
{
	struct ulp_pair p;
	struct proto *base;
	void *ulp_data;
	struct sock *sk;

	ulp_connect(test, ulp_param_family(test), &p);
	KUNIT_ASSERT_EQ(test, ulp_attach(p.cli, "tls"), 0);
	sk = p.cli->sk;
	base = ktls_ctx(sk)->sk_proto;

	sock_hold(sk);
	kunit_release_action(test, ulp_sock_release, p.cli);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(sk->sk_prot), base);
	/* Read apart: inside a KUNIT macro, sparse's expansion overflows. */
	ulp_data = rcu_access_pointer(inet_csk(sk)->icsk_ulp_data);
	KUNIT_EXPECT_NULL(test, ulp_data);
	sock_put(sk);
}

static struct kunit_case ulp_cases[] = {
	KUNIT_CASE_PARAM(ulp_attach_established, ulp_family_gen_params),
	KUNIT_CASE_PARAM(ulp_attach_twice, ulp_family_gen_params),
	KUNIT_CASE_PARAM(ulp_attach_not_established, ulp_family_gen_params),
	KUNIT_CASE_PARAM(ulp_sockopts_before_keys, ulp_family_gen_params),
	KUNIT_CASE_PARAM(ulp_plain_data_before_keys, ulp_family_gen_params),
	KUNIT_CASE_PARAM(ulp_close_detaches, ulp_family_gen_params),
	{}
};

static struct kunit_suite ulp_suite = {
	.name = "ktls_hs_ulp",
	.test_cases = ulp_cases,
};

kunit_test_suite(ulp_suite);

MODULE_DESCRIPTION("KUnit tests for the ktls-hs TCP ULP glue");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
