#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - add the benchmark's workload program to the VM image.
# selftests/bench/vm/run.sh builds it (static) and names it in
# KHIST_BENCH_BIN; other VM runs do not need it and get nothing.
root=$1
[ -n "${KHIST_BENCH_BIN:-}" ] || exit 0
[ -f "$KHIST_BENCH_BIN" ] || {
	echo "vm-image.sh: no $KHIST_BENCH_BIN" >&2
	exit 1
}
cp "$KHIST_BENCH_BIN" "$root/bin/khbench"
