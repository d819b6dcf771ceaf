// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control records (alerts, handshake messages) among data records on a
 * kTLS connection: TLS_SET_RECORD_TYPE on send, TLS_GET_RECORD_TYPE on
 * receive.  Record order and types survive, a data read never runs into a
 * control record, and a reader without room for the type cmsg gets EIO
 * instead of a control record it could not tell from data.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

FIXTURE(ctrl)
{
	int tx, rx;
	struct tlsrec peer;	/* for records checked on the wire */
};

FIXTURE_VARIANT(ctrl)
{
	__u16 version;
	__u16 cipher;
};

FIXTURE_VARIANT_ADD(ctrl, tls12_aes_gcm_128)
{
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(ctrl, tls13_aes_gcm_128)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(ctrl, tls13_chacha20_poly1305)
{
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_SETUP(ctrl)
{
	struct tlsrec k;

	ASSERT_EQ(tlsrec_tcp_pair(&self->tx, &self->rx, 5), 0);
	ASSERT_EQ(tlsrec_init(&k, variant->version, variant->cipher, 7, 0), 0);
	self->peer = k;
	ASSERT_EQ(tlsrec_ulp(self->tx), 0);
	ASSERT_EQ(tlsrec_ulp(self->rx), 0);
	ASSERT_EQ(tlsrec_set_key(self->tx, TLS_TX, &k), 0)
		TH_LOG("TLS_TX: %s", strerror(errno));
	ASSERT_EQ(tlsrec_set_key(self->rx, TLS_RX, &k), 0)
		TH_LOG("TLS_RX: %s", strerror(errno));
}

FIXTURE_TEARDOWN(ctrl)
{
	close(self->tx);
	close(self->rx);
}

struct rec {
	__u8 type;
	const char *data;
};

/*
 * What a reader with a large buffer gets, one recvmsg() each: consecutive
 * data records merge, every control record comes alone.
 */
TEST_F(ctrl, interleaved_order_and_types)
{
	static const struct rec sent[] = {
		{ TLSREC_DATA, "d1" },
		{ TLSREC_ALERT, "\x01\x00" },
		{ TLSREC_HANDSHAKE, "hs-one" },
		{ TLSREC_HANDSHAKE, "hs-two" },
		{ TLSREC_DATA, "d2" },
		{ TLSREC_DATA, "d3" },
		{ TLSREC_ALERT, "\x02\x28" },
		{ TLSREC_DATA, "d4" },
	};
	static const struct rec got[] = {
		{ TLSREC_DATA, "d1" },
		{ TLSREC_ALERT, "\x01\x00" },
		{ TLSREC_HANDSHAKE, "hs-one" },
		{ TLSREC_HANDSHAKE, "hs-two" },
		{ TLSREC_DATA, "d2d3" },
		{ TLSREC_ALERT, "\x02\x28" },
		{ TLSREC_DATA, "d4" },
	};
	char buf[256];
	__u8 type;
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(sent); i++) {
		len = strlen(sent[i].data);
		ASSERT_EQ(tlsrec_send_type(self->tx, sent[i].type, sent[i].data,
					   len, 0), (ssize_t)len);
	}
	/* Let everything arrive, so merging is not a matter of timing. */
	usleep(100000);
	for (i = 0; i < ARRAY_SIZE(got); i++) {
		len = strlen(got[i].data);
		ASSERT_EQ(tlsrec_recv_type(self->rx, &type, buf, sizeof(buf), 0),
			  (ssize_t)len) TH_LOG("read %zu", i);
		EXPECT_EQ(type, got[i].type) TH_LOG("read %zu", i);
		EXPECT_EQ(memcmp(buf, got[i].data, len), 0) TH_LOG("read %zu", i);
	}
	EXPECT_EQ(recv(self->rx, buf, sizeof(buf), MSG_DONTWAIT), -1);
	EXPECT_EQ(errno, EAGAIN);
}

/* Even MSG_WAITALL stops before a control record. */
TEST_F(ctrl, data_read_stops_at_control)
{
	char buf[64];
	__u8 type;

	ASSERT_EQ(send(self->tx, "data", 4, 0), 4);
	ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_ALERT, "\x01\x00", 2, 0), 2);
	ASSERT_EQ(send(self->tx, "more", 4, 0), 4);
	usleep(100000);

	EXPECT_EQ(recv(self->rx, buf, sizeof(buf), MSG_WAITALL), 4);
	EXPECT_EQ(memcmp(buf, "data", 4), 0);
	EXPECT_EQ(tlsrec_recv_type(self->rx, &type, buf, sizeof(buf), MSG_WAITALL), 2);
	EXPECT_EQ(type, TLSREC_ALERT);
	EXPECT_EQ(tlsrec_recv_type(self->rx, &type, buf, 4, MSG_WAITALL), 4);
	EXPECT_EQ(type, TLSREC_DATA);
	EXPECT_EQ(memcmp(buf, "more", 4), 0);
}

