#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The conformance suite against our in-kernel server: an armed listener
# of ktls_hs.ko with the identity in KTLS_CONF_CERT (srv.bundle, the
# certificate the OpenSSL column was taken with), or a fresh test identity
# when that is unset.  Arguments go to run.py (--json FILE, --only REGEX).
# KTAP on stdout.  Needs ktls_hs.ko loaded, python3-cryptography, keyctl.

DIR=$(dirname "$(readlink -f "$0")")
source "$DIR/../hs_lib.sh"

if [ -z "$KTLS_CONF_CERT" ]; then
	hs_with_identity python3 "$DIR/run.py" --target ours "$@"
	exit
fi
if ! KTLS_HS_KEY=$(hs_load_identity "$KTLS_CONF_CERT" srv); then
	echo "Bail out! keyctl padd ktls_identity failed"
	exit 1
fi
export KTLS_HS_KEY
python3 "$DIR/run.py" --target ours "$@"
rc=$?
keyctl unlink "$KTLS_HS_KEY" @u >/dev/null 2>&1
exit $rc
