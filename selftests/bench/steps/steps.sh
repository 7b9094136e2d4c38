#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# steps.sh KVER MODDIR CFG... - where the instructions of one event go
# (make bench-steps). For each configuration (gx: g's sys_exit side) it
# boots KVER with QEMU's gdb stub and -icount shift=0 (the guest's clock
# does not run while gdb steps), sets the configuration up on khist
# (guest.sh, which also prints the guest's function addresses), lets the
# workload run, then single-steps khist's probe through whole events with
# gdb (steps.py). build/steps-KVER/CFG.txt gets the instructions of each
# function (self only) and the order they ran in; CFG.txt.trace every
# instruction of the first event as function+offset.
#
# Environment: KHSTEPS_EVENTS (events per configuration, 3), KHSTEPS_SKIP
# (events let through first, 200), KHSTEPS_PORT (gdb stub port, 12xxx).
set -u
kver=$1
moddir=$2
shift 2
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${KHSTEPS_OUT:-$top/build/steps-$kver}
port=${KHSTEPS_PORT:-$((12000 + $$ % 1000))}
mkdir -p "$out"
bin=$out/khbench
gcc -O2 -Wall -Wextra -static -pthread -o "$bin" \
	"$top/selftests/bench/vm/khbench.c" || exit 1
rc=0
for cfg in "$@"; do
	case $cfg in
	sc | sd) probe=khist_probe_sched_switch ;;
	mc) probe=khist_probe_kmalloc ;;
	gx) probe=khist_probe_sys_exit ;;
	*) probe=khist_probe_sys_enter ;;
	esac
	vm=$out/vm-$cfg
	rm -rf "$vm"
	KHIST_BENCH_BIN=$bin KHIST_VM_OUT=$vm \
		KHIST_VM_SCRIPT=selftests/bench/steps/guest.sh KHIST_VM_SMP=1 \
		KHIST_VM_QEMU="-icount shift=0 -gdb tcp:127.0.0.1:$port" \
		KHIST_VM_APPEND="khsteps.cfg=$cfg" \
		KHIST_VM_TIMEOUT=${KHIST_VM_TIMEOUT:-900} \
		sh "$top/selftests/vm/run.sh" script "$kver" "$moddir" \
		> "$vm.tap" 2>&1 &
	vmpid=$!
	# Wait for the guest to be ready (or the VM to be gone).
	while kill -0 $vmpid 2>/dev/null &&
		! grep -q '^# READY' "$vm/results.tap" 2>/dev/null; do
		sleep 2
	done
	if ! grep -q '^# READY' "$vm/results.tap" 2>/dev/null; then
		echo "not ok - steps/$cfg: guest not ready"
		cat "$vm.tap"
		rc=1
		continue
	fi
	tr -d '\r' < "$vm/results.tap" | sed -n 's/^# S //p' > "$out/$cfg.syms"
	KHSTEPS_PORT=$port KHSTEPS_SYMS=$out/$cfg.syms KHSTEPS_PROBE=$probe \
		KHSTEPS_OUT=$out/$cfg.txt \
		gdb -q -batch -x "$top/selftests/bench/steps/steps.py" \
		> "$out/$cfg.gdb.log" 2>&1
	# gdb's kill stops QEMU; the harness then reports the VM unfinished.
	wait $vmpid
	if [ -s "$out/$cfg.txt" ]; then
		echo "ok - steps/$cfg: $(tail -n 1 "$out/$cfg.txt")"
	else
		echo "not ok - steps/$cfg: no trace (see $out/$cfg.gdb.log)"
		rc=1
	fi
done
exit $rc
