#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# modprobe.sh [KVER] - `make install` with the real khist.ko for Debian's
# KVER (6.12), into the root of the VM's image (INSTALL_MOD_PATH), then
# in the VM: modinfo, modprobe, mount, modprobe -r (guest.sh). Prints TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=${1:-6.12}
# The build directory is named by the headers' kernel.release (6.1.192
# for Debian's 6.1.0-N-amd64).
kdir=$(sh "$top/selftests/vm/kernel.sh" kdir "$kver")
moddir=$top/build/mod-$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
work=$(mktemp -d /tmp/khist-modprobe.XXXXXX)
trap 'rm -rf "$work"' EXIT
if ! make -s -C "$top" install KVER="$kver" INSTALL_MOD_PATH="$work/root" \
	>"$work/install.log" 2>&1; then
	echo "not ok - modprobe-$kver: make install INSTALL_MOD_PATH=ROOT"
	tail -n 20 "$work/install.log" | sed 's/^/# /'
	exit 1
fi
KHIST_INSTALL_ROOT=$work/root KHIST_VM_SCRIPT=selftests/install/guest.sh \
	KHIST_VM_OUT=${KHIST_VM_OUT:-$top/build/install-vm-$kver} \
	sh "$top/selftests/vm/run.sh" script "$kver" "$moddir"
