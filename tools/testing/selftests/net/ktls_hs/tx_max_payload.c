// SPDX-License-Identifier: GPL-2.0-only
/*
 * SOL_TLS TLS_TX_MAX_PAYLOAD_LEN on a socket keyed from userspace: the
 * value reads back, the bounds follow RFC 8449's smallest limit (64, or
 * 63 of payload in TLS 1.3 where the inner content type counts), a
 * record left open by MSG_MORE refuses a new cap with EBUSY, and no
 * record on the wire carries more plaintext than the cap, whether it
 * was built by send(), MSG_MORE sends, sendfile(), splice() or as a
 * control record of TLS_SET_RECORD_TYPE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

#ifndef TLS_TX_MAX_PAYLOAD_LEN
#define TLS_TX_MAX_PAYLOAD_LEN	5
#endif

#define BIG	24000

FIXTURE(cap)
{
	int tx, rx;		/* rx reads the records raw */
	struct tlsrec peer;
	__u8 *sent;
};

FIXTURE_VARIANT(cap)
{
	__u16 version;
	__u16 cipher;
};

FIXTURE_VARIANT_ADD(cap, tls12_aes_gcm_128)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(cap, tls12_chacha20_poly1305)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(cap, tls13_aes_gcm_128)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(cap, tls13_aes_gcm_256)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_SETUP(cap)
{
	size_t i;

	ASSERT_EQ(tlsrec_tcp_pair(&self->tx, &self->rx, 5), 0);
	ASSERT_EQ(tlsrec_init(&self->peer, variant->version, variant->cipher,
			      3, 0), 0);
	ASSERT_EQ(tlsrec_ulp(self->tx), 0);
	ASSERT_EQ(tlsrec_set_key(self->tx, TLS_TX, &self->peer), 0)
		TH_LOG("TLS_TX: %s", strerror(errno));
	self->sent = malloc(BIG);
	ASSERT_NE(self->sent, NULL);
	for (i = 0; i < BIG; i++)
		self->sent[i] = (__u8)(i * 7 + i / 251);
}

FIXTURE_TEARDOWN(cap)
{
	free(self->sent);
	close(self->tx);
	close(self->rx);
}

static int set_cap(int fd, __u16 val)
{
	return setsockopt(fd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &val,
			  sizeof(val));
}

static int get_cap(int fd, __u16 *val)
{
	socklen_t len = sizeof(*val);
	int ret;

	ret = getsockopt(fd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, val, &len);
	if (!ret && len != sizeof(*val)) {
		errno = ERANGE;
		return -1;
	}
	return ret;
}

/* The smallest cap the version takes (RFC 8449 4, less the inner type). */
static __u16 min_cap(__u16 version)
{
	return version == TLS_1_3_VERSION ? 63 : 64;
}

/*
 * Read records of @type off the wire until @len bytes of plaintext came:
 * each must hold at most @cap bytes and the bytes must be @want.
 * Returns the number of records, or -1 (with the reason logged).
 */
static int read_capped(struct __test_metadata *_metadata, int fd,
		       struct tlsrec *peer, __u8 type, const __u8 *want,
		       size_t len, size_t cap)
{
	static __u8 rec[TLSREC_MAX];
	size_t got = 0, dlen;
	__u8 rtype, *data;
	int nr = 0;
	ssize_t n;

	while (got < len) {
		n = tlsrec_read(fd, rec);
		if (n <= 0) {
			TH_LOG("record %d: read %zd (%s), %zu of %zu bytes", nr,
			       n, strerror(errno), got, len);
			return -1;
		}
		if (tlsrec_open(peer, rec, n, &rtype, &data, &dlen)) {
			TH_LOG("record %d does not open", nr);
			return -1;
		}
		if (rtype != type || dlen > cap || !dlen ||
		    dlen > len - got || memcmp(data, want + got, dlen)) {
			TH_LOG("record %d: type %u, %zu bytes at %zu (cap %zu)",
			       nr, rtype, dlen, got, cap);
			return -1;
		}
		got += dlen;
		nr++;
	}
	return nr;
}

