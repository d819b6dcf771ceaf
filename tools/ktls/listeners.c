// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TCP listeners of a process on a port, found the way ss and lsof
 * find them: /proc/PID/net/tcp{,6} (the process's own network
 * namespace) gives the sockets on the port and their state, the links
 * of /proc/PID/fd give which of them the process holds, by inode.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ktls.h"

#define TCP_STATE_LISTEN	0x0a

struct netent {
	ino_t ino;
	int family;
	bool tcp, listening;
	char addr[64];
};

struct netents {
	struct netent *e;
	int nr, cap;
};

/* An address of /proc/net/tcp: 32-bit words in host order, hex. */
static void format_addr(const char *hex, int family, char *out, size_t len)
{
	unsigned char bytes[16];
	char word[9];
	__u32 w;
	int i;

	for (i = 0; i < (family == AF_INET ? 1 : 4); i++) {
		memcpy(word, hex + 8 * i, 8);
		word[8] = '\0';
		w = strtoul(word, NULL, 16);
		memcpy(bytes + 4 * i, &w, 4);
	}
	if (!inet_ntop(family, bytes, out, len))
		snprintf(out, len, "?");
}

static int scan_net(pid_t pid, const char *file, int family, bool tcp,
		    unsigned short port, struct netents *ents)
{
	char path[64], line[512], addr[65];
	unsigned int lport, st;
	unsigned long ino;
	struct netent *e;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/net/%s", pid, file);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* no IPv6 */
	while (fgets(line, sizeof(line), f)) {
		/* sl local rem st tx:rx tr:when retrnsmt uid timeout inode */
		if (sscanf(line, " %*u: %64[0-9A-Fa-f]:%x %*s %x %*s %*s %*s %*s %*s %lu",
			   addr, &lport, &st, &ino) != 4 ||
		    lport != port || !ino)
			continue;
		if (ents->nr == ents->cap) {
			ents->cap = ents->cap ? 2 * ents->cap : 16;
			e = realloc(ents->e, ents->cap * sizeof(*e));
			if (!e) {
				fclose(f);
				return -ENOMEM;
			}
			ents->e = e;
		}
		e = &ents->e[ents->nr++];
		e->ino = ino;
		e->family = family;
		e->tcp = tcp;
		e->listening = tcp && st == TCP_STATE_LISTEN;
		format_addr(addr, family, e->addr, sizeof(e->addr));
	}
	fclose(f);
	return 0;
}

static int socket_inode(pid_t pid, const char *fd, ino_t *ino)
{
	char path[64], link[64];
	unsigned long v;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%.16s", pid, fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -1;
	link[n] = '\0';
	if (sscanf(link, "socket:[%lu]", &v) != 1)
		return -1;
	*ino = v;
	return 0;
}

/**
 * ktls_listeners_of() - the TCP listeners @pid holds on @port
 * @pid:	the process
 * @port:	local port
 * @out:	array the listeners are appended to (realloc'd)
 * @nr:		its length, updated
 * @other:	set to 1 when @pid holds a TCP socket on @port that does
 *		not listen, 2 for a UDP one
 *
 * A socket held in several fds is listed once.
 * Return: 0 or -errno (-ENOENT: no such process, -EACCES: not ours).
 */
int ktls_listeners_of(pid_t pid, unsigned short port,
		      struct ktls_listener **out, int *nr, int *other)
{
	struct netents ents = {};
	struct ktls_listener *l;
	struct dirent *d;
	char path[64];
	int i, j, err;
	ino_t ino;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	dir = opendir(path);
	if (!dir)
		return -errno;
	err = scan_net(pid, "tcp", AF_INET, true, port, &ents);
	if (!err)
		err = scan_net(pid, "tcp6", AF_INET6, true, port, &ents);
	if (!err)
		err = scan_net(pid, "udp", AF_INET, false, port, &ents);
	if (!err)
		err = scan_net(pid, "udp6", AF_INET6, false, port, &ents);
	while (!err && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || socket_inode(pid, d->d_name, &ino))
			continue;
		for (i = 0; i < ents.nr && ents.e[i].ino != ino; i++)
			;
		if (i == ents.nr)
			continue;
		if (!ents.e[i].listening) {
			*other = ents.e[i].tcp ? 1 : 2;
			continue;
		}
		for (j = 0; j < *nr && (*out)[j].ino != ino; j++)
			;
		if (j < *nr)
			continue;
		l = realloc(*out, (*nr + 1) * sizeof(*l));
		if (!l) {
			err = -ENOMEM;
			break;
		}
		*out = l;
		l += (*nr)++;
		l->ino = ino;
		l->pid = pid;
		l->fd = atoi(d->d_name);
		l->family = ents.e[i].family;
		l->port = port;
		snprintf(l->addr, sizeof(l->addr), "%s", ents.e[i].addr);
	}
	closedir(dir);
	free(ents.e);
	return err;
}

static pid_t parent_of(const char *pid)
{
	char path[64], buf[512], *p;
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		/* after the command name, which may hold anything */
		p = strrchr(buf, ')');
		if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
			ppid = -1;
	}
	fclose(f);
	return ppid;
}

/* @pid and every descendant of it, into a new array @out of @nr. */
int ktls_pid_children(pid_t pid, pid_t **out, int *nr)
{
	struct { pid_t pid, ppid; } *all = NULL, *na;
	int n = 0, i, j, found = 1;
	struct dirent *d;
	pid_t *tree;
	DIR *dir;

	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		na = realloc(all, (n + 1) * sizeof(*all));
		if (!na) {
			closedir(dir);
			free(all);
			return -ENOMEM;
		}
		all = na;
		all[n].pid = atoi(d->d_name);
		all[n].ppid = parent_of(d->d_name);
		n++;
	}
	closedir(dir);
	tree = malloc((n + 1) * sizeof(*tree));
	if (!tree) {
		free(all);
		return -ENOMEM;
	}
	tree[0] = pid;
	/* Breadth first: the array is its own queue. */
	for (i = 0; i < found; i++)
		for (j = 0; j < n; j++)
			if (all[j].ppid == tree[i] && all[j].pid != pid)
				tree[found++] = all[j].pid;
	free(all);
	*out = tree;
	*nr = found;
	return 0;
}

/* "8443" or "8443,8444": 1..@max ports; their count, or -1. */
int ktls_ports_parse(const char *arg, unsigned short *ports, int max)
{
	char *list = strdup(arg), *p, *save = NULL;
	unsigned long v;
	int n = 0;

	if (!list)
		return -1;
	for (p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (n == max || ktls_parse_uint(p, 65535, &v) || !v) {
			n = -1;
			break;
		}
		ports[n++] = v;
	}
	free(list);
	return n ? n : -1;
}
