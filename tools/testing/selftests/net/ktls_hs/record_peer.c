// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kTLS record layer against a raw TCP peer that frames, seals and
 * opens records itself (tlsrec.c, on OpenSSL): what kTLS puts on the wire
 * byte for byte (header, explicit nonce, sequence numbers, TLS 1.3 inner
 * type), that it reads what an independent implementation writes, and how
 * it fails on truncated, corrupted and malformed records.  The expected
 * errors are those of the in-tree net/tls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

/* Sequence numbers about to cross 2^32: a truncation to 32 bits shows. */
#define TX_SEQ	0xfffffffeULL
#define RX_SEQ	0x1fffffffdULL

struct conn {
	int ktls;		/* the kTLS socket under test */
	int raw;		/* the raw TCP peer */
	struct tlsrec out;	/* what kTLS sends (its TLS_TX) */
	struct tlsrec in;	/* what the peer sends (kTLS's TLS_RX) */
	__u8 rec[TLSREC_MAX];
	__u8 buf[2 * TLSREC_MAX];
};

static int conn_setup_at(struct conn *p, __u16 version, __u16 cipher,
			 __u64 tx_seq, __u64 rx_seq)
{
	if (tlsrec_tcp_pair(&p->ktls, &p->raw, 5))
		return -1;
	if (tlsrec_init(&p->out, version, cipher, 1, tx_seq) ||
	    tlsrec_init(&p->in, version, cipher, 2, rx_seq))
		return -1;
	if (tlsrec_ulp(p->ktls) ||
	    tlsrec_set_key(p->ktls, TLS_TX, &p->out) ||
	    tlsrec_set_key(p->ktls, TLS_RX, &p->in))
		return -1;
	return 0;
}

static int conn_setup(struct conn *p, __u16 version, __u16 cipher)
{
	return conn_setup_at(p, version, cipher, TX_SEQ, RX_SEQ);
}

static void conn_teardown(struct conn *p)
{
	close(p->ktls);
	close(p->raw);
}

static void fill(__u8 *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (i * 131 + seed * 7 + (i >> 8)) & 0xff;
}

/* The largest record body kTLS accepts for this connection. */
static size_t max_body(const struct tlsrec *r)
{
	return TLSREC_MAX_PLAIN + tlsrec_overhead(r) - TLSREC_HDR;
}

/* Peer sends one record of @type sealed with the RX keys of kTLS. */
static int peer_send(struct conn *p, __u8 type, const void *data,
		     size_t len, size_t pad)
{
	size_t n = tlsrec_seal(&p->in, type, data, len, pad, p->rec);

	return tlsrec_write_all(p->raw, p->rec, n);
}

/*
 * Peer reads one record kTLS sent and checks its framing: header, explicit
 * nonce (TLS 1.2 GCM/CCM: the iv given to the kernel plus the record's
 * index), and that it opens under the expected sequence number.
 */
static ssize_t peer_recv_check(struct __test_metadata *_metadata,
			       struct conn *p, __u8 want_type, __u8 **data)
{
	size_t nlen = tlsrec_nonce_len(&p->out), len;
	__u8 expect_nonce[8], type;
	ssize_t n;

	memcpy(expect_nonce, p->out.nonce, sizeof(expect_nonce));
	n = tlsrec_read(p->raw, p->rec);
	EXPECT_GT(n, 0)
		TH_LOG("no record from kTLS: %s", n ? strerror(errno) : "EOF");
	if (n <= 0)
		return -1;
	EXPECT_EQ(p->rec[1], 3);
	EXPECT_EQ(p->rec[2], 3);
	/* A 1.3 record shows only the outer type, application data. */
	EXPECT_EQ(p->rec[0], p->out.version == TLS_1_3_VERSION ?
			     TLSREC_DATA : want_type);
	EXPECT_EQ(memcmp(p->rec + TLSREC_HDR, expect_nonce, nlen), 0)
		TH_LOG("explicit nonce is not iv + record index");
	EXPECT_EQ(tlsrec_open(&p->out, p->rec, n, &type, data, &len), 0)
		TH_LOG("record %llu does not open",
		       (unsigned long long)p->out.seq);
	if (_metadata->exit_code)
		return -1;
	EXPECT_EQ(type, want_type);
	EXPECT_LE(len, TLSREC_MAX_PLAIN);
	return len;
}

FIXTURE(peer)
{
	struct conn p;
};

FIXTURE_VARIANT(peer)
{
	__u16 version;
	__u16 cipher;
};

