/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for <ktls_hs/compat.h>: the shim headers are of one
 * API, so there is no kernel version to adapt to.
 */
#ifndef _KTLS_SHIM_KTLS_HS_COMPAT_H
#define _KTLS_SHIM_KTLS_HS_COMPAT_H
#endif
