# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by the selftests of kTLS device offload over the simulated NIC
# (drivers/net/ktls_sim.c): a ktlssim pair between two network namespaces,
# a veth pair beside it as a second path, a stream between them with
# sim_peer (xfer), the device's ethtool -S counters and the receiving
# namespace's /proc/net/tls_stat before and after (snap, delta), the
# verdict on a stream (check): intact, the device did the crypto of each
# direction the provider offloads, nothing failed to authenticate; and
# the removal of the device mid-stream (remove).
#
# Runs against whichever TLS provider is loaded, ktls_hs.ko or the in-tree
# tls.ko; the in-tree one offloads TLS 1.2 only, so for 1.3 it must fall
# back to software and the device must stay idle.  Both offload TX and RX
# (offloads, rx_offloads).  ktls_sim.ko is loaded
# from KTLS_SIM_KO unless loaded already, and unloaded at the end (it
# holds the provider, and only these tests use it, one at a time; one
# killed by its timeout leaves it to the next).  insmod, not ktls_insmod: its
# dependency is the TLS provider, and modprobe would pull in tls.ko.
# Built programs are in KTLS_KSFT_OUT when run from the source tree,
# beside the scripts once installed.

SIM_DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
BIN=${KTLS_KSFT_OUT:-$SIM_DIR}
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
	# Its devices go with it, wherever the namespaces' cleanup is.
	rmmod ktls_sim
}
trap cleanup EXIT
trap 'exit 1' TERM INT

# sim_pair: the ktlssim pair, DEV in NS1 and PEER in NS2, addressed and up,
# and the preferred routes between V1 and V2 over it.  A jumbo MTU lets
# records of a few KB fit in one frame, which is what RX offload decrypts;
# 16 KB records span frames and exercise the fallback.
sim_pair() {
	local n ns d a

	ip link add "$DEV" type ktlssim ||
		ktap_exit_fail_msg "ip link add type ktlssim failed"
	ip link set "$DEV" netns "$NS1" && ip link set "$PEER" netns "$NS2" ||
		ktap_exit_fail_msg "cannot move the pair into the namespaces"
	for n in 1 2; do
		ns=NS$n; ns=${!ns}
		d=$([ $n = 1 ] && echo "$DEV" || echo "$PEER")
		a=A$n; a=${!a}
		ip -n "$ns" link set lo up
		ip -n "$ns" link set "$d" mtu 9000 up
		ip -n "$ns" addr add "$a/24" dev "$d"
		ip -n "$ns" addr add "fd77::$n/64" dev "$d" nodad
	done
	ip -n "$NS1" route replace $V2/32 via $A2 src $V1 metric 10
	ip -n "$NS2" route replace $V1/32 via $A1 src $V2 metric 10
}

ip netns add "$NS1" && ip netns add "$NS2" ||
	ktap_exit_fail_msg "cannot create network namespaces"

# The second path, a veth pair without offload, and the addresses V1 and
# V2 on lo that both paths lead to: a stream between them survives the
# simulated pair going away, its packets then leaving by veth.
V1=10.79.0.1
V2=10.79.0.2
ip link add "v$DEV" type veth peer name "v$PEER" &&
	ip link set "v$DEV" netns "$NS1" && ip link set "v$PEER" netns "$NS2" ||
	ktap_exit_fail_msg "cannot create the veth pair"
ip -n "$NS1" addr add 10.78.0.1/24 dev "v$DEV"
ip -n "$NS2" addr add 10.78.0.2/24 dev "v$PEER"
ip -n "$NS1" link set "v$DEV" mtu 9000 up
ip -n "$NS2" link set "v$PEER" mtu 9000 up
ip -n "$NS1" addr add $V1/32 dev lo
ip -n "$NS2" addr add $V2/32 dev lo
ip -n "$NS1" route add $V2/32 via 10.78.0.2 src $V1 metric 20
ip -n "$NS2" route add $V1/32 via 10.78.0.1 src $V2 metric 20

sim_pair

