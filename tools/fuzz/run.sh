#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Fuzz each target for SECONDS, one after the other, in one process
# (no -jobs: libFuzzer's default, fuzzing in the process itself, is the
# one that keeps to one core); print execs/s and edge coverage per target.  New inputs grow
# OUT/corpus/<target>; a crash leaves its input in OUT/crash/<target>/
# and fails the run (the other targets still run).
#
#   run.sh OUT SECONDS [TARGET...]
set -uo pipefail

out=$1
secs=$2
shift 2
targets=("$@")
failed=0

printf '%-8s %10s %8s %8s %8s  %s\n' target execs execs/s edges features result
for t in "${targets[@]}"; do
	corpus=$out/corpus/$t
	crash=$out/crash/$t
	log=$out/logs/$t.log
	mkdir -p "$corpus" "$crash" "$out/logs"
	before=$(ls "$crash" | wc -l)
	"$out/build/fuzz-$t" -max_total_time="$secs" -print_final_stats=1 \
		-close_fd_mask=3 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$crash/" "$corpus" "$out/seeds/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
	edges=$(echo "$cov" | awk '{print $2}')
	ft=$(echo "$cov" | awk '{print $4}')
	result=ok
	# Inputs of an earlier run stay until removed; only new ones count.
	if [ $rc -ne 0 ] || [ "$(ls "$crash" | wc -l)" -ne "$before" ]; then
		result="CRASH: $(ls -t "$crash" | head -3 | tr '\n' ' ')(see $log)"
		failed=1
	fi
	printf '%-8s %10s %8s %8s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" \
		"${edges:-?}" "${ft:-?}" "$result"
done
exit $failed
