#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the stress stage of `make check`: a short stress run
# (STRESS_STAGE_SECONDS, 60, of churn) on 6.12 with 2 vCPUs. Prints TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${STRESS_STAGE_KVER:-6.12}
if ! make -s -C "$top" module KVER="$kver" >/dev/null 2>&1; then
	echo "not ok - stress-$kver/build khist.ko"
	exit 1
fi
kdir=$(sh "$top/selftests/vm/kernel.sh" kdir "$kver")
moddir=$top/build/mod-$(cat "$kdir/include/config/kernel.release")
KHIST_VM_OUT=$top/build/stress-stage-$kver \
	STRESS_SECONDS=${STRESS_STAGE_SECONDS:-60} \
	sh "$top/selftests/stress/run.sh" "$kver" "$moddir"
