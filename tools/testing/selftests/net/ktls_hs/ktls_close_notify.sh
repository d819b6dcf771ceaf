#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# close_notify between real TLS clients and a plain server armed by
# `ktls arm --pid` (ktls_close_notify_srv.py, which logs what read()
# returned), over TLS 1.3 and 1.2: when the server closes, openssl
# s_client receives a close_notify alert and ends cleanly ("closed",
# exit 0); when s_client ends the connection with close_notify (at the
# end of its input, or on its Q command), the server's read() returns 0,
# not -1 EIO; curl reading a response delimited by the end of the stream
# gets close_notify, exits 0 with the body whole and no "unexpected eof".
# Needs ktls_hs.ko loaded, openssl, curl, python3.

DIR=$(dirname "$(readlink -f "$0")")
ID=ktls-e2e-close
source "$DIR/ktls_e2e_lib.sh"

ktap_print_header
ktap_set_plan 9

e2e_setup

python3 -u "$DIR/ktls_close_notify_srv.py" "$PORT" > "$T/server.log" 2> "$T/server.err" &
SRV=$!
PIDS+=("$SRV")
listening() { grep -q listening "$T/server.log"; }
e2e_waitfor listening || ktap_exit_fail_msg "the server did not start: $(cat "$T/server.err")"
"$KT" arm --pid "$SRV" --port "$PORT" --identity "$ID" > /dev/null 2> "$T/err" ||
	ktap_exit_fail_msg "ktls arm: $(cat "$T/err")"

# sclient VERSION ARGS...: openssl s_client over TLS VERSION, verifying
# the chain and name, printing every message and alert (-msg)
sclient() {
	local v=$1
	shift
	timeout 60 openssl s_client -msg -connect "127.0.0.1:$PORT" -tls"${v/./_}" \
		-servername www.example.test -verify_hostname www.example.test \
		-verify_return_error -CAfile "$T/ca.pem" "$@"
}

# logged LINE: the server logged LINE for a connection (it logs at its end)
logged() {
	e2e_waitfor grep -q ": $1\$" "$T/server.log" ||
		{ echo "want \"$1\"; the server logged:"; cat "$T/server.log"; } > "$T/err"
}

server_closes() {
	printf 'close\n' | sclient "$1" -ign_eof > "$T/sc.out" 2>&1
	local rc=$?
	{ echo "s_client exit $rc"; tail -12 "$T/sc.out"; } > "$T/err"
	[ $rc = 0 ] && grep -q "^bye$" "$T/sc.out" &&
		grep -Eq "^<<< TLS 1\.[23], Alert \[length 0002\], warning close_notify" "$T/sc.out" &&
		grep -q "^closed$" "$T/sc.out"
}

client_eof() {
	printf 'eof %s\n' "$1" | sclient "$1" > "$T/sc.out" 2>&1
	local rc=$?
	{ echo "s_client exit $rc"; tail -12 "$T/sc.out"; } > "$T/err"
	[ $rc = 0 ] &&
		grep -Eq "^>>> TLS 1\.[23], Alert \[length 0002\], warning close_notify" "$T/sc.out" &&
		logged "eof $1: EOF after 8 bytes"
}

# Q at the start of a line of its input: s_client sends close_notify and
# exits, its input still open
client_q() {
	local sc rc
	rm -f "$T/in"
	mkfifo "$T/in"
	sclient "$1" < "$T/in" > "$T/sc.out" 2>&1 &
	sc=$!
	exec 7> "$T/in"
	printf 'q %s\n' "$1" >&7
	# Q on a read of its own, after the handshake and the line before
	e2e_waitfor grep -q "Verify return code" "$T/sc.out" && sleep 2
	printf 'Q\n' >&7
	wait $sc
	rc=$?
	exec 7>&-
	{ echo "s_client exit $rc"; tail -12 "$T/sc.out"; } > "$T/err"
	[ $rc = 0 ] && grep -q "^DONE$" "$T/sc.out" &&
		grep -Eq "^>>> TLS 1\.[23], Alert \[length 0002\], warning close_notify" "$T/sc.out" &&
		logged "q $1: EOF after 6 bytes"
}

curl_eof() {
	timeout 60 curl -v --cacert "$T/ca.pem" --tlsv"$1" --tls-max "$1" \
		--resolve "www.example.test:$PORT:127.0.0.1" -o "$T/got" \
		"https://www.example.test:$PORT/curl-$1" 2> "$T/curl.err"
	local rc=$?
	{ echo "curl exit $rc"; grep -v "^[<>{}] " "$T/curl.err" | tail -12; } > "$T/err"
	[ $rc = 0 ] && ! grep -Eqi "unexpected eof|SSL_read" "$T/curl.err" &&
		grep -q "TLS alert, close notify" "$T/curl.err" &&
		python3 -c 'import sys
want = bytes(range(256)) * 390 + bytes(160)
sys.exit(open(sys.argv[1], "rb").read() != want)' "$T/got" &&
		logged "GET /curl-$1 HTTP/1.1: closed by the server"
}

for v in 1.3 1.2; do
	e2e_check "TLS $v: the server closes: s_client gets close_notify, ends cleanly" \
		server_closes $v
	e2e_check "TLS $v: s_client's close_notify at the end of its input: read() returns 0" \
		client_eof $v
	e2e_check "TLS $v: s_client's Q: close_notify, the server's read() returns 0" \
		client_q $v
	e2e_check "TLS $v: curl, a body ended by close: close_notify, exit 0, no unexpected eof" \
		curl_eof $v
done
e2e_check "no read() of the server failed" eval '! grep -q "failed" "$T/server.log"'
sed 's/^/# /' "$T/server.log"

ktap_finished
