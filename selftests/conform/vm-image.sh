#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - add what the conformance tests need to the VM image:
# the kernel's ftrace selftests (tools/testing/selftests/ftrace from
# Debian's linux-source-6.12, copied unmodified to ROOT/opt/ftrace), the
# programs they call that busybox lacks (nice), trace-cmd with its
# libraries, and the C test programs of this directory (built on the host).
set -e
root=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KHIST_CACHE:-/var/cache/khist}
ft=$cache/linux-source-6.12/tools/testing/selftests/ftrace

if [ ! -x "$ft/ftracetest" ]; then
	echo "conform/vm-image.sh: $ft missing (run make deps)" >&2
	exit 1
fi
mkdir -p "$root/opt"
cp -a "$ft" "$root/opt/ftrace"

# busybox has ping, ls, seq, awk, grep, diff, wc, mktemp, unshare, timeout;
# it has no nice. trace-cmd is Debian's, with libtracefs/libtraceevent.
sh "$top/selftests/vm/copy_prog.sh" "$root" nice trace-cmd

# The test programs (libtracefs, libtraceevent, the trace-cmd shim), built
# on the host: executables go to /bin with their libraries, the preload
# shim to /opt/conform.
if [ -f "$here/Makefile" ]; then
	make -s -C "$here" OUT="$top/build/conform/bin" >&2
	mkdir -p "$root/opt/conform"
	for p in "$top"/build/conform/bin/*; do
		case "$p" in
		*.so) cp "$p" "$root/opt/conform/" ;;
		*) [ -x "$p" ] && sh "$top/selftests/vm/copy_prog.sh" "$root" "$p" ;;
		esac
	done
fi
exit 0
