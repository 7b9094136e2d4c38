#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# layers.sh [MODDIR] - the layer rule of Documentation/design.rst, checked
# on the objects of a built khist.ko (selftests/layers.py does the work).
# Without MODDIR it uses build/mod-<6.12 release>, building it first when
# it is missing or older than a source file. Prints TAP; exits non-zero on
# a call to a higher layer that is neither a hook (module/events/hooks.h)
# nor recorded in selftests/layers.baseline.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
moddir=${1:-}
if [ -z "$moddir" ]; then
	kdir=$(sh selftests/vm/kernel.sh kdir 6.12 2>/dev/null)
	rel=$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
	[ -n "$rel" ] || { echo "not ok - layers: no 6.12 kernel headers (make deps)"; exit 1; }
	moddir=$top/build/mod-$rel
	if [ ! -f "$moddir/khist.ko" ] ||
		[ -n "$(find module include Kbuild -newer "$moddir/khist.ko" \
			-name '*.[ch]' 2>/dev/null | head -n 1)" ]; then
		make -s module KVER=6.12 >/dev/null 2>&1 ||
			{ echo "not ok - layers: the module does not build"; exit 1; }
	fi
fi
exec python3 selftests/layers.py "$top" "$moddir" selftests/layers.baseline
