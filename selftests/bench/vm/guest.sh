#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - the bench VM's script (make bench; selftests/vm/init script
# mode, stdout is the result port). Measures every configuration on the
# native kernel's tracing and on khist's, back to back in this boot, and
# prints raw result lines for selftests/bench/vm/run.sh to tabulate:
#
#   # R CFG SIDE ROUND MEAN MIN CPU%   one measurement (ns per event)
#   # E CFG SIDE TEXT                  SIDE cannot run CFG (trigger rejected)
#   # H CFG SIDE key=value...          hist / ring buffer totals (round 1)
#   # READ SIDE NS BYTES ENTRIES       reading a hist of 10^5 entries
#   # MEM SIDE CREATE_KB FILL_KB SIZE ENTRIES
#   # M key value                      what was measured how
#
# plus TAP lines for what must work (setup of the native side, sanity of
# the totals). Kernel command line: khbench.mode=icount|smp|mttcg (icount:
# one CPU, every single-CPU row; smp: two CPUs, the contention row f;
# mttcg: the same on multi-threaded TCG, rows tf...),
# khbench.rounds=N, khbench.iters=N, khbench.only=ROW,ROW... (only those
# rows and their baselines; "read" for the hist read),
# khbench.param=MODULE.NAME=VALUE (set after loading, for variants). Speed never fails
# anything.
set -u
T=/sys/kernel/tracing
K=/sys/kernel/khist
L=/lib/khist
B=/bin/khbench
USE=/sys/kernel/debug/khist_test/use
C=/tmp/bench-cfg

mode=icount
only=
params=
rounds=3
n=50000
# shellcheck disable=SC2013
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	khbench.mode=*) mode=${arg#*=} ;;
	khbench.rounds=*) rounds=${arg#*=} ;;
	khbench.iters=*) n=${arg#*=} ;;
	khbench.only=*) only=${arg#*=} ;;
	khbench.param=*) params="$params ${arg#*=}" ;;
	esac
done
npp=$((n / 10))

ok() { echo "ok - bench/$*"; }
notok() { echo "not ok - bench/$*"; }
log() { echo "bench: $*" >&2; }

setup_fs() {
	mount -t tracefs nodev $T 2>/dev/null || [ -d $T/events ] || {
		notok "mount tracefs"
		return 1
	}
	if ! insmod $L/khist.ko || ! mount -t khist nodev $K; then
		notok "load and mount khist"
		return 1
	fi
	insmod $L/khist_test_events.ko || {
		notok "load khist_test_events"
		return 1
	}
	# khbench.param=MODULE.NAME=VALUE: a module parameter of a variant
	# (busybox insmod does not read the kernel command line)
	for _p in $params; do
		_m=${_p%%.*}
		_nv=${_p#*.}
		if echo "${_nv#*=}" > "/sys/module/$_m/parameters/${_nv%%=*}"; then
			echo "# M param $_p"
		else
			notok "setup: module parameter $_p"
			return 1
		fi
	done
	[ -x $B ] || {
		notok "khbench in the image"
		return 1
	}
	ok "setup: tracefs, khist, khbench"
}

# ---- configurations ----
#
# def ID BASE KIND "WORKLOAD" [EVENT TRIGGER]...
#   KIND: base (no tracing), enable (EVENT into the ring buffer), trig
#   (TRIGGERs written in order, removed in reverse), null (the empty probe
#   module on tracepoint EVENT, or with EVENT kp=FUNCTION its empty kprobe),
#   use (khist only: a soft use of EVENT, the probe runs and builds nothing)
#   An EVENT written "native:EVENT" or "khist:EVENT" is one side's only
#   (rows whose nearest native twin is another trigger text).
#   An EVENT of "=kprobe_events" makes TRIGGER a probe definition written
#   to that file of the side before everything else and removed
#   ("-:GROUP/NAME") after.
def() {
	# khbench.only: just these rows and their baselines
	if [ -n "$only" ]; then
		case ",$only," in
		*",$1,"*) [ "$2" != - ] && only="$only,$2" ;;
		*) [ "$3" = base ] || return ;;
		esac
	fi
	echo "$1" >> $C/all
	{
		echo "base $2"
		echo "kind $3"
		echo "wl $4"
	} > "$C/$1"
	_id=$1
	shift 4
	while [ $# -ge 2 ]; do
		echo "t $1 $2" >> "$C/$_id"
		shift 2
	done
}

