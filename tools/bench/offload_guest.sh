#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the guest tools/bench/offload_setup boots: ktls_hs.ko and
# the simulated offload NIC between two network namespaces, then, per TLS
# version and in three setups (offload off, on, on with a slow driver),
# tls_setup's setsockopt(TLS_TX)/(TLS_RX) times from bs1 and its accept()
# times on an armed listener in bs1 with an OpenSSL client in bs2.  The
# tables go to $KTLS_REPORT/table.txt.

set -u
# shellcheck source=../testing/selftests/net/ktls_hs/ktls_module.sh
. "$KTLS_KSFT/ktls_module.sh"
# shellcheck source=../testing/selftests/net/ktls_hs/hs_lib.sh
. "$KTLS_KSFT/hs_lib.sh"

R=$KTLS_REPORT
mkdir -p "$R"
exec > "$R/log.txt" 2>&1
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
ktls_insmod "$KTLS_MODDIR/ktls_hs.ko" || exit 1
insmod "$KTLS_MODDIR/ktls_sim.ko" || exit 1

ip netns add bs1 && ip netns add bs2 || exit 1
ip link add bsim type ktlssim || exit 1
ip link set bsim netns bs1 && ip link set bsimp netns bs2 || exit 1
ip -n bs1 link set lo up
ip -n bs2 link set lo up
ip -n bs1 addr add 10.76.0.1/24 dev bsim
ip -n bs2 addr add 10.76.0.2/24 dev bsimp
ip -n bs1 link set bsim up
ip -n bs2 link set bsimp up
DBG=/sys/kernel/debug/ktls_sim/bsim
PORT=20500

T=$(mktemp -d)
hs_make_ca "$T" && hs_make_identity "$T" srv www.example.test || exit 1
KEY=$(hs_load_identity "$T" srv) || exit 1

# adds: "TX RX", the tls_dev_add calls bsim has seen
adds() {
	ip netns exec bs1 ethtool -S bsim |
		awk '$1 == "tls_dev_add_tx:" { t = $2 }
		     $1 == "tls_dev_add_rx:" { r = $2 }
		     END { print t, r }'
}

# settle: wait until the device has seen no tls_dev_add for a second
# (at most 20), so that each row's counts are its own
settle() {
	local last now i

	last=$(adds)
	for i in $(seq 20); do
		sleep 1
		now=$(adds)
		[ "$now" = "$last" ] && return
		last=$now
	done
}

# setup OFFLOAD DELAY
setup() {
	ip netns exec bs1 ethtool -K bsim tls-hw-tx-offload "$1" \
		tls-hw-rx-offload "$1"
	echo "$2" > "$DBG/install_delay_ms"
}

# measure TABLE NAME VERSION SERVER... -- CLIENT...: runs SERVER in the
# background and CLIENT, appends NAME, VERSION, whichever of the two
# printed the times and the adds the device saw to $R/TABLE.
measure() {
	local table=$1 name=$2 v=$3 spid out a0 a1 i rc=0
	local -a srv=()

	shift 3
	while [ "$1" != -- ]; do srv+=("$1"); shift; done
	shift
	PORT=$((PORT + 1))
	read -r -a a0 <<< "$(adds)"
	"${srv[@]/@PORT@/$PORT}" > "$T/srv.out" &
	spid=$!
	# A client must not reach the listener before it is armed.
	for i in $(seq 100); do
		grep -q ready "$T/srv.out" && break
		sleep 0.1
	done
	"${@/@PORT@/$PORT}" > "$T/cli.out" || rc=1
	wait $spid || rc=1
	# tls_dev_add runs off the syscall path: let the last ones finish.
	settle
	read -r -a a1 <<< "$(adds)"
	out=$(grep -h '^n ' "$T/srv.out" "$T/cli.out")
	echo "$table $name $v: $out"
	[ $rc = 0 ] || { echo "FAILED: $table $name $v"; exit 1; }
	echo "$name|$v|$out|$((a1[0] - a0[0]))|$((a1[1] - a0[1]))" >> "$R/$table"
}

