# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - helpers for khist's in-VM tests, sourced before every .tc file.
# The test runs under `set -e` in its own scratch directory with the khist
# filesystem mounted at $KHIST_MNT.

KHIST_MNT=${KHIST_MNT:-/sys/kernel/khist}

# Result codes understood by run.sh (ftracetest's vocabulary).
exit_pass() { exit 0; }
exit_fail() { exit 1; }
exit_unsupported() { exit 3; }
exit_xfail() { exit 4; }

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# run_as UID CMD - run a shell command as the user with that uid (busybox
# has no setpriv; su works from root without a password). stdin is closed.
run_as() {
	_name=$(awk -F: -v u="$1" '$3 == u { print $1; exit }' /etc/passwd)
	[ -n "$_name" ] || fail "no user with uid $1"
	shift
	su -s /bin/sh "$_name" -c "$*" < /dev/null
}

# errlog_check CMD-PATTERN - the last error_log entry's caret position is
# where the '^' is in PATTERN (ftracetest's check_error convention).
errlog_caret_len() {
	tail -n 1 "$KHIST_MNT/error_log" | wc -c
}