SE=raw_syscalls/sys_enter
SX=raw_syscalls/sys_exit
SW=sched/sched_switch
SK=sched/sched_waking
KM=kmem/kmalloc
KEYS=10000

# Trigger texts are single-quoted: $ts0 and $lat are hist variables.
# shellcheck disable=SC2016
define_icount() {
	def a - base "getppid $n"
	def ak - base "enosys $n $KEYS"
	def as - base "pingpong $npp"
	def am - base "poll $n"
	def i a null "getppid $n" sys_enter -
	def i2 a use "getppid $n" $SE -
	def b a enable "getppid $n" $SE -
	def c a trig "getppid $n" $SE 'hist:keys=common_pid'
	def d a trig "getppid $n" \
		$SE 'hist:keys=common_pid,id:vals=hitcount,id,common_preempt_count'
	def cf a trig "getppid $n" $SE 'hist:keys=common_pid if id == 110'
	def cn a trig "getppid $n" $SE 'hist:keys=common_pid if id == 0'
	def c3 a trig "getppid $n" \
		$SE 'hist:keys=common_pid if id == 110 && common_pid != 1 && id >= 0'
	def g a trig "getppid $n" \
		$SE 'hist:keys=common_pid:ts0=common_timestamp.usecs' \
		$SX 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmax($lat).save(id,ret)'
	def e ak trig "enosys $n $KEYS" $SE 'hist:keys=id:size=16384'
	def eg ak trig "enosys $n $KEYS" native:$SE 'hist:keys=id:size=16384' \
		khist:$SE 'hist:keys=id:size=128'
	def h1 ak trig "enosys $n $KEYS" $SE 'hist:keys=id.log2'
	def q ak trig "enosys $n $KEYS" native:$SE 'hist:keys=common_pid:vals=id' \
		khist:$SE 'hist:keys=common_pid:vals=id.quantiles'
	def qs ak trig "enosys $n $KEYS" native:$SE 'hist:keys=common_pid:vals=id' \
		khist:$SE 'hist:keys=common_pid:vals=id.stats'
	def h2 ak trig "enosys $n $KEYS" $SE 'hist:keys=id.buckets=64'
	def si as null "pingpong $npp" sched_switch -
	def sb as enable "pingpong $npp" $SW -
	def sc as trig "pingpong $npp" $SW 'hist:keys=common_pid'
	def sd as trig "pingpong $npp" \
		$SW 'hist:keys=prev_pid,next_pid:vals=hitcount,prev_prio,next_prio'
	def sg as trig "pingpong $npp" \
		$SK 'hist:keys=pid:ts0=common_timestamp.usecs' \
		$SW 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmax($lat).save(prev_pid,prev_prio)'
	KP=__x64_sys_getppid
	def ki a null "getppid $n" kp=$KP -
	def kb a enable "getppid $n" =kprobe_events "p:kprobes/kb $KP" \
		kprobes/kb -
	def kc a trig "getppid $n" =kprobe_events "p:kprobes/kc $KP" \
		kprobes/kc 'hist:keys=common_pid'
	def kd a trig "getppid $n" \
		=kprobe_events "p:kprobes/kd $KP nr=+120(%di):u64 flags=+144(%di):x64" \
		kprobes/kd 'hist:keys=common_pid,nr:vals=hitcount,flags'
	def kn a trig "getppid $n" =kprobe_events "p:kprobes/kn $KP" \
		kprobes/kn 'hist:keys=common_pid if common_pid == 0'
	def kl a trig "getppid $n" =kprobe_events "p:kprobes/kl_in $KP" \
		=kprobe_events "r:kprobes/kl_out $KP" \
		kprobes/kl_in 'hist:keys=common_pid:ts0=common_timestamp.usecs' \
		kprobes/kl_out 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmax($lat).save(common_pid)'
	def mi am null "poll $n" kmalloc -
	def mb am enable "poll $n" $KM -
	def mc am trig "poll $n" $KM 'hist:keys=common_pid'
	def md am trig "poll $n" \
		$KM 'hist:keys=call_site,bytes_req:vals=hitcount,bytes_alloc'
}

