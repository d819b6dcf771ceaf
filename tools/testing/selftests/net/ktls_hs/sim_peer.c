// SPDX-License-Identifier: GPL-2.0-only
/*
 * One end of a kTLS stream across the simulated offload NIC (the
 * sim_offload*.sh tests run one in each network namespace).  "send"
 * connects, sets TLS_TX and sends a known pattern with send(),
 * sendfile() or splice() from a pipe; "recv" accepts and checks the
 * pattern byte for byte, either through a kTLS TLS_RX socket or (-r, raw)
 * by opening the records itself with OpenSSL (tlsrec.c), which proves
 * that what the device put on the wire is TLS an independent
 * implementation accepts.  Both ends derive the same keys from -g.
 *
 * Half-way through, the sender can create a file (-m), for a test that
 * acts on the device mid-stream, and update its TLS 1.3 keys (-k): a
 * KeyUpdate record, then TLS_TX of the next generation, which the
 * receiver follows with TLS_RX when it reads the KeyUpdate; -K N spreads
 * N key updates evenly over the stream instead, -e BYTES puts the first
 * one after BYTES and the others evenly over the rest; -D MS slows the
 * sends to one per 10 ms for MS after each update, so that the offload
 * has the time, not only the bytes, to take the new key before the next
 * update or the end.  The receiver can set a small receive buffer (-b),
 * which bounds its TCP window.  Either end can close with a reset (-R),
 * for a stream cut short where no route is left to carry a FIN.  With
 * -l LIMIT the sender caps its records' plaintext with
 * TLS_TX_MAX_PAYLOAD_LEN, and a raw receiver refuses a larger record.
 * TX keys reach a device in a work item after setsockopt() returns, and
 * a short stream can be over by then: with -w the sender starts with
 * small sends 5 ms apart until its namespace's TlsTxDevice counts the
 * socket (at most 20 s), so that a case about the device's records has
 * some.
 *
 * Exit status 0 when everything arrived intact; the last line of stdout
 * says how many bytes and how long setsockopt(TLS_TX or TLS_RX) took.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "tlsrec.h"

struct opts {
	const char *mode;
	const char *addr;
	int port;
	__u16 version;
	__u16 cipher;
	__u8 gen;
	size_t bytes;
	size_t chunk;		/* send: largest send(); recv: largest read */
	bool use_sendfile;
	bool use_splice;	/* send: splice() from a pipe written with it */
	bool raw;
	int timeout;
	unsigned int pause_us;	/* send: pause between sends, to pace */
	unsigned int settle_ms;	/* send: slow sends this long after an update */
	const char *mark;	/* send: created half-way through */
	unsigned int rekeys;	/* send: TLS 1.3 key updates, spread evenly */
	size_t first_update;	/* send: bytes before the first, 0: evenly */
	int rcvbuf;		/* recv: SO_RCVBUF, 0 for the default */
	bool reset;		/* close with a reset, not a FIN */
	bool zc_ro;		/* send: TLS_TX_ZEROCOPY_RO */
	unsigned int limit;	/* TLS_TX_MAX_PAYLOAD_LEN; raw recv: checked */
	bool wait_dev;		/* send: trickle until TX is on the device */
};

/* While the sender waits for the device: the largest send, the pause. */
#define WAIT_DEV_PIECE		256
#define WAIT_DEV_PAUSE_US	5000
#define WAIT_DEV_MAX_US		20e6

#ifndef TLS_TX_MAX_PAYLOAD_LEN
#define TLS_TX_MAX_PAYLOAD_LEN	5
#endif

/* RFC 8446 4.6.3, update_not_requested: the handshake record's payload. */
static const __u8 key_update[] = { 24, 0, 0, 1, 0 };

/* The stream's content: every byte depends on its offset. */
static __u8 pattern_at(size_t off)
{
	__u64 v = (off / 8) * 0x9e3779b97f4a7c15ULL ^ 0x73696d6eULL;

	return v >> (8 * (off % 8));
}

