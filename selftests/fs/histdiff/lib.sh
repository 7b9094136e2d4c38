# SPDX-License-Identifier: GPL-2.0
#
# histdiff/lib.sh - differential tests of khist's hist triggers against the
# native kernel's, run in the test VM. Sourced by test.d/histdiff/*.tc after
# selftests/fs/lib.sh. Documentation/testing.rst ("Differential tests")
# describes the method, the corpus format and every normalisation.
#
# Side a is the native tracefs (mounted at $HD_NAT), side b the one under
# test: khist ($KHIST_MNT), or a native instance in the harness self-test.
# Side c, the control, is another native instance: the same kernel code as
# side a, so a difference there means the case is not deterministic (or the
# harness is broken) and the case fails whatever its markers say. All sides
# get the same trigger string before anything runs and see the same event
# stream; a workload child, held back on a fifo until the triggers are in
# place, produces the events, and the trigger's filter selects them by pid
# or comm.
#
# Per case the test output gets one TAP-style line:
#   ok N - area/id                          match
#   ok N - area/id # XFAIL (why): ...       mismatch on a case marked xfail
#   ok N - area/id # SKIP why               not comparable on this kernel
#   not ok N - area/id # MISMATCH: ...      followed by unified diffs
#   not ok N - area/id # XPASS: ...         a marked case now matches
#   not ok N - area/id # ERROR: ...         the case itself is broken, or
#                                           the control side differs
#
# Environment (optional; the kernel command line passes NAME=value words to
# /init's environment, so KHIST_VM_APPEND="HISTDIFF_VERBOSE=1" works):
#   HISTDIFF_VERBOSE=1   print the diffs of XFAIL cases too
#   HISTDIFF_ONLY=GLOB   run only the cases whose id matches GLOB
#   HISTDIFF_CONSOLE=1   copy each test's output to /dev/console (the VM's
#                        console.log), where passing tests can be read too
#   HISTDIFF_SHOW=GLOB   print the native hist files of the cases whose id
#                        matches GLOB (to see what a case exercises)

HD_NAT=/sys/kernel/tracing
HD_LIB=${HD_LIB:-/selftests/fs/histdiff}
HD_COMM=hdwl
HD_BIN=/tmp/hdbin
# One write per command, with the errno reported (trigwrite.c); its comm,
# "trigwrite", must not match any corpus filter.
HD_W=${HD_W:-trigwrite}

# ---- setup and teardown ----------------------------------------------

hd_setup() {
	HD_WORK=$(pwd)/hd
	mkdir -p "$HD_WORK"
	read -r HD_T0 _ < /proc/uptime
	# Output goes to a file first, so that the teardown can copy it to
	# the console too; a kill by run.sh's timeout still runs the teardown.
	exec 3>&1 > "$HD_WORK/log" 2>&1
	trap hd_teardown EXIT
	trap 'exit 143' TERM INT
	HD_MOUNTED=
	if ! grep -q " $HD_NAT tracefs " /proc/mounts; then
		mount -t tracefs nodev "$HD_NAT" || fail "cannot mount tracefs"
		HD_MOUNTED=1
	fi
	command -v "$HD_W" > /dev/null || fail "no $HD_W in the image"
	case $(uname -r) in
	6.1.*) HD_KV=6.1 ;;
	6.12.*) HD_KV=6.12 ;;
	*) HD_KV=$(uname -r) ;;
	esac
	HD_B=$KHIST_MNT
	HD_BNAME=khist
	HD_C=$HD_NAT/instances/hdctl
	mkdir -p "$HD_C"
	HD_SIDES="a b c"
	HD_SELF=
	HD_HONOUR_XFAIL=1
	HD_PERTURB=
	HD_FAST=
	HD_EVONLY=
	HD_N=0
	HD_NPASS=0
	HD_NFAIL=0
	HD_NXFAIL=0
	HD_NSKIP=0
	HD_FAILED=
	HD_TOUCHED=
	HD_CHILD=
	HD_AREA=histdiff
	# One fifo holds every workload child back until it is released.
	HD_FIFO=$HD_WORK/go
	mkfifo "$HD_FIFO"
	# A unique path for exec workloads: the exec'd file's name becomes
	# the comm, busybox runs its `true` applet.
	mkdir -p "$HD_BIN"
	ln -sf /bin/busybox "$HD_BIN/true"
	echo "# histdiff: native $HD_KV ($(uname -r)) vs $HD_BNAME," \
		"control: instance $HD_C"
}

