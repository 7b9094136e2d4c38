#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - the khist stress test inside the VM (script mode of
# selftests/vm/run.sh; `make stress`). Prints TAP lines.
#
# Kernel command line: khist_stress_secs=N (how long the churn runs, 60),
# khist_stress_calls=N (getpriority calls per worker and round, 20000),
# khist_stress_loops=a,b,... (the churn loops to run: hist, inter, read,
# inst, trig, tear; all by default), khist_stress_seed=N (the first seed
# of the tear loop; the time by default; its seeds are printed).
#
# 1. Two reference triggers count getpriority() per process on
#    raw_syscalls/sys_enter, one at the top and one in the instance
#    stress_ref; nothing else touches them.
# 2. For khist_stress_secs, five loops run against each other and against
#    the workload (stress_load: 2 workers, getpriority, yields, forks, marker
#    writes): hist triggers added, paused, continued, cleared, removed and
#    truncated on several events; variables, synthetic events, onmatch/
#    onmax actions and hists on the synthetic event set up and torn down
#    (in order and out of order); readers of hist, hist_debug, trigger,
#    trace, trace_pipe, error_log with events toggled on and off;
#    instances made, used and removed; the other trigger commands
#    (enable_event, stacktrace, snapshot, traceoff/traceon); random
#    inter-event graphs in instances torn down by force in random order
#    (tear: selftests/fs/test.d/teardown/torture.sh, one seed after the
#    other). Meanwhile the foreground runs the
#    workload in rounds of known size and checks, after each round, that
#    both reference hists counted every worker's calls exactly, with
#    nothing dropped and no other row, and that their Hits total is the
#    sum of their rows; then clears them for the next round.
# 3. Every loop must have done operations that succeeded. Operations are
#    counted per loop, accepted and refused (a refusal is fine: the
#    loops race each other on purpose).
# 4. Everything the loops left is removed: khist's own accounting
#    (mem_used: maps, triggers, buffers, instances, synthetic events) must
#    be back at its level after the setup.
# 5. limits-hostile.tc (torture test 4) runs for a third of the churn's
#    time: a gid= reader tries to stall root's control writes.
# 6. With all the configuration in place and the workload running:
#    kmemleak (debug kernels) must report no khist object, then khist is
#    unmounted and removed (rmmod) under load. khist reports anything
#    still charged at unload as a leak; the harness fails the run on that
#    line, on any WARN (panic_on_warn=1), oops or KASAN/lockdep report in
#    dmesg.
MNT=/sys/kernel/khist
T=/tmp/stress
KML=/sys/kernel/debug/kmemleak
P=/sys/module/khist/parameters
secs=60
calls=20000
loops="hist inter read inst trig tear"
tear_seed=$(date +%s)
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	khist_stress_secs=*) secs=${arg#*=} ;;
	khist_stress_calls=*) calls=${arg#*=} ;;
	khist_stress_loops=*) loops=$(echo "${arg#*=}" | tr , ' ') ;;
	khist_stress_seed=*) tear_seed=${arg#*=} ;;
	esac
done
mkdir -p $T
failed=0

ok() {
	echo "ok - stress/$*"
}

not_ok() {
	failed=1
	echo "not ok - stress/$*"
}

# note FILE - a file's lines as TAP comments (at most 40).
note() {
	head -n 40 "$1" | sed 's/^/# /'
}

echo "# stress: ${secs}s of churn, $calls getpriority calls per worker and round, $(grep -c ^processor /proc/cpuinfo) CPUs"
if ! insmod /lib/khist/khist.ko || ! mount -t khist nodev $MNT; then
	not_ok "setup: insmod and mount"
	exit 1
fi
cd $MNT || exit 1
[ -w $KML ] && echo scan=off > $KML

# The reference triggers. size= leaves room for every pid of the run.
NR=140 # getpriority on x86_64
REF="hist:keys=common_pid:vals=hitcount:sort=common_pid:size=8192 if id == $NR"
REF_CLEAR="hist:keys=common_pid:vals=hitcount:sort=common_pid:size=8192:clear if id == $NR"
SE=events/raw_syscalls/sys_enter
mkdir instances/stress_ref
if echo "$REF" > $SE/trigger &&
	echo "$REF" > instances/stress_ref/$SE/trigger; then
	ok "setup: insmod, mount, reference hists (top and instance)"
	# An event's trigger list is charged from its first trigger until
	# the event goes (limits-charge-spec): the lists of the lasting
	# events the loops give triggers are made before the baseline.
	for f in events/sched/*/trigger events/kmem/*/trigger \
		instances/stress_ref/events/sched/*/trigger \
		instances/stress_ref/events/kmem/*/trigger; do
		echo traceon > $f && echo '!traceon' >> $f
	done
	used0=$(cat $P/mem_used 2>/dev/null)
else
	not_ok "setup: reference hists"
	cat error_log | sed 's/^/# /'
	exit 1
fi

# --- the churn loops; each counts its operations in ok/no and writes
# "NAME OK REFUSED" to $T/ops.NAME when $T/stop appears.
ok_n=0
no_n=0
loop=main
# w FILE TEXT - append TEXT to FILE; t: the same, truncating (t FILE ''
# only truncates). Functions share the shell's variables: the helpers use
# names of their own.
# Refusals are logged per loop ($T/refused.NAME, "FILE<TAB>TEXT").
w() {
	if echo "$2" >> "$1" 2>/dev/null; then
		ok_n=$((ok_n + 1 + tt_added))
	else
		no_n=$((no_n + 1))
		printf '%s\t%s\n' "$1" "$2" >> $T/refused.$loop
	fi
}
t() {
	if if [ -z "$2" ]; then true > "$1"; else echo "$2" > "$1"; fi 2>/dev/null; then
		ok_n=$((ok_n + 1 + tt_added))
	else
		no_n=$((no_n + 1))
		printf '%s\t> %s\n' "$1" "$2" >> $T/refused.$loop
	fi
}
# r FILE... - read files whole.
r() {
	for rf in "$@"; do
		if cat "$rf" > /dev/null 2>&1; then
			ok_n=$((ok_n + 1))
		else
			no_n=$((no_n + 1))
			printf '%s\tread\n' "$rf" >> $T/refused.$loop
		fi
	done
}
# p FILE - read a trace_pipe for a second (the kill that ends it is fine).
p() {
	timeout 1 cat "$1" > /dev/null 2>&1
	case $? in
	0 | 124 | 137 | 143) ok_n=$((ok_n + 1)) ;;
	*) no_n=$((no_n + 1)) ;;
	esac
}
# x CMD... - any other operation.
x() {
	if "$@" > /dev/null 2>&1; then
		ok_n=$((ok_n + 1 + tt_added))
	else
		no_n=$((no_n + 1))
	fi
}
done_loop() {
	echo "$1 $ok_n $no_n" > $T/ops.$1
}

