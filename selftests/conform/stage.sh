#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the conformance stage of `make check`: one VM boot per kernel
# (KHIST_CONFORM_KERNELS, default "6.1 6.12") running guest-check.sh:
# libtraceevent on every format file, trace-cmd through the preload shim,
# the libtracefs program, and the kernel's ftracetest trigger tests on
# khist compared with the recorded native baseline (baseline-<kver>.txt,
# written by `make ftracetest`). Prints TAP lines; a test that cannot pass
# because khist does not claim a feature yet is a SKIP naming the feature.
# KHIST_VM_OUT=DIR puts the VM runs under DIR (default build/conform).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
for k in ${KHIST_CONFORM_KERNELS:-6.1 6.12}; do
	if ! make -s -C "$top" module KVER="$k" >/dev/null 2>&1; then
		echo "not ok - conform-$k/build khist.ko"
		rc=1
		continue
	fi
	kdir=$(sh "$top/selftests/vm/kernel.sh" kdir "$k")
	moddir=$top/build/mod-$(cat "$kdir/include/config/kernel.release")
	KHIST_VM_OUT=${KHIST_VM_OUT:-$top/build/conform}/vm-check-$k \
		KHIST_VM_SCRIPT=selftests/conform/guest-check.sh \
		KHIST_VM_TIMEOUT=${KHIST_VM_TIMEOUT:-1500} \
		sh "$top/selftests/vm/run.sh" script "$k" "$moddir" || rc=1
done
exit $rc
