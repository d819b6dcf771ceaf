#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_hybrid.py (raw TLS 1.3 ClientHellos with post-quantum hybrid
# shares: cut across records and TCP segments, and hostile ones, each of
# which must get its alert) with a test identity.  Needs ktls_hs.ko
# loaded and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_hybrid.py"
