#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Full TLS 1.3 handshakes by the kernel, against real clients: the sample
# HTTPS server on an armed listener; openssl s_client for every suite and
# group (AES-CCM once allowed) (verifying the chain against the test CA), the HelloRetryRequest
# path, ALPN match and mismatch, SNI choosing the identity; gnutls-cli;
# curl downloads compared byte for byte; the listener's counters.
# Needs ktls_hs.ko loaded, openssl, curl, gnutls-cli.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
# Below the ephemeral range (32768+), where a client of ours may hold it.
PORT=$((20000 + RANDOM % 12000))
KEYS=()
SRV=
trap hs_cleanup EXIT

ktap_print_header
ktap_set_plan 18

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test &&
	hs_make_identity "$T" other other.example.test ||
	ktap_exit_fail_msg "cannot make test identities with openssl"
K1=$(hs_load_identity "$T" www) && KEYS+=("$K1") &&
	K2=$(hs_load_identity "$T" other) && KEYS+=("$K2") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"

hs_make_www "$T" || ktap_exit_fail_msg "cannot write the files to serve"

# serve ARGS...: (re)start https_server on the next port
serve() { hs_start_server https_server --root "$T/www" "$@"; }

# client ARGS...: s_client fetching /hello; output in $T/client.out
client() {
	printf 'GET /hello HTTP/1.0\r\n\r\n' |
		timeout 20 openssl s_client -connect "127.0.0.1:$PORT" -tls1_3 \
		-CAfile "$T/ca.pem" -verify_return_error -ign_eof \
		-servername www.example.test "$@" > "$T/client.out" 2>&1
}

ok() { grep -q "hello from the kernel" "$T/client.out" &&
       grep -q "Verify return code: 0 (ok)" "$T/client.out"; }

report() {	# report NAME: pass if the last command succeeded
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# /' "$T/client.out" | tail -20
		ktap_test_fail "$2"
	fi
}

serve --key "$K1" || ktap_exit_fail_msg "https_server did not start"

for suite in TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 \
	     TLS_CHACHA20_POLY1305_SHA256; do
	for group in X25519 P-256; do
		client -ciphersuites "$suite" -groups "$group"
		key="X25519"
		[ "$group" = P-256 ] && key="ECDH, prime256v1"
		ok && grep -q "Cipher is $suite" "$T/client.out" &&
			grep -q "Server Temp Key: $key" "$T/client.out"
		report $? "s_client $suite $group"
	done
done

# TLS_AES_128_CCM_SHA256 is off by default (handshake_failure, so the
# client gives up) and served once the listener allows it.
client -ciphersuites TLS_AES_128_CCM_SHA256
! ok && grep -qi "handshake failure\|alert number 40" "$T/client.out"
report $? "s_client TLS_AES_128_CCM_SHA256 refused by default"
serve --key "$K1" --suites aes128,ccm ||
	ktap_exit_fail_msg "https_server did not start"
for group in X25519 P-256; do
	client -ciphersuites TLS_AES_128_CCM_SHA256 -groups "$group"
	ok && grep -q "Cipher is TLS_AES_128_CCM_SHA256" "$T/client.out"
	report $? "s_client TLS_AES_128_CCM_SHA256 $group"
done

# OpenSSL sends a share for its first group only: X25519.  A server that
# takes P-256 only can finish the handshake only by a HelloRetryRequest.
serve --key "$K1" --groups p256 || ktap_exit_fail_msg "https_server did not start"
client -groups X25519:P-256
ok && grep -q "Server Temp Key: ECDH, prime256v1" "$T/client.out"
report $? "HelloRetryRequest to P-256"

# ALPN: a match is confirmed, a mismatch is fatal (no_application_protocol).
serve --key "$K1" --alpn || ktap_exit_fail_msg "https_server did not start"
client -alpn http/1.1
ok && grep -q "ALPN protocol: http/1.1" "$T/client.out"
report $? "ALPN http/1.1 selected"
client -alpn h2
! ok && grep -qi "no application protocol\|alert number 120" "$T/client.out"
report $? "ALPN mismatch: no_application_protocol"

# SNI picks the identity whose names match; an unknown name gets the first.
serve --key "$K1" --key "$K2" || ktap_exit_fail_msg "https_server did not start"
client -servername other.example.test -verify_hostname other.example.test
ok && grep -q "CN = other.example.test" "$T/client.out"
report $? "SNI other.example.test picks the second identity"
client -servername nobody.example.test
grep -q "CN = www.example.test" "$T/client.out" && grep -q "hello from the kernel" "$T/client.out"
report $? "unknown SNI gets the first identity"

# GnuTLS, TLS 1.3 only, verifying the chain and the name.
printf 'GET /hello HTTP/1.0\r\n\r\n' |
	timeout 20 gnutls-cli --x509cafile "$T/ca.pem" -p "$PORT" \
	--priority 'NORMAL:-VERS-ALL:+VERS-TLS1.3' \
	--sni-hostname www.example.test --verify-hostname www.example.test \
	127.0.0.1 > "$T/client.out" 2>&1
grep -q "hello from the kernel" "$T/client.out" &&
	grep -q "TLS1.3" "$T/client.out"
report $? "gnutls-cli TLS 1.3"

# curl: files of 1 KB, 64 KB and 16 MB, byte for byte.
for f in 1k 64k 16m; do
	timeout 120 curl -sS --cacert "$T/ca.pem" \
		--resolve "www.example.test:$PORT:127.0.0.1" \
		-o "$T/got.$f" "https://www.example.test:$PORT/$f" > "$T/client.out" 2>&1 &&
		cmp -s "$T/www/$f" "$T/got.$f"
	report $? "curl $f byte-identical"
done

# The server saw every client finish its handshake in the kernel.
hs_stop_server
ktap_finished
