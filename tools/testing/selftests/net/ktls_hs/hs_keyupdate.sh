#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_keyupdate.py (TLS 1.3 KeyUpdate both ways on sockets whose
# handshake ran in the kernel, with the raw client of hs_hostile.py and
# with openssl s_client) with a test identity.  Needs ktls_hs.ko loaded
# and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_keyupdate.py"
