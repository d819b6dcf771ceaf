// SPDX-License-Identifier: GPL-2.0-only
/*
 * TLS 1.3 KeyUpdate (RFC 8446 4.6.3) with data in flight: the sender
 * queues data, sends the KeyUpdate handshake record, installs new TX keys
 * and sends more, all before the receiver reads anything.  The receiver
 * must decrypt up to the KeyUpdate with the old keys, then stop with
 * EKEYEXPIRED until it installs the new RX keys, and never touch a record
 * of the new epoch with the old keys.  TLS 1.2 has no rekey: EBUSY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsrec.h"

#define ROUNDS	5

/* HandshakeType key_update(24), length 1, update_not_requested(0). */
static const __u8 key_update[] = { 24, 0, 0, 1, 0 };

/* The sizes of one round's data: small, two records, small. */
static const size_t round_sizes[] = { 100, TLSREC_MAX_PLAIN + 5, 7 };
#define ROUND_BYTES (100 + TLSREC_MAX_PLAIN + 5 + 7)

static void fill(__u8 *buf, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (i * 37 + seed * 101 + (i >> 9)) & 0xff;
}

FIXTURE(rekey)
{
	int tx, rx;
	__u8 src[ROUND_BYTES], buf[ROUND_BYTES + 64];
};

FIXTURE_VARIANT(rekey)
{
	__u16 cipher;
};

FIXTURE_VARIANT_ADD(rekey, aes_gcm_128) { .cipher = TLS_CIPHER_AES_GCM_128 };
FIXTURE_VARIANT_ADD(rekey, aes_gcm_256) { .cipher = TLS_CIPHER_AES_GCM_256 };
FIXTURE_VARIANT_ADD(rekey, aes_ccm_128) { .cipher = TLS_CIPHER_AES_CCM_128 };
FIXTURE_VARIANT_ADD(rekey, chacha20_poly1305)
{
	.cipher = TLS_CIPHER_CHACHA20_POLY1305
};

FIXTURE_SETUP(rekey)
{
	ASSERT_EQ(tlsrec_tcp_pair(&self->tx, &self->rx, 5), 0);
	ASSERT_EQ(tlsrec_ulp(self->tx), 0);
	ASSERT_EQ(tlsrec_ulp(self->rx), 0);
}

FIXTURE_TEARDOWN(rekey)
{
	close(self->tx);
	close(self->rx);
}

/* Install generation @gen of the keys in direction @dir (seq from 0). */
static int set_gen(int fd, int dir, __u16 cipher, int gen)
{
	struct tlsrec k;

	if (tlsrec_init(&k, TLS_1_3_VERSION, cipher, gen, 0))
		return -1;
	return tlsrec_set_key(fd, dir, &k);
}

/* One round's data, sent in round_sizes pieces; @src is ROUND_BYTES long. */
static void send_round(struct __test_metadata *_metadata, int fd, __u8 *src,
		       int round)
{
	size_t i, off = 0;

	fill(src, ROUND_BYTES, round);
	for (i = 0; i < ARRAY_SIZE(round_sizes); i++) {
		ASSERT_EQ(send(fd, src + off, round_sizes[i], 0),
			  (ssize_t)round_sizes[i]);
		off += round_sizes[i];
	}
}

/*
 * With @len more than a round, the read must stop at the KeyUpdate; the
 * last round, with nothing behind it, is read with @len exact.
 */
static void recv_round(struct __test_metadata *_metadata, int fd, __u8 *buf,
		       size_t len, __u8 *src, int round)
{
	ASSERT_EQ(recv(fd, buf, len, MSG_WAITALL), ROUND_BYTES)
		TH_LOG("round %d: %s", round, strerror(errno));
	fill(src, ROUND_BYTES, round);
	EXPECT_EQ(memcmp(buf, src, ROUND_BYTES), 0)
		TH_LOG("round %d: data differs", round);
}

