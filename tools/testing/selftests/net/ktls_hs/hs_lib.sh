# SPDX-License-Identifier: GPL-2.0-only
# Shared by the handshake selftests: a throwaway test CA and P-256 server
# identities made with openssl in a temporary directory (no key material
# lives in the tree), loaded into the keyring with stock keyutils.

# hs_make_ca DIR: DIR/ca.pem, DIR/ca.key
hs_make_ca() {
	openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
		-nodes -keyout "$1/ca.key" -out "$1/ca.pem" \
		-subj "/CN=ktls-hs test CA" -days 2 2>>"$1/openssl.log"
}

# hs_make_identity DIR NAME DNS...: DIR/NAME.pem (leaf + CA), DIR/NAME.key,
# DIR/NAME.bundle (chain and key, for keyctl padd ktls_identity)
hs_make_identity() {
	local d=$1 name=$2 cn=$3 san="" dns
	shift 2
	for dns in "$@"; do san="${san:+$san,}DNS:$dns"; done
	san="$san,IP:127.0.0.1,IP:::1"
	openssl ecparam -name prime256v1 -genkey -noout -out "$d/$name.key" \
		2>>"$d/openssl.log" &&
	openssl req -new -key "$d/$name.key" -subj "/CN=$cn" \
		-out "$d/$name.csr" 2>>"$d/openssl.log" &&
	openssl x509 -req -in "$d/$name.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" \
		-set_serial "$RANDOM$RANDOM" -days 2 -out "$d/$name.leaf" \
		-extfile <(printf 'subjectAltName=%s\n' "$san") \
		2>>"$d/openssl.log" &&
	cat "$d/$name.leaf" "$d/ca.pem" > "$d/$name.pem" &&
	cat "$d/$name.pem" "$d/$name.key" > "$d/$name.bundle"
}

# hs_load_identity DIR NAME: prints the key serial
hs_load_identity() {
	keyctl padd ktls_identity "ktls-hs-test-$2" @s < "$1/$2.bundle"
}
