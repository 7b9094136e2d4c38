#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# copy_prog.sh ROOT PROG... - copy host programs and the shared libraries
# they need into the initramfs tree ROOT (programs go to ROOT/bin; a
# missing program is skipped silently).
root=$1
shift
for p in "$@"; do
	src=$(command -v "$p" 2>/dev/null) || continue
	cp -L "$src" "$root/bin/$(basename "$p")"
	ldd "$src" 2>/dev/null |
		awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' |
		while read -r lib; do
			[ -e "$lib" ] || continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
done
