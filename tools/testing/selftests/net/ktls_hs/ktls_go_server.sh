#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A static Go net/http file server (go_server/main.go, built without cgo:
# Go's own non-blocking sockets and epoll, no libc; GODEBUG=multipathtcp=0
# for a TCP listener) armed by `ktls arm --pid`: curl and openssl s_client verifying the chain and the
# name fetch 1 KB, 100 KB and 2 MB files byte for byte over TLS 1.3 and
# 1.2; what the server reads from its sockets (strace, every thread) is
# plain HTTP requests only, never a TLS byte; plain HTTP is no longer
# answered; the server logged no error.  Needs ktls_hs.ko loaded, the
# ktls_go_server binary (built on the host with go: Debian golang-go),
# openssl, curl, strace, python3.

DIR=$(dirname "$(readlink -f "$0")")
ID=ktls-e2e-go
source "$DIR/ktls_e2e_lib.sh"

ktap_print_header
ktap_set_plan 16

GOSRV=$HS_BIN/ktls_go_server
[ -x "$GOSRV" ] ||
	ktap_exit_fail_msg "$GOSRV was not built: no go on the build host (install golang-go)"
command -v strace > /dev/null || ktap_exit_fail_msg "strace is not installed"
e2e_setup

# Go 1.24 and later listen with MPTCP by default, which kTLS cannot sit
# under (ktls arm refuses it, see ktls_tool.sh): a plain TCP listener,
# as the man page tells Go servers to ask for.
GODEBUG=multipathtcp=0 "$GOSRV" --port "$PORT" --dir "$T/www" \
	> "$T/go.out" 2> "$T/go.err" &
SRV=$!
PIDS+=("$SRV")
e2e_waitfor e2e_plain || ktap_exit_fail_msg "the Go server did not start: $(cat "$T/go.err")"

arm() {
	"$KT" arm --pid "$SRV" --port "$PORT" --identity "$ID" \
		> "$T/out" 2> "$T/err" &&
		[ "$(grep -c "^armed 127.0.0.1:$PORT (pid $SRV fd " "$T/out")" = 1 ]
}
e2e_check "arm the Go server by pid" arm
e2e_check "plain HTTP is no longer answered" eval '! e2e_plain'
e2e_fetch_all go

e2e_check "the server reads plain HTTP requests only, never a TLS byte" \
	e2e_traced_plaintext "$SRV"

kill "$SRV"
wait "$SRV" 2>/dev/null
log_clean() {
	# every request logged; nothing from the http package's error log
	sed 's/^/# /' "$T/go.err" | tail -20 > "$T/err"
	grep -q "GET /2m HTTP/1.1" "$T/go.err" && ! grep -q "http: " "$T/go.err"
}
e2e_check "the Go server logged every request and no error" log_clean

ktap_finished
