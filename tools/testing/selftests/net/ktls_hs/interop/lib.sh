#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by the interop tests: TAP output, the kTLS counters of
# /proc/net/tls_stat (made by whichever provider is loaded: the tests prove
# that a peer really used kTLS from their deltas), free ports, and waiting
# for a server to listen.

TAP_N=0
TAP_FAILED=0
WORK=$(mktemp -d /tmp/ktls-interop.XXXXXX)
LOG=${KTLS_INTEROP_LOG:-/dev/stderr}
trap 'rm -rf "$WORK"' EXIT

tap_plan() { echo "TAP version 13"; echo "1..$1"; }

tap_result() {	# tap_result 0|1 description [reason]
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $TAP_N $2"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		echo "not ok $TAP_N $2${3:+ ($3)}"
	fi
}

note() { echo "$*" >> "$LOG"; }

tls_stat() {	# tls_stat NAME: the counter's value
	awk -v n="$1" '$1 == n { print $2 }' /proc/net/tls_stat
}

# Every counter, one "name value" a line, for deltas across a test.
tls_stat_all() { cat /proc/net/tls_stat; }

stat_delta() {	# stat_delta BEFORE-FILE NAME
	local before now
	before=$(awk -v n="$2" '$1 == n { print $2 }' "$1")
	now=$(tls_stat "$2")
	echo $((now - before))
}

NEXT_PORT=${KTLS_INTEROP_PORT:-20443}
next_port() { NEXT_PORT=$((NEXT_PORT + 1)); }

wait_listen() {	# wait_listen PORT PID: 0 once PORT listens, 1 if PID died or 30 s passed
	local i
	for i in $(seq 300); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# A self-signed P-256 certificate for localhost, made fresh for each run.
make_cert() {	# make_cert DIR
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$1/key.pem" -out "$1/cert.pem" -days 1 -subj /CN=localhost \
		-addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>> "$LOG"
}

random_file() {	# random_file PATH BYTES
	head -c "$2" /dev/urandom > "$1"
}

require_tls_stat() {
	if [ ! -r /proc/net/tls_stat ]; then
		echo "Bail out! no /proc/net/tls_stat: no kTLS provider is loaded"
		exit 1
	fi
}

# The counters prove kTLS was used, this proves by whom: exactly one
# provider loaded, the same one as when the script started.
PROVIDER_AT_START=
ktls_providers() {
	local m p=
	for m in ktls_hs tls; do [ -e "/sys/module/$m" ] && p+="$m "; done
	echo "${p% }"
}

provider_start() { PROVIDER_AT_START=$(ktls_providers); }

provider_result() {
	local now
	now=$(ktls_providers)
	if [ -n "$now" ] && [ "${now// /}" = "$now" ] && [ "$now" = "$PROVIDER_AT_START" ]; then
		tap_result 0 "one kTLS provider throughout: $now"
	else
		tap_result 1 "one kTLS provider throughout" "at start '$PROVIDER_AT_START', now '$now'"
	fi
}
