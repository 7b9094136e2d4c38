# SPDX-License-Identifier: GPL-2.0
#
# triggers-lib.sh - helpers of the trigger command tests: the kernel's own
# tracefs next to khist, resets, and the same steps run on both.

NATIVE=/tmp/native-tracefs

# native_mount - mount the kernel's tracefs at $NATIVE
native_mount() {
	mkdir -p $NATIVE
	grep -q " $NATIVE tracefs" /proc/mounts ||
		mount -t tracefs nodev $NATIVE
}

# The events the tests put triggers on.
TRIG_EVENTS="sched/sched_process_fork sched/sched_switch sched/sched_waking
sched/sched_wakeup ftrace/print"

# reset_root ROOT - no triggers on $TRIG_EVENTS, events off, tracing on,
# snapshot freed, buffer empty
reset_root() {
	for _e in $TRIG_EVENTS; do
		_f=$1/events/$_e/trigger
		# Read it all first: removals shift what a reader sees next.
		grep -v '^#' "$_f" > "$OLDPWD/reset.txt" || true
		while read -r _line; do
			echo "!${_line%%\[*}" >> "$_f"
		done < "$OLDPWD/reset.txt"
	done
	echo 0 > "$1/events/enable"
	echo 1 > "$1/tracing_on"
	echo 0 > "$1/snapshot"
	echo > "$1/trace"
}

# fork_some [N] - make sched_process_fork fire N times (default 1)
fork_some() {
	_i=0
	while [ $_i -lt "${1:-1}" ]; do
		/bin/true
		_i=$((_i + 1))
	done
}

# same_file WHAT PATH - PATH reads the same under $NATIVE and $KHIST_MNT
same_file() {
	cat "$NATIVE/$2" > "$OLDPWD/n.txt"
	cat "$KHIST_MNT/$2" > "$OLDPWD/k.txt"
	if ! cmp -s "$OLDPWD/n.txt" "$OLDPWD/k.txt"; then
		echo "--- native $2"
		cat "$OLDPWD/n.txt"
		echo "--- khist $2"
		cat "$OLDPWD/k.txt"
		fail "$1: $2 differs from native"
	fi
}

# same_write WHAT FLAG PATH TEXT - writing TEXT to PATH (FLAG -a appends,
# -t truncates) has the same outcome (ok, or the errno) on both
same_write() {
	if [ "$2" = -t ]; then
		_n=$(write_errno -t "$NATIVE/$3" "$4")
		_k=$(write_errno -t "$KHIST_MNT/$3" "$4")
	else
		_n=$(write_errno "$NATIVE/$3" "$4")
		_k=$(write_errno "$KHIST_MNT/$3" "$4")
	fi
	[ "$_n" = "$_k" ] || fail "$1: '$4' > $3: native $_n, khist $_k"
	echo "$3 <- '$4': $_n"
}
