#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Allocation-failure injection against ktls_hs (the runner's faults
# suite, on the debug kernel): ktls_faults runs handshakes and the record
# layer with failslab and then fail_page_alloc failing one allocation of
# ours per round, stack-filtered to the module's text, and prints TAP;
# then a kmemleak scan must find nothing.  Needs ktls_hs.ko loaded,
# debugfs, CONFIG_FAULT_INJECTION_STACKTRACE_FILTER, openssl, readelf.
#
# Environment: KTLS_HS_KO (the module file, for its section sizes),
# KTLS_KSFT_OUT (ktls_faults), KTLS_FAULTS_BUDGET (seconds for the
# rounds, default 300).

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/../hs_lib.sh"

BUDGET=${KTLS_FAULTS_BUDGET:-300}
SECTIONS=/sys/module/ktls_hs/sections
KMEMLEAK=/sys/kernel/debug/kmemleak
T=$(mktemp -d)
KEYS=()
trap 'kill "$WATCHDOG" 2>/dev/null; hs_cleanup' EXIT

echo "TAP version 13"

# Each setup step on stderr, with the guest's uptime: a setup that never
# ends says where it stopped.
step() { echo "faults: $(cut -d' ' -f1 /proc/uptime) s: $*" >&2; }

# If the rounds have not begun 300 s from now, what every task waits
# for, on stderr, and the blocked tasks in the kernel log.
watchdog() {
	local p
	sleep 300
	grep -q '^# module text' "$T/out" 2>/dev/null && return
	step "setup not done after 300 s: tasks"
	ps -eo pid,ppid,stat,wchan:32,etimes,args >&2
	for p in /proc/[0-9]*; do
		grep -qs '^State:.*[RD] ' "$p/status" || continue
		echo "--- $p $(tr '\0' ' ' < "$p/cmdline")" >&2
		cat "$p/stack" >&2 2>/dev/null
	done
	echo w > /proc/sysrq-trigger 2>/dev/null
}
watchdog &
WATCHDOG=$!
# Without the fault attributes (not the debug kernel) ktls_faults runs
# each workload once, uninjected, and reports a SKIP.

# The module's text, where a stack must have a frame to be failed: from
# the lowest executable section to the end of the highest one (the
# sections' addresses from sysfs, their sizes from the module file).
# .init.text is gone once the module is loaded.
text_range() {
	local name size addr lo= hi=
	while read -r name size; do
		[ "$name" = .init.text ] && continue
		[ -r "$SECTIONS/$name" ] || continue
		addr=$(( $(cat "$SECTIONS/$name") ))
		[ "$addr" = 0 ] && continue
		if [ -z "$lo" ] || [ "$addr" -lt "$lo" ]; then lo=$addr; fi
		size=$((16#$size))
		if [ -z "$hi" ] || [ $((addr + size)) -gt "$hi" ]; then hi=$((addr + size)); fi
	done < <(readelf -SW "$KTLS_HS_KO" | awk '
		# [Nr] Name Type Address Off Size ES Flg ...
		{ sub(/^ *\[ *[0-9]+\] */, "") }
		$2 == "PROGBITS" && $7 ~ /X/ { print $1, $5 }')
	[ -n "$lo" ] && printf '%u %u\n' "$lo" "$hi"
}

step "module text"
read -r LO HI < <(text_range)
if [ -z "$LO" ]; then
	echo "Bail out! no text range for ktls_hs ($SECTIONS, $KTLS_HS_KO)"
	exit 1
fi

# Except TCP's own FIN (tcp_send_fin(), under our close): when its skb
# cannot be had TCP drops the FIN and arms no timer, so the orphan stays
# in LAST-ACK or FIN-WAIT-1 for good, holding the module through its
# ULP.  Plain TCP sockets do the same: nothing of ours to test.  The
# range ends at the lowest symbol address above it.  The table is
# copied first and never sorted: in the debug guest, after the other
# suites, `sort /proc/kallsyms` was seen to spin for good while a plain
# read took two seconds.
step "tcp_send_fin"
cat /proc/kallsyms > "$T/kallsyms"
read -r RLO RHI < <(awk '
	NR == FNR { if ($3 == "tcp_send_fin") lo = $1; next }
	lo && $1 > lo && (!hi || $1 < hi) { hi = $1 }
	END { if (lo && hi) print lo, hi }' "$T/kallsyms" "$T/kallsyms")
if [ -z "$RLO" ]; then
	echo "Bail out! tcp_send_fin not in /proc/kallsyms"
	exit 1
fi

step "identity"
hs_make_ca "$T" && hs_make_identity "$T" www www.example.test || {
	cat "$T/openssl.log"
	echo "Bail out! cannot make a test identity with openssl"
	exit 1
}
K=$(hs_load_identity "$T" www) && KEYS+=("$K") || {
	echo "Bail out! keyctl padd ktls_identity failed"
	exit 1
}

step "ktls_faults"
"$HS_BIN/ktls_faults" "$K" "$T/ca.pem" "$LO" "$HI" "$BUDGET" \
	"0x$RLO" "0x$RHI" | tee "$T/out"
rc=${PIPESTATUS[0]}
n=$(grep -cE '^(not )?ok ' "$T/out")
# 1 is a failed test, already reported; anything else cut the run short.
if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
	n=$((n + 1))
	echo "not ok $n ktls_faults ran to the end # exit status $rc"
fi

# Nothing of the rounds holds the module once their sockets are closed:
# each socket of ours holds a reference until it is freed, which the
# last work item of a closed one may do a little later.
n=$((n + 1))
refs=
for _ in $(seq 100); do
	refs=$(cat /sys/module/ktls_hs/refcnt)
	[ "$refs" = 0 ] && break
	sleep 0.1
done
if [ "$refs" = 0 ]; then
	echo "ok $n no reference to ktls_hs left after the rounds"
else
	ss -tanie 2>&1 | head -60 | sed 's/^/# /'
	echo "not ok $n no reference to ktls_hs left after the rounds # refcnt $refs"
fi

# What the rounds leaked: kmemleak reports objects older than 5 s.
n=$((n + 1))
if [ -w "$KMEMLEAK" ]; then
	sleep 6
	echo scan > "$KMEMLEAK"
	leaks=$(grep -c 'unreferenced object' "$KMEMLEAK")
	if [ "$leaks" = 0 ]; then
		echo "ok $n kmemleak scan after the rounds"
	else
		head -40 "$KMEMLEAK" | sed 's/^/# /'
		echo "not ok $n kmemleak scan after the rounds # $leaks objects"
	fi
else
	echo "ok $n kmemleak scan after the rounds # SKIP no kmemleak"
fi
echo "1..$n"