# hd_dir SIDE - HD_D = the tracefs directory of side a, b or c.
hd_dir() {
	case $1 in
	a) HD_D=$HD_NAT ;;
	b) HD_D=$HD_B ;;
	c) HD_D=$HD_C ;;
	esac
}

# hd_name SIDE - HD_R = how reports call the side.
hd_name() {
	case $1 in
	a) HD_R=native ;;
	b) HD_R=$HD_BNAME ;;
	c) HD_R=control ;;
	esac
}

# hd_self_on - compare the native top level with a native instance.
hd_self_on() {
	mkdir -p "$HD_NAT/instances/hdself"
	HD_B=$HD_NAT/instances/hdself
	HD_BNAME=native-instance
	HD_SELF=1
	HD_HONOUR_XFAIL=
	echo "# histdiff: self-test mode, side B = $HD_B"
}

hd_self_off() {
	rmdir "$HD_NAT/instances/hdself"
	HD_B=$KHIST_MNT
	HD_BNAME=khist
	HD_SELF=
	HD_HONOUR_XFAIL=1
}

# Remove every trigger we may have left on either side, kill a child that
# is still waiting, unmount what we mounted. Runs on any exit.
hd_teardown() {
	_rc=$?
	set +e
	if [ -n "$HD_CHILD" ]; then
		kill -9 "$HD_CHILD" 2> /dev/null
		wait "$HD_CHILD" 2> /dev/null
	fi
	for _ev in $HD_TOUCHED; do
		for _d in "$HD_NAT" "$HD_NAT/instances/hdself" \
			"$HD_NAT/instances/hdctl" "$KHIST_MNT"; do
			[ -w "$_d/events/$_ev/trigger" ] || continue
			hd_drop_triggers "$_d/events/$_ev/trigger"
		done
	done
	for _d in hdself hdctl; do
		[ -d "$HD_NAT/instances/$_d" ] && rmdir "$HD_NAT/instances/$_d"
	done
	[ -n "$HD_MOUNTED" ] && umount "$HD_NAT"
	cat "$HD_WORK/log" >&3
	[ -n "${HISTDIFF_CONSOLE:-}" ] && cat "$HD_WORK/log" > /dev/console
	exit $_rc
}

# hd_drop_triggers FILE - remove every hist trigger FILE lists, one by one,
# then truncate. The listing cannot always be written back (sort keys keep
# their modifiers), so the truncation is what finally clears the native side.
hd_drop_triggers() {
	grep '^hist:' "$1" 2> /dev/null | sed 's/ \[\(active\|paused\)\]$//' |
		while IFS= read -r _t; do
			"$HD_W" "$1" "!$_t" > /dev/null
		done
	: > "$1" 2> /dev/null
	true
}

# hd_finish - summary; exit status for run.sh: 1 when a case failed, 4
# (listed as "# TODO expected failure") when cases marked xfail failed as
# expected, else 0.
hd_finish() {
	read -r _t1 _ < /proc/uptime
	echo "# histdiff: $HD_N cases: $HD_NPASS match, $HD_NXFAIL xfail," \
		"$HD_NSKIP skipped, $HD_NFAIL failed;" \
		"$(echo "$_t1 - $HD_T0" | bc) s"
	if [ "$HD_NFAIL" -gt 0 ]; then
		echo "# failed:$HD_FAILED"
		exit 1
	fi
	[ "$HD_NXFAIL" -gt 0 ] && exit 4
	exit 0
}

# ---- small helpers (no forks: they set HD_R) ------------------------------

# hd_has_flag FLAGS NAME - FLAGS is a comma list holding NAME or NAME=...
hd_has_flag() {
	case ",$1," in
	*",$2,"* | *",$2="*) return 0 ;;
	esac
	return 1
}

