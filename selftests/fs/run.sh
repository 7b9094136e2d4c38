#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run khist's in-VM tests (test.d/*/*.tc) and print TAP lines:
#   ok - <area>/<test>: <description>
#   not ok - ...            (followed by the test's output as # lines)
#   ok - ... # SKIP unsupported
# Each test runs in a fresh dash with `set -e`, lib.sh sourced, a time
# limit (KHIST_TEST_TIMEOUT, 300 s) and its own scratch directory.

here=$(cd "$(dirname "$0")" && pwd)
export KHIST_MNT=${KHIST_MNT:-/sys/kernel/khist}
filter=${1:-}
count=0
idx=0
mem_limit=$(cat /sys/module/khist/parameters/mem_limit_kb 2>/dev/null)

# sweep NAME - what a test left behind on khist changes the results of the
# tests after it (which ones depends on the order, and on KHIST_SHARD):
# name it on stderr (the VM's console) and take it away. Looked at: the
# instances, enabled events, the triggers of the systems tests use, the
# dynamic events, pid lists, some options and tracing_on.
sweep() {
	_left=
	for _d in "$KHIST_MNT"/instances/*; do
		[ -d "$_d" ] || continue
		_left="$_left instances/${_d##*/}"
		echo 0 > "$_d/events/enable" 2>/dev/null
		rmdir "$_d" 2>/dev/null
	done
	if grep -q . "$KHIST_MNT/set_event" 2>/dev/null; then
		_left="$_left set_event($(tr '\n' ' ' < "$KHIST_MNT/set_event"))"
		echo 0 > "$KHIST_MNT/events/enable" 2>/dev/null
	fi
	for _s in sched raw_syscalls kmem irq timer task signal khist_test \
		synthetic; do
		for _t in "$KHIST_MNT"/events/$_s/*/trigger; do
			[ -f "$_t" ] || continue
			grep -q '^[^#]' "$_t" 2>/dev/null || continue
			_left="$_left ${_t#"$KHIST_MNT"/events/}($(grep '^[^#]' "$_t" | head -n 1))"
			: > "$_t" 2>/dev/null
		done
	done
	if grep -q . "$KHIST_MNT/dynamic_events" 2>/dev/null; then
		_left="$_left dynamic_events($(tr '\n' ' ' < "$KHIST_MNT/dynamic_events"))"
		: > "$KHIST_MNT/dynamic_events" 2>/dev/null
	fi
	for _f in set_event_pid set_event_notrace_pid; do
		grep -q . "$KHIST_MNT/$_f" 2>/dev/null || continue
		_left="$_left $_f"
		echo > "$KHIST_MNT/$_f" 2>/dev/null
	done
	for _o in record-cmd:1 record-tgid:0 event-fork:0; do
		_f=$KHIST_MNT/options/${_o%:*}
		[ -f "$_f" ] && [ "$(cat "$_f")" != "${_o#*:}" ] || continue
		_left="$_left options/${_o%:*}"
		echo "${_o#*:}" > "$_f" 2>/dev/null
	done
	for _m in $(sed -n 's/^\(khist_[a-z0-9_]*\) .*/\1/p' /proc/modules); do
		_left="$_left module:$_m"
		rmmod "$_m" 2>/dev/null
	done
	_f=/sys/module/khist/parameters/mem_limit_kb
	if [ -n "$mem_limit" ] && [ "$(cat $_f 2>/dev/null)" != "$mem_limit" ]; then
		_left="$_left mem_limit_kb=$(cat $_f)"
		echo "$mem_limit" > $_f 2>/dev/null
	fi
	if [ "$(cat "$KHIST_MNT/tracing_on" 2>/dev/null)" = 0 ]; then
		_left="$_left tracing_on=0"
		echo 1 > "$KHIST_MNT/tracing_on"
	fi
	[ -z "$_left" ] || echo "khist-test-leftover: $1 left:$_left" >&2
}
# Seconds per test: 300, more on debug kernels (KHIST_TEST_TIMEOUT).
limit=${KHIST_TEST_TIMEOUT:-300}

for tc in $(find "$here/test.d" -name '*.tc' | sort); do
	name=${tc#"$here/test.d/"}
	name=${name%.tc}
	# The filter: substrings separated by ',' (any of them matches).
	hit=
	for f in $(echo "$filter" | tr ',' ' '); do
		case "$name" in *"$f"*) hit=1 ;; esac
	done
	[ -z "$filter" ] || [ -n "$hit" ] || continue
	# KHIST_SHARD=i/n: every n-th test from the i-th (0-based) of those
	# selected, so that one suite runs in n VMs side by side.
	idx=$((idx + 1))
	if [ -n "${KHIST_SHARD:-}" ] &&
		[ $(((idx - 1) % ${KHIST_SHARD#*/})) -ne "${KHIST_SHARD%/*}" ]; then
		continue
	fi
	count=$((count + 1))
	desc=$(sed -n 's/^# description: *//p' "$tc" | head -n 1)
	scratch=$(mktemp -d)
	t0=$(cut -d' ' -f1 /proc/uptime)
	(cd "$scratch" && timeout "$limit" dash -e -c ". '$here/lib.sh'; . '$tc'") \
		> "$scratch/.log" 2>&1
	rc=$?
	[ ! -d "$KHIST_MNT/events" ] || sweep "$name"
	# Each test's guest time on stderr (the VM's console): where a
	# suite's time goes.
	echo "khist-test-time: $name $(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s" >&2
	case $rc in
	0) echo "ok - $name: $desc" ;;
	3) echo "ok - $name: $desc # SKIP unsupported" ;;
	4) echo "ok - $name: $desc # TODO expected failure" ;;
	*)
		echo "not ok - $name: $desc (exit $rc)"
		sed 's/^/# /' "$scratch/.log" | tail -n 40
		;;
	esac
	rm -rf "$scratch"
done

# A run that finds nothing to run must not look like a pass.
[ $count -gt 0 ] || echo "not ok - run.sh: no tests found under $here/test.d"
