#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-ft.sh SIDE RESULTS TEST... - in the VM: run the kernel's ftracetest,
# unmodified, on each TEST (a path under test.d/), one invocation per test,
# against the tracing directory ftracetest finds: the first /proc/mounts
# line containing "tracefs".
#   SIDE=native  the kernel's tracefs, mounted here at /sys/kernel/tracing
#   SIDE=khist   khist mounted as "tracefs" on /sys/kernel/tracing inside a
#                private mount namespace (the caller runs us under
#                `unshare -m`); the native tracefs mounts are detached here
# Appends "SIDE<TAB>NAME<TAB>RESULT" lines to RESULTS and prints them as
# "# ft ..." comment lines as they come, where NAME is the test path
# relative to test.d (plus " (instance)" for the instance run) and RESULT
# one of ftracetest's: PASS FAIL UNRESOLVED UNTESTED UNSUPPORTED XFAIL
# UNDEFINED, or TIMEOUT / NORESULT when ftracetest itself did not report.
# The logs of tests that did not pass stay under /tmp/ftlog/SIDE/NAME/.
set -u
side=$1
results=$2
shift 2
FT=/opt/ftrace
per_test=${KHIST_FT_TIMEOUT:-300}

case "$side" in
native)
	grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts ||
		mount -t tracefs nodev /sys/kernel/tracing
	;;
khist)
	# Only our mount may mention tracefs in this namespace.
	while grep -q tracefs /proc/mounts; do
		mnt=$(grep tracefs /proc/mounts | head -n 1 | cut -d' ' -f2)
		umount -l "$mnt" || exit 1
	done
	mount -t khist tracefs /sys/kernel/tracing || exit 1
	;;
*)
	echo "guest-ft.sh: unknown side $side" >&2
	exit 2
	;;
esac

# ftracetest sources the tests with the shell that runs it: dash (busybox
# ash re-executes applets through /proc/self/exe, which changes comm).
# If a test cannot make its instance directory, ftracetest's instance
# run does `cd ""`, i.e. $HOME: keep that an empty scratch directory.
export HOME=/tmp/ft-home
mkdir -p "$HOME"
cd "$HOME" || exit 1

for t in "$@"; do
	logdir=/tmp/ftlog/$side/$t
	mkdir -p "$logdir"
	timeout "$per_test" dash "$FT/ftracetest" -l "$logdir" \
		"$FT/test.d/$t" > "$logdir/out" 2>&1
	rc=$?
	found=0
	# Result lines: "[N]<description>\t[RESULT]", "[N] (instance) ...".
	while IFS= read -r line; do
		case "$line" in
		"["[0-9]*"]"*"	["[A-Z]*"]") ;;
		*) continue ;;
		esac
		res=${line##*[}
		res=${res%]}
		name=$t
		case "$line" in
		"["*"] (instance) "*) name="$t (instance)" ;;
		esac
		echo "$side	$name	$res" >> "$results"
		echo "# ft $side	$name	$res"
		found=1
	done < "$logdir/out"
	# Killed by the timeout: the run that did not report gets TIMEOUT.
	if [ $found -eq 0 ]; then
		res=NORESULT
		[ $rc -eq 124 ] && res=TIMEOUT
		echo "$side	$t	$res" >> "$results"
		echo "# ft $side	$t	$res"
	elif [ $rc -eq 124 ]; then
		echo "$side	$t (instance)	TIMEOUT" >> "$results"
		echo "# ft $side	$t (instance)	TIMEOUT"
	fi
	rm -rf "$HOME"/* 2>/dev/null
done
exit 0