# counters_of NAME DUMP: the "name: value" (ethtool -S) or "name value"
# (tls_stat) lines of DUMP into the associative array NAME.  Builtins
# only: under KASAN and TCG every fork costs a good part of a second, and
# a case reads some sixty counters.
counters_of() {
	local -n into=$1
	local k v

	into=()
	while read -r k v; do
		into[${k%:}]=$v
	done <<< "$2"
}

declare -A C1 C2 TS2

# ctr 1|2 NAME: one ethtool -S counter of the sending or receiving end,
# from the dumps snap (or ctr_read) took.
ctr() {
	local -n from=C$1

	echo "${from[$2]}"
}

# ctr_read 1|2: a fresh ethtool -S dump of one end, for ctr.
ctr_read() {
	if [ "$1" = 1 ]; then
		counters_of C1 "$(ip netns exec "$NS1" ethtool -S "$DEV")"
	else
		counters_of C2 "$(ip netns exec "$NS2" ethtool -S "$PEER")"
	fi
}

snap() {
	ctr_read 1
	ctr_read 2
	counters_of TS2 "$(ip netns exec "$NS2" cat /proc/net/tls_stat)"
	S_TXREC=${C1[tx_tls_records_encrypted]}
	S_TXBYTES=${C1[tx_tls_bytes]}
	S_TXOOO=${C1[tx_tls_ooo]}
	S_TXRSQ=${C1[tx_tls_resync_req]}
	S_TXRS=${C1[tx_tls_resync]}
	S_TXMIS=${C1[tx_tls_resync_mismatch]}
	S_RXREC=${C2[rx_tls_records_decrypted]}
	S_RXRSQ=${C2[rx_tls_resync_req]}
	S_RXRS=${C2[rx_tls_resync]}
	S_RXAUTH=${C2[rx_tls_auth_fail]}
	S_DROP=${C1[wire_dropped]}
	S_REORD=${C1[wire_reordered]}
	S_REFUSED=$((C1[tls_dev_add_refused] + C2[tls_dev_add_refused]))
	S_ADD=$((C1[tls_dev_add_tx] + C2[tls_dev_add_rx]))
	S_DEL=$((C1[tls_dev_del_tx] + C2[tls_dev_del_rx]))
	S_DELTX=${C1[tls_dev_del_tx]}
	S_TXKEYS=${C1[tx_tls_keys_used]}
	S_RXKEYS=${C2[rx_tls_keys_used]}
	S_ADDFAIL=$((C1[tls_dev_add_fail] + C2[tls_dev_add_fail]))
	S_RXPART=${C2[rx_tls_records_partial]}
	S_TRXDEV=${TS2[TlsRxDevice]}
	S_TRETRY=${TS2[TlsDecryptRetry]}
	S_TRXRS=${TS2[TlsRxDeviceResync]}
	S_TDECERR=${TS2[TlsDecryptError]}
}

# delta: the counters since the last snap, as D_<name>.
delta() {
	local v
	local -A before=([TXREC]=$S_TXREC [TXBYTES]=$S_TXBYTES [TXOOO]=$S_TXOOO
		[TXRSQ]=$S_TXRSQ [TXRS]=$S_TXRS [TXMIS]=$S_TXMIS [RXREC]=$S_RXREC
		[RXRSQ]=$S_RXRSQ [RXRS]=$S_RXRS [RXAUTH]=$S_RXAUTH [DROP]=$S_DROP
		[REORD]=$S_REORD [REFUSED]=$S_REFUSED [ADD]=$S_ADD [DEL]=$S_DEL [DELTX]=$S_DELTX
		[TXKEYS]=$S_TXKEYS [RXKEYS]=$S_RXKEYS
		[ADDFAIL]=$S_ADDFAIL [RXPART]=$S_RXPART [TRXDEV]=$S_TRXDEV
		[TRETRY]=$S_TRETRY [TRXRS]=$S_TRXRS [TDECERR]=$S_TDECERR)

	snap
	for v in "${!before[@]}"; do
		local now=S_$v

		printf -v "D_$v" '%s' $((${!now} - ${before[$v]}))
	done
}

