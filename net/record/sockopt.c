// SPDX-License-Identifier: GPL-2.0-only
/*
 * SOL_TLS socket options: TLS_TX and TLS_RX install keys (and, in TLS 1.3,
 * replace them after a KeyUpdate), TLS_TX_ZEROCOPY_RO and
 * TLS_RX_EXPECT_NO_PAD toggle the two data path modes,
 * TLS_TX_MAX_PAYLOAD_LEN caps the plaintext of TX records; getsockopt
 * reads every one of them back.  The errnos follow the in-tree kTLS, which
 * applications and its selftest depend on.  Keys are handed to keys.c.
 */
#include <linux/sockptr.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <uapi/linux/ktls_hs.h>

#include "ktls.h"
#include "../hs/seam.h"

/* The options of upstream's API, which act on a connection's records. */
static bool ktls_is_record_option(int optname)
{
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
	case TLS_TX_ZEROCOPY_RO:
	case TLS_RX_EXPECT_NO_PAD:
	case TLS_TX_MAX_PAYLOAD_LEN:
		return true;
	}
	return false;
}

static int ktls_setsockopt_keys(struct sock *sk, bool tx, sockptr_t optval,
				unsigned int optlen)
{
	const struct ktls_cipher *cs;
	union ktls_crypto_info info;
	int err;

	if (sockptr_is_null(optval) || optlen < sizeof(info.info))
		return -EINVAL;
	if (copy_from_sockptr(&info.info, optval, sizeof(info.info)))
		return -EFAULT;
	/* The rest only if the length is right; ktls_keys_set() says why not. */
	cs = ktls_cipher_find(info.info.cipher_type);
	if (cs && optlen == cs->info_len &&
	    copy_from_sockptr_offset(&info.info + 1, optval, sizeof(info.info),
				     optlen - sizeof(info.info)))
		return -EFAULT;
	err = ktls_keys_set(sk, tx, &info, optlen);
	memzero_explicit(&info, sizeof(info));
	return err;
}

static int ktls_setsockopt_u32(sockptr_t optval, unsigned int optlen,
			       bool exact, u32 *val)
{
	if (sockptr_is_null(optval) || optlen < sizeof(*val) ||
	    (exact && optlen != sizeof(*val)))
		return -EINVAL;
	if (copy_from_sockptr(val, optval, sizeof(*val)))
		return -EFAULT;
	return *val > 1 ? -EINVAL : 0;
}

/*
 * RFC 8449 4: a record_size_limit is 64 at least, and in TLS 1.3 counts
 * the inner content type, which the payload does not.  Before any key
 * the version is unknown, and the TLS 1.2 bound holds.  A record filled
 * under one cap is never sealed under another: with one open, EBUSY.
 */
static int ktls_setsockopt_max_plain(struct sock *sk, struct ktls_ctx *ctx,
				     sockptr_t optval, unsigned int optlen)
{
	unsigned int min = KTLS_MIN_RECORD_LIMIT;
	u16 val;

	if (ktls_tx_record_open(sk))
		return -EBUSY;
	if (sockptr_is_null(optval) || optlen != sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	if (ctx->prot.version == TLS_1_3_VERSION)
		min--;
	if (val < min || val > KTLS_MAX_PLAINTEXT)
		return -EINVAL;
	WRITE_ONCE(ctx->tx_max_plain, val);
	return 0;
}

int ktls_setsockopt_tls(struct sock *sk, int optname, sockptr_t optval,
			unsigned int optlen)
{
	struct ktls_ctx *ctx;
	u32 val;
	int err;

	if (ktls_hs_is_option(optname))
		return ktls_hs_setsockopt(sk, optname, optval, optlen);
	lock_sock(sk);
	ctx = ktls_ctx(sk);
	err = ktls_hs_option_refused(sk, ktls_is_record_option(optname), true);
	if (err)
		goto out;
	err = ktls_keys_install_staged(sk);
	if (err)
		goto out;
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
		err = ktls_setsockopt_keys(sk, optname == TLS_TX, optval, optlen);
		break;
	case TLS_TX_ZEROCOPY_RO:
		err = ktls_setsockopt_u32(optval, optlen, true, &val);
		if (!err)
			WRITE_ONCE(ctx->zerocopy_sendfile, val);
		break;
	case TLS_RX_EXPECT_NO_PAD:
		/* Only TLS 1.3 pads, and only a receiver can expect no padding. */
		err = -EINVAL;
		if (ctx->prot.version != TLS_1_3_VERSION)
			break;
		err = ktls_setsockopt_u32(optval, optlen, false, &val);
		if (!err && ctx->rx_conf == KTLS_CONF_BASE)
			err = -EINVAL;
		if (!err)
			WRITE_ONCE(ctx->rx_no_pad, val);
		break;
	case TLS_TX_MAX_PAYLOAD_LEN:
		err = ktls_setsockopt_max_plain(sk, ctx, optval, optlen);
		break;
	default:
		err = -ENOPROTOOPT;
	}
out:
	release_sock(sk);
	return err;
}