# Hist triggers on the top events (never the reference trigger: sys_enter
# is only appended to and its own triggers removed one by one).
loop_hist() {
	loop=hist
	i=0
	while [ ! -e $T/stop ]; do
		case $((i % 7)) in
		0) f=events/sched/sched_switch/trigger
		   s='hist:keys=next_pid:vals=prev_prio:sort=hitcount.descending:size=512' ;;
		1) f=events/sched/sched_switch/trigger
		   s='hist:keys=next_comm,prev_state:vals=hitcount:sort=next_comm' ;;
		2) f=$SE/trigger
		   s='hist:keys=id.syscall:vals=hitcount:sort=hitcount.descending' ;;
		3) f=$SE/trigger
		   s='hist:keys=common_pid.execname,id:size=256 if id != 140' ;;
		4) f=events/kmem/kmalloc/trigger
		   s='hist:keys=call_site.sym:vals=bytes_req,bytes_alloc:sort=bytes_alloc.descending' ;;
		5) f=events/sched/sched_waking/trigger
		   s='hist:name=stress_wake:keys=pid:vals=prio' ;;
		6) f=events/sched/sched_switch/trigger
		   s='hist:keys=common_stacktrace:vals=hitcount:size=256' ;;
		esac
		h=${f%trigger}hist
		# Commands go before the filter: "hist:...:pause if ...".
		k=${s%% if *}
		flt=${s#"$k"}
		w $f "$s"
		r $h
		w $f "$k:pause$flt"
		r $h ${f%trigger}hist_debug
		w $f "$k:cont$flt"
		w $f "$k:clear$flt"
		r $f
		[ $((i % 3)) -eq 0 ] || w $f "!$s"
		if [ $((i % 5)) -eq 4 ]; then
			# Truncation drops every hist trigger of an event at once.
			t events/sched/sched_switch/trigger ''
			t events/kmem/kmalloc/trigger 'hist:keys=bytes_req.log2'
			w events/kmem/kmalloc/trigger \
				'hist:keys=gfp_flags.hex:vals=bytes_alloc if bytes_req > 64'
			w events/sched/sched_waking/trigger \
				'!hist:name=stress_wake:keys=pid:vals=prio'
			w $SE/trigger '!hist:keys=id.syscall:vals=hitcount:sort=hitcount.descending'
			w $SE/trigger '!hist:keys=common_pid.execname,id:size=256 if id != 140'
		fi
		# Refused on purpose: a bad field and a bad modifier.
		[ $((i % 4)) -eq 0 ] && w $f 'hist:keys=no_such_field'
		i=$((i + 1))
	done
	done_loop hist
}

