#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the guest tools/bench/offload_setup boots: ktls_hs.ko and
# the simulated offload NIC between two network namespaces, then
# tls_setup over it in three setups (offload off, on, on with a slow
# driver), each TLS version; the table goes to $KTLS_REPORT/table.txt.

set -u
# shellcheck source=../testing/selftests/net/ktls_hs/ktls_module.sh
. "$KTLS_KSFT/ktls_module.sh"

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

adds() {
	ip netns exec bs1 ethtool -S bsim | awk '$1 == "tls_dev_add_tx:" { print $2 }'
}

# row NAME OFFLOAD DELAY VERSION
row() {
	local a0 line spid

	ip netns exec bs1 ethtool -K bsim tls-hw-tx-offload "$2"
	echo "$3" > "$DBG/install_delay_ms"
	PORT=$((PORT + 1))
	ip netns exec bs2 "$BENCH_BIN" server 10.76.0.2 $PORT "$BENCH_CONNS" &
	spid=$!
	a0=$(adds)
	line=$(ip netns exec bs1 "$BENCH_BIN" client 10.76.0.2 $PORT \
		"$BENCH_CONNS" "$4")
	wait $spid
	# tls_dev_add runs off the syscall path: let the last ones finish.
	sleep 1
	echo "$line"
	awk -v n="$1" -v v="1.${4#1}" -v a=$(($(adds) - a0)) \
		'{ printf "| %-28s | TLS %s | %6s | %6s | %6s | %5d |\n", n, v, $4, $6, $8, a }' \
		<<< "$line" >> "$R/table.rows"
}

: > "$R/table.rows"
for v in 13 12; do
	row "offload off (software)" off 0 $v
	row "offload on, instant driver" on 0 $v
	row "offload on, ${BENCH_DELAY} ms tls_dev_add" on "$BENCH_DELAY" $v
done
{
	echo "setsockopt(TLS_TX), AES-GCM-128, $BENCH_CONNS connections each," \
	     "kernel $(uname -r)"
	echo "| setup                        | TLS     | median | p90    | max    | adds  |"
	echo "| ---------------------------- | ------- | ------ | ------ | ------ | ----- |"
	cat "$R/table.rows"
	echo "(microseconds; adds: tls_dev_add calls the device saw)"
} > "$R/table.txt"
rmmod ktls_sim
rmmod ktls_hs
echo done
