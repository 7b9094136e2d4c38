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
echo "=== hist triggers: which syscalls a small workload makes (.syscall)"
H=$M/events/raw_syscalls/sys_enter
echo 'hist:keys=id.syscall:vals=hitcount:sort=hitcount.descending' > $H/trigger
for d in /bin /proc/self /sys/kernel; do ls $d > /dev/null; done
cat /proc/version /proc/meminfo > /dev/null
echo 'hist:keys=id.syscall:vals=hitcount:sort=hitcount.descending:pause' >> $H/trigger
cat $H/trigger
head -n 16 $H/hist
echo "{ ... $(($(grep -c '^{' $H/hist) - 11)) more entries ... }"
tail -n 5 $H/hist
: > $H/trigger
echo
echo "=== a log2 distribution: kmalloc request sizes, with a bar per bucket"
K=$M/events/kmem/kmalloc
echo 'hist:keys=bytes_req.log2:vals=hitcount,hitcount.graph,bytes_alloc:sort=bytes_req' > $K/trigger
for i in 1 2 3; do ls -R /sys/kernel/khist > /dev/null; done
echo 'hist:keys=bytes_req.log2:vals=hitcount,hitcount.graph,bytes_alloc:sort=bytes_req:pause' >> $K/trigger
cat $K/hist
echo
echo "=== hist_debug (every event has it): how that trigger is built"
cat $K/hist_debug
: > $K/trigger
echo
echo "=== a mistake is explained in error_log, with a caret"
echo 'hist:keys=bytes_req:vals=hitcount:sort=bytes_alloc' >> $K/trigger 2>/dev/null || true
cat $M/error_log
echo
echo "=== wakeup latency from two events: sched_waking stores a timestamp per pid,"
echo "=== sched_switch reads it back, fires the synthetic event wakeup_latency"
echo "=== and keeps the worst case per pid; wakeup_latency has its own hist"
cd $M
echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs if comm=="demo-sleeper"' >> events/sched/sched_waking/trigger
echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm):onmax($wakeup_lat).save(next_comm,prev_pid,prev_comm) if next_comm=="demo-sleeper"' >> events/sched/sched_switch/trigger
echo 'hist:keys=lat.log2:sort=lat' >> events/synthetic/wakeup_latency/trigger
(
	printf demo-sleeper > /proc/self/comm
	for i in $(seq 40); do usleep 1000; done
)
cat synthetic_events
echo
echo "=== cat events/sched/sched_switch/hist"
cat events/sched/sched_switch/hist
echo
echo "=== cat events/synthetic/wakeup_latency/hist"
cat events/synthetic/wakeup_latency/hist
echo '!hist:keys=lat.log2:sort=lat' >> events/synthetic/wakeup_latency/trigger
echo '!hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm):onmax($wakeup_lat).save(next_comm,prev_pid,prev_comm) if next_comm=="demo-sleeper"' >> events/sched/sched_switch/trigger
echo '!hist:keys=pid:ts0=common_timestamp.usecs if comm=="demo-sleeper"' >> events/sched/sched_waking/trigger
echo '!wakeup_latency' >> synthetic_events
cd /
echo
echo
echo "=== git, through the khist-trace2 bridge: Git's Trace2 regions become user"
echo "=== events (events/user_events/trace2_*), and one hist trigger sums the"
echo "=== time of each (category, label) over a few git commands"
UE=/opt/user_events
RL=$M/events/user_events/trace2_region_leave
sock=/tmp/demo-t2.sock
if [ -x $UE/khist-trace2 ] && command -v git > /dev/null; then
	$UE/khist-trace2 listen --socket $sock --data $M/user_events_data \
		> /tmp/demo-t2.log 2>&1 &
	t2=$!
	i=0
	until [ -d $RL ] && [ -S $sock ]; do
		i=$((i + 1))
		[ $i -lt 250 ] || break
		usleep 20000
	done
	T='hist:keys=category,label:vals=hitcount,t_rel:sort=t_rel.descending'
	echo "$T" >> $RL/trigger
	(
		mkdir -p /tmp/demo-git/home
		export HOME=/tmp/demo-git/home GIT_CONFIG_NOSYSTEM=1 LANG=C \
			GIT_AUTHOR_NAME=demo GIT_AUTHOR_EMAIL=demo@khist \
			GIT_COMMITTER_NAME=demo GIT_COMMITTER_EMAIL=demo@khist \
			GIT_TRACE2_EVENT=af_unix:stream:$sock
		cd /tmp/demo-git && git init -q -b main repo 2> /dev/null &&
			cd repo || exit 1
		for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "line $i" > f$i; done
		git add . && git commit -q -m first
		echo more >> f1 && git commit -q -am second
		git status > /dev/null
		git log --oneline > /dev/null
		git gc -q
	)
	$UE/khist-trace2 ctl wait-idle --socket $sock --timeout 30 > /dev/null
	echo "\$ echo '$T' \\"
	echo "       >> events/user_events/trace2_region_leave/trigger"
	echo "\$ cat events/user_events/trace2_region_leave/hist   # t_rel in microseconds"
	head -n 16 $RL/hist
	echo "{ ... }"
	tail -n 5 $RL/hist
	echo "!$T" >> $RL/trigger
	kill $t2
	wait $t2 2> /dev/null
	rm -rf /tmp/demo-git
else
	echo "(skipped: git or khist-trace2 is not in the VM image)"
fi
