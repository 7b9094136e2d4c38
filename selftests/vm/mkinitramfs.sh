#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh MODDIR OUT - build the test VM's initramfs: busybox, dash
# (the test shell), the khist modules built in MODDIR, the in-VM tests
# (selftests/fs) and the guest's /init.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
moddir=$1
out=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 755 "$root"

mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" \
	"$root/proc" "$root/sys" "$root/dev" "$root/tmp" "$root/etc" \
	"$root/lib/khist" "$root/selftests" "$root/root"
cp /bin/busybox "$root/bin/busybox"

copy_prog() {
	sh "$top/selftests/vm/copy_prog.sh" "$root" "$@"
}
copy_prog dash
# shellcheck disable=SC2086
copy_prog ${KHIST_VM_EXTRA_PROGS:-}

cp "$top/selftests/vm/init" "$root/init"
chmod 755 "$root/init"
find "$moddir" -maxdepth 3 -name '*.ko' -exec cp {} "$root/lib/khist/" \;
# the lists of the events generated from the trace headers (tools/tpgen)
if [ -f "$moddir/tpgen/exclusions.txt" ]; then
	mkdir -p "$root/lib/khist/tpgen"
	cp "$moddir/tpgen/exclusions.txt" "$moddir/tpgen/events.txt" \
		"$moddir/tpgen/summary.txt" "$root/lib/khist/tpgen/"
fi
cp -r "$top/selftests/fs" "$root/selftests/fs"
# Each test area can add what its guest scripts need: selftests/<area>/
# vm-image.sh ROOT runs with the image tree (copy_prog.sh helps). The
# hooks build into shared places (build/uprobe, build/user_events,
# tools' builds): images made at the same time (make check runs two
# kernels' VMs at once) take turns, or one would copy (or read the
# symbols of) a program the other is writing.
mkdir -p "$top/build"
exec 9> "$top/build/.vm-image.lock"
flock 9
for hook in "$top"/selftests/*/vm-image.sh; do
	[ -f "$hook" ] || continue
	cp -r "$(dirname "$hook")" "$root/selftests/"
	sh "$hook" "$root" || { echo "mkinitramfs: $hook failed" >&2; exit 1; }
done
flock -u 9
exec 9>&-
[ -d "$top/tools/bin" ] && cp -r "$top/tools/bin" "$root/usr/local-bin" || true
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"
echo "tracers:x:1000:" >> "$root/etc/group"
echo "tracer:x:1000:1000:tracer:/tmp:/bin/sh" >> "$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$root/etc/passwd"

(cd "$root" && find . | cpio -o -H newc --quiet) > "$out"
