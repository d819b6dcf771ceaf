#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the test VM (started by tools/testing/vm/run): loads the kTLS
# provider under test, runs the requested suites, unloads, and leaves one
# report file per suite plus the kernel log in the report directory.
#
# Environment (all set by the host runner):
#   KTLS_REPORT  report directory (shared read-write with the host)
#   KTLS_TLS     "ours" (ktls_hs.ko) or "intree" (the kernel's tls.ko)
#   KTLS_SUITES  comma-separated: kunit, selftests, upstream,
#                upstream-offload, install, dkms, interop, conformance,
#                faults
#   KTLS_MODDIR  where ktls_hs.ko and ktls_hs_kunit.ko were built
#   KTLS_MAKE_ARGS  the make arguments they were built with (W=1, C=1)
#   KTLS_KSFT    our kselftest directory (sources, lib.mk Makefile)
#   KTLS_KSFT_OUT    its build output
#   KTLS_KSFT_DIR    tools/testing/selftests of the kernel source
#   KTLS_UPSTREAM    the built upstream tls.c binary
#   KTLS_UPSTREAM_PIECES  the variants of tls.c, one harness process each
#   KTLS_ABI_DRIVERS  set where the kernel has the distro's offload drivers
#                (bonding.ko, nfp.ko) that offload_abi.sh loads
#   KTLS_SELFTESTS  if set, only the selftests whose path matches it (grep -E)
#   KTLS_SELFTESTS_OMIT  names of selftests this kernel leaves out, as
#                alternatives of an extended regular expression
#   KTLS_SIM_KO  the simulated offload NIC, empty if the kernel has no
#                CONFIG_TLS_DEVICE (and then upstream-offload is not asked)
#   KTLS_CONF_CERT  the certificate the conformance suite's OpenSSL
#                column was taken with (srv.bundle), for our column
#   KTLS_CONF_TIMEOUT  its client's read limit in seconds

set -u
say() { echo "ktls-vm: $*"; }

# shellcheck source=../../selftests/net/ktls_hs/ktls_module.sh
. "$KTLS_KSFT/ktls_module.sh"

R=$KTLS_REPORT
mkdir -p "$R"
VMTAP=$R/vm.tap
: > "$VMTAP"
vm_result() {	# vm_result ok|fail description
	if [ "$1" = ok ]; then echo "ok - $2" >> "$VMTAP"; else echo "not ok - $2" >> "$VMTAP"; fi
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
ip link set lo up
KMEMLEAK=/sys/kernel/debug/kmemleak
if [ -w "$KMEMLEAK" ]; then
	# Forget what boot left behind; report only what the tests leak.
	echo scan > "$KMEMLEAK"
	echo clear > "$KMEMLEAK"
fi

say "kernel $(uname -r), provider $KTLS_TLS, suites $KTLS_SUITES"
case "$KTLS_TLS" in
ours)
	if ktls_insmod "$KTLS_MODDIR/ktls_hs.ko"; then
		vm_result ok "load ktls_hs.ko"
	else
		vm_result fail "load ktls_hs.ko"
	fi
	;;
intree)
	if modprobe tls; then vm_result ok "load in-tree tls.ko"; else vm_result fail "load in-tree tls.ko"; fi
	;;
esac

# Each suite's debugfs results are a complete KTAP document; merge them
# into one with a plan covering every suite.
run_kunit() {
	local out=$R/kunit.ktap d
	local -a suites
	if ! ktls_insmod "$KTLS_MODDIR/ktls_hs_kunit.ko"; then
		printf 'KTAP version 1\n1..0 # SKIP ktls_hs_kunit.ko failed to load\n' > "$out"
		return
	fi
	suites=(/sys/kernel/debug/kunit/ktls_hs_*)
	{
		echo "KTAP version 1"
		echo "1..${#suites[@]}"
		for d in "${suites[@]}"; do
			grep -v -e '^KTAP version' -e '^1\.\.' "$d/results"
		done
	} > "$out"
	rmmod ktls_hs_kunit
}

