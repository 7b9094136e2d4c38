# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh - sourced by module.sh and syscalls.sh, with $kdir set to a
# kernel's build directory. Sets
#   srctree  the tree of KDIR's source headers (Debian's -common headers
#            package, which KDIR's Makefile includes; else KDIR itself),
#   kver     its VERSION.PATCHLEVEL.SUBLEVEL,
#   ksrc     the matching full kernel source, or empty: $KSRC when its
#            version is kver (KSRC=none: none), else
#            /var/cache/khist/linux-source-<major.minor> (make deps) when
#            its version is kver.
# and the function mkver DIR (the version of DIR's Makefile).

mkver() {
	sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$1/Makefile" |
		head -3 | tr '\n' '.' | sed 's/\.$//'
}
srctree=$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$kdir/Makefile" | head -1)
[ -n "$srctree" ] || srctree=$kdir
kver=$(mkver "$srctree")
ksrc=${KSRC:-}
if [ "$ksrc" = none ]; then
	ksrc=
elif [ -z "$ksrc" ]; then
	if [ -f "/var/cache/khist/linux-source-${kver%.*}/Makefile" ] &&
		[ "$(mkver "/var/cache/khist/linux-source-${kver%.*}")" = "$kver" ]; then
		ksrc=/var/cache/khist/linux-source-${kver%.*}
	fi
elif [ "$(mkver "$ksrc")" != "$kver" ]; then
	echo "khist: KSRC=$ksrc is $(mkver "$ksrc"), KDIR is $kver: not used" >&2
	ksrc=
fi
