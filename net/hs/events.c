// SPDX-License-Identifier: GPL-2.0-only
/*
 * Observability of the in-kernel handshake: counters per network
 * namespace in /proc/net/ktls_hs_stat, laid out as /proc/net/tls_stat,
 * and the ktls_hs tracepoints of trace.h.  Both are fed from the same
 * few moments of a handshake (start, end, abort), so the two never
 * disagree on what happened.  Per-listener counters (KTLS_HS_STATS) are
 * listen.c's.
 */
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/sock.h>

#include "events.h"
#include "hs.h"
#include "messages.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

/* Every alert a server may send, each counted on its own line. */
static const struct {
	u8 alert;
	const char *name;
} ktls_hs_alerts[] = {
	{ KTLS_ALERT_UNEXPECTED_MESSAGE,	"TlsHsAlertSentUnexpectedMessage" },
	{ KTLS_ALERT_BAD_RECORD_MAC,		"TlsHsAlertSentBadRecordMac" },
	{ KTLS_ALERT_RECORD_OVERFLOW,		"TlsHsAlertSentRecordOverflow" },
	{ KTLS_ALERT_HANDSHAKE_FAILURE,		"TlsHsAlertSentHandshakeFailure" },
	{ KTLS_ALERT_BAD_CERTIFICATE,		"TlsHsAlertSentBadCertificate" },
	{ KTLS_ALERT_ILLEGAL_PARAMETER,		"TlsHsAlertSentIllegalParameter" },
	{ KTLS_ALERT_DECODE_ERROR,		"TlsHsAlertSentDecodeError" },
	{ KTLS_ALERT_DECRYPT_ERROR,		"TlsHsAlertSentDecryptError" },
	{ KTLS_ALERT_PROTOCOL_VERSION,		"TlsHsAlertSentProtocolVersion" },
	{ KTLS_ALERT_INSUFFICIENT_SECURITY,	"TlsHsAlertSentInsufficientSecurity" },
	{ KTLS_ALERT_INTERNAL_ERROR,		"TlsHsAlertSentInternalError" },
	{ KTLS_ALERT_INAPPROPRIATE_FALLBACK,	"TlsHsAlertSentInappropriateFallback" },
	{ KTLS_ALERT_MISSING_EXTENSION,		"TlsHsAlertSentMissingExtension" },
	{ KTLS_ALERT_UNSUPPORTED_EXTENSION,	"TlsHsAlertSentUnsupportedExtension" },
	{ KTLS_ALERT_UNRECOGNIZED_NAME,		"TlsHsAlertSentUnrecognizedName" },
	{ KTLS_ALERT_NO_APPLICATION_PROTOCOL,	"TlsHsAlertSentNoApplicationProtocol" },
};

#define KTLS_HS_STAT_ALERT_OTHER \
	(KTLS_HS_STAT_ALERT_SENT_FIRST + ARRAY_SIZE(ktls_hs_alerts))
#define KTLS_HS_STAT_NR		(KTLS_HS_STAT_ALERT_OTHER + 1)

static const char *const ktls_hs_stat_names[KTLS_HS_STAT_ALERT_SENT_FIRST] = {
	[KTLS_HS_STAT_STARTED]		= "TlsHsStarted",
	[KTLS_HS_STAT_COMPLETED]	= "TlsHsCompleted",
	[KTLS_HS_STAT_RESUMED]		= "TlsHsResumed",
	[KTLS_HS_STAT_FALLBACK]		= "TlsHsFallback",
	[KTLS_HS_STAT_DROPPED]		= "TlsHsDropped",
	[KTLS_HS_STAT_RECORD_LIMIT_DECLINED] = "TlsHsRecordLimitDeclined",
	[KTLS_HS_STAT_FAILED]		= "TlsHsFailed",
	[KTLS_HS_STAT_TIMED_OUT]	= "TlsHsTimedOut",
	[KTLS_HS_STAT_ABORTED]		= "TlsHsAborted",
	[KTLS_HS_STAT_PEER_CLOSED]	= "TlsHsPeerClosed",
	[KTLS_HS_STAT_INTERNAL]		= "TlsHsInternalError",
	[KTLS_HS_STAT_ALERT_RECEIVED]	= "TlsHsAlertReceived",
};

struct ktls_hs_stats {
	long v[KTLS_HS_STAT_NR];
};

struct ktls_hs_net {
	struct ktls_hs_stats __percpu *stats;
};

static unsigned int ktls_hs_net_id __read_mostly;

void ktls_hs_stat_add(const struct sock *sk, unsigned int stat, long delta)
{
	struct ktls_hs_net *hn;

	/* As in stat.c: a socket may race with our registration. */
	if (unlikely(!READ_ONCE(ktls_hs_net_id)) ||
	    WARN_ON_ONCE(stat >= KTLS_HS_STAT_NR))
		return;
	hn = net_generic(sock_net(sk), ktls_hs_net_id);
	this_cpu_add(hn->stats->v[stat], delta);
}

static unsigned int ktls_hs_alert_stat(u8 alert)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ktls_hs_alerts); i++)
		if (ktls_hs_alerts[i].alert == alert)
			return KTLS_HS_STAT_ALERT_SENT_FIRST + i;
	return KTLS_HS_STAT_ALERT_OTHER;
}

void ktls_hs_ev_start(const struct ktls_hs_conn *conn)
{
	ktls_hs_stat_add(conn->sk, KTLS_HS_STAT_STARTED, 1);
	trace_ktls_hs_start(conn->sk, conn->listen);
}

