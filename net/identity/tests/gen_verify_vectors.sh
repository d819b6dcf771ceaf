#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Makes the test PKI of verify_kunit.c with openssl and writes it, as DER
# arrays, to verify_vectors.h beside this script.  Every certificate has
# fixed validity dates (openssl ca -startdate/-enddate), so the tests pass
# a clock of their own and the output never goes stale; keys and
# signatures differ at each run, which is why the output is committed.
#
#   root      the trust anchor, valid 2024-01-01 .. 2054-01-01 (notAfter
#             past 2049, so a GeneralizedTime)
#   int1      CA under root; int2 CA under int1
#   leaf1/2/3 good client leaves under root, int1, int2: chains of one,
#             two and three certificates below the anchor
#   leaf384   under root, signed with ecdsa-with-SHA384
#   badsig    leaf1 with the last byte of its signature changed
#   unknown   under "other", a root not in the store
#   imposter  under a CA with root's name and another key: AKI != SKI
#   expired   valid 2022 .. 2023; future: valid 2040 .. 2041
#   noca + noca_int     a leaf under an intermediate with CA:FALSE
#   pl_leaf + pl_int1 (pathlen:0) + pl_int2: pathLenConstraint exceeded
#   server    extendedKeyUsage serverAuth only
#   crit      an unknown critical extension
#   long + long_int1..5 five intermediates, one more than the limit
#   rsa       an RSA leaf under root; rsa_ca an RSA root for the store
#
#   gen_verify_vectors.sh [OUTPUT]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/verify_vectors.h}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"

ossl() { openssl "$@" 2>>"$T/log" || { cat "$T/log" >&2; exit 1; }; }

