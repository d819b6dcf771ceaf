#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the demo VM (started by tools/demo/run).  Environment:
#   KTLS_REPORT   output directory, shared read-write with the host
#   KTLS_MODDIR   where ktls_hs.ko was built
#   KTLS_SERVER   the sample server binary

set -u
R=$KTLS_REPORT
OUTF=$R/demo.txt
mkdir -p "$R"
: > "$OUTF"
say() { echo "$*" | tee -a "$OUTF"; }
fail() { say "demo FAILED: $*"; exit 1; }

ip link set lo up
# ktls_hs.ko's dependencies (lib/crypto modules on the distro kernel) first.
for dep in $(modinfo -F depends "$KTLS_MODDIR/ktls_hs.ko" | tr ',' ' '); do
	modprobe "$dep" || fail "modprobe $dep"
done
insmod "$KTLS_MODDIR/ktls_hs.ko" || fail "insmod ktls_hs.ko"
say "kernel $(uname -r): ktls_hs.ko loaded; TCP ULPs: $(cat /proc/sys/net/ipv4/tcp_available_ulp)"

T=$(mktemp -d)
ossl() { openssl "$@" 2>>"$T/openssl.log"; }
ossl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	-keyout "$T/ca.key" -out "$T/ca.pem" -subj "/CN=ktls-hs demo CA" -days 1 &&
ossl ecparam -name prime256v1 -genkey -noout -out "$T/srv.key" &&
ossl req -new -key "$T/srv.key" -subj "/CN=demo.ktls-hs.test" -out "$T/srv.csr" &&
ossl x509 -req -in "$T/srv.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" \
	-set_serial 1 -days 1 -out "$T/srv.pem" \
	-extfile <(echo "subjectAltName=DNS:demo.ktls-hs.test") ||
	fail "openssl: $(tail -3 "$T/openssl.log")"
say "made a test CA and a P-256 certificate for demo.ktls-hs.test"

cat "$T/srv.pem" "$T/ca.pem" "$T/srv.key" > "$T/bundle.pem"
KEY=$(keyctl padd ktls_identity demo @u < "$T/bundle.pem") || fail "keyctl padd"
say "identity loaded: key $KEY ($(keyctl rdescribe "$KEY"))"
rm -f "$T/srv.key" "$T/bundle.pem"	# the key lives in the kernel now

mkdir "$T/www"
head -c 1024 /dev/urandom > "$T/www/1k.bin"
head -c $((1 << 20)) /dev/urandom > "$T/www/1m.bin"
head -c $((64 << 20)) /dev/urandom > "$T/www/64m.bin"

"$KTLS_SERVER" --port 8443 --root "$T/www" --key demo --alpn --verbose \
	> "$T/server.out" 2> "$T/server.err" &
SRV=$!
for _ in $(seq 50); do grep -q listening "$T/server.out" && break; sleep 0.1; done
grep -q listening "$T/server.out" || fail "server: $(cat "$T/server.err")"
say "https_server listening on :8443 (armed listener, key by description \"demo\")"
say ""

brief=$(printf 'GET /1k.bin HTTP/1.0\r\n\r\n' | timeout 30 openssl s_client \
	-connect 127.0.0.1:8443 -servername demo.ktls-hs.test -CAfile "$T/ca.pem" \
	-verify_return_error -alpn http/1.1 -brief 2>&1 >/dev/null)
say "openssl s_client says:"
echo "$brief" | grep -E "Protocol version|Ciphersuite|Server Temp Key|Verification|ALPN" |
	sed 's/^/    /' | tee -a "$OUTF"
say "the server says (getsockopt KTLS_HS_SESSION):"
sed 's/^/    /' "$T/server.err" | tail -1 | tee -a "$OUTF"
say ""

status=0
say "curl, verifying the chain against the test CA:"
for f in 1k.bin 1m.bin 64m.bin; do
	line=$(timeout 300 curl -sS --cacert "$T/ca.pem" \
		--resolve demo.ktls-hs.test:8443:127.0.0.1 \
		-w '%{size_download} bytes in %{time_total} s, %{speed_download} B/s' \
		-o "$T/got" "https://demo.ktls-hs.test:8443/$f" 2>&1)
	if cmp -s "$T/www/$f" "$T/got"; then
		say "    $f: $line, byte-identical"
	else
		say "    $f: FAILED ($line)"
		status=1
	fi
done
say ""
say "kTLS counters (/proc/net/tls_stat):"
grep -E "TlsTxSw|TlsRxSw|TlsDecryptError" /proc/net/tls_stat | sed 's/^/    /' | tee -a "$OUTF"
kill "$SRV"
wait "$SRV" 2>/dev/null
keyctl unlink "$KEY" @u >/dev/null
[ $status = 0 ] && touch "$R/ok" && say "demo OK"
exit $status
