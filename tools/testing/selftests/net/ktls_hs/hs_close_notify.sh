#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_close_notify.py (close_notify, user_canceled and error alerts
# both ways on sockets whose TLS 1.3 or 1.2 handshake ran in the kernel,
# with the raw clients of hs_hostile.py and hs_tls12_hostile.py) with a
# test identity.  Needs ktls_hs.ko loaded and python3 with the
# cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_close_notify.py"
