// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helper for module.sh: opens a loopback TCP pair, attaches the "tls" ULP
 * to one end, says "ready" on stdout and holds the sockets until stdin
 * closes.  Exit status 2 with the errno on stderr if attaching fails.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef TCP_ULP
#define TCP_ULP 31
#endif

int main(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int lsn, cli, srv;
	char c;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lsn = socket(AF_INET, SOCK_STREAM, 0);
	cli = socket(AF_INET, SOCK_STREAM, 0);
	if (lsn < 0 || cli < 0 ||
	    bind(lsn, (struct sockaddr *)&sa, len) || listen(lsn, 1) ||
	    getsockname(lsn, (struct sockaddr *)&sa, &len) ||
	    connect(cli, (struct sockaddr *)&sa, len)) {
		perror("ulp_hold: loopback pair");
		return 1;
	}
	srv = accept(lsn, NULL, NULL);
	if (srv < 0) {
		perror("ulp_hold: accept");
		return 1;
	}
	if (setsockopt(cli, IPPROTO_TCP, TCP_ULP, "tls", 3)) {
		fprintf(stderr, "%s\n", strerror(errno));
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
