/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stand-in for <net/tls_prot.h> on kernels without it (6.1).  The offload
 * files include that header only because the in-tree tls_device.c of
 * newer kernels does, and modversions CRCs depend on the header set of
 * the exporting file (Documentation/offload.rst); they use none of its
 * names.  So on a kernel without it there is nothing to stand in for.
 * Found only where the kernel lacks the header (see Kbuild).
 */
#ifndef _KTLS_COMPAT_NET_TLS_PROT_H
#define _KTLS_COMPAT_NET_TLS_PROT_H
#endif
