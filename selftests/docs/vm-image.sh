#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - the manual's sources in the test VM, for
# test.d/docs: ROOT/selftests/docs/Documentation/ (the recipes to run,
# the pages the doc-coverage test searches).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1/selftests/docs/Documentation"
cp "$top"/Documentation/*.rst "$1/selftests/docs/Documentation/"
# The block I/O recipe's loop device: the image kernel's loop module
# (its release from the vermagic of the khist.ko in the image), as a
# plain .ko for busybox's insmod. Without it that recipe fails, loudly.
rel=$(modinfo -F vermagic "$1/lib/khist/khist.ko" 2>/dev/null | cut -d' ' -f1)
loop=$(find "/lib/modules/$rel/kernel/drivers/block" -maxdepth 1 \
	-name 'loop.ko*' 2>/dev/null | head -n 1)
if [ -n "$rel" ] && [ -n "$loop" ]; then
	mkdir -p "$1/lib/blk"
	case "$loop" in
	*.xz) xz -dc "$loop" > "$1/lib/blk/loop.ko" ;;
	*.zst) zstd -qdc "$loop" > "$1/lib/blk/loop.ko" ;;
	*) cp "$loop" "$1/lib/blk/loop.ko" ;;
	esac
fi