FIXTURE_VARIANT_ADD(peer, tls12_aes_gcm_128)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(peer, tls12_aes_gcm_256)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(peer, tls12_aes_ccm_128)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(peer, tls12_chacha20_poly1305)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(peer, tls13_aes_gcm_128)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(peer, tls13_aes_gcm_256)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(peer, tls13_aes_ccm_128)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(peer, tls13_chacha20_poly1305)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_SETUP(peer)
{
	ASSERT_EQ(conn_setup(&self->p, variant->version, variant->cipher), 0)
		TH_LOG("kTLS setup (%s): %s",
		       tlsrec_cipher_name(variant->cipher), strerror(errno));
}

FIXTURE_TEARDOWN(peer)
{
	conn_teardown(&self->p);
}

/* One send() of a few bytes is one record, and consecutive ones count up. */
TEST_F(peer, send_one_record_each)
{
	static const char *const msgs[] = { "a", "hello kTLS", "third record" };
	struct conn *p = &self->p;
	__u8 *data;
	size_t i, len;

	for (i = 0; i < 3; i++) {
		len = strlen(msgs[i]);
		ASSERT_EQ(send(p->ktls, msgs[i], len, 0), (ssize_t)len);
		ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data),
			  (ssize_t)len);
		EXPECT_EQ(memcmp(data, msgs[i], len), 0);
		/* Exactly one record: nothing else is on the wire. */
		EXPECT_EQ(recv(p->raw, p->rec, 1, MSG_DONTWAIT), -1);
	}
	EXPECT_EQ(p->out.seq, TX_SEQ + 3);
}

/* Large sends are cut into full records; the stream comes out intact. */
TEST_F(peer, send_sizes)
{
	static const size_t sizes[] = { 1, 1000, 16383, 16384, 16385, 50000 };
	static __u8 src[50000];
	struct conn *p = &self->p;
	size_t i, got, chunks;
	__u8 *data;
	ssize_t n;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		fill(src, sizes[i], i);
		ASSERT_EQ(send(p->ktls, src, sizes[i], 0), (ssize_t)sizes[i]);
		for (got = 0, chunks = 0; got < sizes[i]; got += n, chunks++) {
			n = peer_recv_check(_metadata, p, TLSREC_DATA, &data);
			ASSERT_GT(n, 0);
			ASSERT_LE(got + n, sizes[i]);
			ASSERT_EQ(memcmp(data, src + got, n), 0)
				TH_LOG("size %zu: data differs at %zu", sizes[i], got);
		}
		/* No more records than 16 KiB pieces need. */
		EXPECT_EQ(chunks, (sizes[i] + TLSREC_MAX_PLAIN - 1) / TLSREC_MAX_PLAIN);
	}
}

/* MSG_MORE holds the record open until a send without it. */
TEST_F(peer, send_msg_more_joins)
{
	struct conn *p = &self->p;
	__u8 *data;

	ASSERT_EQ(send(p->ktls, "join", 4, MSG_MORE), 4);
	ASSERT_EQ(send(p->ktls, "ed", 2, 0), 2);
	ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data), 6);
	EXPECT_EQ(memcmp(data, "joined", 6), 0);
}

/*
 * shutdown(SHUT_WR) sends the record MSG_MORE held open, then the FIN:
 * the peer reads the data, then EOF, and the socket sends no more.
 */
TEST_F(peer, send_msg_more_shutdown)
{
	struct conn *p = &self->p;
	__u8 *data;

	ASSERT_EQ(send(p->ktls, "pending", 7, MSG_MORE), 7);
	ASSERT_EQ(shutdown(p->ktls, SHUT_WR), 0);
	ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data), 7);
	EXPECT_EQ(memcmp(data, "pending", 7), 0);
	EXPECT_EQ(tlsrec_read(p->raw, p->rec), 0);
	EXPECT_EQ(send(p->ktls, "x", 1, MSG_NOSIGNAL), -1);
	EXPECT_EQ(errno, EPIPE);
	/* The other direction still works. */
	ASSERT_EQ(peer_send(p, TLSREC_DATA, "back", 4, 0), 0);
	ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 4);
	EXPECT_EQ(memcmp(p->buf, "back", 4), 0);
}

/*
 * The same with full records sealed ahead of the open one, more than the
 * peer's receive buffer holds until it reads: the shutdown waits for TCP
 * to take them all, in order, before the FIN.
 */
