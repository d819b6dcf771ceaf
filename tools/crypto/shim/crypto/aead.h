/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Userspace stand-in for the crypto API's AEAD (<crypto/aead.h>): enough
 * for net/record/record.h and for net/record/record.c to build.  Its one AEAD call,
 * ktls_aead_crypt(), is the record layer's and no userspace program
 * reaches it: every call here aborts.
 */
#ifndef _KTLS_SHIM_CRYPTO_AEAD_H
#define _KTLS_SHIM_CRYPTO_AEAD_H

#include <stdlib.h>

struct crypto_aead;
struct aead_request;
struct scatterlist;

struct crypto_wait {
	int err;
};

#define CRYPTO_TFM_REQ_MAY_SLEEP	0x200
#define CRYPTO_TFM_REQ_MAY_BACKLOG	0x400

static inline void crypto_req_done(void *data, int err)
{
	abort();
}

static inline void aead_request_set_callback(struct aead_request *req,
					     unsigned int flags,
					     void (*done)(void *, int),
					     void *data)
{
	abort();
}

static inline void aead_request_set_ad(struct aead_request *req,
				       unsigned int len)
{
	abort();
}

static inline void aead_request_set_crypt(struct aead_request *req,
					  struct scatterlist *src,
					  struct scatterlist *dst,
					  unsigned int len, void *iv)
{
	abort();
}

static inline int crypto_aead_encrypt(struct aead_request *req)
{
	abort();
}

static inline int crypto_aead_decrypt(struct aead_request *req)
{
	abort();
}

static inline int crypto_wait_req(int err, struct crypto_wait *wait)
{
	abort();
}

#endif
