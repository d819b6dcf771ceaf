#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutual TLS by the kernel against real clients: the sample HTTPS server
# asking for client certificates (--client-ca, a "ktls_trust" key), with
# openssl s_client -cert/-key (a leaf under the CA, and one under an
# intermediate the client sends), curl --cert/--key and gnutls-cli
# --x509certfile/--x509keyfile, in TLS 1.3 and 1.2 (a SHA-384 suite
# too); the verified subject and names coming back in the server's
# response headers (KTLS_HS_PEER).  Required: no certificate gets
# certificate_required (TLS 1.3) or handshake_failure (1.2); an expired
# or not yet valid one certificate_expired, one under an unknown CA or
# denylisted unknown_ca, one under a CA:FALSE intermediate, for
# serverAuth only or below too many intermediates bad_certificate; an
# RSA one is not sent, the request offering ECDSA alone.  Optional: with
# and without a certificate, both versions.  ktls show of the listener
# and a live session.  The CA names in the request (--ca-names); the
# store updated with a denylist and revoked.  hs_client_auth_raw.sh has
# the raw and hostile clients.  Needs ktls_hs.ko loaded, openssl, curl,
# gnutls-cli.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
KEYS=()
SRV=
trap hs_cleanup EXIT

ktap_print_header
ktap_set_plan 28

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make the server identity with openssl"
hs_make_client_pki "$T" ||
	ktap_exit_fail_msg "cannot make the client certificates with openssl"
P=$T/pki
ID=$(hs_load_identity "$T" www) && KEYS+=("$ID") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"
TRUST=$(keyctl padd ktls_trust ktls-hs-test-clients @u < "$P/root.pem") &&
	KEYS+=("$TRUST") || ktap_exit_fail_msg "keyctl padd ktls_trust failed"
hs_make_www "$T" || ktap_exit_fail_msg "cannot write the files to serve"

# serve ARGS...: (re)start https_server on the next port
serve() { hs_start_server https_server --root "$T/www" --key "$ID" "$@"; }

# client ARGS...: s_client fetching /hello; output in $T/client.out
client() {
	printf 'GET /hello HTTP/1.0\r\n\r\n' |
		timeout 20 openssl s_client -connect "127.0.0.1:$PORT" \
		-CAfile "$T/ca.pem" -verify_return_error -ign_eof \
		-servername www.example.test "$@" > "$T/client.out" 2>&1
}

# as NAME [ARGS...]: client with NAME's certificate and key
as() {
	local name=$1
	shift
	client -cert "$P/$name.pem" -key "$P/$name.key" "$@"
}

served() { grep -q "hello from the kernel" "$T/client.out"; }
subject() { grep -q "^X-Client-Subject: $1" "$T/client.out"; }
# alert N: the client was told alert N, and got nothing served
alert() { grep -q "alert number $1" "$T/client.out" && ! served; }

report() {	# report RC NAME
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# /' "$T/client.out" | tail -20
		sed 's/^/# server: /' "$T/server.err" | tail -5
		ktap_test_fail "$2"
	fi
}

serve --client-ca "$TRUST" --client-auth required ||
	ktap_exit_fail_msg "https_server did not start"

as leaf1 -tls1_3
served && subject "CN=client one, O=ktls-hs" &&
	grep -q "^X-Client-SAN: DNS:client.example.test" "$T/client.out"
report $? "required: s_client with a certificate under the CA, subject and name seen"
as leaf2 -cert_chain "$P/int1.pem"
served && subject "CN=client two, O=ktls-hs"
report $? "required: s_client sending an intermediate"
client
alert 116
report $? "required: no certificate: certificate_required"

timeout 20 curl -sS -i --cacert "$T/ca.pem" --cert "$P/leaf1.pem" \
	--key "$P/leaf1.key" --resolve "www.example.test:$PORT:127.0.0.1" \
	"https://www.example.test:$PORT/hello" > "$T/client.out" 2>&1
served && grep -q "^X-Client-Subject: CN=client one" "$T/client.out"
report $? "required: curl --cert --key"
timeout 20 curl -sS --cacert "$T/ca.pem" \
	--resolve "www.example.test:$PORT:127.0.0.1" \
	"https://www.example.test:$PORT/hello" > "$T/client.out" 2>&1
! served
report $? "required: curl without a certificate is refused"

printf 'GET /hello HTTP/1.0\r\n\r\n' |
	timeout 20 gnutls-cli --x509cafile "$T/ca.pem" -p "$PORT" \
	--x509certfile "$P/leaf1.pem" --x509keyfile "$P/leaf1.key" \
	--priority 'NORMAL:-VERS-ALL:+VERS-TLS1.3' \
	--sni-hostname www.example.test --verify-hostname www.example.test \
	127.0.0.1 > "$T/client.out" 2>&1
served && grep -q "^X-Client-Subject: CN=client one" "$T/client.out"
report $? "required: gnutls-cli --x509certfile --x509keyfile"

