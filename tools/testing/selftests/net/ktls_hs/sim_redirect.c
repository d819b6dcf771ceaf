// SPDX-License-Identifier: GPL-2.0-only
/*
 * An LD_PRELOAD shim that sends a program's TCP connections to this host
 * across the simulated offload NIC instead of loopback, so that a test
 * written for loopback (the kernel's tls.c) runs, unchanged, with the
 * device in the path.
 *
 * connect() of a stream socket to the wildcard or loopback address (what
 * a test gets from getsockname() of a listener bound to INADDR_ANY, or
 * names itself) goes to KTLS_SIM_REDIRECT4, or for IPv6 to
 * KTLS_SIM_REDIRECT6, instead: an address of the far end of a ktlssim
 * pair in the same namespace.  Listeners bound to the wildcard accept
 * there as well, and the namespace's policy routing makes both
 * directions leave by the pair (tools/testing/vm/guest/upstream-offload.sh).
 * Everything else passes unchanged, and so does every connect() while
 * the variable is unset.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef int (*connect_fn)(int, const struct sockaddr *, socklen_t);

static bool is_stream(int fd)
{
	socklen_t len = sizeof(int);
	int type;

	return !getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) &&
	       type == SOCK_STREAM;
}

/* Whether the address is one this shim moves; loopback is all of 127/8. */
static bool local4(const void *sa)
{
	const struct sockaddr_in *a4 = sa;
	in_addr_t a = ntohl(a4->sin_addr.s_addr);

	return a == INADDR_ANY || (a >> 24) == IN_LOOPBACKNET;
}

static bool local6(const void *sa)
{
	const struct sockaddr_in6 *a6 = sa;

	return IN6_IS_ADDR_UNSPECIFIED(&a6->sin6_addr) ||
	       IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr);
}

static const struct family {
	sa_family_t af;
	socklen_t size;
	size_t addr_off;
	const char *var;
	bool (*local)(const void *sa);
} families[] = {
	{ AF_INET, sizeof(struct sockaddr_in),
	  offsetof(struct sockaddr_in, sin_addr), "KTLS_SIM_REDIRECT4", local4 },
	{ AF_INET6, sizeof(struct sockaddr_in6),
	  offsetof(struct sockaddr_in6, sin6_addr), "KTLS_SIM_REDIRECT6", local6 },
};

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	static connect_fn real;
	const struct family *f = NULL;
	struct sockaddr_storage to;
	const char *val;
	size_t i;

	if (!real) {
		real = (connect_fn)dlsym(RTLD_NEXT, "connect");
		if (!real) {
			errno = ELIBACC;
			return -1;
		}
	}
	if (!addr || !is_stream(fd))
		return real(fd, addr, len);
	for (i = 0; i < ARRAY_SIZE(families); i++)
		if (addr->sa_family == families[i].af && len >= families[i].size)
			f = &families[i];
	if (!f || !f->local(addr))
		return real(fd, addr, len);
	val = getenv(f->var);
	if (!val)
		return real(fd, addr, len);

	memcpy(&to, addr, f->size);
	/* A bad address in the variable is the caller's error, not loopback. */
	if (inet_pton(f->af, val, (char *)&to + f->addr_off) != 1) {
		errno = EINVAL;
		return -1;
	}
	return real(fd, (struct sockaddr *)&to, f->size);
}
