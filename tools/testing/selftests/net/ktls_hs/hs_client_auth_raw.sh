#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs hs_client_auth.py (raw TLS 1.3 and TLS 1.2 clients answering the
# listener's CertificateRequest: whole handshakes with a client
# certificate, then hostile Certificate, ClientKeyExchange and
# CertificateVerify messages, each of which must get its alert, and
# KTLS_HS_CLIENT_AUTH's argument checks) with a test identity, a client
# PKI and a trust store holding its CA.  Needs ktls_hs.ko loaded,
# openssl, and python3 with the cryptography package.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"

run() {
	local t rc trust
	t=$(mktemp -d)
	if ! hs_make_client_pki "$t"; then
		cat "$t/pki/openssl.log"
		echo "Bail out! cannot make the client certificates with openssl"
		rm -rf "$t"
		return 1
	fi
	if ! trust=$(keyctl padd ktls_trust ktls-hs-test-clients @u < "$t/pki/root.pem"); then
		echo "Bail out! keyctl padd ktls_trust failed"
		rm -rf "$t"
		return 1
	fi
	KTLS_TRUST=$trust KTLS_PKI=$t/pki python3 "$DIR/hs_client_auth.py"
	rc=$?
	keyctl unlink "$trust" @u >/dev/null 2>&1
	rm -rf "$t"
	return $rc
}
hs_with_identity run