as expired
alert 45
report $? "an expired certificate: certificate_expired"
as future
alert 45
report $? "a certificate not valid yet: certificate_expired"
as unknown
alert 48
report $? "a certificate under an unknown CA: unknown_ca"
as noca -cert_chain "$P/noca_int.pem"
alert 42
report $? "under an intermediate with CA:FALSE: bad_certificate"
as server
alert 42
report $? "a certificate for serverAuth only: bad_certificate"
as long -cert_chain "$P/long.chain.pem"
alert 42
report $? "five intermediates, one past the limit: bad_certificate"
# The request offers ECDSA alone: OpenSSL then sends no RSA certificate.
as rsa
alert 116
report $? "an RSA key the request does not take: no certificate sent, certificate_required"

# TLS 1.2 (RFC 5246 7.4.4, 7.4.6, 7.4.8)
as leaf1 -tls1_2
served && subject "CN=client one, O=ktls-hs"
report $? "TLS 1.2: s_client with a certificate"
as leaf2 -tls1_2 -cert_chain "$P/int1.pem" -cipher ECDHE-ECDSA-AES256-GCM-SHA384
served && subject "CN=client two, O=ktls-hs" &&
	grep -q "ECDHE-ECDSA-AES256-GCM-SHA384" "$T/client.out"
report $? "TLS 1.2: a SHA-384 suite, the CertificateVerify over SHA-256"
client -tls1_2
alert 40
report $? "TLS 1.2: no certificate: handshake_failure"
as expired -tls1_2
alert 45
report $? "TLS 1.2: an expired certificate: certificate_expired"
timeout 20 curl -sS -i --tls-max 1.2 --cacert "$T/ca.pem" --cert "$P/leaf1.pem" \
	--key "$P/leaf1.key" --resolve "www.example.test:$PORT:127.0.0.1" \
	"https://www.example.test:$PORT/hello" > "$T/client.out" 2>&1
served && grep -q "^X-Client-Subject: CN=client one" "$T/client.out"
report $? "TLS 1.2: curl --cert --key"
printf 'GET /hello HTTP/1.0\r\n\r\n' |
	timeout 20 gnutls-cli --x509cafile "$T/ca.pem" -p "$PORT" \
	--x509certfile "$P/leaf1.pem" --x509keyfile "$P/leaf1.key" \
	--priority 'NORMAL:-VERS-ALL:+VERS-TLS1.2' \
	--sni-hostname www.example.test --verify-hostname www.example.test \
	127.0.0.1 > "$T/client.out" 2>&1
served && grep -q "^X-Client-Subject: CN=client one" "$T/client.out"
report $? "TLS 1.2: gnutls-cli --x509certfile --x509keyfile"

serve --client-ca "$TRUST" --client-auth optional ||
	ktap_exit_fail_msg "https_server did not restart"
client
served && ! grep -q "^X-Client-Subject" "$T/client.out"
report $? "optional: s_client without a certificate is served"
as leaf1
served && subject "CN=client one, O=ktls-hs"
report $? "optional: s_client with one is verified"
as unknown
alert 48
report $? "optional: a bad certificate is still refused"
client -tls1_2
served && ! grep -q "^X-Client-Subject" "$T/client.out"
report $? "optional: TLS 1.2 without a certificate is served"

# ktls show: the listener's setting, and a live session's client.
hs_show_held "client: CN=client one" -connect "127.0.0.1:$PORT" \
	-CAfile "$T/ca.pem" -cert "$P/leaf1.pem" -key "$P/leaf1.key"
grep -q "client certificates: optional, trust store ktls-hs-test-clients" "$T/client.out" &&
	grep -q "client: CN=client one, O=ktls-hs (issuer CN=ktls-hs client CA, O=ktls-hs) DNS:client.example.test,URI:spiffe://example.test/ns/default/sa/client,email:client@example.test" "$T/client.out"
report $? "ktls show: the listener's client certificates and a session's client"

serve --client-ca "$TRUST" --ca-names ||
	ktap_exit_fail_msg "https_server did not restart"
as leaf1
served && grep -A2 "Acceptable client certificate CA names" "$T/client.out" |
	grep -q "CN = ktls-hs client CA"
report $? "--ca-names: the request names the CA"

# The store updated: a denylist line for leaf1; then revoked.
FP=$(openssl x509 -in "$P/leaf1.pem" -noout -fingerprint -sha256 |
     sed 's/.*=//; s/://g')
{ cat "$P/root.pem"; echo "deny $FP"; } | keyctl pupdate "$TRUST"
as leaf1
alert 48
report $? "a denylisted certificate: unknown_ca"
as leaf2 -cert_chain "$P/int1.pem"
served
report $? "the others under the CA still pass"
keyctl revoke "$TRUST"
as leaf1
! served
report $? "the trust store revoked: no handshake completes"
ktap_finished
