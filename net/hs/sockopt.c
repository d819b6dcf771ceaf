// SPDX-License-Identifier: GPL-2.0-only
/*
 * SOL_TLS options of the in-kernel handshake (numbered from 100, clear
 * of upstream's): settings for an armed listener or a per-socket
 * handshake, starting a per-socket handshake, and reading back what was
 * negotiated and how a listener fares; asking for a KeyUpdate once the
 * handshake is over; whether a socket was handed to userspace.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <ktls_hs/trust.h>

#include "../record/ktls.h"
#include "../record/key_update.h"
#include "hs.h"

bool ktls_hs_is_option(int optname)
{
	/* Ours are numbered from KTLS_HS_IDENTITY to the newest. */
	return optname >= KTLS_HS_IDENTITY && optname <= KTLS_HS_PEER;
}

/*
 * A socket handed over keeps our "tls" ULP, inert: without keys every
 * call goes straight to TCP, and only a ULP sees getsockopt(SOL_TLS),
 * which KTLS_HS_FALLEN_BACK needs.  The application's TLS library may
 * then ask for the "tls" ULP to key kTLS itself; the socket is in just
 * the state that would give it, so the request succeeds as is rather
 * than with TCP's EEXIST.  True when it was such a request.
 */
bool ktls_hs_fallback_ulp(struct sock *sk, sockptr_t optval,
			  unsigned int optlen)
{
	struct ktls_ctx *ctx = ktls_ctx(sk);
	char name[TCP_ULP_NAME_MAX];
	size_t len = min_t(size_t, optlen, sizeof(name) - 1);
	bool ours;

	if (!ctx->hs || !ktls_hs_conn_fallen_back(ctx->hs) ||
	    sockptr_is_null(optval) || copy_from_sockptr(name, optval, len))
		return false;
	name[len] = '\0';
	if (strcmp(name, "tls"))
		return false;
	lock_sock(sk);
	ours = ctx->tx_conf == KTLS_CONF_BASE && ctx->rx_conf == KTLS_CONF_BASE;
	release_sock(sk);
	return ours;
}

/* getsockopt(KTLS_HS_FALLEN_BACK) */
static int ktls_hs_get_fallen_back(struct ktls_ctx *ctx, char __user *optval,
				   int __user *optlen)
{
	int val, len;

	if (ctx->hs_listen)
		return -EINVAL;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(val))
		return -EINVAL;
	val = ctx->hs && ktls_hs_conn_fallen_back(ctx->hs);
	if (put_user(sizeof(val), optlen) ||
	    copy_to_user(optval, &val, sizeof(val)))
		return -EFAULT;
	return 0;
}

