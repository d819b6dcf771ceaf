// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fault attributes of failslab and fail_page_alloc, driven so that
 * each round of a workload fails exactly its Nth allocation within
 * ktls_hs, in any context (softirq included, which fail-nth never sees).
 *
 * With probability 100 and times 1, an attribute fails the call at which
 * its counter, counting only the calls that pass its filters while it is
 * armed (stack filter to our text, times left), reaches a multiple of
 * the interval; after that failure times is 0 and the counter stops.
 * The counter cannot be read, but it can be known: it starts at 0, and
 * after a failure at interval I (> 1) it is I.  Arming with interval
 * count + N therefore fails the Nth call from now.  A round that had
 * fewer than N calls leaves the counter somewhere short of the interval;
 * a filler workload then runs, still armed, until the failure comes,
 * and the counter is known again.
 *
 * The kernel log names each failure's stack (verbose 2): the first frame
 * inside ktls_hs is the allocation site of ours that failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "faults.h"

#define DEBUGFS	"/sys/kernel/debug"

static int attr_write(const struct inj *in, const char *file, const char *val)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", in->dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		fprintf(stderr, "# %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

static int attr_write_ul(const struct inj *in, const char *file, unsigned long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", v);
	return attr_write(in, file, buf);
}

static long attr_read(const struct inj *in, const char *file)
{
	char path[256], buf[32] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", in->dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 0) : -1;
}

/*
 * Set up @name disarmed: verbose stacks, no task filter, sleeping
 * allocations and order-0 pages included, and only stacks with a frame
 * in [@start, @end), our module's text, and none in [@rej_start,
 * @rej_end).
 */
int inj_setup(struct inj *in, const char *name, unsigned long start,
	      unsigned long end, unsigned long rej_start, unsigned long rej_end)
{
	memset(in, 0, sizeof(*in));
	in->name = name;
	snprintf(in->dir, sizeof(in->dir), DEBUGFS "/%s", name);
	if (access(in->dir, F_OK))
		return -1;
	if (attr_write(in, "probability", "0") ||
	    attr_write(in, "times", "1") ||
	    attr_write(in, "interval", "1") ||
	    attr_write(in, "space", "0") ||
	    attr_write(in, "verbose", "2") ||
	    attr_write(in, "task-filter", "N") ||
	    attr_write(in, "ignore-gfp-wait", "N") ||
	    attr_write(in, "stacktrace-depth", "32") ||
	    attr_write_ul(in, "require-start", start) ||
	    attr_write_ul(in, "require-end", end) ||
	    attr_write_ul(in, "reject-start", rej_start) ||
	    attr_write_ul(in, "reject-end", rej_end))
		return -1;
	/* Failures are printed one by one, none dropped by the ratelimit. */
	attr_write(in, "verbose_ratelimit_interval_ms", "0");
	if (!strcmp(name, "fail_page_alloc") && attr_write(in, "min-order", "0"))
		return -1;
	in->count_known = true;
	return 0;
}

/* Fail the @nth call of ours from now (counting from 1). */
void inj_arm(struct inj *in, unsigned long nth)
{
	in->interval = in->count + nth;
	attr_write_ul(in, "interval", in->interval);
	attr_write(in, "times", "1");
	attr_write(in, "probability", "100");
}

/* Disarm; returns whether the failure was injected. */
bool inj_disarm(struct inj *in)
{
	bool injected;

	attr_write(in, "probability", "0");
	injected = attr_read(in, "times") == 0;
	if (injected) {
		in->injected++;
		/* The counter moves only while the interval is above 1. */
		if (in->interval > 1)
			in->count = in->interval;
	} else if (in->interval > 1) {
		in->count_known = false;
	}
	return injected;
}

/*
 * After a round without the failure: run @filler armed until it comes,
 * so that the counter is known again.  Returns false if it never came.
 */
bool inj_resync(struct inj *in, void (*filler)(void))
{
	int i;

	if (in->count_known)
		return true;
	attr_write(in, "times", "1");
	attr_write(in, "probability", "100");
	for (i = 0; i < 1000 && attr_read(in, "times") != 0; i++)
		filler();
	attr_write(in, "probability", "0");
	if (attr_read(in, "times") != 0)
		return false;
	in->injected++;
	in->count = in->interval;
	in->count_known = true;
	return true;
}

void inj_off(struct inj *in)
{
	attr_write(in, "probability", "0");
	attr_write(in, "verbose", "0");
	attr_write(in, "require-start", "0");
	attr_write(in, "require-end", "18446744073709551615");
}

/* Sites: "function+0xoffset" of the first frame in ktls_hs, per attribute. */
#define MAX_SITES	512

static struct site {
	char where[96];
	char kind[20];
} sites[MAX_SITES];
static unsigned int nr_sites;
static unsigned int unattributed;
static int kmsg = -1;
static bool open_dump;
static char dump_kind[20];

int sites_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg < 0)
		return -1;
	lseek(kmsg, 0, SEEK_END);
	return 0;
}

static void site_add(const char *where)
{
	unsigned int i;

	for (i = 0; i < nr_sites; i++)
		if (!strcmp(sites[i].where, where) && !strcmp(sites[i].kind, dump_kind))
			return;
	if (nr_sites == MAX_SITES)
		return;
	snprintf(sites[nr_sites].where, sizeof(sites[0].where), "%s", where);
	snprintf(sites[nr_sites].kind, sizeof(sites[0].kind), "%s", dump_kind);
	nr_sites++;
}

static void kmsg_line(char *msg)
{
	char *p, *end;

	if (strstr(msg, "FAULT_INJECTION: forcing a failure")) {
		if (open_dump)
			unattributed++;
		open_dump = true;
		dump_kind[0] = 0;
		/* One record: the name line follows as an escaped newline. */
		p = strstr(msg, "name ");
		if (p && sscanf(p + 5, "%19[^,]", dump_kind) != 1)
			dump_kind[0] = 0;
		return;
	}
	if (!open_dump)
		return;
	if (!strncmp(msg, "name ", 5)) {
		if (sscanf(msg + 5, "%19[^,]", dump_kind) != 1)
			dump_kind[0] = 0;
		return;
	}
	if (strstr(msg, "</TASK>")) {
		unattributed++;
		open_dump = false;
		return;
	}
	p = msg + strspn(msg, " \t");
	/* "? f+0x1/0x2" is a stale word on the stack, not a caller. */
	if (*p == '?' || !strstr(p, "[ktls_hs]"))
		return;
	end = strchr(p, '/');
	if (end)
		*end = 0;
	site_add(p);
	open_dump = false;
}

void sites_collect(void)
{
	char rec[2048];
	ssize_t n;

	if (kmsg < 0)
		return;
	for (;;) {
		char *msg, *nl;

		n = read(kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten before we read it */
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		kmsg_line(msg);
	}
}

unsigned int sites_count(const char *kind)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < nr_sites; i++) {
		if (kind) {
			n += !strcmp(sites[i].kind, kind);
			continue;
		}
		/* Distinct places, whichever attribute failed there. */
		for (j = 0; j < i; j++)
			if (!strcmp(sites[j].where, sites[i].where))
				break;
		n += j == i;
	}
	return n;
}

void sites_print(void)
{
	unsigned int i;

	for (i = 0; i < nr_sites; i++)
		printf("# site %-16s %s\n", sites[i].kind, sites[i].where);
	if (unattributed)
		printf("# %u failures without a ktls_hs frame in the printed stack\n",
		       unattributed);
}
