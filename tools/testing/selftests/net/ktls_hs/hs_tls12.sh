#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Full TLS 1.2 handshakes by the kernel, against real clients: the sample
# HTTPS server on an armed listener; openssl s_client -tls1_2 for every
# suite and group (verifying the chain against the test CA, with the
# extended master secret and secure renegotiation), data both ways
# through an echo; curl --tlsv1.2 --tls-max 1.2 downloads compared byte
# for byte; gnutls-cli; version selection (a 1.3 client gets 1.3, a 1.2
# one gets 1.2 with the RFC 8446 downgrade sentinel, KTLS_HS_VERSIONS
# 1.2-only and 1.3-only); a client without the extended master secret
# refused unless the listener opts out.
# Needs ktls_hs.ko loaded, openssl, curl, gnutls-cli.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
KEYS=()
SRV=
trap hs_cleanup EXIT

ktap_print_header
ktap_set_plan 20

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make test identities with openssl"
K1=$(hs_load_identity "$T" www) && KEYS+=("$K1") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"

hs_make_www "$T" || ktap_exit_fail_msg "cannot write the files to serve"

# serve ARGS...: (re)start https_server on the next port
serve() { hs_start_server https_server --root "$T/www" "$@"; }

# client ARGS...: s_client fetching /hello; output in $T/client.out
client() {
	printf 'GET /hello HTTP/1.0\r\n\r\n' |
		timeout 20 openssl s_client -connect "127.0.0.1:$PORT" \
		-CAfile "$T/ca.pem" -verify_return_error -ign_eof \
		-servername www.example.test "$@" > "$T/client.out" 2>&1
}

ok() { grep -q "hello from the kernel" "$T/client.out" &&
       grep -q "Verify return code: 0 (ok)" "$T/client.out"; }

report() {
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# /' "$T/client.out" | tail -20
		sed 's/^/# server: /' "$T/server.err" | tail -5
		ktap_test_fail "$2"
	fi
}

# The ServerHello.random s_client saw, from its -msg trace: the 32 bytes
# after type, length and version.
server_random() {
	awk '/<<< .*ServerHello/ { getline; print; getline; print; getline; print }' \
		"$T/client.out" | tr -d ' \n' | cut -c13-76
}

serve --key "$K1" || ktap_exit_fail_msg "https_server did not start"

# Every 1.2 suite over both groups.  In 1.2 the client's supported_groups
# also names the curves it verifies on, so P-256 is always offered.
for suite in ECDHE-ECDSA-AES128-GCM-SHA256 ECDHE-ECDSA-AES256-GCM-SHA384 \
	     ECDHE-ECDSA-CHACHA20-POLY1305; do
	for group in X25519 P-256; do
		groups="X25519:P-256"
		key="X25519"
		if [ "$group" = P-256 ]; then
			groups=P-256
			key="ECDH, prime256v1"
		fi
		client -tls1_2 -cipher "$suite" -groups "$groups"
		ok && grep -q "TLSv1.2, Cipher is $suite" "$T/client.out" &&
			grep -q "Server Temp Key: $key" "$T/client.out" &&
			grep -q "Extended master secret: yes" "$T/client.out" &&
			grep -q "Secure Renegotiation IS supported" "$T/client.out"
		report $? "s_client -tls1_2 $suite $group"
	done
done

# Version selection, with the sentinel of RFC 8446 4.1.3.
client
ok && grep -q "New, TLSv1.3," "$T/client.out"
report $? "a 1.3 client gets TLS 1.3"
client -tls1_2 -msg
ok && grep -q "Protocol  : TLSv1.2" "$T/client.out" &&
	[ "$(server_random | tail -c 17)" = 444f574e47524401 ]
report $? "-tls1_2 gets TLS 1.2 with the downgrade sentinel"

serve --key "$K1" --versions 1.2 || ktap_exit_fail_msg "https_server did not start"
client -msg
ok && grep -q "Protocol  : TLSv1.2" "$T/client.out" &&
	[ "$(server_random | tail -c 17)" != 444f574e47524401 ]
