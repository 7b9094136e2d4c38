# SPDX-License-Identifier: GPL-2.0
#
# guest-lib.sh - sourced by the conformance guest scripts (dash, in the VM).

FT=/opt/ftrace
HERE=/selftests/conform

# ft_tests [DIR...] - the tests of DIRs under test.d (default: trigger and
# 00basic), as paths relative to test.d, sorted. 00basic's
# mount_options.tc and test_ownership.tc remount the mount with gid= and
# chown/chgrp at every level; 6.1's native README may not list
# "[gid=<gid>]", and then they are UNSUPPORTED there (not counted: khist
# speaks 6.12's dialect and runs them).
ft_tests() {
	[ $# -gt 0 ] || set -- trigger 00basic
	(cd "$FT/test.d" && find "$@" -name '*.tc' | sort)
}

# ft_setup - what the tests expect of the machine: loopback up (ping
# 127.0.0.1) and khist loaded.
ft_setup() {
	ip link set lo up
	insmod /lib/khist/khist.ko || return 1
}

# ft_run SIDE RESULTS TESTS... - guest-ft.sh on one side; khist's side runs
# in a private mount namespace so that ftracetest picks khist's mount.
ft_run() {
	side=$1
	shift
	if [ "$side" = khist ]; then
		unshare -m dash "$HERE/guest-ft.sh" khist "$@"
	else
		dash "$HERE/guest-ft.sh" native "$@"
	fi
}

# ft_log_tail SIDE NAME - the tail of ftracetest's log of a test that did not
# pass, as TAP comment lines.
ft_log_tail() {
	base=${2% (instance)}
	for f in /tmp/ftlog/$1/$base/*-log.*; do
		[ -f "$f" ] || continue
		case "$2" in
		*"(instance)") grep -q '^execute (instance)' "$f" || continue ;;
		*) grep -q '^execute:' "$f" || continue ;;
		esac
		tail -n "${3:-25}" "$f" | sed 's/^/#   /'
	done
}
