#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Resumption of mutual-TLS sessions: the ticket carries the client
# certificate the kernel verified, and a resumed session reports it
# (KTLS_HS_PEER with KTLS_HS_PEER_F_RESUMED: the sample HTTPS server's
# X-Client-Subject and X-Client-Resumed headers, and ktls show).  Two
# listeners on one operator ticket key (ktls_tickets), one requiring a
# client certificate, one where it is optional, against one trust store.
# openssl s_client -cert/-key -sess_out, then -sess_in: "Reused" in TLS
# 1.3 and 1.2 under both; a session without a certificate resumes where
# one is optional, never into the listener that requires one (a full
# handshake there, which asks for it).  A ticket lives no longer than
# its certificate (the lifetime hint).  Once the CA left the trust store
# a ticket under it no longer resumes, nor once the leaf is on the
# denylist; it resumes again when the store does vouch for it.  Needs
# ktls_hs.ko loaded, keyutils and openssl.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
KEYS=()
PIDS=()
cleanup() {
	local k p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	for k in "${KEYS[@]}"; do keyctl unlink "$k" @u >/dev/null 2>&1; done
	rm -rf "$T"
}
trap cleanup EXIT

ktap_print_header
ktap_set_plan 19

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make the server identity with openssl"
hs_make_client_pki "$T" ||
	ktap_exit_fail_msg "cannot make the client certificates with openssl"
P=$T/pki
# A client certificate good for ten minutes more.
SOON=$(date -u -d '+10 min' +%Y%m%d%H%M%SZ)
(cd "$P" && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
	-out soon.key && openssl req -new -config ca.cnf -key soon.key \
	-subj "/CN=client soon/O=ktls-hs" -out soon.csr &&
	openssl ca -batch -config ca.cnf -notext -in soon.csr -out soon.pem \
	-cert root.pem -keyfile root.key -extensions v3_client \
	-startdate 20250101000000Z -enddate "$SOON") 2>> "$P/openssl.log" ||
	ktap_exit_fail_msg "cannot make the short-lived client certificate"
ID=$(hs_load_identity "$T" www) && KEYS+=("$ID") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"
TRUST=$(keyctl padd ktls_trust ktls-hs-test-resume @u < "$P/root.pem") &&
	KEYS+=("$TRUST") || ktap_exit_fail_msg "keyctl padd ktls_trust failed"
printf 'current 1 %064x\n' 1 > "$T/tickets"
KT=$(keyctl padd ktls_tickets ktls-hs-test-resume @u < "$T/tickets") &&
	KEYS+=("$KT") || ktap_exit_fail_msg "keyctl padd ktls_tickets failed"
hs_make_www "$T" || ktap_exit_fail_msg "cannot write the files to serve"

# start NAME MODE: https_server asking for certificates in MODE, on the
# shared ticket key; its port in the variable NAME
start() {
	hs_spawn_server "$1" "$HS_BIN/https_server" --root "$T/www" \
		--key "$ID" --tickets 3600 --ticket-keys "$KT" \
		--client-ca "$TRUST" --client-auth "$2"
}

# connect PORT SESSION -sess_out|-sess_in [CLIENT|-] ARGS...: s_client
# fetching /hello with CLIENT's certificate ("-": none); its output in
# $T/client.out
connect() {
	local port=$1 sess=$2 how=$3 who=$4
	local cert=()
	shift 4
	[ "$who" != - ] && cert=(-cert "$P/$who.pem" -key "$P/$who.key")
	printf 'GET /hello HTTP/1.0\r\n\r\n' |
		timeout 20 openssl s_client -connect "127.0.0.1:$port" \
		-CAfile "$T/ca.pem" -verify_return_error -ign_eof \
		-servername www.example.test "${cert[@]}" \
		"$how" "$T/$sess" "$@" > "$T/client.out" 2>&1
}

served() { grep -q "hello from the kernel" "$T/client.out"; }
resumed() { served && grep -q "Reused, TLSv$1" "$T/client.out"; }
full() { served && grep -q "New, TLSv$1" "$T/client.out"; }
subject() { grep -q "^X-Client-Subject: $1" "$T/client.out"; }
# the client the server reports is what the session's ticket carried
from_ticket() { grep -q "^X-Client-Resumed: yes" "$T/client.out"; }
nobody() { ! grep -q "^X-Client-" "$T/client.out"; }
# alert N: the client was told alert N, not resumed, nothing served
alert() { grep -q "alert number $1" "$T/client.out" && ! served &&
	  ! grep -q "Reused," "$T/client.out"; }
hint() { sed -n 's/.*lifetime hint: \([0-9]*\) (seconds).*/\1/p' "$T/client.out"; }

