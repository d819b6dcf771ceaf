#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Debian's OpenSSL 3.0 against itself across the kTLS provider: one end
# runs with kTLS on (Options KTLS in its config, the only switch OpenSSL
# 3.0's s_server and s_client have for it), the other is plain OpenSSL,
# then the roles swap.  Data goes client to server (s_server echoing to a
# file) and server to client (s_server -WWW, with -sendfile when the
# server is the kTLS end, which OpenSSL refuses unless kTLS TX is on), for
# TLS 1.2 and 1.3 with AES-GCM-128, AES-GCM-256 and ChaCha20-Poly1305.
#
# Each case passes when the bytes arrive identical and the kTLS counters
# show the kTLS end really handed its keys to the kernel: TlsTxSw +1 in
# every case, TlsRxSw +1 in TLS 1.2 (OpenSSL 3.0 offloads TLS 1.3 receive
# to no kernel: it decrypts 1.3 records itself), no decrypt errors.  A
# control run with kTLS off at both ends must leave the counters alone.

DIR=$(dirname "$(readlink -f "$0")")
# shellcheck source=lib.sh
source "$DIR/lib.sh"

SIZE=$((1024 * 1024 + 7))	# not a multiple of any record size
T=60			# seconds any one OpenSSL process may take

#	version	OpenSSL cipher name		label
CASES=(
	"1.2	ECDHE-ECDSA-AES128-GCM-SHA256	aes-gcm-128"
	"1.2	ECDHE-ECDSA-AES256-GCM-SHA384	aes-gcm-256"
	"1.2	ECDHE-ECDSA-CHACHA20-POLY1305	chacha20-poly1305"
	"1.3	TLS_AES_128_GCM_SHA256		aes-gcm-128"
	"1.3	TLS_AES_256_GCM_SHA384		aes-gcm-256"
	"1.3	TLS_CHACHA20_POLY1305_SHA256	chacha20-poly1305"
)

