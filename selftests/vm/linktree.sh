#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# linktree.sh SRC DST - mirror the module sources of SRC into DST as
# symlinks, so that Kbuild can build there without writing into SRC.
# Stale links (deleted sources) are removed.
set -e
src=$1
dst=$2
mkdir -p "$dst"
find "$dst" -type l ! -exec test -e {} \; -delete 2>/dev/null || true
ln -sf "$src/Kbuild" "$dst/Kbuild"
ln -sf "$src/VERSION" "$dst/VERSION"
cd "$src"
find module include selftests/modules selftests/lib -type f \( -name '*.[ch]' -o -name 'Kbuild*' \) 2>/dev/null |
while read -r f; do
	d=$(dirname "$f")
	[ -d "$dst/$d" ] || mkdir -p "$dst/$d"
	[ -L "$dst/$f" ] || ln -sf "$src/$f" "$dst/$f"
done
