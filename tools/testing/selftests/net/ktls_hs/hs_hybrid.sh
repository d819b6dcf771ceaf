#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The post-quantum hybrid groups (draft-ietf-tls-ecdhe-mlkem) against a
# real client: Go's crypto/tls (ktls_go_client, static, built on the
# host) fetching from the sample HTTPS server.  With Go's defaults, and
# with X25519MLKEM768 or SecP256r1MLKEM768 alone, the group is the
# hybrid; with X25519 or P-256 alone, that group with no
# HelloRetryRequest; a listener without the hybrids, or one insisting on
# them (hybrid-retry), as configured; the ~1.8 KB ClientHello in 64- and
# 100-byte TCP segments.  hs_hybrid_raw.sh has the raw and hostile clients.
# Needs ktls_hs.ko loaded, openssl, and ktls_go_client (Go 1.26 or later
# on the build host: ConnectionState.HelloRetryRequest).

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
KEYS=()
SRV=
trap hs_cleanup EXIT

ktap_print_header
ktap_set_plan 10

GOCLI=$HS_BIN/ktls_go_client
[ -x "$GOCLI" ] ||
	ktap_exit_fail_msg "$GOCLI was not built: no go on the build host"
hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make a test identity with openssl"
K1=$(hs_load_identity "$T" www) && KEYS+=("$K1") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"
hs_make_www "$T" || ktap_exit_fail_msg "cannot write the files to serve"

serve() { hs_start_server https_server --root "$T/www" --key "$K1" "$@"; }

# go NAME EXPECT ARGS...: the Go client fetches /hello; its first line
# must be EXPECT
go() {
	local name=$1 expect=$2
	shift 2
	timeout 30 "$GOCLI" --addr "127.0.0.1:$PORT" --ca "$T/ca.pem" \
		--name www.example.test "$@" > "$T/client.out" 2>&1
	if [ "$(head -1 "$T/client.out")" = "$expect" ] &&
	   grep -q "hello from the kernel" "$T/client.out"; then
		ktap_test_pass "$name"
	else
		sed 's/^/# /' "$T/client.out" | tail -10
		ktap_test_fail "$name"
	fi
}

serve || ktap_exit_fail_msg "https_server did not start"
go "Go defaults: X25519MLKEM768" \
	"version=1.3 group=X25519MLKEM768 hrr=false"
go "X25519MLKEM768 alone" \
	"version=1.3 group=X25519MLKEM768 hrr=false" --groups X25519MLKEM768
go "SecP256r1MLKEM768 alone" \
	"version=1.3 group=SecP256r1MLKEM768 hrr=false" \
	--groups SecP256r1MLKEM768
go "X25519 alone: no HelloRetryRequest" \
	"version=1.3 group=X25519 hrr=false" --groups X25519
go "P-256 alone: no HelloRetryRequest" \
	"version=1.3 group=CurveP256 hrr=false" --groups P256
go "Go defaults, the hello in 64-byte TCP segments" \
	"version=1.3 group=X25519MLKEM768 hrr=false" --split 64

serve --groups x25519,p256 || ktap_exit_fail_msg "https_server did not start"
go "hybrids off: Go defaults get X25519" \
	"version=1.3 group=X25519 hrr=false"

# Go sends shares of X25519MLKEM768 and X25519 only: the one hybrid
# allowed is reached by a HelloRetryRequest, with the hello in pieces.
serve --groups secp256r1mlkem768 ||
	ktap_exit_fail_msg "https_server did not start"
go "SecP256r1MLKEM768 alone allowed: a HelloRetryRequest for it" \
	"version=1.3 group=SecP256r1MLKEM768 hrr=true" --split 100

# Go always sends a hybrid share when it lists one (its order is fixed,
# hybrids first), so hybrid-retry's retry is hs_hybrid.py's to test.
serve --groups x25519mlkem768,x25519,p256,hybrid-retry ||
	ktap_exit_fail_msg "https_server did not start"
go "hybrid-retry: Go defaults get X25519MLKEM768 at once" \
	"version=1.3 group=X25519MLKEM768 hrr=false"
go "hybrid-retry: a client without hybrids gets X25519 at once" \
	"version=1.3 group=X25519 hrr=false" --groups X25519,P256
hs_stop_server
ktap_finished
