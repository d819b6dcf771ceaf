// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls_sim: a pair of simulated Ethernet devices that do TLS offload.
 *
 * What one end transmits, the other end receives, as with veth, but the
 * pair behaves like a NIC with kTLS offload (struct tlsdev_ops of
 * include/net/tls.h): on transmit it encrypts the records of offloaded
 * sockets itself with the kernel crypto API, on receive it decrypts whole
 * records of offloaded flows and marks the skb decrypted (or, as in-stream
 * hardware does, the first piece of a record that spans frames), and it
 * loses and regains sync as real hardware does, in each of the three
 * resync modes of enum tls_offload_sync_type.  Knobs under debugfs make the "wire"
 * drop and reorder frames and make the device slow, unwilling or forgetful,
 * so that every path of the TLS core's device support can be exercised
 * between two network namespaces without hardware.
 *
 * It owns: the device pair and its rtnetlink kind "ktlssim", the per-socket
 * driver state of TX and RX offload, the wire (drop, reorder), the debugfs
 * knobs and the ethtool -S counters.  The TLS core, in-tree tls.ko or
 * ktls_hs.ko, owns the records; this driver only reads them.
 */

#include <crypto/aead.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/highmem.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rculist.h>
#include <linux/scatterlist.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <linux/timer.h>
#include <linux/unaligned.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/rtnetlink.h>
#include <net/tls.h>

#include <ktls_hs/compat.h>
#include <ktls_hs/compat_netdev.h>
#include <ktls_hs/compat_tls.h>

#define DRV_NAME		"ktlssim"

/* The nested attribute that names the peer, laid out as veth's. */
enum {
	KTLS_SIM_INFO_UNSPEC,
	KTLS_SIM_INFO_PEER,
	__KTLS_SIM_INFO_MAX
};

#define KTLS_SIM_INFO_MAX	(__KTLS_SIM_INFO_MAX - 1)

/* RFC 5246 6.2.1 content types: change_cipher_spec up to application_data */
#define KTLS_SIM_CT_FIRST	20
#define KTLS_SIM_CT_DATA	23
#define KTLS_SIM_TAG		16
#define KTLS_SIM_SALT		4
#define KTLS_SIM_IV		8
#define KTLS_SIM_NONCE		(KTLS_SIM_SALT + KTLS_SIM_IV)
#define KTLS_SIM_AAD12		13
/* RFC 5246 6.2.3: a TLSCiphertext fragment is at most 2^14 + 2048 */
#define KTLS_SIM_CT_MAX		(TLS_MAX_PAYLOAD_SIZE + 2048)
#define KTLS_SIM_REC_MAX	(TLS_HEADER_SIZE + KTLS_SIM_CT_MAX)
/* RX decrypts a whole frame's payload at once */
#define KTLS_SIM_RX_BUF		ETH_MAX_MTU
/* A held frame of a reordered pair goes out alone after this long. */
#define KTLS_SIM_HOLD_MS	20

/* TLS RX offload needs RXCSUM: netdev_fix_features() drops it otherwise. */
#define KTLS_SIM_FEATURES	(NETIF_F_SG | NETIF_F_HW_CSUM | NETIF_F_HIGHDMA | \
				 NETIF_F_RXCSUM | NETIF_F_HW_TLS_TX | \
				 NETIF_F_HW_TLS_RX)

enum ktls_sim_stat {
	KTLS_SIM_TX_RECORDS,
	KTLS_SIM_TX_RECORDS_CACHED,
	KTLS_SIM_TX_BYTES,
	KTLS_SIM_TX_OOO,
	KTLS_SIM_TX_PRE_OFFLOAD,
	KTLS_SIM_TX_NO_RECORD,
	KTLS_SIM_TX_RESYNC_REQ,
	KTLS_SIM_TX_RESYNC,
	KTLS_SIM_TX_RESYNC_MISMATCH,
	KTLS_SIM_RX_RECORDS,
	KTLS_SIM_RX_BYTES,
	KTLS_SIM_RX_ENCRYPTED,
	KTLS_SIM_RX_OOO,
	KTLS_SIM_RX_RESYNC_REQ,
	KTLS_SIM_RX_RESYNC,
	KTLS_SIM_RX_RESYNC_STALE,
	KTLS_SIM_RX_PARTIAL,
	KTLS_SIM_RX_AUTH_FAIL,
	KTLS_SIM_TX_KEYS_USED,
	KTLS_SIM_RX_KEYS_USED,
	KTLS_SIM_DEV_ADD_TX,
	KTLS_SIM_DEV_ADD_RX,
	KTLS_SIM_DEV_DEL_TX,
	KTLS_SIM_DEV_DEL_RX,
	KTLS_SIM_DEV_ADD_REFUSED,
	KTLS_SIM_DEV_ADD_FAIL,
	KTLS_SIM_WIRE_DROP,
	KTLS_SIM_WIRE_REORDER,
	KTLS_SIM_NOMEM,
	KTLS_SIM_NSTATS
};

static const char ktls_sim_stat_names[KTLS_SIM_NSTATS][ETH_GSTRING_LEN] = {
	[KTLS_SIM_TX_RECORDS]		= "tx_tls_records_encrypted",
	[KTLS_SIM_TX_RECORDS_CACHED]	= "tx_tls_records_cached",
	[KTLS_SIM_TX_BYTES]		= "tx_tls_bytes",
	[KTLS_SIM_TX_OOO]		= "tx_tls_ooo",
	[KTLS_SIM_TX_PRE_OFFLOAD]	= "tx_tls_pre_offload_bytes",
	[KTLS_SIM_TX_NO_RECORD]		= "tx_tls_drop_no_record",
	[KTLS_SIM_TX_RESYNC_REQ]	= "tx_tls_resync_req",
	[KTLS_SIM_TX_RESYNC]		= "tx_tls_resync",
	[KTLS_SIM_TX_RESYNC_MISMATCH]	= "tx_tls_resync_mismatch",
	[KTLS_SIM_RX_RECORDS]		= "rx_tls_records_decrypted",
	[KTLS_SIM_RX_BYTES]		= "rx_tls_bytes",
	[KTLS_SIM_RX_ENCRYPTED]		= "rx_tls_frames_left_encrypted",
	[KTLS_SIM_RX_OOO]		= "rx_tls_ooo",
	[KTLS_SIM_RX_RESYNC_REQ]	= "rx_tls_resync_req",
	[KTLS_SIM_RX_RESYNC]		= "rx_tls_resync",
	[KTLS_SIM_RX_RESYNC_STALE]	= "rx_tls_resync_stale",
	[KTLS_SIM_RX_PARTIAL]		= "rx_tls_records_partial",
	[KTLS_SIM_RX_AUTH_FAIL]		= "rx_tls_auth_fail",
	[KTLS_SIM_TX_KEYS_USED]		= "tx_tls_keys_used",
	[KTLS_SIM_RX_KEYS_USED]		= "rx_tls_keys_used",
	[KTLS_SIM_DEV_ADD_TX]		= "tls_dev_add_tx",
	[KTLS_SIM_DEV_ADD_RX]		= "tls_dev_add_rx",
	[KTLS_SIM_DEV_DEL_TX]		= "tls_dev_del_tx",
	[KTLS_SIM_DEV_DEL_RX]		= "tls_dev_del_rx",
	[KTLS_SIM_DEV_ADD_REFUSED]	= "tls_dev_add_refused",
	[KTLS_SIM_DEV_ADD_FAIL]		= "tls_dev_add_fail",
	[KTLS_SIM_WIRE_DROP]		= "wire_dropped",
	[KTLS_SIM_WIRE_REORDER]		= "wire_reordered",
	[KTLS_SIM_NOMEM]		= "nomem",
};

