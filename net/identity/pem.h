/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PEM armour (pem.c): the blocks of a bundle and their base64 bodies.
 *
 * Like every parser of an identity, it takes a length with its buffer,
 * never reads past it, and on failure returns a negative errno and points
 * *why at a constant string saying what was wrong, for the one-line
 * kernel message.
 */
#ifndef _KTLS_HS_IDENTITY_PEM_H
#define _KTLS_HS_IDENTITY_PEM_H

#include <linux/types.h>

/**
 * struct ktls_pem - one PEM block
 * @label:	what follows "-----BEGIN ", not NUL terminated
 * @label_len:	its length
 * @body:	the base64 text between the BEGIN and END lines
 * @body_len:	its length
 */
struct ktls_pem {
	const char *label;
	size_t label_len;
	const char *body;
	size_t body_len;
};

int ktls_pem_next(const char **pos, const char *end, struct ktls_pem *blk,
		  const char **why);
int ktls_base64_decode(const char *src, size_t len, u8 *dst, size_t *dst_len,
		       const char **why);

#endif /* _KTLS_HS_IDENTITY_PEM_H */
