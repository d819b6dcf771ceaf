# SPDX-License-Identifier: GPL-2.0-only
# Shared by the handshake selftests: a throwaway test CA and P-256 server
# identities made with openssl in a temporary directory (no key material
# lives in the tree), loaded into the keyring with stock keyutils.
#
# Keys go to the user keyring (@u): a process without a session keyring
# that names @s gets a session keyring of its own, which dies with it,
# and the key with it.  Built programs are in KTLS_KSFT_OUT when run from
# the source tree, beside the scripts once installed.

HS_BIN=${KTLS_KSFT_OUT:-$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")}

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
	keyctl padd ktls_identity "ktls-hs-test-$2" @u < "$1/$2.bundle"
}

# hs_with_identity CMD...: runs CMD with KTLS_HS_KEY (a ktls_identity key
# for www.example.test, in the user keyring), KTLS_HS_KEY2 (another one
# for the same name, with a certificate of its own), KTLS_HS_USER_KEY (a
# key of another type) and KTLS_HS_CA (the CA file) in the environment;
# the keys and files are gone afterwards.  CMD's output is the test's.
hs_with_identity() {
	local t rc
	t=$(mktemp -d)
	if ! hs_make_ca "$t" || ! hs_make_identity "$t" srv www.example.test ||
	   ! hs_make_identity "$t" srv2 www.example.test; then
		cat "$t/openssl.log"
		echo "Bail out! cannot make a test identity with openssl"
		rm -rf "$t"
		return 1
	fi
	if ! KTLS_HS_KEY=$(hs_load_identity "$t" srv) ||
	   ! KTLS_HS_KEY2=$(hs_load_identity "$t" srv2); then
		echo "Bail out! keyctl padd ktls_identity failed"
		keyctl unlink "$KTLS_HS_KEY" @u >/dev/null 2>&1
		rm -rf "$t"
		return 1
	fi
	KTLS_HS_USER_KEY=$(keyctl add user ktls-hs-test-user secret @u)
	KTLS_HS_CA=$t/ca.pem
	export KTLS_HS_KEY KTLS_HS_KEY2 KTLS_HS_USER_KEY KTLS_HS_CA
	"$@"
	rc=$?
	keyctl unlink "$KTLS_HS_KEY" @u >/dev/null 2>&1
	keyctl unlink "$KTLS_HS_KEY2" @u >/dev/null 2>&1
	keyctl unlink "$KTLS_HS_USER_KEY" @u >/dev/null 2>&1
	rm -rf "$t"
	return $rc
}

# The scripts that run a test server share T (their scratch directory),
# PORT (one more for every server started, so that a restart never meets
# the last one's TIME_WAIT), SRV (the running server's pid) and KEYS
# (serials to unlink at the end).

# hs_stop_server: stop $SRV, if one runs
hs_stop_server() {
	[ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null
	SRV=
}

# hs_cleanup: stop the server, unlink $KEYS, remove $T
hs_cleanup() {
	local k
	hs_stop_server
	for k in "${KEYS[@]}"; do keyctl unlink "$k" @u >/dev/null 2>&1; done
	rm -rf "$T"
}

# hs_start_server PROG ARGS...: (re)start $HS_BIN/PROG on the next port,
# output in $T/server.out and $T/server.err; 0 once it says "listening"
hs_start_server() {
	local prog=$1 i
	shift
	hs_stop_server
	PORT=$((PORT + 1))
	"$HS_BIN/$prog" --port "$PORT" "$@" \
		> "$T/server.out" 2> "$T/server.err" &
	SRV=$!
	for i in $(seq 50); do
		grep -q listening "$T/server.out" 2>/dev/null && return 0
		kill -0 "$SRV" 2>/dev/null || break
		sleep 0.1
	done
	cat "$T/server.err"
	return 1
}

# hs_make_www DIR: DIR/www with files 1k, 64k and 16m of random bytes,
# and hello, which says "hello from the kernel"
hs_make_www() {
	mkdir "$1/www" &&
		head -c 1024 /dev/urandom > "$1/www/1k" &&
		head -c 65536 /dev/urandom > "$1/www/64k" &&
		head -c $((16 << 20)) /dev/urandom > "$1/www/16m" &&
		echo "hello from the kernel" > "$1/www/hello"
}
