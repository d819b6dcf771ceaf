/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktls-hs internal interfaces: the per-socket context hung off the TCP ULP
 * slot, and the entry points the files of the module call each other by.
 * Nothing here is visible to drivers or to userspace.
 */
#ifndef _KTLS_HS_KTLS_H
#define _KTLS_HS_KTLS_H

#include <linux/build_bug.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>
#include <net/tls.h>

#include <ktls_hs/compat_tls.h>

#include "record.h"

struct ktls_tx;
struct ktls_rx;
struct ktls_hs_settings;
struct ktls_hs_conn;
struct ktls_hs_listen;

/* Where a direction's records are processed (sockopt.c sets, diag reports). */
enum ktls_conf {
	KTLS_CONF_BASE,		/* no keys: plain TCP */
	KTLS_CONF_SW,		/* our record layer */
	KTLS_CONF_HW,		/* a tls_device offload */
};

/*
 * TX offload of a socket, which starts in software (device_tx_keys.c): the
 * device is asked for the keys off the syscall path, and the socket moves
 * to it at a record boundary once it has them.  After a key update (DRAIN)
 * the new keys are offered once the driver forgot the old ones and TCP
 * acked every record built for them.
 */
enum ktls_tx_dev {
	KTLS_TX_DEV_NONE,	/* no device asked */
	KTLS_TX_DEV_PENDING,	/* the driver installs the keys */
	KTLS_TX_DEV_READY,	/* it has them: move at the next record */
	KTLS_TX_DEV_ON,		/* records are in device form */
	KTLS_TX_DEV_ABANDONED,	/* the keys it would get are stale */
	KTLS_TX_DEV_DRAIN,	/* keys changed: the next install waits */
};

/**
 * struct ktls_tx_offload_state - where the TX offload of a socket stands
 * @state:	enum ktls_tx_dev (device_tx_keys.c)
 * @floor_on:	@floor holds, until TCP acks past it
 * @floor:	TCP sequence number below which an skb in device form is a
 *		stale copy of a record of older keys (device_tx_keys.c)
 * @forgetting:	TX forgets queued whose tls_dev_del() has not returned:
 *		the driver may still hold an old key (device_tx_keys.c)
 *
 * In the context, not hung off @base.priv_ctx_tx as the driver's state
 * is: it outlives each stay on a device, and the TX path reads it before
 * any device was asked.
 */
struct ktls_tx_offload_state {
	u8 state;
	bool floor_on;
	u32 floor;
	atomic_t forgetting;
};

/**
 * struct ktls_device_link - a socket's tie to an offload device (device.c)
 * @dirs:	which directions the driver of base.netdev holds state
 *		for, and whether a device went from under the socket
 *		(KTLS_DEV_*, under device.c's lock)
 * @closed:	close() ran on an offloaded socket, whose context lives
 *		on until the socket's destructor
 * @free_work:	frees an offloaded socket's context after its destructor,
 *		since drivers may sleep in tls_dev_del()
 */
struct ktls_device_link {
	u8 dirs;
	bool closed;
	struct work_struct free_work;
};

