# SPDX-License-Identifier: GPL-2.0
#
# torture.sh - torture test 1 of the security review: forced teardown of
# inter-event graphs. Sourced by teardown-torture.tc (make check: a few
# seeds, khist unloaded too) and by selftests/stress/guest.sh (the "tear"
# churn loop: instances only, khist stays loaded).
#
# For one seed, a seeded generator (an LCG in shell arithmetic) builds, in
# the top level and/or two instances, a random graph of hist triggers:
# variable owners and their readers (sys_enter -> sys_exit, registered
# owner first: forced removal frees the owner first), onmatch().trace(),
# onmax().save() and onmax().snapshot(), a field variable of another event
# (a hidden hist), name= shared across events and instances, hists on a
# synthetic event, an eprobe and a test-module event. Then, while a
# syscall, scheduler and test-module load runs, it tears the lot down in
# a random order: instance rmdir, !trigger, O_TRUNC, -:synthetic,
# -:eprobe, rmmod of the test module and (when allowed) umount + rmmod of
# khist. Refusals (EBUSY, EINVAL) are expected; a crash is the failure.
# Every step goes to the console (/dev/kmsg) with its seed, so the tail of
# the console of a VM that died names the seed and the step.
#
# Caller's settings: TT_MNT (khist's mount), TT_TOP (1: use the top level
# too), TT_RMMOD (1: umount + rmmod of khist is one of the steps), TT_W
# (the command that writes the removals: "tt_w FILE TEXT" by default),
# TT_NICE (runs the load: "nice -n 19" by default; nice calls
# getpriority(), which the stress test counts: it sets it empty).
# tt_seed leaves in tt_added the number of triggers that were accepted.

TT_FIRE=/sys/kernel/debug/khist_test/fire
# The test module's debugfs files must not be opened while it unloads: the
# kernel WARNs ("debugfs file owner did not clean up at exit") on an open
# that meets a module on its way out, before its exit removed the file.
# The loader's writes and every rmmod of the module take this lock (a
# directory: mkdir is atomic).
TT_LOCK=/tmp/khist-testmod.lock
TT_MOD=/lib/khist/khist_test_events.ko
TT_TAB=$(printf '\t')

tt_rand() {
	tt_r=$(((tt_r * 1103515245 + 12345) & 2147483647))
	tt_v=$(((tt_r >> 8) % $1))
}

tt_log() {
	echo "<4>khist-torture seed=$tt_seed: $*" > /dev/kmsg 2> /dev/null || true
}

# tt_w FILE TEXT - append, refusals are fine.
tt_w() {
	echo "$2" >> "$1" 2> /dev/null || true
}

# The generated triggers: "DIR<TAB>EVENT<TAB>TEXT" lines.
tt_add() {
	tt_log "add $1/$2: $3"
	if echo "$3" >> "$TT_MNT/$1/events/$2/trigger" 2> /dev/null; then
		tt_added=$((tt_added + 1))
	fi
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$tt_dir/trigs"
}

