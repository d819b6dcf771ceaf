// SPDX-License-Identifier: GPL-2.0-only
/*
 * Throughput of the module's ML-KEM-768, built for userspace, next to Go's
 * standard library crypto/mlkem on the same host: key generations,
 * encapsulations and decapsulations per second, and our rate as a
 * fraction of Go's.  Go runs as a separate program (mlkem_go bench).
 *
 * Each side does the same work per operation: keygen from fresh
 * randomness; encapsulation to a 1184-byte key, parsed and checked each
 * time (as the TLS server gets it); decapsulation with a key already
 * loaded, which for both is the key with its matrix A expanded (Go's
 * DecapsulationKey768 holds A; ours is a struct
 * ktls_mlkem768_dk_expanded).  Decapsulation from the FIPS 203 key bytes,
 * which samples A each time, is printed under the table: Go has no such
 * operation.  Time is the measuring thread's CPU time; ours and Go's run
 * in alternating rounds, and each side's best round counts, so a burst
 * of load elsewhere on a shared host costs both alike and neither much.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/types.h>
#include <ktls_hs/mlkem.h>

#define BENCH_ROUNDS		8
#define BENCH_ROUND_SECONDS	"0.25"

static struct ktls_mlkem768_scratch scratch;
static struct ktls_mlkem768_dk_expanded key;
static u8 ek[KTLS_MLKEM768_EK_LEN], dk[KTLS_MLKEM768_DK_LEN], ct[KTLS_MLKEM768_CT_LEN];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void ours_keygen(void)
{
	static u8 k[KTLS_MLKEM768_EK_LEN], d[KTLS_MLKEM768_DK_LEN];

	ktls_mlkem768_keygen(k, d, &scratch);
}

static void ours_encaps(void)
{
	u8 c[KTLS_MLKEM768_CT_LEN], ss[KTLS_MLKEM_SS_LEN];

	if (ktls_mlkem768_encaps(c, ss, ek, sizeof(ek), &scratch))
		abort();
}

static void ours_decaps(void)
{
	u8 ss[KTLS_MLKEM_SS_LEN];

	if (ktls_mlkem768_decaps_expanded(ss, ct, sizeof(ct), &key, &scratch))
		abort();
}

static void ours_decaps_bytes(void)
{
	u8 ss[KTLS_MLKEM_SS_LEN];

	if (ktls_mlkem768_decaps(ss, ct, sizeof(ct), dk, &scratch))
		abort();
}

static double ours_rate(void (*fn)(void))
{
	double start = now(), t, secs = atof(BENCH_ROUND_SECONDS);
	long n = 0;
	int i;

	do {
		for (i = 0; i < 8; i++)
			fn();
		n += 8;
		t = now() - start;
	} while (t < secs);
	return n / t;
}

static double go_rate(const char *go, const char *op)
{
	char cmd[4096];
	double rate = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s bench %s %s", go, op, BENCH_ROUND_SECONDS);
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%lf", &rate) != 1 || pclose(p)) {
		fprintf(stderr, "bench_mlkem: %s failed\n", cmd);
		exit(1);
	}
	return rate;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name, *go_op;
		void (*ours)(void);
	} ops[] = {
		{ "keygen", "keygen", ours_keygen },
		{ "encaps", "encaps", ours_encaps },
		{ "decaps", "decaps", ours_decaps },
	};
	u8 ss[KTLS_MLKEM_SS_LEN];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: bench_mlkem PATH-TO-mlkem_go\n");
		return 2;
	}
	ktls_mlkem768_keygen(ek, dk, &scratch);
	ktls_mlkem768_encaps(ct, ss, ek, sizeof(ek), &scratch);
	if (ktls_mlkem768_expand_dk(&key, dk, &scratch))
		abort();

	printf("\nML-KEM-768, one thread, best of %d alternating rounds of %s s CPU time;",
	       BENCH_ROUNDS, BENCH_ROUND_SECONDS);
	printf(" Go's crypto/mlkem\n\n");
	printf("| operation |    ktls_hs/s |         Go/s | ratio |\n");
	printf("|-----------|--------------|--------------|-------|\n");
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		double ours = 0, go = 0, r;
		int j;

		for (j = 0; j < BENCH_ROUNDS; j++) {
			r = ours_rate(ops[i].ours);
			if (r > ours)
				ours = r;
			r = go_rate(argv[1], ops[i].go_op);
			if (r > go)
				go = r;
		}
		printf("| %-9s | %12.0f | %12.0f | %5.2f |\n", ops[i].name, ours, go, ours / go);
	}
	{
		double ours = 0, r;
		int j;

		for (j = 0; j < BENCH_ROUNDS; j++) {
			r = ours_rate(ours_decaps_bytes);
			if (r > ours)
				ours = r;
		}
		printf("\ndecaps from the key's FIPS 203 bytes (A sampled each time): %.0f/s\n",
		       ours);
	}
	return 0;
}