/**
 * struct ktls_ctx - state of one socket the "tls" ULP is attached to
 * @base:	the kernel's own struct tls_context, first, because NIC
 *		drivers read the ULP slot as one (tls_get_ctx() and the
 *		inlines of <net/tls.h>).  Only what drivers and the core
 *		read of it is kept: @base.priv_ctx_tx, @base.netdev,
 *		@base.tx_conf, @base.prot_info, @base.crypto_send,
 *		@base.tx, @base.flags and @base.sk_destruct of a TX offload
 *		(device.c); everything else stays zero, so that the core's
 *		tls_sw_has_ctx_rx()/tls_sw_has_ctx_tx() see no upstream
 *		software context on any socket of ours
 * @sk:		the TCP socket
 * @sk_proto:	the protocol ops we sit in front of (tcp_prot, tcpv6_prot or
 *		whatever sockmap installed); every call we do not handle
 *		goes there, and close() puts it back
 * @sk_ops:	the socket's proto_ops before we attached (poll, splice)
 * @prot:	record framing, fixed by the first key set in either direction
 * @tx_crypto:	TX keys and AEAD state (sockopt.c/keys.c own it)
 * @rx_crypto:	RX keys and AEAD state
 * @tx:		TX path state, private to tx.c; NULL until TLS_TX
 * @rx:		RX path state, private to rx.c and rx_framer.c; NULL until TLS_RX
 * @tx_conf:	enum ktls_conf of TX
 * @rx_conf:	enum ktls_conf of RX
 * @zerocopy_sendfile: TLS_TX_ZEROCOPY_RO was set
 * @rx_no_pad:	TLS_RX_EXPECT_NO_PAD was set
 * @tx_max_plain: TLS_TX_MAX_PAYLOAD_LEN, or the cap a kernel handshake
 *		took from the peer's record_size_limit; 0 for none set
 *		(ktls_tx_max_plain())
 * @keys_staged: a kernel handshake left keys in @tx_crypto.info and
 *		@rx_crypto.info that are not installed yet (keys.c)
 * @keys_from_kernel: the keys come from the in-kernel handshake, so
 *		getsockopt does not hand them out
 * @key_update_due: the peer asked for our KeyUpdate; it leaves before our
 *		next record (key_update.c)
 * @secrets:	the application traffic secrets of a TLS 1.3 kernel
 *		handshake, for KeyUpdate (keys.c); NULL for any other socket
 * @hs_settings: settings for the in-kernel handshake (net/hs/config.c),
 *		of an armed listener or for a per-socket handshake
 * @hs:		the in-kernel handshake of this socket, running or ended
 *		(net/hs/conn.c); NULL if none was started
 * @hs_listen:	set on an armed listener (net/hs/listen.c).  These three
 *		are the handshake's: the record layer reads none of them,
 *		and asks through the hooks of net/hs/seam.h
 * @tx_offload: where the TX offload of the socket stands
 * @dev:	the socket's tie to an offload device, and the lifetime of
 *		an offloaded socket's context
 * @compat:	what older kernels need of the context (the compat layer)
 * @rcu:	the context is freed after a grace period, because sock_diag
 *		reads it under RCU without the socket lock
 */
struct ktls_ctx {
	struct tls_context base;
	struct sock *sk;
	struct proto *sk_proto;
	const struct proto_ops *sk_ops;
	struct ktls_prot prot;
	struct ktls_crypto tx_crypto;
	struct ktls_crypto rx_crypto;
	struct ktls_tx *tx;
	struct ktls_rx *rx;
	u8 tx_conf;
	u8 rx_conf;
	bool zerocopy_sendfile;
	bool rx_no_pad;
	u16 tx_max_plain;
	bool keys_staged;
	bool keys_from_kernel;
	bool key_update_due;
	struct ktls_secrets *secrets;
	struct ktls_hs_settings __rcu *hs_settings;
	struct ktls_hs_conn *hs;
	struct ktls_hs_listen *hs_listen;
	struct ktls_tx_offload_state tx_offload;
	struct ktls_device_link dev;
	struct ktls_compat_ctx compat;
	struct rcu_head rcu;
};

/* Most plaintext one TX record may carry, device-form ones included. */
static inline unsigned int ktls_tx_max_plain(const struct ktls_ctx *ctx)
{
	return READ_ONCE(ctx->tx_max_plain) ?: KTLS_MAX_PLAINTEXT;
}

/* tls_get_ctx() of a driver and ktls_ctx() must read the same address. */
static_assert(offsetof(struct ktls_ctx, base) == 0);

/*
 * The ULP slot is written only by our init (socket locked, before any
 * other of our ops can run) and cleared only by our close and release,
 * after which none of our proto ops is reachable for this socket.  So no
 * lock is the condition: the ops read it with or without the socket lock,
 * and drivers on their transmit path with none, as with upstream's
 * tls_get_ctx().  Readers that may race with close (sock_diag, a
 * listener's data-ready) use rcu_dereference() instead.
 */
static inline struct ktls_ctx *ktls_ctx(const struct sock *sk)
{
	return rcu_dereference_protected(inet_csk(sk)->icsk_ulp_data, true);
}

extern struct tcp_ulp_ops ktls_ulp_ops;

/*
 * The ULP glue (ulp.c), and what of it the armed listener's ULP
 * (net/hs/listen_ulp.c) builds on: our protos are per address family.
 */
enum ktls_family {
	KTLS_INET,
	KTLS_INET6,
	KTLS_NR_FAMILIES,
};