static void pattern(__u8 *buf, size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern_at(off + i);
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* A stream cut short (its link deleted) ends with a reset on close. */
static void set_reset(int fd, const struct opts *o)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	if (o->reset)
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
}

/*
 * TlsTxDevice in this namespace's /proc/net/tls_stat: the sockets whose
 * TX went to a device so far; -1 if there is no such line.
 */
static long tx_device_count(void)
{
	char line[128];
	long v = -1;
	FILE *f;

	f = fopen("/proc/net/tls_stat", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TlsTxDevice %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int set_key(int fd, int dir, const struct opts *o, double *us)
{
	struct tlsrec k;
	double t0;
	int ret;

	if (tlsrec_init(&k, o->version, o->cipher, o->gen, 0))
		return -1;
	if (tlsrec_ulp(fd)) {
		perror("TCP_ULP tls");
		return -1;
	}
	t0 = now_us();
	ret = tlsrec_set_key(fd, dir, &k);
	*us = now_us() - t0;
	if (ret)
		perror(dir == TLS_TX ? "TLS_TX" : "TLS_RX");
	return ret;
}

static int sockaddr_of(const struct opts *o, struct sockaddr_storage *ss,
		       socklen_t *len)
{
	struct sockaddr_in6 *s6 = (void *)ss;
	struct sockaddr_in *s4 = (void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, o->addr, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(o->port);
		*len = sizeof(*s4);
		return 0;
	}
	if (inet_pton(AF_INET6, o->addr, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(o->port);
		*len = sizeof(*s6);
		return 0;
	}
	fprintf(stderr, "bad address %s\n", o->addr);
	return -1;
}

/* The pattern in a file, for sendfile(). */
static int pattern_file(size_t len)
{
	char path[] = "/tmp/sim_peer.XXXXXX";
	__u8 buf[65536];
	size_t off, n;
	int fd;

	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	for (off = 0; off < len; off += n) {
		n = len - off < sizeof(buf) ? len - off : sizeof(buf);
		pattern(buf, off, n);
		if (write(fd, buf, n) != (ssize_t)n) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* One record of @type through kTLS, as SOL_TLS/TLS_SET_RECORD_TYPE says. */
static int send_record(int fd, __u8 type, const void *buf, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(type))] = {};
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_TLS;
	cmsg->cmsg_type = TLS_SET_RECORD_TYPE;
	cmsg->cmsg_len = CMSG_LEN(sizeof(type));
	memcpy(CMSG_DATA(cmsg), &type, sizeof(type));
	return sendmsg(fd, &msg, 0) == (ssize_t)len ? 0 : -1;
}

/* A KeyUpdate record, then TLS_TX of key generation @gen. */
static int key_update_to(int fd, const struct opts *o, __u8 gen)
{
	struct tlsrec k;

	if (send_record(fd, 22, key_update, sizeof(key_update))) {
		perror("KeyUpdate");
		return -1;
	}
	if (tlsrec_init(&k, o->version, o->cipher, gen, 0) ||
	    tlsrec_set_key(fd, TLS_TX, &k)) {
		perror("TLS_TX update");
		return -1;
	}
	return 0;
}

/* Half-way: the mark file. */
static int half_way(const struct opts *o)
{
	int mfd;

	if (o->mark) {
		mfd = open(o->mark, O_CREAT | O_WRONLY, 0600);
		if (mfd < 0) {
			perror(o->mark);
			return -1;
		}
		close(mfd);
	}
	return 0;
}

/* Where key update @k of N goes: at k/(N+1) of the stream, or after -e. */
static size_t update_at(const struct opts *o, unsigned int k)
{
	if (o->first_update)
		return o->first_update +
		       (o->bytes - o->first_update) / o->rekeys * (k - 1);
	return o->bytes / (o->rekeys + 1) * k;
}

/* @n bytes at @off of the pattern through a pipe, spliced into @fd. */
static ssize_t splice_out(int fd, const int pipefd[2], __u8 *buf,
			  size_t off, size_t n)
{
	size_t moved = 0;
	ssize_t ret;

	pattern(buf, off, n);
	if (write(pipefd[1], buf, n) != (ssize_t)n)
		return -1;
	while (moved < n) {
		ret = splice(pipefd[0], NULL, fd, NULL, n - moved, 0);
		if (ret <= 0)
			return -1;
		moved += ret;
	}
	return moved;
}

static int do_send(const struct opts *o)
{
	bool halved = false, waiting = false, on_dev = false;
	size_t dev_from = 0;
	long dev_base = -1;
	double dev_until = 0;
	struct sockaddr_storage ss;
	unsigned int updates = 0;
	double settle_until = 0;
	size_t off = 0, n;
	int fd, one = 1, i, file = -1, pipefd[2] = { -1, -1 };
	__u8 *buf;
	socklen_t sl;
	double us;

	if (sockaddr_of(o, &ss, &sl))
		return 2;
	/* The receiver may still be starting in the other namespace. */
	for (i = 0; i < 100; i++) {
		fd = socket(ss.ss_family, SOCK_STREAM, 0);
		if (fd < 0)
			return 2;
		if (!connect(fd, (void *)&ss, sl))
			break;
		close(fd);
		fd = -1;
		usleep(50000);
	}
	if (fd < 0) {
		perror("connect");
		return 2;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	set_reset(fd, o);
	/* Before TLS_TX: a synchronous install counts in setsockopt(). */
	if (o->wait_dev) {
		dev_base = tx_device_count();
		waiting = dev_base >= 0;
		dev_until = now_us() + WAIT_DEV_MAX_US;
	}
	if (set_key(fd, TLS_TX, o, &us))
		return 2;
	if (o->zc_ro && setsockopt(fd, SOL_TLS, TLS_TX_ZEROCOPY_RO, &one,
				   sizeof(one))) {
		perror("TLS_TX_ZEROCOPY_RO");
		return 2;
	}
	if (o->limit) {
		__u16 cap = o->limit;

		if (setsockopt(fd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &cap,
			       sizeof(cap))) {
			perror("TLS_TX_MAX_PAYLOAD_LEN");
			return 2;
		}
	}

	buf = malloc(o->chunk);
	if (!buf)
		return 2;
	if (o->use_sendfile) {
		file = pattern_file(o->bytes);
		if (file < 0) {
			perror("pattern file");
			return 2;
		}
	}
	/* A pipe holds 64 KB: larger chunks would block its writer. */
	if (o->use_splice && (o->chunk > 65536 || pipe(pipefd))) {
		perror("splice pipe");
		return 2;
	}
	srand(o->gen);
	while (off < o->bytes) {
		ssize_t ret;

		/* Sizes vary so records end everywhere in a frame. */
		n = 1 + rand() % o->chunk;
		if (waiting && n > WAIT_DEV_PIECE)
			n = WAIT_DEV_PIECE;
		if (n > o->bytes - off)
			n = o->bytes - off;
		if (file >= 0) {
			off_t pos = off;

			ret = sendfile(fd, file, &pos, n);
		} else if (o->use_splice) {
			ret = splice_out(fd, pipefd, buf, off, n);
		} else {
			pattern(buf, off, n);
			ret = send(fd, buf, n, 0);
		}
		if (ret <= 0) {
			perror(o->use_sendfile ? "sendfile" :
			       o->use_splice ? "splice" : "send");
			return 1;
		}
		off += ret;
		if (waiting) {
			if (tx_device_count() > dev_base) {
				waiting = false;
				on_dev = true;
				dev_from = off;
			} else if (now_us() > dev_until) {
				waiting = false;
			} else {
				usleep(WAIT_DEV_PAUSE_US);
			}
		}
		if (!halved && off >= o->bytes / 2) {
			halved = true;
			if (half_way(o))
				return 1;
		}
		while (updates < o->rekeys && off >= update_at(o, updates + 1)) {
			updates++;
			if (key_update_to(fd, o, o->gen + updates))
				return 1;
			settle_until = now_us() + o->settle_ms * 1000.0;
		}
		if (settle_until && now_us() < settle_until)
			usleep(o->pause_us > 10000 ? o->pause_us : 10000);
		else if (o->pause_us)
			usleep(o->pause_us);
	}
	free(buf);
	if (file >= 0)
		close(file);
	if (pipefd[0] >= 0) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	close(fd);
	if (o->wait_dev && dev_base < 0)
		printf("no TlsTxDevice in /proc/net/tls_stat: did not wait\n");
	else if (o->wait_dev && on_dev)
		printf("TX on the device after %zu bytes\n", dev_from);
	else if (o->wait_dev && waiting)
		printf("the stream ended before TX was on the device\n");
	else if (o->wait_dev)
		printf("TX not on the device after %.0f s\n",
		       WAIT_DEV_MAX_US / 1e6);
	printf("sent %zu bytes, %u key updates, TLS_TX took %.0f us\n", off,
	       updates, us);
	return 0;
}

/* recv() that also says the record type (TLS_GET_RECORD_TYPE). */
static ssize_t recv_record(int fd, void *buf, size_t len, __u8 *type)
{
	char cbuf[CMSG_SPACE(sizeof(*type))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	*type = TLSREC_DATA;
	n = recvmsg(fd, &msg, 0);
	for (cmsg = CMSG_FIRSTHDR(&msg); n > 0 && cmsg;
	     cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_TLS &&
		    cmsg->cmsg_type == TLS_GET_RECORD_TYPE)
			*type = *(__u8 *)CMSG_DATA(cmsg);
	return n;
}

/* Reads the stream through kTLS, or opens the records itself (raw). */
static int do_recv(const struct opts *o)
{
	unsigned int rekeyed = 0;
	struct sockaddr_storage ss;
	__u8 *buf, *want, *data;
	size_t got = 0, dlen, bufsz;
	int lfd, fd, one = 1;
	struct timeval tv = { .tv_sec = o->timeout };
	struct tlsrec k;
	double us = 0;
	socklen_t sl;
	__u8 type;
	ssize_t n;

	if (sockaddr_of(o, &ss, &sl))
		return 2;
	lfd = socket(ss.ss_family, SOCK_STREAM, 0);
	/* Before listen(): the window scale is agreed in the handshake. */
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (o->rcvbuf && setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &o->rcvbuf,
				     sizeof(o->rcvbuf))) ||
	    bind(lfd, (void *)&ss, sl) || listen(lfd, 1)) {
		perror("listen");
		return 2;
	}
	printf("listening\n");
	fflush(stdout);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("accept");
		return 2;
	}
	close(lfd);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	set_reset(fd, o);

	bufsz = o->chunk < TLSREC_MAX ? TLSREC_MAX : o->chunk;
	buf = malloc(bufsz);
	want = malloc(bufsz);
	if (!buf || !want)
		return 2;
	if (o->raw) {
		if (tlsrec_init(&k, o->version, o->cipher, o->gen, 0))
			return 2;
	} else if (set_key(fd, TLS_RX, o, &us)) {
		return 2;
	}

	while (got < o->bytes) {
		if (o->raw) {
			n = tlsrec_read(fd, buf);
			if (n <= 0)
				break;
			if (tlsrec_open(&k, buf, n, &type, &data, &dlen) ||
			    type != TLSREC_DATA) {
				fprintf(stderr, "record %llu at byte %zu does not open\n",
					(unsigned long long)k.seq, got);
				return 1;
			}
			if (o->limit && dlen > o->limit) {
				fprintf(stderr, "record of %zu bytes at byte %zu, over %u\n",
					dlen, got, o->limit);
				return 1;
			}
		} else {
			n = recv_record(fd, buf, o->chunk, &type);
			if (n <= 0)
				break;
			if (type == 22) {
				/* The sender's keys moved on: follow. */
				if (n != sizeof(key_update) ||
				    memcmp(buf, key_update, n) ||
				    tlsrec_init(&k, o->version, o->cipher,
						o->gen + rekeyed + 1, 0) ||
				    tlsrec_set_key(fd, TLS_RX, &k)) {
					fprintf(stderr, "bad key update at byte %zu\n",
						got);
					return 1;
				}
				rekeyed++;
				continue;
			}
			data = buf;
			dlen = n;
		}
		if (got + dlen > o->bytes) {
			fprintf(stderr, "%zu bytes more than sent\n",
				got + dlen - o->bytes);
			return 1;
		}
		pattern(want, got, dlen);
		if (memcmp(data, want, dlen)) {
			fprintf(stderr, "data differs in the %zu bytes at %zu\n",
				dlen, got);
			return 1;
		}
		got += dlen;
	}
	if (got != o->bytes) {
		fprintf(stderr, "got %zu of %zu bytes: %s\n", got, o->bytes,
			n < 0 ? strerror(errno) : "EOF");
		return 1;
	}
	free(buf);
	free(want);
	close(fd);
	printf("received %zu bytes intact%s, %u key updates, TLS_RX took %.0f us\n",
	       got, rekeyed ? " across a key update" : "", rekeyed, us);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"sim_peer send|recv -a ADDR -p PORT [-v 12|13] [-c 128|256]\n"
		"       [-g KEYGEN] [-n BYTES] [-s CHUNK] [-f (sendfile)]\n"
		"       [-S (splice from a pipe)] [-r (raw)]\n"
		"       [-t TIMEOUT_S] [-d PAUSE_US] [-m HALF_WAY_FILE] [-k (rekey)]\n"
		"       [-K KEY_UPDATES] [-e FIRST_UPDATE_BYTES] [-D SETTLE_MS]\n"
		"       [-b RCVBUF]\n"
		"       [-R (reset on close)] [-z (TLS_TX_ZEROCOPY_RO)]\n"
		"       [-l TLS_TX_MAX_PAYLOAD_LEN] [-w (wait for the device)]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct opts o = {
		.addr = NULL, .port = 0, .version = TLS_1_2_VERSION,
		.cipher = TLS_CIPHER_AES_GCM_128, .gen = 1,
		.bytes = 1 << 20, .chunk = 16384, .timeout = 30,
	};
	int c;

	if (argc < 2)
		usage();
	o.mode = argv[1];
	optind = 2;
	while ((c = getopt(argc, argv, "a:p:v:c:g:n:s:fSrt:d:D:m:kK:e:b:Rzl:w")) != -1) {
		switch (c) {
		case 'a':
			o.addr = optarg;
			break;
		case 'p':
			o.port = atoi(optarg);
			break;
		case 'v':
			o.version = atoi(optarg) == 13 ? TLS_1_3_VERSION : TLS_1_2_VERSION;
			break;
		case 'c':
			o.cipher = atoi(optarg) == 256 ? TLS_CIPHER_AES_GCM_256 :
							 TLS_CIPHER_AES_GCM_128;
			break;
		case 'g':
			o.gen = atoi(optarg);
			break;
		case 'n':
			o.bytes = strtoul(optarg, NULL, 0);
			break;
		case 's':
			o.chunk = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			o.use_sendfile = true;
			break;
		case 'S':
			o.use_splice = true;
			break;
		case 'r':
			o.raw = true;
			break;
		case 't':
			o.timeout = atoi(optarg);
			break;
		case 'd':
			o.pause_us = strtoul(optarg, NULL, 0);
			break;
		case 'D':
			o.settle_ms = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			o.mark = optarg;
			break;
		case 'k':
			o.rekeys = 1;
			break;
		case 'K':
			o.rekeys = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			o.first_update = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			o.rcvbuf = atoi(optarg);
			break;
		case 'R':
			o.reset = true;
			break;
		case 'z':
			o.zc_ro = true;
			break;
		case 'l':
			o.limit = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			o.wait_dev = true;
			break;
		default:
			usage();
		}
	}
	if (!o.addr || !o.port || !o.chunk)
		usage();
	if (!strcmp(o.mode, "send"))
		return do_send(&o);
	if (!strcmp(o.mode, "recv"))
		return do_recv(&o);
	usage();
	return 2;
}
