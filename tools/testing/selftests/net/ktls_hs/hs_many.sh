#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# 500 TLS 1.3 handshakes at once against an armed listener (hs_many),
# with a test identity.  Needs ktls_hs.ko loaded.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity "$HS_BIN/hs_many" 500