require_tls_stat
provider_start
tap_plan $(( ${#CASES[@]} * 4 + 2 ))

make_cert "$WORK" || { echo "Bail out! openssl req failed"; exit 1; }
random_file "$WORK/c2s.bin" "$SIZE"
random_file "$WORK/s2c.bin" "$SIZE"
# s_server reads its stdin too, and even with -quiet ends the connection
# at its EOF: give it a pipe that stays open and silent.
mkfifo "$WORK/hold"
exec 3<> "$WORK/hold"
: > "$WORK/plain.cnf"
cat > "$WORK/ktls.cnf" <<CNF
openssl_conf = init
[init]
ssl_conf = ssl
[ssl]
system_default = sys
[sys]
Options = KTLS
CNF

conf() { [ "$1" = "$2" ] && echo "$WORK/ktls.cnf" || echo "$WORK/plain.cnf"; }

proto_opts() {	# proto_opts VERSION CIPHER
	if [ "$1" = 1.3 ]; then
		echo "-tls1_3 -ciphersuites $2"
	else
		echo "-tls1_2 -cipher $2"
	fi
}

# The verdict on the counters: the kTLS end must have set TX, and RX where
# OpenSSL 3.0 offloads it (TLS 1.2); with kTLS off at both ends (side
# "none", the control) nothing may move, or the counters prove nothing.
check_stats() {	# check_stats BEFORE VERSION KTLS-SIDE: prints the problem, if any
	local tx rx derr
	tx=$(stat_delta "$1" TlsTxSw)
	rx=$(stat_delta "$1" TlsRxSw)
	derr=$(stat_delta "$1" TlsDecryptError)
	note "  tls_stat deltas: TlsTxSw +$tx TlsRxSw +$rx TlsDecryptError +$derr"
	if [ "$3" = none ]; then
		[ "$tx$rx" = 00 ] || echo "TlsTxSw +$tx TlsRxSw +$rx with kTLS off at both ends"
	elif [ "$tx" != 1 ]; then
		echo "TlsTxSw +$tx, want +1: OpenSSL did not use kTLS TX"
	elif [ "$2" = 1.2 ] && [ "$rx" != 1 ]; then
		echo "TlsRxSw +$rx, want +1: OpenSSL did not use kTLS RX"
	elif [ "$2" = 1.3 ] && [ "$rx" != 0 ]; then
		echo "TlsRxSw +$rx, want +0 (OpenSSL 3.0 keeps TLS 1.3 RX)"
	elif [ "$derr" != 0 ]; then
		echo "TlsDecryptError +$derr"
	fi
}

# Client to server: the client's stdin arrives on the server's stdout;
# -nocommands, or a chunk starting with Q, R or K is a command to s_client.
c2s() {	# c2s VERSION CIPHER KTLS-SIDE: prints the problem, if any
	local port=$NEXT_PORT opts spid cstat sstat
	opts=$(proto_opts "$1" "$2")
	next_port
	tls_stat_all > "$WORK/before"
	# shellcheck disable=SC2086
	OPENSSL_CONF=$(conf server "$3") timeout $T openssl s_server -quiet -naccept 1 \
		-accept "127.0.0.1:$port" -cert "$WORK/cert.pem" -key "$WORK/key.pem" \
		$opts < "$WORK/hold" > "$WORK/got" 2>> "$LOG" &
	spid=$!
	if ! wait_listen "$port" "$spid"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		echo "s_server did not start"
		return
	fi
	# shellcheck disable=SC2086
	OPENSSL_CONF=$(conf client "$3") timeout $T openssl s_client -quiet -no_ign_eof -nocommands \
		-connect "127.0.0.1:$port" -servername localhost $opts \
		< "$WORK/c2s.bin" > /dev/null 2>> "$LOG"
	cstat=$?
	wait "$spid"
	sstat=$?
	if [ "$cstat" != 0 ] || [ "$sstat" != 0 ]; then
		echo "s_client exit $cstat, s_server exit $sstat"
	elif ! cmp -s "$WORK/got" "$WORK/c2s.bin"; then
		echo "server got $(stat -c %s "$WORK/got") bytes, not the $SIZE sent"
	else
		check_stats "$WORK/before" "$1" "$3"
	fi
}

# Server to client: s_server -WWW serves the file to a GET.
s2c() {	# s2c VERSION CIPHER KTLS-SIDE: prints the problem, if any
	local port=$NEXT_PORT opts sendfile= spid cstat sstat total hdr
	opts=$(proto_opts "$1" "$2")
	next_port
	[ "$3" = server ] && sendfile=-sendfile
	tls_stat_all > "$WORK/before"
	# shellcheck disable=SC2086
	(cd "$WORK" && OPENSSL_CONF=$(conf server "$3") exec timeout $T openssl s_server \
		-WWW $sendfile -naccept 1 -accept "127.0.0.1:$port" -cert cert.pem \
		-key key.pem $opts < hold > /dev/null 2>> "$LOG") &
	spid=$!
	if ! wait_listen "$port" "$spid"; then
		kill "$spid" 2>/dev/null
		wait "$spid"
		echo "s_server did not start"
		return
	fi
	# shellcheck disable=SC2086
	printf 'GET /s2c.bin HTTP/1.0\r\n\r\n' |
		OPENSSL_CONF=$(conf client "$3") timeout $T openssl s_client -quiet \
		-connect "127.0.0.1:$port" -servername localhost $opts \
		> "$WORK/got" 2>> "$LOG"
	cstat=$?
	wait "$spid"
	sstat=$?
	total=$(stat -c %s "$WORK/got")
	hdr=$((total - SIZE))
	# s_client exits 1 on a peer that closes without close_notify, as
	# s_server -WWW does: the response itself is the verdict.
	if [ "$sstat" != 0 ]; then
		echo "s_server exit $sstat (s_client $cstat)"
	elif [ "$hdr" -le 0 ] || ! head -c "$hdr" "$WORK/got" | grep -qa '^HTTP/1.0 200'; then
		echo "client got $total bytes, no 200 response with the $SIZE-byte body"
	elif ! tail -c "$SIZE" "$WORK/got" | cmp -s - "$WORK/s2c.bin"; then
		echo "the body differs from the file"
	else
		check_stats "$WORK/before" "$1" "$3"
	fi
}

for c in "${CASES[@]}"; do
	read -r ver cipher label <<< "$c"
	for side in server client; do
		for dir in c2s s2c; do
			name="TLS $ver $label kTLS $side ${dir/2/ to }"
			name=${name/c to s/client to server}
			name=${name/s to c/server to client}
			note "== $name"
			why=$($dir "$ver" "$cipher" "$side")
			[ -n "$why" ] && note "  FAIL: $why"
			tap_result "$([ -z "$why" ] && echo 0 || echo 1)" "$name" "$why"
		done
	done
done
# The control: the same exchange without Options KTLS anywhere.
name="TLS 1.2 aes-gcm-128 kTLS at neither end client to server (control)"
note "== $name"
why=$(c2s 1.2 ECDHE-ECDSA-AES128-GCM-SHA256 none)
[ -n "$why" ] && note "  FAIL: $why"
tap_result "$([ -z "$why" ] && echo 0 || echo 1)" "$name" "$why"
provider_result
[ "$TAP_FAILED" = 0 ]
