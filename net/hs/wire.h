/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bounds-checked access to handshake bytes, shared by the codec files.
 *
 * A reader is a window consumed from the front; every take either fits
 * the window or fails and leaves it alone, so a parser written with it
 * cannot run past the bytes it was given.  A writer appends to a
 * struct ktls_hs_buf through a private cursor and remembers the first
 * failure, so a builder can write a whole message without testing each
 * step and commit it, or nothing, at the end.
 */
#ifndef _KTLS_HS_WIRE_H
#define _KTLS_HS_WIRE_H

#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>

#include "codec.h"

/**
 * struct ktls_rd - bytes not yet parsed
 * @p:		the first of them
 * @left:	how many
 */
struct ktls_rd {
	const u8 *p;
	size_t left;
};

static inline void ktls_rd_init(struct ktls_rd *r, const u8 *p, size_t len)
{
	r->p = p;
	r->left = len;
}

static inline bool ktls_rd_empty(const struct ktls_rd *r)
{
	return r->left == 0;
}

/* Take @n raw bytes; *@out points at them. */
static inline bool ktls_rd_bytes(struct ktls_rd *r, size_t n, const u8 **out)
{
	if (n > r->left)
		return false;
	*out = r->p;
	r->p += n;
	r->left -= n;
	return true;
}

static inline bool ktls_rd_u8(struct ktls_rd *r, u8 *v)
{
	const u8 *p;

	if (!ktls_rd_bytes(r, 1, &p))
		return false;
	*v = p[0];
	return true;
}

static inline bool ktls_rd_u16(struct ktls_rd *r, u16 *v)
{
	const u8 *p;

	if (!ktls_rd_bytes(r, 2, &p))
		return false;
	*v = get_unaligned_be16(p);
	return true;
}

static inline bool ktls_rd_u24(struct ktls_rd *r, u32 *v)
{
	const u8 *p;

	if (!ktls_rd_bytes(r, 3, &p))
		return false;
	*v = get_unaligned_be24(p);
	return true;
}

/*
 * Take a vector with a length prefix of @width (1, 2 or 3) bytes: @sub
 * becomes a reader over exactly its contents.  Fails, consuming
 * nothing, when the prefix or the contents run past @r.
 */
static inline bool ktls_rd_vec(struct ktls_rd *r, unsigned int width,
			       struct ktls_rd *sub)
{
	struct ktls_rd save = *r;
	const u8 *p;
	u32 len;
	u16 len16;
	u8 len8;
	bool ok;

	switch (width) {
	case 1:
		ok = ktls_rd_u8(r, &len8);
		len = len8;
		break;
	case 2:
		ok = ktls_rd_u16(r, &len16);
		len = len16;
		break;
	default:
		ok = ktls_rd_u24(r, &len);
		break;
	}
	if (!ok || !ktls_rd_bytes(r, len, &p)) {
		*r = save;
		return false;
	}
	ktls_rd_init(sub, p, len);
	return true;
}

/* A finished sub-reader as the ktls_hs_vec the parsed views hand out. */
static inline void ktls_rd_to_vec(const struct ktls_rd *r,
				  struct ktls_hs_vec *vec)
{
	vec->data = r->p;
	vec->len = r->left;
}

/**
 * struct ktls_wr - an append in progress
 * @b:		the buffer appended to; b->len moves only on commit
 * @pos:	where the next byte goes
 * @err:	0, or the first failure (-ENOSPC, -EINVAL)
 */
struct ktls_wr {
	struct ktls_hs_buf *b;
	size_t pos;
	int err;
};

static inline void ktls_wr_init(struct ktls_wr *w, struct ktls_hs_buf *b)
{
	w->b = b;
	w->pos = b->len;
	w->err = 0;
}

/* Room for @n more bytes, or NULL (and the writer failed) if none. */
static inline u8 *ktls_wr_reserve(struct ktls_wr *w, size_t n)
{
	u8 *p;

	if (w->err)
		return NULL;
	if (w->pos > w->b->cap || n > w->b->cap - w->pos) {
		w->err = -ENOSPC;
		return NULL;
	}
	p = w->b->data + w->pos;
	w->pos += n;
	return p;
}

static inline void ktls_wr_bytes(struct ktls_wr *w, const void *src, size_t n)
{
	u8 *p = ktls_wr_reserve(w, n);

	if (p && n)
		memcpy(p, src, n);
}

static inline void ktls_wr_u8(struct ktls_wr *w, u8 v)
{
	u8 *p = ktls_wr_reserve(w, 1);

	if (p)
		p[0] = v;
}

static inline void ktls_wr_u16(struct ktls_wr *w, u16 v)
{
	u8 *p = ktls_wr_reserve(w, 2);

	if (p)
		put_unaligned_be16(v, p);
}

static inline void ktls_wr_u32(struct ktls_wr *w, u32 v)
{
	u8 *p = ktls_wr_reserve(w, 4);

	if (p)
		put_unaligned_be32(v, p);
}

/*
 * Open a vector with a @width byte length prefix, to be filled in by
 * ktls_wr_close() once the contents are written.  Returns the position
 * of the contents, which ktls_wr_close() takes back.
 */
static inline size_t ktls_wr_open(struct ktls_wr *w, unsigned int width)
{
	ktls_wr_reserve(w, width);
	return w->pos;
}

static inline void ktls_wr_close(struct ktls_wr *w, size_t start,
				 unsigned int width)
{
	size_t len;
	u8 *p;

	if (w->err)
		return;
	len = w->pos - start;
	/* A length its prefix cannot carry is the caller's error. */
	if (len >> (8 * width)) {
		w->err = -EINVAL;
		return;
	}
	p = w->b->data + start - width;
	switch (width) {
	case 1:
		p[0] = len;
		break;
	case 2:
		put_unaligned_be16(len, p);
		break;
	default:
		put_unaligned_be24(len, p);
		break;
	}
}

/* Start a handshake message: its type, then a 3-byte length to close. */
static inline size_t ktls_wr_msg_open(struct ktls_wr *w, u8 type)
{
	ktls_wr_u8(w, type);
	return ktls_wr_open(w, 3);
}

/* Make the append visible, or on failure leave the buffer as it was. */
static inline int ktls_wr_commit(struct ktls_wr *w)
{
	if (w->err)
		return w->err;
	w->b->len = w->pos;
	return 0;
}

#endif /* _KTLS_HS_WIRE_H */