# Variables, synthetic events, actions, a hist on the synthetic event.
loop_inter() {
	loop=inter
	i=0
	SW=events/sched/sched_waking/trigger
	SS=events/sched/sched_switch/trigger
	SY=events/synthetic/stress_lat
	vars='hist:keys=pid:ts0=common_timestamp.usecs'
	match='hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).stress_lat($lat,next_pid,next_comm)'
	max='hist:keys=next_pid:wl=common_timestamp.usecs-$ts0:onmax($wl).save(next_comm,prev_pid)'
	shist='hist:keys=pid:vals=lat:sort=lat.descending'
	while [ ! -e $T/stop ]; do
		w synthetic_events 'stress_lat u64 lat; pid_t pid; char comm[16]'
		w $SW "$vars"
		w $SE/trigger 'hist:keys=common_pid:sc_ts=common_timestamp.usecs if id == 0'
		w $SS "$match"
		w $SS "$max"
		w $SY/trigger "$shist"
		t $SY/enable 1
		r $SY/hist $SY/hist_debug events/sched/sched_switch/hist_debug
		r synthetic_events dynamic_events
		case $((i % 3)) in
		0)	# In order.
			t $SY/enable 0
			w $SY/trigger "!$shist"
			w $SS "!$max"
			w $SS "!$match"
			w $SW "!$vars"
			w $SE/trigger '!hist:keys=common_pid:sc_ts=common_timestamp.usecs if id == 0'
			w synthetic_events '!stress_lat'
			;;
		1)	# Out of order: the users of a variable or event are there.
			w synthetic_events '!stress_lat'
			w $SW "!$vars"
			w $SS "!$match"
			w synthetic_events '!stress_lat'
			w $SY/trigger "!$shist"
			w $SS "!$max"
			w $SW "!$vars"
			w synthetic_events '!stress_lat'
			w $SE/trigger '!hist:keys=common_pid:sc_ts=common_timestamp.usecs if id == 0'
			;;
		2)	# Left for the next round, which then meets it in place.
			w $SS "$max:pause"
			w $SS "$max:cont"
			w $SY/trigger "$shist:clear"
			;;
		esac
		i=$((i + 1))
	done
	done_loop inter
}

# Readers, and events switched on and off for them.
loop_read() {
	loop='read'
	i=0
	while [ ! -e $T/stop ]; do
		case $((i % 4)) in
		0) t events/sched/sched_switch/enable 1 ;;
		1) t events/sched/enable 1 ;;
		2) t events/enable 0 ;;
		3) t events/raw_syscalls/sys_exit/enable 1 ;;
		esac
		r events/sched/sched_switch/hist events/sched/sched_waking/hist \
			$SE/hist events/kmem/kmalloc/hist \
			events/sched/sched_switch/hist_debug $SE/hist_debug \
			$SE/trigger events/sched/sched_switch/trigger \
			error_log synthetic_events trace
		p trace_pipe
		[ $((i % 8)) -eq 7 ] && t error_log ''
		[ $((i % 16)) -eq 15 ] && t trace ''
		i=$((i + 1))
	done
	t events/enable 0
	done_loop read
}

# Instances: made, given events and triggers, read, removed.
loop_inst() {
	loop=inst
	i=0
	while [ ! -e $T/stop ]; do
		d=instances/stress$((i % 3))
		x mkdir $d
		t $d/events/sched/sched_switch/enable 1
		w $d/events/sched/sched_process_fork/trigger 'hist:keys=common_pid:vals=hitcount'
		w $d/$SE/trigger 'hist:keys=id:vals=hitcount if id < 100'
		w $d/events/sched/sched_waking/trigger 'hist:keys=pid:its=common_timestamp'
		r $d/events/sched/sched_process_fork/hist $d/$SE/hist $d/trace
		p $d/trace_pipe
		[ $((i % 2)) -eq 0 ] && w $d/$SE/trigger '!hist:keys=id:vals=hitcount if id < 100'
		x rmdir $d
		i=$((i + 1))
	done
	for j in 0 1 2; do
		x rmdir instances/stress$j
	done
	done_loop inst
}

