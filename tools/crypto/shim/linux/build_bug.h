/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/build_bug.h>: BUILD_BUG_ON is in types.h. */
#include <linux/types.h>