# hd_flag_val FLAGS NAME - HD_R = the value of NAME=VALUE in FLAGS, or the
# default reason when NAME stands alone.
hd_flag_val() {
	HD_R=${1#*"$2="}
	if [ "$HD_R" = "$1" ]; then
		HD_R=marked
	else
		HD_R=${HD_R%%,*}
	fi
}

# hd_split LIST SEP - HD_R = LIST with SEP replaced by spaces.
hd_split() {
	HD_R=
	_r=$1
	while [ -n "$_r" ]; do
		HD_R="$HD_R ${_r%%"$2"*}"
		case $_r in
		*"$2"*) _r=${_r#*"$2"} ;;
		*) _r= ;;
		esac
	done
}

# hd_subst TEXT - HD_R = TEXT with @PID@ and @COMM@ replaced.
hd_subst() {
	_s=$1
	HD_R=
	while :; do
		case $_s in
		*@PID@*)
			HD_R="$HD_R${_s%%@PID@*}$HD_PID"
			_s=${_s#*@PID@}
			;;
		*@COMM@*)
			HD_R="$HD_R${_s%%@COMM@*}$HD_COMM"
			_s=${_s#*@COMM@}
			;;
		*) break ;;
		esac
	done
	HD_R="$HD_R$_s"
}

# hd_with_attr TRIGGER ATTR - HD_R = TRIGGER with :ATTR before its filter.
hd_with_attr() {
	case $1 in
	*" if "*) HD_R="${1%% if *}:$2 if ${1#* if }" ;;
	*) HD_R="$1:$2" ;;
	esac
}

# hd_write FILE TEXT - one write of TEXT to FILE (appending); HD_R = "ok"
# or the errno ("EEXIST File exists"). Where the errno does not matter
# (HD_FAST), the shell's printf does the write without an exec: "failed".
hd_write() {
	if [ -n "$HD_FAST" ]; then
		if printf '%s\n' "$2" >> "$1" 2> /dev/null; then
			HD_R=ok
		else
			HD_R=failed
		fi
		return 0
	fi
	HD_R=$("$HD_W" "$1" "$2") || true
	[ -n "$HD_R" ] || HD_R="no result"
}

# hd_slurp FILE - HD_R = the text of FILE (a short one: a listing or
# error_log), read by the shell itself (no exec). The one normalisation of
# error_log: a line's leading "[seconds.micros] " becomes "[TIMESTAMP] ",
# since two writes never share a timestamp (no listing line starts so).
hd_slurp() {
	local l
	HD_R=
	if [ ! -r "$1" ]; then
		HD_R="<cannot read $1>"
		return 0
	fi
	while IFS= read -r l || [ -n "$l" ]; do
		case $l in
		"["*"] "*) l="[TIMESTAMP] ${l#*] }" ;;
		esac
		HD_R="$HD_R$l
"
	done < "$1"
}

# 6.1 -> 6.12 derivation (flag 61map; native side, on 6.1 only): 6.1 names
# the stack key `stacktrace` where 6.12, khist's dialect, says
# `common_stacktrace`; nothing else in these outputs differs.
hd_map61() {
	sed -e 's/\([=,]\)stacktrace\([:,]\)/\1common_stacktrace\2/g' \
		-e 's/^{ stacktrace:$/{ common_stacktrace:/'
}

# ---- workloads (run in the child, after the release) --------------------

hd_wl_none() { :; }

# openat/read/close on seq_file-backed /proc files (kmalloc, kfree), failed
# opens (negative return values), a write to /dev/null.
hd_wl_files() {
	for _i in 1 2 3; do
		read -r _l < /proc/version
	done
	read -r _l < /proc/self/stat
	{ read -r _l < /nonexistent-histdiff; } 2> /dev/null
	{ read -r _l < /nonexistent-histdiff2; } 2> /dev/null
	echo x > /dev/null
}

# Forks: children exit with comm $HD_COMM, the parent sleeps in wait4 and
# is woken (sched_switch, sched_waking, kmalloc in copy_process).
hd_wl_fork() {
	for _i in 1 2 3; do
		(:)
	done
	(exit 3)
}

# Both of the above.
hd_wl_mix() {
	hd_wl_files
	hd_wl_fork
}

# 140 children, one pid each: more keys than the smallest map (size=128).
hd_wl_forks() {
	_i=0
	while [ $_i -lt 140 ]; do
		(:)
		_i=$((_i + 1))
	done
}

# openat() through pointers that sort differently as numbers and as
# strings (hdopen.c); the child execs it, so its pid stays.
hd_wl_opens() {
	exec hdopen
}

