#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - khist's whole test suite: the userspace unit tests of the
# portable core, the in-VM tests on Debian's 6.1, 6.12 and 6.12-rt
# kernels, then the style gates (selftests/style.sh) beside the areas' own
# stages.
# Prints one line per test (PASS/FAIL/SKIP) and ends with
# "N passed, N failed"; exits non-zero if anything failed.
# KHIST_CHECK_ONLY="vm-6.12 style ...": run only the stages named there.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=$top/build/check
mkdir -p "$out"
: >"$out/all.tap"

# stage NAME CMD... - run CMD, keep its TAP lines, and count a CMD that
# failed without saying which test failed as a failure of its own.
stages=
# wanted NAME - whether KHIST_CHECK_ONLY selects stage NAME.
wanted() {
	case " ${KHIST_CHECK_ONLY:-$1} " in
	*" $1 "*) return 0 ;;
	*) return 1 ;;
	esac
}
# run NAME CMD... - run CMD into NAME's log and its exit code into
# NAME.rc; report NAME prints what it found.
run() {
	name=$1
	shift
	t0=$(date +%s)
	"$@" >"$out/$name.log" 2>&1
	echo $? >"$out/$name.rc"
	echo "$(($(date +%s) - t0))" >"$out/$name.secs"
}
report() {
	name=$1
	stages="$stages $name"
	echo "== $name ($(cat "$out/$name.secs") s)"
	rc=$(cat "$out/$name.rc")
	grep -E '^(not )?ok ' "$out/$name.log" |
		sed -E "s/^(not )?ok [0-9]* *-? */&$name: /" >"$out/$name.tap"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$out/$name.tap"; then
		echo "not ok - $name: exited $rc" >>"$out/$name.tap"
		tail -n 30 "$out/$name.log" | sed 's/^/# /' >>"$out/$name.tap"
	fi
	grep '^not ok' -A 40 "$out/$name.log" | grep '^#' | head -n 40 >"$out/$name.why" || true
	while IFS= read -r line; do
		case "$line" in
		"not ok"*) echo "FAIL: ${line#not ok*- }" ;;
		*"# SKIP"*) echo "SKIP: ${line#ok*- }" ;;
		ok*) echo "PASS: ${line#ok*- }" ;;
		"#"*) echo "  $line" ;;
		esac
	done <"$out/$name.tap"
	[ -s "$out/$name.why" ] && sed 's/^/    /' "$out/$name.why"
	cat "$out/$name.tap" >>"$out/all.tap"
}
# stage NAME CMD... - run CMD, keep its TAP lines, and count a CMD that
# failed without saying which test failed as a failure of its own.
stage() {
	wanted "$1" || return 0
	run "$@"
	report "$1"
}

stage unit make -s unit
# khist-trace2 on the host, with real git and the fake user_events sink
# (tools/trace2/tests/run.sh, about 20 s).
stage trace2 make -s trace2-test
# 6.12-rt: Debian's PREEMPT_RT kernel (no sleeping locks where preemption
# or interrupts are off).
# The three kernels' modules are built one after the other, then their
# VMs run two at a time (one TCG thread each on the 2-core machine), from
# a queue, longest first: 6.1 whole (about 1400 s), 6.12-rt in two shards
# (selftests/vm/run.sh, KHIST_VM_SHARD; about 900 s each), 6.12 in three
# (about 450 s each); each job goes to whichever lane is free first, so
# both lanes end at about the same time.
vms=
for kver in 6.1 6.12 6.12-rt; do
	wanted "vm-$kver" || continue
	vms="$vms $kver"
	run "build-$kver" make -s testmodules KVER=$kver
done
shards_of() {
	case "$1" in
	6.12) echo 3 ;;
	6.12-rt) echo 2 ;;
	*) echo 1 ;;
	esac
}
: >"$out/vm.queue"
rm -f "$out"/vm-*.[0-9].* 2>/dev/null
rmdir "$out/vm.lock" 2>/dev/null
for kver in 6.1 6.12-rt 6.12; do
	case " $vms " in
	*" $kver "*) ;;
	*) continue ;;
	esac
	if [ "$(cat "$out/build-$kver.rc")" -ne 0 ]; then
		cp "$out/build-$kver.log" "$out/vm-$kver.log"
		cp "$out/build-$kver.rc" "$out/vm-$kver.rc"
		cp "$out/build-$kver.secs" "$out/vm-$kver.secs"
		continue
	fi
	n=$(shards_of "$kver")
	i=0
	while [ $i -lt "$n" ]; do
		echo "$kver $i $n" >>"$out/vm.queue"
		i=$((i + 1))
	done
