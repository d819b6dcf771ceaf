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

#include "ktls.h"

static int __init ktls_hs_init(void)
{
	int err;

	ktls_cipher_setup();
	ktls_ulp_setup();

	/*
	 * The ULP name first: beside tls.ko we must fail before creating
	 * anything of our own, /proc/net/tls_stat included.
	 */
	err = tcp_register_ulp(&ktls_ulp_ops);
	if (err == -EEXIST)
		pr_err("TCP ULP \"%s\" is already registered, most likely by the in-tree tls.ko; unload it first\n",
		       ktls_ulp_ops.name);
	if (err)
		return err;

	err = ktls_stat_init();
	if (err)
		goto err_ulp;
	return 0;

err_ulp:
	tcp_unregister_ulp(&ktls_ulp_ops);
	return err;
}

static void __exit ktls_hs_exit(void)
{
	/*
	 * Every socket the ULP is attached to holds a module reference
	 * until it is destroyed, so no socket can reach our ops past this.
	 */
	tcp_unregister_ulp(&ktls_ulp_ops);
	ktls_stat_exit();
}

module_init(ktls_hs_init);
module_exit(ktls_hs_exit);

MODULE_DESCRIPTION("Kernel TLS record layer and in-kernel TLS server handshake");
MODULE_LICENSE("GPL");
MODULE_ALIAS_TCP_ULP("tls");
