// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record layer under injected allocation failures: a kTLS socket
 * sends a known byte pattern, with send(), sendfile() and splice() and
 * across TLS 1.3 key updates, to another kTLS socket that reads it with
 * recv() and splice() and checks every byte against its stream offset.
 *
 * A call may fail with ENOMEM; the sender then sends again from the
 * first byte it was not told went out.  What a call reported sent must
 * arrive once, in order, unaltered, before the receiver's timeout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "../tlsrec.h"
#include "faults.h"

#define CIPHER		TLS_CIPHER_AES_GCM_128
#define ROUND_BYTES	(64 * 1024)
#define RETRIES		8
/* The receiver gives up after this long without a byte. */
#define RX_LIMIT_S	10

/* HandshakeType key_update(24), length 1, update_not_requested. */
static const __u8 key_update[] = { 24, 0, 0, 1, 0 };

enum how { HOW_SEND, HOW_SENDFILE, HOW_SPLICE, HOW_REKEY };

static struct pair {
	int tx, rx;
	int tx_gen, rx_gen;		/* key generations installed */
	unsigned long long sent;	/* stream bytes send calls reported */
	unsigned long long got;		/* stream bytes read and checked */
	bool broken;			/* set up again before the next round */
} p = { .tx = -1, .rx = -1, .broken = true };

static int memfd = -1;
unsigned long rec_enomem;

static __u8 pat(unsigned long long off)
{
	return (__u8)((off * 0x9e3779b1ULL) >> 24) ^ (__u8)(off >> 16);
}

static void pattern(__u8 *buf, unsigned long long off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pat(off + i);
}

static int set_gen(int fd, int dir, int gen)
{
	struct tlsrec k;

	if (tlsrec_init(&k, TLS_1_3_VERSION, CIPHER, gen, 0))
		return -1;
	return tlsrec_set_key(fd, dir, &k);
}

/* A setsockopt that may fail once with ENOMEM and must then work. */
static int set_gen_retry(int fd, int dir, int gen)
{
	int i;

	for (i = 0; i < RETRIES; i++) {
		if (!set_gen(fd, dir, gen))
			return 0;
		if (errno != ENOMEM)
			break;
		rec_enomem++;
	}
	return -1;
}

