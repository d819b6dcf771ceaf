#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# TLS 1.3 key updates on sockets offloaded to the simulated NIC: the
# sender's TX and the receiver's RX go on in software under the new key
# at once and come back to the device with it (net/offload/device_tx_keys.c,
# net/offload/device_rx_keys.c).  The device counts each key it did a record's
# crypto with (tx/rx tls_keys_used), so a direction that came back shows
# one more key than updates it missed.  The receivers keep a small
# receive buffer: RX comes back only once the stream is a receive window
# past the update.  The senders slow down for half a second after each
# update (sim_peer -D): how soon TX comes back is a matter of time
# (ACKs, the install work), not of bytes.
#
# The in-tree tls.ko offloads TLS 1.2 only: against it these streams run
# in software and only their integrity is checked.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/sim_lib.sh"

ktap_print_header
ktap_set_plan 6
echo "# TLS provider: $PROVIDER"

RCVBUF=32768

# rekeyed NAME RC UPDATES TXKEYS RXKEYS: the verdict on a stream with
# UPDATES key updates, after which the devices did the crypto with at
# least TXKEYS and RXKEYS keys (ktls_hs only).  Not rx_tls_auth_fail:
# until the driver forgets the old RX key, the receiving device fails on
# every record of the new one, by design.
rekeyed() {
	local name=$1 rc=$2 n=$3 txk=$4 rxk=$5 why=

	[ "$rc" = 0 ] || why="transfer failed: $XFER_OUT"
	[ -z "$why" ] && ! grep -q "intact.*, $n key updates" "$T/recv.out" &&
		why="the receiver did not follow $n key updates"
	if [ -z "$why" ] && [ "$PROVIDER" = ktls_hs ]; then
		[ "$D_TXREC" -gt 0 ] || why="the device encrypted nothing"
		[ -z "$why" ] && [ "$D_DELTX" = 0 ] &&
			why="the driver never forgot the old TX key"
		[ -z "$why" ] && [ "$D_TXKEYS" -lt "$txk" ] &&
			why="TX was on the device with $D_TXKEYS keys, not $txk"
		[ -z "$why" ] && [ "$D_RXKEYS" -lt "$rxk" ] &&
			why="RX was on the device with $D_RXKEYS keys, not $rxk"
	fi
	[ -z "$why" ] && [ "$D_TDECERR" != 0 ] && why="the receiver failed to decrypt (TlsDecryptError)"
	[ -z "$why" ] && [ "$D_TXMIS" != 0 ] && why="TX resync told a wrong record number"
	verdict "$name" "$why"
}

# 1-2: one key update half-way through a stream both devices carry: the
#      driver forgets the old TX key once TCP acked every record built for
#      it, and gets the new one; RX likewise past the receive window.
for mode in send sendfile; do
	f=
	[ $mode = sendfile ] && f=-f
	snap
	# Records of up to 6000 bytes fit a frame: the sim decrypts them.
	xfer "$A2" -v 13 -n 800000 -s 6000 -b $RCVBUF -- \
		-v 13 -n 800000 -s 6000 $f -d 2000 -D 500 -k
	rc=$?
	delta
	rekeyed "key update mid-stream, $mode: both directions back on the device" \
		$rc 1 2 2
done

# 3: four key updates, AES-GCM-256: TX comes back after each one.
snap
xfer "$A2" -v 13 -c 256 -n 1200000 -s 6000 -b $RCVBUF -- \
	-v 13 -c 256 -n 1200000 -s 6000 -d 2000 -D 500 -K 4
rc=$?
delta
rekeyed "four key updates: TX on the device with five keys" $rc 4 5 2

# 4: a key update while the driver still installs the first key (a slow
#    install): it forgets that key unused and gets the new one.
echo 400 > "$DBG1/install_delay_ms"; echo 400 > "$DBG2/install_delay_ms"
snap
xfer "$A2" -v 13 -n 400000 -s 4000 -b $RCVBUF -- \
	-v 13 -n 400000 -s 4000 -d 8000 -K 1 -e 1
rc=$?
delta
rekeyed "key update during a slow install: the device forgets the old key, gets the new" \
	$rc 1 1 1
knobs 0

# 5: a key update with every 11th frame lost and every 5th pair swapped:
#    records of the old key are retransmitted by the software fallback
#    under it while the new one waits for their ACK.
echo 11 > "$DBG1/drop"; echo 5 > "$DBG1/reorder"
snap
xfer "$A2" -v 13 -n 800000 -s 6000 -b $RCVBUF -- \
	-v 13 -n 800000 -s 6000 -d 2000 -D 500 -k
rc=$?
delta
if [ $rc = 0 ] && [ "$D_DROP" = 0 ]; then
	ktap_test_fail "key update with loss and reordering: nothing was dropped"
else
	rekeyed "key update with loss and reordering" $rc 1 2 1
fi
knobs 0

# 6: the devices refuse the new key (refuse_add set half-way, the update
#    at three quarters): both directions stay in software, intact.
snap
( for _ in $(seq 1200); do
	[ -e "$T/half" ] && break
	sleep 0.05
  done
  echo 1 > "$DBG1/refuse_add"; echo 1 > "$DBG2/refuse_add" ) &
waiter=$!
xfer "$A2" -v 13 -n 800000 -s 6000 -b $RCVBUF -- \
	-v 13 -n 800000 -s 6000 -d 2000 -m "$T/half" -K 1 -e 600000
rc=$?
wait $waiter
delta
rm -f "$T/half"
if [ $rc = 0 ] && [ "$PROVIDER" = ktls_hs ] && [ "$D_REFUSED" = 0 ]; then
	ktap_test_fail "new key refused: the device was never asked ($(counters))"
elif [ $rc = 0 ] && [ "$D_TXKEYS" -gt 1 ]; then
	ktap_test_fail "new key refused: the device encrypted with $D_TXKEYS keys"
else
	rekeyed "the device refuses the new key: software, intact" $rc 1 1 1
fi
knobs 0

ktap_finished