: > "$R/setsockopt"
: > "$R/accept"
for v in 13 12; do
	for s in off on slow; do
		case $s in
		off)	setup off 0; name="offload off (software)" ;;
		on)	setup on 0; name="offload on, instant driver" ;;
		slow)	setup on "$BENCH_DELAY"
			name="offload on, ${BENCH_DELAY} ms tls_dev_add" ;;
		esac
		measure setsockopt "$name" $v \
			ip netns exec bs2 "$BENCH_BIN" server 10.76.0.2 @PORT@ \
				"$BENCH_CONNS" -- \
			ip netns exec bs1 "$BENCH_BIN" client 10.76.0.2 @PORT@ \
				"$BENCH_CONNS" $v
		measure accept "$name" $v \
			ip netns exec bs1 "$BENCH_BIN" armed 10.76.0.1 @PORT@ \
				"$BENCH_HS" "$KEY" $v -- \
			ip netns exec bs2 "$BENCH_BIN" hsclient 10.76.0.1 @PORT@ \
				"$BENCH_HS" $v
	done
done
keyctl unlink "$KEY" @u > /dev/null

# The two tables, with each median as a multiple of the software row's.
awk -F'|' -v conns="$BENCH_CONNS" -v hs="$BENCH_HS" -v k="$(uname -r)" '
function f(s, key,   a, i, n) {
	n = split(s, a, " ")
	for (i = 1; i < n; i++)
		if (a[i] == key)
			return a[i + 1]
	return "?"
}
function ratio(m, sw) { return sw > 0 ? sprintf("%.2f", m / sw) : "?" }
FNR == 1 { file++ }
file == 1 {
	r = substr($3, index($3, " rx "))
	tx = f($3, "median"); rx = f(r, "median")
	if ($1 ~ /software/) { swtx[$2] = tx; swrx[$2] = rx }
	s1 = s1 sprintf("| %-28s | 1.%s | %6s | %6s | %6s | %5s | %6s | %6s | %6s | %5s | %5d | %5d |\n",
			$1, substr($2, 2), tx, f($3, "p90"), f($3, "max"),
			ratio(tx, swtx[$2]), rx, f(r, "p90"), f(r, "max"),
			ratio(rx, swrx[$2]), $4, $5)
}
file == 2 {
	m = f($3, "median")
	if ($1 ~ /software/) swacc[$2] = m
	s2 = s2 sprintf("| %-28s | 1.%s | %6s | %6s | %6s | %5s | %5d | %5d |\n",
			$1, substr($2, 2), m, f($3, "p90"), f($3, "max"),
			ratio(m, swacc[$2]), $4, $5)
}
END {
	print "setsockopt(SOL_TLS, TLS_TX) then (TLS_RX), AES-GCM-128, " \
	      conns - 1 " connections per row, kernel " k
	print "| setup                        | TLS | TX med | TX p90 | TX max | x sw  | RX med | RX p90 | RX max | x sw  | addTX | addRX |"
	print "| ---------------------------- | --- | ------ | ------ | ------ | ----- | ------ | ------ | ------ | ----- | ----- | ----- |"
	printf "%s", s1
	print ""
	print "accept() of a socket the in-kernel handshake keyed (armed listener, " \
	      "poll() first), AES-GCM-128, " hs - 1 " handshakes per row"
	print "| setup                        | TLS | median | p90    | max    | x sw  | addTX | addRX |"
	print "| ---------------------------- | --- | ------ | ------ | ------ | ----- | ----- | ----- |"
	printf "%s", s2
	print "(microseconds; x sw: median over the software row'"'"'s; addTX/addRX:"
	print " tls_dev_add calls the device saw, warm-up connections included)"
}' "$R/setsockopt" "$R/accept" > "$R/table.txt"
rm -rf "$T"
rmmod ktls_sim
rmmod ktls_hs
echo done