/* KTLS_HS_START on an established socket the application accepted. */
static int ktls_hs_start(struct sock *sk, struct ktls_ctx *ctx)
{
	struct ktls_hs_settings *settings;
	struct ktls_hs_conn *conn;

	if (ctx->hs_listen)
		return -EINVAL;
	if (ctx->hs)
		return -EALREADY;
	if (ctx->tx_conf != KTLS_CONF_BASE || ctx->rx_conf != KTLS_CONF_BASE ||
	    ctx->keys_staged)
		return -EISCONN;
	if (sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;
	settings = ktls_hs_settings_get(&ctx->hs_settings);
	if (!settings || !settings->nr_keys) {
		ktls_hs_settings_put(settings);
		return -ENOKEY;
	}
	conn = ktls_hs_conn_alloc(sk, settings, GFP_KERNEL);
	if (IS_ERR(conn))
		return PTR_ERR(conn);
	WRITE_ONCE(ctx->hs, conn);
	ktls_hs_conn_start(conn, sk->sk_data_ready, sk->sk_write_space);
	/* The ClientHello may be queued already. */
	ktls_hs_conn_run(conn);
	return 0;
}

/* KTLS_HS_REKEY: the record layer sends it, with its own locking. */
static int ktls_hs_key_update(struct sock *sk, sockptr_t optval,
			      unsigned int optlen)
{
	struct ktls_ctx *ctx;
	int val, err;

	if (optlen != sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	if (val != KTLS_HS_REKEY_OURS && val != KTLS_HS_REKEY_REQUEST)
		return -EINVAL;
	lock_sock(sk);
	ctx = ktls_ctx(sk);
	/* A handshake, once over, stays over. */
	err = ctx->hs && !ktls_hs_conn_done(ctx->hs) ? -EINPROGRESS : 0;
	release_sock(sk);
	if (err)
		return err;
	return ktls_key_update_send(sk, val == KTLS_HS_REKEY_REQUEST);
}

int ktls_hs_setsockopt(struct sock *sk, int optname, sockptr_t optval,
		       unsigned int optlen)
{
	struct ktls_ctx *ctx;
	int err;

	if (optname == KTLS_HS_REKEY)
		return ktls_hs_key_update(sk, optval, optlen);
	lock_sock(sk);
	ctx = ktls_ctx(sk);
	if (ktls_hs_is_settings_option(optname)) {
		/* A handshake keeps what it started with. */
		err = ctx->hs ? -EISCONN :
		      ktls_hs_settings_set(sk, &ctx->hs_settings, optname,
					   optval, optlen);
	} else if (optname == KTLS_HS_START) {
		err = ktls_hs_start(sk, ctx);
	} else if (optname == KTLS_HS_TICKET_ROTATE) {
		err = optlen ? -EINVAL :
		      ktls_hs_settings_rotate(sk, &ctx->hs_settings);
	} else {
		/* KTLS_HS_SESSION, _PEER, _STATS and _FALLEN_BACK are read-only. */
		err = -ENOPROTOOPT;
	}
	release_sock(sk);
	return err;
}

/*
 * The socket's kernel handshake, done: 0, or what a getsockopt of its
 * outcome gives (ENOENT: none, or handed over; EINPROGRESS; its error).
 */
static int ktls_hs_done(const struct ktls_hs_conn *conn)
{
	if (!conn)
		return -ENOENT;
	if (!READ_ONCE(conn->ended))
		return -EINPROGRESS;
	/* Handed over: the kernel negotiated nothing. */
	if (conn->end == KTLS_HS_END_FALLBACK)
		return -ENOENT;
	if (conn->end != KTLS_HS_END_DONE)
		return ktls_hs_conn_error(conn);
	return 0;
}

static int ktls_hs_get_session(struct ktls_ctx *ctx, char __user *optval,
			       int __user *optlen)
{
	const struct ktls_hs_conn *conn = ctx->hs;
	struct ktls_hs_session_info info;
	int len, err;

	err = ktls_hs_done(conn);
	if (err)
		return err;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(info))
		return -EINVAL;
	memset(&info, 0, sizeof(info));
	info.version = conn->session.version;
	info.cipher_suite = conn->session.suite;
	info.group = conn->session.group;
	info.resumed = conn->session.resumed;
	strscpy(info.alpn, conn->session.alpn, sizeof(info.alpn));
	strscpy(info.server_name, conn->session.sni, sizeof(info.server_name));
	if (put_user(sizeof(info), optlen) ||
	    copy_to_user(optval, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/* "DNS:", "URI:", "email:" lines of the peer's names into @out. */
static void ktls_hs_peer_sans(const struct ktls_peer_cert *p, char *out,
			      size_t size, u32 *flags)
{
	const struct ktls_peer_san *san;
	size_t off = 0;
	unsigned int i;
	const char *tag;
	int n;

	if (p->sans_truncated)
		*flags |= KTLS_HS_PEER_F_SANS_TRUNCATED;
	for (i = 0; i < p->nr_sans; i++) {
		san = &p->sans[i];
		tag = san->type == KTLS_PEER_SAN_DNS ? "DNS" :
		      san->type == KTLS_PEER_SAN_URI ? "URI" : "email";
		n = snprintf(out + off, size - off, "%s:%.*s\n", tag, san->len,
			     p->san_text + san->off);
		if (n < 0 || (size_t)n >= size - off) {
			/* Whole lines only. */
			out[off] = '\0';
			*flags |= KTLS_HS_PEER_F_SANS_TRUNCATED;
			return;
		}
		off += n;
	}
}

static int ktls_hs_get_peer(struct ktls_ctx *ctx, char __user *optval,
			    int __user *optlen)
{
	const struct ktls_hs_conn *conn = ctx->hs;
	struct ktls_hs_peer_info *info;
	const struct ktls_peer_cert *p;
	int len, err;

	err = ktls_hs_done(conn);
	if (err)
		return err;
	if (!conn->session.peer_verified || !conn->peer)
		return -ENOENT;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < (int)sizeof(*info))
		return -EINVAL;
	/* Some 1.6 KB: not for the stack. */
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	p = conn->peer;
	memcpy(info->sha256, p->fingerprint, sizeof(info->sha256));
	info->not_after = p->not_after;
	info->depth = p->depth;
	if (conn->session.resumed)
		info->flags |= KTLS_HS_PEER_F_RESUMED;
	strscpy(info->subject, p->subject, sizeof(info->subject));
	strscpy(info->issuer, p->issuer, sizeof(info->issuer));
	ktls_hs_peer_sans(p, info->sans, sizeof(info->sans), &info->flags);
	if (put_user(sizeof(*info), optlen) ||
	    copy_to_user(optval, info, sizeof(*info)))
		err = -EFAULT;
	kfree(info);
	return err;
}

int ktls_hs_getsockopt(struct sock *sk, int optname, char __user *optval,
		       int __user *optlen)
{
	const struct ktls_hs_settings *s;
	struct ktls_ctx *ctx;
	int err;

	lock_sock(sk);
	ctx = ktls_ctx(sk);
	if (ktls_hs_is_settings_option(optname)) {
		s = ctx->hs ? ctx->hs->settings :
		    rcu_dereference_protected(ctx->hs_settings,
					      lockdep_sock_is_held(sk));
		err = ktls_hs_settings_get_opt(s, optname, optval, optlen);
	} else if (optname == KTLS_HS_SESSION) {
		err = ktls_hs_get_session(ctx, optval, optlen);
	} else if (optname == KTLS_HS_PEER) {
		err = ktls_hs_get_peer(ctx, optval, optlen);
	} else if (optname == KTLS_HS_FALLEN_BACK) {
		err = ktls_hs_get_fallen_back(ctx, optval, optlen);
	} else if (optname == KTLS_HS_STATS) {
		err = ctx->hs_listen ? ktls_hs_listen_stats(sk, optval, optlen) :
		      -EINVAL;
	} else {
		err = -ENOPROTOOPT;
	}
	release_sock(sk);
	return err;
}
