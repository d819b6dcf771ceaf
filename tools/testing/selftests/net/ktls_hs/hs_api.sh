#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_api (the in-kernel handshake's user API and its errnos) with a
# test identity in the user keyring.  Needs ktls_hs.ko loaded.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity "$HS_BIN/hs_api"