/* One direction's key: AES-GCM of TLS 1.2 or 1.3 and a scratch buffer. */
struct ktls_sim_key {
	struct crypto_aead *aead;
	struct aead_request *req;
	u8 *buf;
	u32 buf_len;
	u16 version;
	bool used;			/* has done a record's crypto */
	u8 iv[KTLS_SIM_NONCE];		/* salt, then the implicit IV */
	u8 aad[KTLS_SIM_AAD12];		/* scatterlists cannot point at stacks */
	struct scatterlist sg[2];
};

/*
 * TX is stateless across frames: every frame's bytes are encrypted from
 * the records the core keeps until TCP acks them.  Only the last record
 * encrypted is kept, so that the MTU-sized pieces of one record do not
 * each pay for the whole record.
 */
struct ktls_sim_tx {
	struct ktls_sim_key key;
	struct net_device *dev;
	spinlock_t lock;		/* key scratch, cache, sequence tracking */
	bool cached;
	u32 cache_start;
	u32 cache_len;
	u64 cache_sn;
	bool seen;
	u32 next_seq;
	int resync_gen;
	bool resync_check;
	u32 resync_seq;
	u64 resync_sn;
};

enum ktls_sim_rx_sync {
	KTLS_SIM_RX_SYNCED,	/* the next header's seq and number are known */
	KTLS_SIM_RX_SEARCH,	/* lost: looking for something like a header */
	KTLS_SIM_RX_PENDING,	/* found one, walking on, the core to confirm */
};

/*
 * An RX flow is found from the frame's addresses, as hardware would, so
 * it carries the socket's 4-tuple.  The socket pointer serves only to ask
 * the core for a resync, and only while the flow is not dead: the core
 * frees its context after tls_dev_del.  The async resync state is read by
 * the core until tls_dev_del, so it lives here, freed after a grace
 * period.
 */
struct ktls_sim_rx {
	struct list_head list;
	struct rcu_work free_work;
	struct ktls_sim_key key;
	struct sock *sk;
	struct in6_addr raddr;		/* v4 as v4-mapped */
	struct in6_addr laddr;
	__be16 rport;
	__be16 lport;
	spinlock_t lock;		/* everything below and key scratch */
	bool dead;
	enum ktls_sim_rx_sync sync;
	u32 next_seq;			/* end of the stream seen so far */
	u32 rec_seq;			/* seq of the next record header */
	u8 hdr[TLS_HEADER_SIZE];	/* a header split across frames */
	u8 hdr_len;
	u64 rcd_sn;			/* SYNCED: number of record at rec_seq */
	u64 walked;			/* PENDING: records since req_seq */
	u32 req_seq;
	int resync_gen;
	enum tls_offload_sync_type resync_type;
	bool async_open;		/* the async request waits for its end */
	struct tls_offload_resync_async async;
};

struct ktls_sim_priv {
	struct net_device __rcu *peer;
	struct dentry *dbg;

	/* debugfs knobs */
	u32 drop_every;
	u32 reorder_every;
	u32 install_delay_ms;
	bool refuse_add;
	bool partial;
	u32 resync_type;
	atomic_t resync_gen;

	spinlock_t wire_lock;		/* the counters and the held frame */
	u64 data_frames;
	struct sk_buff *held;
	struct timer_list hold_timer;

	spinlock_t flows_lock;		/* writers of rx_flows */
	struct list_head rx_flows;

	atomic64_t stats[KTLS_SIM_NSTATS];
};

static struct dentry *ktls_sim_dbg_root;
/* Frees RX flows after a grace period; drained before the module goes. */
static struct workqueue_struct *ktls_sim_wq;

static void ktls_sim_inc(struct ktls_sim_priv *priv, enum ktls_sim_stat s)
{
	atomic64_inc(&priv->stats[s]);
}

static void ktls_sim_add(struct ktls_sim_priv *priv, enum ktls_sim_stat s, u64 v)
{
	atomic64_add(v, &priv->stats[s]);
}

/* ---- crypto ---------------------------------------------------------- */

/*
 * Keys a device did a record's crypto with, each counted once: a key
 * update on an offloaded socket that comes back to the device shows as
 * two.  Under the lock of the flow that holds the key.
 */
static void ktls_sim_key_used(struct ktls_sim_priv *priv,
			      struct ktls_sim_key *k, enum ktls_sim_stat stat)
{
	if (k->used)
		return;
	k->used = true;
	ktls_sim_inc(priv, stat);
}

static int ktls_sim_key_init(struct ktls_sim_key *k,
			     const struct tls_crypto_info *ci, u32 buf_len)
{
	const u8 *key, *salt, *iv;
	unsigned int keylen;
	int err;

	if (ci->version != TLS_1_2_VERSION && ci->version != TLS_1_3_VERSION)
		return -EOPNOTSUPP;

	switch (ci->cipher_type) {
	case TLS_CIPHER_AES_GCM_128: {
		const struct tls12_crypto_info_aes_gcm_128 *g = (const void *)ci;

		key = g->key;
		keylen = sizeof(g->key);
		salt = g->salt;
		iv = g->iv;
		break;
	}
	case TLS_CIPHER_AES_GCM_256: {
		const struct tls12_crypto_info_aes_gcm_256 *g = (const void *)ci;

		key = g->key;
		keylen = sizeof(g->key);
		salt = g->salt;
		iv = g->iv;
		break;
	}
	default:
		return -EOPNOTSUPP;
	}

	k->version = ci->version;
	memcpy(k->iv, salt, KTLS_SIM_SALT);
	memcpy(k->iv + KTLS_SIM_SALT, iv, KTLS_SIM_IV);

	/* Synchronous only: the data path runs in softirq context. */
	k->aead = crypto_alloc_aead("gcm(aes)", 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(k->aead)) {
		err = PTR_ERR(k->aead);
		k->aead = NULL;
		return err;
	}
	err = crypto_aead_setkey(k->aead, key, keylen);
	if (err)
		goto free_aead;
	err = crypto_aead_setauthsize(k->aead, KTLS_SIM_TAG);
	if (err)
		goto free_aead;

	k->req = aead_request_alloc(k->aead, GFP_KERNEL);
	if (!k->req) {
		err = -ENOMEM;
		goto free_aead;
	}
	aead_request_set_callback(k->req, 0, NULL, NULL);

	/* kmalloc, not kvmalloc: sg_set_buf() needs linear-mapped memory */
	k->buf = kmalloc(buf_len, GFP_KERNEL);
	if (!k->buf) {
		err = -ENOMEM;
		goto free_req;
	}
	k->buf_len = buf_len;
	return 0;

free_req:
	aead_request_free(k->req);
	k->req = NULL;
free_aead:
	crypto_free_aead(k->aead);
	k->aead = NULL;
	return err;
}

static void ktls_sim_key_free(struct ktls_sim_key *k)
{
	kfree_sensitive(k->buf);
	aead_request_free(k->req);
	crypto_free_aead(k->aead);
	memzero_explicit(k->iv, sizeof(k->iv));
}

/*
 * Encrypts or decrypts-and-verifies the record of rec_len bytes at rec in
 * place, in the layout the core hands to devices: header, for 1.2 the
 * explicit nonce, the (inner) plaintext, the tag.  The 1.2 nonce is the
 * salt and the explicit nonce the core wrote; the 1.3 one is RFC 8446 5.3.
 */