# Torture test 1 of the security review, in instances only (the
# reference triggers stay): one seed after the other, each a random
# inter-event graph torn down by force under the loops' load and its own.
# The console names the seed and step of a crash; the log the seeds run.
loop_tear() {
	loop=tear
	tt_added=0
	. /selftests/fs/test.d/teardown/torture.sh
	TT_MNT=$MNT
	TT_TOP=0
	TT_RMMOD=0
	TT_W=w
	# No nice(1): it calls getpriority(), which the reference hists count.
	TT_NICE=
	mkdir -p $T/tear
	s=$tear_seed
	while [ ! -e $T/stop ]; do
		echo "tear seed $s"
		tt_seed $s $T/tear
		ok_n=$((ok_n + 1 + tt_added))
		s=$((s + 1))
	done
	echo "$tear_seed $((s - 1))" > $T/tear.seeds
	done_loop tear
}

# The other trigger commands, in the top level and an instance: event
# enabling, stack traces, snapshots (with the snapshot file freed and
# read), tracing switched off and on again; an event probe with a hist.
loop_trig() {
	loop=trig
	i=0
	PF=events/sched/sched_process_fork/trigger
	while [ ! -e $T/stop ]; do
		case $((i % 2)) in
		0) d=. ;;
		1) d=instances/stress_ref ;;
		esac
		w $d/$PF 'enable_event:kmem:kmalloc:10'
		w $d/$PF 'disable_event:sched:sched_wakeup'
		w $d/events/sched/sched_waking/trigger 'stacktrace:3 if prio < 100'
		w $d/$PF 'snapshot:1'
		# An event probe on sched_switch, with a hist of its own.
		w dynamic_events 'e:stress/ep sched.sched_switch prev=$prev_pid:s32 next=$next_pid:u32'
		w $d/events/stress/ep/trigger 'hist:keys=next:vals=hitcount'
		t $d/events/stress/ep/enable 1
		r $d/events/stress/ep/hist
		w $d/events/sched/sched_process_exit/trigger 'traceoff:1'
		r $d/$PF $d/snapshot
		w $d/events/sched/sched_process_exit/trigger '!traceoff:1'
		w $d/events/sched/sched_process_exit/trigger 'traceon'
		w $d/$PF '!snapshot:1'
		t $d/snapshot 0
		w $d/events/sched/sched_waking/trigger '!stacktrace:3 if prio < 100'
		w $d/$PF '!disable_event:sched:sched_wakeup'
		w $d/$PF '!enable_event:kmem:kmalloc:10'
		w $d/events/sched/sched_process_exit/trigger '!traceon'
		t $d/events/stress/ep/enable 0
		w $d/events/stress/ep/trigger '!hist:keys=next:vals=hitcount'
		w dynamic_events '-:stress/ep'
		t $d/tracing_on 1
		i=$((i + 1))
	done
	done_loop trig
}

# Workload rounds of known size, checked against the reference hists.
# rows FILE - "pid hitcount" per row of a keys=common_pid hist.
rows() {
	sed -n 's/^{ common_pid: *\([0-9]*\) *} hitcount: *\([0-9]*\).*/\1 \2/p' "$1"
}
# total FILE NAME - the Totals line NAME (Hits, Entries, Dropped).
total() {
	sed -n "s/^ *$2: *\([0-9]*\)\$/\1/p" "$1"
}
# ref_section FILE - the reference trigger's table out of an event's hist
# file (which shows every hist trigger of the event).
ref_section() {
	awk -v ref="# trigger info: $REF [active]" '
		/^# event histogram/ { on = 0 }
		$0 == ref { on = 1 }
		on' "$1"
}
check_ref() {
	what=$1
	ref_section $T/hist.$what > $T/h.$what
	if ! [ -s $T/h.$what ]; then
		echo "round $rounds: no reference table in the $what hist file"
		return 1
	fi
	rows $T/h.$what > $T/rows.$what
	while read -r _ pid want; do
		[ "$_" = worker ] || continue
		got=$(awk -v p="$pid" '$1 == p { print $2 }' $T/rows.$what)
		if [ "$got" != "$want" ]; then
			echo "round $rounds: $what hist has '${got}' for worker $pid, it made $want calls"
			return 1
		fi
	done < $T/round.out
	# Only the workers' rows (the tables are cleared after each round),
	# and totals that agree with them.
	sum=$(awk '{ s += $2 } END { print s + 0 }' $T/rows.$what)
	hits=$(total $T/h.$what Hits)
	dropped=$(total $T/h.$what Dropped)
	entries=$(total $T/h.$what Entries)
	nrows=$(wc -l < $T/rows.$what)
	made=$(sed -n 's/^total //p' $T/round.out)
	workers=$(grep -c '^worker ' $T/round.out)
	if [ "$dropped" != 0 ] || [ "$hits" != "$sum" ] ||
		[ "$sum" != "$made" ] || [ "$entries" != "$nrows" ] ||
		[ "$nrows" != "$workers" ]; then
		echo "round $rounds: $what totals: Hits $hits Entries $entries Dropped $dropped; $nrows rows summing to $sum; $workers workers made $made calls"
		return 1
	fi
	return 0
}

