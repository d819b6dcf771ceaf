#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The ktls administration tool (tools/ktls): --help of every subcommand;
# identity add/list/show/update/del and their errors; arming a running
# `python3 -m http.server` by pid, then curl over TLS 1.3 and 1.2
# verifying against the test CA, byte for byte, while the server logs
# plain HTTP requests only; re-arming, --replace; every error of arm
# (module not loaded, unknown identity, no such process, no listener,
# a UDP socket, an MPTCP listener, not a listener, not permitted)
# leaving the server as it was; show and show --json with the listener,
# a kTLS session and the counters; rotation by identity update;
# `ktls run` of http.server.
# Needs ktls_hs.ko loaded, openssl, curl, python3, setpriv, unshare.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

KT=$HS_BIN/ktls
T=$(mktemp -d)
PORT=$((20000 + RANDOM % 12000))
ID=ktls-tool-www
ID2=ktls-tool-other
SRV=
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}" $SRV; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for p in $ID $ID2 ktls-tool-rot; do "$KT" identity del "$p" >/dev/null 2>&1; done
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$KT" identity del ktls-tool-nobody >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT

ktap_print_header
ktap_set_plan 56

chmod 755 "$T"
hs_make_ca "$T" && hs_make_identity "$T" www www.example.test &&
	hs_make_identity "$T" other other.example.test &&
	hs_make_identity "$T" rot www.example.test &&
	openssl req -x509 -new -newkey rsa:1024 -nodes -keyout "$T/rsa.key" \
		-out "$T/rsa.pem" -subj /CN=rsa.example.test -days 2 2>/dev/null &&
	openssl pkcs8 -topk8 -in "$T/www.key" -passout pass:x -out "$T/enc.key" &&
	hs_make_www "$T" && chmod -R a+rX "$T" ||
	ktap_exit_fail_msg "cannot make test identities with openssl"

# t RC NAME CMD...: CMD exits with RC (its stderr in $T/err); pass/fail NAME
t() {
	local want=$1 name=$2 rc
	shift 2
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	if [ "$rc" = "$want" ]; then
		# what the tool said, for the log
		[ "$want" != 0 ] && head -1 "$T/err" | sed 's/^/# /'
		ktap_test_pass "$name"
	else
		echo "# exit $rc, expected $want"
		sed 's/^/# /' "$T/err" "$T/out" | tail -10
		ktap_test_fail "$name"
	fi
}

# check NAME CMD...: pass if CMD succeeds
check() {
	local name=$1
	shift
	if "$@"; then ktap_test_pass "$name"; else
		sed 's/^/# /' "$T/err" "$T/out" 2>/dev/null | tail -10
		ktap_test_fail "$name"
	fi
}

# --- help ------------------------------------------------------------

help_all() {
	local c
	for c in "" "identity" "identity add" "identity update" "identity list" \
		 "identity show" "identity del" arm run show; do
		# shellcheck disable=SC2086
		"$KT" $c --help > "$T/out" 2>&1 && grep -q "^usage: ktls" "$T/out" ||
			{ echo "# ktls $c --help"; return 1; }
	done
}
check "--help on every subcommand" help_all

# --- identities ------------------------------------------------------

nothing_added() { ! "$KT" identity list | grep -q "$ID"; }
t 4 "identity add: missing file" \
	"$KT" identity add $ID --cert "$T/nope.pem" --key "$T/www.key"
t 7 "identity add: no certificate" \
	"$KT" identity add $ID --cert "$T/www.key" --key "$T/www.key"
t 7 "identity add: no private key" \
	"$KT" identity add $ID --cert "$T/www.pem" --key "$T/www.pem"
t 7 "identity add: RSA is not P-256" \
	"$KT" identity add $ID --cert "$T/rsa.pem" --key "$T/rsa.key"
t 7 "identity add: encrypted key" \
	"$KT" identity add $ID --cert "$T/www.pem" --key "$T/enc.key"
t 7 "identity add: another's key (EKEYREJECTED)" \
	"$KT" identity add $ID --cert "$T/www.pem" --key "$T/other.key"
grep -q "not the certificate's" "$T/err" && nothing_added
check "identity add: errors name the problem, nothing added" test $? = 0

t 0 "identity add" "$KT" identity add $ID --cert "$T/www.pem" --key "$T/www.key"
S1=$(cat "$T/out")
"$KT" identity add $ID2 --cert "$T/other.pem" --key "$T/other.key" > /dev/null
t 6 "identity add: NAME exists" \
	"$KT" identity add $ID --cert "$T/www.pem" --key "$T/www.key"