static int ktls_sim_crypt(struct ktls_sim_key *k, u8 *rec, u32 rec_len,
			  u64 sn, bool enc)
{
	u8 nonce[KTLS_SIM_NONCE];
	u32 hdr, body, aad_len;
	u8 sn_be[8];
	int i;

	put_unaligned_be64(sn, sn_be);
	if (k->version == TLS_1_2_VERSION) {
		hdr = TLS_HEADER_SIZE + KTLS_SIM_IV;
		if (rec_len < hdr + KTLS_SIM_TAG)
			return -EBADMSG;
		body = rec_len - hdr - KTLS_SIM_TAG;
		memcpy(nonce, k->iv, KTLS_SIM_SALT);
		memcpy(nonce + KTLS_SIM_SALT, rec + TLS_HEADER_SIZE, KTLS_SIM_IV);
		memcpy(k->aad, sn_be, sizeof(sn_be));
		memcpy(k->aad + 8, rec, 3);	/* type and version */
		put_unaligned_be16(body, k->aad + 11);
		aad_len = KTLS_SIM_AAD12;
	} else {
		hdr = TLS_HEADER_SIZE;
		if (rec_len < hdr + KTLS_SIM_TAG + 1)
			return -EBADMSG;
		body = rec_len - hdr - KTLS_SIM_TAG;
		memcpy(nonce, k->iv, KTLS_SIM_NONCE);
		for (i = 0; i < 8; i++)
			nonce[KTLS_SIM_SALT + i] ^= sn_be[i];
		memcpy(k->aad, rec, TLS_HEADER_SIZE);
		aad_len = TLS_HEADER_SIZE;
	}

	sg_init_table(k->sg, 2);
	sg_set_buf(&k->sg[0], k->aad, aad_len);
	sg_set_buf(&k->sg[1], rec + hdr, body + KTLS_SIM_TAG);
	aead_request_set_ad(k->req, aad_len);
	aead_request_set_crypt(k->req, k->sg, k->sg,
			       enc ? body : body + KTLS_SIM_TAG, nonce);
	return enc ? crypto_aead_encrypt(k->req) : crypto_aead_decrypt(k->req);
}

/* A header this device would believe: it resyncs on what this says. */
static bool ktls_sim_hdr_plausible(const struct ktls_sim_key *k, const u8 *h)
{
	u16 len = get_unaligned_be16(h + 3);
	u16 min;

	if (h[1] != 3 || h[2] != 3)
		return false;
	if (k->version == TLS_1_3_VERSION) {
		if (h[0] != KTLS_SIM_CT_DATA)
			return false;
		min = KTLS_SIM_TAG + 1;
	} else {
		if (h[0] < KTLS_SIM_CT_FIRST || h[0] > KTLS_SIM_CT_DATA)
			return false;
		min = KTLS_SIM_TAG + KTLS_SIM_IV;
	}
	return len >= min && len <= KTLS_SIM_CT_MAX;
}

/* ---- TX offload ------------------------------------------------------ */

static struct ktls_sim_tx **ktls_sim_tx_slot(struct tls_context *ctx)
{
	BUILD_BUG_ON(sizeof(void *) > TLS_DRIVER_STATE_SIZE_TX);
	return __tls_driver_ctx(ctx, TLS_OFFLOAD_CTX_DIR_TX);
}

static struct ktls_sim_rx **ktls_sim_rx_slot(struct tls_context *ctx)
{
	BUILD_BUG_ON(sizeof(void *) > TLS_DRIVER_STATE_SIZE_RX);
	return __tls_driver_ctx(ctx, TLS_OFFLOAD_CTX_DIR_RX);
}

/* Gathers the record's bytes from its frags; false if they do not fit. */
static bool ktls_sim_copy_record(const struct tls_record_info *rec, u8 *buf,
				 u32 buf_len)
{
	u32 pos = 0, p_off, p_len, copied;
	struct page *p;
	int i;

	if (rec->len <= 0 || rec->len > buf_len)
		return false;
	for (i = 0; i < rec->num_frags; i++) {
		const skb_frag_t *f = &rec->frags[i];

		if (skb_frag_size(f) > rec->len - pos)
			return false;
		skb_frag_foreach_page(f, skb_frag_off(f), skb_frag_size(f),
				      p, p_off, p_len, copied) {
			u8 *va = kmap_local_page(p);

			memcpy(buf + pos, va + p_off, p_len);
			kunmap_local(va);
			pos += p_len;
		}
	}
	return pos == rec->len;
}

/*
 * Gives the record that holds seq encrypted in tx->key.buf.  The core's
 * list lock keeps TCP's acks from freeing the frags while they are read;
 * the encryption itself runs outside it.
 */
static int ktls_sim_tx_record(struct ktls_sim_priv *priv, struct ktls_sim_tx *tx,
			      struct tls_offload_context_tx *octx, u32 seq,
			      u32 *start, u32 *len)
{
	struct tls_record_info *rec;
	unsigned long flags;
	u64 sn;
	int err;

	/* tx->key.buf and the record cache are the flow's. */
	lockdep_assert_held(&tx->lock);
	spin_lock_irqsave(&octx->lock, flags);
	rec = tls_get_record(octx, seq, &sn);
	if (!rec) {
		spin_unlock_irqrestore(&octx->lock, flags);
		return -ENOENT;
	}
	if (tls_record_is_start_marker(rec)) {
		/* Sent before offload began: not this device's to encrypt. */
		*start = seq;
		*len = rec->end_seq - seq;
		spin_unlock_irqrestore(&octx->lock, flags);
		return 1;
	}
	*start = tls_record_start_seq(rec);
	*len = rec->len;
	if (tx->cached && tx->cache_start == *start && tx->cache_len == *len &&
	    tx->cache_sn == sn) {
		spin_unlock_irqrestore(&octx->lock, flags);
		ktls_sim_inc(priv, KTLS_SIM_TX_RECORDS_CACHED);
		return 0;
	}
	tx->cached = false;
	if (!ktls_sim_copy_record(rec, tx->key.buf, tx->key.buf_len)) {
		spin_unlock_irqrestore(&octx->lock, flags);
		return -EMSGSIZE;
	}
	spin_unlock_irqrestore(&octx->lock, flags);

	if (tx->resync_check && tx->resync_seq == *start) {
		tx->resync_check = false;
		if (tx->resync_sn != sn)
			ktls_sim_inc(priv, KTLS_SIM_TX_RESYNC_MISMATCH);
	}

	err = ktls_sim_crypt(&tx->key, tx->key.buf, *len, sn, true);
	if (err)
		return err;
	tx->cached = true;
	tx->cache_start = *start;
	tx->cache_len = *len;
	tx->cache_sn = sn;
	ktls_sim_inc(priv, KTLS_SIM_TX_RECORDS);
	ktls_sim_key_used(priv, &tx->key, KTLS_SIM_TX_KEYS_USED);
	return 0;
}

/*
 * Replaces the plaintext of an offloaded socket's frame by what goes on
 * the wire.  The frame's frags are the core's record pages, so the frame
 * is made private first.  Returns false if the frame must be dropped.
 */
static bool ktls_sim_tx_frame(struct ktls_sim_priv *priv, struct net_device *dev,
			      struct sk_buff *skb)
{
	struct sock *sk = skb->sk;
	struct tls_context *ctx = tls_get_ctx(sk);
	struct tls_offload_context_tx *octx = tls_offload_ctx_tx(ctx);
	struct ktls_sim_tx *tx = *ktls_sim_tx_slot(ctx);
	u32 poff, plen, seq, end, pos;
	bool ok = true;
	int gen;

	if (!tx || tx->dev != dev)
		return true;
	poff = skb_transport_offset(skb) + tcp_hdrlen(skb);
	if (poff >= skb->len)
		return true;
	plen = skb->len - poff;
	seq = ntohl(tcp_hdr(skb)->seq);
	end = seq + plen;