static int set_rcvtimeo_ms(int fd, unsigned int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static void pair_close(void)
{
	if (p.tx >= 0)
		close(p.tx);
	if (p.rx >= 0)
		close(p.rx);
	p.tx = -1;
	p.rx = -1;
}

static int pair_open(void)
{
	pair_close();
	memset(&p, 0, sizeof(p));
	/* Short receive timeouts: receive() checks on the sender between reads. */
	if (tlsrec_tcp_pair(&p.tx, &p.rx, 10) || set_rcvtimeo_ms(p.rx, 100) ||
	    tlsrec_ulp(p.tx) ||
	    tlsrec_ulp(p.rx) || set_gen(p.tx, TLS_TX, 0) || set_gen(p.rx, TLS_RX, 0)) {
		printf("# kTLS pair: %s\n", strerror(errno));
		p.broken = true;
		return -1;
	}
	return 0;
}

/* Before a round, not armed: a pair that a round left broken is replaced. */
static int rec_prepare(void)
{
	return p.broken ? pair_open() : 0;
}

int rec_setup(void)
{
	memfd = memfd_create("ktls_faults", 0);
	if (memfd < 0)
		return -1;
	return pair_open();
}

/* The filler of inj_resync(): a whole short-lived kTLS pair. */
void rec_filler(void)
{
	int a, b;
	char c = 'f';

	if (tlsrec_tcp_pair(&a, &b, 2))
		return;
	if (!tlsrec_ulp(a) && !tlsrec_ulp(b) && !set_gen(a, TLS_TX, 9) &&
	    !set_gen(b, TLS_RX, 9) && send(a, &c, 1, 0) == 1)
		recv(b, &c, 1, 0);
	close(a);
	close(b);
}

/* What the sender thread was asked to do, and how it ended. */
struct sender {
	enum how how;
	int err;		/* errno of a call that failed for good */
	const char *what;
	int done;		/* set last, with release */
};

static int send_retry(const __u8 *buf, size_t len, int flags)
{
	size_t off = 0;
	int tries = 0;
	ssize_t n;

	while (off < len) {
		n = send(p.tx, buf + off, len - off, flags);
		if (n > 0) {
			off += n;
			__atomic_add_fetch(&p.sent, n, __ATOMIC_RELEASE);
			continue;
		}
		if (n < 0 && errno == ENOMEM && ++tries < RETRIES) {
			rec_enomem++;
			continue;
		}
		return -1;
	}
	return 0;
}

/* send() in sizes that cross record boundaries, some with MSG_MORE. */
static int by_send(void)
{
	static const size_t sizes[] = { 1, 700, 16384, 16385, 5000, 100, 20000 };
	static __u8 buf[ROUND_BYTES];
	size_t i, off = 0, n;

	for (i = 0; off < ROUND_BYTES; i++, off += n) {
		n = sizes[i % ARRAY_SIZE(sizes)];
		if (n > ROUND_BYTES - off)
			n = ROUND_BYTES - off;
		pattern(buf, p.sent, n);
		if (send_retry(buf, n, i % 3 == 1 ? MSG_MORE : 0))
			return -1;
	}
	return 0;
}

static int by_sendfile(void)
{
	static __u8 buf[ROUND_BYTES];
	int tries = 0;
	off_t off = 0;
	ssize_t n;

	pattern(buf, p.sent, ROUND_BYTES);
	if (pwrite(memfd, buf, ROUND_BYTES, 0) != ROUND_BYTES)
		return -1;
	while (off < ROUND_BYTES) {
		off_t was = off;

		n = sendfile(p.tx, memfd, &off, ROUND_BYTES - off);
		if (n > 0) {
			__atomic_add_fetch(&p.sent, off - was, __ATOMIC_RELEASE);
			continue;
		}
		if (n < 0 && errno == ENOMEM && ++tries < RETRIES) {
			rec_enomem++;
			continue;
		}
		return -1;
	}
	return 0;
}

static int by_splice(void)
{
	static __u8 buf[16384];
	int pfd[2], tries = 0, ret = -1;
	size_t left = ROUND_BYTES, inpipe;
	ssize_t n;

	if (pipe(pfd))
		return -1;
	while (left) {
		inpipe = left < sizeof(buf) ? left : sizeof(buf);
		pattern(buf, p.sent, inpipe);
		if (write(pfd[1], buf, inpipe) != (ssize_t)inpipe)
			goto out;
		while (inpipe) {
			n = splice(pfd[0], NULL, p.tx, NULL, inpipe, 0);
			if (n > 0) {
				inpipe -= n;
				left -= n;
				__atomic_add_fetch(&p.sent, n, __ATOMIC_RELEASE);
				continue;
			}
			if (n < 0 && errno == ENOMEM && ++tries < RETRIES) {
				rec_enomem++;
				continue;
			}
			goto out;
		}
	}
	ret = 0;
out:
	close(pfd[0]);
	close(pfd[1]);
	return ret;
}

/* Data, a KeyUpdate under the old key, the next key, more data. */
static int by_rekey(void)
{
	static __u8 buf[ROUND_BYTES / 2];
	int tries = 0;

	pattern(buf, p.sent, sizeof(buf));
	if (send_retry(buf, sizeof(buf), 0))
		return -1;
	while (tlsrec_send_type(p.tx, TLSREC_HANDSHAKE, key_update,
				sizeof(key_update), 0) != sizeof(key_update)) {
		if (errno != ENOMEM || ++tries >= RETRIES)
			return -1;
		rec_enomem++;
	}
	if (set_gen_retry(p.tx, TLS_TX, p.tx_gen + 1))
		return -1;
	p.tx_gen++;
	pattern(buf, p.sent, sizeof(buf));
	return send_retry(buf, sizeof(buf), 0);
}

static int (*const senders[])(void) = {
	[HOW_SEND] = by_send,
	[HOW_SENDFILE] = by_sendfile,
	[HOW_SPLICE] = by_splice,
	[HOW_REKEY] = by_rekey,
};

static void *sender_run(void *arg)
{
	struct sender *s = arg;

	if (senders[s->how]())
		s->err = errno;
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Check @n bytes read at stream offset p.got. */
static int check(const __u8 *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != pat(p.got + i)) {
			bad("byte %llu differs (sent %llu)", p.got + i,
			    __atomic_load_n(&p.sent, __ATOMIC_ACQUIRE));
			return -1;
		}
	}
	p.got += n;
	return 0;
}

/* The control record of a KeyUpdate, then the next RX key. */
static int recv_key_update(void)
{
	__u8 buf[64], type;
	ssize_t n;
	int tries = 0;

	for (;;) {
		n = tlsrec_recv_type(p.rx, &type, buf, sizeof(buf), 0);
		if (n >= 0 || errno != ENOMEM || ++tries >= RETRIES)
			break;
		rec_enomem++;
	}
	if (n != sizeof(key_update) || type != TLSREC_HANDSHAKE ||
	    memcmp(buf, key_update, sizeof(key_update))) {
		bad("expected a KeyUpdate record: %zd, type %u (%s)", n, type,
		    n < 0 ? strerror(errno) : "");
		return -1;
	}
	return 0;
}

