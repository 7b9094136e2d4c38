# SPDX-License-Identifier: GPL-2.0
#
# hist-lib.sh - helpers for the hist tests, sourced by test.d/hist/*.tc.
#
# The tests fire the deterministic khist_test events, record them in the
# trace buffer as well, and compute the expected histogram from the
# recorded events with awk and dash arithmetic (an independent model of
# what `hist` must print), then compare byte for byte.

HIST_FIRE=/sys/kernel/debug/khist_test/fire
HIST_EV=$KHIST_MNT/events/khist_test

# hist_setup: load the test events, clear trace, record sample events.
hist_setup() {
	insmod /lib/khist/khist_test_events.ko
	trap 'hist_cleanup' EXIT
	echo > "$KHIST_MNT/trace"
	echo 1 > "$HIST_EV/sample/enable"
}

hist_cleanup() {
	for e in sample pair_a pair_b; do
		: > "$HIST_EV/$e/trigger" 2>/dev/null || true
	done
	rmmod khist_test_events 2>/dev/null || true
}

# hist_fire N SEED: fire, then dump the sample records as
# "seq val64 val32 small name word" lines into ./recs
hist_fire() {
	echo > "$KHIST_MNT/trace"
	echo "$1 $2" > $HIST_FIRE
	sed -n 's/.* sample: seq=\([0-9]*\) val64=\([0-9]*\) val32=\(-*[0-9]*\) small=\([0-9]*\) name=\([^ ]*\) word=\(.*\)$/\1 \2 \3 \4 \5 \6/p' \
		"$KHIST_MNT/trace" > recs
	[ "$(wc -l < recs)" -eq "$1" ] || fail "expected $1 records, got $(wc -l < recs)"
}

# hist_body FILE: the entry lines of the first table of a hist file
hist_body() {
	awk 'NR > 5 && /^$/ { exit } NR > 5' "$1"
}

# hist_header TRIGGER-LINE: the header ftrace prints before the entries
hist_header() {
	printf '# event histogram\n#\n# trigger info: %s\n#\n\n' "$1"
}

# hist_totals HITS ENTRIES DROPPED
hist_totals() {
	printf '\nTotals:\n    Hits: %s\n    Entries: %s\n    Dropped: %s\n' "$1" "$2" "$3"
}

# u64 N: a (possibly negative) 64-bit integer printed as ftrace's %llu
u64() {
	printf '%u' "$1"
}

# hist_expect_file WANT GOT: byte-compare, show the difference on failure
hist_cmp() {
	if ! cmp -s "$1" "$2"; then
		diff "$1" "$2" | head -n 30
		fail "hist output differs"
	fi
}
