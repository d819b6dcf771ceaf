#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kTLS device offload over the simulated NIC, the plain streams: TLS 1.2
# and 1.3 AES-GCM sent with send() and sendfile(), over IPv4 and IPv6,
# checked byte for byte at the other end (by kTLS, or by OpenSSL opening
# the records itself), the device's counters showing it encrypted on one
# end and decrypted on the other; sendfile() with TLS_TX_ZEROCOPY_RO,
# whose device records are the file's pages, and splice() from a pipe,
# under loss and reordering; records the device built within
# TLS_TX_MAX_PAYLOAD_LEN.  Each sender waits for its keys to reach the
# device before the bulk of its stream (sim_lib.sh has the setup and
# checks; key updates are in sim_offload_rekey.sh).

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/sim_lib.sh"

ktap_print_header
ktap_set_plan 15
echo "# TLS provider: $PROVIDER"

# 1-4: send() of 400 KB in pieces of up to 6000 bytes: records fit in a
#      jumbo frame, so the receiving end decrypts too.  The sender paces
#      its records: a receiver that falls behind (a busy emulated guest)
#      would otherwise have TCP pack them into frames that end mid-record,
#      which this device leaves to software.
for v in 12 13; do
	for c in 128 256; do
		snap
		xfer "$A2" -v $v -c $c -n 400000 -s 6000 -- \
			-v $v -c $c -n 400000 -s 6000 -d 1000 $(dev_wait $v)
		rc=$?
		delta
		if [ $rc = 0 ] && rx_offloads $v && [ "$D_RXREC" = 0 ]; then
			ktap_test_fail "send TLS 1.${v#1} AES-GCM-$c: RX offload decrypted nothing ($(counters))"
		else
			check "send TLS 1.${v#1} AES-GCM-$c, TX and RX offload" $v $rc
		fi
	done
done

# 5-6: sendfile() of 1 MB: full 16 KB records, each spread over frames.
for v in 12 13; do
	snap
	xfer "$A2" -v $v -n 1048576 -s 65536 -- -v $v -n 1048576 -s 1048576 -f \
		$(dev_wait $v)
	rc=$?
	delta
	check "sendfile TLS 1.${v#1} AES-GCM-128" $v $rc
done

# 7-8: OpenSSL opens what the device sent: its records are real TLS.
RAW_RX=1
for v in 12 13; do
	snap
	xfer "$A2" -v $v -c 256 -n 400000 -r -- -v $v -c 256 -n 400000 -s 20000 \
		$(dev_wait $v)
	rc=$?
	delta
	check "device records open with OpenSSL, TLS 1.${v#1} AES-GCM-256" $v $rc
done
RAW_RX=

# 9: IPv6: RX offload finds the flow by a v6 4-tuple.
snap
xfer fd77::2 -v 12 -n 400000 -s 4000 -- -v 12 -n 400000 -s 4000 -d 1000 \
	$(dev_wait 12)
rc=$?
delta
if [ $rc = 0 ] && rx_offloads 12 && [ "$D_RXREC" = 0 ]; then
	ktap_test_fail "IPv6 TLS 1.2: RX offload decrypted nothing ($(counters))"
else
	check "IPv6 TLS 1.2 send, TX and RX offload" 12 $rc
fi

# 10-13: sendfile() with TLS_TX_ZEROCOPY_RO, whose device records borrow
#        the file's pages instead of copying them, and splice() from a
#        pipe, with every 11th frame lost and every 5th pair swapped: the
#        device and the retransmissions read the records again.
echo 11 > "$DBG1/drop"; echo 5 > "$DBG1/reorder"
for mode in "sendfile TLS_TX_ZEROCOPY_RO" "splice from a pipe"; do
	for v in 12 13; do
		name="$mode TLS 1.${v#1}"
		snap
		if [ "${mode%% *}" = sendfile ]; then
			xfer "$A2" -v $v -n 1048576 -s 65536 -- \
				-v $v -n 1048576 -s 65536 -f -z $(dev_wait $v)
		else
			xfer "$A2" -v $v -n 600000 -s 16384 -- \
				-v $v -n 600000 -s 16384 -S $(dev_wait $v)
		fi
		rc=$?
		delta
		if [ $rc = 0 ] && { [ "$D_DROP" = 0 ] || [ "$D_REORD" = 0 ]; }; then
			ktap_test_fail "$name: nothing was dropped or reordered"
		else
			check "$name with loss and reordering" $v $rc
		fi
	done
done
knobs 0

# 14-15: TLS_TX_MAX_PAYLOAD_LEN holds for the records built for the
#        device: OpenSSL opens them and finds none over the cap.  The
#        in-tree tls.ko of 6.12 has no such option.
RAW_RX=1
for v in 12 13; do
	name="device records within TLS_TX_MAX_PAYLOAD_LEN 1000, TLS 1.${v#1}"
	if [ "$PROVIDER" != ktls_hs ]; then
		ktap_test_skip "$name: $PROVIDER has no TLS_TX_MAX_PAYLOAD_LEN"
		continue
	fi
	snap
	xfer "$A2" -v $v -n 400000 -r -l 1000 -- -v $v -n 400000 -s 20000 -l 1000 \
		$(dev_wait $v)
	rc=$?
	delta
	check "$name" $v $rc
done
RAW_RX=

ktap_finished