	if (skb_ensure_writable(skb, skb->len)) {
		ktls_sim_inc(priv, KTLS_SIM_NOMEM);
		return false;
	}

	spin_lock(&tx->lock);
	if (tx->seen && seq != tx->next_seq)
		ktls_sim_inc(priv, KTLS_SIM_TX_OOO);
	if (!tx->seen || after(end, tx->next_seq))
		tx->next_seq = end;
	tx->seen = true;

	gen = atomic_read(&priv->resync_gen);
	if (tx->resync_gen != gen) {
		tx->resync_gen = gen;
		/* The core warns on a second request before it served one. */
		if (!tls_offload_tx_resync_pending(sk)) {
			tls_offload_tx_resync_request(sk, seq, seq);
			ktls_sim_inc(priv, KTLS_SIM_TX_RESYNC_REQ);
		}
	}

	for (pos = seq; before(pos, end);) {
		u32 start, len, to;
		int ret;

		ret = ktls_sim_tx_record(priv, tx, octx, pos, &start, &len);
		if (ret < 0) {
			ktls_sim_inc(priv, KTLS_SIM_TX_NO_RECORD);
			ok = false;
			break;
		}
		to = after(start + len, end) ? end : start + len;
		if (ret == 0) {
			skb_store_bits(skb, poff + (pos - seq),
				       tx->key.buf + (pos - start), to - pos);
			ktls_sim_add(priv, KTLS_SIM_TX_BYTES, to - pos);
		} else {
			ktls_sim_add(priv, KTLS_SIM_TX_PRE_OFFLOAD, to - pos);
		}
		pos = to;
	}
	spin_unlock(&tx->lock);

	if (skb->ip_summed != CHECKSUM_PARTIAL)
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	return ok;
}

static int ktls_sim_add_tx(struct ktls_sim_priv *priv, struct net_device *dev,
			   struct sock *sk, struct tls_crypto_info *ci,
			   u32 start_sn)
{
	struct ktls_sim_tx *tx;
	int err;

	tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	if (!tx)
		return -ENOMEM;
	err = ktls_sim_key_init(&tx->key, ci, KTLS_SIM_REC_MAX);
	if (err) {
		kfree(tx);
		return err;
	}
	spin_lock_init(&tx->lock);
	tx->dev = dev;
	tx->next_seq = start_sn;
	tx->resync_gen = atomic_read(&priv->resync_gen);
	*ktls_sim_tx_slot(tls_get_ctx(sk)) = tx;
	ktls_sim_inc(priv, KTLS_SIM_DEV_ADD_TX);
	return 0;
}

/* ---- RX offload ------------------------------------------------------ */

static void ktls_sim_rx_free_work(struct work_struct *work)
{
	struct ktls_sim_rx *rx = container_of(to_rcu_work(work),
					      struct ktls_sim_rx, free_work);

	ktls_sim_key_free(&rx->key);
	kfree(rx);
}

static void ktls_sim_sk_addrs(struct sock *sk, struct in6_addr *laddr,
			      struct in6_addr *raddr)
{
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		*laddr = sk->sk_v6_rcv_saddr;
		*raddr = sk->sk_v6_daddr;
		return;
	}
#endif
	ipv6_addr_set_v4mapped(inet_sk(sk)->inet_rcv_saddr, laddr);
	ipv6_addr_set_v4mapped(inet_sk(sk)->inet_daddr, raddr);
}

static int ktls_sim_add_rx(struct ktls_sim_priv *priv, struct sock *sk,
			   struct tls_crypto_info *ci, u32 start_sn)
{
	const struct tls12_crypto_info_aes_gcm_128 *g = (const void *)ci;
	struct ktls_sim_rx *rx;
	int err;

	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return -ENOMEM;
	err = ktls_sim_key_init(&rx->key, ci, KTLS_SIM_RX_BUF);
	if (err) {
		kfree(rx);
		return err;
	}
	spin_lock_init(&rx->lock);
	INIT_RCU_WORK(&rx->free_work, ktls_sim_rx_free_work);
	rx->sk = sk;
	ktls_sim_sk_addrs(sk, &rx->laddr, &rx->raddr);
	rx->lport = inet_sk(sk)->inet_sport;
	rx->rport = inet_sk(sk)->inet_dport;
	/* The core starts parsing records at start_sn. */
	rx->sync = KTLS_SIM_RX_SYNCED;
	rx->next_seq = start_sn;
	rx->rec_seq = start_sn;
	/* rec_seq sits at the same place in the 128 and 256 layouts */
	BUILD_BUG_ON(offsetof(struct tls12_crypto_info_aes_gcm_128, rec_seq) !=
		     offsetof(struct tls12_crypto_info_aes_gcm_256, rec_seq) -
		     (TLS_CIPHER_AES_GCM_256_KEY_SIZE -
		      TLS_CIPHER_AES_GCM_128_KEY_SIZE));
	if (ci->cipher_type == TLS_CIPHER_AES_GCM_128) {
		rx->rcd_sn = get_unaligned_be64(g->rec_seq);
	} else {
		const struct tls12_crypto_info_aes_gcm_256 *g256 = (const void *)ci;

		rx->rcd_sn = get_unaligned_be64(g256->rec_seq);
	}
	rx->resync_gen = atomic_read(&priv->resync_gen);

	*ktls_sim_rx_slot(tls_get_ctx(sk)) = rx;
	switch (READ_ONCE(priv->resync_type)) {
	case TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT:
		rx->resync_type = TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT;
		break;
	case TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC:
		rx->resync_type = TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC;
		tls_offload_ctx_rx(tls_get_ctx(sk))->resync_async = &rx->async;
		break;
	default:
		rx->resync_type = TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ;
	}
	tls_offload_rx_resync_set_type(sk, rx->resync_type);
	spin_lock_bh(&priv->flows_lock);
	list_add_tail_rcu(&rx->list, &priv->rx_flows);
	spin_unlock_bh(&priv->flows_lock);
	ktls_sim_inc(priv, KTLS_SIM_DEV_ADD_RX);
	return 0;
}

/*
 * Follows the record headers through the new bytes [start, end) of an
 * in-order frame that begins at seq.  Returns the number of headers
 * completed, or -EPROTO if something is not a header (sync is lost).
 * *whole says whether the frame holds nothing but complete records.
 */
static int ktls_sim_rx_walk(struct ktls_sim_rx *rx, const struct sk_buff *skb,
			    u32 poff, u32 seq, u32 start, u32 end, bool *whole)
{
	int count = 0;

	*whole = seq == start && rx->rec_seq == seq && !rx->hdr_len;
	for (;;) {
		u32 at = rx->rec_seq + rx->hdr_len;
		u32 n, rlen;

		if (!before(at, end))
			break;
		if (before(at, start))
			return -EPROTO;
		n = min_t(u32, TLS_HEADER_SIZE - rx->hdr_len, end - at);
		if (skb_copy_bits(skb, poff + (at - seq), rx->hdr + rx->hdr_len, n))
			return -EPROTO;
		rx->hdr_len += n;
		if (rx->hdr_len < TLS_HEADER_SIZE) {
			*whole = false;
			break;
		}
		if (!ktls_sim_hdr_plausible(&rx->key, rx->hdr))
			return -EPROTO;
		rlen = TLS_HEADER_SIZE + get_unaligned_be16(rx->hdr + 3);
		if (after(rx->rec_seq + rlen, end))
			*whole = false;
		rx->rec_seq += rlen;
		rx->hdr_len = 0;
		count++;
	}
	if (rx->rec_seq != end || rx->hdr_len || !count)
		*whole = false;
	return count;
}

