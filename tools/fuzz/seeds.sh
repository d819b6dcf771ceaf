#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Seed corpora for every target, made fresh at build time from known
# sources: keys and certificates from openssl(1), ClientHellos of real
# clients (openssl, gnutls-cli, curl, and Go's crypto/tls where Go is
# installed) captured on a local socket (capture.py), and whole
# conversations recorded against the engine (fuzz-seeds).
#
#   seeds.sh BUILD OUTDIR
set -euo pipefail

build=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rm -rf "$out"
mkdir -p "$out"/{engine,record,bundle,x509,eckey,pem,verify} "$tmp/clients"

# ------------------------------------------------- identity material
cd "$tmp"
ssl() { openssl "$@" 2>/dev/null; }
ssl ecparam -name prime256v1 -genkey -noout -out ca.key
ssl req -x509 -new -key ca.key -subj "/CN=Fuzz CA/O=ktls-hs" -days 3650 -out ca.pem
ssl ecparam -name prime256v1 -genkey -noout -out leaf.key
ssl req -new -key leaf.key -subj "/CN=a.example/O=ktls-hs+OU=fuzz" -out leaf.csr
printf 'subjectAltName=DNS:a.example,DNS:*.wild.example,IP:127.0.0.1,IP:::1\n' > san.ext
ssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 365 \
	-extfile san.ext -out leaf.pem
ssl req -x509 -new -key leaf.key -subj "/CN=self.example" -days 30 \
	-addext "subjectAltName=DNS:self.example" -out self.pem
ssl req -x509 -newkey rsa:2048 -nodes -keyout rsa.key -subj "/CN=rsa.example" \
	-days 30 -out rsa.pem
ssl ec -in leaf.key -outform DER -out leaf.sec1.der
ssl ec -in leaf.key -no_public -outform DER -out leaf.nopub.der
ssl ec -in leaf.key -param_enc explicit -outform DER -out leaf.explicit.der
ssl pkcs8 -topk8 -nocrypt -in leaf.key -out leaf.p8.pem
ssl pkcs8 -topk8 -nocrypt -in leaf.key -outform DER -out leaf.p8.der
for c in ca leaf self rsa; do ssl x509 -in $c.pem -outform DER -out $c.der; done

cp leaf.der ca.der self.der rsa.der "$out/x509/"
cp leaf.sec1.der leaf.nopub.der leaf.explicit.der leaf.p8.der "$out/eckey/"
cp leaf.pem leaf.key leaf.p8.pem rsa.pem "$out/pem/"
cat leaf.pem leaf.key > "$out/bundle/pem-leaf-key"
cat leaf.pem ca.pem leaf.p8.pem > "$out/bundle/pem-chain-pkcs8"
cat leaf.der ca.der leaf.sec1.der > "$out/bundle/der-chain-sec1"
cat self.pem leaf.key > "$out/bundle/pem-self-signed"
cat leaf.pem ca.key > "$out/bundle/pem-wrong-key"
cat rsa.pem leaf.key > "$out/bundle/pem-rsa-leaf"
cp "$out"/pem/* "$out/bundle/"

# ---------------------------------- certificate_lists of the test PKI
# The KUnit tests' certificates (verify_vectors.h), as the verify target
# reads them: each behind a 24-bit length.
vectors=$here/../../net/identity/tests/verify_vectors.h
vec() {
	sed -n "/^static const u8 vec_$1\[\] = {/,/^};/p" "$vectors" |
		grep -o '0x[0-9a-f][0-9a-f]' | sed 's/0x/\\x/' | tr -d '\n' |
		xargs -0 printf '%b'
}
chain() {
	local name=$1 c n
	shift
	for c in "$@"; do
		vec "$c" > "$tmp/cert.der"
		n=$(stat -c %s "$tmp/cert.der")
		printf "$(printf '\\x%02x\\x%02x\\x%02x' $((n >> 16)) $((n >> 8 & 255)) $((n & 255)))"
		cat "$tmp/cert.der"
	done > "$out/verify/$name"
}
chain one leaf1
chain two leaf2 int1
chain three leaf3 int2 int1
chain sha384 leaf384
chain badsig badsig
chain unknown unknown other
chain imposter imposter imposter_ca
chain expired expired
chain future future
chain noca noca noca_int
chain pathlen pl_leaf pl_int2 pl_int1
chain server server
chain crit crit
chain long long long_int5 long_int4 long_int3 long_int2 long_int1
chain rsa rsa


to=127.0.0.1:{port}
clients=(
	openssl-13 "openssl s_client -tls1_3 -connect $to -servername a.example -alpn h2,http/1.1"
	openssl-13-p256 "openssl s_client -tls1_3 -groups P-256 -ciphersuites TLS_AES_256_GCM_SHA384 -connect $to"
	openssl-12 "openssl s_client -tls1_2 -connect $to -servername a.example"
	openssl-any "openssl s_client -connect $to -servername b.example -sess_out /dev/null"
	gnutls "gnutls-cli --insecure -p {port} 127.0.0.1"
	gnutls-12 "gnutls-cli --insecure --priority NORMAL:-VERS-TLS1.3 -p {port} 127.0.0.1"
	curl "curl -sk https://$to/"
	curl-12 "curl -sk --tlsv1.2 --tls-max 1.2 https://$to/"
)
# Go's crypto/tls too, where Go is installed (the standard library only).
if command -v go >/dev/null &&
   GO111MODULE=off go build -o "$tmp/goclient" "$here/goclient.go"; then
	clients+=(go "$tmp/goclient $to" go-12 "$tmp/goclient $to tls12")
fi
python3 "$here/capture.py" "$tmp/clients" "${clients[@]}"

# ------------------------------------------ recorded conversations
"$build/fuzz-seeds" "$out/engine" "$tmp"/clients/*

# The framer's: the records of those conversations after the
# ClientHello (whose legacy 0x0301 header the record layer never sees),
# under a TLS 1.2 and a TLS 1.3 selector each.
python3 - "$out/engine" "$out/record" <<'PY'
import os, sys
src, dst = sys.argv[1:]
for name in sorted(os.listdir(src)):
    data = open(os.path.join(src, name), "rb").read()[2:]
    if len(data) < 5:
        continue
    rest = data[5 + int.from_bytes(data[3:5], "big"):]
    if len(rest) < 5:
        continue
    for sel in (0x00, 0x03, 0x80, 0x83):
        with open(os.path.join(dst, f"{name}-{sel:02x}"), "wb") as f:
            f.write(bytes([sel]) + rest)
PY
for t in engine record verify bundle x509 eckey pem; do
	printf 'seeds: %-7s %3d inputs\n' $t "$(ls "$out/$t" | wc -l)"
done
