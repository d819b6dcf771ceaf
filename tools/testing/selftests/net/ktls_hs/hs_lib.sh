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
	local prog=$1
	shift
	hs_stop_server
	PORT=$((PORT + 1))
	"$HS_BIN/$prog" --port "$PORT" "$@" \
		> "$T/server.out" 2> "$T/server.err" &
	SRV=$!
	hs_wait_listening "$T/server.out" "$SRV" && return 0
	cat "$T/server.err"
	return 1
}

# hs_wait_listening OUT PID: 0 once OUT says "listening", 1 if PID ends
# first or 5 s pass
hs_wait_listening() {
	local i
	for i in $(seq 50); do
		grep -q listening "$1" 2>/dev/null && return 0
		kill -0 "$2" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

# hs_spawn_server VAR CMD...: one more server beside the others, CMD (a
# server and its arguments, under ip netns exec if need be) with --port
# of the next port, which goes into the variable VAR; its pid is added
# to PIDS, its output in $T/VAR.out and $T/VAR.err
hs_spawn_server() {
	local var=$1
	shift
	PORT=$((PORT + 1))
	"$@" --port "$PORT" > "$T/$var.out" 2> "$T/$var.err" &
	PIDS+=($!)
	printf -v "$var" '%s' "$PORT"
	hs_wait_listening "$T/$var.out" "${PIDS[-1]}"
}

# hs_hold_open ARGS...: an openssl s_client with ARGS whose input is a
# fifo held open, so that its session stays up however slow its
# handshake, until hs_hold_close
hs_hold_open() {
	rm -f "$T/hold"
	mkfifo "$T/hold" || return 1
	timeout 120 openssl s_client "$@" < "$T/hold" > "$T/held.out" 2>&1 &
	HS_HELD=$!
	exec {HS_HOLD_FD}> "$T/hold"
}

# hs_hold_close: end the session hs_hold_open holds; its status
hs_hold_close() {
	exec {HS_HOLD_FD}>&-
	wait "$HS_HELD"
}

# hs_show_until PATTERN: `ktls show` into $T/client.out until a line of
# it matches PATTERN (grep), at most 100 tries 0.2 s apart
hs_show_until() {
	local i
	for i in $(seq 100); do
		"$HS_BIN/ktls" show > "$T/client.out" 2>&1
		grep -q "$1" "$T/client.out" && return 0
		sleep 0.2
	done
	return 1
}

# hs_show_held PATTERN ARGS...: `ktls show` into $T/client.out while an
# openssl s_client with ARGS holds a session, until a line of it matches
# PATTERN or 100 tries have not
hs_show_held() {
	local pattern=$1
	shift
	hs_hold_open "$@" || return 1
	hs_show_until "$pattern"
	hs_hold_close
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

# hs_make_client_pki DIR: client certificates for the mutual-TLS tests,
# made with `openssl ca` in DIR/pki (fixed dates, so that expired and
# not-yet-valid ones can be had): root.pem (the CA a trust store holds),
# int1.pem under it, and NAME.pem with NAME.key for each client:
#   leaf1     under root: clientAuth, DNS, URI (a SPIFFE ID) and email names
#   leaf2     under int1 (NAME.chain.pem: leaf then int1)
#   unknown   under other.pem, a root no store holds
#   expired   valid 2022 .. 2023; future: valid 2040 .. 2041
#   noca      under noca_int, an intermediate with CA:FALSE
#   server    extendedKeyUsage serverAuth only
#   long      under five intermediates (long.chain.pem), one past the limit
#   rsa       an RSA key under root
hs_make_client_pki() {
	local d=$1/pki i prev
	mkdir -p "$d/new" && : > "$d/index.txt" && echo 1000 > "$d/serial" || return 1
	cat > "$d/ca.cnf" <<'EOF'
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
[v3_noca]
basicConstraints = critical, CA:FALSE
keyUsage = critical, keyCertSign, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[v3_client]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
subjectAltName = DNS:client.example.test, URI:spiffe://example.test/ns/default/sa/client, email:client@example.test
[v3_server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
authorityKeyIdentifier = keyid
EOF
	(
		cd "$d" || exit 1
		exec 2>>openssl.log
		key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1.key"; }
		csr() { openssl req -new -config ca.cnf -key "$1.key" -subj "$2" -out "$1.csr"; }
		# cert NAME SUBJECT ISSUER EXT [START END]
		cert() {
			key "$1" && csr "$1" "$2" &&
			openssl ca -batch -config ca.cnf -notext -in "$1.csr" -out "$1.pem" \
				-cert "$3.pem" -keyfile "$3.key" -extensions "$4" \
				-startdate "${5:-20250101000000Z}" -enddate "${6:-20500101000000Z}"
		}
		root() {
			key "$1" && csr "$1" "$2" &&
			openssl ca -batch -config ca.cnf -notext -selfsign -in "$1.csr" \
				-out "$1.pem" -keyfile "$1.key" -extensions v3_ca \
				-startdate 20240101000000Z -enddate 20540101000000Z
		}
		root root "/CN=ktls-hs client CA/O=ktls-hs" &&
		root other "/CN=ktls-hs other CA/O=ktls-hs" &&
		cert int1 "/CN=ktls-hs client int1/O=ktls-hs" root v3_ca &&
		cert leaf1 "/CN=client one/O=ktls-hs" root v3_client &&
		cert leaf2 "/CN=client two/O=ktls-hs" int1 v3_client &&
		cat leaf2.pem int1.pem > leaf2.chain.pem &&
		cert unknown "/CN=client one/O=ktls-hs" other v3_client &&
		cert expired "/CN=client expired/O=ktls-hs" root v3_client \
			20220101000000Z 20230101000000Z &&
		cert future "/CN=client future/O=ktls-hs" root v3_client \
			20400101000000Z 20410101000000Z &&
		cert noca_int "/CN=ktls-hs not a CA/O=ktls-hs" root v3_noca &&
		cert noca "/CN=client under a non-CA/O=ktls-hs" noca_int v3_client &&
		cert server "/CN=server only/O=ktls-hs" root v3_server || exit 1
		prev=root
		: > long.chain.tail
		for i in 1 2 3 4 5; do
			cert "long_int$i" "/CN=ktls-hs long $i/O=ktls-hs" "$prev" v3_ca || exit 1
			cat "long_int$i.pem" long.chain.tail > long.chain.tmp
			mv long.chain.tmp long.chain.tail
			prev=long_int$i
		done
		cert long "/CN=client long/O=ktls-hs" "$prev" v3_client &&
		cat long.pem long.chain.tail > long.chain.pem &&
		openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.key &&
		csr rsa "/CN=client rsa/O=ktls-hs" &&
		openssl ca -batch -config ca.cnf -notext -in rsa.csr -out rsa.pem \
			-cert root.pem -keyfile root.key -extensions v3_client \
			-startdate 20250101000000Z -enddate 20500101000000Z
	)
}
