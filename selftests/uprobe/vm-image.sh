#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - add what the uprobe tests need to the VM image, in
# ROOT/opt/uprobe: up_target (this directory) and up_target.env, the file
# offsets of its symbols as nm and readelf give them on the host
# (UP_ADD: up_add's code; UP_COUNTER: up_counter's address, for @+).
set -e
root=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/uprobe
mkdir -p "$out" "$root/opt/uprobe"
${CC:-cc} -O2 -g -Wall -Werror -o "$out/up_target" "$here/up_target.c"
# A symbol's file offset: its address less the vaddr - offset of the
# LOAD segment that holds it.
foff() {
	addr=$(nm "$out/up_target" | awk -v s="$1" '$3 == s { print $1 }')
	readelf -lW "$out/up_target" | python3 -c '
import sys
a = int(sys.argv[1], 16)
for l in sys.stdin:
    w = l.split()
    if w and w[0] == "LOAD":
        off, va, sz = int(w[1], 16), int(w[2], 16), int(w[5], 16)
        if va <= a < va + sz:
            print(hex(a - va + off))
' "$addr"
}
add=$(foff up_add)
counter=$(nm "$out/up_target" | awk '$3 == "up_counter" { print $1 }')
if [ -z "$add" ] || [ -z "$counter" ]; then
	echo "uprobe/vm-image.sh: no up_add or up_counter in $out/up_target" >&2
	exit 1
fi
{
	echo "UP_ADD=$add"
	echo "UP_COUNTER=0x$counter"
} > "$root/opt/uprobe/up_target.env"
sh "$top/selftests/vm/copy_prog.sh" "$root" "$out/up_target"
mv "$root/bin/up_target" "$root/opt/uprobe/"
