#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Module lifecycle of ktls_hs.ko: it cannot be unloaded while a socket
# carries the ULP, unloads once the socket is gone, and with it absent a
# TCP_ULP "tls" request fails instead of pulling in the in-tree tls.ko,
# which, loaded on purpose (or a test module holding the same name), makes
# ktls_hs refuse to load.
# KTLS_HS_KO names the module file; it is loaded again at the end.

# Built helpers sit in the kselftest OUTPUT directory when run from the
# source tree, beside this script once installed.
BIN=${KTLS_KSFT_OUT:-$(dirname "$(readlink -f "$0")")}
source "$KSFT_DIR/kselftest/ktap_helpers.sh"
source "$(dirname "$(readlink -f "$0")")/ktls_module.sh"

: "${KTLS_HS_KO:?KTLS_HS_KO must name ktls_hs.ko}"

ktap_print_header
ktap_set_plan 5

refcnt() { cat /sys/module/ktls_hs/refcnt 2>/dev/null || echo none; }

# 1. A socket holding the ULP pins the module.
coproc HOLD { "$BIN/ulp_hold"; }
read -r -t 30 line <&"${HOLD[0]}"
if [ "$line" = ready ] && [ "$(refcnt)" -ge 1 ] && ! rmmod ktls_hs 2>/dev/null; then
	ktap_test_pass "unload refused while a TLS socket is open"
else
	ktap_test_fail "unload refused while a TLS socket is open (got '$line', refcnt $(refcnt))"
fi

# 2. Once it is closed, the reference is gone and unload succeeds.
exec {HOLD[1]}>&-
wait "$HOLD_PID"
for _ in $(seq 50); do [ "$(refcnt)" = 0 ] && break; sleep 0.1; done
if rmmod ktls_hs && [ ! -e /sys/module/ktls_hs ]; then
	ktap_test_pass "unload after the last TLS socket closed"
else
	ktap_test_fail "unload after the last TLS socket closed (refcnt $(refcnt))"
fi

# 3. Without us, TCP_ULP "tls" fails and the in-tree module stays out.
err=$("$BIN/ulp_hold" </dev/null 2>&1)
rc=$?
if [ $rc = 2 ] && [ ! -e /sys/module/tls ]; then
	ktap_test_pass "no ULP \"tls\" and no in-tree tls.ko while unloaded ($err)"
else
	ktap_test_fail "ULP request without ktls_hs: rc $rc '$err', in-tree tls loaded: $([ -e /sys/module/tls ] && echo yes || echo no)"
fi

# 4. Loading it again works, and registers the ULP again.
if ktls_insmod "$KTLS_HS_KO" && grep -qw tls /proc/sys/net/ipv4/tcp_available_ulp; then
	ktap_test_pass "reload"
else
	ktap_test_fail "reload"
fi

# 5. With another module holding the ULP name, loading is refused with a
#    message that says why: the in-tree tls.ko where the kernel ships it,
#    else ktls_ulp_squat.ko, the test module built beside ktls_hs.ko for
#    kernels without CONFIG_TLS.  Beside tls.ko the kernel itself refuses
#    us first: both export the offload symbols drivers link against.
SQUAT_KO=$(dirname "$KTLS_HS_KO")/ktls_ulp_squat.ko
why='ktls_hs: TCP ULP "tls" is already registered'
if modinfo tls >/dev/null 2>&1; then
	holder=tls what="the in-tree tls.ko"
	hold() { modprobe tls; }
	why='ktls_hs: exports duplicate symbol tls_[a-z_]* (owned by tls)'
elif [ -e "$SQUAT_KO" ]; then
	holder=ktls_ulp_squat what="ktls_ulp_squat.ko (this kernel has no tls.ko)"
	hold() { insmod "$SQUAT_KO"; }
else
	holder=
fi
if [ -z "$holder" ]; then
	ktap_test_fail "refused beside another TCP ULP \"tls\": no tls.ko and no $SQUAT_KO"
elif rmmod ktls_hs && hold; then
	mark="module.sh: conflict check $$"
	echo "$mark" > /dev/kmsg
	if ! ktls_insmod "$KTLS_HS_KO" 2>/dev/null &&
	   [ ! -e /sys/module/ktls_hs ] &&
	   dmesg | sed -n "/$mark/,\$p" |
	   grep -q "$why"; then
		ktap_test_pass "refused beside $what"
	else
		ktap_test_fail "refused beside $what"
	fi
	rmmod "$holder"
	ktls_insmod "$KTLS_HS_KO"
else
	ktap_test_fail "refused beside $what: could not swap modules"
fi

ktap_finished
