# SPDX-License-Identifier: GPL-2.0
#
# bigrec-lib.sh - helpers of the big-record tests: programs at long paths
# (sched_process_exec records of 1 to 4 KiB) and hist totals.

K=$KHIST_MNT

# longpath DIR LEN - a path under DIR of exactly LEN bytes, made of
# components of at most 200 bytes; its directories are created
longpath() {
	_p=$1
	while [ $((${#_p} + 201)) -lt "$2" ]; do
		_p=$_p/$(printf '%0200d' 0 | tr 0 d)
	done
	mkdir -p "$_p"
	_n=$(($2 - ${#_p} - 1))
	[ "$_n" -ge 1 ] || fail "longpath: $2 too short"
	echo "$_p/$(printf "%0${_n}d" 0 | tr 0 x)"
}

# mkprog PATH - a shell script at PATH that does nothing
mkprog() {
	printf '#!/bin/sh\nexit 0\n' > "$1"
	chmod +x "$1"
}

# runprog PATH N - run it N times
runprog() {
	_i=0
	while [ $_i -lt "$2" ]; do
		"$1"
		_i=$((_i + 1))
	done
}

# hits FILE - the first hist's Totals "Hits:" (0 when absent)
hits() {
	sed -n 's/^    Hits: //p' "$1" | head -1 | grep . || echo 0
}

# lost FILE - the first hist's Totals "Lost:" (0 when absent)
lost() {
	sed -n 's/^    Lost: //p' "$1" | head -1 | grep . || echo 0
}

# dropped DIR - "dropped events:" of DIR/stats (0 without the file, so
# that a kernel without it fails on what it records, not on this)
dropped() {
	sed -n 's/^dropped events: //p' "$1/stats" 2>/dev/null || echo 0
}

# nlines FILE PATTERN - records of `trace` FILE that contain PATTERN
nlines() {
	grep -v '^#' "$1" | grep -c -F "$2" || true
}

# trig FILE TEXT - append a trigger, showing error_log when refused
trig() {
	echo "$2" >> "$1" || { cat $K/error_log; fail "refused: $2"; }
}
