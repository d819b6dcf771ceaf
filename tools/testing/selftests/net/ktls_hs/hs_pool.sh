#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_pool.py (handshake memory: identities too large for the pool,
# the large block, max_handshakes at work) with three test identities:
# an ordinary one, one whose leaf names 300 hosts (a chain of some 9 KiB,
# for the 64 KiB block) and one whose leaf names 1400 (some 41 KiB, more
# than any block holds).  Needs ktls_hs.ko loaded and python3.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"

hosts() {
	local i
	for i in $(seq "$1"); do printf 'host-%04d.pool.example.test ' "$i"; done
}

T=$(mktemp -d)
KEYS=()
cleanup() {
	local k
	for k in "${KEYS[@]}"; do keyctl unlink "$k" @u >/dev/null 2>&1; done
	rm -rf "$T"
}
trap cleanup EXIT

# shellcheck disable=SC2046
if ! hs_make_ca "$T" || ! hs_make_identity "$T" www www.example.test ||
   ! hs_make_identity "$T" mid www.example.test $(hosts 300) ||
   ! hs_make_identity "$T" big www.example.test $(hosts 1400); then
	cat "$T/openssl.log"
	echo "Bail out! cannot make the test identities with openssl"
	exit 1
fi
for name in www mid big; do
	key=$(hs_load_identity "$T" "$name") || {
		echo "Bail out! keyctl padd ktls_identity $name failed"
		exit 1
	}
	KEYS+=("$key")
done
KTLS_HS_KEY=${KEYS[0]} KTLS_HS_MID_KEY=${KEYS[1]} KTLS_HS_BIG_KEY=${KEYS[2]} \
KTLS_HS_CA=$T/ca.pem python3 "$DIR/hs_pool.py"
