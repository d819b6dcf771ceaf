#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the handshake bench VM (started by tools/bench/hs_run): two
# HTTPS servers serving the same P-256 certificate and the same 1 KB file,
# ours (samples/ktls_hs/https_server on an armed listener, the handshake
# in the kernel) and Debian's nginx (OpenSSL in userspace, TLS 1.2 and
# 1.3, X25519), and hs_load against each in turn.  Each server runs
# three times: without session tickets, for the full handshakes, with
# them, for the resumed ones, and without them asking every client for a
# certificate under the bench CA (nginx's ssl_verify_client on; ours
# --client-auth required with a "ktls_trust" key of the CA), for the
# mutual-TLS handshakes.  Each case runs against one
# server and straight after against the other, so that each pair sees the
# same load on the host and the driver can compare pairs; which server
# goes first alternates from round to round for each case, so that an
# advantage of going first or second (the first run of a pair follows a
# run of the other case) cannot pass for one of the servers.  Both
# servers listen all along; the idle one costs nothing once it has
# settled.
#
# Environment (set by tools/bench/hs_run):
#   KTLS_REPORT   output directory, shared read-write with the host
#   KTLS_MODDIR   where ktls_hs.ko was built
#   KTLS_BIN      where https_server and hs_load were built
#   KTLS_SERVERS  the two servers, comma-separated: ours, nginx
#   KTLS_ROUNDS   how many pairs of runs each case gets
#   KTLS_WARMUP   seconds of load before each run starts counting
#   KTLS_SECONDS  how long each run counts
#   KTLS_CONNS    connections hs_load keeps in flight
#   KTLS_PIN      1: servers on CPU 0, hs_load on CPU 1
#   KTLS_CLIENT   lite (hs_load -L) or openssl, for the TLS 1.3 full
#                 handshakes; the other cases always use openssl
#   KTLS_CASES    the cases, comma-separated: handshake, get (TLS 1.3),
#                 full12 (TLS 1.2), resume13, resume12 (resumed, from
#                 the servers with tickets), hybrid13 (TLS 1.3 offering
#                 X25519MLKEM768, hs_load -L -M), mtls13 (TLS 1.3 with
#                 a client certificate, against the client-auth servers)
#   KTLS_CLIENT_AT  guest: hs_load runs here; host: the host runs it
#                 through QEMU's user network and forwarded ports, and
#                 this script only serves until $R/host-done appears

set -u
say() { echo "ktls-vm: $*"; }
BENCH=$(dirname "$(readlink -f "$0")")
# shellcheck source=guest_lib.sh
. "$BENCH/guest_lib.sh"
# shellcheck source=../testing/selftests/net/ktls_hs/ktls_module.sh
. "$BENCH/../testing/selftests/net/ktls_hs/ktls_module.sh"