TEST_F(cap, default_and_readback)
{
	__u16 val = 0;

	ASSERT_EQ(get_cap(self->tx, &val), 0);
	EXPECT_EQ(val, 16384);
	ASSERT_EQ(set_cap(self->tx, 1000), 0);
	ASSERT_EQ(get_cap(self->tx, &val), 0);
	EXPECT_EQ(val, 1000);
}

TEST_F(cap, bounds)
{
	__u16 min = min_cap(variant->version), val;

	EXPECT_EQ(set_cap(self->tx, min), 0);
	EXPECT_EQ(get_cap(self->tx, &val), 0);
	EXPECT_EQ(val, min);
	EXPECT_EQ(set_cap(self->tx, 16384), 0);

	EXPECT_EQ(set_cap(self->tx, min - 1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_cap(self->tx, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_cap(self->tx, 16385), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_cap(self->tx, 0xffff), -1);
	EXPECT_EQ(errno, EINVAL);
	/* A refused value leaves the cap as it was. */
	EXPECT_EQ(get_cap(self->tx, &val), 0);
	EXPECT_EQ(val, 16384);
}

TEST_F(cap, bad_lengths)
{
	__u32 wide = 100;
	socklen_t len;
	__u8 small;
	__u16 val;

	EXPECT_EQ(setsockopt(self->tx, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &wide,
			     sizeof(wide)), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->tx, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &wide,
			     1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(setsockopt(self->tx, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, NULL,
			     sizeof(val)), -1);
	EXPECT_EQ(errno, EINVAL);

	len = sizeof(small);
	EXPECT_EQ(getsockopt(self->tx, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &small,
			     &len), -1);
	EXPECT_EQ(errno, EINVAL);
	/* A larger buffer gets the two bytes, and the length says so. */
	wide = 0;
	len = sizeof(wide);
	EXPECT_EQ(getsockopt(self->tx, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &wide,
			     &len), 0);
	EXPECT_EQ(len, sizeof(val));
	memcpy(&val, &wide, sizeof(val));
	EXPECT_EQ(val, 16384);
}

/* Before any key the version is unknown: TLS 1.2's bound holds. */
TEST_F(cap, before_keys)
{
	int a, b;
	__u16 val;

	ASSERT_EQ(tlsrec_tcp_pair(&a, &b, 5), 0);
	ASSERT_EQ(tlsrec_ulp(a), 0);
	EXPECT_EQ(get_cap(a, &val), 0);
	EXPECT_EQ(val, 16384);
	EXPECT_EQ(set_cap(a, 63), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(set_cap(a, 64), 0);
	/* And it holds once the keys are set. */
	ASSERT_EQ(tlsrec_set_key(a, TLS_TX, &self->peer), 0);
	EXPECT_EQ(get_cap(a, &val), 0);
	EXPECT_EQ(val, 64);
	ASSERT_EQ(send(a, self->sent, 1000, 0), 1000);
	EXPECT_EQ(read_capped(_metadata, b, &self->peer, TLSREC_DATA,
			      self->sent, 1000, 64), 16);
	close(a);
	close(b);
}

/* A record opened by MSG_MORE keeps the cap it was filled under. */
TEST_F(cap, open_record_refuses)
{
	__u16 val;

	ASSERT_EQ(set_cap(self->tx, 200), 0);
	ASSERT_EQ(send(self->tx, self->sent, 100, MSG_MORE), 100);
	EXPECT_EQ(set_cap(self->tx, 100), -1);
	EXPECT_EQ(errno, EBUSY);
	EXPECT_EQ(get_cap(self->tx, &val), 0);
	EXPECT_EQ(val, 200);
	/* The record closes with the next send without MSG_MORE. */
	ASSERT_EQ(send(self->tx, self->sent + 100, 150, 0), 150);
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, 250, 200), 2);
	EXPECT_EQ(set_cap(self->tx, 100), 0);
	ASSERT_EQ(send(self->tx, self->sent, 250, 0), 250);
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, 250, 100), 3);
}

