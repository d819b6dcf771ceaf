// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls_faults KEY CA TEXT_START TEXT_END BUDGET_S [REJECT_START REJECT_END]
 *
 * Runs each workload of hs_work.c and rec_work.c round after round, a
 * round failing the Nth allocation of ours (inject.c), first with
 * failslab, then with fail_page_alloc; N covers the workload's
 * allocations as far as a share of BUDGET_S seconds allows (sweep()).  Prints
 * TAP: one line per attribute and workload (every round ended as it
 * must), the allocation sites that failed, and the pool and counters
 * back at rest.  faults.sh gives the arguments.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "faults.h"

#define HS_TIMEOUT_MS	5000

char why_bad[256];
static unsigned int tests;
static int status;

void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why_bad, sizeof(why_bad), fmt, ap);
	va_end(ap);
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u ", ok ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		status = 1;
}

struct tally {
	unsigned long rounds, injected, past_end, by[OUT_NR];
};

/*
 * One round failing allocation @n; returns whether the round got that
 * far (the failure was injected).
 */
static bool one_round(struct inj *in, const struct work *w, unsigned long n,
		      struct tally *t)
{
	enum outcome out = OUT_BAD;
	bool injected;

	why_bad[0] = 0;
	if (w->setup && w->setup()) {
		bad("setup failed");
		injected = true;
	} else {
		inj_arm(in, n);
		out = w->round();
		injected = inj_disarm(in);
	}
	sites_collect();
	t->by[out]++;
	t->rounds++;
	if (injected)
		t->injected++;
	else
		t->past_end++;
	if (out == OUT_BAD)
		printf("# %s, %s, allocation %lu: %s\n", in->name, w->name, n, why_bad);
	if (!injected && !inj_resync(in, rec_filler))
		printf("# %s: no failure from the filler either\n", in->name);
	return injected;
}

/*
 * All rounds of one workload under one attribute, within @budget s.
 * N doubles from 1 until a round ends before its Nth allocation, which
 * bounds the round's allocations by some M; then N walks [1, M) coarse
 * to fine (odd multiples of M/2, M/4, ... 1), so that wherever the
 * budget ends the rounds run are spread over the whole workload.
 */
static void sweep(struct inj *in, const struct work *w, double budget)
{
	double end = now_s() + budget;
	unsigned long n, m, step;
	struct tally t = { 0 };
	bool cut = false;

	for (m = 1; !(cut = now_s() > end); m *= 2)
		if (!one_round(in, w, m, &t))
			break;
	for (step = m / 4; step && !cut; step /= 2) {
		for (n = step; n < m; n += 2 * step) {
			/* The powers of 2 ran above. */
			if (!(n & (n - 1)))
				continue;
			cut = now_s() > end;
			if (cut)
				break;
			one_round(in, w, n, &t);
		}
	}
	result(!t.by[OUT_BAD],
	       "%s: %s # %lu rounds, %lu failures injected, N < %lu %s; ok %lu, alert %lu, closed %lu, bad %lu",
	       in->name, w->name, t.rounds, t.injected, m,
	       cut ? "sampled" : "every one", t.by[OUT_OK], t.by[OUT_ALERT],
	       t.by[OUT_CLOSED], t.by[OUT_BAD]);
}

/* Without the attribute: each workload once, uninjected, and a SKIP. */
static void smoke(const char *kind, unsigned int nr)
{
	const struct work *w;
	enum outcome out;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		w = i < hs_nr_works ? &hs_works[i] : &rec_works[i - hs_nr_works];
		why_bad[0] = 0;
		out = w->setup && w->setup() ? OUT_BAD : w->round();
		if (out != OUT_OK) {
			result(false, "%s: %s # without injection: %s", kind, w->name,
			       why_bad[0] ? why_bad : "did not complete");
			continue;
		}
		printf("ok %u %s: %s # SKIP no fault attribute; one round uninjected\n",
		       ++tests, kind, w->name);
	}
}

/* A "Name value" line of a /proc file, or -1. */
static long proc_value(const char *path, const char *name)
{
	char line[256], key[128];
	long v, ret = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %ld", key, &v) == 2 && !strcmp(key, name))
			ret = v;
	fclose(f);
	return ret;
}

