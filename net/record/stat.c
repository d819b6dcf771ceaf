// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/net/tls_stat: per network namespace counters under the names the
 * in-tree kTLS uses, so that existing monitoring reads them unchanged.
 * The in-tree counters live in the kernel's own MIB, which exists only in
 * kernels built with CONFIG_TLS; ours live in per-netns per-cpu storage
 * of this module.
 */
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>

#include "ktls.h"

struct ktls_stats {
	long v[KTLS_STAT_NR];
};

struct ktls_net {
	struct ktls_stats __percpu *stats;
};

static unsigned int ktls_net_id __read_mostly;

static const char *const ktls_stat_names[KTLS_STAT_NR] = {
	[KTLS_STAT_CURR_TX_SW]		= "TlsCurrTxSw",
	[KTLS_STAT_CURR_RX_SW]		= "TlsCurrRxSw",
	[KTLS_STAT_CURR_TX_DEVICE]	= "TlsCurrTxDevice",
	[KTLS_STAT_CURR_RX_DEVICE]	= "TlsCurrRxDevice",
	[KTLS_STAT_TX_SW]		= "TlsTxSw",
	[KTLS_STAT_RX_SW]		= "TlsRxSw",
	[KTLS_STAT_TX_DEVICE]		= "TlsTxDevice",
	[KTLS_STAT_RX_DEVICE]		= "TlsRxDevice",
	[KTLS_STAT_DECRYPT_ERROR]	= "TlsDecryptError",
	[KTLS_STAT_RX_DEVICE_RESYNC]	= "TlsRxDeviceResync",
	[KTLS_STAT_DECRYPT_RETRY]	= "TlsDecryptRetry",
	[KTLS_STAT_RX_NO_PAD_VIOLATION]	= "TlsRxNoPadViolation",
	[KTLS_STAT_RX_REKEY_OK]		= "TlsRxRekeyOk",
	[KTLS_STAT_RX_REKEY_ERROR]	= "TlsRxRekeyError",
	[KTLS_STAT_TX_REKEY_OK]		= "TlsTxRekeyOk",
	[KTLS_STAT_TX_REKEY_ERROR]	= "TlsTxRekeyError",
	[KTLS_STAT_RX_REKEY_RECEIVED]	= "TlsRxRekeyReceived",
};

void ktls_stat_add(const struct sock *sk, enum ktls_stat stat, long delta)
{
	struct ktls_net *tn;

	/*
	 * A socket can get keys in the moment between the ULP registration
	 * and ours (id 0 is never a valid one): it goes uncounted.
	 */
	if (unlikely(!READ_ONCE(ktls_net_id)))
		return;
	tn = net_generic(sock_net(sk), ktls_net_id);
	this_cpu_add(tn->stats->v[stat], delta);
}

static int ktls_stat_show(struct seq_file *seq, void *v)
{
	struct ktls_net *tn = net_generic(seq_file_single_net(seq), ktls_net_id);
	unsigned int i;
	int cpu;

	for (i = 0; i < KTLS_STAT_NR; i++) {
		long sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu_ptr(tn->stats, cpu)->v[i];
		seq_printf(seq, "%-32s\t%ld\n", ktls_stat_names[i], sum);
	}
	return 0;
}

static int __net_init ktls_net_init(struct net *net)
{
	struct ktls_net *tn = net_generic(net, ktls_net_id);

	tn->stats = alloc_percpu(struct ktls_stats);
	if (!tn->stats)
		return -ENOMEM;
	if (!proc_create_net_single("tls_stat", 0444, net->proc_net,
				    ktls_stat_show, NULL)) {
		free_percpu(tn->stats);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit ktls_net_exit(struct net *net)
{
	struct ktls_net *tn = net_generic(net, ktls_net_id);

	remove_proc_entry("tls_stat", net->proc_net);
	free_percpu(tn->stats);
}

static struct pernet_operations ktls_net_ops = {
	.init	= ktls_net_init,
	.exit	= ktls_net_exit,
	.id	= &ktls_net_id,
	.size	= sizeof(struct ktls_net),
};

int ktls_stat_init(void)
{
	return register_pernet_subsys(&ktls_net_ops);
}

void ktls_stat_exit(void)
{
	unregister_pernet_subsys(&ktls_net_ops);
}
