#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kernel.sh - where the Debian kernels khist tests against live.
#   kernel.sh kdir KVER     build tree of Debian's KVER (its headers, or the
#                           debug kernel's tree); the running kernel's is the
#                           Makefile's choice, not this script's
#   kernel.sh headers KVER  Debian headers for KVER (6.1 or 6.12)
#   kernel.sh image KVER    /boot/vmlinuz-* for KVER
#   kernel.sh release KVER  its release string
# KVER: 6.1, 6.12, 6.12-rt (Debian's PREEMPT_RT kernel), or 6.12-kasan /
# 6.12-kcsan (debug kernels built by selftests/debugkernel/build.sh).
set -e

KDEBUG=${KHIST_CACHE:-/var/cache/khist}/kdebug

debug_variant() {
	case "$1" in
	6.12-kasan) echo kasan ;;
	6.12-kcsan) echo kcsan ;;
	esac
}

release() {
	case "$1" in
	6.1) pat='6.1.0-*-amd64' ;;
	6.12) pat='6.12.*-amd64' ;;
	6.12-rt) pat='6.12.*-rt-amd64' ;;
	6.12-kasan | 6.12-kcsan)
		cat "$KDEBUG/$(debug_variant "$1")/include/config/kernel.release" 2>/dev/null
		return 0
		;;
	*) echo "kernel.sh: unknown KVER '$1' (6.1, 6.12, 6.12-rt, 6.12-kasan, 6.12-kcsan)" >&2; exit 2 ;;
	esac
	# Newest installed image of that series; headers must match it.
	for f in /boot/vmlinuz-$pat; do
		[ -e "$f" ] && basename "$f" | sed 's/^vmlinuz-//'
	done | if [ "$1" = 6.12-rt ]; then cat; else grep -v -- '-rt-'; fi |
		sort -V | tail -n 1
}

case "$1" in
kdir)
	v=$(debug_variant "$2")
	if [ -n "$v" ]; then
		[ -f "$KDEBUG/$v/.khist-done" ] && echo "$KDEBUG/$v"
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
	v=$(debug_variant "$2")
	if [ -n "$v" ]; then
		echo "$KDEBUG/$v/arch/x86/boot/bzImage"
		exit 0
	fi
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
