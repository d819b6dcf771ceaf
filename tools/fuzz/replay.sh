#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Run every seed, corpus input and saved reproducer of each target once,
# as TAP: one line per target and kind of input, with how many inputs.
# Reproducers are kept in the tree as hex (regress/<target>/*.hex).
#
#   replay.sh OUT REGRESS_DIR TARGET...
set -uo pipefail

out=$1
regress=$2
shift 2
n=0
fails=0

# One process for all the inputs, and, if it fails, one per input to
# count and name the failures.
replay() {
	local t=$1 kind=$2 dir=$3 files bad=0 f
	mapfile -t files < <(find "$dir" -maxdepth 1 -type f 2>/dev/null | sort)
	n=$((n + 1))
	if [ ${#files[@]} -eq 0 ]; then
		echo "ok $n - $t: $kind: no inputs # SKIP"
		return
	fi
	if ! "$out/build/fuzz-$t" -runs=1 "${files[@]}" >"$out/logs/replay-$t-$kind.log" 2>&1; then
		for f in "${files[@]}"; do
			if ! "$out/build/fuzz-$t" -runs=1 "$f" >/dev/null 2>&1; then
				echo "# $t: $kind: fails: $f"
				bad=$((bad + 1))
			fi
		done
		[ $bad -eq 0 ] && bad=1
	fi
	if [ $bad -eq 0 ]; then
		echo "ok $n - $t: $kind: ${#files[@]} inputs"
	else
		echo "not ok $n - $t: $kind: $bad of ${#files[@]} inputs fail"
		fails=$((fails + 1))
	fi
}

mkdir -p "$out/logs"
for t in "$@"; do
	dec=$out/regress/$t
	rm -rf "$dec"
	mkdir -p "$dec"
	for h in "$regress/$t"/*.hex; do
		[ -e "$h" ] || continue
		python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(open(sys.argv[1]).read()))' \
			"$h" >"$dec/$(basename "$h" .hex)"
	done
	replay "$t" seeds "$out/seeds/$t"
	replay "$t" corpus "$out/corpus/$t"
	replay "$t" regress "$dec"
done
echo "1..$n"
exit $((fails != 0))