TEST_F(peer, send_msg_more_shutdown_big)
{
	static __u8 src[300000];
	struct conn *p = &self->p;
	size_t got = 0, off = 0;
	int rcvbuf = 16384, status;
	__u8 *data;
	ssize_t n;
	pid_t pid;

	fill(src, sizeof(src), 5);
	ASSERT_EQ(setsockopt(p->raw, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
			     sizeof(rcvbuf)), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* The writer: kTLS may only hand part of it to TCP at once. */
		while (off < sizeof(src)) {
			n = send(p->ktls, src + off, sizeof(src) - off, MSG_MORE);
			if (n <= 0)
				_exit(1);
			off += n;
		}
		_exit(shutdown(p->ktls, SHUT_WR) ? 2 : 0);
	}
	while (got < sizeof(src)) {
		n = peer_recv_check(_metadata, p, TLSREC_DATA, &data);
		if (n <= 0)
			break;
		if (got + n > sizeof(src) || memcmp(data, src + got, n))
			break;
		got += n;
	}
	EXPECT_EQ(got, sizeof(src));
	EXPECT_EQ(tlsrec_read(p->raw, p->rec), 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("writer status %#x", status);
}

/* A record type set by cmsg reaches the wire as that type. */
TEST_F(peer, send_control_type)
{
	struct conn *p = &self->p;
	__u8 *data;

	ASSERT_EQ(tlsrec_send_type(p->ktls, TLSREC_ALERT, "\x01\x00", 2, 0), 2);
	ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_ALERT, &data), 2);
	EXPECT_EQ(memcmp(data, "\x01\x00", 2), 0);
	ASSERT_EQ(send(p->ktls, "d", 1, 0), 1);
	ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data), 1);
}

/* Records the peer seals are read back, across record boundaries. */
TEST_F(peer, recv_peer_records)
{
	static const size_t sizes[] = { 1, 77, 4096, 16384, 16384, 3 };
	static __u8 src[40000], dst[40000];
	struct conn *p = &self->p;
	size_t i, off = 0;

	fill(src, sizeof(src), 9);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		ASSERT_EQ(peer_send(p, TLSREC_DATA, src + off, sizes[i], 0), 0);
		off += sizes[i];
	}
	ASSERT_LE(off, sizeof(dst));
	ASSERT_EQ(tlsrec_recv_all(p->ktls, dst, off), (ssize_t)off);
	EXPECT_EQ(memcmp(dst, src, off), 0);
}

/* A short read leaves the rest of the record for the next one. */
TEST_F(peer, recv_partial_reads)
{
	struct conn *p = &self->p;
	__u8 src[3000];
	size_t off;

	fill(src, sizeof(src), 3);
	ASSERT_EQ(peer_send(p, TLSREC_DATA, src, sizeof(src), 0), 0);
	for (off = 0; off < sizeof(src); off += 1000) {
		ASSERT_EQ(recv(p->ktls, p->buf, 1000, 0), 1000);
		EXPECT_EQ(memcmp(p->buf, src + off, 1000), 0);
	}
}

/* The kernel takes the explicit nonce from the record, not from its count. */
TEST_F(peer, recv_any_explicit_nonce)
{
	struct conn *p = &self->p;
	int i;

	for (i = 0; i < 4; i++) {
		/* Ignored by suites whose nonce is implicit (1.3, ChaCha20). */
		memset(p->in.nonce, 0x11 * (i + 1), sizeof(p->in.nonce));
		ASSERT_EQ(peer_send(p, TLSREC_DATA, "nonce", 5, 0), 0);
		ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 5);
		EXPECT_EQ(memcmp(p->buf, "nonce", 5), 0);
	}
}

/*
 * An empty data record is valid and delivers nothing: in particular the
 * read must not return 0, which the reader would take for EOF.
 */
TEST_F(peer, recv_zero_length_record)
{
	struct conn *p = &self->p;

	ASSERT_EQ(peer_send(p, TLSREC_DATA, NULL, 0, 0), 0);
	ASSERT_EQ(peer_send(p, TLSREC_DATA, "abc", 3, 0), 0);
	ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 3);
	EXPECT_EQ(memcmp(p->buf, "abc", 3), 0);
}

/* A record that ends inside its header at EOF is a clean EOF, as upstream. */
TEST_F(peer, recv_truncated_header)
{
	struct conn *p = &self->p;
	size_t n;

	ASSERT_EQ(peer_send(p, TLSREC_DATA, "ok", 2, 0), 0);
	n = tlsrec_seal(&p->in, TLSREC_DATA, "lost", 4, 0, p->rec);
	ASSERT_GT(n, 3U);
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, 3), 0);
	ASSERT_EQ(shutdown(p->raw, SHUT_WR), 0);
	ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 2);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 0);
}