R=$KTLS_REPORT
mkdir -p "$R"
ip link set lo up
read -r -a S <<< "${KTLS_SERVERS//,/ }"
# The two servers without tickets, the same two with them, and the two
# asking for client certificates.
PORTS=(20443 20444 20445 20446 20448 20449)
SLOTS=$(seq 0 $((${#PORTS[@]} - 1)))
# ss's filter for a connection to any of them.
SPORTS=$(printf 'sport = :%s or ' "${PORTS[@]}")
SPORTS=${SPORTS% or }
# With the load from the host: where it reads the vCPU's busy time.
CPU_PORT=20447
IFS=, read -r -a CASES <<< "${KTLS_CASES:-handshake,get}"
T=$(mktemp -d)
PIDS=()
KEY=
TRUST=

cleanup() {
	local p k
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for k in $KEY $TRUST; do keyctl unlink "$k" @u >/dev/null 2>&1; done
	rm -rf "$T"
}
trap cleanup EXIT

fail() {	# fail REASON: both runs get it, the guest stops
	local i
	for i in 1 2; do echo "error setup - $*" >> "$R/run$i.txt"; done
	say "FAILED: $*"
	echo done > "$R/finished"
	exit 1
}

finish() {	# the servers must have lived through it all
	local slot

	for slot in $SLOTS; do
		kill -0 "${PIDS[$slot]}" 2>/dev/null ||
			echo "error end - the ${S[$((slot % 2))]} server died" >> "$R/run$((slot % 2 + 1)).txt"
	done
	dmesg > "$R/dmesg.txt"
	[ -e /proc/net/tls_stat ] && cat /proc/net/tls_stat > "$R/tls_stat.txt"
	# How ours ended its handshakes: the why of a failed connection.
	[ -e /proc/net/ktls_hs_stat ] && cat /proc/net/ktls_hs_stat > "$R/ktls_hs_stat.txt"
	echo done > "$R/finished"
	say "finished"
	exit 0
}

if [ "${KTLS_CLIENT_AT:-guest}" = host ]; then
	host_net || fail "no network device for the host's load"
fi

server_pin=()
load_pin=()
if [ "${KTLS_PIN:-0}" = 1 ]; then
	server_pin=(taskset -c 0)
	load_pin=(taskset -c 1)
fi

# Debian's nginx as the issue has it: X25519, no access log, a worker per
# CPU; TLS 1.3, and TLS 1.2 for its own case.  Without tickets unless
# asked: the full handshakes then cost no ticket on either server.  With
# them, stateless tickets as ours are (no session cache), one per
# handshake as ours sends.  With client auth, a certificate under the
# bench CA required, the CA's name in the request as ours sends it.
# Everything it writes lives under $T/nginx-PORT (the guest's root is
# read-only).
start_nginx() {	# start_nginx PORT TICKETS(0|1) CLIENT_AUTH(0|1)
	local d=$T/nginx-$1 tickets="ssl_session_tickets off;" num=0 auth=

	[ "$2" = 1 ] && tickets="ssl_session_tickets on;" num=1
	[ "$3" = 1 ] &&
		auth="ssl_client_certificate $T/ca.pem; ssl_verify_client on;"

	mkdir -p "$d/tmp"
	cat > "$d/nginx.conf" <<-CONF
	user root;
	worker_processes auto;
	daemon off;
	pid $d/nginx.pid;
	error_log $d/error.log warn;
	events {
		worker_connections 4096;
	}
	http {
		access_log off;
		client_body_temp_path $d/tmp/body;
		proxy_temp_path $d/tmp/proxy;
		fastcgi_temp_path $d/tmp/fastcgi;
		uwsgi_temp_path $d/tmp/uwsgi;
		scgi_temp_path $d/tmp/scgi;
		server {
			listen $1 ssl backlog=1024;
			ssl_certificate $T/srv.pem;
			ssl_certificate_key $T/srv.key;
			ssl_protocols TLSv1.2 TLSv1.3;
			ssl_ecdh_curve X25519:prime256v1;
			$tickets
			ssl_session_cache off;
			ssl_conf_command NumTickets $num;
			$auth
			root $T/www;
		}
	}
	CONF
	"${server_pin[@]}" nginx -p "$d" -e "$d/error.log" -c "$d/nginx.conf" \
		2>> "$R/nginx.err" &
	PIDS+=($!)
}

start_ours() {	# start_ours PORT TICKETS(0|1) CLIENT_AUTH(0|1)
	local opts=()

	[ "$2" = 1 ] && opts=(--tickets 3600)
	[ "$3" = 1 ] &&
		opts+=(--client-ca "$TRUST" --client-auth required --ca-names)
	"${server_pin[@]}" "$KTLS_BIN/https_server" --port "$1" \
		--root "$T/www" --key "$KEY" "${opts[@]}" \
		>/dev/null 2>> "$R/ours.err" &
	PIDS+=($!)
}

# What each server really negotiates, for the report: the comparison
# means something only if both do TLS 1.3 with X25519, AES-128-GCM and
# an ECDSA P-256 signature, and neither sends tickets.
negotiated() {	# negotiated PORT
	local out

	out=$(printf 'GET /1k.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' |
		timeout 30 openssl s_client -connect "127.0.0.1:$1" -tls1_3 \
			-groups X25519 -ciphersuites TLS_AES_128_GCM_SHA256 \
			-CAfile "$T/ca.pem" -ign_eof 2>&1 | tr -d '\0')
	printf '%s %s %s %s verify=%s tickets=%s http=%s\n' \
		"$(grep -m1 -o 'New, TLSv[0-9.]*' <<< "$out" | cut -d' ' -f2)" \
		"$(grep -m1 -o 'Cipher is [A-Z0-9_]*' <<< "$out" | cut -d' ' -f3)" \
		"$(grep -m1 -o 'Server Temp Key: [^,]*' <<< "$out" | cut -d' ' -f4)" \
		"$(grep -m1 -o 'Peer signature type: .*' <<< "$out" | cut -d' ' -f4)" \
		"$(grep -m1 -o 'Verify return code: [0-9]*' <<< "$out" | cut -d' ' -f4)" \
		"$(grep -c 'Post-Handshake New Session Ticket' <<< "$out")" \
		"$(grep -m1 -o 'HTTP/1.1 [0-9]*' <<< "$out" | cut -d' ' -f2)"
}

# Whether a client-auth server takes the bench client's certificate and
# refuses a client without one: a 200 with it, no handshake without.
client_auth_ok() {	# client_auth_ok PORT
	local get='GET /1k.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'

	printf "$get" | timeout 30 openssl s_client -connect "127.0.0.1:$1" \
		-tls1_3 -cert "$T/cli.pem" -key "$T/cli.key" -ign_eof 2>&1 |
		grep -q '^HTTP/1.1 200' || return 1
	! printf "$get" | timeout 30 openssl s_client -connect "127.0.0.1:$1" \
		-tls1_3 -ign_eof 2>&1 | grep -q '^HTTP/1.1 200'
}

# hs_load's arguments for CASE against SLOT's server (0 or 1): the port
# of that server with or without tickets or client auth, and the
# protocol.
case_args() {	# case_args SLOT CASE
	case "$2" in
	handshake) echo "-p ${PORTS[$1]}" ;;
	get) echo "-p ${PORTS[$1]} -g /1k.bin -l 1024" ;;
	full12) echo "-p ${PORTS[$1]} -2" ;;
	resume13) echo "-p ${PORTS[$(($1 + 2))]} -r" ;;
	resume12) echo "-p ${PORTS[$(($1 + 2))]} -2 -r" ;;
	hybrid13) echo "-p ${PORTS[$1]} -L -M" ;;
	mtls13) echo "-p ${PORTS[$(($1 + 4))]} -C $T/cli.pem -K $T/cli.key" ;;
	esac
	# hs_lite speaks full TLS 1.3 handshakes only.
	case "$2" in
	handshake | get) [ "${KTLS_CLIENT:-lite}" = lite ] && echo "-L" ;;
	esac
}

