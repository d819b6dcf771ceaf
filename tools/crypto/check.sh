#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make check` of tools/crypto, in TAP: the known-answer tests (of the
# build this host runs, the portable C and the x86-64 code without ADX),
# then the
# constant-time check under valgrind, and proof that the check works: the
# CT_CANARY build, which has one deliberate secret-dependent branch, must
# be reported.  Exits non-zero if anything fails.
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

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
