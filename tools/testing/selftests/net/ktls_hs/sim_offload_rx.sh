#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kTLS RX offload over the simulated NIC, the receiving side's own paths:
# records the device decrypts only in part (recovered and redone in
# software), the core next hint and async driver request resync modes
# with resyncs forced, and the pair deleted under live streams: with a
# second path the streams go on in software over it, byte for byte;
# without one no reference keeps the devices and the sockets end
# (sim_lib.sh has the setup and checks).

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/sim_lib.sh"

ktap_print_header
ktap_set_plan 10
echo "# TLS provider: $PROVIDER"

# 1-2: in-stream decryption: the receiving device decrypts the first
#        frame of a record that spans frames and leaves the rest, as
#        hardware that lost the stream mid-record does; the receiver turns
#        those pieces back into ciphertext and decrypts the record itself.
echo 1 > "$DBG2/partial"
for v in 12 13; do
	snap
	xfer "$A2" -v $v -n 3000000 -s 16384 -- -v $v -n 3000000 -s 16384
	rc=$?
	delta
	if [ $rc = 0 ] && rx_offloads $v && [ "$D_RXPART" = 0 ]; then
		ktap_test_fail "records decrypted in part TLS 1.${v#1}: the device made none ($(counters))"
	elif [ $rc = 0 ] && rx_offloads $v && [ "$PROVIDER" = ktls_hs ] &&
	     [ "$D_TRETRY" = 0 ]; then
		ktap_test_fail "records decrypted in part TLS 1.${v#1}: none redone in software ($(counters))"
	else
		check "records decrypted in part, TLS 1.${v#1}" $v $rc
	fi
done
echo 0 > "$DBG2/partial"

# 3-4: the other two RX resync modes, with resyncs forced: the core
#        tells the device where a record starts after a run of records it
#        did not decrypt (core next hint, TLS 1.3), or answers a request
#        the device completes later (async driver request, TLS 1.2).
for mode in 1 2; do
	v=$([ $mode = 1 ] && echo 13 || echo 12)
	name=$([ $mode = 1 ] && echo "core next hint" || echo "async driver request")
	echo $mode > "$DBG2/resync_type"
	snap
	( for _ in $(seq 10); do
		sleep 0.1
		echo 1 > "$DBG2/force_resync"
	  done ) &
	kid=$!
	xfer "$A2" -v $v -n 6000000 -s 6000 -- -v $v -n 6000000 -s 6000
	rc=$?
	wait $kid
	delta
	if [ $rc = 0 ] && rx_offloads $v && { [ "$D_RXRS" = 0 ] || [ "$D_TRXRS" = 0 ]; }; then
		ktap_test_fail "RX resync by $name, TLS 1.${v#1}: the device was never resynced ($(counters))"
	else
		check "RX resync by $name, TLS 1.${v#1}" $v $rc
	fi
done
echo 0 > "$DBG2/resync_type"

# 5-8: the pair is deleted half-way through a stream between V1 and V2:
#        the core takes the flows off it, and the stream goes on over veth
#        in software, RX taking what the device decrypted before as it
#        is.  TLS 1.2 and 1.3, send() and sendfile().
for mode in send sendfile; do
	for v in 12 13; do
		removal del $mode $v
	done
done
[ -e "$DBG1" ] || sim_pair

# 9-10: the pair is deleted under a live stream: no reference of the
#        core keeps the devices from going (the deletion returns, where a
#        leaked one would hold it in netdev_wait_allrefs), and the
#        receiver ends instead of hanging.
for v in 12 13; do
	snap
	TX0=$S_TXREC
	PORT=$((PORT + 1))
	# -R: with no route left, a FIN would keep the sockets for minutes.
	ip netns exec "$NS2" "$BIN/sim_peer" recv -a "$A2" -p "$PORT" -v $v \
		-n 20000000 -s 6000 -t 5 -R > "$T/recv.out" 2>&1 &
	rpid=$!
	ip netns exec "$NS1" "$BIN/sim_peer" send -a "$A2" -p "$PORT" \
		-v $v -n 20000000 -s 6000 -d 2000 -R > "$T/send.out" 2>&1 &
	spid=$!
	for _ in $(seq 200); do
		ctr_read 1
		[ "${C1[tx_tls_records_encrypted]}" -gt "$TX0" ] && break
		sleep 0.05
	done
	if timeout 30 ip -n "$NS1" link del "$DEV"; then
		gone=yes
	else
		gone=no
	fi
	wait $rpid
	rrc=$?
	# Its TCP would retry for minutes without a route.
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	if [ $gone = no ]; then
		ktap_test_fail "device deleted mid-stream without a second path, TLS 1.${v#1}: the deletion did not return"
	elif [ $rrc != 1 ]; then
		ktap_test_fail "device deleted mid-stream without a second path, TLS 1.${v#1}: the receiver did not end in error (exit $rrc): $(tail -n1 "$T/recv.out")"
	else
		ktap_test_pass "device deleted mid-stream without a second path, TLS 1.${v#1}: gone; receiver: $(tail -n1 "$T/recv.out")"
	fi
	# A fresh pair for the next case.
	sim_pair
done

ktap_finished