run_load() {	# run_load SLOT CASE WARMUP SECONDS [OUT]: hs_load against SLOT
	local args=(-c "$KTLS_CONNS" -t "$(nproc)" -w "$3" -d "$4")

	# shellcheck disable=SC2207
	args+=($(case_args "$1" "$2"))
	"${load_pin[@]}" "$KTLS_BIN/hs_load" "${args[@]}" >> "${5:-/dev/null}" \
		2>> "$R/run$(($1 + 1)).err"
}

# Until no connection to either server is left (at most 20 s): those
# hs_load dropped at its deadline can still cost a server a handshake
# each, which must not be billed to the next run.
settle() {
	local i

	for i in $(seq 200); do
		ss -Htn state established state syn-recv state close-wait \
			"( $SPORTS )" |
			grep -q . || return 0
		sleep 0.1
	done
}

bench() {	# bench SLOT CASE: one measured run
	local out=$R/run$(($1 + 1)).txt st

	settle
	if ! kill -0 "${PIDS[$1]}" 2>/dev/null; then
		echo "error $2 - the ${S[$1]} server is gone" >> "$out"
		return
	fi
	run_load "$1" "$2" "$KTLS_WARMUP" "$KTLS_SECONDS" "$out"
	st=$?
	[ "$st" = 0 ] || echo "status $st" >> "$out"
}

for slot in 0 1; do echo "server ${S[$slot]}" > "$R/run$((slot + 1)).txt"; done
say "booted: making the identity, starting the servers"
make_identity 2> "$R/openssl.log" || fail "openssl could not make the identity"
make_client_identity 2>> "$R/openssl.log" ||
	fail "openssl could not make the client certificate"
