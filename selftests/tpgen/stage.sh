#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the tpgen stage of `make check`: the cache of the generated
# events (tools/tpgen/module.sh, Documentation/tpgen.rst) on the host, in a
# few seconds and without generating: the key follows the generator's
# content and is the same for the DKMS package's layout (scripts/tpgen/),
# an entry is copied instead of generated, a second build of the same key
# waits for the one that holds the lock. Prints TAP lines.
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
n=0
ok() {
	n=$((n + 1))
	echo "ok $n - tpgen: $1"
}
fail() {
	n=$((n + 1))
	echo "not ok $n - tpgen: $1"
	shift
	for l in "$@"; do echo "$l" | sed 's/^/# /'; done
	rc=1
}

kdir=$(sh "$top/selftests/vm/kernel.sh" kdir 6.12 2>/dev/null)
if [ -z "$kdir" ] || [ ! -f "$kdir/include/config/kernel.release" ]; then
	echo "not ok 1 - tpgen: Debian 6.12 headers missing (make deps)"
	exit 1
fi
work=$(mktemp -d /tmp/khist-tpgen.XXXXXX)
trap 'rm -rf "$work"' EXIT
export KHIST_TPGEN_CACHE="$work/cache"
rel=$(cat "$kdir/include/config/kernel.release")

# copies of the generator: the repository's layout, the package's
# (dkms.conf: /usr/src/khist-<version>/scripts/tpgen/) and one with a
# changed stage header
mkdir -p "$work/repo/tools" "$work/pkg/scripts" "$work/chg/tools"
for d in repo chg; do
	cp -r "$top/tools/tpgen" "$work/$d/tools/"
	cp -r "$top/include" "$work/$d/"
done
cp -r "$top/tools/tpgen" "$work/pkg/scripts/"
cp -r "$top/include" "$work/pkg/"
echo "/* changed */" >> "$work/chg/include/khist/tp/stage_fmt.h"
key() {
	sh "$work/$1/$2/tpgen/module.sh" --key "$kdir" | cut -d' ' -f1
}
krepo=$(key repo tools)
kpkg=$(key pkg scripts)
kchg=$(key chg tools)
case $krepo in
"$rel"-*) ok "the key starts with KDIR's kernel.release ($krepo)" ;;
*) fail "the key starts with KDIR's kernel.release" "key: $krepo, release: $rel" ;;
esac
if [ "$krepo" = "$kpkg" ]; then
	ok "the DKMS package's layout has the same key"
else
	fail "the DKMS package's layout has the same key" "repo $krepo, package $kpkg"
fi
if [ "$krepo" != "$kchg" ]; then
	ok "a changed include/khist/tp header changes the key"
else
	fail "a changed include/khist/tp header changes the key" "both $krepo"
fi
kns=$(KSRC=none sh "$work/repo/tools/tpgen/module.sh" --key "$kdir" | cut -d' ' -f1)
case $kns in
*-headers-*) ok "KSRC=none: a key of its own ($kns)" ;;
*) fail "KSRC=none: a key of its own" "key: $kns" ;;
esac

# an entry is copied, not generated (a generation would print
# "generating" and take minutes)
mkdir -p "$KHIST_TPGEN_CACHE/$krepo"
for f in khist_tp.o summary.txt events.txt exclusions.txt release.txt; do
	echo "fake $f" > "$KHIST_TPGEN_CACHE/$krepo/$f"
done
out=$work/out
sh "$work/pkg/scripts/tpgen/module.sh" "$kdir" "$out" > "$work/hit.log" 2>&1
if grep -q 'from the cache' "$work/hit.log" && ! grep -q generating "$work/hit.log" &&
	[ "$(cat "$out/khist_tp.o")" = "fake khist_tp.o" ] &&
	[ "$(cat "$out/stamp")" = "$krepo" ] && [ -f "$out/.khist_tp.o.cmd" ] &&
	[ -f "$out/exclusions.txt" ]; then
	ok "an entry of the cache is copied into OUT with its .cmd file and exclusions"
else
	fail "an entry of the cache is copied into OUT" "$(cat "$work/hit.log")" "$(ls -a "$out" 2>&1)"
fi
# up to date: OUT is left as it is
touch -d '2001-01-01' "$out/khist_tp.o"
sh "$work/repo/tools/tpgen/module.sh" "$kdir" "$out" > "$work/again.log" 2>&1
if [ ! -s "$work/again.log" ] && [ "$(date -r "$out/khist_tp.o" +%Y)" = 2001 ]; then
	ok "OUT with the same key is left untouched (khist.ko is not relinked)"
else
	fail "OUT with the same key is left untouched" "$(cat "$work/again.log")"
fi

# a second build of a key being generated waits for the lock, then copies
if command -v flock > /dev/null; then
	rm -rf "${KHIST_TPGEN_CACHE:?}/$krepo" "$out"
	lock=$KHIST_TPGEN_CACHE/.$krepo.lock
	(
		exec 9> "$lock"
		flock 9
		: > "$work/locked"
		sleep 3
		mkdir -p "$KHIST_TPGEN_CACHE/$krepo"
		for f in khist_tp.o summary.txt events.txt exclusions.txt release.txt; do
			echo "late $f" > "$KHIST_TPGEN_CACHE/$krepo/$f"
		done
	) &
	while [ ! -f "$work/locked" ]; do sleep 0.1; done
	# a generation instead of the wait would take minutes: cut short
	timeout 20 sh "$work/repo/tools/tpgen/module.sh" "$kdir" "$out" > "$work/wait.log" 2>&1
	wait
	if grep -q 'waiting for another build' "$work/wait.log" &&
		[ "$(cat "$out/khist_tp.o" 2>/dev/null)" = "late khist_tp.o" ]; then
		ok "a second build of the same key waits for the first and copies its entry"
	else
		fail "a second build of the same key waits and copies" "$(cat "$work/wait.log")"
	fi
else
	echo "ok $((n + 1)) - tpgen: lock # SKIP no flock"
fi
# The syscall table (tools/tpgen/syscalls.sh) with CC as DKMS sets it when
# it runs under a make (its "make -f - show-CC" prints make's directory
# lines): gcc is used, every syscall is still there. Both ways: the
# definitions (KSRC) and the prototypes (KSRC=none).
sc_count() {
	_n=$(grep -c KHIST_SC_ENT "$1/khist_syscalls.h" 2>/dev/null)
	echo "${_n:-0}"
}
badcc="make[1]: Entering directory '/tmp' gcc make[1]: Leaving directory '/tmp'"
for src in "" none; do
	CC="$badcc" KSRC=$src sh "$top/tools/tpgen/syscalls.sh" "$kdir" "$work/sc-bad$src" > "$work/sc.log" 2>&1
	KSRC=$src sh "$top/tools/tpgen/syscalls.sh" "$kdir" "$work/sc-good$src" > /dev/null 2>&1
	bad=$(sc_count "$work/sc-bad$src")
	good=$(sc_count "$work/sc-good$src")
	if [ "$bad" -ge 300 ] && [ "$bad" = "$good" ] && grep -q 'is not a compiler; using gcc' "$work/sc.log"; then
		ok "syscall table${src:+ (KSRC=$src)}: CC set to make's chatter: gcc is used, $bad syscalls"
	else
		fail "syscall table${src:+ (KSRC=$src)}: CC set to make's chatter" "$bad syscalls with it, $good without" "$(cat "$work/sc.log")"
	fi
done
exit $rc
