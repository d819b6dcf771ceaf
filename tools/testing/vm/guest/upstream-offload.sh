#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The upstream tls.c suite with the simulated offload NIC in the path
# (run-suites.sh's upstream-offload suite).  tls.c connects to this host
# in one process; here it runs in a network namespace of its own where
# both ends of a ktlssim pair live, each with an address, and every such
# connection crosses the pair with TX and RX offload on:
#
#   - sim_redirect.so (LD_PRELOAD) turns tls.c's connect() to 0.0.0.0,
#     127.0.0.1, :: or ::1 into one to the peer end's address; listeners
#     bound to the wildcard accept there unchanged;
#   - policy rules ahead of the local table send what this host sends to
#     either address out of the other end ("iif lo" matches only what
#     the host itself sends, so what arrives on the pair is still
#     delivered locally); accept_local and no rp_filter let the receiving
#     end take packets from an address of its own host.
#
# Leaves upstream-offload.piece<N>.tap per piece of tls.c, as the
# upstream suite does, and upstream-offload.tap: the path is the pair,
# the device encrypted and decrypted records, the counters grew while
# the pieces ran (upstream-offload.counters holds a sample every 10 s).
#
# Environment: KTLS_REPORT, KTLS_UPSTREAM, KTLS_UPSTREAM_OFFLOAD_PIECES,
# KTLS_SIM_KO, KTLS_KSFT_OUT (sim_redirect.so), as run-suites.sh has them.

set -u
R=$KTLS_REPORT
NS=ktls-upoff
DEV=uo0
PEER=uo0p
A1=10.81.0.1
A2=10.81.0.2
B1=fd81::1
B2=fd81::2
MTU=65000
TAP=$R/upstream-offload.tap
SAMPLES=$R/upstream-offload.counters
N=0
RESULTS=()

result() {	# result ok|fail DESCRIPTION
	N=$((N + 1))
	RESULTS+=("$([ "$1" = ok ] || echo "not ")ok $N $2")
}

finish() {
	{
		echo "TAP version 13"
		echo "1..$N"
		printf '%s\n' "${RESULTS[@]}"
	} > "$TAP"
}

# ctr DEVICE NAME: one ethtool -S counter of an end of the pair
ctr() {
	ip netns exec "$NS" ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2 }'
}

tls_stat() {
	ip netns exec "$NS" awk -v k="$1" '$1 == k { print $2 }' /proc/net/tls_stat
}

# sample LABEL: the crypto both ends did so far, one line
sample() {
	echo "$1 enc $(($(ctr $DEV tx_tls_records_encrypted) + $(ctr $PEER tx_tls_records_encrypted)))" \
	     "dec $(($(ctr $DEV rx_tls_records_decrypted) + $(ctr $PEER rx_tls_records_decrypted)))" \
	     "TlsTxDevice $(tls_stat TlsTxDevice) TlsRxDevice $(tls_stat TlsRxDevice)" \
		>> "$SAMPLES"
}

setup() {
	local sysctl

	[ -e /sys/module/ktls_sim ] || insmod "$KTLS_SIM_KO" || return 1
	ip netns add "$NS" || return 1
	ip -n "$NS" link set lo up
	# Before the pair exists, so that its devices take them too.
	for sysctl in net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0 \
		      net.ipv4.conf.all.accept_local=1 net.ipv4.conf.default.accept_local=1; do
		ip netns exec "$NS" sysctl -qw "$sysctl" || return 1
	done
	ip -n "$NS" link add "$DEV" type ktlssim || return 1
	# Loopback's 64 KB frames, which tls.c's cases assume (sendmsg_large
	# queues 2 MB unread: with 9 KB segments the sender's buffer stops
	# growing long before, in software as with the device); most records
	# then fit in one frame, which is what the device decrypts.
	ip -n "$NS" link set "$DEV" mtu $MTU up
	ip -n "$NS" link set "$PEER" mtu $MTU up
	ip -n "$NS" addr add $A1/32 dev "$DEV"
	ip -n "$NS" addr add $A2/32 dev "$PEER"
	ip -n "$NS" addr add $B1/128 dev "$DEV" nodad
	ip -n "$NS" addr add $B2/128 dev "$PEER" nodad
	# A neighbour query would come from an address the answering host
	# owns too: static entries leave nothing to ARP's and ND's checks.
	ip -n "$NS" neigh replace $A2 lladdr "$(mac $PEER)" dev "$DEV" nud permanent
	ip -n "$NS" neigh replace $A1 lladdr "$(mac $DEV)" dev "$PEER" nud permanent
	ip -n "$NS" neigh replace $B2 lladdr "$(mac $PEER)" dev "$DEV" nud permanent
	ip -n "$NS" neigh replace $B1 lladdr "$(mac $DEV)" dev "$PEER" nud permanent
	route 4 $A2 $DEV $A1 100 && route 4 $A1 $PEER $A2 101 &&
		route 6 $B2 $DEV $B1 100 && route 6 $B1 $PEER $B2 101 || return 1
	for f in 4 6; do
		ip -n "$NS" -$f rule add pref 1000 lookup local &&
			ip -n "$NS" -$f rule del pref 0 || return 1
	done
}

