#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - the stress test's workload (progs/*.c), built static
# into ROOT/bin.
set -e
here=$(cd "$(dirname "$0")" && pwd)
for c in "$here"/progs/*.c; do
	[ -f "$c" ] || continue
	gcc -O2 -Wall -Wextra -Werror -static -o "$1/bin/$(basename "$c" .c)" "$c"
done