# kselftest's runner.sh, as lib.mk's run_tests uses it, but writing to our
# report: its default log, /dev/stdout, is not our stdout in this guest.
run_selftests() {
	(
		export KTLS_HS_KO=$KTLS_MODDIR/ktls_hs.ko KSFT_DIR=$KTLS_KSFT_DIR
		# The sim_offload*.sh tests insert it themselves, after the TLS
		# provider; a kernel without CONFIG_TLS_DEVICE has neither it
		# nor the tests.
		export KTLS_SIM_KO KTLS_KSFT_OUT
		BASE_DIR=$KTLS_KSFT_DIR
		cd "$BASE_DIR/net" || return	# runner.sh names tests by $PWD
		set +u	# runner.sh reads optional variables unset
		# shellcheck source=/dev/null
		. "$BASE_DIR/kselftest/runner.sh"
		# runner.sh's prefix.pl writes a byte at a time, one 9p round
		# trip each into the report directory: minutes under TCG for a
		# chatty test.  The same lines, written a line at a time.
		tap_prefix() { sed -u -e 's/^/# /'; }
		# Each test's wall time and the CPU time it kept the guest's
		# CPUs busy (seconds, all CPUs), for the time budget of make
		# check: a test with little CPU per second waits on timers.
		busy() { awk '/^cpu /{print int(($2+$3+$4+$7+$8+$9)/100); exit}' /proc/stat; }
		eval "ksft_$(declare -f run_one)"
		run_one() {
			local t0=$SECONDS b0
			b0=$(busy)
			ksft_run_one "$@"
			echo "$((SECONDS - t0)) ${2##*/} $(($(busy) - b0))" >> "$R/selftests.times"
		}
		logfile=$R/selftests.tap
		kselftest_override_timeout=$(sed -n 's/^timeout=//p' "$KTLS_KSFT/settings")
		: > "$logfile"
		tests=$(cat "$KTLS_KSFT_OUT/tests.list")
		[ -n "$KTLS_SIM_KO" ] ||
			tests=$(grep -v '/sim_offload[a-z_]*\.sh$' <<< "$tests")
		[ -n "$KTLS_ABI_DRIVERS" ] ||
			tests=$(grep -v '/offload_abi\.sh$' <<< "$tests")
		[ -z "$KTLS_SELFTESTS" ] ||
			tests=$(grep -E -- "$KTLS_SELFTESTS" <<< "$tests")
		[ -z "${KTLS_SELFTESTS_OMIT:-}" ] ||
			tests=$(grep -v -E -- "/($KTLS_SELFTESTS_OMIT)\$" <<< "$tests")
		# shellcheck disable=SC2086
		run_many $tests >> "$logfile"
	)
}

# `make install` as an administrator runs it, into /lib/modules/<release>/
# updates (a throwaway overlay in the guest); then a TCP_ULP "tls" request
# from a process must load ktls_hs by its alias, never the in-tree tls.ko.
run_install() {
	local tap=$R/install.tap kdir=/lib/modules/$(uname -r)/build path
	echo "TAP version 13" > "$tap"
	echo "1..4" >> "$tap"
	check() { if eval "$2"; then echo "ok $1" >> "$tap"; else echo "not ok $1" >> "$tap"; fi; }

	rmmod ktls_hs
	# With the arguments of the host's build: with others kbuild would
	# compile the module again, here, under TCG.
	# shellcheck disable=SC2086
	make -C "$KTLS_MODDIR" KDIR="$kdir" ${KTLS_MAKE_ARGS:-} install > "$R/install.log" 2>&1
	path=$(modinfo -n ktls_hs 2>/dev/null)
	check "1 make install puts ktls_hs in updates/ ($path)" \
		'[[ $path == /lib/modules/$(uname -r)/updates/* ]]'
	check "2 make install places the modprobe policy" '[ -f /etc/modprobe.d/ktls_hs.conf ]'
	"$KTLS_KSFT_OUT/ulp_hold" < /dev/null > /dev/null 2>> "$R/install.log"
	check "3 TCP_ULP \"tls\" autoloads ktls_hs, not tls.ko" \
		'[ -e /sys/module/ktls_hs ] && [ ! -e /sys/module/tls ]'
	check "4 make install installs the build it finds, compiles nothing" \
		'! grep -q "^  CC " "$R/install.log"'
}

# DKMS, as a user of a kernel we ship no build for installs the module:
# DKMS on the host built it from the sources alone (no object of the
# host's own build) against this kernel's installed headers, which the
# guest shares, and packed a binaries-only DKMS tarball; here dkms loads
# it, installs it into /lib/modules/<release>/updates/dkms (throwaway
# overlays), and modprobe loads it.  The compile is the host's: under
# TCG the guest's own takes more than half an hour.
run_dkms() {
	local tap=$R/dkms.tap ver release rc path
	release=$(uname -r)
	echo "TAP version 13" > "$tap"
	echo "1..4" >> "$tap"
	check() { if eval "$2"; then echo "ok $1" >> "$tap"; else echo "not ok $1" >> "$tap"; fi; }

	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$KTLS_MODDIR/dkms.conf")
	rmmod ktls_hs
	{
		# dkms 3.0's ldtarball of a binaries-only tarball exits 1 when
		# /usr/src has no sources for the module, binaries loaded or
		# not: dkms status says whether they were.
		dkms ldtarball "$KTLS_DKMS_TARBALL"
		dkms status -m ktls-hs -v "$ver" -k "$release" | grep -q ': built$' &&
			dkms install -m ktls-hs -v "$ver" -k "$release"
	} > "$R/dkms.log" 2>&1
	rc=$?
	check "1 dkms loads the host's build of ktls-hs $ver for $release and installs it" \
		'[ $rc -eq 0 ]'
	path=$(modinfo -n ktls_hs 2>/dev/null)
	check "2 modprobe finds the DKMS build ($path)" \
		'[[ $path == /lib/modules/$release/updates/dkms/* ]]'
	check "3 dkms status says installed" \
		'dkms status -m ktls-hs -v "$ver" -k "$release" | grep -q ": installed"'
	modprobe ktls_hs 2>> "$R/dkms.log"
	check "4 modprobe loads the DKMS-built ktls_hs" \
		'[ "$(cat /sys/module/ktls_hs/srcversion 2>/dev/null)" = "$(modinfo -F srcversion ktls_hs)" ]'
}

