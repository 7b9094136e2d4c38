#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftracetest.sh KVER MODDIR - `make ftracetest`: the kernel's ftrace trigger
# selftests (Debian's linux-source-6.12 copy, unmodified), native tracefs
# against khist, in one VM boot per kernel.
#
# By default both kernels run (6.1 and 6.12; KHIST_FT_KERNELS overrides, and
# the module for each is built here); KVER/MODDIR from make are used for
# their kernel. Prints one line per test (name, native result, khist
# result) and ends with "N passed, N failed", where a test counts when it
# passes natively (PASS, or XFAIL where the test expects a failure) and
# passed means khist gives the same result. Tables are kept in
# build/conform/ftracetest-<kver>.txt, the native results in
# build/conform/baseline-<kver>.txt (copy them to selftests/conform/ to
# update the baseline `make check` compares with).
# While iterating: KHIST_FT_SIDES=khist skips the native run (the table
# then takes native results from selftests/conform/baseline-<kver>.txt),
# KHIST_FT_FILTER=SUBSTRING runs only the tests whose path contains it.
# KHIST_FT_DIRS="kprobe dynevent" runs those directories of test.d instead
# of trigger and 00basic (the baseline files cover those two only).
# KHIST_VM_OUT=DIR puts the VM runs under DIR (DIR/vm-ftracetest-<kver>,
# default build/conform), as every concurrent run should.
set -u
kver0=$1
moddir0=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/conform/features.sh"
out=$top/build/conform
mkdir -p "$out"
kernels=${KHIST_FT_KERNELS:-6.1 6.12}
total_pass=0
total_fail=0
rc=0

moddir_of() {
	if [ "$1" = "$kver0" ]; then
		echo "$moddir0"
		return
	fi
	kdir=$(sh "$top/selftests/vm/kernel.sh" kdir "$1")
	echo "$top/build/mod-$(cat "$kdir/include/config/kernel.release")"
}

# table LOG KVER - one line per test from the guest's "# ft" lines: name,
# native result, khist result, verdict, and for a failure the features
# khist's README does not claim yet; then the counts.
table() {
	unclaimed_all=$(sed -n 's/^# ft-unclaimed //p' "$1")
	sed -n 's/^# ft //p' "$1" > "$1.res"
	printf '%-62s %-12s %-12s %s\n' "test ($2)" native khist goal
	pass=0 fail=0 na=0
	cut -f2 "$1.res" | awk '!seen[$0]++' > "$1.names"
	while IFS= read -r t; do
		nat=$(awk -F'\t' -v t="$t" '$1 == "native" && $2 == t { r = $3 } END { print r }' "$1.res")
		kh=$(awk -F'\t' -v t="$t" '$1 == "khist" && $2 == t { r = $3 } END { print r }' "$1.res")
		case "$nat" in
		PASS | XFAIL)
			if [ "$kh" = "$nat" ]; then
				v=passed
				pass=$((pass + 1))
			else
				miss=
				for f in $(ft_features "$t"); do
					case " $unclaimed_all " in
					*" $f "*) miss="$miss $f" ;;
					esac
				done
				v="FAILED${miss:+ (missing:$miss)}"
				fail=$((fail + 1))
			fi
			;;
		*)
			v="not counted (native ${nat:-none})"
			na=$((na + 1))
			;;
		esac
		printf '%-62s %-12s %-12s %s\n' "$t" "${nat:--}" "${kh:--}" "$v"
	done < "$1.names"
	echo "$2: $pass passed, $fail failed, $na not counted"
	{
		echo "# ftracetest (Debian linux-source-6.12) on the native tracefs of"
		echo "# $(sed -n 's/^# khist-vm: kernel \([^,]*\),.*/\1/p' "$1"), recorded by make ftracetest"
		grep '^native	' "$1.res" | cut -f2,3
	} > "$out/baseline-$2.txt"
}

for k in $kernels; do
	moddir=$(moddir_of "$k")
	if [ "$k" != "$kver0" ]; then
		make -s -C "$top" module KVER="$k" >/dev/null || {
			echo "$k: module build failed"
			total_fail=$((total_fail + 1))
			continue
		}
	fi
	vmout=${KHIST_VM_OUT:-$out}/vm-ftracetest-$k
	mkdir -p "${vmout%/*}"
	append="${KHIST_FT_SIDES:+khistft.sides=$(echo $KHIST_FT_SIDES | tr ' ' ,)}"
	append="$append${KHIST_FT_FILTER:+ khistft.filter=$KHIST_FT_FILTER}"
	append="$append${KHIST_FT_DIRS:+ khistft.dirs=$(echo $KHIST_FT_DIRS | tr ' ' ,)}"
	KHIST_VM_APPEND="${KHIST_VM_APPEND:-} $append" \
	KHIST_VM_OUT=$vmout KHIST_VM_SCRIPT=selftests/conform/guest-ftracetest.sh \
		KHIST_VM_TIMEOUT=${KHIST_VM_TIMEOUT:-2400} \
		nice sh "$top/selftests/vm/run.sh" script "$k" "$moddir" \
		>"$vmout.log" 2>&1
	vmrc=$?
	grep -E '^(not )?ok ' "$vmout.log"
	case "${KHIST_FT_SIDES:-native}" in
	*native*) ;;
	*)
		# Native results from the recorded baseline.
		grep -v '^#' "$top/selftests/conform/baseline-$k.txt" |
			grep -F -- "${KHIST_FT_FILTER:-}" |
			sed 's/^/# ft native	/' >>"$vmout.log"
		;;
	esac
	table "$vmout.log" "$k" >"$out/ftracetest-$k.txt"
	cat "$out/ftracetest-$k.txt"
	if grep -q '^# log ' "$vmout.log"; then
		echo "(khist's logs of tests that did not pass: $vmout.log)"
	fi
	p=$(sed -n 's/.*: \([0-9]*\) passed, .*/\1/p' "$out/ftracetest-$k.txt")
	f=$(sed -n 's/.* passed, \([0-9]*\) failed.*/\1/p' "$out/ftracetest-$k.txt")
	total_pass=$((total_pass + ${p:-0}))
	total_fail=$((total_fail + ${f:-0}))
	if [ $vmrc -ne 0 ] && ! grep -q '^# ft ' "$vmout.log"; then
		echo "$k: the VM run failed:"
		tail -n 40 "$vmout.log"
		total_fail=$((total_fail + 1))
	fi
	echo
done
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] || rc=1
exit $rc
