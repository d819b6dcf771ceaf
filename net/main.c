// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls-hs module entry: registers the TCP upper-layer protocol "tls" so
 * that applications written for the in-tree kTLS use this module
 * unchanged, and refuses to load beside the in-tree tls.ko, which claims
 * the same name.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/tcp.h>

#include <ktls_hs/identity.h>
#include <ktls_hs/kdf.h>
#include <ktls_hs/trust.h>

#include "record/ktls.h"
#include "offload/device.h"
#include "hs/hs.h"
#include "hs/pool.h"
#include "hs/events.h"
#include "hs/ticket.h"

static int __init ktls_hs_module_init(void)
{
	int err;

	ktls_cipher_setup();
	ktls_ulp_setup();
	ktls_hs_listen_setup();

	err = ktls_kdf_init();
	if (err)
		return err;

	/*
	 * The ULP name before anything userspace can see: beside tls.ko we
	 * must fail before creating /proc/net/tls_stat a second time.
	 */
	err = tcp_register_ulp(&ktls_ulp_ops);
	if (err == -EEXIST)
		pr_err("TCP ULP \"%s\" is already registered, most likely by the in-tree tls.ko; unload it first\n",
		       ktls_ulp_ops.name);
	if (err)
		goto err_kdf;

	err = ktls_stat_init();
	if (err)
		goto err_ulp;

	err = ktls_device_init();
	if (err)
		goto err_stat;

	err = ktls_identity_init();
	if (err)
		goto err_device;

	err = ktls_trust_init();
	if (err)
		goto err_identity;

	err = ktls_hs_ticket_keyring_init();
	if (err)
		goto err_trust;

	err = ktls_hs_pool_init();
	if (err)
		goto err_tickets;

	err = ktls_hs_events_init();
	if (err)
		goto err_pool;

	/* Armed listeners last: they need identities and handshake memory. */
	err = tcp_register_ulp(&ktls_hs_ulp_ops);
	if (err)
		goto err_events;
	return 0;

err_events:
	ktls_hs_events_exit();
err_pool:
	ktls_hs_pool_exit();
err_tickets:
	ktls_hs_ticket_keyring_exit();
err_trust:
	ktls_trust_exit();
err_identity:
	ktls_identity_exit();
err_device:
	ktls_device_exit();
err_stat:
	ktls_stat_exit();
err_ulp:
	tcp_unregister_ulp(&ktls_ulp_ops);
err_kdf:
	ktls_kdf_exit();
	return err;
}

static void __exit ktls_hs_module_exit(void)
{
	tcp_unregister_ulp(&ktls_hs_ulp_ops);
	/* Children of armed listeners closed from the work hold module refs. */
	ktls_hs_listen_exit();
	ktls_hs_ticket_keyring_exit();
	ktls_trust_exit();
	ktls_identity_exit();
	/*
	 * Every socket the ULP is attached to holds a module reference
	 * until it is destroyed, so no socket can reach our ops past this.
	 */
	tcp_unregister_ulp(&ktls_ulp_ops);
	ktls_hs_events_exit();
	ktls_device_exit();
	ktls_stat_exit();
	ktls_kdf_exit();
	/* Handshakes, settings and listeners are freed after grace periods. */
	rcu_barrier();
	/* Every handshake gave its memory back when its socket went. */
	ktls_hs_pool_exit();
}

module_init(ktls_hs_module_init);
module_exit(ktls_hs_module_exit);

MODULE_DESCRIPTION("Kernel TLS record layer and in-kernel TLS server handshake");
MODULE_LICENSE("GPL");
MODULE_ALIAS_TCP_ULP("tls");
MODULE_ALIAS_TCP_ULP("ktls_hs");
