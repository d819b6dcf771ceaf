#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_tls12_resume.py (TLS 1.2 session tickets and resumption by the
# kernel handshake: a raw client, openssl s_client, gnutls-cli, curl) with
# the test identities.  Needs ktls_hs.ko loaded and python3 with the
# cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity python3 "$DIR/hs_tls12_resume.py"
