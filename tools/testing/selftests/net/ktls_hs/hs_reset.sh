#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_reset.py (clients that reset or close their connection in the
# middle of a handshake, per-socket and on an armed listener: the
# handshake ends at once with the socket's own errno, and gives its pool
# block back) with a test identity.  Needs ktls_hs.ko loaded and python3
# with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_reset.py"