# Some forty system calls, each a fixed number of times (hdsys.c); the
# child execs it, so its pid stays.
hd_wl_sys() {
	exec hdsys
}

# Execs of $HD_BIN/true by two children, then by the child itself.
hd_wl_exec() {
	"$HD_BIN/true"
	"$HD_BIN/true"
	exec "$HD_BIN/true"
}

hd_is_workload() {
	case $1 in
	none | files | fork | forks | mix | exec | opens | sys) return 0 ;;
	esac
	return 1
}

# hd_spawn WORKLOAD - start a child that names itself $HD_COMM and blocks
# opening the fifo; return (HD_PID) once it sleeps there, so that nothing
# of it runs before hd_release.
hd_spawn() {
	(
		set +e
		printf '%s' "$HD_COMM" > /proc/self/comm
		read -r _go < "$HD_FIFO"
		"hd_wl_$1"
		exit 0
	) > /dev/null 2>&1 &
	HD_PID=$!
	HD_CHILD=$HD_PID
	# /proc/PID/syscall names the syscall only while the task is off the
	# CPU: 257 (openat) means it sleeps in the fifo open.
	_n=0
	while :; do
		_nr=
		read -r _nr _rest < "/proc/$HD_PID/syscall" 2> /dev/null || true
		[ "$_nr" = 257 ] && break
		_n=$((_n + 1))
		[ $_n -lt 20000 ] || fail "workload child $HD_PID never blocked"
	done
}

# hd_release - let the child run and reap it. Its very last context switch
# can come after the parent's wait returned: a short builtin spin lets it
# pass before anything is read or changed.
hd_release() {
	echo go > "$HD_FIFO"
	wait "$HD_PID" || true
	HD_CHILD=
	_n=0
	while [ $_n -lt 300 ]; do
		_n=$((_n + 1))
	done
}

# hd_markers - the same lines to each side's trace_marker (khist's marker
# feeds only khist's ftrace/print, an instance's only the instance's).
hd_markers() {
	local m s
	for m in hd-a hd-b hd-a hd-c hd-a hd-b; do
		for s in $HD_SIDES; do
			hd_dir $s
			echo "$m" > "$HD_D/trace_marker"
		done
	done
	[ "$HD_PERTURB" = marker ] && echo hd-x > "$HD_B/trace_marker"
	true
}

# ---- comparing ----------------------------------------------------------

# hd_differs WHAT SIDE - note a difference of side b (HD_WHAT) or of the
# control (HD_CWHAT).
hd_differs() {
	if [ "$2" = c ]; then
		HD_CWHAT="$HD_CWHAT${HD_CWHAT:+, }$1"
	else
		HD_WHAT="$HD_WHAT${HD_WHAT:+, }$1"
	fi
}

# hd_diff WHAT FILE_A FILE_X SIDE - compare side a's file with side X's; on
# a difference add a labelled unified diff to the case's report.
hd_diff() {
	cmp -s "$2" "$3" && return 0
	hd_differs "$1" "$4"
	hd_name "$4"
	{
		diff -u -L "native: $1" -L "$HD_R: $1" "$2" "$3"
		hd_order_hint "$2" "$3"
	} >> "$HD_WORK/report" 2>&1
	return 1
}

# Say so when two files hold the same lines in another order (entries with
# equal sort values, which the kernel's map layout orders, or a compare
# that differs).
hd_order_hint() {
	sort "$1" > "$HD_WORK/s1"
	sort "$2" > "$HD_WORK/s2"
	cmp -s "$HD_WORK/s1" "$HD_WORK/s2" &&
		echo "(same lines in another order: the sort differs)"
	true
}

