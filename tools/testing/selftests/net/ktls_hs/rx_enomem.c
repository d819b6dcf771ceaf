// SPDX-License-Identifier: GPL-2.0-only
/*
 * A record whose decryption runs out of memory is not lost: the read
 * fails with ENOMEM (or returns what it had read before), and the next
 * read decrypts the same record.  A raw TCP peer sends records sealed
 * in userspace; the kTLS reader fails, through fail-nth, the 1st, 2nd,
 * ... allocation made under ktls_rx_decrypt() (the fault attributes'
 * stack filter confined to that function) in each of its reads, until a
 * read makes fewer, and the stream read must be the stream sent.
 *
 * Needs root and the fault attributes of failslab and fail_page_alloc
 * with their stack filter (the debug kernel); otherwise SKIP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

#define DEBUGFS		"/sys/kernel/debug"
#define STREAM_LEN	((size_t)200 * 1024)
/* Tries of one read, each failing one allocation further on. */
#define MAX_NTH		64

static const char *const attrs[] = { "failslab", "fail_page_alloc" };

/* What the attribute files held before, put back at the end. */
struct saved {
	struct {
		char file[128];
		char val[64];
	} f[24];
	unsigned int nr;
};

FIXTURE(rx_enomem)
{
	int ktls, raw;
	pid_t writer;
	struct saved saved;
	__u8 *stream;
};

FIXTURE_VARIANT(rx_enomem)
{
	__u16 version;
	int rcvbuf;		/* SO_RCVBUF of the reader, 0: the default */
	size_t read_len;	/* bytes asked for per read */
	bool splice;		/* read with splice() rather than recv() */
};

/* Records stay in TCP's queue and are decrypted out of its skbs. */
FIXTURE_VARIANT_ADD(rx_enomem, tls13_in_tcp)
{
	.version = TLS_1_3_VERSION,
	.read_len = 3000,
};

/* TCP holds too little: records are copied out, then decrypted. */
FIXTURE_VARIANT_ADD(rx_enomem, tls13_copied_out)
{
	.version = TLS_1_3_VERSION,
	.rcvbuf = 8192,
	.read_len = 5000,
};

/* Whole records straight into the reader's buffer (TLS 1.2). */
FIXTURE_VARIANT_ADD(rx_enomem, tls12_into_reader)
{
	.version = TLS_1_2_VERSION,
	.read_len = 40000,
};

FIXTURE_VARIANT_ADD(rx_enomem, tls12_copied_out_into_reader)
{
	.version = TLS_1_2_VERSION,
	.rcvbuf = 8192,
	.read_len = 40000,
};

FIXTURE_VARIANT_ADD(rx_enomem, tls13_splice)
{
	.version = TLS_1_3_VERSION,
	.read_len = 16384,
	.splice = true,
};

static __u8 pat(size_t off)
{
	return (__u8)((off * 0x9e3779b1UL) >> 24) ^ (__u8)(off >> 16);
}

static int file_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int file_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* Set an attribute file, remembering what it held. */
static int attr_set(struct saved *sv, const char *attr, const char *file,
		    const char *val)
{
	if (sv->nr == ARRAY_SIZE(sv->f))
		return -1;
	snprintf(sv->f[sv->nr].file, sizeof(sv->f[0].file), DEBUGFS "/%s/%s",
		 attr, file);
	if (file_read(sv->f[sv->nr].file, sv->f[sv->nr].val,
		      sizeof(sv->f[0].val)))
		return -1;
	return file_write(sv->f[sv->nr++].file, val);
}

/*
 * The text of ktls_rx_decrypt(): from its address to the next symbol of
 * the module's above it.
 */
static int decrypt_range(unsigned long *start, unsigned long *end)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long addr, next = ~0UL;
	char line[512], name[256], type;

	*start = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[ktls_hs]"))
			continue;
		if (sscanf(line, "%lx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "ktls_rx_decrypt"))
			*start = addr;
	}
	rewind(f);
	while (*start && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[ktls_hs]") ||
		    sscanf(line, "%lx %c %255s", &addr, &type, name) != 3)
			continue;
		if (addr > *start && addr < next)
			next = addr;
	}
	fclose(f);
	*end = next;
	return *start && next != ~0UL ? 0 : -1;
}

/* The next read fails its @nth allocation under ktls_rx_decrypt(). */
static int nth_set(unsigned int nth)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", nth);
	return file_write("/proc/thread-self/fail-nth", val);
}

/* Whether the failure came (the count ran out); disarms either way. */
static bool nth_fired(void)
{
	char val[16] = "";

	file_read("/proc/thread-self/fail-nth", val, sizeof(val));
	file_write("/proc/thread-self/fail-nth", "0");
	return !strcmp(val, "0");
}

