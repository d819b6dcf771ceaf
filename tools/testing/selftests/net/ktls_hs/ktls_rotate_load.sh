#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Rotation of an armed server's identity under concurrent load: six curl
# loops fetch continuously, each fetch a new connection verified against
# the test CA, from a threading python3 http.server armed by
# `ktls arm --pid`, while `ktls identity update` swaps the chain.  Every
# fetch succeeds and is byte-identical; handshakes before the update
# (openssl s_client) see the old leaf, those after it the new one.
# What the server reads from its sockets throughout (strace) is plain
# HTTP requests only, never a TLS byte.
# Needs ktls_hs.ko loaded, openssl, curl, python3, strace.

DIR=$(dirname "$(readlink -f "$0")")
ID=ktls-e2e-rotate
source "$DIR/ktls_e2e_lib.sh"

LOOPS=6

ktap_print_header
ktap_set_plan 5

command -v strace > /dev/null || ktap_exit_fail_msg "strace is not installed"
e2e_setup

python3 -c 'import functools, http.server, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), h).serve_forever()' \
	"$PORT" "$T/www" > "$T/server.log" 2>&1 &
SRV=$!
PIDS+=("$SRV")
e2e_waitfor e2e_plain || ktap_exit_fail_msg "the server did not start: $(cat "$T/server.log")"
"$KT" arm --pid "$SRV" --port "$PORT" --identity "$ID" > /dev/null 2> "$T/err" ||
	ktap_exit_fail_msg "ktls arm: $(cat "$T/err")"

# leaf_is NAME: a new handshake gets NAME's leaf (by serial number)
leaf_is() {
	timeout 60 openssl s_client -connect "127.0.0.1:$PORT" \
		-servername www.example.test -verify_hostname www.example.test \
		-CAfile "$T/ca.pem" -verify_return_error < /dev/null \
		> "$T/sclient.out" 2> "$T/err"
	openssl x509 -in "$T/sclient.out" -noout -serial > "$T/got.serial" 2>> "$T/err" &&
		openssl x509 -in "$T/$1.leaf" -noout -serial | cmp - "$T/got.serial" >> "$T/err"
}
e2e_check "before the update, new handshakes get the old leaf" leaf_is www

# loop N: fetch 1k then 100k on a new connection each until $T/stop, at
# most 200 times; one line per fetch in $T/loop.N, "ok" or why not
loop() {
	local i f
	for i in $(seq 200); do
		[ -e "$T/stop" ] && break
		f=1k
		[ $((i % 2)) = 0 ] && f=100k
		if timeout 60 curl -sS --cacert "$T/ca.pem" -o "$T/got.$1" \
			--resolve "www.example.test:$PORT:127.0.0.1" \
			"https://www.example.test:$PORT/$f" 2>> "$T/loop.$1.err" &&
			cmp -s "$T/www/$f" "$T/got.$1"; then
			echo ok
		else
			echo "failed: $f, curl exit $?"
		fi >> "$T/loop.$1"
	done
}
# what the server reads from its sockets, through all of it
e2e_strace_start "$SRV"
for n in $(seq $LOOPS); do
	: > "$T/loop.$n"
	loop "$n" &
	PIDS+=($!)
	LOADERS+=($!)
done

# each_did K: every loop has done K fetches
each_did() {
	local n
	for n in $(seq $LOOPS); do
		[ "$(wc -l < "$T/loop.$n")" -ge "$1" ] || return 1
	done
}
# (e2e_waitfor waits 20 s; the loops are given 120)
started() { local i; for i in 1 2 3 4 5 6; do e2e_waitfor each_did 3 && return 0; done; return 1; }
started
before=$(cat "$T"/loop.[0-9] | wc -l)
"$KT" identity update "$ID" --cert "$T/rot.pem" --key "$T/rot.key" > /dev/null 2> "$T/err"
e2e_check "identity update while $LOOPS clients fetch ($before fetches so far)" test $? = 0
after() { local i; for i in 1 2 3 4 5 6; do e2e_waitfor each_did $((before / LOOPS + 4)) && return 0; done; return 1; }
after
e2e_check "after the update, new handshakes get the new leaf" leaf_is rot
touch "$T/stop"
wait "${LOADERS[@]}"
e2e_strace_stop

all_ok() {
	local total
	total=$(cat "$T"/loop.[0-9] | wc -l)
	echo "# $total fetches in $LOOPS loops, $before before the update"
	cat "$T"/loop.[0-9].err 2>/dev/null | sort | uniq -c | head -5 > "$T/err"
	grep -h failed "$T"/loop.[0-9] | sort | uniq -c >> "$T/err"
	! grep -q failed "$T"/loop.[0-9] && each_did $((before / LOOPS + 4))
}
e2e_check "every fetch succeeded, byte-identical, in every loop" all_ok
plain_only() {
	local total
	total=$(cat "$T"/loop.[0-9] | wc -l)
	e2e_plaintext_only "$total" && ! grep -q "code 400" "$T/server.log"
}
e2e_check "the server read plain HTTP requests only, never a TLS byte" plain_only

ktap_finished
