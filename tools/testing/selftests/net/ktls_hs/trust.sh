#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The "ktls_trust" key type, through stock keyutils and through
# `ktls trust`: a store of P-256 CAs and deny lines loads, keyctl read
# gives the payload back, /proc/keys counts CAs and denied fingerprints;
# every kind of bad store is refused with its own errno and one kernel
# message; update replaces and revoke drops; the tool's add, list, show
# (subjects, end of validity, fingerprints, the denylist), --replace and
# del, and its messages for an RSA CA, a private key, a bad fingerprint.
# CAs are made here with openssl, in a temporary directory.
# Needs ktls_hs.ko loaded.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

KT=$HS_BIN/ktls
T=$(mktemp -d)
RING=
STORE=ktls-trust-test
cleanup() {
	[ -n "$RING" ] && keyctl unlink "$RING" @u >/dev/null 2>&1
	"$KT" trust del "$STORE" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT

ktap_print_header

ossl() { openssl "$@" 2>>"$T/openssl.log"; }

# ca NAME SUBJECT [EXT]: a self-signed P-256 certificate, a CA by default
ca() {
	ossl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$T/$1.key" -out "$T/$1.pem" -subj "$2" -days 2 \
		-addext "${3:-basicConstraints=critical,CA:TRUE}"
}

make_stores() {
	ca ca1 "/CN=ktls-hs trust one" &&
	ca ca2 "/CN=ktls-hs trust two" &&
	ca notca "/CN=ktls-hs not a CA" "basicConstraints=critical,CA:FALSE" &&
	ossl req -x509 -new -newkey rsa:2048 -nodes -keyout "$T/rsa.key" \
		-out "$T/rsa.pem" -subj "/CN=ktls-hs rsa CA" -days 2 || return 1
	FP1=$(ossl x509 -in "$T/ca1.pem" -noout -fingerprint -sha256 |
	      sed 's/.*=//; s/://g' | tr 'A-F' 'a-f')
	cat "$T/ca1.pem" > "$T/one.pem"
	{ echo "# two CAs and a denied certificate"; cat "$T/ca1.pem"
	  echo "deny $FP1"; cat "$T/ca2.pem"; } > "$T/two.pem"
	echo "not a trust store" > "$T/garbage"
	head -n 4 "$T/ca1.pem" > "$T/truncated.pem"
	{ cat "$T/ca1.pem"; echo "deny 0123"; } > "$T/baddeny.pem"
	cat "$T/ca1.pem" "$T/ca1.key" > "$T/withkey.pem"
	for i in $(seq 65); do cat "$T/ca1.pem"; done > "$T/many.pem"
}

if ! make_stores; then
	cat "$T/openssl.log"
	ktap_exit_fail_msg "could not make the test CAs with openssl"
fi

RING=$(keyctl newring ktls_hs_trust_test @u) ||
	ktap_exit_fail_msg "cannot make a keyring"

# --- bad stores ---------------------------------------------------------

bad=(
	"garbage|No data available|trust store has no CERTIFICATE block"
	"truncated.pem|Bad message|PEM block without an END line"
	"rsa.pem|Package not installed|CA certificate has an RSA key"
	"notca.pem|Invalid argument|certificate is not a CA"
	"baddeny.pem|Invalid argument|malformed deny line"
	"withkey.pem|Invalid argument|unexpected PEM block in trust store"
	"many.pem|Argument list too long|more than 64 certificates"
)
ktap_set_plan $((${#bad[@]} + 14))

n=0
for case in "${bad[@]}"; do
	IFS='|' read -r file err msg <<< "$case"
	n=$((n + 1))
	mark="trust.sh: bad store $n $$"
	echo "$mark" > /dev/kmsg
	out=$(keyctl padd ktls_trust "bad$n" "$RING" < "$T/$file" 2>&1)
	rc=$?
	log=$(dmesg | sed -n "/$mark/,\$p" | grep -c "ktls_hs: trust store rejected: .*$msg")
	if [ $rc != 0 ] && [[ $out == *": $err" ]] && [ "$log" = 1 ]; then
		ktap_test_pass "$file refused: $err"
	else
		ktap_test_fail "$file refused: $err (rc $rc, '$out', $log kernel lines)"
	fi
done

out=$(keyctl padd ktls_trust "" "$RING" < "$T/one.pem" 2>&1)
if [[ $out == *": Invalid argument" ]]; then
	ktap_test_pass "a store without a name is refused"
else
	ktap_test_fail "a store without a name is refused ($out)"
fi

# --- good stores --------------------------------------------------------

proc_keys() { grep "^$(printf '%08x' "$1") " /proc/keys; }

id=$(keyctl padd ktls_trust one "$RING" < "$T/one.pem" 2>"$T/err")
if [ -n "$id" ] && keyctl pipe "$id" | cmp -s - "$T/one.pem"; then
	ktap_test_pass "one CA: read returns the PEM"
else
	ktap_test_fail "one CA: read returns the PEM ($(cat "$T/err"))"
fi

line=$(proc_keys "$id")
# /proc/keys cuts the type name to 9 characters
if [[ $line == *" ktls_trus one: 1 CA, 0 denied" ]]; then
	ktap_test_pass "/proc/keys counts the CAs"
else
	ktap_test_fail "/proc/keys counts the CAs: '$line'"
fi

if keyctl pupdate "$id" < "$T/two.pem" 2>"$T/err" &&
   keyctl pipe "$id" | cmp -s - "$T/two.pem" &&
   [[ $(proc_keys "$id") == *" one: 2 CAs, 1 denied" ]]; then
	ktap_test_pass "update: two CAs, a comment and a deny line"
else
	ktap_test_fail "update: two CAs and a deny line ($(cat "$T/err"), $(proc_keys "$id"))"
fi

out=$(keyctl pupdate "$id" < "$T/rsa.pem" 2>&1)
if [[ $out == *": Package not installed" ]] &&
   keyctl pipe "$id" | cmp -s - "$T/two.pem"; then
	ktap_test_pass "a refused update leaves the store alone"
else
	ktap_test_fail "a refused update leaves the store alone ($out)"
fi

out=$(keyctl revoke "$id" 2>&1 && keyctl pipe "$id" 2>&1 >/dev/null)
if [[ $out == *"Key has been revoked" ]]; then
	ktap_test_pass "revoke: the store is gone"
else
	ktap_test_fail "revoke: the store is gone ($out)"
fi

# --- the ktls tool ------------------------------------------------------

# t RC NAME CMD...: CMD exits with RC (its output in $T/out, $T/err)
t() {
	local want=$1 name=$2 rc
	shift 2
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" = "$want" ]; then
		[ "$want" != 0 ] && head -1 "$T/err" | sed 's/^/# /'
		ktap_test_pass "$name"
	else
		ktap_test_fail "$name (rc $rc, want $want: $(head -2 "$T/err"))"
	fi
}

"$KT" trust del "$STORE" >/dev/null 2>&1
t 0 "ktls trust add" "$KT" trust add "$STORE" --ca "$T/two.pem" --deny "$FP1"
t 6 "ktls trust add of an existing name: exit 6" \
	"$KT" trust add "$STORE" --ca "$T/one.pem"
t 0 "ktls trust add --replace" \
	"$KT" trust add "$STORE" --ca "$T/one.pem" --deny "$FP1" --replace

"$KT" trust list > "$T/list" 2>&1
"$KT" trust show "$STORE" > "$T/show" 2>&1
if grep -q "	$STORE	1 CA	1 denied$" "$T/list" &&
   grep -q "subject: *CN=ktls-hs trust one" "$T/show" &&
   grep -q "sha256: *$FP1" "$T/show" && grep -q "deny: $FP1" "$T/show" &&
   grep -q "not after: " "$T/show"; then
	ktap_test_pass "ktls trust list and show"
else
	ktap_test_fail "ktls trust list and show: $(cat "$T/list" "$T/show")"
fi

t 7 "ktls trust add of an RSA CA: exit 7" \
	"$KT" trust add rsa-store --ca "$T/rsa.pem"
if grep -q "its key is RSA; only ECDSA P-256 CAs are supported" "$T/err"; then
	ktap_test_pass "the RSA CA is named in the message"
else
	ktap_test_fail "the RSA CA is named in the message: $(cat "$T/err")"
fi
t 2 "ktls trust add --deny of the wrong length: exit 2" \
	"$KT" trust add bad --ca "$T/one.pem" --deny 0123
t 0 "ktls trust del" "$KT" trust del "$STORE"

ktap_finished
