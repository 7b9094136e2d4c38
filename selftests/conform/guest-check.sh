#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-check.sh - the `make check` conformance stage, in the VM: tools read
# and drive khist (libtraceevent, trace-cmd, libtracefs), then the kernel's
# ftracetest trigger tests run against khist and are compared with the
# native baseline recorded for this kernel. A failure whose features khist
# does not claim in its README is reported as "# SKIP known-missing: ...".
. /selftests/conform/guest-lib.sh
. /selftests/conform/features.sh

K=/sys/kernel/khist
README=$K/README
NATIVE=/sys/kernel/tracing
PRELOAD=/opt/conform/libkhist-tracing-dir.so

if ! ft_setup; then
	echo "not ok - conform/insmod khist.ko"
	exit 0
fi
mount -t tracefs nodev $NATIVE
mount -t khist nodev $K || echo "not ok - conform/mount khist"

# verdict NAME FEATURES PASSED [DETAILS FILE] - one TAP line; a failure of a
# test with an unclaimed feature is a SKIP naming the features.
verdict() {
	missing=$(unclaimed $README $2)
	if [ "$3" = 1 ]; then
		if [ -n "$missing" ]; then
			echo "ok - $1 (passes, but README does not claim: $missing)"
		else
			echo "ok - $1"
		fi
	elif [ -n "$missing" ]; then
		echo "ok - $1 # SKIP known-missing: $missing"
	else
		echo "not ok - $1"
		[ -n "${4:-}" ] && sed 's/^/# /' "$4" | head -n 40
	fi
}

# ---- libtraceevent: every format file ----
# Dynamic events too: the same synthetic events and eprobes on both sides
# (one a kernel refuses is checked on khist alone).
TEP_DYN="khist_tep_synth u64 lat; pid_t pid; char comm[16]; char name[]; s8 x; bool b
khist_tep_stack long[] stack; unsigned int cpu"
TEP_EPROBES='e:khist_tep/open_file syscalls.sys_enter_openat file=+0($filename):ustring flags=$flags:x32 mode=$mode
e:khist_tep/synth_lat synthetic/khist_tep_synth lat=$lat pid=$pid:s32'
for d in $K $NATIVE; do
	echo "$TEP_DYN" | while IFS= read -r l; do
		echo "$l" >> $d/synthetic_events
	done
	echo "$TEP_EPROBES" | while IFS= read -r l; do
		echo "$l" >> $d/dynamic_events
	done
done 2>/dev/null
missing=
for e in synthetic/khist_tep_synth synthetic/khist_tep_stack \
	khist_tep/open_file khist_tep/synth_lat; do
	[ -d $K/events/$e ] || missing="$missing $e"
done
if [ -z "$missing" ]; then
	echo "ok - tep: synthetic events and eprobes defined for the check"
else
	echo "not ok - tep: synthetic events and eprobes defined for the check"
	echo "# missing:$missing"
	sed 's/^/# /' $K/error_log
fi
khist-tep-formats $K $NATIVE > /tmp/tep.out 2> /tmp/tep.err
for d in $K $NATIVE; do
	echo '-:khist_tep/synth_lat' >> $d/dynamic_events
	echo '-:khist_tep/open_file' >> $d/dynamic_events
	echo '!khist_tep_synth' >> $d/synthetic_events
	echo '!khist_tep_stack' >> $d/synthetic_events
done 2>/dev/null
grep -q khist_tep $K/dynamic_events &&
	echo "# khist kept: $(grep khist_tep $K/dynamic_events | tr '\n' ' ')"
cat /tmp/tep.out
if [ -s /tmp/tep.err ]; then
	echo "not ok - tep: the parser printed nothing on stderr"
	sed 's/^/# /' /tmp/tep.err | head -n 20
else
	echo "ok - tep: the parser printed nothing on stderr"
fi

# ---- trace-cmd, pointed at khist by the preload shim ----
tc() {
	LD_PRELOAD=$PRELOAD KHIST_TRACING_DIR=$K trace-cmd "$@"
}

tc list -e > /tmp/tc-list 2>&1
sort /tmp/tc-list > /tmp/tc-list.s
sort $K/available_events > /tmp/avail.s
if [ -s /tmp/avail.s ] && cmp -s /tmp/tc-list.s /tmp/avail.s; then
	verdict "trace-cmd: list -e shows khist's available_events" "" 1
else
	diff /tmp/avail.s /tmp/tc-list.s > /tmp/tc.diff
	verdict "trace-cmd: list -e shows khist's available_events" "" 0 /tmp/tc.diff
fi

# list -e -F: one format per event, each the event's format file.
ok=1
: > /tmp/tc.why
while IFS=: read -r sys ev; do
	tc list -e "^$sys:$ev\$" -F > /tmp/tc-fmt 2>&1
	if ! grep -q "^name: $ev\$" /tmp/tc-fmt ||
		! grep -qF "$(sed -n 's/^ID: //p' $K/events/$sys/$ev/format)" /tmp/tc-fmt; then
		ok=0
		echo "$sys:$ev:" >> /tmp/tc.why
		head -n 5 /tmp/tc-fmt >> /tmp/tc.why
		continue
	fi
	# Every field line of the format file appears in the output.
	grep '	field:' $K/events/$sys/$ev/format | while IFS= read -r l; do
		grep -qF -- "$l" /tmp/tc-fmt || echo "$sys:$ev: missing $l"
	done >> /tmp/tc.why
