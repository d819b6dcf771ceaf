#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_api (the in-kernel handshake's user API and its errnos) with a
# test identity in the session keyring.  Needs ktls_hs.ko loaded.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"

T=$(mktemp -d)
KEYS=()
cleanup() {
	local k
	for k in "${KEYS[@]}"; do keyctl unlink "$k" @s >/dev/null 2>&1; done
	rm -rf "$T"
}
trap cleanup EXIT

if ! hs_make_ca "$T" || ! hs_make_identity "$T" srv www.example.test; then
	cat "$T/openssl.log"
	echo "Bail out! cannot make a test identity with openssl"
	exit 1
fi
KTLS_HS_KEY=$(hs_load_identity "$T" srv) || {
	echo "Bail out! keyctl padd ktls_identity failed"
	exit 1
}
KEYS+=("$KTLS_HS_KEY")
KTLS_HS_USER_KEY=$(keyctl add user ktls-hs-test-user secret @s)
KEYS+=("$KTLS_HS_USER_KEY")
export KTLS_HS_KEY KTLS_HS_USER_KEY
"$DIR/hs_api"
