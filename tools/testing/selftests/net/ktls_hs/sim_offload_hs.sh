#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Device offload of the keys the in-kernel handshake installs: an armed
# listener on the simulated NIC's address in one namespace, an OpenSSL
# client (Python's ssl) in the other, TLS 1.3 and TLS 1.2 with AES-GCM;
# the client's bytes come back through the accepted kTLS socket
# byte-identical, and the device's counters show that it decrypted the
# records the accepted socket received and encrypted those it sent
# (sim_lib.sh has the pair; hs_lib.sh the identity).

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/sim_lib.sh"
source "$DIR/hs_lib.sh"

# 50 to 100 records each way; 1 MB took 7 min under KASAN and TCG, where
# the runner scales streams down (sim_lib.sh).
BYTES=$((300000 / ${KTLS_SIM_SCALE:-1}))

ktap_print_header
ktap_set_plan 2
[ "$PROVIDER" = ktls_hs ] ||
	ktap_exit_fail_msg "the in-kernel handshake needs ktls_hs.ko, not $PROVIDER"

hs_make_ca "$T" && hs_make_identity "$T" srv www.example.test ||
	ktap_exit_fail_msg "cannot make a test identity with openssl"
KEY=$(hs_load_identity "$T" srv) ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"
trap 'keyctl unlink "$KEY" @u >/dev/null 2>&1; cleanup' EXIT

# wait_line FILE LINE TENTHS: wait until FILE has LINE, for at most
# TENTHS tenths of a second.
wait_line() {
	local i

	for i in $(seq "$3"); do
		grep -q "^$2" "$1" && return 0
		sleep 0.1
	done
	return 1
}

# echo_once VERSION: one handshake and echo of BYTES; 0 if both ends
# are content.  Leaves their last lines in ECHO_OUT.
#
# The server's RX keys reach the device in a work item after the
# handshake.  Records that pass the device before it has them are
# decrypted in software and the device finds the stream again by a
# resync; under KASAN and TCG a short stream can be over before that.
# So the client sends nothing before the device has the keys (or 30 s
# have passed; INSTALLED says which): what the counters then show is the
# device's decryption, not a race with the work queue.
echo_once() {
	local v=$1 srv cli rc rx0 i

	PORT=$((PORT + 1))
	rm -f "$T/go"
	rx0=$(ns_stat 2 TlsRxDevice)
	ip netns exec "$NS2" python3 "$DIR/sim_hs_echo.py" serve "$A2" "$PORT" "$KEY" "$v" \
		"$BYTES" > "$T/srv.out" 2>&1 &
	srv=$!
	wait_line "$T/srv.out" listening 100
	ip netns exec "$NS1" timeout 180 python3 "$DIR/sim_hs_echo.py" connect "$A2" "$PORT" \
		"$T/ca.pem" "$v" "$BYTES" "$T/go" > "$T/cli.out" 2>&1 &
	cli=$!
	INSTALLED=no
	if wait_line "$T/cli.out" connected 600; then
		for i in $(seq 300); do
			if [ "$(ns_stat 2 TlsRxDevice)" -gt "$rx0" ]; then
				INSTALLED=yes
				break
			fi
			sleep 0.1
		done
	fi
	touch "$T/go"
	wait "$cli"
	rc=$?
	wait "$srv" || rc=1
	ECHO_OUT="$(tail -n1 "$T/cli.out") / server: $(tail -n1 "$T/srv.out")"
	return $rc
}

for v in 13 12; do
	name="kernel handshake, TLS 1.${v#1}: the device carries the accepted socket"
	snap
	enc0=$(ctr 2 tx_tls_records_encrypted)
	tx0=$(ns_stat 2 TlsTxDevice)
	echo_once $v
	rc=$?
	delta
	enc=$(($(ctr 2 tx_tls_records_encrypted) - enc0))
	tx=$(($(ns_stat 2 TlsTxDevice) - tx0))
	what="encrypted $enc, decrypted $D_RXREC records;"
	what="$what TlsTxDevice +$tx, TlsRxDevice +$D_TRXDEV"
	why=
	if [ $rc != 0 ]; then
		why="echo failed: $ECHO_OUT"
	elif [ "$enc" -lt 1 ] || [ "$tx" -lt 1 ]; then
		why="the device encrypted nothing the server sent"
	elif [ "$INSTALLED" != yes ]; then
		why="the RX keys were not on the device 30 s after the handshake"
	elif [ "$D_RXREC" -lt 1 ] || [ "$D_TRXDEV" -lt 1 ]; then
		why="the device decrypted nothing the server received"
	elif [ "$D_RXAUTH" != 0 ] || [ "$D_TDECERR" != 0 ]; then
		why="records failed to authenticate"
	fi
	if [ -z "$why" ]; then
		ktap_test_pass "$name ($ECHO_OUT; $what)"
	else
		ktap_test_fail "$name: $why ($what)"
		sed 's/^/# /' "$T/cli.out" "$T/srv.out"
		tls_stats
	fi
done

ktap_finished
