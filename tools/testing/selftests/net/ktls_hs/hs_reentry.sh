#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_reentry.py (a per-socket handshake whose flight TCP cuts into
# many small skbs while the socket is owned, with the client's records
# and ACKs landing in the backlog meanwhile) in a network namespace of
# its own, whose loopback takes one segment per skb (gso_max_segs 1), with
# an identity whose chain makes the flight more than a page.  Needs
# ktls_hs.ko loaded, iproute2 and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"

NS=ktls-hs-reentry-$$
T=$(mktemp -d)
KEYS=()
cleanup() {
	local k
	for k in "${KEYS[@]}"; do keyctl unlink "$k" @u >/dev/null 2>&1; done
	ip netns del "$NS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

hosts() {
	local i
	for i in $(seq "$1"); do printf 'host-%04d.reentry.example.test ' "$i"; done
}

# Some 5 KiB of chain: the flight takes two pages, two sends.
# shellcheck disable=SC2046
if ! hs_make_ca "$T" ||
   ! hs_make_identity "$T" big www.example.test $(hosts 150); then
	cat "$T/openssl.log"
	echo "Bail out! cannot make a test identity with openssl"
	exit 1
fi
KEY=$(hs_load_identity "$T" big) || {
	echo "Bail out! keyctl padd ktls_identity failed"
	exit 1
}
KEYS+=("$KEY")

if ! ip netns add "$NS" || ! ip -n "$NS" link set lo up ||
   ! ip -n "$NS" link set lo gso_max_segs 1; then
	echo "Bail out! cannot set up a namespace with gso_max_segs 1 on lo"
	exit 1
fi
KTLS_HS_KEY=$KEY ip netns exec "$NS" python3 "$DIR/hs_reentry.py"