# tt_graph DIR - a random graph in DIR ("." or instances/NAME).
tt_graph() {
	tt_rand 6
	tt_n=$((5 + tt_v))
	# Owners first, as a user would write them.
	tt_add "$1" raw_syscalls/sys_enter 'hist:keys=common_pid:ts0=common_timestamp'
	tt_add "$1" sched/sched_waking 'hist:keys=pid:tw=common_timestamp'
	while [ "$tt_n" -gt 0 ]; do
		tt_rand 12
		case $tt_v in
		0) tt_add "$1" raw_syscalls/sys_exit 'hist:keys=common_pid:lat=common_timestamp-$ts0' ;;
		1) tt_add "$1" raw_syscalls/sys_exit 'hist:keys=common_pid:lt=common_timestamp-$ts0:onmatch(raw_syscalls.sys_enter).tdt_lat($lt)' ;;
		2) tt_add "$1" raw_syscalls/sys_exit 'hist:keys=common_pid:lm=common_timestamp-$ts0:onmax($lm).save(ret,id)' ;;
		3) tt_add "$1" raw_syscalls/sys_exit 'hist:keys=common_pid:ls=common_timestamp-$ts0:onmax($ls).snapshot()' ;;
		4) tt_add "$1" sched/sched_switch 'hist:keys=next_pid:wl=common_timestamp-$tw:onmatch(sched.sched_waking).tdt_wake($wl,prio)' ;;
		5)
			tt_rand 5
			set -- "$1" raw_syscalls/sys_enter raw_syscalls/sys_exit synthetic/tdt_lat tdep/ep khist_test/pair_a
			eval "tt_e=\${$((tt_v + 2))}"
			tt_add "$1" "$tt_e" 'hist:name=tdn:keys=common_pid:vals=hitcount'
			;;
		6) tt_add "$1" raw_syscalls/sys_enter 'hist:name=tdv:keys=common_pid:tv=common_timestamp' ;;
		7) tt_add "$1" raw_syscalls/sys_exit 'hist:keys=common_pid:dv=common_timestamp-raw_syscalls.sys_enter.$tv' ;;
		8) tt_add "$1" synthetic/tdt_lat 'hist:keys=lat.log2' ;;
		9) tt_add "$1" tdep/ep 'hist:keys=common_pid:te=common_timestamp' ;;
		10)
			tt_add "$1" khist_test/pair_a 'hist:keys=common_pid:tk=common_timestamp'
			tt_add "$1" khist_test/pair_b 'hist:keys=common_pid:dk=common_timestamp-$tk'
			;;
		11) tt_add "$1" synthetic/tdt_wake 'hist:name=tdn:keys=common_pid:vals=hitcount' ;;
		esac
		tt_n=$((tt_n - 1))
	done
}

# Load: syscalls (dd), wake-ups (short sleeps), test-module events; at
# the lowest priority, so that the teardown itself is not starved.
tt_load_start() {
	(cd / && exec ${TT_NICE-nice -n 19} dd if=/dev/zero of=/dev/null bs=1 \
		count=1000000000 2> /dev/null) &
	tt_pids=$!
	(cd / && exec ${TT_NICE-nice -n 19} sh -c 'while :; do usleep 1000; done') &
	tt_pids="$tt_pids $!"
	(cd / && exec ${TT_NICE-nice -n 19} sh -c "while :; do
		if mkdir $TT_LOCK 2> /dev/null; then
			{ echo '3 7' > $TT_FIRE; } 2> /dev/null
			rmdir $TT_LOCK
		fi
		usleep 2000
	done") &
	tt_pids="$tt_pids $!"
}
tt_load_stop() {
	for tt_p in $tt_pids; do
		kill "$tt_p" 2> /dev/null || true
	done
	for tt_p in $tt_pids; do
		wait "$tt_p" 2> /dev/null || true
	done
	tt_pids=
	rmdir $TT_LOCK 2> /dev/null || true
}

# tt_rmmod_test - unload the test module, never while its files are being
# opened (TT_LOCK; a loader killed while it held the lock leaves it
# behind, so the wait is bounded).
tt_rmmod_test() {
	tt_j=0
	until mkdir $TT_LOCK 2> /dev/null; do
		tt_j=$((tt_j + 1))
		[ $tt_j -lt 500 ] || break
		usleep 1000
	done
	rmmod khist_test_events 2> /dev/null || true
	rmdir $TT_LOCK 2> /dev/null || true
}

tt_khist_reload() {
	cd /
	tt_i=0
	until umount "$TT_MNT"; do
		tt_i=$((tt_i + 1))
		[ $tt_i -lt 50 ] || return 1
		usleep 100000
	done
	tt_rmmod_test
	rmmod khist
	insmod /lib/khist/khist.ko
	mount -t khist nodev "$TT_MNT"
}

# tt_step LINE - one teardown step.
tt_step() {
	tt_log "step $1"
	case $1 in
	rmdir:*) rmdir "$TT_MNT/${1#rmdir:}" 2> /dev/null || true ;;
	untrig*)
		IFS=$TT_TAB read -r tt_k tt_d tt_e tt_t <<- EOF
			$1
		EOF
		${TT_W:-tt_w} "$TT_MNT/$tt_d/events/$tt_e/trigger" "!$tt_t"
		;;
	trunc*)
		IFS=$TT_TAB read -r tt_k tt_d tt_e tt_t <<- EOF
			$1
		EOF
		tt_f="$TT_MNT/$tt_d/events/$tt_e/trigger"
		if [ -f "$tt_f" ]; then
			{ : > "$tt_f"; } 2> /dev/null || true
		fi
		;;
	dyn:*) tt_w "$TT_MNT/dynamic_events" "-:${1#dyn:}" ;;
	rmmod-test) tt_rmmod_test ;;
	rmmod-khist) tt_khist_reload ;;
	esac
}

