#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's nginx with kTLS (ssl_conf_command Options KTLS, sendfile on)
# serving files of 1 KB, 64 KB and 16 MB of random data to curl, over TLS
# 1.2 and 1.3: each download must be byte-identical, and TlsTxSw must grow
# by one per connection, proof that nginx's OpenSSL gave the kernel its
# TX keys rather than encrypting in userspace.  nginx runs in the
# foreground from a config generated here, everything in a temp dir.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=lib.sh
source "$DIR/lib.sh"

#	curl options						label
CLIENTS=(
	"--tlsv1.2 --tls-max 1.2 --ciphers ECDHE-ECDSA-AES128-GCM-SHA256	TLS 1.2 aes-gcm-128"
	"--tlsv1.3 --tls13-ciphers TLS_AES_256_GCM_SHA384			TLS 1.3 aes-gcm-256"
	"--tlsv1.3 --tls13-ciphers TLS_CHACHA20_POLY1305_SHA256		TLS 1.3 chacha20-poly1305"
)
FILES=("1k 1024" "64k 65536" "16m 16777216")

require_tls_stat
provider_start
tap_plan $(( ${#CLIENTS[@]} * ${#FILES[@]} + 2 ))

make_cert "$WORK" || { echo "Bail out! openssl req failed"; exit 1; }
mkdir -p "$WORK/www" "$WORK/tmp"
for f in "${FILES[@]}"; do
	read -r name size <<< "$f"
	random_file "$WORK/www/$name.bin" "$size"
done

PORT=$NEXT_PORT
# The guest's root is read-only: every path nginx writes is under $WORK.
# One process (no master) that never drops root, so it can read $WORK.
cat > "$WORK/nginx.conf" <<CONF
daemon off;
master_process off;
pid $WORK/nginx.pid;
error_log $WORK/error.log info;
events {
	worker_connections 64;
}
http {
	access_log $WORK/access.log;
	client_body_temp_path $WORK/tmp/body;
	proxy_temp_path $WORK/tmp/proxy;
	fastcgi_temp_path $WORK/tmp/fastcgi;
	uwsgi_temp_path $WORK/tmp/uwsgi;
	scgi_temp_path $WORK/tmp/scgi;
	sendfile on;
	server {
		listen 127.0.0.1:$PORT ssl;
		ssl_certificate $WORK/cert.pem;
		ssl_certificate_key $WORK/key.pem;
		ssl_protocols TLSv1.2 TLSv1.3;
		ssl_conf_command Options KTLS;
		root $WORK/www;
	}
}
CONF

nginx -p "$WORK" -e "$WORK/error.log" -c "$WORK/nginx.conf" 2>> "$LOG" &
NGINX=$!
trap 'kill $NGINX 2>/dev/null; wait $NGINX 2>/dev/null; rm -rf "$WORK"' EXIT
if wait_listen "$PORT" "$NGINX"; then
	tap_result 0 "nginx starts with ssl_conf_command Options KTLS"
else
	tap_result 1 "nginx starts with ssl_conf_command Options KTLS" "see error.log"
	cat "$WORK/error.log" >> "$LOG"
	exit 1
fi

for c in "${CLIENTS[@]}"; do
	opts=${c%%	*}
	label=${c##*	}
	for f in "${FILES[@]}"; do
		read -r name size <<< "$f"
		what="nginx $label sendfile $name"
		note "== $what"
		tls_stat_all > "$WORK/before"
		# shellcheck disable=SC2086
		code=$(curl -sS -k --max-time 120 $opts -o "$WORK/got" -w '%{http_code}' \
			"https://127.0.0.1:$PORT/$name.bin" 2>> "$LOG")
		tx=$(stat_delta "$WORK/before" TlsTxSw)
		rx=$(stat_delta "$WORK/before" TlsRxSw)
		note "  HTTP $code, tls_stat deltas: TlsTxSw +$tx TlsRxSw +$rx"
		if [ "$code" != 200 ]; then
			why="HTTP status '$code'"
		elif ! cmp -s "$WORK/got" "$WORK/www/$name.bin"; then
			why="got $(stat -c %s "$WORK/got") bytes, not the $size-byte file"
		elif [ "$tx" != 1 ]; then
			why="TlsTxSw +$tx, want +1: nginx did not use kTLS TX"
		else
			why=
		fi
		tap_result "$([ -z "$why" ] && echo 0 || echo 1)" "$what" "$why"
	done
done
provider_result
[ "$TAP_FAILED" = 0 ]
