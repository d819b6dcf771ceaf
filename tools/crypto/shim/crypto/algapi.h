/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <crypto/algapi.h>: only crypto_memneq() is used. */
#include <crypto/utils.h>
