#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_fallback (the hand-over of hellos the kernel cannot serve and
# the SNI policy, with hand-made ClientHellos) with a test identity in
# the user keyring.  Needs ktls_hs.ko loaded.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
hs_with_identity "$HS_BIN/hs_fallback"
