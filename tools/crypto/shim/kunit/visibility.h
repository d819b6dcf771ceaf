/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <kunit/visibility.h>. */
#ifndef _P256_SHIM_KUNIT_VISIBILITY_H
#define _P256_SHIM_KUNIT_VISIBILITY_H
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif
