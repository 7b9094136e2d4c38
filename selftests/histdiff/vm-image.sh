#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - add what the differential tests (selftests/fs/histdiff)
# need to the test VM's image (static programs, so they need no libraries):
# trigwrite, a one-write helper that reports the errno of a failed write,
# hdopen, a workload whose openat() pointers sort differently as numbers
# and as strings, and hdsys, some forty system calls for the syscall events.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$1
for p in trigwrite hdopen hdsys; do
	${CC:-cc} -static -O2 -Wall -Wextra -Werror -o "$root/bin/$p" \
		"$top/selftests/fs/histdiff/$p.c"
done
