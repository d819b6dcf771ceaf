#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The hand-over to userspace against real clients: hs_fallback_srv on an
# armed listener finishes in OpenSSL what the kernel hands over, and
# openssl s_client offers what the kernel lacks (only TLS 1.2, only
# TLS_AES_128_CCM_SHA256, only ffdhe2048, an unknown name under
# KTLS_HS_SNI_FALLBACK), verifying the chain against the test CA and
# getting its line echoed; what the kernel serves it still serves; the
# unknown name refused or given the first identity as the policy says.
# Needs ktls_hs.ko loaded, openssl.

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

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make a test identity with openssl"
K1=$(hs_load_identity "$T" www) && KEYS+=("$K1") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"

# serve ARGS...: (re)start hs_fallback_srv on the next port
serve() {
	hs_start_server hs_fallback_srv --key "$K1" --cert "$T/www.pem" \
		--pkey "$T/www.key" "$@"
}

# client NAME ARGS...: one line through s_client, echoed back
client() {
	local name=$1
	shift
	: > "$T/server.out.mark"
	printf 'ping %s\n' "$name" |
		timeout 20 openssl s_client -connect "127.0.0.1:$PORT" \
		-CAfile "$T/ca.pem" -verify_return_error -ign_eof "$@" \
		> "$T/client.out" 2>&1
}

# served HOW NAME: the client got its echo, the server says HOW
served() {
	local i
	for i in $(seq 30); do
		grep -q "^conn " "$T/server.out" && break
		sleep 0.1
	done
	grep -q "echo ping $2" "$T/client.out" &&
		grep -q "Verify return code: 0 (ok)" "$T/client.out" &&
		tail -1 "$T/server.out" | grep -q "^conn $1 "
}

report() {	# report RC NAME
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# client: /' "$T/client.out" | tail -15
		sed 's/^/# server: /' "$T/server.out" | tail -5
		ktap_test_fail "$2"
	fi
}

# case NAME HOW ARGS...: a new server line per case
case_() {
	local name=$1 how=$2
	shift 2
	: > "$T/server.out"
	client "$name" "$@"
	served "$how" "$name"
	report $? "$name: $how"
}

serve --fallback || ktap_exit_fail_msg "hs_fallback_srv did not start"
case_ kernel kernel -tls1_3 -servername www.example.test
case_ tls12 fallback -tls1_2 -cipher ECDHE-ECDSA-AES128-SHA \
	-servername www.example.test
case_ ccm fallback -tls1_3 -ciphersuites TLS_AES_128_CCM_SHA256 \
	-servername www.example.test
case_ ffdhe fallback -tls1_3 -groups ffdhe2048 -servername www.example.test
grep -q "conn fallback .*group=ffdhe2048" "$T/server.out"
report $? "ffdhe: OpenSSL negotiated ffdhe2048"
case_ unknown_name_default kernel -tls1_3 -servername nope.example.test \
	-verify_hostname www.example.test

# Without the hand-over, what the kernel lacks is refused.
serve || ktap_exit_fail_msg "hs_fallback_srv did not start"
: > "$T/server.out"
client ccm_refused -tls1_3 -ciphersuites TLS_AES_128_CCM_SHA256
! grep -q "echo ping" "$T/client.out" && grep -q "handshake failure" "$T/client.out" &&
	! grep -q "^conn" "$T/server.out"
report $? "ccm without fallback: handshake_failure"

serve --sni-policy 1 || ktap_exit_fail_msg "hs_fallback_srv did not start"
: > "$T/server.out"
client sni_reject -tls1_3 -servername nope.example.test
! grep -q "echo ping" "$T/client.out" && grep -q "unrecognized name" "$T/client.out"
report $? "unknown name rejected: unrecognized_name"

serve --sni-policy 2 || ktap_exit_fail_msg "hs_fallback_srv did not start"
case_ sni_fallback fallback -tls1_3 -servername nope.example.test \
	-verify_hostname www.example.test
case_ sni_known kernel -tls1_3 -servername www.example.test

ktap_finished
