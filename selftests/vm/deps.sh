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
# The manual (make htmldocs, the check stage "docs"): python3-sphinx.
PKGS="make gcc libc6-dev git python3 bc flex bison kmod cpio xz-utils
qemu-system-x86 busybox-static dash
linux-image-amd64 linux-headers-amd64 linux-source-6.1
linux-image-6.12-amd64 linux-headers-6.12-amd64 linux-source-6.12
linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64
sparse clang clang-format libclang-rt-14-dev llvm
libtracefs-dev libtraceevent-dev trace-cmd pkg-config liburcu-dev
debhelper dh-dkms dkms python3-sphinx"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
here=$(cd "$(dirname "$0")" && pwd)

# announce PKG... - what apt-get is about to install and what that does to
# a workstation, with apt's own size figures
announce() {
	echo "khist deps: about to install (apt-get install --no-install-recommends):"
	echo "$*" | fold -s -w 72 | sed 's/^/  /'
	k=
	for p in "$@"; do
		case "$p" in
		linux-image-amd64) k="$k, 6.1 ($p)" ;;
		linux-image-6.12-amd64) k="$k, 6.12 ($p)" ;;
		linux-image-6.12-rt-amd64) k="$k, 6.12 PREEMPT_RT ($p)" ;;
		esac
	done
	if [ -n "$k" ]; then
		echo "  Debian kernels, for the QEMU test VMs (the host need not boot them):"
		echo "  ${k#, }."
		echo "  Their packages run update-grub, which makes the newest kernel GRUB's"
		echo "  default boot entry (6.12 or the PREEMPT_RT one): deps.sh keeps the"
		echo "  current default (below)."
	fi
	LC_ALL=C apt-get install --assume-no --no-install-recommends "$@" 2>/dev/null |
		grep -E '^(Need to get|After this operation)' | sed 's/^/  /' || true
}

# confirm - ask on a terminal; CI (CI=true), no terminal or KHIST_DEPS_YES=1
# go ahead without asking
confirm() {
	if [ "${CI:-}" = true ] || [ -n "${KHIST_DEPS_YES:-}" ] || [ ! -t 0 ]; then
		return 0
	fi
	printf "khist deps: install these? [y/N] "
	read -r ans || ans=
	case "$ans" in
	y | Y | yes | YES) return 0 ;;
	esac
	echo "khist deps: nothing installed" >&2
	exit 1
}

if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "khist deps: missing:$missing" >&2
		echo "khist deps: need root to install packages (try: sudo make deps)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	announce $missing
	confirm
	state=$(mktemp)
	sh "$here/bootdefault.sh" record "$state"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >/dev/null
	sh "$here/bootdefault.sh" keep "$state" || true
	rm -f "$state"
fi

# The 6.12 sources: checkpatch.pl and friends for `make style`, the
# ftrace selftests, and with the 6.1 sources the private trace headers and
# the SYSCALL_DEFINEs the event generators read (tools/tpgen: KSRC).
# Unpacked once, outside the repository.
SRC_CACHE=${KHIST_CACHE:-/var/cache/khist}
if [ ! -e "$SRC_CACHE/.extract-done" ]; then
	echo "khist deps: unpacking linux-source-6.12 into $SRC_CACHE"
	mkdir -p "$SRC_CACHE"
	tar -xJf /usr/src/linux-source-6.12.tar.xz -C "$SRC_CACHE"
	touch "$SRC_CACHE/.extract-done"
fi
if [ ! -e "$SRC_CACHE/.extract-done-6.1" ] && [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	echo "khist deps: unpacking linux-source-6.1 into $SRC_CACHE"
	mkdir -p "$SRC_CACHE"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$SRC_CACHE"
	touch "$SRC_CACHE/.extract-done-6.1"
fi
exit 0
