/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Allocation-failure injection against ktls_hs: the fault attributes of
 * failslab and fail_page_alloc, confined to the module's text by their
 * stack filter, and the workloads run under them (handshakes, the record
 * layer).  See faults.sh and Documentation/testing.rst.
 */
#ifndef _KTLS_HS_FAULTS_H
#define _KTLS_HS_FAULTS_H

#include <stdbool.h>
#include <stddef.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

/* One fault attribute (failslab or fail_page_alloc) and where it stands. */
struct inj {
	const char *name;		/* failslab, fail_page_alloc */
	char dir[128];			/* its debugfs directory */
	unsigned long count;		/* the attribute's call counter, as we know it */
	unsigned long interval;		/* the one armed last */
	bool count_known;		/* false after a round with no failure */
	unsigned long injected;		/* failures injected so far */
};

int inj_setup(struct inj *in, const char *name, unsigned long start,
	      unsigned long end, unsigned long rej_start, unsigned long rej_end);
void inj_arm(struct inj *in, unsigned long nth);
bool inj_disarm(struct inj *in);
bool inj_resync(struct inj *in, void (*filler)(void));
void inj_off(struct inj *in);

/* Allocation sites the kernel log named, from /dev/kmsg. */
int sites_open(void);
void sites_collect(void);
void sites_print(void);
unsigned int sites_count(const char *kind);

/* What one round of a workload came to. */
enum outcome {
	OUT_OK,			/* completed, bytes checked */
	OUT_ALERT,		/* the client got a TLS alert */
	OUT_CLOSED,		/* close or reset (or ENOMEM on a call) */
	OUT_BAD,		/* a hang, a lost or wrong byte: a failure */
	OUT_NR,
};

struct work {
	const char *name;
	int (*setup)(void);
	enum outcome (*round)(void);
};

/* The handshake scenarios (hs_work.c) and the record layer's (rec_work.c). */
extern const struct work hs_works[];
extern const unsigned int hs_nr_works;
extern const struct work rec_works[];
extern const unsigned int rec_nr_works;

/* Counted by the workloads, for the summary. */
extern unsigned long hs_not_resumed, hs_timed_out, rec_enomem;

int hs_setup(int key, const char *ca, unsigned int timeout_ms);
void hs_teardown(void);
int rec_setup(void);
void rec_filler(void);

/* Set by the workloads: why a round was OUT_BAD, for the log. */
extern char why_bad[256];
void bad(const char *fmt, ...);

double now_s(void);

#endif /* _KTLS_HS_FAULTS_H */
