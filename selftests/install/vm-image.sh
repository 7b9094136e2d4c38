#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - for modprobe.sh only (KHIST_INSTALL_ROOT set): the
# tree `make install INSTALL_MOD_PATH=...` filled (lib/modules/<release>/
# updates/khist.ko and depmod's files) goes into the image, with kmod as
# /sbin/modprobe, modinfo and depmod, and the VERSION khist should show.
set -e
[ -n "${KHIST_INSTALL_ROOT:-}" ] || exit 0
root=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cp -a "$KHIST_INSTALL_ROOT/." "$root/"
sh "$top/selftests/vm/copy_prog.sh" "$root" kmod
for p in modprobe modinfo depmod; do
	ln -sf /bin/kmod "$root/sbin/$p"
done
cp "$top/VERSION" "$root/selftests/install/VERSION"