# Real peers over the provider under test: OpenSSL's s_server/s_client
# and nginx, each a TAP script; their diagnostics go to interop.log.
run_interop() {
	local t
	for t in openssl nginx; do
		KTLS_INTEROP_LOG=$R/interop.log "$KTLS_KSFT/interop/$t.sh" \
			> "$R/interop-$t.tap" 2>> "$R/interop.log"
	done
}

# The RFC conformance cases against our server; the host has the OpenSSL
# column and prints both.
run_conformance() {
	KTLS_CONF_CERT=$KTLS_CONF_CERT KTLS_CONF_TIMEOUT=$KTLS_CONF_TIMEOUT \
		"$KTLS_KSFT/conformance/conformance.sh" \
		--json "$R/conformance.json" > "$R/conformance.ktap" \
		2> "$R/conformance.log"
}

# Allocation-failure injection (debug kernel): faults.sh's TAP.
run_faults() {
	KTLS_HS_KO=$KTLS_MODDIR/ktls_hs.ko KTLS_KSFT_OUT=$KTLS_KSFT_OUT \
		"$KTLS_KSFT/faults/faults.sh" > "$R/faults.tap" 2> "$R/faults.log"
	# Disarmed even if it died mid-round: the suites after it run clean.
	local a
	for a in /sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc; do
		[ -w "$a/probability" ] && echo 0 > "$a/probability"
	done
}

# tls.c takes minutes under TCG: the host cut it into pieces, one fixture
# variant a line ("@none" for tests without a variant); as many harness
# processes run at once as there are vCPUs, each with its own TAP file.
run_upstream_piece() {	# run_upstream_piece INDEX VARIANT
	local v=$2
	[ "$v" = @none ] && v=
	"$KTLS_UPSTREAM" -v "$v" > "$R/upstream.piece$1.tap" 2>&1
}

run_upstream() {
	export -f run_upstream_piece
	export R KTLS_UPSTREAM
	awk '{ print NR - 1, $1 }' "$KTLS_UPSTREAM_PIECES" |
		xargs -P "$(nproc)" -L 1 bash -c 'run_upstream_piece "$@"' _
}

# The same pieces with the simulated offload NIC in the path.
run_upstream_offload() {
	"$(dirname "${BASH_SOURCE[0]}")/upstream-offload.sh"
}

# tls.c's mutliproc cases need O_TMPFILE in /tmp, which virtme-ng's
# overlayfs /tmp lacks before 6.6: there tls.c runs with a tmpfs /tmp of
# its own (upstream-tmp.sh), for us and for the in-tree baseline alike.
if [ -n "${KTLS_UPSTREAM:-}" ] &&
   ! python3 -c 'import os; os.close(os.open("/tmp", os.O_TMPFILE | os.O_RDWR, 0o600))' \
	2>/dev/null; then
	export KTLS_UPSTREAM_BIN=$KTLS_UPSTREAM
	KTLS_UPSTREAM=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/upstream-tmp.sh
	say "/tmp takes no O_TMPFILE: tls.c runs with a tmpfs /tmp"
fi

for s in ${KTLS_SUITES//,/ }; do
	say "suite $s: start"
	start=$SECONDS
	"run_${s//-/_}"
	say "suite $s: done in $((SECONDS - start))s"
done

case "$KTLS_TLS" in
ours)
	if rmmod ktls_hs && [ ! -e /sys/module/ktls_hs ]; then
		vm_result ok "unload ktls_hs.ko"
	else
		vm_result fail "unload ktls_hs.ko"
	fi
	if [ -e /sys/module/tls ]; then
		vm_result fail "in-tree tls.ko stayed unloaded"
	else
		vm_result ok "in-tree tls.ko stayed unloaded"
	fi
	;;
intree)
	rmmod tls
	;;
esac

if [ -w "$KMEMLEAK" ]; then
	# kmemleak reports objects only once they are older than 5 s.
	sleep 6
	echo scan > "$KMEMLEAK"
	cat "$KMEMLEAK" > "$R/kmemleak.txt"
fi
dmesg > "$R/dmesg.txt"
echo done > "$R/finished"
say "finished"