/* First offset in the new bytes that looks like a record header, or -1. */
static int ktls_sim_rx_search(struct ktls_sim_rx *rx, const struct sk_buff *skb,
			      u32 from, u32 to)
{
	u8 h[TLS_HEADER_SIZE];
	u32 off;

	for (off = from; off + TLS_HEADER_SIZE <= to; off++) {
		if (skb_copy_bits(skb, off, h, sizeof(h)))
			return -1;
		if (ktls_sim_hdr_plausible(&rx->key, h))
			return off;
	}
	return -1;
}

/*
 * Decrypts a frame that holds only whole records, first records numbered
 * sn.  All or nothing: a record that fails authentication leaves the whole
 * frame as it came, and the core's software path reports the error.
 */
static void ktls_sim_rx_decrypt(struct ktls_sim_priv *priv, struct ktls_sim_rx *rx,
				struct sk_buff *skb, u32 poff, u32 plen, u64 sn)
{
	u8 *buf = rx->key.buf;
	u32 off, n = 0;

	if (plen > rx->key.buf_len || skb_copy_bits(skb, poff, buf, plen))
		goto encrypted;
	for (off = 0; off < plen; n++) {
		u32 rlen = TLS_HEADER_SIZE + get_unaligned_be16(buf + off + 3);

		if (ktls_sim_crypt(&rx->key, buf + off, rlen, sn + n, false)) {
			ktls_sim_inc(priv, KTLS_SIM_RX_AUTH_FAIL);
			goto encrypted;
		}
		off += rlen;
	}
	if (skb_ensure_writable(skb, skb->len)) {
		ktls_sim_inc(priv, KTLS_SIM_NOMEM);
		goto encrypted;
	}
	skb_store_bits(skb, poff, buf, plen);
	skb->decrypted = 1;
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	ktls_sim_add(priv, KTLS_SIM_RX_RECORDS, n);
	ktls_sim_key_used(priv, &rx->key, KTLS_SIM_RX_KEYS_USED);
	ktls_sim_add(priv, KTLS_SIM_RX_BYTES, plen);
	return;

encrypted:
	ktls_sim_inc(priv, KTLS_SIM_RX_ENCRYPTED);
}

/*
 * The in-stream way: a frame that starts with a header has its whole
 * records decrypted and checked, and the first piece of the record it
 * ends in decrypted unchecked (the rest of that record comes in frames
 * this device leaves alone), so the core gets a record decrypted in part.
 * Counter mode: encrypting the piece at its place decrypts it.
 */
static void ktls_sim_rx_decrypt_part(struct ktls_sim_priv *priv,
				     struct ktls_sim_rx *rx, struct sk_buff *skb,
				     u32 poff, u32 plen, u64 sn)
{
	u32 hdr = TLS_HEADER_SIZE +
		  (rx->key.version == TLS_1_2_VERSION ? KTLS_SIM_IV : 0);
	u8 *buf = rx->key.buf;
	u32 off = 0, n = 0;
	bool part = false;

	if (plen + KTLS_SIM_TAG > rx->key.buf_len ||
	    skb_copy_bits(skb, poff, buf, plen))
		goto encrypted;
	while (off + TLS_HEADER_SIZE <= plen) {
		u32 rlen = TLS_HEADER_SIZE + get_unaligned_be16(buf + off + 3);

		if (off + rlen > plen) {
			/* Room for the tag the crypto API writes is there. */
			if (plen - off > hdr &&
			    ktls_sim_crypt(&rx->key, buf + off,
					   plen - off + KTLS_SIM_TAG, sn + n, true))
				goto encrypted;
			part = true;
			break;
		}
		if (ktls_sim_crypt(&rx->key, buf + off, rlen, sn + n, false)) {
			ktls_sim_inc(priv, KTLS_SIM_RX_AUTH_FAIL);
			goto encrypted;
		}
		off += rlen;
		n++;
	}
	if (skb_ensure_writable(skb, skb->len)) {
		ktls_sim_inc(priv, KTLS_SIM_NOMEM);
		goto encrypted;
	}
	skb_store_bits(skb, poff, buf, plen);
	skb->decrypted = 1;
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		skb->ip_summed = CHECKSUM_UNNECESSARY;
	ktls_sim_add(priv, KTLS_SIM_RX_RECORDS, n);
	ktls_sim_key_used(priv, &rx->key, KTLS_SIM_RX_KEYS_USED);
	if (part)
		ktls_sim_inc(priv, KTLS_SIM_RX_PARTIAL);
	ktls_sim_add(priv, KTLS_SIM_RX_BYTES, plen);
	return;

encrypted:
	ktls_sim_inc(priv, KTLS_SIM_RX_ENCRYPTED);
}

/* Asks the core to confirm the record whose header starts at seq. */
static void ktls_sim_rx_request(struct ktls_sim_priv *priv, struct ktls_sim_rx *rx,
				u32 seq)
{
	rx->sync = KTLS_SIM_RX_PENDING;
	rx->req_seq = seq;
	rx->rec_seq = seq;
	rx->hdr_len = 0;
	rx->walked = 0;
	if (rx->resync_type == TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC) {
		/* The answer is known by the next frame: the end comes then. */
		ktls_rx_resync_async_start(rx->sk, &rx->async, htonl(seq),
					   U16_MAX);
		rx->async_open = true;
	} else {
		/* The core matches the seq of the header's last byte. */
		tls_offload_rx_resync_request(rx->sk,
					      htonl(seq + TLS_HEADER_SIZE - 1));
	}
	ktls_sim_inc(priv, KTLS_SIM_RX_RESYNC_REQ);
}

static void ktls_sim_rx_flow(struct ktls_sim_priv *priv, struct ktls_sim_rx *rx,
			     struct sk_buff *skb, u32 poff, u32 seq, u32 plen)
{
	u32 end = seq + plen, start;
	bool whole = false, first;
	int gen, n, off;
	u64 sn = 0;

	lockdep_assert_held(&rx->lock);
	if (rx->async_open) {
		ktls_rx_resync_async_end(rx->sk, &rx->async,
					 htonl(rx->req_seq));
		rx->async_open = false;
	}

	gen = atomic_read(&priv->resync_gen);
	if (rx->resync_gen != gen) {
		rx->resync_gen = gen;
		rx->sync = KTLS_SIM_RX_SEARCH;
	}

	if (after(seq, rx->next_seq)) {
		/* A hole: where records start is unknown from here on. */
		ktls_sim_inc(priv, KTLS_SIM_RX_OOO);
		rx->sync = KTLS_SIM_RX_SEARCH;
		rx->next_seq = seq;
	}
	if (!after(end, rx->next_seq)) {
		/* A retransmission of what went by already. */
		ktls_sim_inc(priv, KTLS_SIM_RX_OOO);
		goto encrypted;
	}
	start = rx->next_seq;

	/* Core next hint: the core, not the device, finds record starts. */
	if (rx->sync == KTLS_SIM_RX_SEARCH &&
	    rx->resync_type == TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT) {
		rx->next_seq = end;
		goto encrypted;
	}
	if (rx->sync == KTLS_SIM_RX_SEARCH) {
		off = ktls_sim_rx_search(rx, skb, poff + (start - seq), poff + plen);
		if (off < 0) {
			rx->next_seq = end;
			goto encrypted;
		}
		start = seq + (off - poff);
		ktls_sim_rx_request(priv, rx, start);
	}

