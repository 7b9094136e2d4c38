#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - the dkms stage's guest (run.sh script mode): load the
# DKMS-built khist.ko with modprobe from /lib/modules/<release>/
# updates/dkms/, mount it, put one hist trigger on, and take it all down.
# Prints TAP lines.
M=/sys/kernel/khist
E=/selftests/dkms
rel=$(uname -r)
t() {
	name=$1
	shift
	if "$@" >/tmp/t.out 2>&1; then
		echo "ok - $name"
	else
		echo "not ok - $name"
		sed 's/^/# /' /tmp/t.out
	fi
}
# The loaded module's build id (the note's last 20 bytes) is the one of
# the file DKMS installed on the host.
loaded_buildid() {
	want=$(cat $E/expect-buildid)
	have=$(od -An -tx1 -v /sys/module/khist/notes/.note.gnu.build-id |
		tr -d ' \n')
	echo "loaded: $have; DKMS's file: $want"
	[ -n "$want" ] && [ "${have%"$want"}" != "$have" ]
}
loaded_version() {
	[ "$(cat /sys/module/khist/version)" = "$(cat $E/expect-version)" ]
}
hist_counts() {
	echo 'hist:keys=common_pid' >$M/events/sched/sched_switch/trigger &&
		sleep 0.3 &&
		grep -q '^Totals:' $M/events/sched/sched_switch/hist &&
		grep -q '^ *Hits: *[1-9]' $M/events/sched/sched_switch/hist &&
		echo '!hist:keys=common_pid' >$M/events/sched/sched_switch/trigger
}

# Only the DKMS copy is in the image: nothing in /lib/khist.
t "no other khist.ko in the image" sh -c '! ls /lib/khist/*.ko'
# khist.ko, or khist.ko.xz where the kernel's modules are compressed (6.12)
t "module is in /lib/modules/$rel/updates/dkms" \
	ls /lib/modules/"$rel"/updates/dkms/khist.ko*
t "modprobe khist" modprobe khist
t "loaded khist is the DKMS build (GNU build id)" loaded_buildid
if [ -s $E/expect-version ]; then
	t "modinfo version = /sys/module/khist/version" loaded_version
else
	echo "ok - module version # SKIP khist.ko has no MODULE_VERSION"
fi
t "mount -t khist" mount -t khist nodev $M
t "README readable" grep -q . $M/README
t "a hist trigger counts sched_switch" hist_counts
# DKMS ran the syscall table's generator too (dkms.conf): every syscall.
syscall_events() {
	n=$(ls $M/events/syscalls | grep -c '^sys_enter_')
	echo "$n sys_enter_ events; the first of $M/events/syscalls:"
	ls $M/events/syscalls | head -n 5
	ls -ld $M/events/syscalls/sys_enter_getpid
	[ -d $M/events/syscalls/sys_enter_getpid ] && [ "$n" -ge 300 ]
}
t "syscall events (sys_enter_getpid, 300 or more)" syscall_events
t "umount" umount $M
t "modprobe -r khist" modprobe -r khist
t "module gone" sh -c '! grep -q "^khist " /proc/modules'
