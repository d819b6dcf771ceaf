#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make check` of tools/crypto, in TAP.  P-256: the known-answer tests
# (of the build this host runs, the portable C and the x86-64 code
# without ADX), then the constant-time check under valgrind, and proof
# that the check works: the CT_CANARY build, which has one deliberate
# secret-dependent branch, must be reported.  Keccak and ML-KEM-768: the
# known answers, the differential test against Go's crypto/mlkem, the
# constant-time check and its canary, and two checks of the objects: no
# div instruction at -O2 or -Os, no stack frame above 512 bytes.  Exits
# non-zero if anything fails.
set -u
out=$1
log=$out/ct.log
n=0
failed=0

result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"

# the KAT program's own TAP, nested, then one line for it here
"$out/kat" > "$out/kat.tap"
rc=$?
sed -n 's/^\(\(not \)\{0,1\}ok \)/# \1/p; s/^# \([0-9]* passed.*\)/# kat: \1/p' "$out/kat.tap"
result $rc "known-answer tests ($(grep -c '^ok' "$out/kat.tap") passed)"

# the portable C that stands in for the assembly on other architectures
"$out/kat-portable" > "$out/kat-portable.tap"
rc=$?
result $rc "known-answer tests, portable C build ($(grep -c '^ok' "$out/kat-portable.tap") passed)"

# the x86-64 assembly as it runs on CPUs without BMI2/ADX
"$out/kat-noadx" > "$out/kat-noadx.tap"
rc=$?
result $rc "known-answer tests, x86-64 without ADX ($(grep -c '^ok' "$out/kat-noadx.tap") passed)"

vg="valgrind --error-exitcode=99 --track-origins=yes --quiet"
$vg "$out/ct" > "$log" 2>&1
rc=$?
sed 's/^/# /' "$log"
result $rc "constant time: sign, keygen and ECDH under valgrind with secrets undefined"

# valgrind hides ADX from the CPU probe, so the run above took the mulq
# path; ct-adx is built to take the mulx/adcx/adox path regardless
if grep -qw adx /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
	$vg "$out/ct-adx" > "$log.adx" 2>&1
	rc=$?
	sed 's/^/# adx: /' "$log.adx"
	result $rc "constant time: the same with the BMI2/ADX assembly"
else
	n=$((n + 1))
	echo "ok $n - constant time: the same with the BMI2/ADX assembly # SKIP no ADX on this host"
fi

$vg "$out/ct-canary" > "$log.canary" 2>&1
rc=$?
reported=1
if [ $rc = 99 ] && grep -q "depends on uninitialised value" "$log.canary" &&
   grep -q "p256_mul_base" "$log.canary"; then
	reported=0
fi
grep -m 6 -E "depends on uninitialised|at 0x|by 0x" "$log.canary" | sed 's/^/# canary: /'
result $reported "constant time: the CT_CANARY secret-dependent branch is reported"

# a nested TAP program: its failures listed, one line for it here
nested() {
	tag=$1
	name=$2
	shift 2
	"$@" > "$out/$tag.tap" 2>&1
	rc=$?
	grep '^not ok' "$out/$tag.tap" | sed "s/^/# $tag: /"
	result $rc "$name ($(grep -c '^ok' "$out/$tag.tap") passed, $(grep -c '^not ok' "$out/$tag.tap") failed)"
}

nested kat_keccak "Keccak known answers" "$out/kat_keccak"
nested kat_mlkem "ML-KEM-768 known answers" "$out/kat_mlkem"
nested diff_mlkem "ML-KEM-768 against Go's crypto/mlkem" "$out/diff_mlkem" "$out/mlkem_go" \
	"${MLKEM_DIFF_ROUNDS:-1000}"

$vg "$out/ct_mlkem" > "$log.mlkem" 2>&1
rc=$?
sed 's/^/# mlkem: /' "$log.mlkem"
result $rc "constant time: ML-KEM-768 keygen, encaps and decaps under valgrind with d, z, m and dk undefined"

$vg "$out/ct_mlkem-canary" > "$log.mlkem-canary" 2>&1
rc=$?
reported=1
if [ $rc = 99 ] && grep -q "depends on uninitialised value" "$log.mlkem-canary" &&
   grep -q "mlkem_decaps" "$log.mlkem-canary"; then
	reported=0
fi
grep -m 6 -E "depends on uninitialised|at 0x|by 0x" "$log.mlkem-canary" | sed 's/^/# mlkem canary: /'
result $reported "constant time: the ML-KEM CT_CANARY branch on the re-encryption check is reported"

# KyberSlash: a division of a secret by q compiles to div, whose timing
# depends on its operands; the code divides nothing, and this keeps it so
divs=
for obj in ${MLKEM_OBJS:-keccak mlkem_poly mlkem_sample mlkem}; do
	for o in "$out/$obj.o" "$out/os/$obj.o"; do
		if [ ! -f "$o" ] || objdump -d --no-show-raw-insn "$o" |
		   grep -qE '^[[:space:]]*[0-9a-f]+:[[:space:]]+i?div[bwlq]?[[:space:]]'; then
			divs="$divs $o"
		fi
	done
done
[ -n "$divs" ] && echo "# div instructions (or missing objects):$divs"
result $([ -z "$divs" ]; echo $?) "no div or idiv in the ML-KEM and Keccak objects at -O2 and -Os"

# softirq stacks are small: every function's frame, as gcc reports it
big=$(cat "$out"/keccak.su "$out"/mlkem*.su "$out"/os/keccak.su "$out"/os/mlkem*.su 2>/dev/null |
      awk -F'\t' '$2 > 512 { print $1 " " $2 }')
max=$(cat "$out"/keccak.su "$out"/mlkem*.su "$out"/os/keccak.su "$out"/os/mlkem*.su 2>/dev/null |
      awk -F'\t' 'BEGIN { m = -1 } $2 > m { m = $2 } END { print m }')
[ -n "$big" ] && echo "$big" | sed 's/^/# frame above 512 bytes: /'
result $([ -z "$big" ] && [ "$max" -ge 0 ]; echo $?) \
	"ML-KEM and Keccak stack frames at most 512 bytes (largest: $max)"

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