static ssize_t rx_read(__u8 *buf, size_t len, bool by_splice, int *pfd)
{
	ssize_t n;

	if (!by_splice)
		return recv(p.rx, buf, len, 0);
	n = splice(p.rx, NULL, pfd[1], NULL, len, 0);
	if (n <= 0)
		return n;
	return read(pfd[0], buf, n) == n ? n : -1;
}

/*
 * Read until every byte reported sent arrived, while the sender runs.
 * recv() sizes vary so that reads end inside records as well.
 */
static enum outcome receive(struct sender *s, bool by_splice)
{
	static __u8 buf[ROUND_BYTES];
	static const size_t sizes[] = { 1, 3000, 16384, 40000, 100 };
	enum outcome out = OUT_BAD;
	int pfd[2], i = 0, tries = 0;
	double last = now_s();
	ssize_t n;

	if (pipe(pfd))
		return OUT_BAD;
	for (;;) {
		if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) &&
		    p.got == __atomic_load_n(&p.sent, __ATOMIC_ACQUIRE)) {
			out = OUT_OK;
			break;
		}
		/* Reads time out every 100 ms: is the sender done? */
		n = rx_read(buf, sizes[i++ % ARRAY_SIZE(sizes)], by_splice, pfd);
		if (n < 0 && errno == EAGAIN) {
			if (now_s() - last < RX_LIMIT_S)
				continue;
			errno = ETIMEDOUT;
		}
		if (n > 0) {
			last = now_s();
			/* done first: after it, sent is final. */
			if (__atomic_load_n(&s->done, __ATOMIC_ACQUIRE) &&
			    p.got + n > __atomic_load_n(&p.sent, __ATOMIC_ACQUIRE)) {
				bad("%zd bytes more than were reported sent", n);
				break;
			}
			if (check(buf, n))
				break;
			continue;
		}
		if (n < 0 && errno == ENOMEM && ++tries < RETRIES) {
			rec_enomem++;
			continue;
		}
		if (n < 0 && errno == EIO && !by_splice) {
			/* The KeyUpdate record; its key goes in right away. */
			if (recv_key_update())
				break;
			if (set_gen_retry(p.rx, TLS_RX, p.rx_gen + 1)) {
				bad("next RX key: %s", strerror(errno));
				break;
			}
			p.rx_gen++;
			continue;
		}
		bad("receiver at %llu of %llu: %s", p.got,
		    __atomic_load_n(&p.sent, __ATOMIC_ACQUIRE),
		    n ? strerror(errno) : "EOF");
		break;
	}
	close(pfd[0]);
	close(pfd[1]);
	return out;
}

static enum outcome rec_round(enum how how)
{
	struct sender s = { .how = how };
	enum outcome out;
	pthread_t thr;

	pthread_create(&thr, NULL, sender_run, &s);
	out = receive(&s, how == HOW_SPLICE);
	if (out != OUT_OK) {
		/* Unblock the sender: the pair is done for. */
		shutdown(p.tx, SHUT_RDWR);
		shutdown(p.rx, SHUT_RDWR);
	}
	pthread_join(thr, NULL);
	if (out == OUT_OK && s.err) {
		/*
		 * A call failed for good (ENOMEM beyond the retries, or a
		 * key update refused): the application would close.  The
		 * bytes before it all arrived, which is what counts.
		 */
		out = OUT_CLOSED;
	}
	if (out != OUT_OK)
		p.broken = true;
	return out;
}

static enum outcome rec_send(void) { return rec_round(HOW_SEND); }
static enum outcome rec_sendfile(void) { return rec_round(HOW_SENDFILE); }
static enum outcome rec_splice(void) { return rec_round(HOW_SPLICE); }
static enum outcome rec_rekey(void) { return rec_round(HOW_REKEY); }

const struct work rec_works[] = {
	{ "record layer: send, recv", rec_prepare, rec_send },
	{ "record layer: sendfile, recv", rec_prepare, rec_sendfile },
	{ "record layer: splice both ways", rec_prepare, rec_splice },
	{ "record layer: TLS 1.3 key update, recv", rec_prepare, rec_rekey },
};

const unsigned int rec_nr_works = ARRAY_SIZE(rec_works);