# tt_cleanup - what is left goes, readers before owners (newest first),
# what they use last.
tt_cleanup() {
	for tt_d in $tt_dirs; do
		if [ "$tt_d" != . ]; then
			rmdir "$TT_MNT/$tt_d" 2> /dev/null || true
		fi
	done
	sed -n '1!G;h;$p' "$tt_dir/trigs" > "$tt_dir/rtrigs"
	for tt_p in 1 2 3; do
		while IFS=$TT_TAB read -r tt_d tt_e tt_t; do
			if [ "$tt_d" = . ]; then
				tt_w "$TT_MNT/events/$tt_e/trigger" "!$tt_t"
			fi
		done < "$tt_dir/rtrigs"
	done
	tt_w "$TT_MNT/dynamic_events" '-:tdt_lat'
	tt_w "$TT_MNT/dynamic_events" '-:tdt_wake'
	tt_w "$TT_MNT/dynamic_events" '-:tdep/ep'
	tt_rmmod_test
}

# tt_seed SEED DIR - one seed; DIR: scratch directory. Leaves khist with
# none of what it made (instances, triggers, dynamic events, test module).
tt_seed() {
	tt_seed=$1
	tt_r=$1
	tt_dir=$2
	: > "$tt_dir/trigs"
	: > "$tt_dir/steps"
	tt_log "start"
	tt_added=0
	insmod $TT_MOD 2> /dev/null || true
	tt_w "$TT_MNT/dynamic_events" 's:tdt_lat u64 lat'
	tt_w "$TT_MNT/dynamic_events" 's:tdt_wake u64 lat; int prio'
	tt_w "$TT_MNT/dynamic_events" 'e:tdep/ep raw_syscalls.sys_enter n=$id:u64'
	tt_dirs=
	if [ "${TT_TOP:-0}" = 1 ]; then
		tt_rand 2
		if [ $tt_v = 0 ]; then
			tt_dirs=.
		fi
	fi
	tt_rand 3
	tt_i=0
	while [ $tt_i -le $tt_v ]; do
		mkdir "$TT_MNT/instances/tdt$tt_i"
		tt_dirs="$tt_dirs instances/tdt$tt_i"
		echo "rmdir:instances/tdt$tt_i" >> "$tt_dir/steps"
		tt_i=$((tt_i + 1))
	done
	for tt_d in $tt_dirs; do
		tt_graph "$tt_d"
	done
	while IFS= read -r tt_l; do
		tt_rand 4
		case $tt_v in
		0 | 1) echo "untrig$TT_TAB$tt_l" >> "$tt_dir/steps" ;;
		2) echo "trunc$TT_TAB$tt_l" >> "$tt_dir/steps" ;;
		esac
	done < "$tt_dir/trigs"
	printf '%s\n' dyn:tdt_lat dyn:tdt_wake dyn:tdep/ep rmmod-test >> "$tt_dir/steps"
	if [ "${TT_RMMOD:-0}" = 1 ]; then
		tt_rand 2
		if [ $tt_v = 0 ]; then
			echo rmmod-khist >> "$tt_dir/steps"
		fi
	fi
	# Shuffle: a random sort key per step.
	while IFS= read -r tt_l; do
		tt_rand 1000000
		echo "$tt_v $tt_l"
	done < "$tt_dir/steps" | sort -n | cut -d' ' -f2- > "$tt_dir/order"
	tt_load_start
	usleep 100000
	while IFS= read -r tt_l; do
		tt_step "$tt_l"
		tt_rand 3
		if [ $tt_v = 0 ]; then
			usleep 20000
		fi
	done < "$tt_dir/order"
	tt_load_stop
	tt_cleanup
	tt_log "done"
}
