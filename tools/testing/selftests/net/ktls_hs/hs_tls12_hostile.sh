#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_tls12_hostile.py (a raw TLS 1.2 client: full handshakes through
# to data both ways, a refused renegotiation, then hostile handshakes,
# each of which must get its alert) with a test identity.  Needs
# ktls_hs.ko loaded and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_tls12_hostile.py"
