#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_record_size_limit.py (RFC 8449 record_size_limit in the kernel's
# TLS 1.3 and 1.2 handshakes, with the raw clients of hs_hostile.py and
# hs_tls12_hostile.py) with a test identity, and one whose leaf names 700
# hosts besides www.example.test: some 30 KB of chain, whose TLS 1.3
# flight fits its pool block in records of 2^14 bytes but not in records
# of 64 (KTLS_HS_BIG_KEY).  Needs ktls_hs.ko loaded and python3 with the
# cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"

big=$(mktemp -d)
names=(www.example.test)
for i in $(seq 700); do names+=("a-rather-long-host-name-$i.example.test"); done
KTLS_HS_BIG_KEY=
if hs_make_ca "$big" && hs_make_identity "$big" big "${names[@]}"; then
	KTLS_HS_BIG_KEY=$(hs_load_identity "$big" big) || KTLS_HS_BIG_KEY=
fi
export KTLS_HS_BIG_KEY
hs_with_identity python3 "$DIR/hs_record_size_limit.py"
rc=$?
[ -n "$KTLS_HS_BIG_KEY" ] && keyctl unlink "$KTLS_HS_BIG_KEY" @u >/dev/null 2>&1
rm -rf "$big"
exit $rc
