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
modinfo -F srcversion "$mod" >"$root/selftests/dkms/expect-srcversion"
modinfo -F version "$mod" >"$root/selftests/dkms/expect-version" || true
