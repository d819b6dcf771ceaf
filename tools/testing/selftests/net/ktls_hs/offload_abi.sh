#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The driver ABI of kTLS offload: the distro's bonding.ko and nfp.ko were
# linked against tls.ko's exports (tls_validate_xmit_skb,
# tls_get_record, tls_encrypt_skb, ...).  With ktls_hs loaded they must
# load against it instead, modversions CRCs accepted, and show as its
# holders; the in-tree tls.ko must never be loaded for them.
# insmod by file: modprobe would follow modules.dep, which names tls.ko.
# KTLS_HS_KO names the module file, loaded if it is not.

source "$KSFT_DIR/kselftest/ktap_helpers.sh"
source "$(dirname "$(readlink -f "$0")")/ktls_module.sh"

: "${KTLS_HS_KO:?KTLS_HS_KO must name ktls_hs.ko}"

DRIVERS="bonding nfp"

ktap_print_header
ktap_set_plan 5

# The file of the distro's module $1, or nothing.
module_file() {
	find "/lib/modules/$(uname -r)/kernel" -name "$1.ko*" -print -quit
}

# insmod $1 (a module name) by file with its dependencies; ktls_hs
# stands in for tls.
driver_insmod() {
	local file dep tmp rc

	file=$(module_file "$1")
	[ -n "$file" ] || { echo "no $1.ko in /lib/modules/$(uname -r)"; return 1; }
	for dep in $(modinfo -F depends "$file" | tr , ' '); do
		[ "$dep" = tls ] && continue
		[ -e "/sys/module/${dep//-/_}" ] && continue
		modprobe "$dep" || return
	done
	# insmod of kmod may lack xz: decompress it ourselves.
	case $file in
	*.xz)	tmp=$(mktemp --suffix=.ko)
		xz -dc "$file" > "$tmp" || return
		insmod "$tmp" "${@:2}"
		rc=$?
		rm -f "$tmp"
		return $rc ;;
	*.zst)	tmp=$(mktemp --suffix=.ko)
		zstd -qdc "$file" > "$tmp" || return
		insmod "$tmp" "${@:2}"
		rc=$?
		rm -f "$tmp"
		return $rc ;;
	esac
	insmod "$file" "${@:2}"
}

for d in $DRIVERS; do
	[ -e "/sys/module/$d" ] && rmmod "$d"
done
if [ ! -e /sys/module/ktls_hs ]; then
	ktls_insmod "$KTLS_HS_KO" || ktap_exit_fail_msg "cannot load $KTLS_HS_KO"
fi
[ -e /sys/module/tls ] && ktap_exit_fail_msg "the in-tree tls.ko is loaded already"

mark="offload_abi.sh: $$"
echo "$mark" > /dev/kmsg

# 1, 2: each driver loads, and ktls_hs is what it depends on.
for d in $DRIVERS; do
	# No bond device: only the symbols matter here.
	args=
	[ "$d" = bonding ] && args=max_bonds=0
	if ! out=$(driver_insmod "$d" $args 2>&1); then
		ktap_test_fail "$d.ko loads against ktls_hs ($out)"
	elif [ -e "/sys/module/ktls_hs/holders/$d" ]; then
		ktap_test_pass "$d.ko loads against ktls_hs"
	else
		ktap_test_fail "$d.ko loads against ktls_hs (not a holder: $(ls /sys/module/ktls_hs/holders))"
	fi
done

# 3. No symbol version complaint from the kernel.
if dmesg | sed -n "/$mark/,\$p" | grep -E "disagrees about version|Unknown symbol"; then
	ktap_test_fail "modversions CRCs accepted"
else
	ktap_test_pass "modversions CRCs accepted"
fi

# 4. ktls_hs stays while a driver needs it.
if [ -e /sys/module/bonding ] && ! rmmod ktls_hs 2>/dev/null; then
	ktap_test_pass "ktls_hs pinned by its driver holders"
else
	ktap_test_fail "ktls_hs pinned by its driver holders"
fi

# 5. The in-tree tls.ko was never loaded; drivers unload again.
ok=1
for d in $DRIVERS; do
	[ -e "/sys/module/$d" ] && { rmmod "$d" || ok=; }
done
if [ -n "$ok" ] && [ ! -e /sys/module/tls ] && [ -e /sys/module/ktls_hs ]; then
	ktap_test_pass "no tls.ko, drivers unloaded"
else
	ktap_test_fail "no tls.ko, drivers unloaded (tls: $([ -e /sys/module/tls ] && echo loaded || echo absent))"
fi

ktap_finished