report() {	# report RC NAME
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# /' "$T/client.out" | tail -20
		sed 's/^/# server: /' "$T"/*.err | tail -5
		ktap_test_fail "$2"
	fi
}

start REQ required && start OPT optional ||
	ktap_exit_fail_msg "https_server did not start: $(cat "$T"/*.err)"

connect "$REQ" r13 -sess_out leaf1 -tls1_3 && full 1.3 &&
	subject "CN=client one, O=ktls-hs" && ! from_ticket &&
	[ "$(hint)" = 3600 ]
report $? "TLS 1.3 required: a full handshake verifies the client, a ticket of 3600 s"
connect "$REQ" r13 -sess_in leaf1 -tls1_3 && resumed 1.3 &&
	subject "CN=client one, O=ktls-hs" && from_ticket &&
	grep -q "^X-Client-SAN: DNS:client.example.test" "$T/client.out"
report $? "TLS 1.3 required: resumed, the client from the ticket"
connect "$REQ" r12 -sess_out leaf1 -tls1_2 && full 1.2 &&
	connect "$REQ" r12 -sess_in leaf1 -tls1_2 && resumed 1.2 &&
	subject "CN=client one, O=ktls-hs" && from_ticket
report $? "TLS 1.2 required: resumed, the client from the ticket"
connect "$REQ" l2 -sess_out leaf2 -tls1_3 -cert_chain "$P/int1.pem" &&
	full 1.3 && connect "$REQ" l2 -sess_in leaf2 -tls1_3 && resumed 1.3 &&
	subject "CN=client two, O=ktls-hs"
report $? "TLS 1.3 required: a client under an intermediate resumes too"

connect "$OPT" o13 -sess_out leaf1 -tls1_3 && full 1.3 &&
	connect "$OPT" o13 -sess_in leaf1 -tls1_3 && resumed 1.3 &&
	subject "CN=client one, O=ktls-hs" && from_ticket
report $? "TLS 1.3 optional: resumed with the client"
connect "$OPT" o12 -sess_out leaf1 -tls1_2 && full 1.2 &&
	connect "$OPT" o12 -sess_in leaf1 -tls1_2 && resumed 1.2 &&
	subject "CN=client one, O=ktls-hs" && from_ticket
report $? "TLS 1.2 optional: resumed with the client"
connect "$OPT" n13 -sess_out - -tls1_3 && full 1.3 && nobody &&
	connect "$OPT" n13 -sess_in - -tls1_3 && resumed 1.3 && nobody
report $? "TLS 1.3 optional: a session without a certificate resumes without one"
connect "$REQ" o13 -sess_in leaf1 -tls1_3 && resumed 1.3 &&
	subject "CN=client one, O=ktls-hs" && from_ticket
report $? "a ticket of the optional listener with the client resumes on the required one"

# The same keys open it; the required listener does not take it.
connect "$REQ" n13 -sess_in leaf1 -tls1_3 && full 1.3 &&
	subject "CN=client one, O=ktls-hs" && ! from_ticket
report $? "TLS 1.3: a ticket without a client: a full handshake on the required listener"
connect "$OPT" n12 -sess_out - -tls1_2 && full 1.2 &&
	connect "$REQ" n12 -sess_in leaf1 -tls1_2 && full 1.2 &&
	subject "CN=client one, O=ktls-hs" && ! from_ticket
report $? "TLS 1.2: a ticket without a client: a full handshake on the required listener"
connect "$REQ" n13 -sess_in - -tls1_3
alert 116
report $? "TLS 1.3: that ticket and no certificate: certificate_required"

# A ticket lives no longer than its certificate.
connect "$REQ" soon13 -sess_out soon -tls1_3 && full 1.3 && h=$(hint) &&
	[ "$h" -gt 0 ] && [ "$h" -le 600 ] &&
	connect "$REQ" soon12 -sess_out soon -tls1_2 && full 1.2 &&
	h=$(hint) && [ "$h" -gt 0 ] && [ "$h" -le 600 ]
report $? "a certificate good for 10 minutes: tickets of at most 600 s ($h)"

# ktls show of a resumed session.
hs_show_held "client: CN=client one.*(resumed)" -connect "127.0.0.1:$REQ" \
	-CAfile "$T/ca.pem" -cert "$P/leaf1.pem" -key "$P/leaf1.key" \
	-servername www.example.test -sess_in "$T/r13" -tls1_3
grep -q "client: CN=client one, O=ktls-hs (issuer CN=ktls-hs client CA, O=ktls-hs) .*(resumed)" "$T/client.out"
report $? "ktls show: a resumed session's client, resumed"

# The CA leaves the trust store: its clients' tickets no longer resume.
keyctl pupdate "$TRUST" < "$P/other.pem" &&
	connect "$REQ" r13 -sess_in leaf1 -tls1_3
alert 48
report $? "TLS 1.3: the CA gone from the store: not resumed, unknown_ca"
connect "$OPT" r12 -sess_in leaf1 -tls1_2
alert 48
report $? "TLS 1.2: the CA gone from the store: not resumed, unknown_ca"
keyctl pupdate "$TRUST" < "$P/root.pem" &&
	connect "$REQ" r13 -sess_in leaf1 -tls1_3 && resumed 1.3 && from_ticket
report $? "the CA back in the store: the ticket resumes again"

# The leaf on the denylist: its tickets no longer resume; the others do.
FP=$(openssl x509 -in "$P/leaf1.pem" -noout -fingerprint -sha256 |
     sed 's/.*=//; s/://g')
{ cat "$P/root.pem"; echo "deny $FP"; } | keyctl pupdate "$TRUST" &&
	connect "$REQ" r13 -sess_in leaf1 -tls1_3
alert 48
report $? "TLS 1.3: the leaf denylisted: not resumed, unknown_ca"
connect "$REQ" r12 -sess_in leaf1 -tls1_2
alert 48
report $? "TLS 1.2: the leaf denylisted: not resumed, unknown_ca"
connect "$REQ" l2 -sess_in leaf2 -tls1_3 && resumed 1.3 &&
	subject "CN=client two, O=ktls-hs"
report $? "a client not on the denylist still resumes"

ktap_finished
