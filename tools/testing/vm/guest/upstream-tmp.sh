#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Runs the upstream tls.c binary ($KTLS_UPSTREAM_BIN) with its arguments
# in a mount namespace of its own, with a tmpfs on /tmp.  tls.c's
# mutliproc cases make their file with open("/tmp/", O_TMPFILE), and
# virtme-ng's /tmp is an overlayfs, which takes O_TMPFILE only from 6.6
# on; run-suites.sh puts this wrapper in front where the guest's /tmp
# refuses it.  The binary may itself live under /tmp (the runner's
# out/): it is held open before the tmpfs hides it, and run from there.
#
# The guest's other files stay where they are: only /tmp is replaced,
# and only in this namespace.

: "${KTLS_UPSTREAM_BIN:?KTLS_UPSTREAM_BIN must name the tls.c binary}"
exec unshare --mount --propagation private bash -c '
	exec {bin}< "$KTLS_UPSTREAM_BIN" || exit 1
	mount -t tmpfs ktls-tmp /tmp || exit 1
	exec "/proc/self/fd/$bin" "$@"' upstream-tmp "$@"