# KTLS_SIM_SCALE=N (the runner sets it on the KASAN/lockdep kernel): a
# stream carries 1/N of its bytes, paced N times slower, so that it takes
# as long (a device taken away mid-stream needs the time) for 1/N of the
# crypto.  scale ARGS...: the sim_peer arguments so scaled, one a line.
scale() {
	local k=${KTLS_SIM_SCALE:-1} prev= a

	for a in "$@"; do
		case $prev in
		# At least a byte: -e 1 means "at once".
		-n|-e) a=$((a / k)); [ "$a" -gt 0 ] || a=1 ;;
		-d) a=$((a * k)) ;;
		esac
		printf "%s\n" "$a"
		prev=$a
	done
}

# xfer ADDR RECV_ARGS -- SEND_ARGS: one stream from NS1 to NS2; 0 if intact.
xfer() {
	local addr=$1 rargs=() sargs=() rpid rc
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do rargs+=("$1"); shift; done
	shift
	sargs=("$@")
	mapfile -t rargs < <(scale "${rargs[@]}")
	mapfile -t sargs < <(scale "${sargs[@]}")
	PORT=$((PORT + 1))
	ip netns exec "$NS2" "$BIN/sim_peer" recv -a "$addr" -p "$PORT" \
		"${rargs[@]}" > "$T/recv.out" 2>&1 &
	rpid=$!
	ip netns exec "$NS1" timeout 180 "$BIN/sim_peer" send -a "$addr" \
		-p "$PORT" "${sargs[@]}" > "$T/send.out" 2>&1
	rc=$?
	wait "$rpid" || rc=1
	XFER_OUT="$(tail -n1 "$T/send.out") / $(tail -n1 "$T/recv.out")"
	# What the sender's -w saw: when its TX went to the device.
	XFER_DEV=$(grep -m1 -e "on the device" -e "did not wait" "$T/send.out")
	return $rc
}

# offloads VERSION: whether the provider offloads TX of this TLS version.
offloads() {
	[ "$PROVIDER" = ktls_hs ] || [ "$1" = 12 ]
}

# dev_wait VERSION: the sender's -w where TX of VERSION goes to the
# device.  The keys reach the device in a work item after setsockopt()
# returns; a case that counts the device's records has the sender wait
# for it rather than race it.
dev_wait() {
	offloads "$1" && echo -w
}

# rx_offloads VERSION: whether it offloads RX of this version; the place
# for the RX checks, should the two directions ever differ.
rx_offloads() {
	[ "$PROVIDER" = ktls_hs ] || [ "$1" = 12 ]
}

counters() {
	echo "enc $D_TXREC recs/$D_TXBYTES B, dec $D_RXREC recs, auth fail $D_RXAUTH, ooo $D_TXOOO," \
	     "drop $D_DROP, reord $D_REORD, resync tx $D_TXRSQ/$D_TXRS" \
	     "rx $D_RXRSQ/$D_RXRS, add $D_ADD, del $D_DEL, refused $D_REFUSED," \
	     "add failed $D_ADDFAIL, part $D_RXPART, keys tx $D_TXKEYS rx $D_RXKEYS;" \
	     "tls_stat rx device" \
	     "$D_TRXDEV, retry $D_TRETRY, resync $D_TRXRS"
}

# The providers' own view, per namespace, for a failed case.
tls_stats() {
	local ns

	for ns in "$NS1" "$NS2"; do
		echo "# $ns:" $(ip netns exec "$ns" cat /proc/net/tls_stat 2>/dev/null |
				awk '$2 != 0 { printf "%s=%s ", $1, $2 }')
	done
}

# check NAME VERSION RC: the verdict on the last xfer and counter deltas;
# RAW_RX set: the receiver opened the records itself, without kTLS.
check() {
	local name=$1 v=$2 rc=$3 why=

	[ "$rc" = 0 ] || why="transfer failed: $XFER_OUT"
	if [ -z "$why" ] && offloads "$v"; then
		[ "$D_TXREC" -gt 0 ] && [ "$D_TXBYTES" -gt 0 ] ||
			why="the device encrypted nothing"
		[ -z "$why" ] && [ -z "$RAW_RX" ] && rx_offloads "$v" &&
			[ "$D_TRXDEV" -lt 1 ] &&
			why="the receiver's RX was not offloaded (TlsRxDevice)"
	elif [ -z "$why" ]; then
		[ "$D_TXREC" = 0 ] && [ "$D_RXREC" = 0 ] ||
			why="the device did crypto for a version $PROVIDER does not offload"
	fi
	[ -z "$why" ] && [ "$D_TXMIS" != 0 ] && why="TX resync told a wrong record number"
	[ -z "$why" ] && [ "$D_RXAUTH" != 0 ] && why="RX saw records that do not authenticate"
	[ -z "$why" ] && [ "$D_TDECERR" != 0 ] && why="the receiver failed to decrypt (TlsDecryptError)"
	verdict "$name" "$why"
}