/*
 * Without a cmsg buffer a control record cannot be read: EIO, and the
 * record stays for a reader that brings one.
 */
TEST_F(ctrl, control_without_cmsg_is_eio)
{
	char buf[64];
	__u8 type;

	ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_HANDSHAKE, "hello", 5, 0), 5);
	EXPECT_EQ(recv(self->rx, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, EIO);
	EXPECT_EQ(recv(self->rx, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, EIO);
	EXPECT_EQ(tlsrec_recv_type(self->rx, &type, buf, sizeof(buf), 0), 5);
	EXPECT_EQ(type, TLSREC_HANDSHAKE);
	EXPECT_EQ(memcmp(buf, "hello", 5), 0);
}

/* Data first, then the control record: the data is not lost to the EIO. */
TEST_F(ctrl, data_then_control_without_cmsg)
{
	char buf[64];
	__u8 type;

	ASSERT_EQ(send(self->tx, "abc", 3, 0), 3);
	ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_ALERT, "\x01\x00", 2, 0), 2);
	usleep(100000);
	EXPECT_EQ(recv(self->rx, buf, sizeof(buf), 0), 3);
	EXPECT_EQ(recv(self->rx, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, EIO);
	EXPECT_EQ(tlsrec_recv_type(self->rx, &type, buf, sizeof(buf), 0), 2);
	EXPECT_EQ(type, TLSREC_ALERT);
}

/* MSG_PEEK reports the type without consuming the control record. */
TEST_F(ctrl, peek_control)
{
	char buf[64];
	__u8 type;

	ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_ALERT, "\x01\x00", 2, 0), 2);
	EXPECT_EQ(tlsrec_recv_type(self->rx, &type, buf, sizeof(buf), MSG_PEEK), 2);
	EXPECT_EQ(type, TLSREC_ALERT);
	EXPECT_EQ(tlsrec_recv_type(self->rx, &type, buf, sizeof(buf), 0), 2);
	EXPECT_EQ(type, TLSREC_ALERT);
	EXPECT_EQ(memcmp(buf, "\x01\x00", 2), 0);
}

/* On the wire: each control send is one record of its own type. */
TEST_F(ctrl, control_record_on_wire)
{
	static const __u8 types[] = {
		TLSREC_HANDSHAKE, TLSREC_DATA, TLSREC_ALERT, TLSREC_HANDSHAKE
	};
	__u8 rec[TLSREC_MAX], type, *data;
	size_t i, len;
	ssize_t n;

	/* A fresh pair whose receiver reads raw: it never gets TLS_RX keys. */
	close(self->tx);
	close(self->rx);
	ASSERT_EQ(tlsrec_tcp_pair(&self->tx, &self->rx, 5), 0);
	ASSERT_EQ(tlsrec_ulp(self->tx), 0);
	ASSERT_EQ(tlsrec_set_key(self->tx, TLS_TX, &self->peer), 0);

	for (i = 0; i < sizeof(types); i++)
		ASSERT_EQ(tlsrec_send_type(self->tx, types[i], "x", 1, 0), 1);
	for (i = 0; i < sizeof(types); i++) {
		n = tlsrec_read(self->rx, rec);
		ASSERT_GT(n, 0);
		ASSERT_EQ(tlsrec_open(&self->peer, rec, n, &type, &data, &len), 0);
		EXPECT_EQ(type, types[i]);
		EXPECT_EQ(len, 1U);
		EXPECT_EQ(data[0], 'x');
	}
}

TEST_HARNESS_MAIN