FIXTURE_SETUP(rx_enomem)
{
	unsigned long start, end;
	char range[2][32];
	struct tlsrec in;
	unsigned int i;

	self->ktls = -1;
	self->raw = -1;
	self->writer = -1;
	if (geteuid())
		SKIP(return, "needs root");
	if (access(DEBUGFS "/failslab", F_OK) ||
	    access(DEBUGFS "/fail_page_alloc/min-order", F_OK) ||
	    access(DEBUGFS "/failslab/require-start", F_OK) ||
	    access("/proc/thread-self/fail-nth", F_OK))
		SKIP(return, "no fault attributes with a stack filter");
	ASSERT_EQ(decrypt_range(&start, &end), 0)
		TH_LOG("ktls_rx_decrypt not in /proc/kallsyms");
	snprintf(range[0], sizeof(range[0]), "%lu", start);
	snprintf(range[1], sizeof(range[1]), "%lu", end);

	/*
	 * Only fail-nth fails anything (probability 0), sleeping and
	 * order-0 allocations included, and only under our function.
	 */
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "probability", "0"), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "verbose", "0"), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "ignore-gfp-wait", "N"), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "stacktrace-depth", "32"), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "reject-start", "0"), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "reject-end", "0"), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "require-start", range[0]), 0);
		ASSERT_EQ(attr_set(&self->saved, attrs[i], "require-end", range[1]), 0);
	}
	ASSERT_EQ(attr_set(&self->saved, "fail_page_alloc", "min-order", "0"), 0);

	self->stream = malloc(STREAM_LEN);
	ASSERT_NE(self->stream, NULL);
	for (i = 0; i < STREAM_LEN; i++)
		self->stream[i] = pat(i);

	ASSERT_EQ(tlsrec_tcp_pair(&self->ktls, &self->raw, 10), 0);
	if (variant->rcvbuf)
		ASSERT_EQ(setsockopt(self->ktls, SOL_SOCKET, SO_RCVBUF,
				     &variant->rcvbuf, sizeof(variant->rcvbuf)), 0);
	ASSERT_EQ(tlsrec_init(&in, variant->version, TLS_CIPHER_AES_GCM_128,
			      3, 0), 0);
	ASSERT_EQ(tlsrec_ulp(self->ktls), 0);
	ASSERT_EQ(tlsrec_set_key(self->ktls, TLS_RX, &in), 0);

	/* The peer: records of every size up to the largest, then EOF. */
	self->writer = fork();
	ASSERT_GE(self->writer, 0);
	if (!self->writer) {
		static __u8 rec[TLSREC_MAX];
		size_t off = 0, n, len, k = 0;

		while (off < STREAM_LEN) {
			n = (k++ * 7919) % TLSREC_MAX_PLAIN + 1;
			if (n > STREAM_LEN - off)
				n = STREAM_LEN - off;
			len = tlsrec_seal(&in, TLSREC_DATA, self->stream + off,
					  n, 0, rec);
			if (tlsrec_write_all(self->raw, rec, len))
				_exit(1);
			off += n;
		}
		_exit(shutdown(self->raw, SHUT_WR) ? 2 : 0);
	}
}

FIXTURE_TEARDOWN(rx_enomem)
{
	int status;

	file_write("/proc/thread-self/fail-nth", "0");
	while (self->saved.nr--)
		file_write(self->saved.f[self->saved.nr].file,
			   self->saved.f[self->saved.nr].val);
	if (self->ktls >= 0)
		close(self->ktls);
	if (self->raw >= 0)
		close(self->raw);
	if (self->writer > 0) {
		waitpid(self->writer, &status, 0);
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	}
	free(self->stream);
}

static ssize_t read_some(int fd, __u8 *buf, size_t len, bool by_splice,
			 int *pfd)
{
	ssize_t n;

	if (!by_splice)
		return recv(fd, buf, len, 0);
	n = splice(fd, NULL, pfd[1], NULL, len, 0);
	if (n <= 0)
		return n;
	return read(pfd[0], buf, n) == n ? n : -1;
}

TEST_F(rx_enomem, stream_survives)
{
	static __u8 buf[65536];
	unsigned int nth = 1, fired = 0, enomem = 0;
	size_t got = 0;
	int pfd[2];
	ssize_t n;

	ASSERT_EQ(pipe(pfd), 0);
	for (;;) {
		bool hit;

		ASSERT_EQ(nth_set(nth), 0);
		n = read_some(self->ktls, buf, variant->read_len,
			      variant->splice, pfd);
		hit = nth_fired();
		if (n < 0) {
			/* Only the failure we made, and only as ENOMEM. */
			ASSERT_TRUE(hit && errno == ENOMEM)
				TH_LOG("read at %zu: %s (failure injected: %d)",
				       got, strerror(errno), hit);
		}
		if (n == 0)
			break;
		if (n > 0) {
			ASSERT_LE(got + (size_t)n, STREAM_LEN);
			ASSERT_EQ(memcmp(buf, self->stream + got, n), 0)
				TH_LOG("bytes at %zu differ", got);
			got += n;
		}
		fired += hit;
		enomem += n < 0;
		/* Fail the next allocation on, until a read makes fewer. */
		nth = hit && nth < MAX_NTH ? nth + 1 : 1;
	}
	close(pfd[0]);
	close(pfd[1]);
	EXPECT_EQ(got, STREAM_LEN);
	/* A new socket has buffers to allocate: some failure came. */
	EXPECT_GT(enomem, 0U);
	TH_LOG("%u allocations failed, %u reads ended in ENOMEM", fired,
	       enomem);
}

TEST_HARNESS_MAIN
