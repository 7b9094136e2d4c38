#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - add what the user_events tests need to the VM image,
# in ROOT/opt/user_events: the kernel's own user_events selftests
# (tools/testing/selftests/user_events of Debian's linux-source-6.12),
# built unmodified on the host against khist's uapi header, and
# ue_client (this directory), with their libraries; for the Trace2 test,
# khist-trace2 (tools/trace2), its git workload, and Debian's git with its
# helpers (/usr/lib/git-core), when git is installed.
set -e
root=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KHIST_CACHE:-/var/cache/khist}
src=$cache/linux-source-6.12/tools/testing/selftests/user_events
out=$top/build/user_events
mkdir -p "$out" "$root/opt/user_events"
cc=${CC:-cc}
# The kernel's tests include <linux/user_events.h>: khist's comes first.
for t in abi_test ftrace_test dyn_test perf_test; do
	if [ -f "$src/$t.c" ]; then
		$cc -O2 -Wall -Wl,-no-as-needed -I"$top/include/uapi" \
			-o "$out/$t" "$src/$t.c" -lrt -lpthread -lm
	fi
done
$cc -O2 -Wall -Werror -I"$top/include/uapi" -o "$out/ue_client" \
	"$here/ue_client.c" -lpthread
for p in "$out"/*; do
	sh "$top/selftests/vm/copy_prog.sh" "$root" "$p"
	mv "$root/bin/$(basename "$p")" "$root/opt/user_events/"
done
make -s -C "$top/tools/trace2" >/dev/null
cp "$top/build/trace2/khist-trace2" "$top/tools/trace2/tests/git-workload.sh" \
	"$root/opt/user_events/"
if command -v git >/dev/null && [ -d /usr/lib/git-core ]; then
	sh "$top/selftests/vm/copy_prog.sh" "$root" git
	mkdir -p "$root/usr/lib"
	cp -a /usr/lib/git-core "$root/usr/lib/"
	mkdir -p "$root/usr/bin"
	ln -sf /bin/git "$root/usr/bin/git"
	# git init copies its hooks and info/exclude from here (and warns
	# when they are missing).
	if [ -d /usr/share/git-core/templates ]; then
		mkdir -p "$root/usr/share/git-core"
		cp -a /usr/share/git-core/templates "$root/usr/share/git-core/"
	fi
fi
exit 0
