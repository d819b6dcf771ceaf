// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fixed-base multiplication k * G, the cost of every signature and key
 * pair.  The precomputed table (p256_table.h) holds j * 2^(5i) * G for
 * each of the 52 signed 5-bit windows i and j = 1..16, so k * G is one
 * mixed addition per window and no doublings.  Each lookup reads the
 * whole row and keeps the wanted entry with masks.
 */
#include <linux/string.h>
#include <linux/types.h>

#include "p256_internal.h"
#include "p256_table.h"

/* r = d * 2^(5 row) * G, or (0, 0) for d == 0; reads the whole row */
static void base_select(struct p256_affine *r, int row, u32 d)
{
	const u64 (*t)[8] = p256_base_table[row];
	u64 v[8] = { 0 };
	int i, j;

	for (i = 0; i < P256_TABLE_SIZE; i++) {
		u64 m = p256_mask_eq(d, i + 1);

		for (j = 0; j < 8; j++)
			v[j] |= t[i][j] & m;
	}
	memcpy(r->x.v, v, sizeof(r->x.v));
	memcpy(r->y.v, v + 4, sizeof(r->y.v));
}

/*
 * r = k * G for 0 <= k < n, constant time.
 *
 * Why the mixed additions never meet their one failing case, p == q:
 * before row i the accumulator is A G with A = sum_{j<i} d[j] 2^(5j), so
 * |A| < 2^(5i), and the row adds B G with B = d[i] 2^(5i), |B| >= 2^(5i)
 * when d[i] != 0 (d[i] == 0 adds nothing).  For i < 51, |A - B| < 2^255 < n
 * so A == B mod n would need A == B, which the sizes rule out.  In the
 * last row A + B = k, and A - B = -n would need B = (k + n) / 2, between
 * n/2 and n: only 2^255, i.e. d[51] == 1 and k = 2^256 - n < 2^225, whose
 * top digit is 0.
 */
void p256_mul_base(struct p256_point *r, const struct p256_scalar *k)
{
	struct p256_point acc, sum;
	struct p256_affine sel;
	struct p256_fe ny;
	s8 d[P256_WINDOWS];
	u64 neg;
	u32 a;
	int i;

	p256_scalar_recode(d, k);
	memset(&acc, 0, sizeof(acc));
	for (i = 0; i < P256_WINDOWS; i++) {
		u32 m = 0 - ((u32)(s32)d[i] >> 31);

		neg = 0 - (u64)(m & 1);
		a = ((u32)(s32)d[i] ^ m) - m;
#ifdef KTLS_P256_CT_CANARY
		/*
		 * Only in tools/crypto's CT_CANARY=1 build: a deliberate
		 * branch on a secret digit, which the constant-time check
		 * must report.
		 */
		if (!a)
			continue;
#endif
		base_select(&sel, i, a);
		p256_fe_neg(&ny, &sel.y);
		p256_fe_cmov(&sel.y, &ny, neg);
		p256_point_add_affine(&sum, &acc, &sel);
		/* a zero digit adds nothing: keep the accumulator */
		p256_fe_cmov(&acc.x, &sum.x, ~p256_mask_eq(a, 0));
		p256_fe_cmov(&acc.y, &sum.y, ~p256_mask_eq(a, 0));
		p256_fe_cmov(&acc.z, &sum.z, ~p256_mask_eq(a, 0));
	}
	*r = acc;
	memzero_explicit(d, sizeof(d));
	memzero_explicit(&sel, sizeof(sel));
	memzero_explicit(&sum, sizeof(sum));
}