/* Same when the peer goes away inside a record body. */
TEST_F(peer, recv_truncated_body)
{
	struct conn *p = &self->p;
	size_t n;

	ASSERT_EQ(peer_send(p, TLSREC_DATA, "ok", 2, 0), 0);
	n = tlsrec_seal(&p->in, TLSREC_DATA, p->buf, 1000, 0, p->rec);
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n / 2), 0);
	ASSERT_EQ(shutdown(p->raw, SHUT_WR), 0);
	ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 2);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 0);
}

/*
 * Send a valid record with byte @at flipped, then a good one: the reader
 * must get EBADMSG, and again on the next read (the socket stays in error,
 * the good record behind it is never delivered).
 */
static void recv_corrupted(struct __test_metadata *_metadata, struct conn *p,
			   long at)
{
	size_t n = tlsrec_seal(&p->in, TLSREC_DATA, "corrupt me", 10, 0, p->rec);

	p->rec[at < 0 ? (long)n + at : at] ^= 0x01;
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n), 0);
	ASSERT_EQ(peer_send(p, TLSREC_DATA, "good", 4, 0), 0);

	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EBADMSG);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), MSG_DONTWAIT), -1);
	EXPECT_EQ(errno, EBADMSG);
}

TEST_F(peer, recv_corrupt_tag)
{
	recv_corrupted(_metadata, &self->p, -1);
}

TEST_F(peer, recv_corrupt_ciphertext)
{
	recv_corrupted(_metadata, &self->p,
		       TLSREC_HDR + tlsrec_nonce_len(&self->p.in) + 2);
}

/*
 * The header's type byte: part of the TLS 1.2 AAD, so a flip fails the
 * tag.  In TLS 1.3 upstream builds the AAD with the only legal outer type,
 * application data, whatever the wire says: the record still opens.
 */
TEST_F(peer, recv_header_type_flipped)
{
	struct conn *p = &self->p;
	size_t n;

	if (variant->version == TLS_1_2_VERSION) {
		recv_corrupted(_metadata, p, 0);
		return;
	}
	n = tlsrec_seal(&p->in, TLSREC_DATA, "outer", 5, 0, p->rec);
	p->rec[0] = TLSREC_HANDSHAKE;
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 5);
	EXPECT_EQ(memcmp(p->buf, "outer", 5), 0);
}

/* A record sealed under the wrong sequence number (one was skipped). */
TEST_F(peer, recv_skipped_sequence)
{
	struct conn *p = &self->p;

	p->in.seq++;
	ASSERT_EQ(peer_send(p, TLSREC_DATA, "gap", 3, 0), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EBADMSG);
}

/* A header announcing more than the largest legal record: EMSGSIZE. */
TEST_F(peer, recv_oversized_length)
{
	struct conn *p = &self->p;
	size_t body = max_body(&p->in) + 1;
	__u8 hdr[TLSREC_HDR + 8] = { TLSREC_DATA, 3, 3, body >> 8, body & 0xff };

	ASSERT_EQ(tlsrec_write_all(p->raw, hdr, sizeof(hdr)), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EMSGSIZE);
}

/* The largest legal record passes, one byte more of plaintext does not. */
TEST_F(peer, recv_plaintext_limit)
{
	static __u8 src[TLSREC_MAX_PLAIN + 1];
	struct conn *p = &self->p;
	size_t n;

	fill(src, sizeof(src), 5);
	ASSERT_EQ(peer_send(p, TLSREC_DATA, src, TLSREC_MAX_PLAIN, 0), 0);
	ASSERT_EQ(tlsrec_recv_all(p->ktls, p->buf, TLSREC_MAX_PLAIN),
		  TLSREC_MAX_PLAIN);
	EXPECT_EQ(memcmp(p->buf, src, TLSREC_MAX_PLAIN), 0);

	n = tlsrec_seal(&p->in, TLSREC_DATA, src, sizeof(src), 0, p->rec);
	ASSERT_EQ(n - TLSREC_HDR, max_body(&p->in) + 1);
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EMSGSIZE);
}

/* Shorter than the tag (and explicit nonce): cannot be a record. */
TEST_F(peer, recv_short_length)
{
	struct conn *p = &self->p;
	size_t body = tlsrec_overhead(&p->in) - TLSREC_HDR - 2;
	__u8 rec[TLSREC_HDR + 32] = { TLSREC_DATA, 3, 3, 0, body };

	ASSERT_EQ(tlsrec_write_all(p->raw, rec, TLSREC_HDR + body), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EBADMSG);
}

