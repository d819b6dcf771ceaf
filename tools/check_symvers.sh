#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Distro drivers (nfp, bonding, mlx5e) were linked against the symbols
# the in-tree tls.ko exports, each with a modversions CRC of its
# prototype.  ktls_hs.ko exports the same symbols and must carry the same
# CRCs and export kinds, or modprobe refuses the drivers ("disagrees
# about version of symbol").  Compares the Module.symvers of our build
# with the kernel's, for every symbol the kernel's says tls.ko exports.
#
# usage: check_symvers.sh OUR_MODULE_SYMVERS KERNEL_MODULE_SYMVERS
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 OUR_MODULE_SYMVERS KERNEL_MODULE_SYMVERS" >&2
	exit 2
fi
ours=$1
kernel=$2

# Module.symvers: crc <TAB> symbol <TAB> module <TAB> export kind <TAB> namespace
awk -F '\t' '
	FNR == NR {
		if ($3 ~ /ktls_hs$/)
			have[$2] = $1 " " $4
		next
	}
	$3 == "net/tls/tls" {
		want = $1 " " $4
		total++
		if (!($2 in have)) {
			printf "missing: %s (%s)\n", $2, want
			bad++
		} else if (have[$2] != want) {
			printf "differs: %s: ours %s, kernel %s\n", $2, have[$2], want
			bad++
		} else {
			printf "ok: %s %s\n", $2, want
		}
	}
	END {
		if (!total) {
			print "the kernel exports nothing from net/tls/tls: wrong Module.symvers?"
			exit 1
		}
		printf "%d of %d tls.ko exports match\n", total - bad, total
		exit bad ? 1 : 0
	}' "$ours" "$kernel"