# hd_snap_event EV TAG - read trigger and hist of EV on every side, derive
# the 6.12 form of the native sides if the case asks, compare with side a.
hd_snap_event() {
	local ev=$1 s f same=1 la
	# khist's hist_json says what its hist says (json_vs_hist, fs/lib.sh);
	# a disagreement is a khist bug whatever the case's markers say.
	if [ -f "$HD_B/events/$ev/hist_json" ] &&
	   ! (cd "$HD_WORK" && json_vs_hist "$HD_B/events/$ev" "$2hist_json $ev") \
		>> "$HD_WORK/report" 2>&1; then
		HD_BAD="${HD_BAD:-hist_json of $ev disagrees with hist}"
	fi
	# The common case first: all files equal as they are (the listings
	# read by the shell, one cmp per hist file).
	if [ -z "$HD_MAP61" ]; then
		hd_slurp "$HD_NAT/events/$ev/trigger"
		la=$HD_R
		for s in $HD_SIDES; do
			[ $s = a ] && continue
			hd_dir $s
			hd_slurp "$HD_D/events/$ev/trigger"
			[ "$HD_R" = "$la" ] || same=
			[ -n "$same" ] || break
			cmp -s "$HD_NAT/events/$ev/hist" "$HD_D/events/$ev/hist" ||
				same=
		done
		[ -n "$same" ] && return 0
	fi
	for s in $HD_SIDES; do
		hd_dir $s
		for f in trigger hist; do
			cat "$HD_D/events/$ev/$f" > "$HD_WORK/$s.$f" 2>&1 ||
				echo "<cannot read $HD_D/events/$ev/$f>" >> "$HD_WORK/$s.$f"
			if [ -n "$HD_MAP61" ] && [ $s != b ]; then
				hd_map61 < "$HD_WORK/$s.$f" > "$HD_WORK/$s.$f.m"
				mv "$HD_WORK/$s.$f.m" "$HD_WORK/$s.$f"
			fi
		done
	done
	for s in $HD_SIDES; do
		[ $s = a ] && continue
		for f in trigger hist; do
			hd_diff "$2$f $ev" "$HD_WORK/a.$f" "$HD_WORK/$s.$f" $s || true
		done
	done
}

hd_snap_all() {
	local e
	for e in $HD_EVLIST; do
		hd_snap_event "$e" "$1"
		case $HD_ID in
		${HISTDIFF_SHOW:-''})
			echo "# native $1hist $e:"
			sed 's/^/#   /' "$HD_NAT/events/$e/hist"
			;;
		esac
	done
}

# hd_both_write EV TRIGGER WHAT - write TRIGGER to EV on every side and
# compare the outcomes (HD_WA: side a's). A native failure is a broken case
# unless HD_ALLOW_NFAIL is set.
hd_both_write() {
	local t s r
	for s in $HD_SIDES; do
		t=$2
		if [ $s = b ]; then
			case $HD_PERTURB in
			size)
				hd_with_attr "$2" size=4096
				t=$HD_R
				;;
			alias) t=$(printf '%s\n' "$2" | sed 's/keys=/key=/') ;;
			errtext) t=$(printf '%s\n' "$2" | sed 's/keys=/keys=hd_no,/') ;;
			esac
		fi
		hd_dir $s
		hd_write "$HD_D/events/$1/trigger" "$t"
		if [ $s = a ]; then
			HD_WA=$HD_R
			continue
		fi
		r=$HD_R
		[ "$r" = "$HD_WA" ] && continue
		hd_differs "$3" $s
		hd_name $s
		printf "%s '%s' on %s: native: %s, %s: %s\n" "$3" "$t" "$1" \
			"$HD_WA" "$HD_R" "$r" >> "$HD_WORK/report"
	done
	if [ -z "$HD_ALLOW_NFAIL" ] && [ "$HD_WA" != ok ]; then
		HD_BAD="native rejected '$2' on $1: $HD_WA"
	fi
}

