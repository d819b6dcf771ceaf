#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# /proc/net/ktls_hs_stat and the ktls_hs tracepoints: the counters'
# layout and their own copy in a new network namespace, then the deltas
# of a completed handshake, one refused with an alert, one ended by the
# client's alert, one timed out, one the client walked away from, and
# one handed over to userspace; the tracepoints enabled through tracefs
# and their events for the same.  Needs ktls_hs.ko loaded, openssl.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

STAT=/proc/net/ktls_hs_stat
TR=/sys/kernel/tracing
T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
KEYS=()
SRV=
cleanup() {
	[ -w "$TR/events/ktls_hs/enable" ] && echo 0 > "$TR/events/ktls_hs/enable"
	hs_cleanup
}
trap cleanup EXIT

ktap_print_header
ktap_set_plan 12

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make a test identity with openssl"
K1=$(hs_load_identity "$T" www) && KEYS+=("$K1") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"

# serve ARGS...: (re)start hs_fallback_srv on the next port
serve() {
	hs_start_server hs_fallback_srv --key "$K1" --cert "$T/www.pem" \
		--pkey "$T/www.key" "$@"
}

client() {
	printf 'ping\n' | timeout 20 openssl s_client \
		-connect "127.0.0.1:$PORT" -servername www.example.test \
		-ign_eof "$@" > "$T/client.out" 2>&1
}

snap() { cp "$STAT" "$T/$1"; }

