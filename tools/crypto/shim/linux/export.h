/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/export.h>: nothing is exported from a program. */
