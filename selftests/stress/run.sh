#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh KVER MODDIR - `make stress`: boot KVER on 2 vCPUs and run the
# stress test (guest.sh) against the khist modules built in MODDIR.
# Prints the guest's TAP lines, operation counts and the harness's own
# checks (the VM finished: no panic from a WARN or oops; dmesg clean;
# no khist leak), and exits non-zero on any failure.
#
# Environment:
#   STRESS_SECONDS  how long the churn runs (180)
#   STRESS_CALLS    getpriority calls per worker and workload round (20000)
#   STRESS_LOOPS    churn loops to run, comma-separated (all: hist,inter,
#                   read,inst,trig,tear)
#   STRESS_SEED     first seed of the tear loop (default: the guest's time;
#                   the seeds run are printed)
#   KHIST_VM_OUT    output directory (build/stress-KVER)
# The VM's time limit is STRESS_SECONDS plus 15 minutes (45 on a debug
# kernel) for boot, the last workload round and the teardown.
set -u
kver=$1
moddir=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${STRESS_SECONDS:-180}
[ -n "$secs" ] || secs=180
calls=${STRESS_CALLS:-20000}
case "$kver" in
*-kasan | *-kcsan) margin=2700 ;;
*) margin=900 ;;
esac
export KHIST_VM_OUT=${KHIST_VM_OUT:-$top/build/stress-$kver}
export KHIST_VM_SCRIPT=selftests/stress/guest.sh
export KHIST_VM_SMP=2
export KHIST_VM_TIMEOUT=$((secs + margin))
loops=${STRESS_LOOPS:+khist_stress_loops=$STRESS_LOOPS}
loops="$loops${STRESS_SEED:+ khist_stress_seed=$STRESS_SEED}"
export KHIST_VM_APPEND="khist_stress_secs=$secs khist_stress_calls=$calls $loops ${KHIST_VM_APPEND:-}"
sh "$top/selftests/vm/run.sh" script "$kver" "$moddir"
