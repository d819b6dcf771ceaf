#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The "ktls_identity" key type through stock keyutils: good bundles in PEM
# and DER, SEC1 and PKCS#8, load; every kind of bad bundle is refused with
# its own errno and one kernel message; keyctl read gives the chain and
# never the private key; /proc/keys names the subject and the SANs;
# update replaces and revoke drops.  Bundles are made here with openssl,
# in a temporary directory, so no key material lives in the tree.
# Needs ktls_hs.ko loaded.

source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
RING=
cleanup() {
	[ -n "$RING" ] && keyctl unlink "$RING" @u >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT

ktap_print_header

# --- bundles ------------------------------------------------------------

# quiet openssl: its chatter is not test output
ossl() { openssl "$@" 2>>"$T/openssl.log"; }

# ca NAME KEYOPT: a self-signed CA
ca() {
	ossl req -x509 -new -newkey "$2" ${3:+-pkeyopt "$3"} -nodes \
		-keyout "$T/$1.key" -out "$T/$1.pem" -subj "/CN=ktls-hs test $1" \
		-days 2
}

# leaf NAME KEYFILE SUBJECT SAN: a certificate for KEYFILE, signed by "ca"
leaf() {
	ossl req -new -key "$2" -subj "$3" -out "$T/$1.csr" &&
	ossl x509 -req -in "$T/$1.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
		-set_serial "$RANDOM" -days 2 -out "$T/$1.pem" \
		-extfile <(printf 'subjectAltName=%s\n' "$4")
}

der() { ossl x509 -in "$T/$1.pem" -outform DER -out "$T/$1.der"; }

make_bundles() {
	ca ca ec ec_paramgen_curve:P-256 &&
	ossl ecparam -name prime256v1 -genkey -noout -out "$T/leaf.key" &&
	leaf leaf "$T/leaf.key" "/CN=www.example.test/O=ktls-hs" \
		"DNS:www.example.test,DNS:*.example.test,IP:127.0.0.1,IP:::1" &&
	ossl pkcs8 -topk8 -nocrypt -in "$T/leaf.key" -out "$T/leaf.p8" &&
	ossl ec -in "$T/leaf.key" -outform DER -out "$T/leaf.key.der" &&
	der leaf && der ca &&
	# a second identity, its key as "openssl ecparam -genkey" writes it:
	# an EC PARAMETERS block before the EC PRIVATE KEY
	ossl ecparam -name prime256v1 -genkey -out "$T/other.key" &&
	leaf other "$T/other.key" "/CN=other.example.test" "DNS:other.example.test" &&
	der other &&
	ossl req -x509 -new -newkey rsa:1024 -nodes -keyout "$T/rsa.key" \
		-out "$T/rsa.pem" -subj "/CN=rsa.example.test" -days 2 &&
	ca p384 ec ec_paramgen_curve:P-384 &&
	ossl pkcs8 -topk8 -in "$T/leaf.key" -passout pass:secret \
		-out "$T/leaf.enc" &&
	ossl ec -in "$T/other.key" -outform DER -out "$T/other.key.der" &&
	ossl ec -in "$T/other.key" -no_public -out "$T/other-nopub.key" || return 1

	cat "$T/leaf.pem" "$T/ca.pem" "$T/leaf.key" > "$T/good.pem"
	cat "$T/leaf.pem" "$T/leaf.p8" > "$T/good-pkcs8.pem"
	cat "$T/leaf.der" "$T/ca.der" "$T/leaf.key.der" > "$T/good.der"
	cat "$T/leaf.der" "$T/ca.der" > "$T/good.chain"
	{ echo "# key first, text around blocks"; cat "$T/leaf.key" "$T/leaf.pem"; } \
		> "$T/keyfirst.pem"
	cat "$T/other.pem" "$T/other.key" > "$T/other-bundle.pem"

	echo "this is not a certificate bundle" > "$T/garbage"
	head -c -20 "$T/good.der" > "$T/truncated.der"
	head -n 5 "$T/good.pem" > "$T/truncated.pem"
	sed '2s/^./*/' "$T/good.pem" > "$T/badbase64.pem"
	cat "$T/rsa.pem" "$T/rsa.key" > "$T/rsa-bundle.pem"
	cat "$T/p384.pem" "$T/p384.key" > "$T/p384-bundle.pem"
	cat "$T/leaf.pem" "$T/other.key" > "$T/mismatch.pem"
	cp "$T/leaf.key" "$T/keyonly.pem"
	cp "$T/leaf.pem" "$T/certonly.pem"
	cat "$T/leaf.pem" "$T/leaf.key" "$T/leaf.p8" > "$T/twokeys.pem"
	cat "$T/leaf.pem" "$T/leaf.enc" > "$T/encrypted.pem"
	{ cat "$T/good.pem"; head -c 70000 /dev/zero | tr '\0' '#'; } > "$T/oversize.pem"
	{ cat "$T/leaf.pem"; for _ in $(seq 16); do cat "$T/ca.pem"; done
	  cat "$T/leaf.key"; } > "$T/longchain.pem"
	{ cat "$T/good.pem"; ossl ec -in "$T/leaf.key" -pubout; } > "$T/pubkey.pem"
	cat "$T/leaf.pem" "$T/other-nopub.key" > "$T/mismatch-nopub.pem"

	# The leaf's SEC1 key, public key included, with the scalar (at
	# offset 7) swapped: another key's, zero, and the group order n.
	sec1_with() {
		{ head -c 7 "$T/leaf.key.der"; cat; tail -c +40 "$T/leaf.key.der"; } |
			cat "$T/leaf.der" - > "$T/$1"
	}
	tail -c +8 "$T/other.key.der" | head -c 32 | sec1_with forged.der
	head -c 32 /dev/zero | sec1_with zero.der
	printf '%b' '\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff' \
		'\xbc\xe6\xfa\xad\xa7\x17\x9e\x84\xf3\xb9\xca\xc2\xfc\x63\x25\x51' | sec1_with order.der
}

if ! make_bundles; then
	cat "$T/openssl.log"
	ktap_exit_fail_msg "could not make the test bundles with openssl"
fi

# the private scalar, as hex: SEC1 DER puts it 7 bytes in
SCALAR=$(od -An -tx1 -v -j 7 -N 32 "$T/leaf.key.der" | tr -d ' \n')
hex() { od -An -tx1 -v "$1" | tr -d ' \n'; }

RING=$(keyctl newring ktls_hs_identity_test @u) ||
	ktap_exit_fail_msg "cannot make a keyring"

# --- bad bundles --------------------------------------------------------

# reject FILE ERRNO-TEXT MESSAGE: padd fails with ERRNO-TEXT, and the kernel
# logs one line with MESSAGE
bad=(
	"garbage|Invalid argument|payload is neither DER nor PEM"
	"truncated.der|Bad message|truncated or malformed DER element"
	"truncated.pem|Bad message|PEM block without an END line"
	"badbase64.pem|Bad message|invalid character in PEM base64"
	"rsa-bundle.pem|Package not installed|RSA key, not P-256"
	"p384-bundle.pem|Package not installed|not on the P-256 curve"
	"mismatch.pem|Key was rejected by service|private key does not match the leaf certificate"
	"mismatch-nopub.pem|Key was rejected by service|private key does not match the leaf certificate"
	"forged.der|Key was rejected by service|private key does not match the leaf certificate"
	"zero.der|Key was rejected by service|private key is out of range for P-256"
	"order.der|Key was rejected by service|private key is out of range for P-256"
	"keyonly.pem|No data available|bundle has no certificate"
	"certonly.pem|Required key not available|bundle has no private key"
	"twokeys.pem|Invalid argument|bundle holds more than one private key"
	"encrypted.pem|Package not installed|encrypted private keys are not supported"
	"oversize.pem|Message too long|bundle is larger than 64 KiB"
	"longchain.pem|Argument list too long|chain is longer than 16 certificates"
	"pubkey.pem|Invalid argument|unexpected PEM block in bundle"
)
ktap_set_plan $((${#bad[@]} + 12))

n=0
for case in "${bad[@]}"; do
	IFS='|' read -r file err msg <<< "$case"
	n=$((n + 1))
	mark="identity.sh: bad bundle $n $$"
	echo "$mark" > /dev/kmsg
	out=$(keyctl padd ktls_identity "bad$n" "$RING" < "$T/$file" 2>&1)
	rc=$?
	log=$(dmesg | sed -n "/$mark/,\$p" | grep -c "ktls_hs: identity rejected: .*$msg")
	if [ $rc != 0 ] && [[ $out == *": $err" ]] && [ "$log" = 1 ]; then
		ktap_test_pass "$file refused: $err"
	else
		ktap_test_fail "$file refused: $err (rc $rc, '$out', $log kernel lines)"
	fi
done

# --- good bundles -------------------------------------------------------

# add FILE DESC: the new key's id, empty on failure
add() { keyctl padd ktls_identity "$2" "$RING" < "$T/$1" 2>"$T/add.err"; }
proc_keys() { grep "^$(printf '%08x' "$1") " /proc/keys; }

id=$(add good.pem "")
if [ -n "$id" ] && keyctl pipe "$id" > "$T/read.out" &&
   cmp -s "$T/read.out" "$T/good.chain"; then
	ktap_test_pass "PEM bundle with a chain of 2: read returns the DER chain"
else
	ktap_test_fail "PEM bundle with a chain of 2 ($(cat "$T/add.err"))"
fi

if [ -n "$id" ] && [[ $(hex "$T/read.out") != *"$SCALAR"* ]] &&
   [[ $(keyctl read "$id" | tr -d ' \n') != *"$SCALAR"* ]] &&
   [ ${#SCALAR} = 64 ]; then
	ktap_test_pass "keyctl read never shows the private key"
else
	ktap_test_fail "keyctl read never shows the private key"
fi

desc=$(keyctl describe "$id" 2>&1)
if [[ $desc == *" ktls_identity: www.example.test" ]]; then
	ktap_test_pass "empty description becomes the first DNS name ($desc)"
else
	ktap_test_fail "empty description becomes the first DNS name ($desc)"
fi

want='www.example.test: subject "CN=www.example.test, O=ktls-hs" san DNS:www.example.test,DNS:*.example.test,IP:127.0.0.1,IP:::1 chain 2'
line=$(proc_keys "$id")
# /proc/keys cuts the type name to 9 characters
if [[ $line == *" ktls_iden $want" ]]; then
	ktap_test_pass "/proc/keys shows subject and SAN"
else
	ktap_test_fail "/proc/keys shows subject and SAN: '$line'"
fi

id2=$(add good-pkcs8.pem pkcs8)
if [ -n "$id2" ] && [ "$(keyctl pipe "$id2" | hex /dev/stdin)" = "$(hex "$T/leaf.der")" ]; then
	ktap_test_pass "PKCS#8 private key"
else
	ktap_test_fail "PKCS#8 private key ($(cat "$T/add.err"))"
fi

id3=$(add good.der der)
if [ -n "$id3" ] && keyctl pipe "$id3" | cmp -s - "$T/good.chain"; then
	ktap_test_pass "DER bundle"
else
	ktap_test_fail "DER bundle ($(cat "$T/add.err"))"
fi

id4=$(add keyfirst.pem keyfirst)
if [ -n "$id4" ] && keyctl pipe "$id4" | cmp -s - "$T/leaf.der"; then
	ktap_test_pass "key before the certificate, text between blocks"
else
	ktap_test_fail "key before the certificate, text between blocks ($(cat "$T/add.err"))"
fi

# --- update and revoke --------------------------------------------------

if keyctl pupdate "$id" < "$T/other-bundle.pem" 2>"$T/add.err" &&
   keyctl pipe "$id" | cmp -s - "$T/other.der" &&
   [[ $(proc_keys "$id") == *'www.example.test: subject "CN=other.example.test" san DNS:other.example.test chain 1' ]]; then
	ktap_test_pass "update replaces the identity (EC PARAMETERS block ignored)"
else
	ktap_test_fail "update replaces the identity ($(cat "$T/add.err"), $(proc_keys "$id"))"
fi

out=$(keyctl pupdate "$id" < "$T/mismatch.pem" 2>&1)
if [[ $out == *": Key was rejected by service" ]] &&
   keyctl pipe "$id" | cmp -s - "$T/other.der"; then
	ktap_test_pass "a refused update leaves the identity alone"
else
	ktap_test_fail "a refused update leaves the identity alone ($out)"
fi

out=$(keyctl revoke "$id" 2>&1 && keyctl pipe "$id" 2>&1 >/dev/null)
if [[ $out == *"Key has been revoked" ]]; then
	ktap_test_pass "revoke: the chain is gone"
else
	ktap_test_fail "revoke: the chain is gone ($out)"
fi

out=$(keyctl pupdate "$id2" < "$T/good.pem" 2>&1)
if [ -z "$out" ] && keyctl pipe "$id2" | cmp -s - "$T/good.chain"; then
	ktap_test_pass "update from a chain of 1 to a chain of 2"
else
	ktap_test_fail "update from a chain of 1 to a chain of 2 ($out)"
fi

# the payload is at most 64 KiB: exactly that is still taken
{ cat "$T/good.pem"; head -c $((65536 - $(stat -c %s "$T/good.pem"))) /dev/zero |
  tr '\0' '\n'; } > "$T/max.pem"
id5=$(add max.pem max)
if [ -n "$id5" ] && [ "$(stat -c %s "$T/max.pem")" = 65536 ]; then
	ktap_test_pass "a 64 KiB bundle is taken"
else
	ktap_test_fail "a 64 KiB bundle is taken ($(cat "$T/add.err"))"
fi

ktap_finished