done
# next_vm - the queue's first job, taken under a lock (mkdir is atomic).
next_vm() {
	while ! mkdir "$out/vm.lock" 2>/dev/null; do
		sleep 1
	done
	head -n 1 "$out/vm.queue"
	sed -i 1d "$out/vm.queue"
	rmdir "$out/vm.lock"
}
vm_lane() {
	while :; do
		job=$(next_vm)
		[ -n "$job" ] || break
		set -- $job
		if [ "$3" -eq 1 ]; then
			run "vm-$1" make -s vmtest KVER="$1"
		else
			KHIST_VM_SHARD="$2/$3" KHIST_VM_OUT="$top/build/vm-$1.$2" \
				run "vm-$1.$2" make -s vmtest KVER="$1"
		fi
	done
}
vm_lane &
lane1=$!
vm_lane &
lane2=$!
wait $lane1 $lane2
for kver in $vms; do
	n=$(shards_of "$kver")
	if [ "$n" -gt 1 ] && [ -f "$out/vm-$kver.0.rc" ]; then
		# The shards as one stage: their logs one after the other, the
		# worst exit code, and the time of the longest.
		rc=0
		secs=0
		: >"$out/vm-$kver.log"
		i=0
		while [ $i -lt "$n" ]; do
			cat "$out/vm-$kver.$i.log" >>"$out/vm-$kver.log" 2>/dev/null
			r=$(cat "$out/vm-$kver.$i.rc" 2>/dev/null || echo 1)
			[ "$r" -ne 0 ] && rc=$r
			t=$(cat "$out/vm-$kver.$i.secs" 2>/dev/null || echo 0)
			[ "$t" -gt "$secs" ] && secs=$t
			i=$((i + 1))
		done
		echo $rc >"$out/vm-$kver.rc"
		echo "$secs" >"$out/vm-$kver.secs"
	fi
	report "vm-$kver"
done
# After the VMs, the style gates and the areas' stages (selftests/<area>/
# stage.sh prints TAP lines and exits non-zero on failure) run in two
# lanes, as the VMs do: lane A the areas that boot VMs (one TCG thread,
# and they share build/mod-*, so one after the other), lane B everything
# else on the host under nice, so that the VM keeps its core: style
# (checkpatch, clang-format, kernel-doc with Context: lines, W=1 on 6.1
# and 6.12, sparse), dkms, fuzz and the short ones. A new
# area goes to lane B unless it is listed in lane A. Their reports follow
# in name order.
vm_areas="conform install stress"
lane_a=
lane_b=
wanted style && lane_b=style
for s in selftests/*/stage.sh; do
	[ -f "$s" ] || continue
	area=$(basename "$(dirname "$s")")
	wanted "$area" || continue
	case " $vm_areas " in
	*" $area "*) lane_a="$lane_a $area" ;;
	*) lane_b="$lane_b $area" ;;
	esac
done
area_run() {
	if [ "$1" = style ]; then
		run style sh selftests/style.sh all
	else
		run "$1" sh "selftests/$1/stage.sh"
	fi
}
(for a in $lane_a; do area_run "$a"; done) &
lane1=$!
(
	# This subshell's pid ($$ is the script's), niced before it starts
	# anything: its children inherit it.
	renice -n 10 -p "$(sh -c 'echo $PPID')" >/dev/null 2>&1 || true
	for a in $lane_b; do area_run "$a"; done
) &
lane2=$!
wait $lane1 $lane2
for a in style $(echo $lane_a $lane_b | tr ' ' '\n' | grep -v '^style$' | sort); do
	case " $lane_a $lane_b " in
	*" $a "*) report "$a" ;;
	esac
done

pass=$(grep -c '^ok' "$out/all.tap" | tr -d ' ')
skip=$(grep '^ok' "$out/all.tap" | grep -c '# SKIP' | tr -d ' ')
fail=$(grep -c '^not ok' "$out/all.tap" | tr -d ' ')
pass=$((pass - skip))
echo
# The failures again, with their reasons, next to the total: a reader of
# the output's tail sees what failed and why.
if [ "$fail" -gt 0 ]; then
	echo "== failures"
	for name in $stages; do
		grep '^not ok' "$out/$name.tap" | sed 's/^not ok[^-]*- /FAIL: /'
		[ -s "$out/$name.why" ] && sed 's/^/    /' "$out/$name.why"
	done
	echo
fi
# Skips (features a test needs that khist does not claim yet) are listed
# above and counted on their own line; the last line is always the total.
[ "$skip" -gt 0 ] && echo "$skip skipped (not counted as passed)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
