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

sim_hs_py sim_offload_alert.py