cat > ca.cnf <<'EOF'
[ca]
default_ca = ca_default
[ca_default]
dir = .
database = index.txt
new_certs_dir = new
serial = serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
[policy_any]
commonName = supplied
organizationName = optional
[req]
distinguished_name = dn
[dn]
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[v3_ca_pl0]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[v3_noca]
basicConstraints = critical, CA:FALSE
keyUsage = critical, keyCertSign, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[v3_client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = DNS:client.example.test, URI:spiffe://example.test/ns/default/sa/client, email:client@example.test
[v3_server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
authorityKeyIdentifier = keyid
subjectAltName = DNS:server.example.test
[v3_crit]
basicConstraints = critical, CA:FALSE
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
1.3.6.1.4.1.55555.1 = critical, ASN1:UTF8String:must understand
EOF
mkdir new
touch index.txt
echo 1000 > serial

key() { ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key"; }

# sign NAME ISSUER EXT START END [MD]: NAME.csr signed by ISSUER
sign() {
	ossl ca -batch -config ca.cnf -notext -in "$1.csr" -out "$1.pem" \
		-cert "$2.pem" -keyfile "$2.key" -extensions "$3" \
		-startdate "$4" -enddate "$5" -md "${6:-sha256}"
}

csr() { ossl req -new -config ca.cnf -key "$1.key" -subj "$2" -out "$1.csr"; }

# root NAME SUBJECT: a self-signed CA
root() {
	key "$1"
	csr "$1" "$2"
	ossl ca -batch -config ca.cnf -notext -selfsign -in "$1.csr" \
		-out "$1.pem" -keyfile "$1.key" -extensions v3_ca \
		-startdate 20240101000000Z -enddate 20540101000000Z
}

# cert NAME SUBJECT ISSUER EXT [START END [MD]]
cert() {
	key "$1"
	csr "$1" "$2"
	sign "$1" "$3" "$4" "${5:-20250101000000Z}" "${6:-20350101000000Z}" \
		"${7:-sha256}"
}

root root "/CN=ktls test root/O=ktls-hs"
root other "/CN=ktls test other root/O=ktls-hs"
cert int1 "/CN=ktls test int1/O=ktls-hs" root v3_ca
cert int2 "/CN=ktls test int2/O=ktls-hs" int1 v3_ca
cert leaf1 "/CN=client one/O=ktls-hs" root v3_client
cert leaf2 "/CN=client two/O=ktls-hs" int1 v3_client
cert leaf3 "/CN=client three/O=ktls-hs" int2 v3_client
cert leaf384 "/CN=client sha384/O=ktls-hs" root v3_client \
	20250101000000Z 20350101000000Z sha384
cert unknown "/CN=client unknown/O=ktls-hs" other v3_client
# the imposter: root's subject, another key
key imposter_ca
csr imposter_ca "/CN=ktls test root/O=ktls-hs"
ossl ca -batch -config ca.cnf -notext -selfsign -in imposter_ca.csr \
	-out imposter_ca.pem -keyfile imposter_ca.key -extensions v3_ca \
	-startdate 20240101000000Z -enddate 20540101000000Z
cert imposter "/CN=client imposter/O=ktls-hs" imposter_ca v3_client
cert expired "/CN=client expired/O=ktls-hs" root v3_client \
	20220101000000Z 20230101000000Z
cert future "/CN=client future/O=ktls-hs" root v3_client \
	20400101000000Z 20410101000000Z
cert noca_int "/CN=ktls test not a CA/O=ktls-hs" root v3_noca
cert noca "/CN=client under a non-CA/O=ktls-hs" noca_int v3_client
cert pl_int1 "/CN=ktls test pathlen 0/O=ktls-hs" root v3_ca_pl0
cert pl_int2 "/CN=ktls test under pathlen 0/O=ktls-hs" pl_int1 v3_ca
cert pl_leaf "/CN=client pathlen/O=ktls-hs" pl_int2 v3_client
cert server "/CN=server only/O=ktls-hs" root v3_server
cert crit "/CN=client critical/O=ktls-hs" root v3_crit
prev=root
for i in 1 2 3 4 5; do
	cert "long_int$i" "/CN=ktls test long $i/O=ktls-hs" "$prev" v3_ca
	prev=long_int$i
done
cert long "/CN=client long/O=ktls-hs" "$prev" v3_client
ossl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.key
csr rsa "/CN=client rsa/O=ktls-hs"
sign rsa root v3_client 20250101000000Z 20350101000000Z
ossl req -x509 -new -newkey rsa:2048 -nodes -keyout rsa_ca.key \
	-out rsa_ca.pem -subj "/CN=ktls test rsa root" -days 3650

for f in *.pem; do
	ossl x509 -in "$f" -outform DER -out "${f%.pem}.der"
done
# The signature's last byte: the low byte of s, still valid DER.
cp leaf1.der badsig.der
last=$(($(stat -c %s badsig.der) - 1))
byte=$(od -An -tu1 -j "$last" -N 1 badsig.der | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" |
	dd of=badsig.der bs=1 seek="$last" conv=notrunc status=none

# array NAME FILE: a C array of FILE's bytes
array() {
	echo "static const u8 vec_$1[] = {"
	od -An -tx1 -w12 -v "$2" | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1, /g' \
		-e 's/, $/,/' -e 's/^/\t/'
	echo "};"
	echo
}

# string NAME FILE: FILE as a C string
string() {
	echo "static const char vec_$1[] ="
	sed -e 's/^/\t"/' -e 's/$/\\n"/' "$2"
	echo "	;"
	echo
}

{
	echo "/* SPDX-License-Identifier: GPL-2.0-only */"
	echo "/*"
	echo " * The test PKI of verify_kunit.c, made by gen_verify_vectors.sh (which"
	echo " * says what each certificate is for); regenerate, do not edit."
	echo " */"
	echo "#ifndef _KTLS_HS_VERIFY_VECTORS_H"
	echo "#define _KTLS_HS_VERIFY_VECTORS_H"
	echo
	echo "#include <linux/types.h>"
	echo
	for n in root other int1 int2 leaf1 leaf2 leaf3 leaf384 badsig unknown \
		 imposter_ca imposter expired future noca_int noca pl_int1 pl_int2 \
		 pl_leaf server crit long_int1 long_int2 long_int3 long_int4 \
		 long_int5 long rsa; do
		array "$n" "$n.der"
	done
	string root_pem root.pem
	string other_pem other.pem
	string int1_pem int1.pem
	string leaf1_pem leaf1.pem
	string long_int1_pem long_int1.pem
	string rsa_ca_pem rsa_ca.pem
	echo "/* SHA-256 of leaf1's DER, for the denylist */"
	echo "static const char vec_leaf1_sha256[] ="
	echo "	\"$(sha256sum leaf1.der | cut -d' ' -f1)\";"
	echo
	echo "#endif /* _KTLS_HS_VERIFY_VECTORS_H */"
} > "$out"
