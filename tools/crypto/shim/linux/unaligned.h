/* SPDX-License-Identifier: GPL-2.0-only */
/* Userspace stand-in for <linux/unaligned.h>: byte-wise loads and stores. */
#ifndef _KTLS_SHIM_LINUX_UNALIGNED_H
#define _KTLS_SHIM_LINUX_UNALIGNED_H

#include <linux/types.h>

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)b[0] << 8 | b[1];
}

static inline u32 get_unaligned_be24(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 16 | (u32)b[1] << 8 | b[2];
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_be32(b) << 32 | get_unaligned_be32(b + 4);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[3] << 24 | (u32)b[2] << 16 | (u32)b[1] << 8 | b[0];
}

static inline u64 get_unaligned_le64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_le32(b + 4) << 32 | get_unaligned_le32(b);
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 8;
	b[1] = v;
}

static inline void put_unaligned_be24(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 16;
	b[1] = v >> 8;
	b[2] = v;
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_be32(v >> 32, p);
	put_unaligned_be32(v, (u8 *)p + 4);
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned_le32(v, p);
	put_unaligned_le32(v >> 32, (u8 *)p + 4);
}

#endif
