#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kTLS device offload over the simulated NIC (drivers/net/ktls_sim.c): a
# ktlssim pair between two network namespaces, TLS 1.2 and 1.3 AES-GCM
# streams sent with send() and sendfile(), checked byte for byte at the
# other end (by kTLS, or by OpenSSL opening the records itself), and the
# device's ethtool -S counters checked to show that the device did the
# crypto; then with frames dropped and reordered, with resyncs forced,
# with the device refusing offload (software fallback), with a slow
# install, and with the device going down and up, or away, mid-stream
# (the stream goes on in software, byte for byte).
#
# Runs against whichever TLS provider is loaded, ktls_hs.ko or the in-tree
# tls.ko; the in-tree one offloads TLS 1.2 only, so for 1.3 it must fall
# back to software and the device must stay idle.  ktls_hs offloads TX
# only (RX offload is not in yet), so RX counters are checked against
# tls.ko alone.  ktls_sim.ko is loaded
# from KTLS_SIM_KO unless loaded already.  insmod, not ktls_insmod: its
# dependency is the TLS provider, and modprobe would pull in tls.ko.

BIN=${KTLS_KSFT_OUT:-$(dirname "$(readlink -f "$0")")}
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

if [ -e /sys/module/ktls_hs ]; then
	PROVIDER=ktls_hs
elif [ -e /sys/module/tls ]; then
	PROVIDER=tls
else
	ktap_exit_fail_msg "no TLS provider loaded (ktls_hs.ko or tls.ko)"
fi
if [ ! -e /sys/module/ktls_sim ]; then
	insmod "${KTLS_SIM_KO:?KTLS_SIM_KO must name ktls_sim.ko}" ||
		ktap_exit_fail_msg "cannot load $KTLS_SIM_KO"
fi
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

DEV=ks$$
PEER=${DEV}p
NS1=ksim1-$$
NS2=ksim2-$$
DBG1=/sys/kernel/debug/ktls_sim/$DEV
DBG2=/sys/kernel/debug/ktls_sim/$PEER
A1=10.77.0.1
A2=10.77.0.2
# Below the ephemeral range (32768+), where a client of ours may hold it.
PORT=$((20000 + RANDOM % 10000))
T=$(mktemp -d)