static inline enum ktls_family ktls_family_of(const struct sock *sk)
{
	return sk->sk_family == AF_INET6 ? KTLS_INET6 : KTLS_INET;
}

void ktls_ulp_setup(void);
struct proto *ktls_base_prot(enum ktls_family family);
bool ktls_derive_prot(enum ktls_family family, struct proto *p);
bool ktls_plain_tx_locked(struct sock *sk);
int ktls_attach(struct sock *sk, struct proto *prots,
		int (*arm)(struct sock *sk, struct ktls_ctx *ctx));
int ktls_attach_clone(struct sock *newsk, struct ktls_ctx *lctx, gfp_t gfp,
		      int (*arm)(struct ktls_ctx *lctx, struct ktls_ctx *ctx,
				 gfp_t gfp));
void ktls_detach_close(struct sock *sk, struct ktls_ctx *ctx, long timeout);
void ktls_update(struct sock *sk, struct proto *p,
		 void (*write_space)(struct sock *sk));
void ktls_release(struct sock *sk);

/* SOL_TLS options (sockopt.c), called with the socket unlocked. */
int ktls_setsockopt_tls(struct sock *sk, int optname, sockptr_t optval,
			unsigned int optlen);
int ktls_getsockopt_tls(struct sock *sk, int optname, char __user *optval,
			int __user *optlen);
/* INET_DIAG_ULP_INFO (diag.c), under RCU. */
int ktls_diag_get_info(struct sock *sk, struct sk_buff *skb, bool net_admin);
size_t ktls_diag_get_info_size(const struct sock *sk, bool net_admin);
/* The proto's recvmsg() (ulp.c); before 7.0 reached through net/compat.c. */
int ktls_prot_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
		      int flags);

/* Keys (keys.c).  Drop keys and AEAD state of both directions on free. */
void ktls_crypto_free(struct ktls_ctx *ctx);
int ktls_keys_set(struct sock *sk, bool tx, const union ktls_crypto_info *info,
		  unsigned int len);
int ktls_keys_stage(struct ktls_ctx *ctx, const union ktls_crypto_info *tx,
		    const union ktls_crypto_info *rx,
		    const struct ktls_secrets *secrets, unsigned int max_plain);
int ktls_keys_install_staged(struct sock *sk);
int ktls_crypto_copy(struct ktls_crypto *dst, const struct ktls_cipher *cs,
		     const struct ktls_crypto *src);
void ktls_crypto_release(struct ktls_crypto *c);
/* The next generation of a kernel handshake's keys (KeyUpdate), locked. */
int ktls_keys_next(struct sock *sk, bool tx);

/* Whether staged keys wait for ktls_keys_install_staged(); no lock needed. */
static inline bool ktls_keys_staged(const struct ktls_ctx *ctx)
{
	/* Pairs with the release in ktls_keys_stage(): the keys, then the flag. */
	return smp_load_acquire(&ctx->keys_staged);
}

/* Counters of /proc/net/tls_stat (stat.c), named as upstream's. */
enum ktls_stat {
	KTLS_STAT_CURR_TX_SW,
	KTLS_STAT_CURR_RX_SW,
	KTLS_STAT_CURR_TX_DEVICE,
	KTLS_STAT_CURR_RX_DEVICE,
	KTLS_STAT_TX_SW,
	KTLS_STAT_RX_SW,
	KTLS_STAT_TX_DEVICE,
	KTLS_STAT_RX_DEVICE,
	KTLS_STAT_DECRYPT_ERROR,
	KTLS_STAT_RX_DEVICE_RESYNC,
	KTLS_STAT_DECRYPT_RETRY,
	KTLS_STAT_RX_NO_PAD_VIOLATION,
	KTLS_STAT_RX_REKEY_OK,
	KTLS_STAT_RX_REKEY_ERROR,
	KTLS_STAT_TX_REKEY_OK,
	KTLS_STAT_TX_REKEY_ERROR,
	KTLS_STAT_RX_REKEY_RECEIVED,
	KTLS_STAT_NR,
};

void ktls_stat_add(const struct sock *sk, enum ktls_stat stat, long delta);
int ktls_stat_init(void);
void ktls_stat_exit(void);

static inline void ktls_stat_inc(const struct sock *sk, enum ktls_stat stat)
{
	ktls_stat_add(sk, stat, 1);
}

#endif /* _KTLS_HS_KTLS_H */