/* How a failure came about, from what the engine and the socket say. */
static const char *ktls_hs_fail_reason(const struct ktls_hs_conn *conn,
				       u8 alert, unsigned int *stat)
{
	enum ktls_hs_status st = ktls_hs_status(conn->engine);

	if (st == KTLS_HS_FAILED && alert) {
		*stat = ktls_hs_alert_stat(alert);
		return "alert";
	}
	/* The engine fails without an alert only on the client's. */
	if (st == KTLS_HS_FAILED) {
		*stat = KTLS_HS_STAT_ALERT_RECEIVED;
		return "peer_alert";
	}
	/* Still running: the client closed, or the keys were refused. */
	if (st == KTLS_HS_RUNNING) {
		*stat = KTLS_HS_STAT_PEER_CLOSED;
		return "peer_closed";
	}
	*stat = KTLS_HS_STAT_INTERNAL;
	return "internal";
}

/*
 * What a handshake chose beside how it ended, counted once it is over
 * however it ended: the engine took it back and forth until then (a
 * HelloRetryRequest takes the second ClientHello's choice).
 */
static void ktls_hs_ev_choices(const struct ktls_hs_conn *conn)
{
	const struct ktls_hs_session *s = ktls_hs_session(conn->engine);

	if (s->record_limit_declined)
		ktls_hs_stat_add(conn->sk, KTLS_HS_STAT_RECORD_LIMIT_DECLINED, 1);
}

void ktls_hs_ev_end(const struct ktls_hs_conn *conn, int why)
{
	const struct ktls_hs_session *s = ktls_hs_session(conn->engine);
	u8 alert = ktls_hs_alert(conn->engine);
	struct sock *sk = conn->sk;
	const char *reason;
	unsigned int stat;

	ktls_hs_ev_choices(conn);
	switch (why) {
	case KTLS_HS_END_DONE:
		ktls_hs_stat_add(sk, KTLS_HS_STAT_COMPLETED, 1);
		/* A resumed handshake counts in both. */
		if (s->resumed)
			ktls_hs_stat_add(sk, KTLS_HS_STAT_RESUMED, 1);
		trace_ktls_hs_finish(sk, s->version, s->suite, s->group,
				     s->resumed, s->sni, s->alpn);
		return;
	case KTLS_HS_END_FALLBACK:
		ktls_hs_stat_add(sk, KTLS_HS_STAT_FALLBACK, 1);
		trace_ktls_hs_fail(sk, "fallback", alert, s->sni);
		return;
	case KTLS_HS_END_TIMEOUT:
		stat = KTLS_HS_STAT_TIMED_OUT;
		reason = "timeout";
		break;
	default:
		reason = ktls_hs_fail_reason(conn, alert, &stat);
		/* The keys of a done engine were refused: ours, no alert. */
		if (ktls_hs_status(conn->engine) == KTLS_HS_DONE) {
			stat = KTLS_HS_STAT_INTERNAL;
			reason = "internal";
		}
		break;
	}
	ktls_hs_stat_add(sk, KTLS_HS_STAT_FAILED, 1);
	ktls_hs_stat_add(sk, stat, 1);
	trace_ktls_hs_fail(sk, reason, alert, s->sni);
}

void ktls_hs_ev_aborted(const struct ktls_hs_conn *conn)
{
	const struct ktls_hs_session *s = ktls_hs_session(conn->engine);

	ktls_hs_ev_choices(conn);
	ktls_hs_stat_add(conn->sk, KTLS_HS_STAT_FAILED, 1);
	ktls_hs_stat_add(conn->sk, KTLS_HS_STAT_ABORTED, 1);
	trace_ktls_hs_fail(conn->sk, "aborted", 0, s->sni);
}

void ktls_hs_ev_dropped(const struct sock *sk)
{
	ktls_hs_stat_add(sk, KTLS_HS_STAT_DROPPED, 1);
}

static int ktls_hs_stat_show(struct seq_file *seq, void *v)
{
	struct ktls_hs_net *hn = net_generic(seq_file_single_net(seq),
					     ktls_hs_net_id);
	unsigned int i;
	int cpu;

	for (i = 0; i < KTLS_HS_STAT_NR; i++) {
		const char *name;
		long sum = 0;

		if (i < KTLS_HS_STAT_ALERT_SENT_FIRST)
			name = ktls_hs_stat_names[i];
		else if (i < KTLS_HS_STAT_ALERT_OTHER)
			name = ktls_hs_alerts[i - KTLS_HS_STAT_ALERT_SENT_FIRST].name;
		else
			name = "TlsHsAlertSentOther";
		for_each_possible_cpu(cpu)
			sum += per_cpu_ptr(hn->stats, cpu)->v[i];
		seq_printf(seq, "%-40s\t%ld\n", name, sum);
	}
	return 0;
}

static int __net_init ktls_hs_net_init(struct net *net)
{
	struct ktls_hs_net *hn = net_generic(net, ktls_hs_net_id);

	hn->stats = alloc_percpu(struct ktls_hs_stats);
	if (!hn->stats)
		return -ENOMEM;
	if (!proc_create_net_single("ktls_hs_stat", 0444, net->proc_net,
				    ktls_hs_stat_show, NULL)) {
		free_percpu(hn->stats);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit ktls_hs_net_exit(struct net *net)
{
	struct ktls_hs_net *hn = net_generic(net, ktls_hs_net_id);

	remove_proc_entry("ktls_hs_stat", net->proc_net);
	free_percpu(hn->stats);
}

static struct pernet_operations ktls_hs_net_ops = {
	.init	= ktls_hs_net_init,
	.exit	= ktls_hs_net_exit,
	.id	= &ktls_hs_net_id,
	.size	= sizeof(struct ktls_hs_net),
};

int ktls_hs_events_init(void)
{
	return register_pernet_subsys(&ktls_hs_net_ops);
}

void ktls_hs_events_exit(void)
{
	unregister_pernet_subsys(&ktls_hs_net_ops);
}
