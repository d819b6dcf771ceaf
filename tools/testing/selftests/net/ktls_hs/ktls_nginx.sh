#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's nginx, unmodified, with a plain-HTTP configuration (no ssl:
# `listen PORT;`, sendfile on, a master and two workers sharing its one
# listener) armed by `ktls arm --pid <master>`: curl and openssl s_client
# verifying the chain and the name fetch 1 KB, 100 KB and 2 MB files
# byte for byte over TLS 1.3 and 1.2; what the workers read from their
# sockets (strace) is plain HTTP requests only, never a TLS byte; plain
# HTTP is no longer answered; nginx's error log, at info level, has
# nothing at error level or worse, no failed recv() and no EIO.
# Needs ktls_hs.ko loaded, nginx (/usr/sbin/nginx), openssl, curl,
# strace, python3.

DIR=$(dirname "$(readlink -f "$0")")
ID=ktls-e2e-nginx
source "$DIR/ktls_e2e_lib.sh"

ktap_print_header
ktap_set_plan 16

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || ktap_exit_fail_msg "nginx is not installed (Debian: nginx)"
command -v strace > /dev/null || ktap_exit_fail_msg "strace is not installed"
e2e_setup

mkdir "$T/nginx"
cat > "$T/nginx/nginx.conf" <<EOF
daemon off;
master_process on;
worker_processes 2;
pid $T/nginx/nginx.pid;
error_log $T/nginx/error.log info;
events {
	worker_connections 64;
}
http {
	access_log $T/nginx/access.log;
	sendfile on;
	default_type application/octet-stream;
	server {
		listen 127.0.0.1:$PORT;
		root $T/www;
	}
}
EOF
# daemon off: the master is our child, $!
"$NGINX" -p "$T/nginx" -c "$T/nginx/nginx.conf" -e "$T/nginx/error.log" \
	> "$T/nginx/stdout" 2>&1 &
MASTER=$!
PIDS+=("$MASTER")
two_workers() { [ "$(pgrep -P "$MASTER" | wc -l)" = 2 ]; }
e2e_waitfor e2e_plain && e2e_waitfor two_workers ||
	ktap_exit_fail_msg "nginx did not start: $(cat "$T/nginx/error.log" "$T/nginx/stdout")"
WORKERS=$(pgrep -P "$MASTER" | tr '\n' ' ')

arm() {
	"$KT" arm --pid "$MASTER" --port "$PORT" --identity "$ID" \
		> "$T/out" 2> "$T/err" &&
		[ "$(grep -c "^armed 127.0.0.1:$PORT (pid $MASTER fd " "$T/out")" = 1 ]
}
e2e_check "arm nginx's master by pid: its one listener, armed once" arm
e2e_check "plain HTTP is no longer answered" eval '! e2e_plain'
e2e_fetch_all nginx

# shellcheck disable=SC2086
e2e_check "the workers read plain HTTP requests only, never a TLS byte" \
	e2e_traced_plaintext $WORKERS

kill -QUIT "$MASTER"
wait "$MASTER"
log_clean() {
	sed 's/^/# /' "$T/nginx/error.log" | grep -v ' \[notice\] ' | tail -20 > "$T/err"
	grep -q 'GET /2m HTTP/1.1" 200 ' "$T/nginx/access.log" &&
		! grep -Eq 'recv\(\) failed|Input/output error|\[(error|crit|alert|emerg)\]' \
			"$T/nginx/error.log"
}
e2e_check "nginx's error log: no failed recv(), no EIO, nothing at [error] or worse" log_clean

ktap_finished