# hd_each_trigger CMD - run CMD EV TRIGGER for every event and every
# ` ;; `-separated trigger of the case.
hd_each_trigger() {
	local ev rest one n=0
	for ev in $HD_EVLIST; do
		n=$((n + 1))
		[ -z "$HD_EVONLY" ] || [ "$HD_EVONLY" = $n ] || continue
		rest=$HD_TRIG
		while [ -n "$rest" ]; do
			one=${rest%% ;; *}
			if [ "$one" = "$rest" ]; then
				rest=
			else
				rest=${rest#* ;; }
			fi
			"$1" "$ev" "$one"
		done
	done
}

hd_set_one() { hd_both_write "$1" "$2" "write"; }
hd_rm_one() { hd_both_write "$1" "!$2" "remove"; }
hd_op_one() {
	hd_with_attr "$2" "$HD_OP"
	hd_both_write "$1" "$HD_R" "$HD_OP"
}
hd_quiet_rm() {
	local s
	for s in $HD_SIDES; do
		hd_dir $s
		printf '!%s\n' "$2" >> "$HD_D/events/$1/trigger" 2> /dev/null || true
	done
}

# hd_trunc - `echo > trigger` on every side: opening with O_TRUNC removes
# all triggers, the empty command itself is refused.
hd_trunc() {
	local e s r
	for e in $HD_EVLIST; do
		for s in $HD_SIDES; do
			hd_dir $s
			r=$("$HD_W" -t "$HD_D/events/$e/trigger" "") || true
			if [ $s = a ]; then
				HD_WA=$r
				continue
			fi
			[ "$r" = "$HD_WA" ] && continue
			hd_differs truncate $s
			hd_name $s
			echo "truncate $e: native: $HD_WA, $HD_R: $r" >> "$HD_WORK/report"
		done
	done
}

# hd_case_cleanup - remove the case's triggers on every side (as written,
# then whatever is still listed); all listings must be back to
# "# Available triggers:".
hd_case_cleanup() {
	local e s first
	hd_each_trigger hd_quiet_rm
	for e in $HD_EVLIST; do
		for s in $HD_SIDES; do
			hd_dir $s
			first=
			read -r first < "$HD_D/events/$e/trigger" || true
			[ "$first" = "# Available triggers:" ] && continue
			hd_drop_triggers "$HD_D/events/$e/trigger"
			read -r first < "$HD_D/events/$e/trigger" || true
			[ "$first" = "# Available triggers:" ] ||
				HD_BAD="triggers left on $HD_D/events/$e after cleanup"
		done
	done
}

# ---- one case -----------------------------------------------------------

# hd_case ID FLAGS EVENTS STEPS TRIGGER - run one corpus case (format in
# Documentation/testing.rst) and print its line. Returns 0 match,
# 1 failure, 2 xfail, 3 skipped.
hd_case() {
	HD_ID=$1
	HD_FLAGS=$2
	HD_EVENTS=$3
	HD_STEPS=$4
	HD_RAWTRIG=$5
	if [ -n "${HISTDIFF_ONLY:-}" ]; then
		case $HD_ID in
		$HISTDIFF_ONLY) ;;
		*) return 3 ;;
		esac
	fi
	HD_N=$((HD_N + 1))
	HD_WHAT=
	HD_CWHAT=
	HD_BAD=
	HD_MAP61=
	HD_TRIG=
	: > "$HD_WORK/report"
	hd_split "$HD_EVENTS" ,
	HD_EVLIST=$HD_R
	for _e in $HD_EVLIST; do
		case " $HD_TOUCHED " in
		*" $_e "*) ;;
		*) HD_TOUCHED="$HD_TOUCHED $_e" ;;
		esac
		[ -f "$HD_B/events/$_e/trigger" ] ||
			HD_BAD="$HD_BNAME has no event $_e"
	done
	if [ "$HD_KV" = 6.1 ]; then
		if hd_has_flag "$HD_FLAGS" 6.12; then
			hd_flag_val "$HD_FLAGS" 6.12
			hd_result skip "on 6.1: $(echo "$HD_R" | tr _ ' ')"
			return 3
		fi
		[ -z "$HD_SELF" ] && hd_has_flag "$HD_FLAGS" 61map && HD_MAP61=1
	fi
	if [ -n "$HD_BAD" ]; then
		hd_result fail "$HD_BAD"
		return 1
	fi
	# Native named histograms are shared across instances: a control
	# would join side a's table, so name= cases run without one.
	HD_SIDES="a b c"
	case $HD_RAWTRIG in
	*name=*) HD_SIDES="a b" ;;
	esac
	# A case about a full table compares with khist's fixed-size mode
	# (module parameter hist_grow=0, read when a hist is created).
	if hd_has_flag "$HD_FLAGS" drops &&
	   [ -w /sys/module/khist/parameters/hist_grow ]; then
		echo 0 > /sys/module/khist/parameters/hist_grow
	fi
	if hd_has_flag "$HD_FLAGS" err; then
		HD_FAST=
		hd_err_case
	else
		HD_FAST=1
		hd_hist_case
	fi
	[ ! -w /sys/module/khist/parameters/hist_grow ] ||
		echo 1 > /sys/module/khist/parameters/hist_grow
	hd_case_cleanup
	hd_classify
}

