#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `python3 -m http.server`, unmodified, started by `ktls run`: its
# listener is armed as it listens (the LD_PRELOAD shim), and curl and
# openssl s_client verifying the chain and the name fetch 1 KB, 100 KB
# and 2 MB files byte for byte over TLS 1.3 and 1.2; what the server
# reads from its sockets (strace) is plain HTTP requests only, never a
# TLS byte; plain HTTP is never answered; the server logged every request
# and no error.  Needs ktls_hs.ko loaded, the ktls tool and its preload
# shim, openssl, curl, strace, python3.

DIR=$(dirname "$(readlink -f "$0")")
ID=ktls-e2e-run
source "$DIR/ktls_e2e_lib.sh"

ktap_print_header
ktap_set_plan 16

command -v strace > /dev/null || ktap_exit_fail_msg "strace is not installed"
e2e_setup

"$KT" run --port "$PORT" --identity "$ID" -- python3 -u -m http.server \
	--bind 127.0.0.1 "$PORT" --directory "$T/www" > "$T/py.log" 2>&1 &
RUN=$!
PIDS+=("$RUN")
served() { e2e_curl 1.3 1k; }
e2e_waitfor served ||
	ktap_exit_fail_msg "the server did not come up armed: $(tail -5 "$T/py.log")"
# ktls run stays as the supervisor; the server is its child.
SRV=$(pgrep -P "$RUN" -x python3)
started() {
	grep -q "ktls run: armed port $PORT" "$T/py.log" > "$T/err" 2>&1 &&
		[ -n "$SRV" ]
}
e2e_check "ktls run: python3 -m http.server armed at listen()" started
e2e_check "plain HTTP is never answered" eval '! e2e_plain'
e2e_fetch_all "http.server"

e2e_check "the server reads plain HTTP requests only, never a TLS byte" \
	e2e_traced_plaintext "$SRV"

kill "$RUN"
wait "$RUN" 2>/dev/null
log_clean() {
	# every request answered 200; no traceback, no 400 for a TLS hello
	sed 's/^/# /' "$T/py.log" | tail -20 > "$T/err"
	grep -q '"GET /2m HTTP/1.0" 200' "$T/py.log" &&
		! grep -qE 'Traceback|code 400|Bad request' "$T/py.log"
}
e2e_check "the server logged every request and no error" log_clean

ktap_finished