in_ktls_ring() {
	local ring
	ring=$(keyctl search @u keyring ktls) &&
		keyctl rdescribe "$S1" | grep -q "^ktls_identity;0;0;3f0b0000;$ID$" &&
		keyctl list "$ring" | grep -q "^ *$S1:" &&
		"$KT" identity list | grep -q "^$S1	$ID	CN=www.example.test"
}
check "identity add: in the ktls keyring of @u, root may search it, listed" in_ktls_ring

"$KT" identity show $ID > "$T/out" 2> "$T/err"
end=$(date -u -d "$(openssl x509 -in "$T/www.leaf" -noout -enddate | cut -d= -f2)" \
	'+%Y-%m-%d %H:%M:%S UTC')
grep -q "subject: *CN=www.example.test$" "$T/out" &&
	grep -q "issuer: *CN=ktls-hs test CA$" "$T/out" &&
	grep -q "names: *DNS:www.example.test,IP:127.0.0.1,IP:::1$" "$T/out" &&
	grep -q "not after: $end" "$T/out" && grep -q "key: *EC P-256" "$T/out" &&
	grep -q "serial: $S1" "$T/out"
check "identity show: subject, issuer, names, not after, key type" test $? = 0
t 4 "identity show: unknown name" "$KT" identity show ktls-tool-nobody

# --- a plain server armed by pid ---------------------------------------

# server PORT: python3 -m http.server on 127.0.0.1:PORT, in $SRV
server() {
	python3 -u -m http.server --bind 127.0.0.1 "$1" --directory "$T/www" \
		> "$T/server.log" 2>&1 &
	SRV=$!
	PIDS+=("$SRV")
}

# get VERSION FILE: curl https, TLS VERSION only, verifying against the CA
get() {
	rm -f "$T/got"
	timeout 180 curl -sS --cacert "$T/ca.pem" --tlsv"$1" --tls-max "$1" \
		--resolve "www.example.test:$PORT:127.0.0.1" -o "$T/got" \
		"https://www.example.test:$PORT/$2" 2> "$T/err" &&
		cmp -s "$T/www/$2" "$T/got"
}

PORT=$((PORT + 1))
server $PORT
plain() {	# the server still speaks plain HTTP
	timeout 20 curl -sS -o "$T/got" "http://127.0.0.1:$PORT/1k" 2> "$T/err" &&
		cmp -s "$T/www/1k" "$T/got"
}
waitfor() { local i; for i in $(seq 100); do "$@" && return 0; sleep 0.1; done; return 1; }
waitfor plain || ktap_exit_fail_msg "python3 -m http.server did not start"

t 4 "arm: unknown identity" \
	"$KT" arm --pid "$SRV" --port $PORT --identity ktls-tool-none
t 4 "arm: no such process" \
	"$KT" arm --pid 4194303 --port $PORT --identity $ID
t 4 "arm: no listener on that port in that process" \
	"$KT" arm --pid "$SRV" --port $((PORT + 50)) --identity $ID
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", int(sys.argv[1])))
print("bound", flush=True); time.sleep(120)' $((PORT + 60)) > "$T/udp.log" &
UDP=$!
PIDS+=("$UDP")
# bound, not only made: a socket not yet bound is "no listener" (4)
waitfor grep -q bound "$T/udp.log"
t 7 "arm: a UDP socket is not a TCP listener" \
	"$KT" arm --pid "$UDP" --port $((PORT + 60)) --identity $ID
