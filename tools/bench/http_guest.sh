#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the HTTP bench VM (started by tools/bench/http_run): one
# Debian nginx binary, three configurations of it serving the same files
# with the same P-256 certificate, and the host's wrk against each in
# turn through QEMU's user network:
#   userspace  listen ... ssl: OpenSSL does the handshake and the records;
#   ktls       the same with "ssl_conf_command Options KTLS": OpenSSL
#              does the handshake and hands the record layer to the
#              kernel's "tls" ULP (ktls_hs.ko, later the in-tree tls.ko);
#   armed      a plain "listen PORT", the listener armed with
#              `ktls arm`: the kernel does the handshake and the records,
#              nginx reads and writes plaintext.
# sendfile is on in all three: nginx sends files with SSL_sendfile()
# (ktls), sendfile() (armed) or reads and SSL_write()s them (userspace).
#
# The host drives the runs; this script serves, answers the probe port
# and, when the host asks (a file $R/req-swap), swaps ktls_hs.ko for the
# in-tree tls.ko: the armed server goes, the ktls one stays and from then
# on gets tls.ko's record layer.  With http_run --perf the host asks for
# profiles of the vCPU too (files perf-req-NAME).
#
# Environment (set by tools/bench/http_run):
#   KTLS_REPORT   output directory, shared read-write with the host
#   KTLS_MODDIR   where ktls_hs.ko was built
#   KTLS_TOOL     the ktls administration tool
#   KTLS_SIZES    the files to serve, comma-separated NAME=BYTES

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
# hs_guest.sh's ports are 20443-20447; these are the same idea.
PORT_USER=20443
PORT_KTLS=20444
PORT_ARMED=20445
PROBE_PORT=20447
T=$(mktemp -d)
declare -A PID

