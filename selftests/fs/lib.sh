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

# json_vs_hist EVDIR [TAG] - EVDIR/hist_json is one valid JSON document
# (jsoncheck, selftests/fs/progs) that says what EVDIR/hist says: the
# triggers' texts, per table the hitcounts in print order and the Totals.
# Prints what differs and returns 1; the flattened document stays in
# ./json.flat.
json_vs_hist() {
	_d=$1 _t=${2:-}
	cat "$_d/hist_json" > json.doc
	cat "$_d/hist" > json.hist
	cat "$_d/trigger" > json.trig
	if ! jsoncheck json.doc > json.flat 2> json.err; then
		echo "$_t: hist_json is not valid JSON: $(cat json.err)"
		head -c 600 json.doc
		return 1
	fi
	# Trigger texts: the listing's hist lines, in order.
	grep '^hist:' json.trig > json.want || true
	sed -n 's/^triggers\.[0-9]*\.trigger "\(.*\)"$/\1/p' json.flat |
		sed 's/\\"/"/g; s/\\\\/\\/g' > json.got
	if ! cmp -s json.want json.got; then
		echo "$_t: trigger texts differ"
		diff json.want json.got | head -n 10
		return 1
	fi
	# Per table (one "# event histogram" each): its hitcounts, then its
	# Hits, Entries and Dropped.
	awk '/^# event histogram/ { t++ }
	     /hitcount: / { for (i = 1; i < NF; i++) if ($i == "hitcount:" && $(i + 1) ~ /^[0-9]+$/) print t - 1, "h", $(i + 1) }
	     /^    Hits: / { print t - 1, "hits", $2 }
	     /^    Entries: / { print t - 1, "entries", $2 }
	     /^    Dropped: / { print t - 1, "dropped", $2 }' json.hist > json.want
	awk '{ split($1, p, ".") }
	     p[3] == "entries" && p[5] == "values" && p[6] == "hitcount" && p[7] == "" { print p[2], "h", $2 }
	     p[3] == "totals" && p[4] == "hits" { print p[2], "hits", $2 }
	     p[3] == "totals" && p[4] == "entries" { print p[2], "entries", $2 }
	     p[3] == "totals" && p[4] == "dropped" { print p[2], "dropped", $2 }
	     p[3] == "entries" && p[5] == "key" && p[6] == "0" && p[7] == "name" { n[p[2]]++ }
	     p[3] == "totals" && p[4] == "entries" && $2 != n[p[2]] + 0 { print p[2], "listed", n[p[2]] + 0 }' \
		json.flat > json.got
	# A table whose text shows no raw hitcount (nohitcount): JSON still
	# has it when a value is hitcount (.percent, .graph); compare the rest.
	awk 'NR == FNR { if ($2 == "h") h[$1] = 1; next } $2 != "h" || h[$1]' \
		json.want json.got > json.g2
	mv json.g2 json.got
	if ! cmp -s json.want json.got; then
		echo "$_t: hist_json and hist disagree (table kind value)"
		diff json.want json.got | head -n 10
		return 1
	fi
	return 0
}