hd_hist_case() {
	local first st i=0
	HD_PID=0
	first=${HD_STEPS%%+*}
	if hd_is_workload "$first"; then
		hd_spawn "$first"
	fi
	hd_subst "$HD_RAWTRIG"
	HD_TRIG=$HD_R
	HD_ALLOW_NFAIL=
	hd_each_trigger hd_set_one
	hd_split "$HD_STEPS" +
	for st in $HD_R; do
		i=$((i + 1))
		if [ $i = 1 ] && hd_is_workload "$st"; then
			hd_release
			hd_perturb_data
			continue
		fi
		HD_EVONLY=
		case $st in
		*@[0-9])
			# op@N: to the Nth event of the case only
			HD_EVONLY=${st#*@}
			st=${st%@*}
			;;
		esac
		case $st in
		pause | cont | clear)
			HD_OP=$st
			hd_each_trigger hd_op_one
			;;
		rm) hd_each_trigger hd_rm_one ;;
		trunc) hd_trunc ;;
		marker) hd_markers ;;
		cmp) hd_snap_all "step $i: " ;;
		*)
			if hd_is_workload "$st"; then
				hd_spawn "$st"
				hd_release
			else
				HD_BAD="unknown step '$st'"
			fi
			;;
		esac
	done
	HD_EVONLY=
	hd_snap_all ""
	# flag drops: the case is about a full map, so the native table must
	# have dropped something (or the case no longer tests that).
	if hd_has_flag "$HD_FLAGS" drops &&
		! grep -q '^    Dropped: [1-9]' "$HD_NAT/events/${HD_EVENTS%%,*}/hist"; then
		HD_BAD="the native table dropped nothing"
	fi
}

# Perturbations for the self-test: side b's (clear) or the control's
# (ctlclear) histogram loses its data.
hd_perturb_data() {
	local e
	case $HD_PERTURB in
	clear) hd_dir b ;;
	ctlclear) hd_dir c ;;
	*) return 0 ;;
	esac
	hd_with_attr "${HD_TRIG%% ;; *}" clear
	for e in $HD_EVLIST; do
		"$HD_W" "$HD_D/events/$e/trigger" "$HD_R" > /dev/null
	done
}