cleanup() {
	local p
	for p in "${PID[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

fail() {	# fail REASON: the host reads it, the guest stops
	echo "error setup - $*" >> "$R/guest.txt"
	say "FAILED: $*"
	echo done > "$R/finished"
	exit 1
}

make_files() {
	local f

	mkdir -p "$T/www"
	for f in ${KTLS_SIZES//,/ }; do
		head -c "${f#*=}" /dev/urandom > "$T/www/${f%%=*}.bin" || return 1
	done
}

# start_nginx NAME PORT: Debian's nginx with a prefix of its own under
# $T/NAME (the guest's root is read-only), one worker for the one vCPU,
# no access log but for the requests that ask for one (the host's
# check of what was negotiated sends X-Bench-Log: 1), no tickets.
start_nginx() {
	local d=$T/$1 listen="listen $2 backlog=1024;" tls=

	case "$1" in
	userspace | ktls)
		listen="listen $2 ssl backlog=1024;"
		tls="ssl_certificate $T/srv.pem;
		ssl_certificate_key $T/srv.key;
		ssl_protocols TLSv1.3;
		ssl_ecdh_curve X25519;
		ssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256;
		ssl_session_tickets off;
		ssl_session_cache off;
		ssl_conf_command NumTickets 0;"
		;;
	esac
	[ "$1" = ktls ] && tls="$tls
		ssl_conf_command Options KTLS;"
	mkdir -p "$d/tmp"
	cat > "$d/nginx.conf" <<-CONF
	user root;
	worker_processes 1;
	daemon off;
	pid $d/nginx.pid;
	error_log $d/error.log warn;
	events {
		worker_connections 4096;
	}
	http {
		map \$http_x_bench_log \$bench_log {
			default 0;
			1 1;
		}
		log_format bench '\$ssl_protocol \$ssl_cipher \$ssl_curve \$status \$bytes_sent';
		access_log $d/access.log bench if=\$bench_log;
		sendfile on;
		keepalive_requests 1000000;
		client_body_temp_path $d/tmp/body;
		proxy_temp_path $d/tmp/proxy;
		fastcgi_temp_path $d/tmp/fastcgi;
		uwsgi_temp_path $d/tmp/uwsgi;
		scgi_temp_path $d/tmp/scgi;
		server {
			$listen
			$tls
			root $T/www;
		}
	}
	CONF
	nginx -p "$d" -e "$d/error.log" -c "$d/nginx.conf" 2>> "$R/nginx.err" &
	PID[$1]=$!
}

# The host asked for tls.ko: the armed server and its listener go (they
# hold ktls_hs), then every connection our module still carries, then
# the module.  The ktls server stays: its next connections ask for the
# "tls" ULP and get tls.ko's.
swap_to_intree() {
	local i

	cat /proc/net/tls_stat > "$R/tls_stat-ours.txt"
	cat /proc/net/ktls_hs_stat > "$R/ktls_hs_stat.txt"
	kill "${PID[armed]}"
	wait "${PID[armed]}" 2>/dev/null
	unset "PID[armed]"
	"$KTLS_TOOL" identity del bench > /dev/null 2>> "$R/ktls.err"
	for i in $(seq 300); do
		rmmod ktls_hs 2>/dev/null && break
		sleep 0.1
	done
	lsmod | grep -q '^ktls_hs ' && return 1
	modprobe tls
}

finish() {
	local s

	for s in "${!PID[@]}"; do
		kill -0 "${PID[$s]}" 2>/dev/null ||
			echo "error end - the $s server died" >> "$R/guest.txt"
	done
	dmesg > "$R/dmesg.txt"
	cat /proc/net/tls_stat > "$R/tls_stat-end.txt" 2>/dev/null
	for s in userspace ktls armed; do
		cp "$T/$s/access.log" "$R/access-$s.log" 2>/dev/null
		cp "$T/$s/error.log" "$R/error-$s.log" 2>/dev/null
	done
	echo done > "$R/finished"
	say "finished"
	exit 0
}

host_net || fail "no network device for the host's load"
say "booted: making the identity and the files, starting the servers"
make_identity 2> "$R/openssl.log" || fail "openssl could not make the identity"
make_files || fail "could not write the files"
ktls_insmod "$KTLS_MODDIR/ktls_hs.ko" 2>> "$R/insmod.err" || fail "insmod ktls_hs.ko: $(tail -1 "$R/insmod.err")"
"$KTLS_TOOL" identity add bench --cert "$T/srv.pem" --key "$T/srv.key" \
	> /dev/null 2>> "$R/ktls.err" ||
	fail "ktls identity add: $(tail -1 "$R/ktls.err")"

start_nginx userspace "$PORT_USER"
start_nginx ktls "$PORT_KTLS"
start_nginx armed "$PORT_ARMED"
wait_listen "$PORT_USER" "${PID[userspace]}" || fail "nginx (userspace) does not listen"
wait_listen "$PORT_KTLS" "${PID[ktls]}" || fail "nginx (ktls) does not listen"
wait_listen "$PORT_ARMED" "${PID[armed]}" || fail "nginx (armed) does not listen"
# The master holds the listener its worker shares: arming it once arms
# it for both.
"$KTLS_TOOL" arm --pid "${PID[armed]}" --port "$PORT_ARMED" --identity bench \
	> /dev/null 2>> "$R/ktls.err" ||
	fail "ktls arm: $(tail -1 "$R/ktls.err")"

# The probe: a line from the host, "stat", "show" or "conns", and the
# answer.  stat: the first line of /proc/stat, then /proc/net/tls_stat
# and /proc/net/ktls_hs_stat each on one line ("name value" pairs, empty
# where the module is not loaded); show: what `ktls show` says; conns:
# how many connections to the servers are not closed yet (a run's tail
# must not be billed to the next).
python3 -c '
import socket, subprocess, sys


def flat(path):
    try:
        with open(path, "rb") as f:
            return b" ".join(f.read().split())
    except OSError:
        return b""


def conns():
    # /proc/net/tcp: local address as hex ip:port, the state in hex;
    # 0A is LISTEN, 06 TIME_WAIT, 07 CLOSE.
    ports = {"%04X" % p for p in (20443, 20444, 20445)}
    n = 0
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fl = line.split()
            if fl[1].split(":")[1] in ports and fl[3] not in ("0A", "06", "07"):
                n += 1
    return b"%d\n" % n


ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("0.0.0.0", int(sys.argv[1])))
ls.listen(4)
while True:
    c, _ = ls.accept()
    cmd = c.makefile("rb").readline().strip()
    if cmd == b"conns":
        out = conns()
    elif cmd == b"show":
        out = subprocess.run([sys.argv[2], "show"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT).stdout
    else:
        with open("/proc/stat", "rb") as f:
            out = f.readline()
        out += flat("/proc/net/tls_stat") + b"\n"
        out += flat("/proc/net/ktls_hs_stat") + b"\n"
    c.sendall(out)
    c.close()
' "$PROBE_PORT" "$KTLS_TOOL" &
PID[probe]=$!
wait_listen "$PROBE_PORT" "${PID[probe]}" || fail "the probe does not listen on $PROBE_PORT"

echo ready > "$R/ready"
say "servers up: userspace on $PORT_USER, ktls on $PORT_KTLS, armed on $PORT_ARMED; load from the host"
while [ ! -e "$R/host-done" ]; do
	if [ -e "$R/req-swap" ]; then
		if swap_to_intree; then
			say "ktls_hs.ko out, tls.ko in"
			echo ok > "$R/swapped"
		else
			echo "failed: $(lsmod | grep -E '^(ktls_hs|tls) ')" > "$R/swapped"
		fi
		rm -f "$R/req-swap"
	fi
	for req in "$R"/perf-req-*; do
		[ -e "$req" ] || continue
		profile "${req##*/perf-req-}" "$(cat "$req")"
		rm -f "$req"
	done
	sleep 0.2
done
finish
