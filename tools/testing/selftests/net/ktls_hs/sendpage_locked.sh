#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel_sendpage_locked() on sockets of ours, through the test module
# ktls_sendpage_locked.ko (built beside ktls_hs.ko by the runner where
# the socket ops have sendpage_locked(), before 6.5): refused once TX
# records are sent, TCP's where the socket has no TX keys
# (sendpage_locked.py).  Skipped on kernels without the op.
# KTLS_HS_KO names ktls_hs.ko, which must be loaded.

DIR=$(dirname "$(readlink -f "$0")")
source "$KSFT_DIR/kselftest/ktap_helpers.sh"

: "${KTLS_HS_KO:?KTLS_HS_KO must name ktls_hs.ko}"
KO=$(dirname "$KTLS_HS_KO")/ktls_sendpage_locked.ko
CTL=/sys/kernel/debug/ktls_sendpage_locked/send

if [ ! -e "$KO" ]; then
	ktap_print_header
	ktap_skip_all "no $KO: this kernel's socket ops have no sendpage_locked()"
	exit "$KSFT_SKIP"
fi
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
insmod "$KO" || { ktap_print_header; ktap_exit_fail_msg "cannot load $KO"; }
python3 "$DIR/sendpage_locked.py" "$CTL"
rc=$?
rmmod ktls_sendpage_locked
exit $rc