# smp, or mttcg with the prefix t
define_smp() {
	def "${1:-}a2" - base "getppid $n 2"
	def "${1:-}f" "${1:-}a2" trig "getppid $n 2" $SE 'hist:keys=id'
	def "${1:-}f2" "${1:-}a2" trig "getppid $n 2" $SE 'hist:keys=common_pid'
	def "${1:-}fb" "${1:-}a2" enable "getppid $n 2" $SE -
}

# mttcg: the second CPU runs only the workload; code is patched (probes,
# static keys) while it is offline, which multi-threaded TCG needs.
cpu1() {
	[ "$mode" = mttcg ] || return 0
	echo "$1" > /sys/devices/system/cpu/cpu1/online ||
		notok "cpu1 online=$1"
}

# ---- one measurement ----

# The configuration's fields: ckind, cwl, and the events and
# triggers in $C/CFG.t (one "EVENT TRIGGER" per line).
load_cfg() {
	ckind=$(sed -n 's/^kind //p' "$C/$1")
	cwl=$(sed -n 's/^wl //p' "$C/$1")
	sed -n 's/^t //p' "$C/$1" > "$C/$1.t"
}

root_of() {
	case "$1" in
	native) echo $T ;;
	*) echo $K ;;
	esac
}

# errtext ROOT WRITE_ERROR: what the side said when it refused a command
errtext() {
	_last=$(tail -n 2 "$1/error_log" 2>/dev/null | tr -s ' \n' '  ')
	echo "$2${_last:+ (error_log: $_last)}"
}

# untrigger ROOT FILE-OF-"EVENT TRIGGER" LINES: remove in reverse order
untrigger() {
	sed -n '1!G;h;$p' "$2" | while read -r _ev _tr; do
		case "$_ev" in
		=kprobe_events)
			_name=$(echo "$_tr" | sed 's/^[pr][0-9]*:\([^ ]*\) .*/\1/')
			$B write "$1/kprobe_events" "-:$_name" > /dev/null ||
				log "could not remove probe $_name"
			;;
		*)
			$B write "$1/events/$_ev/trigger" "!$_tr" > /dev/null ||
				log "could not remove '$_tr' from $_ev"
			;;
		esac
	done
}

# sides_lines SIDE: the "EVENT TRIGGER" lines of stdin for SIDE, without
# their "native:"/"khist:" prefixes; lines of the other side left out
sides_lines() {
	while read -r _ev _tr; do
		case "$_ev" in
		native:* | khist:*)
			[ "${_ev%%:*}" = "$1" ] || continue
			_ev=${_ev#*:}
			;;
		esac
		echo "$_ev $_tr"
	done
}

# probes ROOT CFG: write the configuration's probe definitions (kept in
# $C/CFG.done for untrigger); 0 when done, else prints why
probes() {
	: > "$C/$2.done"
	grep '^=kprobe_events ' "$C/$2.t" > "$C/$2.tp"
	while read -r _ev _tr; do
		if ! _err=$($B write "$1/kprobe_events" "$_tr"); then
			errtext "$1" "kprobe_events: '$_tr': $_err"
			return 1
		fi
		echo "$_ev $_tr" >> "$C/$2.done"
	done < "$C/$2.tp"
}

# setup CFG SIDE: 0 when ready, else prints why on stdout
setup() {
	_root=$(root_of "$2")
	[ "$2" = native ] && echo local > $T/trace_clock
	case "$ckind" in
	base) ;;
	enable)
		probes "$_root" "$1" || {
			untrigger "$_root" "$C/$1.done"
			return 1
		}
		_ev=$(grep -v '^=' "$C/$1.t" | head -n 1 | cut -d' ' -f1)
		echo > "$_root/trace"
		echo 1 > "$_root/events/$_ev/enable" || {
			echo "cannot enable $_ev"
			untrigger "$_root" "$C/$1.done"
			return 1
		}
		;;
	trig)
		probes "$_root" "$1" || {
			untrigger "$_root" "$C/$1.done"
			return 1
		}
		grep -v '^=' "$C/$1.t" | sides_lines "$2" > "$C/$1.tt"
		while read -r _ev _tr; do
			if ! _err=$($B write "$_root/events/$_ev/trigger" "$_tr"); then
				errtext "$_root" "$_ev: '$_tr': $_err"
				untrigger "$_root" "$C/$1.done"
				return 1
			fi
			echo "$_ev $_tr" >> "$C/$1.done"
		done < "$C/$1.tt"
		;;
	null)
		read -r _tp _x < "$C/$1.t"
		case "$_tp" in
		kp=*) insmod $L/khist_bench_null.ko "$_tp" 2>&1 || return 1 ;;
		*) insmod $L/khist_bench_null.ko tp="$_tp" 2>&1 || return 1 ;;
		esac
		;;
	use)
		read -r _ev _x < "$C/$1.t"
		echo "+$(echo "$_ev" | tr / :)" > $USE || {
			echo "cannot use $_ev"
			return 1
		}
		;;
	esac
	return 0
}