# An invalid trigger: the write's outcome, the error_log entries (timestamps
# normalised) and the listings must agree. All ` ;; `-separated triggers
# but the last are set up first and must succeed natively.
hd_err_case() {
	local ev=${HD_EVENTS%%,*} rest one s silent=
	HD_PID=0
	hd_subst "$HD_RAWTRIG"
	HD_TRIG=$HD_R
	hd_clear_errlogs
	rest=$HD_TRIG
	while :; do
		one=${rest%% ;; *}
		if [ "$one" = "$rest" ]; then
			HD_ALLOW_NFAIL=1
			hd_both_write "$ev" "$one" "write"
			[ "$HD_WA" != ok ] ||
				HD_BAD="native accepted the invalid '$one'"
			break
		fi
		rest=${rest#* ;; }
		HD_ALLOW_NFAIL=
		hd_both_write "$ev" "$one" "setup write"
	done
	HD_ALLOW_NFAIL=
	if hd_has_flag "$HD_FLAGS" silent ||
		hd_has_flag "$HD_FLAGS" "silent$HD_KV"; then
		silent=1
	fi
	# error_log (timestamps normalised) and the listing of each side; not
	# the data: set-up triggers may have no filter.
	for s in $HD_SIDES; do
		hd_dir $s
		hd_slurp "$HD_D/error_log"
		eval "HD_ERR_$s=\$HD_R"
		hd_slurp "$HD_D/events/$ev/trigger"
		eval "HD_LST_$s=\$HD_R"
	done
	if [ -n "$silent" ]; then
		# The kernel fails without a word; khist may explain (a
		# documented improvement), so side b's log is only shown.
		[ -z "$HD_ERR_a" ] ||
			HD_BAD="native logged an error for a case marked silent"
		[ -z "$HD_ERR_b" ] ||
			printf '%s' "$HD_ERR_b" | sed "s/^/# ($HD_BNAME explains) /"
	else
		[ -n "$HD_ERR_a" ] ||
			HD_BAD="native logged nothing (a silent case?)"
	fi
	for s in $HD_SIDES; do
		[ $s = a ] && continue
		if [ $s = c ] || [ -z "$silent" ]; then
			eval "hd_diffstr error_log \"\$HD_ERR_a\" \"\$HD_ERR_$s\" $s"
		fi
		eval "hd_diffstr \"trigger \$ev\" \"\$HD_LST_a\" \"\$HD_LST_$s\" $s"
	done
	hd_clear_errlogs
}

# hd_diffstr WHAT TEXT_A TEXT_X SIDE - hd_diff for texts in variables.
hd_diffstr() {
	[ "$2" = "$3" ] && return 0
	printf '%s' "$2" > "$HD_WORK/a.txt"
	printf '%s' "$3" > "$HD_WORK/x.txt"
	hd_diff "$1" "$HD_WORK/a.txt" "$HD_WORK/x.txt" "$4" || true
}

hd_clear_errlogs() {
	local s
	for s in $HD_SIDES; do
		hd_dir $s
		: > "$HD_D/error_log"
	done
}

# hd_classify - turn HD_WHAT, HD_BAD and the xfail marker into a result.
hd_classify() {
	local xf=
	if [ -n "$HD_HONOUR_XFAIL" ]; then
		for _m in xfail "xfail$HD_KV"; do
			hd_has_flag "$HD_FLAGS" "$_m" || continue
			hd_flag_val "$HD_FLAGS" "$_m"
			xf=$HD_R
		done
	fi
	if [ -n "$HD_BAD" ]; then
		hd_result fail "$HD_BAD"
		return 1
	fi
	if [ -n "$HD_CWHAT" ]; then
		hd_result fail "the control (native vs native) differs in" \
			"$HD_CWHAT: the case is not deterministic"
		return 1
	fi
	if [ -z "$HD_WHAT" ]; then
		if [ -n "$xf" ]; then
			hd_result xpass
			return 1
		fi
		hd_result pass
		return 0
	fi
	if [ -n "$xf" ]; then
		hd_result xfail "$xf"
		return 2
	fi
	hd_result mismatch
	return 1
}

# hd_result KIND [TEXT] - count, and print the case's line (and report).
hd_result() {
	local name="$HD_AREA/$HD_ID"
	case $1 in
	pass)
		HD_NPASS=$((HD_NPASS + 1))
		echo "ok $HD_N - $name"
		;;
	skip)
		HD_NSKIP=$((HD_NSKIP + 1))
		echo "ok $HD_N - $name # SKIP $2"
		;;
	xfail)
		HD_NXFAIL=$((HD_NXFAIL + 1))
		echo "ok $HD_N - $name # XFAIL ($2): differs in $HD_WHAT"
		if [ -n "${HISTDIFF_VERBOSE:-}" ]; then
			sed 's/^/#   /' "$HD_WORK/report"
		fi
		;;
	xpass)
		HD_NFAIL=$((HD_NFAIL + 1))
		HD_FAILED="$HD_FAILED $HD_ID(XPASS)"
		echo "not ok $HD_N - $name # XPASS: matches now, remove its xfail marker"
		;;
	mismatch)
		HD_NFAIL=$((HD_NFAIL + 1))
		HD_FAILED="$HD_FAILED $HD_ID"
		echo "not ok $HD_N - $name # MISMATCH: $HD_WHAT"
		printf '#   trigger: %s\n' "$HD_TRIG"
		sed 's/^/#   /' "$HD_WORK/report"
		;;
	fail)
		shift
		HD_NFAIL=$((HD_NFAIL + 1))
		HD_FAILED="$HD_FAILED $HD_ID(ERROR)"
		echo "not ok $HD_N - $name # ERROR: $*"
		sed 's/^/#   /' "$HD_WORK/report"
		;;
	esac
	true
}

# hd_corpus FILE - run every case of a corpus file.
hd_corpus() {
	HD_AREA=$(basename "$1" .hd)
	while read -r _id _flags _events _steps _trig <&9; do
		case $_id in
		'' | '#'*) continue ;;
		esac
		hd_case "$_id" "$_flags" "$_events" "$_steps" "$_trig" || true
	done 9< "$1"
}
