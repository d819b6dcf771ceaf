// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls_ulp_squat: a test module that only holds the TCP ULP name "tls".
 *
 * ktls_hs.ko must refuse to load, and say why, when the name is taken:
 * on distro kernels by the in-tree tls.ko, which test kernels built
 * without CONFIG_TLS do not have.  This module stands in for it there,
 * so that the refusal and the unwind of a half-done module init run
 * under KASAN and kmemleak too.  Sockets that ask it for the ULP are
 * refused.  Built with the KUnit tests, never for production use.
 */
#include <linux/module.h>
#include <net/tcp.h>

static int ktls_squat_init(struct sock *sk)
{
	return -EOPNOTSUPP;
}

static struct tcp_ulp_ops ktls_squat_ulp_ops __read_mostly = {
	.name	= "tls",
	.owner	= THIS_MODULE,
	.init	= ktls_squat_init,
};

static int __init ktls_squat_module_init(void)
{
	return tcp_register_ulp(&ktls_squat_ulp_ops);
}

static void __exit ktls_squat_module_exit(void)
{
	tcp_unregister_ulp(&ktls_squat_ulp_ops);
}

module_init(ktls_squat_module_init);
module_exit(ktls_squat_module_exit);
MODULE_DESCRIPTION("ktls-hs test helper: holds the TCP ULP name \"tls\"");
MODULE_LICENSE("GPL");
