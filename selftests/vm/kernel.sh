#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel.sh - where the Debian kernels khist tests against live.
#   kernel.sh kdir KVER     build tree: running kernel's, else Debian headers
#   kernel.sh headers KVER  Debian headers for KVER (6.1 or 6.12)
#   kernel.sh image KVER    /boot/vmlinuz-* for KVER
#   kernel.sh release KVER  its release string
set -e

release() {
	case "$1" in
	6.1) pat='6.1.0-*-amd64' ;;
	6.12) pat='6.12.*-amd64' ;;
	*) echo "kernel.sh: unknown KVER '$1' (use 6.1 or 6.12)" >&2; exit 2 ;;
	esac
	# Newest installed image of that series; headers must match it.
	for f in /boot/vmlinuz-$pat; do
		[ -e "$f" ] && basename "$f" | sed 's/^vmlinuz-//'
	done | grep -v -- '-rt-' | sort -V | tail -n 1
}

case "$1" in
kdir)
	if [ -d "/lib/modules/$(uname -r)/build" ]; then
		echo "/lib/modules/$(uname -r)/build"
		exit 0
	fi
	r=$(release "$2")
	[ -n "$r" ] && [ -d "/usr/src/linux-headers-$r" ] && echo "/usr/src/linux-headers-$r"
	;;
headers)
	r=$(release "$2")
	echo "/usr/src/linux-headers-$r"
	;;
image)
	r=$(release "$2")
	echo "/boot/vmlinuz-$r"
	;;
release)
	release "$2"
	;;
*)
	echo "usage: kernel.sh kdir|headers|image|release KVER" >&2
	exit 2
	;;
esac