static int ktls_getsockopt_keys(struct ktls_ctx *ctx, bool tx,
				char __user *optval, int __user *optlen)
{
	const struct ktls_crypto *c = tx ? &ctx->tx_crypto : &ctx->rx_crypto;
	const struct ktls_cipher *cs = ctx->prot.cipher;
	union ktls_crypto_info info;
	int len, err = 0;

	if (get_user(len, optlen))
		return -EFAULT;
	if (!optval || len < (int)sizeof(info.info))
		return -EINVAL;
	if (!c->ready)
		return -EBUSY;
	/* Traffic secrets of a kernel handshake stay in the kernel. */
	if (ctx->keys_from_kernel)
		return -EACCES;
	if (len == sizeof(info.info))
		return copy_to_user(optval, &c->info.info, len) ? -EFAULT : 0;
	if (len != cs->info_len)
		return -EINVAL;

	/* The key as set; the iv and sequence number as they are now. */
	memcpy(&info, &c->info, cs->info_len);
	memcpy((u8 *)&info + cs->iv_off, c->iv + cs->salt_len, cs->iv_len);
	put_unaligned_be64(c->seq, (u8 *)&info + cs->seq_off);
	if (copy_to_user(optval, &info, len))
		err = -EFAULT;
	memzero_explicit(&info, sizeof(info));
	return err;
}

static int ktls_getsockopt_u32(u32 val, bool exact, char __user *optval,
			       int __user *optlen)
{
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(val) || (exact && len != sizeof(val)))
		return -EINVAL;
	if (put_user(sizeof(val), optlen) ||
	    copy_to_user(optval, &val, sizeof(val)))
		return -EFAULT;
	return 0;
}

static int ktls_getsockopt_u16(u16 val, char __user *optval,
			       int __user *optlen)
{
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(val))
		return -EINVAL;
	if (put_user(sizeof(val), optlen) ||
	    copy_to_user(optval, &val, sizeof(val)))
		return -EFAULT;
	return 0;
}

int ktls_getsockopt_tls(struct sock *sk, int optname, char __user *optval,
			int __user *optlen)
{
	struct ktls_ctx *ctx;
	int err;

	if (ktls_hs_is_option(optname))
		return ktls_hs_getsockopt(sk, optname, optval, optlen);
	lock_sock(sk);
	ctx = ktls_ctx(sk);
	err = ktls_hs_option_refused(sk, ktls_is_record_option(optname), false);
	if (err)
		goto out;
	err = ktls_keys_install_staged(sk);
	if (err)
		goto out;
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
		err = ktls_getsockopt_keys(ctx, optname == TLS_TX, optval, optlen);
		break;
	case TLS_TX_ZEROCOPY_RO:
		err = ktls_getsockopt_u32(ctx->zerocopy_sendfile, true, optval,
					  optlen);
		break;
	case TLS_RX_EXPECT_NO_PAD:
		err = -EINVAL;
		if (ctx->prot.version == TLS_1_3_VERSION &&
		    ctx->rx_conf != KTLS_CONF_BASE)
			err = ktls_getsockopt_u32(ctx->rx_no_pad, false, optval,
						  optlen);
		break;
	case TLS_TX_MAX_PAYLOAD_LEN:
		err = ktls_getsockopt_u16(ktls_tx_max_plain(ctx), optval,
					  optlen);
		break;
	default:
		err = -ENOPROTOOPT;
	}
out:
	release_sock(sk);
	return err;
}
