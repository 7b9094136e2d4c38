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