static void recv_key_update(struct __test_metadata *_metadata, int fd)
{
	__u8 buf[64], type;

	/* A handshake record is not for a reader without a cmsg buffer. */
	EXPECT_EQ(recv(fd, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, EIO);
	ASSERT_EQ(tlsrec_recv_type(fd, &type, buf, sizeof(buf), 0),
		  (ssize_t)sizeof(key_update));
	EXPECT_EQ(type, TLSREC_HANDSHAKE);
	EXPECT_EQ(memcmp(buf, key_update, sizeof(key_update)), 0);
	/* The old keys are spent; nothing more until new ones come. */
	EXPECT_EQ(recv(fd, buf, sizeof(buf), 0), -1);
	EXPECT_EQ(errno, EKEYEXPIRED);
	EXPECT_EQ(recv(fd, buf, sizeof(buf), MSG_DONTWAIT), -1);
	EXPECT_EQ(errno, EKEYEXPIRED);
}

TEST_F(rekey, inflight_rounds)
{
	int round;

	ASSERT_EQ(set_gen(self->tx, TLS_TX, variant->cipher, 0), 0)
		TH_LOG("TLS_TX: %s", strerror(errno));
	ASSERT_EQ(set_gen(self->rx, TLS_RX, variant->cipher, 0), 0)
		TH_LOG("TLS_RX: %s", strerror(errno));

	/* Everything goes out before the receiver reads a byte. */
	for (round = 0; round < ROUNDS; round++) {
		send_round(_metadata, self->tx, self->src, round);
		ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_HANDSHAKE, key_update,
					   sizeof(key_update), 0),
			  (ssize_t)sizeof(key_update));
		ASSERT_EQ(set_gen(self->tx, TLS_TX, variant->cipher, round + 1), 0)
			TH_LOG("TX rekey %d: %s", round + 1, strerror(errno));
	}
	send_round(_metadata, self->tx, self->src, ROUNDS);

	for (round = 0; round < ROUNDS; round++) {
		recv_round(_metadata, self->rx, self->buf, sizeof(self->buf),
			   self->src, round);
		recv_key_update(_metadata, self->rx);
		ASSERT_EQ(set_gen(self->rx, TLS_RX, variant->cipher, round + 1), 0)
			TH_LOG("RX rekey %d: %s", round + 1, strerror(errno));
	}
	recv_round(_metadata, self->rx, self->buf, ROUND_BYTES, self->src, ROUNDS);
}

/* On the wire: the KeyUpdate is the last record under the old keys. */
TEST_F(rekey, tx_epochs_on_wire)
{
	struct tlsrec old, new;
	__u8 rec[TLSREC_MAX], type, *data;
	size_t len;
	ssize_t n;

	ASSERT_EQ(tlsrec_init(&old, TLS_1_3_VERSION, variant->cipher, 0, 0), 0);
	ASSERT_EQ(tlsrec_init(&new, TLS_1_3_VERSION, variant->cipher, 1, 0), 0);
	ASSERT_EQ(tlsrec_set_key(self->tx, TLS_TX, &old), 0)
		TH_LOG("TLS_TX: %s", strerror(errno));
	ASSERT_EQ(send(self->tx, "old", 3, 0), 3);
	ASSERT_EQ(tlsrec_send_type(self->tx, TLSREC_HANDSHAKE, key_update,
				   sizeof(key_update), 0), (ssize_t)sizeof(key_update));
	ASSERT_EQ(tlsrec_set_key(self->tx, TLS_TX, &new), 0)
		TH_LOG("TX rekey: %s", strerror(errno));
	ASSERT_EQ(send(self->tx, "new", 3, 0), 3);

	n = tlsrec_read(self->rx, rec);
	ASSERT_GT(n, 0);
	ASSERT_EQ(tlsrec_open(&old, rec, n, &type, &data, &len), 0);
	EXPECT_EQ(type, TLSREC_DATA);
	EXPECT_EQ(memcmp(data, "old", 3), 0);
	n = tlsrec_read(self->rx, rec);
	ASSERT_GT(n, 0);
	ASSERT_EQ(tlsrec_open(&old, rec, n, &type, &data, &len), 0);
	EXPECT_EQ(type, TLSREC_HANDSHAKE);
	EXPECT_EQ(len, sizeof(key_update));
	n = tlsrec_read(self->rx, rec);
	ASSERT_GT(n, 0);
	/* New keys, and the sequence number starts again at 0. */
	ASSERT_EQ(tlsrec_open(&new, rec, n, &type, &data, &len), 0);
	EXPECT_EQ(type, TLSREC_DATA);
	EXPECT_EQ(memcmp(data, "new", 3), 0);
}

