/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, kTLS part: where the kernel's own <net/tls.h>, whose
 * structures NIC drivers read out of our context (and out of the offload
 * contexts hung off it), lays them out differently.  Needs that header
 * alone, like <ktls_hs/compat_skb.h>: the offload files that export
 * tls.ko's symbols keep the header set of the in-tree ones.
 */
#ifndef _KTLS_HS_COMPAT_TLS_H
#define _KTLS_HS_COMPAT_TLS_H

#include <linux/string.h>
#include <linux/version.h>
#include <net/tls.h>

/*
 * The driver's room in the offload contexts.  Up to 6.6 driver_state[]
 * is a flexible array at the end of both, and tls.ko allocates
 * TLS_OFFLOAD_CONTEXT_SIZE_TX/_RX, which say how much; from 6.7 on it is
 * a fixed array inside, and the macros are gone.  So the macros
 * themselves tell which layout this kernel has.
 */
static inline size_t ktls_offload_ctx_tx_size(void)
{
#ifdef TLS_OFFLOAD_CONTEXT_SIZE_TX
	return TLS_OFFLOAD_CONTEXT_SIZE_TX;
#else
	return sizeof(struct tls_offload_context_tx);
#endif
}

/**
 * struct ktls_compat_rx_room - room for the driver behind an RX context
 * @driver_state: where a driver writes through the flexible
 *		driver_state[] of the struct tls_offload_context_rx in
 *		front of this, on kernels that have one
 *
 * To be placed right behind the struct tls_offload_context_rx it serves.
 * Empty, taking no room, where the array is inside the struct.
 */
struct ktls_compat_rx_room {
#ifdef TLS_OFFLOAD_CONTEXT_SIZE_RX
	u8 driver_state[TLS_DRIVER_STATE_SIZE_RX] __aligned(8);
#endif
};

/*
 * The iv and record number of each direction in struct tls_context,
 * which drivers read: arrays in struct cipher_context from 6.7 on;
 * before, pointers to memory that tls.ko allocated.  There the compat
 * layer keeps the memory in the context (struct ktls_compat_ctx, empty
 * from 6.7 on) and points the kernel's fields at it.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
/* The largest salt of the uapi ciphers (AES-GCM, AES-CCM, SM4). */
#define KTLS_COMPAT_MAX_SALT	4

struct ktls_compat_cctx {
	char iv[MAX_IV_SIZE + KTLS_COMPAT_MAX_SALT];
	char rec_seq[TLS_MAX_REC_SEQ_SIZE];
};
#endif

/**
 * struct ktls_compat_ctx - what our context holds for older kernels
 * @tx:		memory of base.tx, before 6.7
 * @rx:		memory of base.rx, before 6.7
 *
 * Empty, taking no room, from 6.7 on.
 */
struct ktls_compat_ctx {
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	struct ktls_compat_cctx tx;
	struct ktls_compat_cctx rx;
#endif
};

/* Point @cc (base.tx or base.rx, as @tx says) at its memory. */
static inline void ktls_cctx_bind(struct cipher_context *cc,
				  struct ktls_compat_ctx *compat, bool tx)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	struct ktls_compat_cctx *room = tx ? &compat->tx : &compat->rx;

	cc->iv = room->iv;
	cc->rec_seq = room->rec_seq;
#endif
}

/* Forget the iv and record number of @cc. */
static inline void ktls_cctx_wipe(struct cipher_context *cc)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	if (cc->iv)
		memzero_explicit(cc->iv, sizeof_field(struct ktls_compat_cctx, iv));
	if (cc->rec_seq)
		memzero_explicit(cc->rec_seq,
				 sizeof_field(struct ktls_compat_cctx, rec_seq));
#endif
	memzero_explicit(cc, sizeof(*cc));
}

/*
 * Driver side, for the simulated NIC.  From 6.12 a driver's async RX
 * resync request names the driver's struct tls_offload_resync_async;
 * on 6.1 it names the socket, whose RX context points at that struct
 * (the driver set it there).  The helpers take both.
 */
static inline void
ktls_rx_resync_async_start(struct sock *sk,
			   struct tls_offload_resync_async *async,
			   __be32 seq, u16 len)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	tls_offload_rx_resync_async_request_start(async, seq, len);
#else
	tls_offload_rx_resync_async_request_start(sk, seq, len);
#endif
}

static inline void
ktls_rx_resync_async_end(struct sock *sk,
			 struct tls_offload_resync_async *async, __be32 seq)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	tls_offload_rx_resync_async_request_end(async, seq);
#else
	tls_offload_rx_resync_async_request_end(sk, seq);
#endif
}

/*
 * Whether an skb on its way to a driver is of a socket with TX offload:
 * 6.12 asks the skb; 6.1 asks its socket, which the caller must check
 * is there.
 */
static inline bool ktls_skb_tx_device_offloaded(const struct sk_buff *skb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return tls_is_skb_tx_device_offloaded(skb);
#else
	return skb->sk && tls_is_sk_tx_device_offloaded(skb->sk);
#endif
}

/*
 * TCP's callback as the peer acks data, which frees the offloaded records
 * it covers.  A field of the connection sock (icsk_clean_acked), and
 * clean_acked_data_enable() taking that, until 6.16; of the tcp_sock
 * (tcp_clean_acked) after.  Here rather than in <ktls_hs/compat_net.h>
 * because device.c, which exports tls.ko's symbols, needs it and must
 * keep its include set: <net/tls.h> brings <net/tcp.h> on every kernel.
 */
static inline bool ktls_clean_acked_set(struct sock *sk)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
	return tcp_sk(sk)->tcp_clean_acked;
#else
	return inet_csk(sk)->icsk_clean_acked;
#endif
}

static inline void ktls_clean_acked_enable(struct sock *sk,
					   void (*cad)(struct sock *sk, u32 acked_seq))
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
	clean_acked_data_enable(tcp_sk(sk), cad);
#else
	clean_acked_data_enable(inet_csk(sk), cad);
#endif
}

static inline void ktls_clean_acked_disable(struct sock *sk)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
	clean_acked_data_disable(tcp_sk(sk));
#else
	clean_acked_data_disable(inet_csk(sk));
#endif
}

#endif /* _KTLS_HS_COMPAT_TLS_H */