done < $K/available_events
[ -s /tmp/tc.why ] && ok=0
verdict "trace-cmd: list -e -F shows every event's format" "" $ok /tmp/tc.why

# stat: enabled events, then (with hist triggers) the triggers.
echo sched:sched_switch > $K/set_event
tc stat > /tmp/tc-stat 2>&1
if grep -q 'sched_switch' /tmp/tc-stat; then
	verdict "trace-cmd: stat lists the enabled events" "" 1
else
	verdict "trace-cmd: stat lists the enabled events" "" 0 /tmp/tc-stat
fi
echo > $K/set_event
ok=0
if echo 'hist:keys=prev_pid:vals=prev_prio' > $K/events/sched/sched_switch/trigger 2>/dev/null; then
	tc stat > /tmp/tc-stat 2>&1
	grep -q 'hist:keys=prev_pid:vals=hitcount,prev_prio' /tmp/tc-stat && ok=1
	echo '!hist:keys=prev_pid:vals=prev_prio' >> $K/events/sched/sched_switch/trigger
else
	echo "writing the trigger failed" > /tmp/tc-stat
fi
verdict "trace-cmd: stat lists a hist trigger" "$(tool_features trace-cmd-stat-triggers)" $ok /tmp/tc-stat
ok=0
if echo 'khist_tc_synth u64 lat; pid_t pid' >> $K/synthetic_events 2>/dev/null; then
	tc stat > /tmp/tc-stat 2>&1
	grep -q 'khist_tc_synth' /tmp/tc-stat && ok=1
	echo '!khist_tc_synth u64 lat; pid_t pid' >> $K/synthetic_events
else
	echo "defining the synthetic event failed" > /tmp/tc-stat
fi
verdict "trace-cmd: stat lists a synthetic event" "$(tool_features trace-cmd-stat-synth)" $ok /tmp/tc-stat

# ---- trace-cmd record, report, extract, show: khist against native ----
# The test of the in-VM suite (it mounts its own native tracefs), timed.
t0=$(date +%s)
tc_rec=/selftests/fs/test.d/ringbuf/ringbuf-tracecmd.tc
(cd /tmp && KHIST_MNT=$K timeout 300 dash -e -c \
	". /selftests/fs/lib.sh; . $tc_rec") > /tmp/tc-rec 2>&1
rc=$?
echo "# trace-cmd record/report: $(($(date +%s) - t0)) s"
case $rc in
0) verdict "trace-cmd: record/report/extract/show match native" "" 1 ;;
3) echo "ok - trace-cmd: record/report/extract/show match native # SKIP no trace-cmd" ;;
*) verdict "trace-cmd: record/report/extract/show match native" "" 0 /tmp/tc-rec ;;
esac

# ---- libtracefs ----
# The program must pass against the native tracefs: that checks the test,
# not khist.
khist-tracefs-test $NATIVE > /tmp/tfs.out 2>&1
sed -n 's/^\(\(not \)\?ok - \)tracefs: /\1tracefs on native tracefs (self-check): /p; /^#/p' /tmp/tfs.out
for t in events hist synth sql; do
	khist-tracefs-test $K $t > /tmp/tfs.out 2>&1
	line=$(grep -E '^(not )?ok - ' /tmp/tfs.out | head -n 1)
	name=${line#*ok - }
	[ -n "$name" ] || name="tracefs: $t (no result)"
	grep -v -E '^(not )?ok - ' /tmp/tfs.out > /tmp/tfs.why
	case "$line" in
	ok*) verdict "$name" "$(tool_features tracefs-$t)" 1 ;;
	*) verdict "$name" "$(tool_features tracefs-$t)" 0 /tmp/tfs.why ;;
	esac
done

# ---- ftracetest on khist, against the native baseline ----
case "$(uname -r)" in
6.1.*) kv=6.1 ;;
*) kv=6.12 ;;
esac
baseline=$HERE/baseline-$kv.txt
res=/tmp/ft-results
: > $res
# shellcheck disable=SC2086
ft_run khist $res $(ft_tests) > /dev/null
while IFS='	' read -r side name r; do
	nat=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' $baseline)
	case "$nat" in
	PASS | XFAIL) ;;
	*)
		echo "ok - ftrace: $name # SKIP native ${nat:-has no result}"
		continue
		;;
	esac
	ft_log_tail khist "$name" 30 > /tmp/ft.why
	if [ "$r" = "$nat" ]; then
		verdict "ftrace: $name" "$(ft_features "$name")" 1
	else
		echo "khist $r, native $nat" | cat - /tmp/ft.why > /tmp/ft.why2
		verdict "ftrace: $name" "$(ft_features "$name")" 0 /tmp/ft.why2
	fi
done < $res

umount $K
umount $NATIVE
rmmod khist