# For hs_load on the host.
cp "$T/cli.pem" "$T/cli.key" "$R/"
mkdir -p "$T/www"
head -c 1024 /dev/urandom > "$T/www/1k.bin"
if [[ " ${S[*]} " == *" ours "* ]]; then
	ktls_insmod "$KTLS_MODDIR/ktls_hs.ko" 2>> "$R/insmod.err" ||
		fail "insmod ktls_hs.ko: $(tail -1 "$R/insmod.err")"
	# @u: a session keyring keyctl made for itself would die with it,
	# and take the key along before the listener looks it up.
	KEY=$(keyctl padd ktls_identity ktls-hs-bench @u < "$T/srv.bundle") ||
		fail "keyctl padd ktls_identity failed"
	TRUST=$(keyctl padd ktls_trust ktls-hs-bench-clients @u < "$T/ca.pem") ||
		fail "keyctl padd ktls_trust failed"
fi
for slot in $SLOTS; do
	srv=${S[$((slot % 2))]}
	tickets=$((slot / 2 == 1)) auth=$((slot / 2 == 2))
	case "$srv" in
	ours) start_ours "${PORTS[$slot]}" $tickets $auth ;;
	nginx) start_nginx "${PORTS[$slot]}" $tickets $auth ;;
	*) fail "unknown server $srv" ;;
	esac
	wait_listen "${PORTS[$slot]}" "${PIDS[$slot]}" ||
		fail "the $srv server does not listen on ${PORTS[$slot]}"
	[ "$slot" -lt 2 ] &&
		echo "negotiated $(negotiated "${PORTS[$slot]}")" >> "$R/run$((slot + 1)).txt"
	[ "$auth" = 1 ] && ! client_auth_ok "${PORTS[$slot]}" &&
		fail "the $srv server with client auth does not take the bench client alone"
done

if [ "${KTLS_CLIENT_AT:-guest}" = host ]; then
	# The host reads how busy the vCPU was around each counted run, and
	# how our handshakes ended around each run: the first line of
	# /proc/stat, then /proc/net/ktls_hs_stat on one line ("name value"
	# pairs, empty without the module), one connection a reading.
	python3 -c '
import socket, sys
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("0.0.0.0", int(sys.argv[1])))
ls.listen(4)
while True:
    c, _ = ls.accept()
    with open("/proc/stat", "rb") as f:
        line = f.readline()
    try:
        with open("/proc/net/ktls_hs_stat", "rb") as f:
            hs = b" ".join(f.read().split())
    except OSError:
        hs = b""
    c.sendall(line + hs + b"\n")
    c.close()
' "$CPU_PORT" &
	PIDS+=($!)
	wait_listen "$CPU_PORT" "$!" || fail "the CPU probe does not listen on $CPU_PORT"
	# The host drives the load and writes the results; we serve until it
	# is done (its own limit ends the boot if it never is).  With
	# --perf it asks for a profile of the vCPU now and then: a file
	# perf-req-NAME holding the seconds, answered by perf-on-NAME once perf
	# runs and by perf-NAME.txt at the end.
	echo ready > "$R/ready"
	say "servers up: ${S[0]} on ${PORTS[0]}, ${PORTS[2]}, ${PORTS[4]}, ${S[1]} on ${PORTS[1]}, ${PORTS[3]}, ${PORTS[5]}; load from the host"
	while [ ! -e "$R/host-done" ]; do
		for req in "$R"/perf-req-*; do
			[ -e "$req" ] || continue
			profile "${req##*/perf-req-}" "$(cat "$req")"
			rm -f "$req"
		done
		sleep 0.2
	done
	finish
fi

# Page in both servers and the client, fill nginx's and our pools.
for slot in 0 1; do
	for c in "${CASES[@]}"; do run_load "$slot" "$c" 0 1; done
done
say "servers up and warm: ${S[0]} on ${PORTS[0]}, ${PORTS[2]}, ${PORTS[4]}, ${S[1]} on ${PORTS[1]}, ${PORTS[3]}, ${PORTS[5]} (+${SECONDS}s)"

n=0
for round in $(seq "$KTLS_ROUNDS"); do
	first=$((round % 2))
	for c in "${CASES[@]}"; do
		n=$((n + 1))
		first=$((1 - first))
		echo "pair $n" | tee -a "$R/run1.txt" >> "$R/run2.txt"
		if [ "$first" = 0 ]; then
			bench 0 "$c"; bench 1 "$c"
		else
			bench 1 "$c"; bench 0 "$c"
		fi
	done
	say "round $round/$KTLS_ROUNDS done"
done

finish
