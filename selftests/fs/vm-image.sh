#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - small test programs of the in-VM tests
# (selftests/fs/progs/*.c), built static into ROOT/bin.
set -e
here=$(cd "$(dirname "$0")" && pwd)
for c in "$here"/progs/*.c; do
	[ -f "$c" ] || continue
	gcc -O2 -Wall -Werror -static -o "$1/bin/$(basename "$c" .c)" "$c"
done