UDPFD=$(for f in /proc/"$UDP"/fd/*; do
	[[ $(readlink "$f") == socket:* ]] && basename "$f"; done | head -1)
t 7 "arm: --fd of a socket that does not listen" \
	"$KT" arm --pid "$UDP" --fd "$UDPFD" --identity $ID
# Go listens with MPTCP by default (1.24 on): a listener /proc/net/tcp
# lists as TCP, which the tool refuses by name.
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_MPTCP)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
print("listening", flush=True); time.sleep(60)' $((PORT + 70)) > "$T/mptcp.log" &
MPTCP=$!
PIDS+=("$MPTCP")
mptcp_refused() {
	local i
	for i in $(seq 100); do
		grep -q listening "$T/mptcp.log" && break
		sleep 0.1
	done
	"$KT" arm --pid "$MPTCP" --port $((PORT + 70)) --identity $ID \
		> "$T/out" 2> "$T/err"
	[ $? = 7 ] && grep -q "is an MPTCP listener" "$T/err" &&
		grep -q "GODEBUG=multipathtcp=0" "$T/err"
}
check "arm: an MPTCP listener (Go's default) is refused, named" mptcp_refused
kill "$MPTCP"
t 3 "arm: module not loaded" unshare -m sh -c \
	"mount -t tmpfs none /sys/module && exec $KT arm --pid $SRV --port $PORT --identity $ID"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
$NOBODY "$KT" identity add ktls-tool-nobody --cert "$T/www.pem" --key "$T/www.key" \
	> /dev/null 2> "$T/err" || sed 's/^/# /' "$T/err"
t 5 "arm: another user's process: not permitted (/proc/PID/fd)" \
	$NOBODY "$KT" arm --pid "$SRV" --port $PORT --identity ktls-tool-nobody
t 5 "arm: another user's process: not permitted (pidfd_getfd)" \
	$NOBODY "$KT" arm --pid "$SRV" --fd 3 --identity ktls-tool-nobody
grep -q "ptrace" "$T/err"
check "arm: EPERM says ptrace rights are needed" test $? = 0
check "arm: after every failure the server is unchanged (plain HTTP)" plain

t 0 "arm python3 -m http.server by pid" \
	"$KT" arm --pid "$SRV" --port $PORT --identity $ID --versions 1.2,1.3
grep -q "^armed 127.0.0.1:$PORT (pid $SRV fd " "$T/out"
check "arm: names the listener it armed" test $? = 0
check "curl TLS 1.3, 1 KB, byte-identical" get 1.3 1k
check "curl TLS 1.3, 16 MB, byte-identical" get 1.3 16m
check "curl TLS 1.2, 64 KB, byte-identical" get 1.2 64k
! plain && grep -q '"GET /16m HTTP/1.1" 200' "$T/server.log" &&
	! grep -q "code 400" "$T/server.log"
check "the server sees plain requests only; plain HTTP is refused" test $? = 0

t 6 "arm: port already armed" "$KT" arm --pid "$SRV" --port $PORT --identity $ID
t 6 "arm --replace cannot drop an identity" \
	"$KT" arm --pid "$SRV" --port $PORT --identity $ID2 --replace
t 0 "arm --replace: ALPN and a second identity" \
	"$KT" arm --pid "$SRV" --port $PORT --identity $ID,$ID2 --alpn http/1.1 --replace

# a kTLS session held open while show looks
hs_hold_open -connect "127.0.0.1:$PORT" -tls1_3 \
	-CAfile "$T/ca.pem" -servername other.example.test -alpn http/1.1
hs_show_until "127.0.0.1:$PORT -> .*TLS 1.3"
cp "$T/client.out" "$T/show.txt"
"$KT" show --json > "$T/show.json" 2> "$T/err"
grep -q "127.0.0.1:$PORT  pid $SRV" "$T/show.txt" &&
	grep -q "identities: $ID $ID2" "$T/show.txt" &&
	grep -q "alpn: http/1.1" "$T/show.txt" &&
	grep -q "127.0.0.1:$PORT -> 127.0.0.1:[0-9]*  pid $SRV  TLS 1.3" "$T/show.txt" &&
	grep -q "TlsHsCompleted" "$T/show.txt"
check "show: listener, identities, ALPN, a TLS 1.3 session, counters" test $? = 0
sed 's/^/# /' "$T/show.txt"
python3 - "$T/show.json" "$PORT" "$SRV" "$ID" "$ID2" <<'PY' 2> "$T/err"
import json, sys
d = json.load(open(sys.argv[1]))
port, pid, ids = sys.argv[2], int(sys.argv[3]), sys.argv[4:]
l = [x for x in d["listeners"] if x["address"] == "127.0.0.1:" + port]
assert l and pid in l[0]["owners"] and l[0]["identities"] == ids, l
assert l[0]["alpn"] == "http/1.1" and l[0]["completed"] >= 4, l
s = [x for x in d["sessions"] if x["local"] == "127.0.0.1:" + port]
assert s and s[0]["version"] == "1.3" and pid in s[0]["owners"], d["sessions"]
assert d["counters"]["TlsHsCompleted"] >= 4 and "pool" in d
assert any(i["name"] == ids[0] for i in d["identities"])
PY
check "show --json: the same, as JSON" test $? = 0
hs_hold_close
grep -q "CN = other.example.test" "$T/held.out"
check "SNI picks the identity added by --replace" test $? = 0

# rotation: a new chain under the same name and serial
t 0 "identity update" "$KT" identity update $ID --cert "$T/rot.pem" --key "$T/rot.key"
rotated() {
	echo | timeout 20 openssl s_client -connect "127.0.0.1:$PORT" \
		-servername www.example.test -CAfile "$T/ca.pem" \
		-verify_return_error > "$T/sclient.out" 2>&1
	openssl x509 -in "$T/sclient.out" -noout -serial > "$T/new" 2>/dev/null &&
		openssl x509 -in "$T/rot.leaf" -noout -serial | cmp -s - "$T/new" &&
		[ "$(cat "$T/out")" = "$S1" ] && get 1.3 64k
}
check "identity update: new handshakes get the new chain, same serial" rotated
t 0 "identity del" "$KT" identity del $ID
! "$KT" identity list | grep -q "	$ID	" && get 1.3 1k
check "identity del: gone from the list, the armed listener keeps it" test $? = 0
t 4 "identity del: unknown name" "$KT" identity del $ID
kill "$SRV"

# A listener shared by a process and its forked child (as nginx's master
# and workers share theirs), started by a shell: --tree finds it, and it
# is armed once; TLS 1.3 only, with session tickets.
"$KT" identity add $ID --cert "$T/www.pem" --key "$T/www.key" > /dev/null
PORT=$((PORT + 1))
bash -c 'python3 -c "
import functools, http.server, os, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[2])
srv = http.server.ThreadingHTTPServer((\"127.0.0.1\", int(sys.argv[1])), h)
os.fork()
srv.serve_forever()" "$1" "$2" > "$3" 2>&1 & wait' _ $PORT "$T/www" "$T/server.log" &
SRV=$!
PIDS+=("$SRV")
waitfor plain || ktap_exit_fail_msg "the forking server did not start"
PY1=$(pgrep -P "$SRV")
PY2=$(pgrep -P "$PY1")
PIDS+=("$PY1" "$PY2")
t 4 "arm: the shell holds no listener without --tree" \
	"$KT" arm --pid "$SRV" --port $PORT --identity $ID
t 0 "arm --tree: a listener of two processes, armed once" \
	"$KT" arm --pid "$SRV" --tree --port $PORT --identity $ID \
	--versions 1.3 --tickets 300
[ "$(grep -c "^armed 127.0.0.1:$PORT " "$T/out")" = 1 ] &&
	"$KT" show --json > "$T/show.json" &&
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
l = [x for x in d["listeners"] if x["address"] == "127.0.0.1:" + sys.argv[2]]
assert len(l) == 1 and len(l[0]["owners"]) == 2, l
assert l[0]["versions"] == "1.3" and l[0]["tickets_s"] == 300, l' "$T/show.json" $PORT
check "show: one listener, both owners, TLS 1.3 only, tickets" test $? = 0
! get 1.2 64k && get 1.3 64k
check "--versions 1.3: TLS 1.2 refused, 1.3 served" test $? = 0
resume() {
	printf 'GET /1k HTTP/1.0\r\n\r\n' | timeout 20 openssl s_client \
		-connect "127.0.0.1:$PORT" -CAfile "$T/ca.pem" -ign_eof \
		-servername www.example.test "$@" \
		> "$T/sclient.out" 2>&1
}
# (what is looked at is whether the session was reused)
resume -sess_out "$T/sess"
resume -sess_in "$T/sess"
grep -q "^Reused, TLSv1.3" "$T/sclient.out" || tail -5 "$T/sclient.out" > "$T/err"
check "--tickets: openssl s_client resumes the session" test $? = 0
# Rotation under load: a client fetching in a loop, verifying each
# chain, while the identity goes back and forth between two chains.
load() {
	local i
	for i in $(seq 20); do
		timeout 60 curl -sS --cacert "$T/ca.pem" -o "$T/got.load" \
			--resolve "www.example.test:$PORT:127.0.0.1" \
			"https://www.example.test:$PORT/1k" 2>> "$T/load.err" &&
			cmp -s "$T/www/1k" "$T/got.load" || return 1
	done
}
load &
LOAD=$!
for i in 1 2 3; do
	"$KT" identity update $ID --cert "$T/rot.pem" --key "$T/rot.key" > /dev/null &&
		sleep 0.5 &&
		"$KT" identity update $ID --cert "$T/www.pem" --key "$T/www.key" > /dev/null &&
		sleep 0.5 || break
done
wait $LOAD
ok=$?
cp "$T/load.err" "$T/err" 2>/dev/null
check "identity update under load: every handshake verifies, none fails" test $ok = 0
t 0 "identity add --replace: the same serial" \
	"$KT" identity add $ID --replace --cert "$T/www.pem" --key "$T/www.key"
"$KT" identity list | grep -q "^$(cat "$T/out")	$ID	"
check "identity add --replace: listed under its serial" test $? = 0
kill "$PY1" "$PY2" "$SRV" 2>/dev/null

# An SO_REUSEPORT group: two listeners on one port in one process, both
# armed; every connection, whichever listener the kernel picks, is TLS.
PORT=$((PORT + 1))
python3 -c 'import functools, http.server, socket, sys, threading
class S(http.server.ThreadingHTTPServer):
	def server_bind(self):
		self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
		super().server_bind()
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[2])
for i in range(2):
	srv = S(("127.0.0.1", int(sys.argv[1])), h)
	threading.Thread(target=srv.serve_forever).start()' $PORT "$T/www" \
	> "$T/server.log" 2>&1 &
SRV=$!
PIDS+=("$SRV")
waitfor plain || ktap_exit_fail_msg "the SO_REUSEPORT server did not start"
reuseport() {
	local i
	"$KT" arm --pid "$SRV" --port $PORT --identity $ID > "$T/out" 2> "$T/err" &&
		[ "$(grep -c "^armed 127.0.0.1:$PORT " "$T/out")" = 2 ] || return 1
	for i in $(seq 8); do get 1.3 1k || return 1; done
}
check "SO_REUSEPORT: both listeners armed, every connection TLS" reuseport
kill "$SRV"

# A connection queued, not yet accepted, when the listener is armed: the
# armed listener closes it and the server's accept() never sees it.
PORT=$((PORT + 1))
python3 -c 'import os, socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(8)
print("listening", flush=True)
while not os.path.exists(sys.argv[2]):
	time.sleep(0.1)
s.settimeout(3)
try:
	s.accept()
	print("accepted", flush=True)
except socket.timeout:
	print("nothing to accept", flush=True)
time.sleep(30)' $PORT "$T/go" > "$T/server.log" 2>&1 &
SRV=$!
PIDS+=("$SRV")
listening() { grep -q listening "$T/server.log"; }
waitfor listening
python3 -c 'import socket, sys
c = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
print("connected", flush=True)
c.settimeout(30)
print("eof" if c.recv(100) == b"" else "data", flush=True)' $PORT > "$T/client.log" 2>&1 &
CLI=$!
PIDS+=("$CLI")
connected() { grep -q connected "$T/client.log"; }
waitfor connected
"$KT" arm --pid "$SRV" --port $PORT --identity $ID > /dev/null 2> "$T/err" &&
	touch "$T/go" && wait "$CLI" && grep -q "^eof" "$T/client.log" &&
	waitfor grep -q "nothing to accept" "$T/server.log"
check "a connection queued at arming is closed, never accepted" test $? = 0
kill "$SRV"

# --- ktls run ----------------------------------------------------------

"$KT" identity add $ID --replace --cert "$T/www.pem" --key "$T/www.key" > /dev/null
t 4 "run: unknown identity, COMMAND not started" \
	"$KT" run --port $PORT --identity ktls-tool-none -- touch "$T/started"
[ ! -e "$T/started" ]
check "run: nothing started on failure" test $? = 0
PORT=$((PORT + 1))
"$KT" run --port $PORT --identity $ID -- python3 -u -m http.server \
	--bind 127.0.0.1 $PORT --directory "$T/www" > "$T/server.log" 2>&1 &
RUN=$!
PIDS+=("$RUN")
waitfor get 1.3 1k
check "run python3 -m http.server: curl TLS 1.3, 64 KB, byte-identical" get 1.3 64k
check "run python3 -m http.server: curl TLS 1.2, 64 KB, byte-identical" get 1.2 64k
grep -q "ktls run: armed port $PORT" "$T/server.log" && ! plain &&
	! grep -q "code 400" "$T/server.log"
ok=$?
kill -TERM "$RUN"
wait "$RUN"
rc=$?
check "run: armed at listen(), SIGTERM passed on, its exit status ($rc)" \
	test $ok = 0 -a $rc = 143

ktap_finished