rm -f $T/stop $T/ops.*
start=$(date +%s)
for l in $loops; do
	loop_$l > $T/log.$l 2>&1 &
done
rounds=0
calls_total=0
bad=
while [ $(($(date +%s) - start)) -lt "$secs" ]; do
	rounds=$((rounds + 1))
	if ! stress_load -w 2 -n "$calls" -m $MNT/trace_marker > $T/round.out; then
		bad="round $rounds: stress_load failed"
		break
	fi
	cat $SE/hist > $T/hist.top
	cat instances/stress_ref/$SE/hist > $T/hist.inst
	if ! check_ref top > $T/why || ! check_ref inst > $T/why; then
		bad=$(cat $T/why)
		break
	fi
	if ! echo "$REF_CLEAR" >> $SE/trigger ||
		! echo "$REF_CLEAR" >> instances/stress_ref/$SE/trigger; then
		bad="round $rounds: clearing the reference hists failed"
		break
	fi
	calls_total=$((calls_total + $(sed -n 's/^total //p' $T/round.out)))
done
: > $T/stop
wait
elapsed=$(($(date +%s) - start))
if [ -z "$bad" ] && [ $rounds -gt 0 ]; then
	ok "hist totals: $rounds rounds, $calls_total getpriority calls counted exactly in both reference hists"
else
	not_ok "hist totals: ${bad:-no round ran}"
	note $T/h.top
	note $T/h.inst
fi

total_ok=0
total_no=0
missing=
for l in $loops; do
	if ! read -r _ o x < $T/ops.$l || [ "$o" -eq 0 ]; then
		missing="$missing $l"
		continue
	fi
	echo "# stress: loop $l: $o accepted, $x refused"
	[ $l = tear ] && read -r s0 s1 < $T/tear.seeds &&
		echo "# stress: loop tear: seeds $s0 to $s1 (khist_stress_seed=)"
	[ -f $T/refused.$l ] &&
		sort $T/refused.$l | uniq -c | sort -rn | head -n 8 |
		sed 's/^/#   refused /' 
	total_ok=$((total_ok + o))
	total_no=$((total_no + x))
done
if [ -z "$missing" ]; then
	ok "churn: $((total_ok + total_no)) operations in ${elapsed}s ($total_ok accepted, $total_no refused)"
else
	not_ok "churn: loops without an accepted operation:$missing"
	for l in $missing; do
		note $T/log.$l
	done
fi

# Everything the loops may have left is removed (users before what they
# use, twice over for what was still in use): khist's allocation
# accounting must be back where it was with only the reference triggers.
cleanup() {
	for c in 1 2; do
		# An enabled synthetic event cannot be deleted (EBUSY): the
		# inter loop may enable stress_lat after the read loop's last
		# events/enable 0.
		echo 0 > events/enable
		echo 0 > instances/stress_ref/events/enable
		true > events/sched/sched_switch/trigger
		true > events/synthetic/stress_lat/trigger
		true > events/kmem/kmalloc/trigger
		true > events/sched/sched_waking/trigger
		for s in 'hist:keys=id.syscall:vals=hitcount:sort=hitcount.descending' \
			'hist:keys=common_pid.execname,id:size=256 if id != 140' \
			'hist:keys=common_pid:sc_ts=common_timestamp.usecs if id == 0'; do
			echo "!$s" >> $SE/trigger
		done
		true > events/stress/ep/trigger
		true > instances/stress_ref/events/stress/ep/trigger
		echo 0 > events/stress/ep/enable
		echo 0 > instances/stress_ref/events/stress/ep/enable
		echo '-:stress/ep' >> dynamic_events
		echo '!stress_lat' >> synthetic_events
		for j in 0 1 2; do
			rmdir instances/stress$j
			rmdir instances/tdt$j
		done
		for e in tdt_lat tdt_wake tdep/ep; do
			echo "-:$e" >> dynamic_events
		done
		rmmod khist_test_events
	done 2>/dev/null
}
cleanup
if [ -r $P/mem_used ]; then
	used=$(cat $P/mem_used)
	if [ "$used" = "$used0" ]; then
		ok "accounting: khist's charged memory back to $used bytes after the churn"
	else
		not_ok "accounting: $used bytes charged after the churn, $used0 before"
		for f in events/*/*/trigger instances/*/events/*/*/trigger; do
			grep -H -v '^#' "$f"
		done 2>/dev/null | head -n 20 | sed 's/^/# /'
		{ cat synthetic_events; ls instances; } | sed 's/^/# /'
		grep -H . events/synthetic/*/enable events/stress/*/enable \
			2>/dev/null | sed 's/^/# /'
		tail -n 12 error_log | sed 's/^/# /'
	fi
