#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs inside the bench VM (started by tools/bench/run): ktls_bench with
# each of the two providers loaded in turn, in one kernel boot.  Every
# case runs with one provider and straight after with the other, so that
# each pair sees the same load on the host and the driver can compare
# pairs.  Which provider goes first alternates from case to case and, for
# each case, from round to round: the second run of a pair is a little
# slower (about 2% in an intree,intree run), and a case that always ran
# the same provider second would charge that to the provider.
#
# Environment (set by tools/bench/run):
#   KTLS_REPORT      output directory, shared read-write with the host
#   KTLS_MODDIR      where ktls_hs.ko was built
#   KTLS_BENCH       the ktls_bench binary
#   KTLS_BENCH_ARGS  its options
#   KTLS_PROVIDERS   the two providers, comma-separated: ours, intree
#   KTLS_SUITES      ktls_bench suites, space-separated
#   KTLS_ROUNDS      how many pairs of runs each case gets
#   KTLS_PERF        SUITE:CASE to profile after the rounds, or empty
#   KTLS_COUNT       SUITE:CASE whose kernel calls to count, or empty
#   KTLS_COUNT_FUNCS the kernel functions to count, space-separated

set -u
say() { echo "ktls-vm: $*"; }

# shellcheck source=../testing/selftests/net/ktls_hs/ktls_module.sh
. "$(dirname "$(readlink -f "$0")")/../testing/selftests/net/ktls_hs/ktls_module.sh"

R=$KTLS_REPORT
mkdir -p "$R"
ip link set lo up
read -r -a P <<< "${KTLS_PROVIDERS//,/ }"

# Only one provider may own the ULP name at a time.
load() {
	case "$1" in
	ours) ktls_insmod "$KTLS_MODDIR/ktls_hs.ko" ;;
	# By name: the boot's blacklist only stops loading by alias.
	intree) modprobe tls ;;
	esac
}

unload() {
	case "$1" in
	ours) rmmod ktls_hs ;;
	intree) rmmod tls ;;
	esac
}

loaded() {
	local m d
	for d in ktls_hs tls; do [ -e "/sys/module/$d" ] && m+="$d "; done
	echo "${m:-none}"
}

bench() {	# bench SLOT SUITE CASE: one run of a case with provider P[SLOT]
	local slot=$1 p=${P[$1]} out=$R/run$(($1 + 1)).txt err=$R/run$(($1 + 1)).err st
	if ! load "$p" 2>> "$err"; then
		echo "error $2 - loading $p failed: $(tail -1 "$err")" >> "$out"
		return
	fi
	if [ "$(loaded)" != "$([ "$p" = ours ] && echo ktls_hs || echo tls) " ]; then
		echo "error $2 - modules loaded: $(loaded), not $p alone" >> "$out"
	else
		# shellcheck disable=SC2086
		"$KTLS_BENCH" $KTLS_BENCH_ARGS -c "$3" "$2" >> "$out" 2>> "$err"
		st=$?
		[ "$st" = 0 ] || echo "status $st" >> "$out"
	fi
	unload "$p" 2>> "$err" || echo "error $2 - unloading $p failed" >> "$out"
}

for slot in 0 1; do echo "provider ${P[$slot]}" > "$R/run$((slot + 1)).txt"; done
n=0
for round in $(seq "$KTLS_ROUNDS"); do
	first=$((round % 2))
	for s in $KTLS_SUITES; do
		# tools/bench/run's CASES
		for c in send-1k send-16k sendfile recv; do
			n=$((n + 1))
			first=$((1 - first))
			echo "pair $n" | tee -a "$R/run1.txt" >> "$R/run2.txt"
			if [ "$first" = 0 ]; then
				bench 0 "$s" "$c"; bench 1 "$s" "$c"
			else
				bench 1 "$s" "$c"; bench 0 "$s" "$c"
			fi
		done
		say "round $round/$KTLS_ROUNDS: $s done"
	done
done

# One more run of KTLS_PERF's case with each provider, not counted,
# under perf: where the CPUs go, by symbol and by command.
profile() {	# profile SLOT SUITE CASE
	local p=${P[$1]} name=perf-${P[$1]}-$2-$3 data=/tmp/perf.data

	if ! load "$p" 2>> "$R/$name.err"; then
		echo "loading $p failed" > "$R/$name.txt"
		return
	fi
	# shellcheck disable=SC2086
	if perf record -a -F 499 -o "$data" -- "$KTLS_BENCH" $KTLS_BENCH_ARGS \
		-c "$3" "$2" > "$R/$name.out" 2>> "$R/$name.err"; then
		{
			echo "# $p, $2 $3: perf record -a -F 499, by symbol"
			perf report -i "$data" --stdio --no-children \
				--sort dso,sym --percent-limit 0.3 2> /dev/null |
				grep -v '^$'
		} > "$R/$name.txt"
	else
		echo "perf record failed: $(tail -1 "$R/$name.err")" > "$R/$name.txt"
	fi
	rm -f "$data"
	unload "$p" 2>> "$R/$name.err"
}

if [ -n "${KTLS_PERF:-}" ]; then
	if command -v perf > /dev/null; then
		for slot in 0 1; do profile "$slot" "${KTLS_PERF%%:*}" "${KTLS_PERF#*:}"; done
		say "profiles written"
	else
		echo "no perf in the guest" > "$R/perf.txt"
	fi
fi

# One more run of KTLS_COUNT's case with each provider, not counted in
# the table: how often each of KTLS_COUNT_FUNCS was called (kprobe events,
# counted by perf stat, so nothing is traced into a buffer).  A function
# the kernel inlined or does not let us probe is listed as "no probe".
count() {	# count SLOT SUITE CASE
	local p=${P[$1]} name=count-${P[$1]}-$2-$3 t=/sys/kernel/tracing f ev=()

	if ! load "$p" 2>> "$R/$name.err"; then
		echo "loading $p failed" > "$R/$name.txt"
		return
	fi
	[ -d "$t/events" ] || mount -t tracefs nodev "$t"
	for f in $KTLS_COUNT_FUNCS; do
		if echo "p:kcount/k_$f $f" >> "$t/kprobe_events" 2>> "$R/$name.err"; then
			ev+=(-e "kcount:k_$f")
		else
			echo "no probe $f" >> "$R/$name.txt"
		fi
	done
	# shellcheck disable=SC2086
	if perf stat -a -x, -o "$R/$name.csv" "${ev[@]}" -- "$KTLS_BENCH" \
		$KTLS_BENCH_ARGS -c "$3" "$2" > "$R/$name.out" 2>> "$R/$name.err"; then
		{
			echo "# $p, $2 $3: calls, per MB sent"
			awk -F, -v out="$R/$name.out" '
				BEGIN { while ((getline l < out) > 0) {
					split(l, f, " ")
					if (f[1] == "result") mb = f[4] / 1048576 } }
				/^[0-9]/ { sub(/^kcount:k_/, "", $3)
					printf "%-30s %12d %10.1f\n", $3, $1, mb ? $1 / mb : 0 }
			' "$R/$name.csv"
		} >> "$R/$name.txt"
	else
		echo "perf stat failed: $(tail -1 "$R/$name.err")" >> "$R/$name.txt"
	fi
	echo > "$t/kprobe_events"
	unload "$p" 2>> "$R/$name.err"
}

if [ -n "${KTLS_COUNT:-}" ]; then
	for slot in 0 1; do count "$slot" "${KTLS_COUNT%%:*}" "${KTLS_COUNT#*:}"; done
	say "counts written"
fi

dmesg > "$R/dmesg.txt"
echo done > "$R/finished"
say "finished"