teardown() {
	_root=$(root_of "$2")
	case "$ckind" in
	enable)
		_ev=$(grep -v '^=' "$C/$1.t" | head -n 1 | cut -d' ' -f1)
		echo 0 > "$_root/events/$_ev/enable"
		untrigger "$_root" "$C/$1.done"
		;;
	trig) untrigger "$_root" "$C/$1.done" ;;
	null) rmmod khist_bench_null ;;
	use)
		read -r _ev _x < "$C/$1.t"
		echo "-$(echo "$_ev" | tr / :)" > $USE
		;;
	esac
}

field() { echo "$2" | sed -n "s/.*$1=\([^ ]*\).*/\1/p"; }

# check CFG SIDE EVENTS: the totals agree with what the workload did
check() {
	_root=$(root_of "$2")
	case "$ckind" in
	trig)
		# the workload's event: the last one (g, sg: the second)
		_ev=$(sides_lines "$2" < "$C/$1.t" | tail -n 1 | cut -d' ' -f1)
		cat "$_root/events/$_ev/hist" > /tmp/bench-hist
		_hits=$(sed -n 's/^ *Hits: *//p' /tmp/bench-hist)
		_ent=$(sed -n 's/^ *Entries: *//p' /tmp/bench-hist)
		_drop=$(sed -n 's/^ *Dropped: *//p' /tmp/bench-hist)
		echo "# H $1 $2 hits=$_hits entries=$_ent dropped=$_drop events=$3"
		# An event whose variable reference does not resolve (no
		# wakeup timestamp for that pid yet) is not counted.
		_want=$3
		grep -q '\$' "$C/$1.t" && _want=1
		grep -q ' == 0$' "$C/$1.t" && _want=0
		if [ "${_hits:-0}" -ge "$_want" ] && [ "${_drop:-x}" = 0 ]; then
			ok "$2/$1: hist Hits $_hits >= $_want, Dropped 0"
		else
			notok "$2/$1: hist Hits '$_hits' Dropped '$_drop' (want >= $_want, 0)"
		fi
		;;
	enable)
		_w=$(head -n 5 "$_root/trace" |
			sed -n 's|.*entries-written: *[0-9]*/\([0-9]*\).*|\1|p')
		echo "# H $1 $2 written=$_w events=$3"
		if [ "${_w:-0}" -ge "$3" ]; then
			ok "$2/$1: $_w records written >= $3"
		else
			notok "$2/$1: '$_w' records written (want >= $3)"
		fi
		;;
	esac
}

# measure CFG SIDE ROUND
measure() {
	load_cfg "$1"
	if [ -f "$C/$1.$2.na" ]; then
		return
	fi
	if ! _why=$(setup "$1" "$2"); then
		touch "$C/$1.$2.na"
		echo "# E $1 $2 $(echo "$_why" | tr '\n' ' ')"
		if [ "$2" = native ] || [ "$2" = - ]; then
			notok "native/$1: setup: $_why"
		fi
		return
	fi
	_try=0
	while :; do
		cpu1 1
		# shellcheck disable=SC2086
		_res=$($B $cwl)
		cpu1 0
		_cpu=$(field cpu "$_res")
		_try=$((_try + 1))
		[ "${_cpu%.*}" -ge 95 ] 2>/dev/null && break
		[ $_try -ge 3 ] && break
		log "$1 $2: cpu $_cpu%, again"
	done
	[ "$3" = 1 ] && check "$1" "$2" "$(field events "$_res")"
	teardown "$1" "$2"
	echo "# R $1 $2 $3 $(field ns "$_res") $(field min "$_res") $_cpu"
}

