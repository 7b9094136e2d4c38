#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-ftracetest.sh - `make ftracetest` in the VM: every trigger selftest,
# first against the native tracefs (the baseline), then against khist.
# Prints "# ft SIDE<TAB>NAME<TAB>RESULT" lines that the host turns into the
# table, and the logs of khist's failures as comments.
. /selftests/conform/guest-lib.sh
. /selftests/conform/features.sh

if ! ft_setup; then
	echo "not ok - conform/insmod khist.ko"
	exit 0
fi
echo "ok - conform/insmod khist.ko"
# The features khist's README does not claim (for the table's last column).
mount -t khist nodev /sys/kernel/khist
echo "# ft-unclaimed $(unclaimed /sys/kernel/khist/README $ALL_FEATURES)"
umount /sys/kernel/khist
# While iterating: khistft.sides=khist (skip the native run) and
# khistft.filter=SUBSTRING on the kernel command line (KHIST_VM_APPEND).
# khistft.dirs=DIR,DIR: other directories of test.d than trigger and
# 00basic (kprobe, dynevent, ...).
sides="native khist"
filter=
dirs=
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	khistft.sides=*) sides=$(echo "${arg#*=}" | tr , ' ') ;;
	khistft.filter=*) filter=${arg#*=} ;;
	khistft.dirs=*) dirs=$(echo "${arg#*=}" | tr , ' ') ;;
	esac
done
# shellcheck disable=SC2086
tests=$(ft_tests $dirs | grep -F -- "$filter")
res=/tmp/ft-results
: > $res
for side in $sides; do
	# shellcheck disable=SC2086
	ft_run $side $res $tests
done
grep '^khist' $res | while IFS='	' read -r side name r; do
	case "$r" in PASS | XFAIL) continue ;; esac
	echo "# log khist $name ($r):"
	ft_log_tail khist "$name" 30
done
rmmod khist
echo "ok - conform/rmmod khist"
