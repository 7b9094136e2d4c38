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
# KHIST_VM_OUT=DIR puts the VM runs under DIR (default build/conform); the
# two kernels' VMs run side by side.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
vmout=${KHIST_VM_OUT:-$top/build/conform}
rc=0
# The modules and the host-built test programs first, one at a time; then
# the VMs side by side (one per core), their TAP printed in kernel order.
kernels=
for k in ${KHIST_CONFORM_KERNELS:-6.1 6.12}; do
	if ! make -s -C "$top" module KVER="$k" >/dev/null 2>&1; then
		echo "not ok - conform-$k/build khist.ko"
		rc=1
		continue
	fi
	kernels="$kernels $k"
done
mkdir -p "$vmout"
make -s -C "$top/selftests/conform" OUT="$top/build/conform/bin" >&2 || rc=1
for k in $kernels; do
	kdir=$(sh "$top/selftests/vm/kernel.sh" kdir "$k")
	moddir=$top/build/mod-$(cat "$kdir/include/config/kernel.release")
	(
		KHIST_VM_OUT=$vmout/vm-check-$k \
			KHIST_VM_SCRIPT=selftests/conform/guest-check.sh \
			KHIST_VM_TIMEOUT=${KHIST_VM_TIMEOUT:-1500} \
			sh "$top/selftests/vm/run.sh" script "$k" "$moddir"
		echo $? >"$vmout/vm-check-$k.rc"
	) >"$vmout/vm-check-$k.tap" 2>&1 &
done
wait
for k in $kernels; do
	cat "$vmout/vm-check-$k.tap"
	[ "$(cat "$vmout/vm-check-$k.rc" 2>/dev/null)" = 0 ] || rc=1
done
exit $rc
