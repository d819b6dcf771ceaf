// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls_preload.so, the LD_PRELOAD half of `ktls run`: a listen() that,
 * once the kernel's listen() succeeded on a TCP socket whose port
 * KTLS_RUN_PORTS names, passes the socket to the `ktls run` process
 * (SCM_RIGHTS over the descriptor KTLS_RUN_FD) and waits for it to arm
 * it.  The arming is done there, with the credentials of whoever ran
 * `ktls run`, so the server needs no right on the identity keys.
 *
 * It fails closed: a listener on such a port that could not be armed is
 * stopped (shutdown(SHUT_RD) ends listening) and listen() fails, so the
 * server never serves that port in plaintext.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktls.h"

static int ctl_fd = -1;
static unsigned short ports[KTLS_PORTS_MAX];
static int nr_ports;

__attribute__((constructor)) static void ktls_preload_init(void)
{
	const char *fd = getenv("KTLS_RUN_FD"), *p = getenv("KTLS_RUN_PORTS");
	char *end;

	if (!fd || !p)
		return;
	ctl_fd = strtol(fd, &end, 10);
	if (*end || ctl_fd < 0) {
		ctl_fd = -1;
		return;
	}
	while (*p && nr_ports < KTLS_PORTS_MAX) {
		ports[nr_ports++] = strtoul(p, &end, 10);
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			break;
	}
}

/* A TCP listener on one of our ports, not armed yet? */
static bool wanted(int fd, unsigned short *port)
{
	socklen_t len = sizeof(int);
	struct sockaddr_in6 a;
	char ulp[16] = "";
	int proto = 0, i;

	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) ||
	    proto != IPPROTO_TCP)
		return false;
	len = sizeof(a);
	if (getsockname(fd, (struct sockaddr *)&a, &len) ||
	    (a.sin6_family != AF_INET && a.sin6_family != AF_INET6))
		return false;
	/* sin_port and sin6_port sit at the same offset */
	*port = ntohs(a.sin6_port);
	for (i = 0; i < nr_ports && ports[i] != *port; i++)
		;
	if (i == nr_ports)
		return false;
	/* listen() again on an armed listener: nothing to do */
	len = sizeof(ulp) - 1;
	return getsockopt(fd, IPPROTO_TCP, TCP_ULP, ulp, &len) ||
	       strcmp(ulp, KTLS_ULP_ARMED);
}

/* Ask `ktls run` to arm @fd: 0, or the errno it failed with. */
static int arm(int fd)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = {};
	struct iovec iov = { .iov_base = "arm", .iov_len = 3 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int reply[2], fds[2], err = 0;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, reply))
		return errno;
	fds[0] = fd;
	fds[1] = reply[1];
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	if (sendmsg(ctl_fd, &msg, MSG_NOSIGNAL) < 0)
		err = errno;
	close(reply[1]);
	if (!err) {
		do {
			n = recv(reply[0], &err, sizeof(err), 0);
		} while (n < 0 && errno == EINTR);
		/* `ktls run` is gone, or answered nonsense */
		if (n != sizeof(err))
			err = n < 0 ? errno : ECONNABORTED;
	}
	close(reply[0]);
	return err;
}

/* libc's listen(), then ours. */
int listen(int fd, int backlog)
{
	static int (*real_listen)(int, int);
	unsigned short port;
	int err;

	if (!real_listen)
		real_listen = (int (*)(int, int))dlsym(RTLD_NEXT, "listen");
	if (!real_listen) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (real_listen(fd, backlog))
		return -1;
	if (ctl_fd < 0 || !wanted(fd, &port))
		return 0;
	err = arm(fd);
	if (!err)
		return 0;
	fprintf(stderr, "ktls_preload: port %u not armed (%s): stopped\n", port,
		strerror(err));
	shutdown(fd, SHUT_RD);
	errno = err;
	return -1;
}