	if (rx->sync == KTLS_SIM_RX_SYNCED)
		sn = rx->rcd_sn;
	first = rx->sync == KTLS_SIM_RX_SYNCED && seq == start &&
		rx->rec_seq == seq && !rx->hdr_len;
	n = ktls_sim_rx_walk(rx, skb, poff, seq, start, end, &whole);
	rx->next_seq = end;
	if (n < 0) {
		rx->sync = KTLS_SIM_RX_SEARCH;
		goto encrypted;
	}
	if (rx->sync == KTLS_SIM_RX_PENDING) {
		rx->walked += n;
		goto encrypted;
	}
	rx->rcd_sn += n;
	if (whole) {
		ktls_sim_rx_decrypt(priv, rx, skb, poff, plen, sn);
		return;
	}
	if (first && READ_ONCE(priv->partial)) {
		ktls_sim_rx_decrypt_part(priv, rx, skb, poff, plen, sn);
		return;
	}

encrypted:
	ktls_sim_inc(priv, KTLS_SIM_RX_ENCRYPTED);
}

/* Looks for an RX-offloaded flow of dev in a frame on its way up. */
static void ktls_sim_rx_frame(struct ktls_sim_priv *priv, struct sk_buff *skb)
{
	struct in6_addr saddr, daddr;
	struct ktls_sim_rx *rx;
	struct tcphdr _th;
	const struct tcphdr *th;
	u32 thoff, poff, plen;

	if (list_empty(&priv->rx_flows))
		return;

	if (skb->protocol == htons(ETH_P_IP)) {
		struct iphdr _iph;
		const struct iphdr *iph;

		iph = skb_header_pointer(skb, 0, sizeof(_iph), &_iph);
		if (!iph || iph->protocol != IPPROTO_TCP || iph->ihl < 5 ||
		    ip_is_fragment(iph))
			return;
		thoff = iph->ihl * 4;
		plen = ntohs(iph->tot_len);
		ipv6_addr_set_v4mapped(iph->saddr, &saddr);
		ipv6_addr_set_v4mapped(iph->daddr, &daddr);
	} else if (skb->protocol == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ip6h;
		const struct ipv6hdr *ip6h;

		ip6h = skb_header_pointer(skb, 0, sizeof(_ip6h), &_ip6h);
		if (!ip6h || ip6h->nexthdr != IPPROTO_TCP)
			return;
		thoff = sizeof(*ip6h);
		plen = thoff + ntohs(ip6h->payload_len);
		saddr = ip6h->saddr;
		daddr = ip6h->daddr;
	} else {
		return;
	}
	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th || th->doff < 5 || th->syn || th->rst)
		return;
	poff = thoff + th->doff * 4;
	if (plen > skb->len || poff >= plen)
		return;
	plen -= poff;

	rcu_read_lock();
	list_for_each_entry_rcu(rx, &priv->rx_flows, list) {
		if (rx->lport != th->dest || rx->rport != th->source ||
		    !ipv6_addr_equal(&rx->laddr, &daddr) ||
		    !ipv6_addr_equal(&rx->raddr, &saddr))
			continue;
		spin_lock(&rx->lock);
		if (!rx->dead)
			ktls_sim_rx_flow(priv, rx, skb, poff, ntohl(th->seq), plen);
		spin_unlock(&rx->lock);
		break;
	}
	rcu_read_unlock();
}

/* ---- tlsdev_ops ------------------------------------------------------ */

static int ktls_sim_tls_dev_add(struct net_device *dev, struct sock *sk,
				enum tls_offload_ctx_dir dir,
				struct tls_crypto_info *ci, u32 start_sn)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	u32 delay = READ_ONCE(priv->install_delay_ms);
	int err;

	/* A NIC's install is a round trip to firmware: let it take time. */
	if (delay)
		fsleep(delay * USEC_PER_MSEC);
	if (READ_ONCE(priv->refuse_add)) {
		ktls_sim_inc(priv, KTLS_SIM_DEV_ADD_REFUSED);
		return -EBUSY;
	}

	if (dir == TLS_OFFLOAD_CTX_DIR_TX)
		err = ktls_sim_add_tx(priv, dev, sk, ci, start_sn);
	else
		err = ktls_sim_add_rx(priv, sk, ci, start_sn);
	if (err)
		ktls_sim_inc(priv, KTLS_SIM_DEV_ADD_FAIL);
	return err;
}

static void ktls_sim_tls_dev_del(struct net_device *dev, struct tls_context *ctx,
				 enum tls_offload_ctx_dir dir)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);

	if (dir == TLS_OFFLOAD_CTX_DIR_TX) {
		struct ktls_sim_tx **slot = ktls_sim_tx_slot(ctx);
		struct ktls_sim_tx *tx = *slot;

		/* The core stopped the socket's xmits through us already. */
		*slot = NULL;
		if (!tx)
			return;
		ktls_sim_key_free(&tx->key);
		kfree(tx);
		ktls_sim_inc(priv, KTLS_SIM_DEV_DEL_TX);
	} else {
		struct ktls_sim_rx **slot = ktls_sim_rx_slot(ctx);
		struct ktls_sim_rx *rx = *slot;

		*slot = NULL;
		if (!rx)
			return;
		spin_lock_bh(&priv->flows_lock);
		list_del_rcu(&rx->list);
		spin_unlock_bh(&priv->flows_lock);
		/* A frame in flight may hold the flow: it must not touch sk. */
		spin_lock_bh(&rx->lock);
		rx->dead = true;
		rx->sk = NULL;
		spin_unlock_bh(&rx->lock);
		queue_rcu_work(ktls_sim_wq, &rx->free_work);
		ktls_sim_inc(priv, KTLS_SIM_DEV_DEL_RX);
	}
}

/*
 * TX: the core tells the number of the record that starts at seq; TX needs
 * no state for it, but checks it when that record goes out.  RX: the
 * answer to ktls_sim_rx_request(), at the header's last byte (driver
 * request) or its first (async request); or, in core next hint mode, the
 * core telling where a record the device has not seen yet starts.
 */
static int ktls_sim_tls_dev_resync(struct net_device *dev, struct sock *sk,
				   u32 seq, u8 *rcd_sn,
				   enum tls_offload_ctx_dir dir)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	struct tls_context *ctx = tls_get_ctx(sk);
	u64 sn = get_unaligned_be64(rcd_sn);

	if (dir == TLS_OFFLOAD_CTX_DIR_TX) {
		struct ktls_sim_tx *tx = *ktls_sim_tx_slot(ctx);

		if (!tx)
			return -ENOENT;
		spin_lock_bh(&tx->lock);
		tx->resync_check = true;
		tx->resync_seq = seq;
		tx->resync_sn = sn;
		spin_unlock_bh(&tx->lock);
		ktls_sim_inc(priv, KTLS_SIM_TX_RESYNC);
	} else {
		struct ktls_sim_rx *rx = *ktls_sim_rx_slot(ctx);

		if (!rx)
			return -ENOENT;
		spin_lock_bh(&rx->lock);
		if (rx->resync_type == TLS_OFFLOAD_SYNC_TYPE_CORE_NEXT_HINT &&
		    !before(seq, rx->next_seq)) {
			/* A record starts there that the device has not seen. */
			rx->sync = KTLS_SIM_RX_SYNCED;
			rx->rec_seq = seq;
			rx->hdr_len = 0;
			rx->rcd_sn = sn;
			ktls_sim_inc(priv, KTLS_SIM_RX_RESYNC);
		} else if (rx->sync == KTLS_SIM_RX_PENDING &&
		    (seq == rx->req_seq + TLS_HEADER_SIZE - 1 || seq == rx->req_seq)) {
			rx->rcd_sn = sn + rx->walked;
			rx->sync = KTLS_SIM_RX_SYNCED;
			ktls_sim_inc(priv, KTLS_SIM_RX_RESYNC);
		} else {
			ktls_sim_inc(priv, KTLS_SIM_RX_RESYNC_STALE);
		}
		spin_unlock_bh(&rx->lock);
	}
	return 0;
}

