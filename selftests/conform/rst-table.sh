#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rst-table.sh [DIR] - the per-test table of the last `make ftracetest` on
# both kernels (DIR/ftracetest-6.1.txt and -6.12.txt, default
# build/conform) as the reStructuredText table Documentation/testing.rst
# shows: native and khist result per kernel, then each kernel's counts.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$top/build/conform}
for k in 6.1 6.12; do
	[ -f "$dir/ftracetest-$k.txt" ] || {
		echo "rst-table.sh: $dir/ftracetest-$k.txt missing (make ftracetest)" >&2
		exit 1
	}
done
# One row per test: name, then native and khist of 6.1 and of 6.12.
awk '
FNR == 1 { k++; next }
/ passed, / { sum[k] = $0; next }
{
	# The name may contain one space (" (instance)").
	n = $1; i = 2
	if ($2 == "(instance)") { n = n " " $2; i = 3 }
	if (!(n in seen)) { seen[n] = 1; order[++cnt] = n }
	nat[k, n] = $i; kh[k, n] = $(i + 1)
}
END {
	w = 0
	for (i = 1; i <= cnt; i++) {
		t = order[i]; sub(/^trigger\//, "", t); order[i] = t
		if (length(t) > w) w = length(t)
		for (j = 1; j <= 2; j++) {
			nat[j, t] = nat[j, "trigger/" t]
			kh[j, t] = kh[j, "trigger/" t]
		}
	}
	bar = sprintf("%" w "s", ""); gsub(/ /, "=", bar)
	c = "============"
	fmt = "%-" w "s %-12s %-12s %-12s %-12s\n"
	printf fmt, bar, c, c, c, c
	printf fmt, "test (under test.d/trigger/)", "6.1 native", "6.1 khist", "6.12 native", "6.12 khist"
	printf fmt, bar, c, c, c, c
	for (i = 1; i <= cnt; i++) {
		t = order[i]
		printf fmt, t, nat[1, t], kh[1, t], nat[2, t], kh[2, t]
	}
	printf fmt, bar, c, c, c, c
	print ""
	print sum[1]
	print sum[2]
}' "$dir/ftracetest-6.1.txt" "$dir/ftracetest-6.12.txt" | sed 's/ *$//'
