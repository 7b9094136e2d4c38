#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install every Debian package khist's build, tests and demo need,
# only when something is missing. Safe to run again and again.
set -e

# Fuzzing (selftests/fuzz): clang's -fsanitize=fuzzer,address,undefined
# needs libclang-rt-14-dev (libFuzzer and the sanitizer runtimes), and
# llvm for llvm-symbolizer (readable sanitizer stack traces).
# Packaging (make deb, selftests/dkms): debhelper, dh-dkms and dkms, which
# builds the khist-dkms package's module for every installed kernel.
PKGS="make gcc libc6-dev git python3 bc flex bison kmod cpio xz-utils
qemu-system-x86 busybox-static dash
linux-image-amd64 linux-headers-amd64
linux-image-6.12-amd64 linux-headers-6.12-amd64 linux-source-6.12
linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64
sparse clang clang-format libclang-rt-14-dev llvm
libtracefs-dev libtraceevent-dev trace-cmd pkg-config liburcu-dev
debhelper dh-dkms dkms"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "khist deps: installing$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "khist deps: need root to install packages (try: sudo make deps)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi

# The 6.12 sources: checkpatch.pl and friends for `make style`, and the
# ftrace selftests. Unpacked once, outside the repository.
SRC_CACHE=${KHIST_CACHE:-/var/cache/khist}
if [ ! -e "$SRC_CACHE/.extract-done" ]; then
	echo "khist deps: unpacking linux-source-6.12 into $SRC_CACHE"
	mkdir -p "$SRC_CACHE"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$SRC_CACHE"
	touch "$SRC_CACHE/.extract-done"
fi
exit 0
