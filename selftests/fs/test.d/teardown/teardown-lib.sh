# SPDX-License-Identifier: GPL-2.0
#
# teardown-lib.sh - helpers of the teardown tests (sourced by their .tc
# files after selftests/fs/lib.sh): forced removal of triggers that other
# triggers read, while probes fire.

# The syscall-latency pair: the variable's owner on sys_enter, which is
# registered (and so removed by force) before its reader on sys_exit.
TD_ENTER='hist:keys=common_pid:ts0=common_timestamp'
TD_EXIT='hist:keys=common_pid:lat=common_timestamp-$ts0'

# td_pair DIR - set the pair up in DIR (the top level or an instance).
td_pair() {
	echo "$TD_ENTER" > "$1/events/raw_syscalls/sys_enter/trigger"
	echo "$TD_EXIT" > "$1/events/raw_syscalls/sys_exit/trigger"
}

# td_load_start [COUNT] - a syscall load in the background (its pid in
# $td_load); td_load_stop ends it.
td_load_start() {
	(cd / && exec dd if=/dev/zero of=/dev/null bs=1 \
		count="${1:-100000000}" 2> /dev/null) &
	td_load=$!
}
td_load_stop() {
	[ -n "${td_load:-}" ] || return 0
	kill "$td_load" 2> /dev/null || true
	wait "$td_load" 2> /dev/null || true
	td_load=
}

# td_entries FILE - the number of entries of a hist file's first table.
td_entries() {
	sed -n 's/^ *Entries: \([0-9]*\)$/\1/p' "$1" | head -n 1
}
