// SPDX-License-Identifier: GPL-2.0-only
/*
 * Differential test of ML-KEM-768 against Go's standard library
 * crypto/mlkem, in TAP.  Go runs as mlkem_go oracle, a child answering
 * one request a line (see mlkem_go/main.go).  Over many random seeds:
 *
 *  - Go's key from the seed d || z equals ours;
 *  - Go encapsulates to our key bytes, we decapsulate to its secret;
 *  - we encapsulate to Go's key bytes, Go decapsulates to our secret;
 *  - both decapsulate a modified ciphertext to the same rejection secret;
 *  - a key with one coefficient >= q is refused by both.
 *
 * usage: diff_mlkem PATH-TO-mlkem_go [ROUNDS]
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/types.h>
#include <linux/random.h>
#include <ktls_hs/mlkem.h>
#include "tap.h"

static struct ktls_mlkem768_scratch scratch;
static struct ktls_mlkem768_dk_expanded key;
static FILE *to_go, *from_go;
static char line[8192];

static void start_go(const char *path)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe(in) || pipe(out))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(path, path, "oracle", (char *)NULL);
		perror(path);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	to_go = fdopen(in[1], "w");
	from_go = fdopen(out[0], "r");
}

/* one request of up to two hex words; the answer's words in *w1, *w2 */
static int ask(const char *op, const u8 *a, size_t alen, const u8 *b, size_t blen,
	       char **w1, char **w2)
{
	static char hex[2 * 4096 + 1];

	fprintf(to_go, "%s", op);
	tohex(hex, a, alen);
	fprintf(to_go, " %s", hex);
	if (b) {
		tohex(hex, b, blen);
		fprintf(to_go, " %s", hex);
	}
	fprintf(to_go, "\n");
	fflush(to_go);
	if (!fgets(line, sizeof(line), from_go)) {
		fprintf(stderr, "diff_mlkem: no answer from Go\n");
		exit(1);
	}
	line[strcspn(line, "\n")] = 0;
	*w1 = strtok(line, " ");
	*w2 = strtok(NULL, " ");
	return *w1 && strcmp(*w1, "ERR");
}

int main(int argc, char **argv)
{
	static u8 ek[KTLS_MLKEM768_EK_LEN], dk[KTLS_MLKEM768_DK_LEN];
	static u8 go_ek[KTLS_MLKEM768_EK_LEN], ct[KTLS_MLKEM768_CT_LEN];
	u8 seed[64], ss[32], go_ss[32];
	int rounds = argc > 2 ? atoi(argv[2]) : 1000;
	int i, bad_ek = 0, bad_go_enc = 0, bad_our_enc = 0, bad_reject = 0, bad_mod = 0;
	char *w1, *w2;

	if (argc < 2) {
		fprintf(stderr, "usage: diff_mlkem PATH-TO-mlkem_go [ROUNDS]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	start_go(argv[1]);
	printf("TAP version 13\n");
	for (i = 0; i < rounds; i++) {
		get_random_bytes(seed, sizeof(seed));
		ktls_mlkem768_keygen_derand(ek, dk, seed, seed + 32, &scratch);

		/* the same key from the same seed */
		bad_ek += !ask("K", seed, sizeof(seed), NULL, 0, &w1, &w2) ||
			  unhex(go_ek, sizeof(go_ek), w1) != sizeof(go_ek) ||
			  memcmp(go_ek, ek, sizeof(ek));

		/* Go encapsulates to our key, we decapsulate */
		if (!ask("E", ek, sizeof(ek), NULL, 0, &w1, &w2) || !w2 ||
		    unhex(ct, sizeof(ct), w1) != sizeof(ct) ||
		    unhex(go_ss, sizeof(go_ss), w2) != sizeof(go_ss) ||
		    ktls_mlkem768_decaps(ss, ct, sizeof(ct), dk, &scratch) ||
		    memcmp(ss, go_ss, sizeof(ss)) ||
		    ktls_mlkem768_expand_dk(&key, dk, &scratch) ||
		    ktls_mlkem768_decaps_expanded(ss, ct, sizeof(ct), &key, &scratch) ||
		    memcmp(ss, go_ss, sizeof(ss)))
			bad_go_enc++;

		/* we encapsulate to Go's key, Go decapsulates */
		if (ktls_mlkem768_encaps(ct, ss, go_ek, sizeof(go_ek), &scratch) ||
		    !ask("D", seed, sizeof(seed), ct, sizeof(ct), &w1, &w2) ||
		    unhex(go_ss, sizeof(go_ss), w1) != sizeof(go_ss) ||
		    memcmp(ss, go_ss, sizeof(ss)))
			bad_our_enc++;

		/* a modified ciphertext: the same implicit rejection on both sides */
		ct[i % sizeof(ct)] ^= 1 << (i % 8);
		if (ktls_mlkem768_decaps(ss, ct, sizeof(ct), dk, &scratch) ||
		    !ask("D", seed, sizeof(seed), ct, sizeof(ct), &w1, &w2) ||
		    unhex(go_ss, sizeof(go_ss), w1) != sizeof(go_ss) ||
		    memcmp(ss, go_ss, sizeof(ss)))
			bad_reject++;

		/* coefficient i % 768 set to a value in [q, 4095]: refused by both */
		if (i < 3 * 256) {
			u8 *p = ek + 3 * (i / 2);
			unsigned int v = 3329 + i % (4096 - 3329);

			if (i & 1) {
				p[1] = (p[1] & 0x0f) | (v << 4);
				p[2] = v >> 4;
			} else {
				p[0] = v;
				p[1] = (p[1] & 0xf0) | (v >> 8);
			}
			bad_mod += ktls_mlkem768_encaps(ct, ss, ek, sizeof(ek),
							&scratch) != -EINVAL ||
				   ask("E", ek, sizeof(ek), NULL, 0, &w1, &w2);
		}
	}
	fclose(to_go);
	wait(NULL);
	tap(!bad_ek, "Go: %d encapsulation keys from random seeds d || z equal ours", rounds);
	tap(!bad_go_enc, "Go: %d of its encapsulations to our keys decapsulate here, both ways",
	    rounds);
	tap(!bad_our_enc, "Go: %d of our encapsulations to its keys decapsulate there", rounds);
	tap(!bad_reject, "Go: %d modified ciphertexts give the same rejection secret", rounds);
	tap(!bad_mod, "Go: %d keys with a coefficient >= q refused by both",
	    rounds < 768 ? rounds : 768);
	return tap_done();
}
