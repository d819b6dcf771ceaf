#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Fatal errors on an accepted socket whose keys the in-kernel handshake
# set and which the simulated NIC carries both ways: the raw TLS 1.3
# client of hs_hostile.py in one namespace breaks the protocol after the
# handshake, the server in the other must fail the socket with the right
# errno and send the alert due, sealed by the device (sim_offload_alert.py
# has the cases; sim_lib.sh the pair; hs_lib.sh the identity).  Needs
# python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/sim_lib.sh"
source "$DIR/hs_lib.sh"

if [ "$PROVIDER" != ktls_hs ]; then
	ktap_print_header
	ktap_exit_fail_msg "the in-kernel handshake needs ktls_hs.ko, not $PROVIDER"
fi
ip netns exec "$NS2" bash -c '. "$1/hs_lib.sh"; shift; hs_with_identity "$@"' _ \
	"$DIR" python3 "$DIR/sim_offload_alert.py" "$PEER" "$NS1" "$A2"