/* A peer of our own making rekeys; kTLS RX follows it. */
TEST_F(rekey, rx_follows_raw_peer)
{
	struct tlsrec old, new;
	__u8 rec[TLSREC_MAX];
	char buf[64];
	size_t n;

	ASSERT_EQ(tlsrec_init(&old, TLS_1_3_VERSION, variant->cipher, 4, 0), 0);
	ASSERT_EQ(tlsrec_init(&new, TLS_1_3_VERSION, variant->cipher, 5, 0), 0);
	ASSERT_EQ(tlsrec_set_key(self->rx, TLS_RX, &old), 0)
		TH_LOG("TLS_RX: %s", strerror(errno));

	n = tlsrec_seal(&old, TLSREC_DATA, "before", 6, 0, rec);
	ASSERT_EQ(tlsrec_write_all(self->tx, rec, n), 0);
	n = tlsrec_seal(&old, TLSREC_HANDSHAKE, key_update, sizeof(key_update), 0, rec);
	ASSERT_EQ(tlsrec_write_all(self->tx, rec, n), 0);
	n = tlsrec_seal(&new, TLSREC_DATA, "after", 5, 0, rec);
	ASSERT_EQ(tlsrec_write_all(self->tx, rec, n), 0);

	ASSERT_EQ(recv(self->rx, buf, sizeof(buf), MSG_WAITALL), 6);
	EXPECT_EQ(memcmp(buf, "before", 6), 0);
	recv_key_update(_metadata, self->rx);
	ASSERT_EQ(tlsrec_set_key(self->rx, TLS_RX, &new), 0)
		TH_LOG("RX rekey: %s", strerror(errno));
	ASSERT_EQ(recv(self->rx, buf, sizeof(buf), 0), 5);
	EXPECT_EQ(memcmp(buf, "after", 5), 0);
}

/* A rekey may not change the version or the cipher, and a refusal keeps the old keys. */
TEST_F(rekey, rekey_must_keep_suite)
{
	__u16 other = variant->cipher == TLS_CIPHER_AES_GCM_256 ?
			 TLS_CIPHER_AES_GCM_128 : TLS_CIPHER_AES_GCM_256;
	struct tlsrec k;
	char buf[16];

	ASSERT_EQ(set_gen(self->tx, TLS_TX, variant->cipher, 0), 0);
	ASSERT_EQ(set_gen(self->rx, TLS_RX, variant->cipher, 0), 0);

	ASSERT_EQ(tlsrec_init(&k, TLS_1_3_VERSION, other, 1, 0), 0);
	EXPECT_EQ(tlsrec_set_key(self->tx, TLS_TX, &k), -1);
	EXPECT_EQ(errno, EINVAL);
	ASSERT_EQ(tlsrec_init(&k, TLS_1_2_VERSION, variant->cipher, 1, 0), 0);
	EXPECT_EQ(tlsrec_set_key(self->tx, TLS_TX, &k), -1);
	EXPECT_EQ(errno, EINVAL);

	ASSERT_EQ(send(self->tx, "same", 4, 0), 4);
	ASSERT_EQ(recv(self->rx, buf, sizeof(buf), 0), 4);
	EXPECT_EQ(memcmp(buf, "same", 4), 0);
}

/* TLS 1.2 has no KeyUpdate: a second key set is refused in either direction. */
TEST(tls12_rekey_busy)
{
	struct tlsrec k0, k1;
	char buf[16];
	int tx, rx;

	ASSERT_EQ(tlsrec_tcp_pair(&tx, &rx, 5), 0);
	ASSERT_EQ(tlsrec_init(&k0, TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 0, 0), 0);
	ASSERT_EQ(tlsrec_init(&k1, TLS_1_2_VERSION, TLS_CIPHER_AES_GCM_128, 1, 0), 0);
	ASSERT_EQ(tlsrec_ulp(tx), 0);
	ASSERT_EQ(tlsrec_ulp(rx), 0);
	ASSERT_EQ(tlsrec_set_key(tx, TLS_TX, &k0), 0);
	ASSERT_EQ(tlsrec_set_key(rx, TLS_RX, &k0), 0);

	EXPECT_EQ(tlsrec_set_key(tx, TLS_TX, &k1), -1);
	EXPECT_EQ(errno, EBUSY);
	EXPECT_EQ(tlsrec_set_key(rx, TLS_RX, &k1), -1);
	EXPECT_EQ(errno, EBUSY);

	ASSERT_EQ(send(tx, "kept", 4, 0), 4);
	ASSERT_EQ(recv(rx, buf, sizeof(buf), 0), 4);
	EXPECT_EQ(memcmp(buf, "kept", 4), 0);
	close(tx);
	close(rx);
}

TEST_HARNESS_MAIN
