// SPDX-License-Identifier: GPL-2.0-only
/*
 * sendfile() of a large file over kTLS TX: 64 MB (KTLS_SENDFILE_MB
 * overrides), read back by a kTLS RX socket in another thread and compared
 * byte for byte.  Encryption must never happen in place in the pages it
 * was handed: afterwards the file, read again through the page cache,
 * must still hold what was written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

#define CHUNK	(1024U * 1024)

/* The file's content: 64-bit words that differ at every offset. */
static void pattern(__u8 *buf, size_t off, size_t len)
{
	__u64 w = off / 8;
	size_t i;

	for (i = 0; i < len; i += 8, w++) {
		__u64 v = w * 0x9e3779b97f4a7c15ULL ^ 0x6b746c73ULL;

		memcpy(buf + i, &v, 8);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct reader {
	int fd;
	size_t size;
	size_t good;		/* bytes received that matched */
	int err;		/* errno of a failed read, or -1 on a mismatch */
};

/* Whole CHUNKs with MSG_WAITALL, so each compares against one aligned block. */
static void *reader_run(void *arg)
{
	struct reader *r = arg;
	__u8 *buf = malloc(CHUNK), *want = malloc(CHUNK);
	ssize_t n;

	if (!buf || !want) {
		r->err = ENOMEM;
		goto out;
	}
	while (r->good < r->size) {
		n = recv(r->fd, buf, CHUNK, MSG_WAITALL);
		if (n != CHUNK) {
			r->err = n < 0 ? errno : EPIPE;
			break;
		}
		pattern(want, r->good, CHUNK);
		if (memcmp(buf, want, CHUNK)) {
			r->err = -1;
			break;
		}
		r->good += CHUNK;
	}
out:
	free(buf);
	free(want);
	return NULL;
}

FIXTURE(big)
{
	int tx, rx, file;
	size_t size;
	char path[64];
};

FIXTURE_VARIANT(big)
{
	__u16 version;
};

FIXTURE_VARIANT_ADD(big, tls13_aes_gcm_128)
{
	.version = TLS_1_3_VERSION,
};

FIXTURE_VARIANT_ADD(big, tls12_aes_gcm_128)
{
	.version = TLS_1_2_VERSION,
};

FIXTURE_SETUP(big)
{
	const char *mb = getenv("KTLS_SENDFILE_MB");
	__u8 *buf = malloc(CHUNK);
	struct tlsrec k;
	size_t off;

	self->file = -1;
	self->size = (mb ? strtoul(mb, NULL, 0) : 64) * CHUNK;
	ASSERT_NE(buf, NULL);
	ASSERT_GT(self->size, 0U);
	snprintf(self->path, sizeof(self->path), "/tmp/ktls_sendfile.XXXXXX");
	self->file = mkstemp(self->path);
	ASSERT_GE(self->file, 0) TH_LOG("mkstemp: %s", strerror(errno));
	for (off = 0; off < self->size; off += CHUNK) {
		pattern(buf, off, CHUNK);
		ASSERT_EQ(write(self->file, buf, CHUNK), CHUNK);
	}
	free(buf);

	ASSERT_EQ(tlsrec_tcp_pair(&self->tx, &self->rx, 20), 0);
	ASSERT_EQ(tlsrec_init(&k, variant->version, TLS_CIPHER_AES_GCM_128, 3, 0), 0);
	ASSERT_EQ(tlsrec_ulp(self->tx), 0);
	ASSERT_EQ(tlsrec_ulp(self->rx), 0);
	ASSERT_EQ(tlsrec_set_key(self->tx, TLS_TX, &k), 0)
		TH_LOG("TLS_TX: %s", strerror(errno));
	ASSERT_EQ(tlsrec_set_key(self->rx, TLS_RX, &k), 0)
		TH_LOG("TLS_RX: %s", strerror(errno));
}

FIXTURE_TEARDOWN(big)
{
	if (self->file >= 0) {
		close(self->file);
		unlink(self->path);
	}
	close(self->tx);
	close(self->rx);
}

TEST_F_TIMEOUT(big, sendfile_roundtrip, 240)
{
	struct reader r = { .fd = self->rx, .size = self->size };
	__u8 *buf, *want;
	pthread_t thread;
	off_t off = 0;
	double t0, t1;
	ssize_t n;

	ASSERT_EQ(pthread_create(&thread, NULL, reader_run, &r), 0);
	t0 = now();
	while ((size_t)off < self->size) {
		n = sendfile(self->tx, self->file, &off, self->size - off);
		if (n <= 0)
			break;
	}
	EXPECT_EQ((size_t)off, self->size) TH_LOG("sendfile: %s", strerror(errno));
	pthread_join(thread, NULL);
	t1 = now();
	EXPECT_EQ(r.err, 0) TH_LOG("reader: %s at %zu",
				   r.err < 0 ? "data differs" : strerror(r.err), r.good);
	EXPECT_EQ(r.good, self->size);
	TH_LOG("%zu MB in %.1f s (%.1f MB/s)", self->size / CHUNK, t1 - t0,
	       self->size / CHUNK / (t1 - t0));

	/* The page cache still holds the plaintext that was written. */
	buf = malloc(CHUNK);
	want = malloc(CHUNK);
	ASSERT_NE(buf, NULL);
	ASSERT_NE(want, NULL);
	for (off = 0; (size_t)off < self->size; off += CHUNK) {
		ASSERT_EQ(pread(self->file, buf, CHUNK, off), CHUNK);
		pattern(want, off, CHUNK);
		ASSERT_EQ(memcmp(buf, want, CHUNK), 0)
			TH_LOG("file changed in the MB at %lld", (long long)off);
	}
	free(buf);
	free(want);
}

/* A sendfile of a range in the middle, unaligned, arrives as that range. */
TEST_F(big, sendfile_unaligned_range)
{
	const size_t start = 12345, len = 3 * CHUNK + 777;
	__u8 *buf = malloc(len + 16), *want = malloc(len + 16 + 8);
	off_t off = start;
	size_t got;
	ssize_t n;

	ASSERT_NE(buf, NULL);
	ASSERT_NE(want, NULL);
	ASSERT_LE(start + len, self->size);
	/* pattern() works on whole words: generate from the word below. */
	pattern(want, start & ~7UL, len + 16);

	for (got = 0; got < len; got += n) {
		n = sendfile(self->tx, self->file, &off,
			     len - got < 65536 ? len - got : 65536);
		ASSERT_GT(n, 0) TH_LOG("sendfile: %s", strerror(errno));
		/* Drain as we go, so the sender never waits on a full window. */
		ASSERT_EQ(recv(self->rx, buf + got, n, MSG_WAITALL), n);
	}
	EXPECT_EQ(memcmp(buf, want + (start & 7), len), 0);
	free(buf);
	free(want);
}

TEST_HARNESS_MAIN
