#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Module unload with handshakes in flight: while an armed listener has
# children in handshake (clients that stall, clients that handshake in a
# loop), rmmod is refused and the module keeps working; once the listener
# is closed with handshakes still in flight, every child goes, and the
# module unloads cleanly (the runner checks the kernel log and kmemleak).
# KTLS_HS_KO names the module file; it is loaded again at the end.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$DIR/ktls_module.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

: "${KTLS_HS_KO:?KTLS_HS_KO must name ktls_hs.ko}"

T=$(mktemp -d)
# Below the ephemeral range (32768+), where a client of ours may hold it.
PORT=$((20000 + RANDOM % 12000))
SRV= LOOPS=() KEY=
cleanup() {
	local p
	for p in "${LOOPS[@]}" $SRV; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "$KEY" ] && keyctl unlink "$KEY" @u >/dev/null 2>&1
	rm -rf "$T"
	[ -e /sys/module/ktls_hs ] || ktls_insmod "$KTLS_HS_KO"
}
trap cleanup EXIT

ktap_print_header
ktap_set_plan 4

refcnt() { cat /sys/module/ktls_hs/refcnt 2>/dev/null || echo none; }

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make a test identity"
KEY=$(hs_load_identity "$T" www) || ktap_exit_fail_msg "keyctl padd failed"
mkdir "$T/www" && echo "still here" > "$T/www/hello"

"$HS_BIN/https_server" --port "$PORT" --root "$T/www" --key "$KEY" \
	> "$T/server.out" 2>&1 &
SRV=$!
for _ in $(seq 50); do grep -q listening "$T/server.out" && break; sleep 0.1; done

# Clients that connect and say nothing: handshakes that stay in progress.
for i in $(seq 20); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" && eval "STALL_$i=$fd"
done
# Clients that handshake over and over.
for i in 1 2 3; do
	( while :; do
		printf 'GET /hello HTTP/1.0\r\n\r\n' |
			timeout 10 openssl s_client -connect "127.0.0.1:$PORT" \
			-tls1_3 -quiet >/dev/null 2>&1
	done ) &
	LOOPS+=($!)
done
sleep 2

if ! rmmod ktls_hs 2>/dev/null && [ "$(refcnt)" -ge 1 ]; then
	ktap_test_pass "unload refused with handshakes in flight (refcnt $(refcnt))"
else
	ktap_test_fail "unload refused with handshakes in flight (refcnt $(refcnt))"
fi

out=$(printf 'GET /hello HTTP/1.0\r\n\r\n' | timeout 20 openssl s_client \
	-connect "127.0.0.1:$PORT" -tls1_3 -CAfile "$T/ca.pem" \
	-verify_return_error -servername www.example.test -quiet 2>&1)
if [[ "$out" == *"still here"* ]]; then
	ktap_test_pass "handshakes still complete meanwhile"
else
	ktap_test_fail "handshakes still complete meanwhile ($out)"
fi

# Close the listener with stalled handshakes and looping clients live.
kill "$SRV"; wait "$SRV" 2>/dev/null; SRV=
for p in "${LOOPS[@]}"; do kill "$p"; done
wait 2>/dev/null; LOOPS=()
for i in $(seq 20); do eval "exec {STALL_$i}>&-"; done

for _ in $(seq 100); do [ "$(refcnt)" = 0 ] && break; sleep 0.1; done
if [ "$(refcnt)" = 0 ] && rmmod ktls_hs && [ ! -e /sys/module/ktls_hs ]; then
	ktap_test_pass "every child gone after the listener closed; unloaded"
else
	ktap_test_fail "every child gone after the listener closed (refcnt $(refcnt))"
fi

if ktls_insmod "$KTLS_HS_KO" && grep -qw ktls_hs /proc/sys/net/ipv4/tcp_available_ulp; then
	ktap_test_pass "reload registers tls and ktls_hs"
else
	ktap_test_fail "reload"
fi
ktap_finished
