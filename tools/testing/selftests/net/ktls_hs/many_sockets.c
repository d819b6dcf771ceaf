// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many kTLS connections at once: 1,000 loopback pairs, both ends with TX
 * and RX keys, each exchanging a record both ways while all are open,
 * then all closed.  The counters of /proc/net/tls_stat must come back to
 * where they were; kmemleak (in the debug guest) checks the memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

#define PAIRS	1000

/* A counter of /proc/net/tls_stat, or -1 if it is not there. */
static long stat_counter(const char *name)
{
	char key[64];
	long val;
	FILE *f = fopen("/proc/net/tls_stat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			fclose(f);
			return val;
		}
	}
	fclose(f);
	return -1;
}

struct pair {
	int a, b;
};

FIXTURE(many)
{
	struct pair *p;
	int lsn;
};

FIXTURE_VARIANT(many)
{
	__u16 version;
	__u16 cipher;
};

FIXTURE_VARIANT_ADD(many, tls12_aes_gcm_128)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(many, tls13_chacha20_poly1305)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_SETUP(many)
{
	struct rlimit rl = { .rlim_cur = 2 * PAIRS + 64, .rlim_max = 2 * PAIRS + 64 };
	int i;

	/* Raising the hard limit needs CAP_SYS_RESOURCE; the guest runs as root. */
	ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &rl), 0) TH_LOG("%s", strerror(errno));
	self->p = calloc(PAIRS, sizeof(*self->p));
	ASSERT_NE(self->p, NULL);
	for (i = 0; i < PAIRS; i++) {
		self->p[i].a = -1;
		self->p[i].b = -1;
	}
}

FIXTURE_TEARDOWN(many)
{
	int i;

	for (i = 0; i < PAIRS; i++) {
		if (self->p[i].a >= 0)
			close(self->p[i].a);
		if (self->p[i].b >= 0)
			close(self->p[i].b);
	}
	free(self->p);
}

/* Keys differ per direction and sequence numbers per pair. */
static int pair_keys(struct pair *p, __u16 version, __u16 cipher, int i)
{
	struct tlsrec ab, ba;

	if (tlsrec_init(&ab, version, cipher, 2 * i, i) ||
	    tlsrec_init(&ba, version, cipher, 2 * i + 1, i))
		return -1;
	if (tlsrec_ulp(p->a) || tlsrec_ulp(p->b))
		return -1;
	if (tlsrec_set_key(p->a, TLS_TX, &ab) || tlsrec_set_key(p->b, TLS_RX, &ab) ||
	    tlsrec_set_key(p->b, TLS_TX, &ba) || tlsrec_set_key(p->a, TLS_RX, &ba))
		return -1;
	return 0;
}

TEST_F_TIMEOUT(many, thousand_pairs, 300)
{
	long tx0 = stat_counter("TlsCurrTxSw"), rx0 = stat_counter("TlsCurrRxSw");
	char msg[32], buf[32];
	int i, len;

	ASSERT_GE(tx0, 0) TH_LOG("no TlsCurrTxSw in /proc/net/tls_stat");
	ASSERT_GE(rx0, 0) TH_LOG("no TlsCurrRxSw in /proc/net/tls_stat");

	for (i = 0; i < PAIRS; i++) {
		ASSERT_EQ(tlsrec_tcp_pair(&self->p[i].a, &self->p[i].b, 10), 0)
			TH_LOG("pair %d: %s", i, strerror(errno));
		ASSERT_EQ(pair_keys(&self->p[i], variant->version, variant->cipher, i), 0)
			TH_LOG("pair %d keys: %s", i, strerror(errno));
	}
	EXPECT_EQ(stat_counter("TlsCurrTxSw"), tx0 + 2 * PAIRS);
	EXPECT_EQ(stat_counter("TlsCurrRxSw"), rx0 + 2 * PAIRS);

	/* All sends first: every pair holds a record in flight at once. */
	for (i = 0; i < PAIRS; i++) {
		len = snprintf(msg, sizeof(msg), "a->b %d", i);
		ASSERT_EQ(send(self->p[i].a, msg, len, 0), len);
		len = snprintf(msg, sizeof(msg), "b->a %d", i);
		ASSERT_EQ(send(self->p[i].b, msg, len, 0), len);
	}
	for (i = 0; i < PAIRS; i++) {
		len = snprintf(msg, sizeof(msg), "a->b %d", i);
		ASSERT_EQ(recv(self->p[i].b, buf, sizeof(buf), 0), len)
			TH_LOG("pair %d: %s", i, strerror(errno));
		ASSERT_EQ(memcmp(buf, msg, len), 0);
		len = snprintf(msg, sizeof(msg), "b->a %d", i);
		ASSERT_EQ(recv(self->p[i].a, buf, sizeof(buf), 0), len)
			TH_LOG("pair %d: %s", i, strerror(errno));
		ASSERT_EQ(memcmp(buf, msg, len), 0);
	}

	for (i = 0; i < PAIRS; i++) {
		EXPECT_EQ(close(self->p[i].a), 0);
		EXPECT_EQ(close(self->p[i].b), 0);
		self->p[i].a = -1;
		self->p[i].b = -1;
	}
	EXPECT_EQ(stat_counter("TlsCurrTxSw"), tx0);
	EXPECT_EQ(stat_counter("TlsCurrRxSw"), rx0);
}

TEST_HARNESS_MAIN