sides_of() {
	case "$ckind" in
	base | null) echo - ;;
	use) echo khist ;;
	*) echo native khist ;;
	esac
}

# Deferred work right after boot takes CPU time from the workload: wait
# until three short runs in a row get the CPU to themselves.
settle() {
	_good=0
	_tries=0
	while [ $_good -lt 3 ] && [ $_tries -lt 40 ]; do
		sleep 0.5
		_cpu=$(field cpu "$($B getppid 20000)")
		if [ "${_cpu%.*}" -ge 98 ] 2>/dev/null; then
			_good=$((_good + 1))
		else
			_good=0
		fi
		_tries=$((_tries + 1))
	done
	echo "# M settle $_tries"
}

meminfo_free() { sed -n 's/^MemFree: *\([0-9]*\) kB/\1/p' /proc/meminfo; }

# readtest SIDE: a hist of 10^5 keys (one insert per event), its memory and
# the time to read it
readtest() {
	_root=$(root_of "$1")
	_tr='hist:keys=id:size=131072'
	_f=$_root/events/$SE
	sync
	_m0=$(meminfo_free)
	if ! _err=$($B write "$_f/trigger" "$_tr"); then
		echo "# E e2 $1 $(errtext "$_root" "$SE: '$_tr': $_err")"
		echo "# E read $1 (no hist)"
		return
	fi
	_m1=$(meminfo_free)
	_res=$($B fresh 100000 1000)
	_m2=$(meminfo_free)
	echo "# R e2 $1 1 $(field ns "$_res") $(field min "$_res") $(field cpu "$_res")"
	_rd=$($B read "$_f/hist" /tmp/bench-hist)
	_ent=$(sed -n 's/^ *Entries: *//p' /tmp/bench-hist)
	echo "# READ $1 $(field ns "$_rd") $(field bytes "$_rd") ${_ent:-?}"
	echo "# MEM $1 $((_m0 - _m1)) $((_m1 - _m2)) 131072 ${_ent:-0}"
	if [ "${_ent:-0}" -ge 100000 ]; then
		ok "$1/read: hist of $_ent entries"
	else
		notok "$1/read: hist has '$_ent' entries, want >= 100000"
	fi
	$B write "$_f/trigger" "!$_tr" > /dev/null
	rm -f /tmp/bench-hist
}

main() {
	rm -rf $C
	mkdir -p $C
	setup_fs || return
	echo "# M kernel $(uname -r)"
	echo "# M mode $mode"
	echo "# M cpus $(grep -c ^processor /proc/cpuinfo)"
	echo "# M rounds $rounds"
	echo "# M iters $n"
	echo "# M clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	# Mitigations change the instruction count of calls and returns.
	for _v in /sys/devices/system/cpu/vulnerabilities/*; do
		echo "# M vuln ${_v##*/} $(cat "$_v")"
	done
	if [ "$mode" = smp ]; then
		define_smp
	elif [ "$mode" = mttcg ]; then
		define_smp t
	else
		define_icount
	fi
	while read -r _cfg; do
		case ",$only," in
		,,) ;;
		*",$_cfg,"*) ;;
		*) continue ;;
		esac
		echo "$_cfg"
	done < $C/all > $C/list
	settle
	_nc=$(wc -l < $C/list)
	_r=1
	while [ "$_nc" -gt 0 ] && [ $_r -le "$rounds" ]; do
		log "round $_r of $rounds"
		# Each round starts one configuration later, and alternates
		# which side goes first.
		_skip=$(((_r - 1) % _nc))
		{
			tail -n +$((_skip + 1)) $C/list
			head -n "$_skip" $C/list
		} > $C/order
		while read -r _cfg; do
			load_cfg "$_cfg"
			_sides=$(sides_of)
			if [ $((_r % 2)) = 0 ]; then
				_sides=$(echo "$_sides" | tr ' ' '\n' | sed -n '1!G;h;$p')
			fi
			for _s in $_sides; do
				measure "$_cfg" "$_s" "$_r"
			done
		done < $C/order
		_r=$((_r + 1))
	done
	if [ "$mode" = icount ] && { [ -z "$only" ] ||
		case ",$only," in *,read,*) true ;; *) false ;; esac; }; then
		readtest native
		readtest khist
	fi
	umount $K
	rmmod khist_test_events
	rmmod khist
	ok "done: $rounds rounds"
}

main
