#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_record_size_limit.py (RFC 8449 record_size_limit in the kernel's
# TLS 1.3 and 1.2 handshakes, with the raw clients of hs_hostile.py and
# hs_tls12_hostile.py) with a test identity.  Needs ktls_hs.ko loaded and
# python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_record_size_limit.py"
