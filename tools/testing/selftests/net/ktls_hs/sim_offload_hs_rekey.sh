#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# TLS 1.3 key updates on an accepted socket whose keys the in-kernel
# handshake set and which the simulated NIC carries both ways: after the
# client's KeyUpdate, and after the server's own, both directions come
# back to the device with the new keys (sim_offload_hs_rekey.py has the
# cases; sim_lib.sh the pair; hs_lib.sh the identity).  Needs python3
# with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/sim_lib.sh"

sim_hs_py sim_offload_hs_rekey.py
