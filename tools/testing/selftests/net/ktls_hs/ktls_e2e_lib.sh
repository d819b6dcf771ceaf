# SPDX-License-Identifier: GPL-2.0-only
# Shared by the end-to-end selftests of the ktls tool (ktls_nginx.sh,
# ktls_go_server.sh, ktls_run_http_server.sh, ktls_rotate_load.sh,
# ktls_close_notify.sh): an
# unmodified plain-HTTP server armed from outside, and real clients.
#
# e2e_setup makes T (scratch, world-readable: nginx's workers run as
# nobody), the test CA, identities www and rot for www.example.test,
# T/www with files 1k, 100k and 2m of random bytes, and adds identity
# $ID with www's chain; the EXIT trap stops $PIDS and deletes $ID.

source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/hs_lib.sh"
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

KT=$HS_BIN/ktls
PORT=$((20000 + RANDOM % 12000))
PIDS=()

e2e_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	"$KT" identity del "$ID" >/dev/null 2>&1
	rm -rf "$T"
}

e2e_setup() {
	T=$(mktemp -d)
	trap e2e_cleanup EXIT
	chmod 755 "$T"
	hs_make_ca "$T" && hs_make_identity "$T" www www.example.test &&
		hs_make_identity "$T" rot www.example.test && mkdir "$T/www" &&
		head -c 1024 /dev/urandom > "$T/www/1k" &&
		head -c 102400 /dev/urandom > "$T/www/100k" &&
		head -c $((2 << 20)) /dev/urandom > "$T/www/2m" &&
		chmod -R a+rX "$T" ||
		ktap_exit_fail_msg "cannot make test identities with openssl"
	"$KT" identity del "$ID" >/dev/null 2>&1
	"$KT" identity add "$ID" --cert "$T/www.pem" --key "$T/www.key" \
		> /dev/null 2> "$T/err" ||
		ktap_exit_fail_msg "ktls identity add: $(cat "$T/err")"
}

# e2e_check NAME CMD...: pass if CMD succeeds, else fail with $T/err
e2e_check() {
	local name=$1
	shift
	if "$@"; then ktap_test_pass "$name"; else
		sed 's/^/# /' "$T/err" 2>/dev/null | tail -15
		ktap_test_fail "$name"
	fi
}

# e2e_waitfor CMD...: CMD succeeds within 20 s
e2e_waitfor() {
	local i
	for i in $(seq 200); do "$@" && return 0; sleep 0.1; done
	return 1
}

# e2e_plain: the server answers plain HTTP on $PORT
e2e_plain() {
	timeout 20 curl -sS -o /dev/null "http://127.0.0.1:$PORT/1k" 2> "$T/err"
}

# e2e_curl VERSION FILE: curl over TLS VERSION, verifying the chain and
# the name against the test CA; the file byte for byte
e2e_curl() {
	rm -f "$T/got"
	timeout 120 curl -sS --cacert "$T/ca.pem" --tlsv"$1" --tls-max "$1" \
		--resolve "www.example.test:$PORT:127.0.0.1" -o "$T/got" \
		"https://www.example.test:$PORT/$2" 2> "$T/err" &&
		cmp "$T/www/$2" "$T/got" 2>> "$T/err" >> "$T/err"
}

# e2e_sclient VERSION FILE: an HTTP/1.0 GET through openssl s_client
# over TLS VERSION, which fails on an unverified chain or name; the body
# after the response header, byte for byte
e2e_sclient() {
	printf 'GET /%s HTTP/1.0\r\nHost: www.example.test\r\n\r\n' "$2" |
		timeout 120 openssl s_client -quiet -connect "127.0.0.1:$PORT" \
		-tls"${1/./_}" -servername www.example.test \
		-verify_hostname www.example.test -verify_return_error \
		-CAfile "$T/ca.pem" > "$T/got.raw" 2> "$T/err"
	python3 - "$T/got.raw" "$T/www/$2" <<'PY' 2>> "$T/err"
import sys
raw = open(sys.argv[1], "rb").read()
head, sep, body = raw.partition(b"\r\n\r\n")
assert sep and head.split(b" ")[1] == b"200", head[:200]
want = open(sys.argv[2], "rb").read()
assert body == want, f"body: {len(body)} bytes, want {len(want)}"
PY
}

