#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_resume.py (TLS 1.3 session tickets and resumption by the kernel
# handshake: the raw client of hs_hostile.py, openssl s_client and, when
# installed, gnutls-cli) with a test identity.  Needs ktls_hs.ko loaded
# and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_resume.py"
