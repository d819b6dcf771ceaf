/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The compat layer, core kernel part: what the kernels ktls_hs.ko builds
 * for (Debian's 6.1 and 6.12, and newer) do differently outside the
 * network stack.  Each difference has a named helper here, and this
 * header and <ktls_hs/compat_net.h> are the only places that test the
 * kernel version; the rest of the module calls the helpers.  The build
 * for the newest API compiles each helper to what it replaced.
 *
 * Headers that older kernels lack or keep elsewhere have stand-ins in
 * include/compat/ instead (see Kbuild).  The userspace builds of crypto/
 * and the fuzzers have a stand-in for this header in tools/crypto/shim/.
 */
#ifndef _KTLS_HS_COMPAT_H
#define _KTLS_HS_COMPAT_H

#include <linux/types.h>
#include <linux/version.h>

/*
 * u128: <linux/types.h> has it from 6.5 ("types: Introduce [us]128"),
 * where the architecture has 128-bit integers.  Only used under
 * CONFIG_ARCH_SUPPORTS_INT128, as in the kernel.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0) && defined(CONFIG_ARCH_SUPPORTS_INT128)
typedef unsigned __int128 u128;
#endif

#endif /* _KTLS_HS_COMPAT_H */
