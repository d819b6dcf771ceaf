// SPDX-License-Identifier: GPL-2.0-only
/*
 * sock_diag: the INET_DIAG_ULP_INFO nest that `ss -tie` prints for a kTLS
 * socket (version, cipher, where each direction is processed, the two
 * mode flags, the TX payload cap), in the attributes of <linux/tls.h>.
 * Called under RCU without the socket lock, hence the context's
 * RCU-deferred free.
 */
#include <linux/inet_diag.h>
#include <linux/tls.h>
#include <net/netlink.h>
#include <net/tcp.h>

#include "ktls.h"

/* Upstream's attribute (Linux 6.19), which older headers lack. */
#define KTLS_INFO_TX_MAX_PAYLOAD_LEN	(TLS_INFO_RX_NO_PAD + 1)

static u16 ktls_diag_conf(u8 conf)
{
	switch (conf) {
	case KTLS_CONF_SW:
		return TLS_CONF_SW;
	case KTLS_CONF_HW:
		return TLS_CONF_HW;
	default:
		return TLS_CONF_BASE;
	}
}

int ktls_diag_get_info(struct sock *sk, struct sk_buff *skb, bool net_admin)
{
	const struct ktls_cipher *cs;
	struct ktls_ctx *ctx;
	struct nlattr *nest;
	u16 version;

	nest = nla_nest_start_noflag(skb, INET_ULP_INFO_TLS);
	if (!nest)
		return -EMSGSIZE;

	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	if (!ctx)
		goto out;
	version = READ_ONCE(ctx->prot.version);
	cs = READ_ONCE(ctx->prot.cipher);
	if (version && cs &&
	    (nla_put_u16(skb, TLS_INFO_VERSION, version) ||
	     nla_put_u16(skb, TLS_INFO_CIPHER, cs->type)))
		goto nla_failure;
	if (nla_put_u16(skb, TLS_INFO_TXCONF, ktls_diag_conf(READ_ONCE(ctx->tx_conf))) ||
	    nla_put_u16(skb, TLS_INFO_RXCONF, ktls_diag_conf(READ_ONCE(ctx->rx_conf))))
		goto nla_failure;
	if (READ_ONCE(ctx->zerocopy_sendfile) &&
	    nla_put_flag(skb, TLS_INFO_ZC_RO_TX))
		goto nla_failure;
	if (READ_ONCE(ctx->rx_no_pad) && nla_put_flag(skb, TLS_INFO_RX_NO_PAD))
		goto nla_failure;
	if (nla_put_u16(skb, KTLS_INFO_TX_MAX_PAYLOAD_LEN,
			ktls_tx_max_plain(ctx)))
		goto nla_failure;
out:
	rcu_read_unlock();
	nla_nest_end(skb, nest);
	return 0;

nla_failure:
	rcu_read_unlock();
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

size_t ktls_diag_get_info_size(const struct sock *sk, bool net_admin)
{
	return nla_total_size(0) +		/* INET_ULP_INFO_TLS */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_VERSION */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_CIPHER */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_TXCONF */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_RXCONF */
	       nla_total_size(0) +		/* TLS_INFO_ZC_RO_TX */
	       nla_total_size(0) +		/* TLS_INFO_RX_NO_PAD */
	       nla_total_size(sizeof(u16));	/* ..._TX_MAX_PAYLOAD_LEN */
}