mac() {
	ip -n "$NS" -br link show "$1" | awk '{ print $3 }'
}

# route 4|6 TO DEV SRC TABLE: what the host sends to TO leaves by DEV;
# the rule, numbered as its table, comes before the local table's (1000)
route() {
	ip -n "$NS" -"$1" route add "$2" dev "$3" src "$4" table "$5" &&
		ip -n "$NS" -"$1" rule add pref "$5" to "$2" iif lo lookup "$5"
}

# via TO DEV: whether the namespace's route to TO leaves by DEV
via() {
	ip -n "$NS" route get "$1" | grep -q " dev $2 "
}

cleanup() {
	ip netns del "$NS" 2>/dev/null
	rmmod ktls_sim 2>/dev/null
}

piece() {	# piece INDEX VARIANT
	local v=$2

	[ "$v" = @none ] && v=
	ip netns exec "$NS" env LD_PRELOAD="$KTLS_KSFT_OUT/sim_redirect.so" \
		KTLS_SIM_REDIRECT4=$A2 KTLS_SIM_REDIRECT6=$B2 \
		"$KTLS_UPSTREAM" -v "$v" > "$R/upstream-offload.piece$1.tap" 2>&1
}

if ! setup; then
	result fail "set up the ktlssim pair and the routes over it"
	cleanup
	finish
	exit 1
fi
via $A2 $DEV && via $A1 $PEER && via $B2 $DEV && via $B1 $PEER
result "$([ $? = 0 ] && echo ok)" "this host's traffic to the pair's addresses leaves by the pair"

: > "$SAMPLES"
(
	while :; do
		sample "+${SECONDS}s:"
		sleep 10
	done
) &
sampler=$!
export -f piece
export R NS A2 B2 KTLS_UPSTREAM KTLS_KSFT_OUT
awk '{ print NR - 1, $1 }' "$KTLS_UPSTREAM_OFFLOAD_PIECES" |
	xargs -P "$(nproc)" -L 1 bash -c 'piece "$@"' _
kill $sampler
wait $sampler 2>/dev/null
sample "end:"

ip netns exec "$NS" ethtool -S "$DEV" > "$R/upstream-offload.ethtool-$DEV"
ip netns exec "$NS" ethtool -S "$PEER" > "$R/upstream-offload.ethtool-$PEER"
ip netns exec "$NS" cat /proc/net/tls_stat > "$R/upstream-offload.tls_stat"
enc=$(($(ctr $DEV tx_tls_records_encrypted) + $(ctr $PEER tx_tls_records_encrypted)))
dec=$(($(ctr $DEV rx_tls_records_decrypted) + $(ctr $PEER rx_tls_records_decrypted)))
result "$([ "$enc" -gt 0 ] && echo ok)" "the device encrypted records ($enc)"
result "$([ "$dec" -gt 0 ] && echo ok)" "the device decrypted records ($dec)"
txdev=$(tls_stat TlsTxDevice)
rxdev=$(tls_stat TlsRxDevice)
result "$([ "$txdev" -gt 0 ] && echo ok)" "sockets moved TX to the device (TlsTxDevice $txdev)"
result "$([ "$rxdev" -gt 0 ] && echo ok)" "sockets offloaded RX (TlsRxDevice $rxdev)"
# The device worked all along, not once: the encryptions counted rose
# between several of the samples.
grew=$(awk '{ print $3 }' "$SAMPLES" | uniq | wc -l)
result "$([ "$grew" -gt 2 ] && echo ok)" "the counters grew during the run ($grew distinct samples)"
cleanup
finish
