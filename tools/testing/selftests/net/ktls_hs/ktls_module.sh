# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by every script that loads a built, not installed, ktls_hs.ko or
# ktls_hs_kunit.ko by file.  insmod resolves no dependencies, and kernels
# that build the crypto libraries the module calls as modules (Debian:
# libpoly1305, curve25519-x86_64, ...) need those loaded first.  An
# installed module needs none of this: modprobe follows what depmod
# recorded.

# ktls_insmod FILE [PARAM...]: load FILE's dependencies, then FILE.
ktls_insmod() {
	local ko=$1 dep

	shift
	for dep in $(modinfo -F depends "$ko" | tr , ' '); do
		# Loaded already, maybe by file (the KUnit module's ktls_hs),
		# where modprobe would not find it.
		[ -e "/sys/module/${dep//-/_}" ] && continue
		modprobe "$dep" || return
	done
	insmod "$ko" "$@"
}
