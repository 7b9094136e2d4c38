# SPDX-License-Identifier: GPL-2.0
#
# evpid-lib.sh - helpers of the task filter tests (set_event_pid,
# set_event_notrace_pid, options/event-fork): the kernel's tracefs next to
# khist, and workers that fork on demand.

. /selftests/fs/test.d/triggers/triggers-lib.sh
native_mount
K=$KHIST_MNT
N=$NATIVE
EVP_EVENTS="sched/sched_process_fork sched/sched_switch sched/sched_wakeup sched/sched_waking"

# evp_reset - both roots: no pid list, events off, no trigger, empty trace
evp_reset() {
	for _r in $N $K; do
		echo > $_r/set_event_pid
		echo > $_r/set_event_notrace_pid
		echo 0 > $_r/options/event-fork
		echo 0 > $_r/events/enable
		for _e in $EVP_EVENTS; do
			: > $_r/events/$_e/trigger
		done
		echo > $_r/trace
	done
}

# evp_done - the EXIT trap
evp_done() {
	evp_reset
	umount $N
}

# evp_worker COUNT [CMD] - a shell that waits on a fifo, then runs CMD
# (/bin/true by default) COUNT times; its pid in $evp_pid, its fifo in
# $evp_fifo. The wait is a builtin: no fork before the go.
evp_n=0
evp_worker() {
	evp_n=$((evp_n + 1))
	evp_fifo=$PWD/evp_fifo.$evp_n
	mkfifo $evp_fifo
	sh -c "read _x < $evp_fifo; _i=0; while [ \$_i -lt $1 ]; do ${2:-/bin/true}; _i=\$((_i + 1)); done" &
	evp_pid=$!
}

# evp_go FIFO... - start the workers of these fifos
evp_go() {
	for _f; do
		echo go > $_f
	done
}

# evp_hist ROOT EVENT - the entries of EVENT's hist (keys and hitcount)
evp_hist() {
	grep '^{' $1/events/$2/hist | sed 's/  */ /g' | sort
}

# evp_pids ROOT EVENT - the sorted common_pids of EVENT's records in trace
evp_pids() {
	_ev=${2#*/}
	grep " $_ev: " $1/trace | sed 's/^ *[^ ]*-\([0-9][0-9]*\) .*/\1/' | sort -n | uniq
}