# expect FROM TO NAME=DELTA...: every other counter of the handshake's
# own must not have moved (TlsHsResumed and TlsHsDropped included)
expect() {
	local from=$1 to=$2 rc=0 name want got
	shift 2
	declare -A w=()
	for kv in "$@"; do w[${kv%=*}]=${kv#*=}; done
	while read -r name got; do
		want=${w[$name]:-0}
		if [ "$got" != "$want" ]; then
			echo "# $name moved by $got, expected $want"
			rc=1
		fi
	done < <(awk 'NR == FNR { was[$1] = $2; next }
		      { print $1, $2 - was[$1] }' "$T/$from" "$T/$to")
	return $rc
}

# settle FROM NAME=DELTA...: snapshots "now" until the deltas from FROM
# are what expect() wants, for up to 10 s: the server's side of an end is
# counted as it happens, and a slow guest may take its time.
settle() {
	local from=$1 i
	shift
	for i in $(seq 100); do
		snap now
		expect "$from" now "$@" > /dev/null && return 0
		sleep 0.1
	done
	expect "$from" now "$@"
}

report() {
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# client: /' "$T/client.out" | tail -10
		ktap_test_fail "$2"
	fi
}

# The layout: one "Name value" line each, unique names.
[ -r "$STAT" ] && awk 'NF != 2 || $2 !~ /^[0-9]+$/ { bad = 1 }
	{ if (seen[$1]++) bad = 1 }
	END { exit bad || NR < 20 }' "$STAT" &&
	grep -q '^TlsHsAlertSentHandshakeFailure ' "$STAT" &&
	grep -q '^TlsHsResumed ' "$STAT"
report $? "layout of $STAT"

# Another namespace has its own, all zero.
unshare -n awk '$2 != 0 { bad = 1 } END { exit bad || NR < 20 }' "$STAT"
report $? "a new netns starts from zero"

serve || ktap_exit_fail_msg "hs_fallback_srv did not start"

snap a; client -tls1_3 -CAfile "$T/ca.pem" -verify_return_error
grep -q "echo ping" "$T/client.out" &&
	settle a TlsHsStarted=1 TlsHsCompleted=1
report $? "completed: Started, Completed"

snap a; client -tls1_3 -ciphersuites TLS_AES_128_CCM_SHA256
settle a TlsHsStarted=1 TlsHsFailed=1 TlsHsAlertSentHandshakeFailure=1
report $? "refused: Failed, AlertSentHandshakeFailure"

# The client does not trust our chain and says so.
snap a; client -tls1_3 -verify_return_error -no-CAfile -no-CApath -no-CAstore
settle a TlsHsStarted=1 TlsHsFailed=1 TlsHsAlertReceived=1
report $? "client's alert: Failed, AlertReceived"

# A short timeout only here: a slow guest may take longer for a handshake.
serve --timeout 500 || ktap_exit_fail_msg "hs_fallback_srv did not start"
snap a
exec 3<>"/dev/tcp/127.0.0.1/$PORT" && sleep 1.2 && exec 3>&-
settle a TlsHsStarted=1 TlsHsFailed=1 TlsHsTimedOut=1
report $? "silent client: Failed, TimedOut"
serve || ktap_exit_fail_msg "hs_fallback_srv did not start"

snap a
exec 3<>"/dev/tcp/127.0.0.1/$PORT" && printf '\x16\x03\x01' >&3 && exec 3>&-
settle a TlsHsStarted=1 TlsHsFailed=1 TlsHsPeerClosed=1
report $? "client gone mid-hello: Failed, PeerClosed"

# No handshake memory at all: the child is dropped, never started.
LIMIT=/sys/module/ktls_hs/parameters/max_handshakes
OLD_LIMIT=$(cat "$LIMIT")
echo 0 > "$LIMIT"
snap a
exec 3<>"/dev/tcp/127.0.0.1/$PORT" && sleep 0.3 && exec 3>&-
settle a TlsHsDropped=1
rc=$?
echo "$OLD_LIMIT" > "$LIMIT"
(exit $rc)
report $? "no handshake memory: Dropped"

serve --fallback || ktap_exit_fail_msg "hs_fallback_srv did not start"
snap a; client -tls1_3 -ciphersuites TLS_AES_128_CCM_SHA256 -CAfile "$T/ca.pem"
grep -q "echo ping" "$T/client.out" &&
	settle a TlsHsStarted=1 TlsHsFallback=1
report $? "handed over: Fallback"

# Tracepoints, through tracefs.
[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
if [ ! -d "$TR/events/ktls_hs" ]; then
	ktap_test_fail "tracepoints: no events/ktls_hs in $TR"
	ktap_test_fail "tracepoints: fail"
	ktap_test_fail "tracepoints: fallback"
	ktap_finished
	exit
fi
echo > "$TR/trace"
echo 1 > "$TR/events/ktls_hs/enable"
serve || ktap_exit_fail_msg "hs_fallback_srv did not start"
client -tls1_3 -ciphersuites TLS_AES_256_GCM_SHA384 -groups P-256 \
	-alpn h2 -CAfile "$T/ca.pem"
client -tls1_3 -ciphersuites TLS_AES_128_CCM_SHA256
serve --fallback || ktap_exit_fail_msg "hs_fallback_srv did not start"
client -tls1_3 -groups ffdhe2048 -CAfile "$T/ca.pem"
# The server's side of the last end is traced as it happens: let it.
for _ in $(seq 100); do
	grep -q 'ktls_hs_fail: .* reason=fallback' "$TR/trace" && break
	sleep 0.1
done
echo 0 > "$TR/events/ktls_hs/enable"
cat "$TR/trace" > "$T/trace"
sed 's/^/# trace: /' "$T/trace" | grep ktls_hs_ | tail -8

[ "$(grep -c 'ktls_hs_start: .* listener' "$T/trace")" = 3 ] &&
	grep -q 'ktls_hs_finish: .* version=0x0304 suite=0x1302 group=0x0017 resumed=0 sni=www.example.test alpn=$' "$T/trace"
report $? "tracepoints: start, finish with the parameters"
grep -q 'ktls_hs_fail: .* reason=alert alert=40 sni=www.example.test' "$T/trace"
report $? "tracepoints: fail with the alert"
grep -q 'ktls_hs_fail: .* reason=fallback alert=40 sni=www.example.test' "$T/trace"
report $? "tracepoints: fallback"

ktap_finished
