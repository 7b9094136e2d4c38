#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - for the dkms stage only (KHIST_DKMS_REL set): put the
# khist.ko that DKMS installed on the host for that kernel release into
# ROOT/lib/modules/<release>/updates/dkms/, with the host's modules.dep
# lines for it (and for any module it depends on), so that the guest's
# `modprobe khist` finds it the way a real machine would. Every other
# image is left alone.
set -e
root=$1
rel=${KHIST_DKMS_REL:-}
[ -n "$rel" ] || exit 0
lib=/lib/modules/$rel
dep=$(grep -E '^updates/dkms/khist\.ko(\.[a-z]+)?:' "$lib/modules.dep") || {
	echo "dkms vm-image: no khist line in $lib/modules.dep" >&2
	exit 1
}
: >"$root/modules.dep.tmp"
for m in ${dep%%:*} ${dep#*:}; do
	mkdir -p "$root$lib/$(dirname "$m")"
	cp "$lib/$m" "$root$lib/$m"
	grep -E "^$m:" "$lib/modules.dep" >>"$root/modules.dep.tmp"
done
mv "$root/modules.dep.tmp" "$root$lib/modules.dep"
# What the guest checks the loaded module against.
mod=$lib/${dep%%:*}
# Its GNU build id (the kernel shows the loaded module's in
# /sys/module/khist/notes/); modules may be xz-compressed (6.1: no, 6.12: yes).
case "$mod" in
*.xz) xz -dc "$mod" >"$root/khist.ko.tmp" ;;
*) cp "$mod" "$root/khist.ko.tmp" ;;
esac
readelf -n "$root/khist.ko.tmp" | sed -n 's/^ *Build ID: *//p' \
	>"$root/selftests/dkms/expect-buildid"
rm -f "$root/khist.ko.tmp"
[ -s "$root/selftests/dkms/expect-buildid" ] || {
	echo "dkms vm-image: no build id in $mod" >&2
	exit 1
}
modinfo -F version "$mod" >"$root/selftests/dkms/expect-version" || true