/* Both 1.2 and 1.3 records carry the version 3,3 in their header. */
TEST_F(peer, recv_bad_version)
{
	struct conn *p = &self->p;
	size_t n = tlsrec_seal(&p->in, TLSREC_DATA, "version", 7, 0, p->rec);

	p->rec[2] = 1;	/* TLS 1.0 */
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EINVAL);
}

/*
 * A content type TLS does not define is not the kernel's to judge: it is
 * handed up as a control record, which needs a cmsg buffer to be read.
 */
TEST_F(peer, recv_unknown_content_type)
{
	struct conn *p = &self->p;
	__u8 type;

	ASSERT_EQ(peer_send(p, 0x63, "odd", 3, 0), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EIO);
	EXPECT_EQ(tlsrec_recv_type(p->ktls, &type, p->buf, sizeof(p->buf), 0), 3);
	EXPECT_EQ(type, 0x63);
	EXPECT_EQ(memcmp(p->buf, "odd", 3), 0);
}

/* Both directions at once, many records, and the counters stay in step. */
TEST_F(peer, both_directions_interleaved)
{
	struct conn *p = &self->p;
	__u8 *data, msg[64];
	int i;

	for (i = 0; i < 50; i++) {
		fill(msg, sizeof(msg), i);
		ASSERT_EQ(send(p->ktls, msg, i + 1, 0), i + 1);
		ASSERT_EQ(peer_send(p, TLSREC_DATA, msg, 64 - i, 0), 0);
		ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data), i + 1);
		EXPECT_EQ(memcmp(data, msg, i + 1), 0);
		ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 64 - i);
		EXPECT_EQ(memcmp(p->buf, msg, 64 - i), 0);
	}
}

/*
 * connect(AF_UNSPEC) would have TCP drop its queues under the records:
 * refused with EOPNOTSUPP, as upstream does, and the stream goes on.
 */
TEST_F(peer, disconnect_refused)
{
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	struct conn *p = &self->p;
	__u8 *data;

	ASSERT_EQ(peer_send(p, TLSREC_DATA, "queued", 6, 0), 0);
	EXPECT_EQ(connect(p->ktls, &unspec, sizeof(unspec)), -1);
	EXPECT_EQ(errno, EOPNOTSUPP);
	ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 6);
	EXPECT_EQ(memcmp(p->buf, "queued", 6), 0);
	ASSERT_EQ(send(p->ktls, "after", 5, 0), 5);
	ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data), 5);
	EXPECT_EQ(memcmp(data, "after", 5), 0);
}

/*
 * The end of the sequence numbers (RFC 5246 6.1, RFC 8446 5.3: they never
 * wrap, or a nonce would repeat): keys set two records before it.
 */
#define LAST_SEQ	(~0ULL)

FIXTURE(seq_end)
{
	struct conn p;
};

FIXTURE_VARIANT(seq_end)
{
	__u16 version;
	__u16 cipher;
};

/* An explicit nonce (1.2 GCM) and none (1.2 ChaCha20, 1.3). */
FIXTURE_VARIANT_ADD(seq_end, tls12_aes_gcm_128)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(seq_end, tls12_chacha20_poly1305)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(seq_end, tls13_aes_gcm_128)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_SETUP(seq_end)
{
	ASSERT_EQ(conn_setup_at(&self->p, variant->version, variant->cipher,
				LAST_SEQ - 1, LAST_SEQ - 1), 0)
		TH_LOG("kTLS setup: %s", strerror(errno));
}

FIXTURE_TEARDOWN(seq_end)
{
	conn_teardown(&self->p);
}

/*
 * The record before the last number goes out; then every write fails with
 * EBADMSG, as upstream's do once they reach the last number, and nothing
 * more reaches the wire.
 */
TEST_F(seq_end, send_stops)
{
	struct conn *p = &self->p;
	__u8 *data;

	ASSERT_EQ(send(p->ktls, "one", 3, 0), 3);
	ASSERT_EQ(peer_recv_check(_metadata, p, TLSREC_DATA, &data), 3);
	EXPECT_EQ(memcmp(data, "one", 3), 0);
	EXPECT_EQ(send(p->ktls, "two", 3, 0), -1);
	EXPECT_EQ(errno, EBADMSG);
	EXPECT_EQ(send(p->ktls, "three", 5, 0), -1);
	EXPECT_EQ(recv(p->raw, p->rec, 1, MSG_DONTWAIT), -1)
		TH_LOG("a record went out after the sequence numbers ended");
}

