#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - modprobe.sh's VM side (dash): khist installed by make install
# under /lib/modules/$(uname -r)/updates is found, loaded and removed by
# kmod's modprobe, shows its version, and `mount -t khist` loads it by
# itself. Prints TAP lines.
MNT=/sys/kernel/khist
rel=$(uname -r)
want=$(cat /selftests/install/VERSION)
t() {
	name=$1
	shift
	if "$@" >/tmp/t.out 2>&1; then
		echo "ok - modprobe: $name"
	else
		echo "not ok - modprobe: $name"
		sed 's/^/# /' /tmp/t.out
	fi
}
loaded() { grep -q '^khist ' /proc/modules; }

t "updates/khist.ko installed for $rel" test -f "/lib/modules/$rel/updates/khist.ko"
t "modinfo khist: version $want" sh -c \
	"/sbin/modinfo -F version khist | tee /dev/stderr | grep -qx '$want'"
t "modprobe khist loads it" sh -c '/sbin/modprobe khist && grep "^khist " /proc/modules'
t "mount -t khist" sh -c "mount -t khist nodev $MNT && test -f $MNT/README && umount $MNT"
t "modprobe -r khist" sh -c '/sbin/modprobe -r khist && ! grep "^khist " /proc/modules'
# MODULE_ALIAS_FS: the kernel runs /sbin/modprobe fs-khist on the mount
# (on a directory of its own: khist makes /sys/kernel/khist when loaded).
mkdir -p /tmp/kh
t "mount -t khist loads the module" sh -c \
	"! grep -q '^khist ' /proc/modules && mount -t khist nodev /tmp/kh && grep '^khist ' /proc/modules"
umount /tmp/kh 2>/dev/null
loaded && /sbin/modprobe -r khist
t "module gone" sh -c '! grep "^khist " /proc/modules'