# verdict NAME WHY: NAME passes with the counter deltas if WHY is empty,
# else fails with WHY, the two ends' output and tls_stat.
verdict() {
	if [ -z "$2" ]; then
		ktap_test_pass "$1 ($(counters))${XFER_DEV:+; $XFER_DEV}"
	else
		ktap_test_fail "$1: $2 ($(counters))"
		cat "$T/send.out" "$T/recv.out" | sed 's/^/# /'
		tls_stats
	fi
}

# sim_hs_py SCRIPT: a Python test (KTAP) of sockets the in-kernel
# handshake keys, run in NS2 on PEER's address with the identities of
# hs_lib.sh, its clients in NS1.
sim_hs_py() {
	if [ "$PROVIDER" != ktls_hs ]; then
		ktap_print_header
		ktap_exit_fail_msg "the in-kernel handshake needs ktls_hs.ko, not $PROVIDER"
	fi
	ip netns exec "$NS2" bash -c '. "$1/hs_lib.sh"; shift; hs_with_identity "$@"' _ \
		"$SIM_DIR" python3 "$SIM_DIR/$1" "$PEER" "$NS1" "$A2"
}

knobs() {
	local f

	for f in drop reorder install_delay_ms refuse_add partial resync_type; do
		echo "$1" > "$DBG1/$f"
		echo "$1" > "$DBG2/$f"
	done
}

# remove down|del: once the sender is half-way through (sim_peer -m
# $T/half), takes the device away: both ends down and up again, or the
# pair deleted.  Leaves in $T/mid the del count after it (down), "gone"
# (del), or "ended" if the stream was over before the device went.
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

# ns_stat 1|2 NAME: a tls_stat counter of the sending or receiving
# namespace, which outlives the device.
ns_stat() {
	local ns=NS$1

	ip netns exec "${!ns}" awk -v k="$2" '$1 == k { print $2 }' /proc/net/tls_stat
}

# removal down|del SEND|SENDFILE VERSION: one stream between V1 and V2,
# the device taken away half-way; the stream must go on in software and
# arrive whole, after both directions were on the device.
removal() {
	local how=$1 mode=$2 v=$3 name rc mid moved rxmoved decerr want dev0
	local rx0 err0 del0

	name="device $([ $how = down ] && echo "down and up" || echo deleted) mid-stream, TLS 1.${v#1} $mode"
	[ -e "$DBG1" ] || sim_pair
	snap
	del0=$S_DEL
	dev0=$(ns_stat 1 TlsTxDevice)
	rx0=$(ns_stat 2 TlsRxDevice)
	err0=$(ns_stat 2 TlsDecryptError)
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
	moved=$(($(ns_stat 1 TlsTxDevice) - dev0))
	rxmoved=$(($(ns_stat 2 TlsRxDevice) - rx0))
	decerr=$(($(ns_stat 2 TlsDecryptError) - err0))
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
	elif rx_offloads $v && [ "$rxmoved" -lt 1 ]; then
		ktap_test_fail "$name: the receiver's RX was not offloaded (TlsRxDevice)"
	elif [ "$decerr" != 0 ]; then
		ktap_test_fail "$name: the receiver failed to decrypt (TlsDecryptError)"
	elif [ $how = down ] && offloads $v && [ $((mid - del0)) -lt $want ]; then
		ktap_test_fail "$name: flows not taken off the device (del $((mid - del0)) of $want)"
	else
		ktap_test_pass "$name ($XFER_OUT)"
	fi
}
