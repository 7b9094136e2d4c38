#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - the VM side of make bench-steps (see steps.sh): sets up one
# configuration of the benchmark on khist, prints khist's symbols and
# "# READY" on the result port, then runs the workload until the host's
# debugger has what it wants and stops the VM.
#
# Kernel command line: khsteps.cfg=CFG (c cf cn c3 d e e2 f1 g gx h1 b sc sd
# mc). f1 is row f's trigger on one CPU: keys=id, the same id every time.
# e2 clears its hist after each run of new keys, so that every event
# stepped is an insert.
set -u
K=/sys/kernel/khist
E=$K/events
L=/lib/khist
B=/bin/khbench

cfg=c
# shellcheck disable=SC2013
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	khsteps.cfg=*) cfg=${arg#*=} ;;
	esac
done

if ! insmod $L/khist.ko || ! mount -t khist nodev $K; then
	echo "not ok - steps/load khist"
	exit 1
fi
SE=$E/raw_syscalls/sys_enter
SX=$E/raw_syscalls/sys_exit
SW=$E/sched/sched_switch
KM=$E/kmem/kmalloc
w="getppid 100000"
clear=
case $cfg in
b) echo 1 > $SE/enable ;;
c) echo 'hist:keys=common_pid' > $SE/trigger ;;
cf) echo 'hist:keys=common_pid if id == 110' > $SE/trigger ;;
cn) echo 'hist:keys=common_pid if id == 0' > $SE/trigger ;;
c3) echo 'hist:keys=common_pid if id == 110 && common_pid != 1 && id >= 0' > $SE/trigger ;;
d) echo 'hist:keys=common_pid,id:vals=hitcount,id,common_preempt_count' > $SE/trigger ;;
e)
	echo 'hist:keys=id:size=16384' > $SE/trigger
	w="enosys 100000 10000"
	;;
f1) echo 'hist:keys=id' > $SE/trigger ;;
e2)
	echo 'hist:keys=id:size=131072' > $SE/trigger
	w="fresh 100000"
	clear='hist:keys=id:size=131072:clear'
	;;
h1)
	echo 'hist:keys=id.log2' > $SE/trigger
	w="enosys 100000 10000"
	;;
g | gx)
	echo 'hist:keys=common_pid:ts0=common_timestamp.usecs' > $SE/trigger
	# shellcheck disable=SC2016
	echo 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmax($lat).save(id,ret)' > $SX/trigger
	;;
sc)
	echo 'hist:keys=common_pid' > $SW/trigger
	w="pingpong 10000"
	;;
sd)
	echo 'hist:keys=prev_pid,next_pid:vals=hitcount,prev_prio,next_prio' > $SW/trigger
	w="pingpong 10000"
	;;
mc)
	echo 'hist:keys=common_pid' > $KM/trigger
	w="poll 100000"
	;;
*)
	echo "not ok - steps/unknown configuration $cfg"
	exit 1
	;;
esac
# Every function's address (Debian's System.map is a placeholder).
grep -i ' t ' /proc/kallsyms | sed 's/^/# S /'
echo "# READY $cfg"
# shellcheck disable=SC2086
while :; do
	$B $w > /dev/null
	if [ -n "$clear" ]; then echo "$clear" >> $SE/trigger; fi
done
