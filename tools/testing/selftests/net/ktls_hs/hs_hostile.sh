#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_hostile.py (a raw TLS 1.3 client: a full handshake through to
# application data, then malformed and hostile handshakes, each of which
# must get its RFC 8446 alert) with a test identity.  Needs ktls_hs.ko
# loaded and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_hostile.py"
