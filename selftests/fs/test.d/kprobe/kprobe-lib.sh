# SPDX-License-Identifier: GPL-2.0
#
# kprobe-lib.sh - helpers of the kprobe tests: the kernel's tracefs next
# to khist (the event probe tests' helpers), and kprobe cleanup.

. /selftests/fs/test.d/eprobe/eprobe-lib.sh

# reset_kprobes - no triggers on kprobe events, no dynamic events, events
# off, buffers and error logs empty, on both sides
reset_kprobes() {
	for _r in $N $K; do
		echo 0 > $_r/events/enable
		for _t in $_r/events/kp/*/trigger $_r/events/kprobes/*/trigger \
			$_r/events/synthetic/*/trigger; do
			[ ! -f "$_t" ] || : > "$_t"
		done
		echo > $_r/dynamic_events || true
		echo > $_r/trace
		echo > $_r/error_log
	done
}

done_kprobes() {
	reset_kprobes
	umount $N
}

# bothk LINE - write LINE to kprobe_events of both: same outcome
bothk() {
	same_write "$1" -a kprobe_events "$1" > /dev/null
}