/* Handshake memory all given back: poll, the last close runs from a work item. */
static void check_pool(void)
{
	const char *path = "/proc/net/tls_hs_pool";
	long a = -1, b = -1;
	int i;

	for (i = 0; i < 100; i++) {
		a = proc_value(path, "TlsHsPoolInUse32k");
		b = proc_value(path, "TlsHsPoolInUse64k");
		if (!a && !b)
			break;
		usleep(100000);
	}
	result(!a && !b, "handshake pool back to zero in use # 32k %ld, 64k %ld", a, b);
}

/*
 * The handshake counters balance: every start ended one way, and every
 * failure has its one reason.
 */
static void check_counters(void)
{
	const char *path = "/proc/net/ktls_hs_stat";
	long started, ended, failed, reasons = 0, v;
	char line[256], key[128];
	bool ok = false;
	FILE *f;
	int i;

	for (i = 0; i < 100 && !ok; i++, usleep(100000)) {
		started = proc_value(path, "TlsHsStarted");
		failed = proc_value(path, "TlsHsFailed");
		ended = proc_value(path, "TlsHsCompleted") +
			proc_value(path, "TlsHsFallback") + failed;
		reasons = 0;
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%127s %ld", key, &v) == 2 &&
			    (!strcmp(key, "TlsHsTimedOut") || !strcmp(key, "TlsHsAborted") ||
			     !strcmp(key, "TlsHsPeerClosed") ||
			     !strcmp(key, "TlsHsInternalError") ||
			     !strcmp(key, "TlsHsAlertReceived") ||
			     !strncmp(key, "TlsHsAlertSent", 14)))
				reasons += v;
		fclose(f);
		ok = started > 0 && started == ended && failed == reasons;
	}
	result(ok, "handshake counters balance # started %ld, ended %ld, failed %ld, reasons %ld",
	       started, ended, failed, reasons);
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "failslab", "fail_page_alloc" };
	unsigned int nr = hs_nr_works + rec_nr_works, k, i, left;
	unsigned long start, end, rej_start = 0, rej_end = 0;
	bool injecting = false;
	struct inj in;
	double deadline;

	if (argc != 6 && argc != 8) {
		fprintf(stderr,
			"usage: %s KEY CA TEXT_START TEXT_END BUDGET_S [REJECT_START REJECT_END]\n",
			argv[0]);
		return 2;
	}
	start = strtoul(argv[3], NULL, 0);
	end = strtoul(argv[4], NULL, 0);
	if (argc == 8) {
		rej_start = strtoul(argv[6], NULL, 0);
		rej_end = strtoul(argv[7], NULL, 0);
	}
	deadline = now_s() + atof(argv[5]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* A peer gone mid-write is an outcome to count, not our end. */
	signal(SIGPIPE, SIG_IGN);
	if (sites_open())
		printf("# /dev/kmsg: allocation sites will not be named\n");
	fprintf(stderr, "faults: setup: handshakes\n");
	if (hs_setup(atoi(argv[1]), argv[2], HS_TIMEOUT_MS)) {
		printf("Bail out! setup without injection failed\n");
		return 1;
	}
	fprintf(stderr, "faults: setup: record layer\n");
	if (rec_setup()) {
		printf("Bail out! setup without injection failed\n");
		return 1;
	}
	printf("# module text [%#lx, %#lx), budget %s s\n", start, end, argv[5]);

	for (k = 0; k < 2; k++) {
		if (inj_setup(&in, kinds[k], start, end, rej_start, rej_end)) {
			smoke(kinds[k], nr);
			continue;
		}
		injecting = true;
		for (i = 0; i < nr; i++) {
			const struct work *w = i < hs_nr_works ? &hs_works[i] :
					       &rec_works[i - hs_nr_works];

			left = 2 * nr - (k * nr + i);
			sweep(&in, w, (deadline - now_s()) / left);
		}
		printf("# %s: %lu failures injected\n", kinds[k], in.injected);
		inj_off(&in);
	}
	hs_teardown();
	sites_collect();
	sites_print();
	printf("# %lu resumptions fell back to a full handshake, ", hs_not_resumed);
	printf("%lu handshakes ended by their timeout, ", hs_timed_out);
	printf("%lu record layer calls retried after ENOMEM\n", rec_enomem);
	if (injecting)
		result(sites_count(NULL) > 0,
		       "distinct allocation sites failed: %u (failslab %u, fail_page_alloc %u)",
		       sites_count(NULL), sites_count("failslab"),
		       sites_count("fail_page_alloc"));
	else
		printf("ok %u distinct allocation sites failed # SKIP no fault attribute\n",
		       ++tests);
	check_pool();
	check_counters();
	return status;
}
