# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the guest side of the benchmarks whose load comes from the
# host (hs_guest.sh, http_guest.sh): the guest's network for that load,
# the test identity, waiting for a listener, and profiles of the vCPU.
# The caller sets R (the report directory, shared with the host) and T
# (its scratch directory) first.

# QEMU's user network: the guest is 10.0.2.15, and the host reaches the
# servers through ports QEMU forwards to it.
host_net() {
	local dev

	modprobe virtio_net 2>/dev/null
	for dev in /sys/class/net/*; do
		dev=${dev##*/}
		[ "$dev" = lo ] && continue
		ip link set "$dev" up &&
			ip addr add 10.0.2.15/24 dev "$dev" && return 0
	done
	return 1
}

# A test CA and a server certificate it signed, so that every server of
# a bench sends the same chain (leaf and CA) and signs with the same key:
# $T/srv.pem (the chain), $T/srv.key, and both in $T/srv.bundle (what
# keyctl padd ktls_identity takes); the CA in $T/ca.pem.
make_identity() {
	openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 \
		-nodes -keyout "$T/ca.key" -out "$T/ca.pem" \
		-subj "/CN=ktls-hs bench CA" -days 2 &&
	openssl ecparam -name prime256v1 -genkey -noout -out "$T/srv.key" &&
	openssl req -new -key "$T/srv.key" -subj /CN=localhost \
		-out "$T/srv.csr" &&
	openssl x509 -req -in "$T/srv.csr" -CA "$T/ca.pem" \
		-CAkey "$T/ca.key" -set_serial "$RANDOM$RANDOM" -days 2 \
		-extfile <(echo subjectAltName=DNS:localhost,IP:127.0.0.1) \
		-out "$T/srv.leaf" &&
	cat "$T/srv.leaf" "$T/ca.pem" > "$T/srv.pem" &&
	cat "$T/srv.pem" "$T/srv.key" > "$T/srv.bundle"
}

# A client certificate under the same CA, for clientAuth, and its key:
# $T/cli.pem and $T/cli.key.
make_client_identity() {
	openssl ecparam -name prime256v1 -genkey -noout -out "$T/cli.key" &&
	openssl req -new -key "$T/cli.key" -subj /CN=ktls-hs-bench-client \
		-out "$T/cli.csr" &&
	openssl x509 -req -in "$T/cli.csr" -CA "$T/ca.pem" \
		-CAkey "$T/ca.key" -set_serial "$RANDOM$RANDOM" -days 2 \
		-extfile <(printf '%s\n' extendedKeyUsage=clientAuth \
			keyUsage=digitalSignature) \
		-out "$T/cli.pem"
}

wait_listen() {	# wait_listen PORT PID: PID listens on PORT within 30 s
	local i

	for i in $(seq 300); do
		ss -Hltn "sport = :$1" | grep -q . && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# profile NAME SECONDS: where the vCPU spends its time for SECONDS, the
# kernel (the modules' symbols included) and the servers alike, into
# $R/perf-NAME.txt.  Sampling costs the vCPU too: what it profiles is
# not a counted run.
profile() {
	local name=$1 secs=$2 data=$T/perf.data

	if ! command -v perf > /dev/null; then
		echo "no perf in the guest" > "$R/perf-$name.txt"
		return
	fi
	# perf-on-NAME tells the host to start the load: perf is running.
	perf record -a -g -F 499 -o "$data" -- \
		sh -c "echo on > '$R/perf-on-$name'; sleep $secs" \
		> /dev/null 2> "$T/perf.err" ||
		{ cp "$T/perf.err" "$R/perf-$name.txt"; return; }
	rm -f "$R/perf-on-$name"
	{
		echo "# $name: perf record -a -g -F 499, $secs s, by symbol"
		perf report -i "$data" --stdio --no-children --sort dso,sym \
			-g none --percent-limit 0.3 2> /dev/null | grep -v '^$'
		echo "# by command"
		perf report -i "$data" --stdio --no-children --sort comm \
			-g none 2> /dev/null | grep -v '^#' | grep -v '^$'
		echo "# the callers of the symbols above 1.5%"
		perf report -i "$data" --stdio --no-children --sort sym \
			-g graph,1,callee --percent-limit 1.5 2> /dev/null |
			grep -v '^$'
	} > "$R/perf-$name.txt"
	rm -f "$data"
}
