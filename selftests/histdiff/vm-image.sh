#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - add what the differential tests (selftests/fs/histdiff)
# need to the test VM's image: trigwrite, a one-write helper that reports the
# errno of a failed write (static, so it needs no libraries).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
root=$1
${CC:-cc} -static -O2 -Wall -Wextra -Werror -o "$root/bin/trigwrite" \
	"$top/selftests/fs/histdiff/trigwrite.c"
