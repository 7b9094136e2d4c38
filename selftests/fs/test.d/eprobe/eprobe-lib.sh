# SPDX-License-Identifier: GPL-2.0
#
# eprobe-lib.sh - helpers of the event probe tests: the kernel's tracefs
# next to khist, and the same step run on both.

. /selftests/fs/test.d/triggers/triggers-lib.sh
native_mount
K=$KHIST_MNT
N=$NATIVE

# native_612 - skip unless the native kernel speaks khist's dialect (6.12:
# 6.1's event probes have no BTF-style names, no $comm or immediates)
native_612() {
	case $(uname -r) in
	6.12*) ;;
	*)
		umount $N
		exit_unsupported
		;;
	esac
}

# done_probes - the EXIT trap: clean both sides, unmount the native side
done_probes() {
	reset_probes
	umount $N
}

# reset_probes - no dynamic events, no instance, events off, buffers empty
reset_probes() {
	for _r in $N $K; do
		echo 0 > $_r/events/enable
		rmdir $_r/instances/ep_i 2>/dev/null || true
		for _t in $_r/events/ep/*/trigger $_r/events/eprobes/*/trigger; do
			[ ! -f "$_t" ] || : > "$_t"
		done
		echo > $_r/dynamic_events || true
		echo > $_r/trace
		echo > $_r/error_log
	done
}

# both LINE - write LINE to dynamic_events of both: same outcome
both() {
	same_write "$1" -a dynamic_events "$1" > /dev/null
}

# both_file PATH TEXT - write TEXT to PATH under both roots
both_file() {
	echo "$2" > $N/$1
	echo "$2" > $K/$1
}

# format_of ROOT EVENT - the format file without its ID line
format_of() {
	grep -v '^ID: ' $1/events/$2/format
}

# lines ROOT NAME - the text of the NAME: records in ROOT's trace, sorted
lines() {
	sed -n "s/^.* $2: /$2: /p" $1/trace | sort
}

# same_lines WHAT NAME - both traces hold the same NAME: records
same_lines() {
	lines $N $2 > n.lines
	lines $K $2 > k.lines
	test -s n.lines || fail "$1: no native $2 record"
	cmp -s n.lines k.lines || {
		diff n.lines k.lines
		fail "$1: records differ from native"
	}
}
