#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# module.sh KDIR OUT - the events generated from KDIR's trace headers for
# khist.ko, as `make module` and the DKMS build (dkms.conf) ask for them:
# OUT/khist_tp.o, which Kbuild links, with its summary.txt, events.txt
# and exclusions.txt.
#
# They come from a cache keyed by their content: KDIR's kernel.release and
# configuration, the version of KSRC (or headers-only) and a hash of the
# generator (tpgen.sh, report.sh) and of include/khist/tp. The cache is
# $KHIST_TPGEN_CACHE if set, else /var/cache/khist/tpgen when writable,
# else build/tpgen-cache of this tree; each entry is a directory named by
# its key. A missing entry is generated once (tpgen.sh KDIR OUT [KSRC],
# under a lock: a second build of the same key waits for the first) and
# then published into the cache.
#
# KSRC (environment): the matching kernel source tree. When unset, the
# unpacked Debian source /var/cache/khist/linux-source-<major.minor> is
# used if its version is KDIR's; KSRC=none builds from the headers
# package alone. KHIST_TPGEN=0 builds khist.ko without generated events.
# A generator failure is reported and khist.ko is built without them.
#
# module.sh --key KDIR prints the cache key (and the cache directory) and
# does nothing else.
set -eu
keyonly=
if [ "$1" = --key ]; then
	keyonly=1
	shift
fi
kdir=$1
out=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

[ -n "$keyonly" ] || case ${KHIST_TPGEN:-1} in
0 | n | no)
	rm -rf "$out"
	echo "khist: no events generated from the trace headers (KHIST_TPGEN=$KHIST_TPGEN)"
	exit 0
	;;
esac

. "$here/ksrc.sh"

# The key: what the generated object depends on.
rel=$(cat "$kdir/include/config/kernel.release")
cfg=$(cksum < "$kdir/include/generated/autoconf.h" | cut -d' ' -f1)
if [ -n "$ksrc" ]; then
	src=src$(mkver "$ksrc")
else
	src=headers
fi
gen=$({ (cd "$here" && cksum -- tpgen.sh report.sh); (cd "$top/include/khist/tp" && cksum -- *.h); } |
	cksum | cut -d' ' -f1)
key=$rel-$cfg-$src-$gen

cache=${KHIST_TPGEN_CACHE:-/var/cache/khist/tpgen}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	cache=$top/build/tpgen-cache
	mkdir -p "$cache"
fi
if [ -n "$keyonly" ]; then
	echo "$key $cache"
	exit 0
fi
if [ -f "$out/khist_tp.o" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
entry=$cache/$key
products="khist_tp.o summary.txt events.txt exclusions.txt release.txt"

# put ENTRY's products in OUT, with the .cmd file Kbuild's modpost reads
# for every object of the module
install_entry() {
	rm -rf "$out"
	mkdir -p "$out"
	for f in $products; do
		cp "$entry/$f" "$out/$f"
	done
	printf 'savedcmd_%s := sh tools/tpgen/module.sh %s %s\n' "$out/khist_tp.o" \
		"$kdir" "$out" > "$out/.khist_tp.o.cmd"
	echo "$key" > "$out/stamp"
}

# one generation per key at a time; the others wait and then copy
exec 9> "$cache/.$key.lock"
if command -v flock > /dev/null && ! flock -n 9; then
	echo "khist: waiting for another build generating $entry"
	flock 9
fi
if [ -f "$entry/khist_tp.o" ]; then
	install_entry
	echo "khist: events generated from the trace headers: from the cache $entry"
	exit 0
fi

echo "khist: generating events from $kdir's trace headers${ksrc:+ and $ksrc} (a few minutes)"
t0=$(date +%s)
# shellcheck disable=SC2086
if ! sh "$here/tpgen.sh" "$kdir" "$out" $ksrc > "$out.log" 2>&1; then
	echo "khist: WARNING: the event generator failed (see $out.log); khist.ko is built without its events" >&2
	# the units compiled so far stay for the next run (tpgen.sh)
	rm -f "$out/khist_tp.o" "$out/stamp"
	exit 0
fi
t1=$(date +%s)
echo "generation: $((t1 - t0)) s wall" >> "$out/summary.txt"
# publish: a complete entry appears under its name at once
tmp=$cache/.new-$key-$$
rm -rf "$tmp"
mkdir -p "$tmp"
for f in $products; do
	cp "$out/$f" "$tmp/$f"
done
rm -rf "$entry"
mv "$tmp" "$entry"
printf 'savedcmd_%s := sh tools/tpgen/module.sh %s %s\n' "$out/khist_tp.o" \
	"$kdir" "$out" > "$out/.khist_tp.o.cmd"
echo "$key" > "$out/stamp"
echo "khist: $(sed -n 's/^events served: //p' "$out/summary.txt") events from" \
	"$(sed -n 's/^headers compiled and linked: //p' "$out/summary.txt") trace headers," \
	"$((t1 - t0)) s; left out: $out/exclusions.txt; cached in $entry"
