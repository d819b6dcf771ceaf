/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoints of the in-kernel server handshake (events/ktls_hs/ in
 * tracefs): a handshake starts, finishes (keys, or handed over to
 * userspace), or fails.  Defined in events.c, which counts the same
 * moments in /proc/net/ktls_hs_stat.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktls_hs

#if !defined(_KTLS_HS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _KTLS_HS_TRACE_H

#include <linux/tracepoint.h>
#include <net/sock.h>

#include <ktls_hs/compat.h>

TRACE_EVENT(ktls_hs_start,
	    TP_PROTO(const struct sock *sk, bool child),
	    TP_ARGS(sk, child),
	    TP_STRUCT__entry(__field(const void *, skaddr)
			     __field(u16, family)
			     __field(u16, sport)
			     __field(u16, dport)
			     __field(bool, child)),
	    TP_fast_assign(__entry->skaddr = sk;
			   __entry->family = sk->sk_family;
			   __entry->sport = sk->sk_num;
			   __entry->dport = ntohs(sk->sk_dport);
			   __entry->child = child;),
	    TP_printk("sk=%p family=%u sport=%u dport=%u %s",
		      __entry->skaddr, __entry->family, __entry->sport,
		      __entry->dport, __entry->child ? "listener" : "socket")
);

TRACE_EVENT(ktls_hs_finish,
	    TP_PROTO(const struct sock *sk, u16 version, u16 suite, u16 group,
		     bool resumed, const char *sni, const char *alpn),
	    TP_ARGS(sk, version, suite, group, resumed, sni, alpn),
	    TP_STRUCT__entry(__field(const void *, skaddr)
			     __field(u16, version)
			     __field(u16, suite)
			     __field(u16, group)
			     __field(bool, resumed)
			     __string(sni, sni)
			     __string(alpn, alpn)),
	    TP_fast_assign(__entry->skaddr = sk;
			   __entry->version = version;
			   __entry->suite = suite;
			   __entry->group = group;
			   __entry->resumed = resumed;
			   ktls_assign_str(sni, sni);
			   ktls_assign_str(alpn, alpn);),
	    TP_printk("sk=%p version=0x%04x suite=0x%04x group=0x%04x resumed=%d sni=%s alpn=%s",
		      __entry->skaddr, __entry->version, __entry->suite,
		      __entry->group, __entry->resumed, __get_str(sni),
		      __get_str(alpn))
);

/*
 * @reason: "alert" (we sent @alert), "peer_alert", "peer_closed",
 * "timeout", "aborted" (the socket closed), "internal", or "fallback"
 * (handed to userspace; @alert is the one the hello would have got).
 */
TRACE_EVENT(ktls_hs_fail,
	    TP_PROTO(const struct sock *sk, const char *reason, u8 alert,
		     const char *sni),
	    TP_ARGS(sk, reason, alert, sni),
	    TP_STRUCT__entry(__field(const void *, skaddr)
			     __string(reason, reason)
			     __field(u8, alert)
			     __string(sni, sni)),
	    TP_fast_assign(__entry->skaddr = sk;
			   ktls_assign_str(reason, reason);
			   __entry->alert = alert;
			   ktls_assign_str(sni, sni);),
	    TP_printk("sk=%p reason=%s alert=%u sni=%s", __entry->skaddr,
		      __get_str(reason), __entry->alert, __get_str(sni))
);

#endif /* _KTLS_HS_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
