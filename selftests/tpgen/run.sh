#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh KVER OUT [KSRC] - build khist_tpgen.ko for Debian's kernel KVER
# (6.1, 6.12) with tools/tpgen/tpgen.sh in OUT, then boot KVER in the test
# VM (selftests/vm/run.sh, script mode) and compare every served event's
# format with the native one (selftests/tpgen/guest.sh). KSRC: the
# matching kernel source tree, optional. TPGEN_SKIP_BUILD=1 reuses OUT.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$1
out=$2
ksrc=${3:-}
kdir=$(sh "$top/selftests/vm/kernel.sh" kdir "$kver")
if [ "${TPGEN_SKIP_BUILD:-0}" != 1 ]; then
	sh "$top/tools/tpgen/tpgen.sh" "$kdir" "$out" $ksrc
fi
KHIST_VM_OUT=${KHIST_VM_OUT:-$out/vm} KHIST_VM_SCRIPT=selftests/tpgen/guest.sh \
	sh "$top/selftests/vm/run.sh" script "$kver" "$out"
