// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DER form of an ECDSA signature, Ecdsa-Sig-Value ::= SEQUENCE {
 * r INTEGER, s INTEGER } (RFC 5480), as TLS carries it, to and from the
 * fixed r || s form of the P-256 API.  Decoding accepts exactly one byte
 * string per signature: short-form lengths, minimal non-negative
 * integers, nothing trailing.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>
#include <ktls_hs/p256.h>

#define DER_SEQUENCE	0x30
#define DER_INTEGER	0x02

/* Writes one INTEGER at @out; returns its encoded length (at most 35). */
static size_t der_put_int(u8 *out, const u8 v[KTLS_P256_SCALAR_LEN])
{
	size_t skip = 0, len;
	bool pad;

	while (skip < KTLS_P256_SCALAR_LEN - 1 && !v[skip])
		skip++;
	pad = v[skip] & 0x80;
	len = KTLS_P256_SCALAR_LEN - skip + pad;
	if (out) {
		out[0] = DER_INTEGER;
		out[1] = len;
		out[2] = 0;
		memcpy(out + 2 + pad, v + skip, KTLS_P256_SCALAR_LEN - skip);
	}
	return 2 + len;
}

int ktls_p256_sig_to_der(u8 *der, size_t der_len,
			 const u8 sig[KTLS_P256_SIG_LEN])
{
	size_t lr = der_put_int(NULL, sig);
	size_t ls = der_put_int(NULL, sig + KTLS_P256_SCALAR_LEN);

	if (der_len < 2 + lr + ls)
		return -ENOSPC;
	der[0] = DER_SEQUENCE;
	der[1] = lr + ls;
	der_put_int(der + 2, sig);
	der_put_int(der + 2 + lr, sig + KTLS_P256_SCALAR_LEN);
	return 2 + lr + ls;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_sig_to_der);

/* Reads one INTEGER at der[*pos], right-aligned into @out. */
static int der_get_int(u8 out[KTLS_P256_SCALAR_LEN], const u8 *der,
		       size_t len, size_t *pos)
{
	const u8 *v;
	size_t l;

	if (len - *pos < 2 || der[*pos] != DER_INTEGER)
		return -EBADMSG;
	l = der[*pos + 1];
	/* long-form lengths are never minimal for at most 33 bytes */
	if (!l || l & 0x80 || l > len - *pos - 2)
		return -EBADMSG;
	v = der + *pos + 2;
	*pos += 2 + l;
	if (v[0] & 0x80)
		return -EBADMSG;	/* negative */
	if (!v[0] && l > 1) {
		if (!(v[1] & 0x80))
			return -EBADMSG;	/* a zero byte that was not needed */
		v++;
		l--;
	}
	if (l > KTLS_P256_SCALAR_LEN)
		return -EBADMSG;
	memset(out, 0, KTLS_P256_SCALAR_LEN - l);
	memcpy(out + KTLS_P256_SCALAR_LEN - l, v, l);
	return 0;
}

int ktls_p256_sig_from_der(u8 sig[KTLS_P256_SIG_LEN],
			   const u8 *der, size_t der_len)
{
	size_t pos = 2;
	int ret;

	if (der_len < 2 || der[0] != DER_SEQUENCE || der[1] & 0x80 ||
	    der[1] != der_len - 2)
		return -EBADMSG;
	ret = der_get_int(sig, der, der_len, &pos);
	if (!ret)
		ret = der_get_int(sig + KTLS_P256_SCALAR_LEN, der, der_len, &pos);
	if (!ret && pos != der_len)
		ret = -EBADMSG;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktls_p256_sig_from_der);