fi

# Torture test 4, longer than in make check: the hostile gid= reader of
# limits-hostile.tc for a third of the churn's time (6 s at least), while
# root's control writes must each finish within its deadline.
hs=$((secs / 3 > 6 ? secs / 3 : 6))
mkdir -p $T/hostile
if (cd $T/hostile && KHIST_HOSTILE_SECONDS=$hs KHIST_MNT=$MNT dash -e -c \
	". /selftests/fs/lib.sh; . /selftests/fs/test.d/limits/limits-hostile.tc") \
	> $T/hostile.log 2>&1; then
	ok "hostile reader: root's control writes within the deadline for ${hs}s"
else
	not_ok "hostile reader: root's control writes stalled or failed"
	note $T/hostile.log
fi
cat $T/hostile/ctl2 $T/hostile/reader 2>/dev/null | sed 's/^/# hostile: /'

# Everything in place again, and the workload running, for the end.
w synthetic_events 'stress_lat u64 lat; pid_t pid; char comm[16]'
w events/sched/sched_waking/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
w events/sched/sched_switch/trigger 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).stress_lat($lat,next_pid,next_comm)'
w events/sched/sched_switch/trigger 'hist:keys=next_comm:vals=prev_prio'
w events/kmem/kmalloc/trigger 'hist:keys=call_site.sym:vals=bytes_req'
w events/synthetic/stress_lat/trigger 'hist:keys=pid:vals=lat'
mkdir instances/stress_end
w instances/stress_end/events/sched/sched_switch/trigger 'hist:keys=prev_pid:vals=hitcount'
# The syscall-latency pair (owner registered before its reader) at the top
# and in an instance, and name= data shared by both, for the unload.
for d in . instances/stress_end; do
	w $d/$SE/trigger 'hist:keys=common_pid:ts0=common_timestamp'
	w $d/events/raw_syscalls/sys_exit/trigger 'hist:keys=common_pid:lat=common_timestamp-$ts0:onmax($lat).save(ret)'
	w $d/events/raw_syscalls/sys_exit/trigger 'hist:name=stress_end:keys=common_pid:vals=hitcount'
done
t instances/stress_end/events/sched/enable 1
t events/sched/enable 1
t events/synthetic/stress_lat/enable 1
cd /
stress_load -w 2 -t 600 -m $MNT/trace_marker > /dev/null 2>&1 &
load=$!
sleep 2

if [ -w $KML ]; then
	echo scan > $KML
	sleep 6
	echo scan > $KML
	if grep -q khist $KML; then
		not_ok "kmemleak: khist objects unreferenced after the churn"
		grep -B4 -A16 khist $KML | head -n 60 | sed 's/^/# /'
	else
		ok "kmemleak: no khist object unreferenced after the churn"
	fi
else
	ok "kmemleak: no khist object unreferenced # SKIP kernel without kmemleak"
fi

i=0
until umount $MNT 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || break
	sleep 0.1
done
if [ $i -lt 50 ]; then
	ok "umount with triggers, instances and enabled events, under load"
else
	not_ok "umount: still busy after 5 s"
fi
i=0
until rmmod khist 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || break
	sleep 0.1
done
if [ $i -lt 50 ] && ! grep -q '^khist ' /proc/modules; then
	ok "rmmod under load"
else
	not_ok "rmmod: khist still loaded"
fi
kill $load 2>/dev/null
wait $load
exit $failed