# e2e_fetch_all NAME: curl and s_client, TLS 1.3 and 1.2, every file
e2e_fetch_all() {
	local v f c
	for v in 1.3 1.2; do
		for c in curl sclient; do
			for f in 1k 100k 2m; do
				e2e_check "$1: $c TLS $v, $f byte-identical" e2e_$c $v $f
			done
		done
	done
}

# e2e_strace_start PID...: strace every thread of PID... (and what they
# start), recording each read, readv, recvfrom and recvmsg with all the
# bytes read, the file descriptors named (-yy: TCP sockets by address)
e2e_strace_start() {
	local p args=()
	for p in "$@"; do args+=(-p "$p"); done
	rm -f "$T"/strace.*
	strace -f -ff -o "$T/strace" -xx -yy -s 65535 \
		-e trace=read,readv,recvfrom,recvmsg "${args[@]}" 2> "$T/strace.err" &
	STRACE=$!
	PIDS+=("$STRACE")
	# strace says "attached" once per thread it traces
	e2e_waitfor grep -q attached "$T/strace.err" && sleep 1
}

e2e_strace_stop() {
	kill -INT "$STRACE" 2>/dev/null
	wait "$STRACE" 2>/dev/null
}

# e2e_traced_plaintext PID...: four fetches (curl and s_client, TLS 1.3
# and 1.2) while strace watches PID...; what they read is plain HTTP
# requests only (e2e_plaintext_only)
e2e_traced_plaintext() {
	local ok

	e2e_strace_start "$@"
	e2e_curl 1.3 1k && e2e_curl 1.2 100k && e2e_sclient 1.3 1k &&
		e2e_sclient 1.2 1k
	ok=$?
	e2e_strace_stop
	[ $ok = 0 ] && e2e_plaintext_only 4
}

# e2e_plaintext_only N: what the traced processes read from TCP sockets
# is, on each of at least N connections, HTTP request headers and
# nothing else: no TLS record (0x16 0x03 ...), no ClientHello, no
# ciphertext; and no read from a socket failed but with EAGAIN
e2e_plaintext_only() {
	python3 - "$1" "$T"/strace.* <<'PY' 2> "$T/err"
import re, sys
want = int(sys.argv[1])
call = re.compile(r'^(?:read|readv|recvfrom|recvmsg)\(\d+<(TCP(?:v6)?:\[[^\]]*\]|socket:\[\d+\])>, (.*) = (-?\d+)(.*)$')
string = re.compile(r'"((?:\\x[0-9a-f]{2})*)"')
conns = {}
for path in sys.argv[2:]:
    if path.endswith(".err"):
        continue
    for line in open(path):
        m = call.match(line)
        if not m:
            continue
        sock, args, ret, err = m.groups()
        if int(ret) < 0:
            assert "EAGAIN" in err, line
            continue
        data = b"".join(bytes.fromhex(s.replace("\\x", "")) for s in string.findall(args))
        assert len(data) == int(ret), line[:200]
        conns[sock] = conns.get(sock, b"") + data
request = re.compile(rb'(GET [!-~]+ HTTP/1\.[01]\r\n([ -~]+\r\n)*\r\n)+\Z')
seen = 0
for sock, data in conns.items():
    if not data:
        continue
    assert b"\x16\x03" not in data and b"\x17\x03" not in data, (sock, data[:64])
    assert request.match(data), (sock, data[:200])
    seen += 1
assert seen >= want, f"{seen} connections with data, want {want}"
print(f"# {seen} connections, {sum(map(len, conns.values()))} bytes read, all plain HTTP requests")
PY
}