static const struct tlsdev_ops ktls_sim_tlsdev_ops = {
	.tls_dev_add	= ktls_sim_tls_dev_add,
	.tls_dev_del	= ktls_sim_tls_dev_del,
	.tls_dev_resync	= ktls_sim_tls_dev_resync,
};

/* ---- the wire -------------------------------------------------------- */

/* Puts a frame into peer's receive path, as its NIC would. */
static void ktls_sim_deliver(struct net_device *peer, struct sk_buff *skb)
{
	/*
	 * On the way out, decrypted meant "plaintext for the device"; on the
	 * way in it means "the device checked and decrypted this".
	 */
	skb->decrypted = 0;
	if (__dev_forward_skb(peer, skb) != NET_RX_SUCCESS) {
		DEV_STATS_INC(peer, rx_dropped);
		return;
	}
	ktls_sim_rx_frame(netdev_priv(peer), skb);
	DEV_STATS_INC(peer, rx_packets);
	DEV_STATS_ADD(peer, rx_bytes, skb->len);
	netif_rx(skb);
}

static bool ktls_sim_carries_data(const struct sk_buff *skb)
{
	const struct tcphdr *th;
	u32 poff;

	if (!skb_transport_header_was_set(skb) || !skb->sk ||
	    !sk_fullsock(skb->sk) || skb->sk->sk_protocol != IPPROTO_TCP)
		return false;
	th = tcp_hdr(skb);
	poff = skb_transport_offset(skb) + th->doff * 4;
	return poff < skb->len;
}

static void ktls_sim_hold_expired(struct timer_list *t)
{
	struct ktls_sim_priv *priv = ktls_timer_container_of(priv, t, hold_timer);
	struct net_device *peer;
	struct sk_buff *skb;

	spin_lock_bh(&priv->wire_lock);
	skb = priv->held;
	priv->held = NULL;
	spin_unlock_bh(&priv->wire_lock);
	if (!skb)
		return;

	rcu_read_lock();
	peer = rcu_dereference(priv->peer);
	if (peer)
		ktls_sim_deliver(peer, skb);
	else
		kfree_skb(skb);
	rcu_read_unlock();
}

/*
 * Drop and reorder apply to TCP frames with payload only: losing ARP or
 * neighbour discovery would test nothing but timeouts.
 */
static void ktls_sim_wire(struct ktls_sim_priv *priv, struct net_device *peer,
			  struct sk_buff *skb)
{
	u32 drop = READ_ONCE(priv->drop_every);
	u32 reorder = READ_ONCE(priv->reorder_every);
	struct sk_buff *first = NULL;
	u64 n;

	if ((!drop && !reorder && !READ_ONCE(priv->held)) ||
	    !ktls_sim_carries_data(skb)) {
		ktls_sim_deliver(peer, skb);
		return;
	}

	spin_lock(&priv->wire_lock);
	n = ++priv->data_frames;
	if (drop && !(n % drop)) {
		spin_unlock(&priv->wire_lock);
		ktls_sim_inc(priv, KTLS_SIM_WIRE_DROP);
		kfree_skb(skb);
		return;
	}
	if (priv->held) {
		/* this one overtakes the held one */
		first = skb;
		skb = priv->held;
		priv->held = NULL;
		ktls_sim_inc(priv, KTLS_SIM_WIRE_REORDER);
	} else if (reorder && !(n % reorder)) {
		priv->held = skb;
		mod_timer(&priv->hold_timer,
			  jiffies + msecs_to_jiffies(KTLS_SIM_HOLD_MS));
		spin_unlock(&priv->wire_lock);
		return;
	}
	spin_unlock(&priv->wire_lock);

	if (first)
		ktls_sim_deliver(peer, first);
	ktls_sim_deliver(peer, skb);
}

static netdev_tx_t ktls_sim_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	struct net_device *peer;
	unsigned int len = skb->len;

	rcu_read_lock();
	peer = rcu_dereference(priv->peer);
	if (unlikely(!peer || !(peer->flags & IFF_UP)))
		goto drop;

	if (ktls_skb_tx_device_offloaded(skb) && skb->decrypted &&
	    !ktls_sim_tx_frame(priv, dev, skb))
		goto drop;

	DEV_STATS_INC(dev, tx_packets);
	DEV_STATS_ADD(dev, tx_bytes, len);
	ktls_sim_wire(priv, peer, skb);
	rcu_read_unlock();
	return NETDEV_TX_OK;

drop:
	rcu_read_unlock();
	DEV_STATS_INC(dev, tx_dropped);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

/* ---- netdev ---------------------------------------------------------- */

static int ktls_sim_resync_get(void *data, u64 *val)
{
	struct ktls_sim_priv *priv = data;

	*val = atomic_read(&priv->resync_gen);
	return 0;
}

/* Any write makes every flow of the device lose sync once. */
static int ktls_sim_resync_set(void *data, u64 val)
{
	struct ktls_sim_priv *priv = data;

	atomic_inc(&priv->resync_gen);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(ktls_sim_resync_fops, ktls_sim_resync_get,
			 ktls_sim_resync_set, "%llu\n");

static int ktls_sim_init(struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);

	/* Two devices of one name in two namespaces share no directory. */
	priv->dbg = debugfs_create_dir(dev->name, ktls_sim_dbg_root);
	if (IS_ERR(priv->dbg)) {
		netdev_info(dev, "no debugfs knobs: %ld\n", PTR_ERR(priv->dbg));
		return 0;
	}
	debugfs_create_u32("drop", 0600, priv->dbg, &priv->drop_every);
	debugfs_create_u32("reorder", 0600, priv->dbg, &priv->reorder_every);
	debugfs_create_u32("install_delay_ms", 0600, priv->dbg,
			   &priv->install_delay_ms);
	debugfs_create_bool("refuse_add", 0600, priv->dbg, &priv->refuse_add);
	debugfs_create_bool("partial", 0600, priv->dbg, &priv->partial);
	debugfs_create_u32("resync_type", 0600, priv->dbg, &priv->resync_type);
	debugfs_create_file_unsafe("force_resync", 0600, priv->dbg, priv,
				   &ktls_sim_resync_fops);
	return 0;
}

static void ktls_sim_uninit(struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);

	debugfs_remove_recursive(priv->dbg);
	priv->dbg = NULL;
	timer_shutdown_sync(&priv->hold_timer);
	kfree_skb(priv->held);
	priv->held = NULL;
	/* The core calls tls_dev_del for every flow on NETDEV_DOWN. */
	WARN_ON_ONCE(!list_empty(&priv->rx_flows));
}

static int ktls_sim_open(struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	if (!peer)
		return -ENOTCONN;
	if (peer->flags & IFF_UP) {
		netif_carrier_on(dev);
		netif_carrier_on(peer);
	}
	return 0;
}

static int ktls_sim_close(struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	netif_carrier_off(dev);
	if (peer)
		netif_carrier_off(peer);
	return 0;
}

static const struct net_device_ops ktls_sim_netdev_ops = {
	.ndo_init		= ktls_sim_init,
	.ndo_uninit		= ktls_sim_uninit,
	.ndo_open		= ktls_sim_open,
	.ndo_stop		= ktls_sim_close,
	.ndo_start_xmit		= ktls_sim_xmit,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

static void ktls_sim_get_drvinfo(struct net_device *dev,
				 struct ethtool_drvinfo *info)
{
	strscpy(info->driver, DRV_NAME, sizeof(info->driver));
}

static int ktls_sim_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? KTLS_SIM_NSTATS : -EOPNOTSUPP;
}

static void ktls_sim_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	int i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < KTLS_SIM_NSTATS; i++)
		ktls_ethtool_puts(&data, ktls_sim_stat_names[i]);
}

