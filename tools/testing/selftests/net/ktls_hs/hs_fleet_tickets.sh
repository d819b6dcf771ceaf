#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Session tickets a fleet shares: two servers in two network namespaces
# (two machines), each given the same payload in a "ktls_tickets" key of
# its own.  A session one of them opened resumes on the other, in TLS
# 1.3 and TLS 1.2 (openssl s_client -sess_out, then -sess_in against the
# other: "Reused").  After a rotation (keyctl update with a new current
# key) a ticket of the key before still resumes; after a second one it
# gets a full handshake, as it does once the key is revoked.  Servers
# with the kernel's own keys do not resume each other's sessions.
# Hostile payloads get their errno at keyctl, the key cannot be read
# back, and a listener naming a key it may not have gets a clear errno.
# Then the same through the ktls tool: tickets add, show (ids, never a
# secret), rotate, del.
# Needs ktls_hs.ko loaded, iproute2, keyutils and openssl.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
NS_A=ktls-hs-fleet-a-$$
NS_B=ktls-hs-fleet-b-$$
KEYS=()
PIDS=()
cleanup() {
	local k p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	for k in "${KEYS[@]}"; do keyctl unlink "$k" @u >/dev/null 2>&1; done
	"$HS_BIN/ktls" tickets del ktls-hs-test-fleet >/dev/null 2>&1
	ip netns del "$NS_A" 2>/dev/null
	ip netns del "$NS_B" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ktap_print_header
ktap_set_plan 23

# secret N: 32 bytes of hex, the same for the same N
secret() { printf '%064x' "$1"; }

# start NS NAME ARGS...: https_server in NS on the next port, with the
# test identity and tickets; its port in the variable NAME
start() {
	local ns=$1 var=$2
	shift 2
	hs_spawn_server "$var" ip netns exec "$ns" "$HS_BIN/https_server" \
		--root "$T/www" --key "$ID" --tickets 3600 "$@"
}

# connect NS PORT SESSION -sess_out|-sess_in ARGS...: s_client in NS
# fetching /hello; its output in $T/client.out
connect() {
	local ns=$1 port=$2 sess=$3 how=$4
	shift 4
	printf 'GET /hello HTTP/1.0\r\n\r\n' |
		ip netns exec "$ns" timeout 20 openssl s_client \
		-connect "127.0.0.1:$port" -CAfile "$T/ca.pem" \
		-verify_return_error -ign_eof -servername www.example.test \
		"$how" "$T/$sess" "$@" > "$T/client.out" 2>&1
	grep -q "hello from the kernel" "$T/client.out"
}

# resumed VERSION / full VERSION: what the last connect said
resumed() { grep -q "Reused, TLSv$1" "$T/client.out"; }
full() { grep -q "New, TLSv$1" "$T/client.out"; }

report() {
	if [ "$1" = 0 ]; then ktap_test_pass "$2"; else
		sed 's/^/# /' "$T/client.out" | tail -15
		ktap_test_fail "$2"
	fi
}

hs_make_ca "$T" && hs_make_identity "$T" www www.example.test ||
	ktap_exit_fail_msg "cannot make a test identity with openssl"
ID=$(hs_load_identity "$T" www) && KEYS+=("$ID") ||
	ktap_exit_fail_msg "keyctl padd ktls_identity failed"
hs_make_www "$T" || ktap_exit_fail_msg "cannot write the files to serve"
for ns in "$NS_A" "$NS_B"; do
	ip netns add "$ns" && ip -n "$ns" link set lo up ||
		ktap_exit_fail_msg "cannot make network namespace $ns"
done

# One payload, each machine's key of its own.
printf '# the fleet'"'"'s ticket keys\ncurrent 1 %s\n' "$(secret 1)" > "$T/p1"
KA=$(keyctl padd ktls_tickets ktls-hs-test-fleet-a @u < "$T/p1") &&
	KEYS+=("$KA") &&
	KB=$(keyctl padd ktls_tickets ktls-hs-test-fleet-b @u < "$T/p1") &&
	KEYS+=("$KB") ||
	ktap_exit_fail_msg "keyctl padd ktls_tickets failed"

start "$NS_A" A --ticket-keys "$KA" && start "$NS_B" B --ticket-keys "$KB" ||
	ktap_exit_fail_msg "https_server did not start: $(cat "$T"/*.err)"

connect "$NS_A" "$A" s13 -sess_out -tls1_3 && full 1.3 &&
	connect "$NS_B" "$B" s13 -sess_in -tls1_3 && resumed 1.3
report $? "TLS 1.3: a session of machine A resumes on machine B"
connect "$NS_A" "$A" s12 -sess_out -tls1_2 && full 1.2 &&
	connect "$NS_B" "$B" s12 -sess_in -tls1_2 && resumed 1.2
report $? "TLS 1.2: a session of machine A resumes on machine B"
connect "$NS_A" "$A" s12 -sess_in -tls1_2 && resumed 1.2
report $? "TLS 1.2: and on machine A"

# Rotation: key 1 is previous.
printf 'current 2 %s\n' "$(secret 2)" > "$T/p2"
keyctl pupdate "$KA" < "$T/p2" && keyctl pupdate "$KB" < "$T/p2"
report $? "keyctl update with a new current key"
grep -q "ktls-hs-test-fleet-a: current 2 age [0-9]* previous 1 age" /proc/keys
report $? "/proc/keys: current 2, previous 1"
connect "$NS_B" "$B" s13 -sess_in -tls1_3 && resumed 1.3
report $? "TLS 1.3: after a rotation, a ticket of the previous key resumes"
connect "$NS_B" "$B" s12 -sess_in -tls1_2 && resumed 1.2
report $? "TLS 1.2: after a rotation, a ticket of the previous key resumes"
connect "$NS_B" "$B" s13b -sess_out -tls1_3 && full 1.3 &&
	connect "$NS_A" "$A" s13b -sess_in -tls1_3 && resumed 1.3
report $? "TLS 1.3: a ticket of the new key, from B, resumes on A"

# A second rotation: key 1 is gone.
printf 'current 3 %s\n' "$(secret 3)" > "$T/p3"
keyctl pupdate "$KA" < "$T/p3" && keyctl pupdate "$KB" < "$T/p3" &&
	connect "$NS_B" "$B" s13 -sess_in -tls1_3 && full 1.3
report $? "TLS 1.3: after a second rotation, a full handshake"
connect "$NS_B" "$B" s12 -sess_in -tls1_2 && full 1.2
report $? "TLS 1.2: after a second rotation, a full handshake"
connect "$NS_A" "$A" s13b -sess_in -tls1_3 && resumed 1.3
report $? "TLS 1.3: a ticket of the now previous key still resumes"

# Revoked on B: full handshakes there, and no tickets, but no failures.
keyctl revoke "$KB" && connect "$NS_B" "$B" s13b -sess_in -tls1_3 && full 1.3
report $? "revoked: a full handshake, the connection served"
# (s_client keeps no session whose ticket was taken back.)
connect "$NS_B" "$B" s12c -sess_out -tls1_2 && full 1.2 &&
	{ [ ! -s "$T/s12c" ] ||
	  { connect "$NS_B" "$B" s12c -sess_in -tls1_2 && full 1.2; }; }
report $? "revoked: TLS 1.2 takes back its ticket, no resumption"

# The kernel's own keys: each machine has its own.
start "$NS_A" OA && start "$NS_B" OB ||
	ktap_exit_fail_msg "https_server did not start: $(cat "$T"/*.err)"
connect "$NS_A" "$OA" o13 -sess_out -tls1_3 &&
	connect "$NS_A" "$OA" o13 -sess_in -tls1_3 && resumed 1.3 &&
	connect "$NS_B" "$OB" o13 -sess_in -tls1_3 && full 1.3
report $? "kernel-made keys: resumes on A itself, not on B"

# Hostile payloads: each refused at keyctl, nothing added.
bad=0
while read -r what payload; do
	if printf '%b' "$payload" |
		keyctl padd ktls_tickets ktls-hs-test-bad @u > "$T/bad.out" 2>&1 ||
	   ! grep -q "Invalid argument" "$T/bad.out"; then
		echo "# accepted or wrong errno: $what: $(cat "$T/bad.out")"
		bad=1
	fi
done <<EOF
empty \\n
no-secret current 7
id-0 current 0 $(secret 1)
id-too-big current 4294967296 $(secret 1)
short current 7 $(printf '%062x' 1)
long current 7 $(printf '%0130x' 1)
odd current 7 $(secret 1)0
not-hex current 7 $(secret 1 | tr 0 g)
same-ids current 7 $(secret 1)\\nprevious 7 $(secret 2)
two-current current 7 $(secret 1)\\ncurrent 8 $(secret 2)
previous-only previous 7 $(secret 1)
keyword next 7 $(secret 1)
extra current 7 $(secret 1) more
EOF
keyctl search @u ktls_tickets ktls-hs-test-bad > /dev/null 2>&1 && bad=1
report $bad "hostile payloads: EINVAL at keyctl padd"

printf 'current 3 %s\n' "$(secret 4)" | keyctl pupdate "$KA" > "$T/client.out" 2>&1
grep -q "File exists" "$T/client.out"
report $? "the current id for another secret: EEXIST at keyctl update"

keyctl read "$KA" > "$T/client.out" 2>&1
[ $? != 0 ] && ! grep -q "$(secret 3)" "$T/client.out"
report $? "keyctl read: refused, no secret"

# A listener naming a key it may not use.
check_listener() {
	local why=$1
	shift
	PORT=$((PORT + 1))
	timeout 5 "$HS_BIN/https_server" --port "$PORT" --root "$T/www" \
		--key "$ID" --tickets 3600 "$@" > "$T/client.out" 2>&1
	grep -q "KTLS_HS_TICKETS: $why" "$T/client.out"
}
check_listener "Invalid argument" --ticket-keys "$ID"
report $? "a key of another type: EINVAL"
KR=$(keyctl padd ktls_tickets ktls-hs-test-revoked @u < "$T/p1") && KEYS+=("$KR") &&
	keyctl invalidate "$KR" && check_listener "Required key not available" \
	--ticket-keys "$KR"
report $? "a key that is gone: ENOKEY"
KH=$(keyctl padd ktls_tickets ktls-hs-test-hidden @u < "$T/p1") && KEYS+=("$KH") &&
	keyctl setperm "$KH" 0x01010000 && check_listener "Permission denied" \
	--ticket-keys "$KH"
report $? "a key the caller may not search: EACCES"

# The tool: add from stdin, show ids only, rotate, del.
K=ktls-hs-test-fleet
"$HS_BIN/ktls" tickets add "$K" --from - < "$T/p1" > "$T/client.out" 2>&1 &&
	"$HS_BIN/ktls" tickets rotate "$K" --from "$T/p2" >> "$T/client.out" 2>&1 &&
	"$HS_BIN/ktls" tickets show "$K" > "$T/show.out" 2>&1 &&
	grep -q "current: id 2, age" "$T/show.out" &&
	grep -q "previous: id 1, age" "$T/show.out" &&
	"$HS_BIN/ktls" tickets list | grep -q "$K.current 2" &&
	! grep -qi "$(secret 1)\|$(secret 2)" "$T/show.out"
report $? "ktls tickets add, rotate, show: ids and ages, no secret"
printf 'current 9 12\n' | "$HS_BIN/ktls" tickets rotate "$K" --from - \
	> "$T/client.out" 2>&1
[ $? = 7 ] && grep -q "refused the payload" "$T/client.out"
report $? "ktls tickets rotate: a bad payload, exit 7"
"$HS_BIN/ktls" tickets del "$K" && ! "$HS_BIN/ktls" tickets show "$K" \
	> /dev/null 2>&1
report $? "ktls tickets del"

ktap_finished