/*
 * The peer's records up to the last number are read; what follows would
 * repeat a nonce and is not opened: EBADMSG once the data before is read.
 */
TEST_F(seq_end, recv_stops)
{
	struct conn *p = &self->p;

	ASSERT_EQ(peer_send(p, TLSREC_DATA, "one", 3, 0), 0);
	ASSERT_EQ(peer_send(p, TLSREC_DATA, "last", 4, 0), 0);
	ASSERT_EQ(peer_send(p, TLSREC_DATA, "wrapped", 7, 0), 0);
	ASSERT_EQ(tlsrec_recv_all(p->ktls, p->buf, 7), 7);
	EXPECT_EQ(memcmp(p->buf, "onelast", 7), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EBADMSG);
}

/* TLS 1.3 only: the inner plaintext (RFC 8446 5.2 and 5.4). */
FIXTURE(peer13)
{
	struct conn p;
};

FIXTURE_VARIANT(peer13)
{
	__u16 cipher;
};

FIXTURE_VARIANT_ADD(peer13, aes_gcm_128) { .cipher = TLS_CIPHER_AES_GCM_128 };
FIXTURE_VARIANT_ADD(peer13, aes_gcm_256) { .cipher = TLS_CIPHER_AES_GCM_256 };
FIXTURE_VARIANT_ADD(peer13, aes_ccm_128) { .cipher = TLS_CIPHER_AES_CCM_128 };
FIXTURE_VARIANT_ADD(peer13, chacha20_poly1305)
{
	.cipher = TLS_CIPHER_CHACHA20_POLY1305
};

FIXTURE_SETUP(peer13)
{
	ASSERT_EQ(conn_setup(&self->p, TLS_1_3_VERSION, variant->cipher), 0)
		TH_LOG("kTLS setup: %s", strerror(errno));
}

FIXTURE_TEARDOWN(peer13)
{
	conn_teardown(&self->p);
}

/* Zero padding after the inner type is stripped, whatever its length. */
TEST_F(peer13, recv_padding)
{
	static const size_t pads[] = { 1, 15, 255, 4000 };
	struct conn *p = &self->p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pads); i++) {
		ASSERT_EQ(peer_send(p, TLSREC_DATA, "padded", 6, pads[i]), 0);
		ASSERT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), 6)
			TH_LOG("padding %zu", pads[i]);
		EXPECT_EQ(memcmp(p->buf, "padded", 6), 0);
	}
}

/* Padding counts against the plaintext limit. */
TEST_F(peer13, recv_padding_over_limit)
{
	struct conn *p = &self->p;

	ASSERT_EQ(peer_send(p, TLSREC_DATA, p->buf, TLSREC_MAX_PLAIN - 10, 11), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EMSGSIZE);
}

/* A record of nothing but padding: no content type, EBADMSG (RFC 8446 5.4). */
TEST_F(peer13, recv_no_content_type)
{
	struct conn *p = &self->p;
	size_t n;

	n = tlsrec_seal_raw(&p->in, TLSREC_DATA, NULL, 0, 20, true, p->rec);
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EBADMSG);
}

/* Same with no padding either: the tag alone, an empty inner plaintext. */
TEST_F(peer13, recv_empty_inner_plaintext)
{
	struct conn *p = &self->p;
	size_t n;

	n = tlsrec_seal_raw(&p->in, TLSREC_DATA, NULL, 0, 0, true, p->rec);
	ASSERT_EQ(n, TLSREC_HDR + 16U);
	ASSERT_EQ(tlsrec_write_all(p->raw, p->rec, n), 0);
	EXPECT_EQ(recv(p->ktls, p->buf, sizeof(p->buf), 0), -1);
	EXPECT_EQ(errno, EBADMSG);
}

/* The inner type decides; the outer one of a 1.3 record is always 23. */
TEST_F(peer13, recv_inner_type_handshake)
{
	struct conn *p = &self->p;
	__u8 type;

	ASSERT_EQ(peer_send(p, TLSREC_HANDSHAKE, "\x04\x00\x00\x00", 4, 3), 0);
	EXPECT_EQ(tlsrec_recv_type(p->ktls, &type, p->buf, sizeof(p->buf), 0), 4);
	EXPECT_EQ(type, TLSREC_HANDSHAKE);
}

TEST_HARNESS_MAIN
