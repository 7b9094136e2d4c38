# SPDX-License-Identifier: GPL-2.0
#
# inter-lib.sh - helpers of the inter-event tests (sourced by their .tc
# files after selftests/fs/lib.sh).

# inter_reset - remove every trigger and synthetic event the tests may have
# left, the way ftracetest's reset_trigger does: triggers with handlers
# first, then the rest, synthetic events last.
inter_reset() {
	# one grep finds the files with triggers (there are a thousand
	# events with the generated ones)
	for _f in $(grep -l ':on[^:]*(' events/synthetic/*/trigger \
		events/*/*/trigger 2> /dev/null); do
		grep ':on[^:]*(' "$_f" 2> /dev/null | sed 's/ \[.*//' |
			while IFS= read -r _t; do
				echo "!$_t" >> "$_f" 2> /dev/null || true
			done
	done
	for _f in $(grep -l -v '^#' events/synthetic/*/trigger \
		events/*/*/trigger 2> /dev/null); do
		grep -v '^#' "$_f" 2> /dev/null | sed 's/ \[.*//' |
			while IFS= read -r _t; do
				echo "!$_t" >> "$_f" 2> /dev/null || true
			done
	done
	echo 0 > events/enable 2> /dev/null || true
	echo > synthetic_events 2> /dev/null || true
	echo > error_log 2> /dev/null || true
}

# inter_wake NAME N [PIDFILE] - a task named NAME sleeps N times in wait4()
# for a short-lived child: N wake-ups (sched_waking) and switches to it.
# With PIDFILE, the task's pid is written there first. Its children carry
# NAME too until they exec, and may sleep and be woken under that name
# (a PREEMPT_RT kernel's sleeping locks make it likely).
inter_wake() {
	(
		if [ -n "$3" ]; then
			read -r _pid _rest < /proc/self/stat
			echo "$_pid" > "$3"
		fi
		printf '%s' "$1" > /proc/self/comm
		_i=0
		while [ $_i -lt "$2" ]; do
			usleep 2000
			_i=$((_i + 1))
		done
	)
}

# hist_total FILE - the sum of the hitcounts of a hist file's entries.
hist_total() {
	sed -n 's/.* hitcount: *\([0-9]*\).*/\1/p' "$1" |
		awk '{ s += $1 } END { print s + 0 }'
}

# hist_hits FILE - the "Hits:" line of the first table.
hist_hits() {
	sed -n 's/^ *Hits: \([0-9]*\)$/\1/p' "$1" | head -n 1
}