static void ktls_sim_get_stats(struct net_device *dev,
			       struct ethtool_stats *stats, u64 *data)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	int i;

	for (i = 0; i < KTLS_SIM_NSTATS; i++)
		data[i] = atomic64_read(&priv->stats[i]);
}

static const struct ethtool_ops ktls_sim_ethtool_ops = {
	.get_drvinfo		= ktls_sim_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= ktls_sim_get_sset_count,
	.get_strings		= ktls_sim_get_strings,
	.get_ethtool_stats	= ktls_sim_get_stats,
};

static void ktls_sim_setup(struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);

	ether_setup(dev);
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->priv_flags |= IFF_LIVE_ADDR_CHANGE | IFF_NO_QUEUE;
	ktls_netdev_set_lltx(dev);
	dev->netdev_ops = &ktls_sim_netdev_ops;
	dev->ethtool_ops = &ktls_sim_ethtool_ops;
	dev->tlsdev_ops = &ktls_sim_tlsdev_ops;
	/*
	 * No TSO: what leaves is what a NIC puts on the wire, one MTU at a
	 * time, so RX sees frames as hardware does, and TX makes private
	 * copies of MTU-sized frames only.  The stack segments in software.
	 */
	dev->features |= KTLS_SIM_FEATURES;
	dev->hw_features |= KTLS_SIM_FEATURES;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU - ETH_HLEN;
	dev->needs_free_netdev = true;

	spin_lock_init(&priv->wire_lock);
	spin_lock_init(&priv->flows_lock);
	INIT_LIST_HEAD(&priv->rx_flows);
	timer_setup(&priv->hold_timer, ktls_sim_hold_expired, 0);
}

/* ---- rtnetlink ------------------------------------------------------- */

static struct rtnl_link_ops ktls_sim_link_ops;

static int ktls_sim_validate(struct nlattr *tb[], struct nlattr *data[],
			     struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN)
			return -EINVAL;
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS])))
			return -EADDRNOTAVAIL;
	}
	return 0;
}

/*
 * The peer is named by a nested KTLS_SIM_INFO_PEER (veth's layout) where
 * the tool can send one; iproute2 parses "peer" for veth only, so without
 * it the peer of "sim0" is "sim0p".
 */
int ktls_sim_newlink(struct net_device *dev, struct rtnl_newlink_params *params,
		     struct netlink_ext_ack *extack)
{
	struct nlattr **tb = params->tb, **data = params->data;
	struct nlattr *peer_tb[IFLA_MAX + 1], **tbp = peer_tb;
	struct ifinfomsg *ifmp = NULL;
	unsigned char assign = NET_NAME_ENUM;
	struct ktls_sim_priv *priv;
	struct net_device *peer;
	char ifname[IFNAMSIZ];
	struct net *net;
	int err;

	memset(peer_tb, 0, sizeof(peer_tb));
	if (data && data[KTLS_SIM_INFO_PEER]) {
		ifmp = nla_data(data[KTLS_SIM_INFO_PEER]);
		err = rtnl_nla_parse_ifinfomsg(peer_tb, data[KTLS_SIM_INFO_PEER],
					       extack);
		if (err < 0)
			return err;
		err = ktls_sim_validate(peer_tb, NULL, extack);
		if (err < 0)
			return err;
	}

	if (peer_tb[IFLA_IFNAME]) {
		nla_strscpy(ifname, peer_tb[IFLA_IFNAME], IFNAMSIZ);
		assign = NET_NAME_USER;
	} else if (tb[IFLA_IFNAME] && !strchr(dev->name, '%') &&
		   strnlen(dev->name, IFNAMSIZ) < IFNAMSIZ - 1) {
		size_t len = strlen(dev->name);

		memcpy(ifname, dev->name, len);
		ifname[len] = 'p';
		ifname[len + 1] = '\0';
		assign = NET_NAME_USER;
	} else {
		snprintf(ifname, IFNAMSIZ, DRV_NAME "%%d");
	}

	net = rtnl_link_get_net(params->src_net, tbp);
	if (IS_ERR(net))
		return PTR_ERR(net);
	peer = rtnl_create_link(net, ifname, assign, &ktls_sim_link_ops, tbp,
				extack);
	if (IS_ERR(peer)) {
		put_net(net);
		return PTR_ERR(peer);
	}
	if (!peer_tb[IFLA_ADDRESS])
		eth_hw_addr_random(peer);
	err = register_netdevice(peer);
	put_net(net);
	if (err < 0) {
		free_netdev(peer);
		return err;
	}
	netif_carrier_off(peer);
	err = rtnl_configure_link(peer, ifmp, 0, NULL);
	if (err < 0)
		goto unregister_peer;

	if (!tb[IFLA_ADDRESS])
		eth_hw_addr_random(dev);
	err = register_netdevice(dev);
	if (err < 0)
		goto unregister_peer;
	netif_carrier_off(dev);

	priv = netdev_priv(dev);
	rcu_assign_pointer(priv->peer, peer);
	priv = netdev_priv(peer);
	rcu_assign_pointer(priv->peer, dev);
	return 0;

unregister_peer:
	unregister_netdevice(peer);
	return err;
}

static void ktls_sim_dellink(struct net_device *dev, struct list_head *head)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	RCU_INIT_POINTER(priv->peer, NULL);
	unregister_netdevice_queue(dev, head);
	if (peer) {
		struct ktls_sim_priv *ppriv = netdev_priv(peer);

		RCU_INIT_POINTER(ppriv->peer, NULL);
		unregister_netdevice_queue(peer, head);
	}
}

static struct net *ktls_sim_get_link_net(const struct net_device *dev)
{
	struct ktls_sim_priv *priv = netdev_priv(dev);
	struct net_device *peer = rtnl_dereference(priv->peer);

	return peer ? dev_net(peer) : dev_net(dev);
}

static const struct nla_policy ktls_sim_policy[KTLS_SIM_INFO_MAX + 1] = {
	[KTLS_SIM_INFO_PEER]	= { .len = sizeof(struct ifinfomsg) },
};

static struct rtnl_link_ops ktls_sim_link_ops = {
	.kind		= DRV_NAME,
	.priv_size	= sizeof(struct ktls_sim_priv),
	.setup		= ktls_sim_setup,
	.validate	= ktls_sim_validate,
	.newlink	= KTLS_SIM_NEWLINK_OP,
	.dellink	= ktls_sim_dellink,
	.policy		= ktls_sim_policy,
	.maxtype	= KTLS_SIM_INFO_MAX,
	.get_link_net	= ktls_sim_get_link_net,
};

static int __init ktls_sim_module_init(void)
{
	int err;

	ktls_sim_wq = alloc_workqueue("ktls_sim", KTLS_WQ_PERCPU, 0);
	if (!ktls_sim_wq)
		return -ENOMEM;
	ktls_sim_dbg_root = debugfs_create_dir("ktls_sim", NULL);
	err = rtnl_link_register(&ktls_sim_link_ops);
	if (err) {
		debugfs_remove_recursive(ktls_sim_dbg_root);
		destroy_workqueue(ktls_sim_wq);
	}
	return err;
}

static void __exit ktls_sim_module_exit(void)
{
	rtnl_link_unregister(&ktls_sim_link_ops);
	debugfs_remove_recursive(ktls_sim_dbg_root);
	/* queue_rcu_work() queues from an RCU callback: wait for those first */
	rcu_barrier();
	destroy_workqueue(ktls_sim_wq);
}

module_init(ktls_sim_module_init);
module_exit(ktls_sim_module_exit);

MODULE_DESCRIPTION("Simulated NIC pair with kTLS TX/RX offload");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RTNL_LINK(DRV_NAME);
