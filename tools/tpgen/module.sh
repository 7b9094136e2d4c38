#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# module.sh KDIR OUT - the events generated from KDIR's trace headers for
# khist.ko, as `make module` asks for them: runs tpgen.sh KDIR OUT [KSRC]
# unless OUT is up to date, so that Kbuild links OUT/khist_tp.o.
#
# KSRC (environment): the matching kernel source tree. When unset, the
# unpacked Debian source /var/cache/khist/linux-source-<major.minor> is
# used if its version is KDIR's; KSRC=none builds from the headers
# package alone. KHIST_TPGEN=0 builds khist.ko without generated events.
# A generator failure is reported and khist.ko is built without them.
set -eu
kdir=$1
out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)

case ${KHIST_TPGEN:-1} in
0 | n | no)
	rm -rf "$out"
	echo "khist: no events generated from the trace headers (KHIST_TPGEN=$KHIST_TPGEN)"
	exit 0
	;;
esac

# VERSION.PATCHLEVEL(.SUBLEVEL) of a tree's Makefile.
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
	cand=/var/cache/khist/linux-source-${kver%.*}
	if [ -f "$cand/Makefile" ] && [ "$(mkver "$cand")" = "$kver" ]; then
		ksrc=$cand
	fi
elif [ "$(mkver "$ksrc")" != "$kver" ]; then
	echo "khist: KSRC=$ksrc is $(mkver "$ksrc"), KDIR is $kver: not used" >&2
	ksrc=
fi

stamp="$kdir ${ksrc:-headers-only}"
if [ -f "$out/khist_tp.o" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ] &&
	[ -z "$(find "$top/include/khist/tp" "$top/tools/tpgen" -newer "$out/khist_tp.o" 2>/dev/null | head -1)" ]; then
	exit 0
fi
echo "khist: generating events from $kdir's trace headers${ksrc:+ and $ksrc} (a few minutes)"
t0=$(date +%s)
if ! sh "$top/tools/tpgen/tpgen.sh" "$kdir" "$out" $ksrc > "$out.log" 2>&1; then
	echo "khist: WARNING: the event generator failed (see $out.log); khist.ko is built without its events" >&2
	rm -rf "$out"
	exit 0
fi
# Kbuild's modpost reads the .cmd file of every object of the module.
printf 'savedcmd_%s := sh tools/tpgen/tpgen.sh %s %s %s\n' "$out/khist_tp.o" \
	"$kdir" "$out" "$ksrc" > "$out/.khist_tp.o.cmd"
echo "$stamp" > "$out/stamp"
echo "khist: $(sed -n 's/^events served: //p' "$out/summary.txt") events from" \
	"$(sed -n 's/^headers compiled and linked: //p' "$out/summary.txt") trace headers," \
	"$(($(date +%s) - t0)) s; left out: $out/exclusions.txt"
