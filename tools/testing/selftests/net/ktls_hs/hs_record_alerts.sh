#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_record_alerts.py (the fatal alerts the record layer sends itself on
# sockets whose handshake ran in the kernel, with the raw client of
# hs_hostile.py) with a test identity.  Needs ktls_hs.ko loaded
# and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_record_alerts.py"