cleanup() {
	ip netns del "$NS1" 2>/dev/null
	ip netns del "$NS2" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ip netns add "$NS1" && ip netns add "$NS2" ||
	ktap_exit_fail_msg "cannot create network namespaces"
ip -n "$NS1" link set lo up
ip -n "$NS2" link set lo up

# The second path, a veth pair without offload, and the addresses V1 and
# V2 on lo that both paths lead to: a stream between them survives the
# simulated pair going away, its packets then leaving by veth.
V1=10.79.0.1
V2=10.79.0.2
ip link add vks$$ type veth peer name vks$$p &&
	ip link set vks$$ netns "$NS1" && ip link set vks$$p netns "$NS2" ||
	ktap_exit_fail_msg "cannot create the veth pair"
ip -n "$NS1" addr add 10.78.0.1/24 dev vks$$
ip -n "$NS2" addr add 10.78.0.2/24 dev vks$$p
ip -n "$NS1" link set vks$$ mtu 9000 up
ip -n "$NS2" link set vks$$p mtu 9000 up
ip -n "$NS1" addr add $V1/32 dev lo
ip -n "$NS2" addr add $V2/32 dev lo
ip -n "$NS1" route add $V2/32 via 10.78.0.2 src $V1 metric 20
ip -n "$NS2" route add $V1/32 via 10.78.0.1 src $V2 metric 20

# sim_up: the simulated pair, its addresses, and the preferred routes
# between V1 and V2 over it.
sim_up() {
	local n ns d a

	ip link add "$DEV" type ktlssim || return
	ip link set "$DEV" netns "$NS1" && ip link set "$PEER" netns "$NS2" ||
		return
	# A jumbo MTU lets records of a few KB fit in one frame, which is
	# what RX offload decrypts; 16 KB records span frames and exercise
	# the fallback.
	for n in 1 2; do
		ns=NS$n; ns=${!ns}
		d=$([ $n = 1 ] && echo "$DEV" || echo "$PEER")
		a=A$n; a=${!a}
		ip -n "$ns" link set "$d" mtu 9000 up
		ip -n "$ns" addr add "$a/24" dev "$d"
		ip -n "$ns" addr add "fd77::$n/64" dev "$d" nodad
	done
	ip -n "$NS1" route add $V2/32 via $A2 src $V1 metric 10
	ip -n "$NS2" route add $V1/32 via $A1 src $V2 metric 10
}

sim_up || ktap_exit_fail_msg "cannot set up the ktlssim pair"

# ctr 1|2 NAME: one ethtool -S counter of the sending or receiving end,
# from the dumps snap takes.
ctr() {
	local dump=E$1

	awk -v k="$2:" '$1 == k { print $2 }' <<< "${!dump}"
}

snap() {
	E1=$(ip netns exec "$NS1" ethtool -S "$DEV")
	E2=$(ip netns exec "$NS2" ethtool -S "$PEER")
	S_TXREC=$(ctr 1 tx_tls_records_encrypted)
	S_TXBYTES=$(ctr 1 tx_tls_bytes)
	S_TXOOO=$(ctr 1 tx_tls_ooo)
	S_TXRSQ=$(ctr 1 tx_tls_resync_req)
	S_TXRS=$(ctr 1 tx_tls_resync)
	S_TXMIS=$(ctr 1 tx_tls_resync_mismatch)
	S_RXREC=$(ctr 2 rx_tls_records_decrypted)
	S_RXRSQ=$(ctr 2 rx_tls_resync_req)
	S_RXRS=$(ctr 2 rx_tls_resync)
	S_RXAUTH=$(ctr 2 rx_tls_auth_fail)
	S_DROP=$(ctr 1 wire_dropped)
	S_REORD=$(ctr 1 wire_reordered)
	S_REFUSED=$(($(ctr 1 tls_dev_add_refused) + $(ctr 2 tls_dev_add_refused)))
	S_ADD=$(($(ctr 1 tls_dev_add_tx) + $(ctr 2 tls_dev_add_rx)))
	S_DEL=$(($(ctr 1 tls_dev_del_tx) + $(ctr 2 tls_dev_del_rx)))
	S_ADDFAIL=$(($(ctr 1 tls_dev_add_fail) + $(ctr 2 tls_dev_add_fail)))
}

# delta: the counters since the last snap, as D_<name>.
delta() {
	local v
	local -A before=([TXREC]=$S_TXREC [TXBYTES]=$S_TXBYTES [TXOOO]=$S_TXOOO
		[TXRSQ]=$S_TXRSQ [TXRS]=$S_TXRS [TXMIS]=$S_TXMIS [RXREC]=$S_RXREC
		[RXRSQ]=$S_RXRSQ [RXRS]=$S_RXRS [RXAUTH]=$S_RXAUTH [DROP]=$S_DROP
		[REORD]=$S_REORD [REFUSED]=$S_REFUSED [ADD]=$S_ADD [DEL]=$S_DEL
		[ADDFAIL]=$S_ADDFAIL)

	snap
	for v in "${!before[@]}"; do
		local now=S_$v

		printf -v "D_$v" '%s' $((${!now} - ${before[$v]}))
	done
}

# xfer ADDR RECV_ARGS -- SEND_ARGS: one stream from NS1 to NS2; 0 if intact.
xfer() {
	local addr=$1 rargs=() sargs=() rpid rc
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do rargs+=("$1"); shift; done
	shift
	sargs=("$@")
	PORT=$((PORT + 1))
	ip netns exec "$NS2" "$BIN/sim_peer" recv -a "$addr" -p "$PORT" \
		"${rargs[@]}" > "$T/recv.out" 2>&1 &
	rpid=$!
	ip netns exec "$NS1" timeout 180 "$BIN/sim_peer" send -a "$addr" \
		-p "$PORT" "${sargs[@]}" > "$T/send.out" 2>&1
	rc=$?
	wait "$rpid" || rc=1
	XFER_OUT="$(tail -n1 "$T/send.out") / $(tail -n1 "$T/recv.out")"
	return $rc
}

# offloads VERSION: whether the provider offloads this TLS version.
offloads() {
	[ "$PROVIDER" = ktls_hs ] || [ "$1" = 12 ]
}

# rx_offloads VERSION: whether the provider offloads RX of this version.
rx_offloads() {
	[ "$PROVIDER" = tls ] && [ "$1" = 12 ]
}

counters() {
	echo "enc $D_TXREC recs/$D_TXBYTES B, dec $D_RXREC recs, ooo $D_TXOOO," \
	     "drop $D_DROP, reord $D_REORD, resync tx $D_TXRSQ/$D_TXRS" \
	     "rx $D_RXRSQ/$D_RXRS, add $D_ADD, del $D_DEL, refused $D_REFUSED," \
	     "add failed $D_ADDFAIL"
}

# The providers' own view, per namespace, for a failed case.
tls_stats() {
	local ns

	for ns in "$NS1" "$NS2"; do
		echo "# $ns:" $(ip netns exec "$ns" cat /proc/net/tls_stat 2>/dev/null |
				awk '$2 != 0 { printf "%s=%s ", $1, $2 }')
	done
}

# check NAME VERSION: the verdict on the last xfer and counter deltas.
check() {
	local name=$1 v=$2 rc=$3 why=

	[ "$rc" = 0 ] || why="transfer failed: $XFER_OUT"
	if [ -z "$why" ] && offloads "$v"; then
		[ "$D_TXREC" -gt 0 ] && [ "$D_TXBYTES" -gt 0 ] ||
			why="the device encrypted nothing"
	elif [ -z "$why" ]; then
		[ "$D_TXREC" = 0 ] && [ "$D_RXREC" = 0 ] ||
			why="the device did crypto for a version $PROVIDER does not offload"
	fi
	[ -z "$why" ] && [ "$D_TXMIS" != 0 ] && why="TX resync told a wrong record number"
	[ -z "$why" ] && [ "$D_RXAUTH" != 0 ] && why="RX saw records that do not authenticate"
	if [ -z "$why" ]; then
		ktap_test_pass "$name ($(counters))"
	else
		ktap_test_fail "$name: $why ($(counters))"
		cat "$T/send.out" "$T/recv.out" | sed 's/^/# /'
		tls_stats
	fi
}

knobs() {
	local f

	for f in drop reorder install_delay_ms refuse_add; do
		echo "$1" > "$DBG1/$f"
		echo "$1" > "$DBG2/$f"
	done
}

ktap_print_header
ktap_set_plan 26
echo "# TLS provider: $PROVIDER"

# 1-4: send() of 400 KB in pieces of up to 6000 bytes: records fit in a
#      jumbo frame, so the receiving end decrypts too.
for v in 12 13; do
	for c in 128 256; do
		snap
		xfer "$A2" -v $v -c $c -n 400000 -s 6000 -- \
			-v $v -c $c -n 400000 -s 6000
		rc=$?
		delta
		if [ $rc = 0 ] && rx_offloads $v && [ "$D_RXREC" = 0 ]; then
			ktap_test_fail "send TLS 1.${v#1} AES-GCM-$c: RX offload decrypted nothing ($(counters))"
		else
			check "send TLS 1.${v#1} AES-GCM-$c" $v $rc
		fi
	done
done

# 5-6: sendfile() of 1 MB: full 16 KB records, each spread over frames.
for v in 12 13; do
	snap
	xfer "$A2" -v $v -n 1048576 -s 65536 -- -v $v -n 1048576 -s 1048576 -f
	rc=$?
	delta
	check "sendfile TLS 1.${v#1} AES-GCM-128" $v $rc
done

# 7-8: OpenSSL opens what the device sent: its records are real TLS.
for v in 12 13; do
	snap
	xfer "$A2" -v $v -c 256 -n 400000 -r -- -v $v -c 256 -n 400000 -s 20000
	rc=$?
	delta
	check "device records open with OpenSSL, TLS 1.${v#1} AES-GCM-256" $v $rc
done

# 9: IPv6: RX offload finds the flow by a v6 4-tuple.
snap
xfer fd77::2 -v 12 -n 400000 -s 4000 -- -v 12 -n 400000 -s 4000
rc=$?
delta
if [ $rc = 0 ] && rx_offloads 12 && [ "$D_RXREC" = 0 ]; then
	ktap_test_fail "IPv6 TLS 1.2: RX offload decrypted nothing ($(counters))"
else
	check "IPv6 TLS 1.2 send" 12 $rc
fi

# 10-11: every 13th data frame lost, every 7th pair swapped, both ways.
echo 13 > "$DBG1/drop"; echo 13 > "$DBG2/drop"
echo 7 > "$DBG1/reorder"; echo 7 > "$DBG2/reorder"
for v in 12 13; do
	snap
	xfer "$A2" -v $v -n 700000 -s 6000 -- -v $v -n 700000 -s 6000
	rc=$?
	delta
	if [ $rc = 0 ] && { [ "$D_DROP" = 0 ] || [ "$D_REORD" = 0 ]; }; then
		ktap_test_fail "loss and reordering TLS 1.${v#1}: nothing was dropped or reordered"
	elif [ $rc = 0 ] && offloads $v && [ "$D_TXOOO" = 0 ]; then
		ktap_test_fail "loss and reordering TLS 1.${v#1}: no retransmission went through the device ($(counters))"
	elif [ $rc = 0 ] && rx_offloads $v && [ "$D_RXRSQ" = 0 ]; then
		ktap_test_fail "loss and reordering TLS 1.${v#1}: RX never asked for a resync ($(counters))"
	else
		check "loss and reordering TLS 1.${v#1}, send" $v $rc
	fi
done
knobs 0

# 12: resyncs forced while a stream runs: TX asks the core, which answers
#     through tls_dev_resync with the right record number; RX loses sync
#     and finds it again.
snap
( for _ in $(seq 20); do
	sleep 0.05
	echo 1 > "$DBG1/force_resync"; echo 1 > "$DBG2/force_resync"
  done ) &
kid=$!
xfer "$A2" -v 12 -n 1000000 -s 6000 -- -v 12 -n 1000000 -s 6000 -d 3000
rc=$?
wait $kid
delta
if [ $rc = 0 ] && offloads 12 && { [ "$D_TXRSQ" = 0 ] || [ "$D_TXRS" = 0 ]; }; then
	ktap_test_fail "forced resync: TX resync not requested or not answered ($(counters))"
elif [ $rc = 0 ] && rx_offloads 12 && [ "$D_RXRSQ" = 0 ]; then
	ktap_test_fail "forced resync: RX never asked for a resync ($(counters))"
else
	check "forced resyncs during a TLS 1.2 stream" 12 $rc
fi

# 13: the device refuses every install: the stream runs in software.
echo 1 > "$DBG1/refuse_add"; echo 1 > "$DBG2/refuse_add"
snap
xfer "$A2" -v 12 -n 300000 -s 6000 -- -v 12 -n 300000 -s 6000
rc=$?
delta
knobs 0
if [ $rc = 0 ] && [ "$D_REFUSED" = 0 ]; then
	ktap_test_fail "refused install: tls_dev_add was never called ($(counters))"
elif [ $rc = 0 ] && [ "$D_TXREC$D_RXREC" != 00 ]; then
	ktap_test_fail "refused install: the device still did crypto ($(counters))"
elif [ $rc = 0 ]; then
	ktap_test_pass "refused install falls back to software ($(counters))"
else
	ktap_test_fail "refused install: transfer failed: $XFER_OUT"
fi

# 14: offload switched off with ethtool -K: new streams stay in software.
ip netns exec "$NS1" ethtool -K "$DEV" tls-hw-tx-offload off
ip netns exec "$NS2" ethtool -K "$PEER" tls-hw-rx-offload off
snap
xfer "$A2" -v 12 -n 300000 -s 6000 -- -v 12 -n 300000 -s 6000
rc=$?
delta
ip netns exec "$NS1" ethtool -K "$DEV" tls-hw-tx-offload on
ip netns exec "$NS2" ethtool -K "$PEER" tls-hw-rx-offload on
if [ $rc != 0 ]; then
	ktap_test_fail "offload off with ethtool -K: transfer failed: $XFER_OUT"
elif [ "$D_ADD$D_TXREC$D_RXREC" != 000 ]; then
	ktap_test_fail "offload off with ethtool -K: the device was still used ($(counters), add $D_ADD)"
else
	ktap_test_pass "offload off with ethtool -K stays in software ($(counters))"
fi

# 15-16: a 4 ms install (issue 7: setup latency); the times are printed
#        for the benchmark table, not judged.
for delay in 0 4; do
	echo $delay > "$DBG1/install_delay_ms"
	echo $delay > "$DBG2/install_delay_ms"
	snap
	xfer "$A2" -v 12 -n 100000 -s 6000 -- -v 12 -n 100000 -s 6000
	rc=$?
	delta
	if [ $rc = 0 ]; then
		ktap_test_pass "install delay $delay ms: $XFER_OUT"
	else
		ktap_test_fail "install delay $delay ms: transfer failed: $XFER_OUT"
	fi
done
knobs 0

# 17-24: the device goes down and up again (both ends), or away (the
#     pair deleted), mid-stream: the core takes the flows off it
#     (tls_dev_del) and goes on in software, losing nothing; after a
#     deletion the packets leave by the veth path.  TLS 1.2 and 1.3,
#     send() and sendfile().
# remove down|del: once the sender is half-way through, removes the
# device; leaves in $T/mid the del count after it (down), "gone" (del),
# or "ended" if the stream was over before the device went.
remove() {
	for _ in $(seq 1200); do
		[ -e "$T/half" ] && break
		sleep 0.05
	done
	if grep -q received "$T/recv.out"; then
		echo ended > "$T/mid"
		return
	fi
	if [ "$1" = down ]; then
		ip -n "$NS2" link set "$PEER" down; sleep 0.2
		ip -n "$NS2" link set "$PEER" up
		ip -n "$NS1" link set "$DEV" down; sleep 0.2
		ip -n "$NS1" link set "$DEV" up
		# Down took the routes over the pair along: back to it.
		ip -n "$NS1" route replace $V2/32 via $A2 src $V1 metric 10
		ip -n "$NS2" route replace $V1/32 via $A1 src $V2 metric 10
		snap
		echo "$S_DEL" > "$T/mid"
	else
		ip -n "$NS1" link del "$DEV"
		echo gone > "$T/mid"
	fi
}

# tx_device: TlsTxDevice of the sending namespace, which survives the
# device's deletion.
tx_device() {
	ip netns exec "$NS1" awk '$1 == "TlsTxDevice" { print $2 }' /proc/net/tls_stat
}

for how in down del; do
	for mode in send sendfile; do
		for v in 12 13; do
			name="device $([ $how = down ] && echo "down and up" || echo deleted) mid-stream, TLS 1.${v#1} $mode"
			[ -e "/sys/kernel/debug/ktls_sim/$DEV" ] ||
				sim_up || ktap_exit_fail_msg "cannot set up the ktlssim pair again"
			snap
			DEL0=$S_DEL
			dev0=$(tx_device)
			rm -f "$T/mid" "$T/half"
			remove $how &
			kid=$!
			if [ $mode = send ]; then
				xfer "$V2" -v $v -n 1500000 -s 6000 -t 60 -- \
					-v $v -n 1500000 -s 6000 -d 8000 -m "$T/half"
			else
				xfer "$V2" -v $v -n 3000000 -s 65536 -t 60 -- \
					-v $v -n 3000000 -s 65536 -f -d 60000 -m "$T/half"
			fi
			rc=$?
			wait $kid
			mid=$(cat "$T/mid" 2>/dev/null)
			moved=$(($(tx_device) - dev0))
			# Both ends count a del where both directions were offloaded.
			want=1
			rx_offloads $v && want=2
			if [ $rc != 0 ]; then
				ktap_test_fail "$name: transfer failed: $XFER_OUT"
				cat "$T/send.out" "$T/recv.out" | sed 's/^/# /'
				tls_stats
			elif [ "$mid" = ended ] || [ -z "$mid" ]; then
				ktap_test_fail "$name: the stream ended before the device went"
			elif offloads $v && [ "$moved" -lt 1 ]; then
				ktap_test_fail "$name: the socket never moved to the device"
			elif [ $how = down ] && offloads $v && [ $((mid - DEL0)) -lt $want ]; then
				ktap_test_fail "$name: flows not taken off the device (del $((mid - DEL0)) of $want)"
			else
				ktap_test_pass "$name ($XFER_OUT)"
			fi
		done
	done
done

# 25-26: a TLS 1.3 key update half-way through a stream the device
#     carries: records sealed so far stay the device's, later ones are
#     sealed in software under the new key, the driver forgets the socket,
#     and the stream arrives whole.
[ -e "/sys/kernel/debug/ktls_sim/$DEV" ] ||
	sim_up || ktap_exit_fail_msg "cannot set up the ktlssim pair again"
for mode in send sendfile; do
	name="TLS 1.3 key update mid-stream, $mode"
	snap
	if [ $mode = send ]; then
		xfer "$A2" -v 13 -n 600000 -s 6000 -- -v 13 -n 600000 -s 6000 -d 2000 -k
	else
		xfer "$A2" -v 13 -n 1000000 -s 65536 -- -v 13 -n 1000000 -s 65536 -f -d 20000 -k
	fi
	rc=$?
	delta
	rekeyed=$(ip netns exec "$NS1" awk '$1 == "TlsTxRekeyOk" { print $2 }' /proc/net/tls_stat)
	if [ $rc != 0 ]; then
		ktap_test_fail "$name: transfer failed: $XFER_OUT"
		cat "$T/send.out" "$T/recv.out" | sed 's/^/# /'
		tls_stats
	elif ! grep -q "across a key update" "$T/recv.out"; then
		ktap_test_fail "$name: the receiver saw no key update"
	elif [ "$PROVIDER" = ktls_hs ] && [ "${rekeyed:-0}" = 0 ]; then
		ktap_test_fail "$name: TlsTxRekeyOk did not move"
	elif [ "$PROVIDER" = ktls_hs ] && [ "$D_TXREC" = 0 ]; then
		ktap_test_fail "$name: the device encrypted nothing ($(counters))"
	elif [ "$PROVIDER" = ktls_hs ] && [ "$D_DEL" = 0 ]; then
		ktap_test_fail "$name: the driver was not told to forget the socket ($(counters))"
	else
		ktap_test_pass "$name ($(counters))"
	fi
done

ktap_finished