report $? "versions 1.2 only: a 1.3 client gets 1.2, no sentinel"
client -tls1_3
! ok && grep -qi "alert protocol version\|alert number 70" "$T/client.out"
report $? "versions 1.2 only: a 1.3-only client gets protocol_version"

serve --key "$K1" --versions 1.3 || ktap_exit_fail_msg "https_server did not start"
client -tls1_2
! ok && grep -qi "alert protocol version\|alert number 70" "$T/client.out"
report $? "versions 1.3 only: a 1.2 client gets protocol_version"

# Suites of one version only leave the other out.
serve --key "$K1" --suites ecdsa-chacha || ktap_exit_fail_msg "https_server did not start"
client
ok && grep -q "TLSv1.2, Cipher is ECDHE-ECDSA-CHACHA20-POLY1305" "$T/client.out"
report $? "1.2 suites only: TLS 1.2 ChaCha20-Poly1305"

# gnutls_client PRIORITY: gnutls-cli fetching /hello
gnutls_client() {
	printf 'GET /hello HTTP/1.0\r\n\r\n' |
		timeout 20 gnutls-cli --x509cafile "$T/ca.pem" -p "$PORT" \
		--priority "$1" --sni-hostname www.example.test \
		--verify-hostname www.example.test \
		127.0.0.1 > "$T/client.out" 2>&1
}

# RFC 7627: no extended master secret, no handshake, unless allowed.
serve --key "$K1" || ktap_exit_fail_msg "https_server did not start"
gnutls_client 'NORMAL:-VERS-ALL:+VERS-TLS1.2:%NO_SESSION_HASH'
! grep -q "hello from the kernel" "$T/client.out" &&
	grep -qi "Received alert \[40\]" "$T/client.out"
report $? "no extended master secret: handshake_failure"
serve --key "$K1" --ems-optional || ktap_exit_fail_msg "https_server did not start"
gnutls_client 'NORMAL:-VERS-ALL:+VERS-TLS1.2:%NO_SESSION_HASH'
grep -q "hello from the kernel" "$T/client.out"
report $? "no extended master secret, listener opted out: TLS 1.2"

# ALPN in 1.2 as in 1.3.
serve --key "$K1" --alpn || ktap_exit_fail_msg "https_server did not start"
client -tls1_2 -alpn http/1.1
ok && grep -q "ALPN protocol: http/1.1" "$T/client.out"
report $? "ALPN http/1.1 selected in TLS 1.2"

# Suites we do not implement: CBC and RSA key exchange are refused.
serve --key "$K1" || ktap_exit_fail_msg "https_server did not start"
client -tls1_2 -cipher ECDHE-ECDSA-AES128-SHA256:AES128-GCM-SHA256
! ok && grep -qi "handshake failure\|alert number 40" "$T/client.out"
report $? "CBC and RSA key exchange only: handshake_failure"

# GnuTLS, TLS 1.2 only.
gnutls_client 'NORMAL:-VERS-ALL:+VERS-TLS1.2'
grep -q "hello from the kernel" "$T/client.out" &&
	grep -q "TLS1.2" "$T/client.out"
report $? "gnutls-cli TLS 1.2"

# curl: files of 1 KB, 64 KB and 16 MB, byte for byte.  (Data both ways
# in bulk, echoed through the accepted kTLS socket: hs_tls12_hostile.)
for f in 1k 64k 16m; do
	timeout 120 curl -sS --tlsv1.2 --tls-max 1.2 --cacert "$T/ca.pem" \
		--resolve "www.example.test:$PORT:127.0.0.1" \
		-o "$T/got.$f" "https://www.example.test:$PORT/$f" > "$T/client.out" 2>&1 &&
		cmp -s "$T/www/$f" "$T/got.$f"
	report $? "curl --tlsv1.2 $f byte-identical"
done

hs_stop_server
ktap_finished