TEST_F(cap, sendmsg)
{
	static const __u16 caps[] = { 0, 100, 4096, 16384 };
	size_t i, cap;
	int nr;

	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		cap = caps[i] ?: min_cap(variant->version);
		ASSERT_EQ(set_cap(self->tx, cap), 0);
		ASSERT_EQ(send(self->tx, self->sent, BIG, 0), BIG);
		nr = read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
				 self->sent, BIG, cap);
		EXPECT_EQ(nr, (int)((BIG + cap - 1) / cap)) TH_LOG("cap %zu", cap);
	}
}

TEST_F(cap, msg_more)
{
	size_t cap = 300, off;

	ASSERT_EQ(set_cap(self->tx, cap), 0);
	for (off = 0; off + 70 < 7000; off += 70)
		ASSERT_EQ(send(self->tx, self->sent + off, 70, MSG_MORE), 70);
	ASSERT_EQ(send(self->tx, self->sent + off, 7000 - off, 0),
		  (ssize_t)(7000 - off));
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, 7000, cap), (7000 + 299) / 300);
}

TEST_F(cap, sendfile)
{
	char path[] = "/tmp/tx_max_payload.XXXXXX";
	size_t cap = min_cap(variant->version) + 57;
	off_t off = 0;
	int fd;

	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	unlink(path);
	ASSERT_EQ(write(fd, self->sent, BIG), BIG);
	ASSERT_EQ(set_cap(self->tx, cap), 0);
	while (off < BIG)
		ASSERT_GT(sendfile(self->tx, fd, &off, BIG - off), 0);
	EXPECT_GT(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, BIG, cap), 0);
	close(fd);
}

TEST_F(cap, splice)
{
	size_t cap = 1000, done = 0;
	int p[2];
	ssize_t n;

	ASSERT_EQ(pipe(p), 0);
	ASSERT_EQ(set_cap(self->tx, cap), 0);
	while (done < BIG) {
		n = write(p[1], self->sent + done,
			  BIG - done < 16384 ? BIG - done : 16384);
		ASSERT_GT(n, 0);
		done += n;
		while (n > 0) {
			ssize_t s = splice(p[0], NULL, self->tx, NULL, n,
					   done < BIG ? SPLICE_F_MORE : 0);

			ASSERT_GT(s, 0);
			n -= s;
		}
	}
	EXPECT_GT(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, BIG, cap), 0);
	close(p[0]);
	close(p[1]);
}

/* A control record longer than the cap goes out as several of its type. */
TEST_F(cap, control_record)
{
	size_t cap = 64;

	ASSERT_EQ(set_cap(self->tx, cap), 0);
	ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_HANDSHAKE, self->sent,
				   300, 0), 300);
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer,
			      TLSREC_HANDSHAKE, self->sent, 300, cap), 5);
	ASSERT_EQ(send(self->tx, self->sent, 100, 0), 100);
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, 100, cap), 2);
}

/* Raised again, the cap lets full records through. */
TEST_F(cap, raise_again)
{
	ASSERT_EQ(set_cap(self->tx, 128), 0);
	ASSERT_EQ(send(self->tx, self->sent, 1000, 0), 1000);
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, 1000, 128), 8);
	ASSERT_EQ(set_cap(self->tx, 16384), 0);
	ASSERT_EQ(send(self->tx, self->sent, BIG, 0), BIG);
	EXPECT_EQ(read_capped(_metadata, self->rx, &self->peer, TLSREC_DATA,
			      self->sent, BIG, 16384), 2);
}

TEST_HARNESS_MAIN
