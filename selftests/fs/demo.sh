#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - what `make demo` shows inside the VM.
M=/sys/kernel/khist
echo
echo "=== khist $(uname -r): mounted at $M"
grep ' khist ' /proc/mounts
echo
echo "=== ls -l $M"
ls -l $M
echo
echo "=== cat $M/README"
cat $M/README
echo
echo "=== events: $(wc -l < $M/available_events) available, e.g."
grep -E '^(sched:sched_switch|syscalls:sys_enter_openat|kmem:kmalloc)$' $M/available_events
echo
echo "=== cat $M/events/sched/sched_switch/format"
cat $M/events/sched/sched_switch/format
echo
echo "=== sched_switch and sched_process_exec for a moment, then cat trace"
echo > $M/trace
echo 1 > $M/events/sched/sched_switch/enable
echo 1 > $M/events/sched/sched_process_exec/enable
echo "hello from the demo" > $M/trace_marker
/bin/busybox true
sleep 0.2
echo 0 > $M/events/enable
head -n 24 $M/trace
echo
echo "=== trace_pipe consumes: openat with its return value"
echo 1 > $M/events/syscalls/sys_enter_openat/enable
echo 1 > $M/events/syscalls/sys_exit_openat/enable
cat /proc/version > /dev/null
echo 0 > $M/events/enable
timeout 1 cat $M/trace_pipe 2>/dev/null | grep openat | tail -n 4
echo
