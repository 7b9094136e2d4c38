#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fresh.sh - the README's first run, on this machine: `make demo` and
# `make check` as a machine without kernel packages sees them, then plain
# `make`, `make install` and `make uninstall`. Prints TAP lines.
#
# Each run is a copy of the checkout (no build/) in a mount namespace
# where /usr/src, /boot and /lib/modules are hidden under empty tmpfs
# mounts; the copy's deps.sh is a stand-in that "installs" the kernels by
# lifting those mounts. The VM is not booted (KHIST_VM_DRYRUN=1: run.sh
# stops once the QEMU command line is formed) and the copy's Kbuild builds
# a one-file khist.ko instead of the real one: what is tested is that the
# top-level targets look for the kernels after deps, not before, and hand
# the right module directory to the VM. Nothing is installed on the host.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=6.12
ok() { echo "ok - fresh: $*"; }
notok() {
	echo "not ok - fresh: $1"
	shift
	for f in "$@"; do tail -n 15 "$f" | sed 's/^/# /'; done
}

if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	echo "ok - fresh: first run of make demo/check # SKIP needs root and unshare -m"
	exit 0
fi
rel=$(sh "$top/selftests/vm/kernel.sh" release "$kver")
hdr=/usr/src/linux-headers-$rel
if [ -z "$rel" ] || [ ! -f "$hdr/Makefile" ]; then
	echo "not ok - fresh: Debian $kver headers missing (make deps)"
	exit 1
fi

work=$(mktemp -d /tmp/khist-fresh.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir "$tree"
tar -C "$top" --exclude=./build --exclude=./.git --exclude=./khist.ko \
	--exclude='*.tap' -cf - . | tar -C "$tree" -xf -
cat >"$tree/Kbuild" <<'KB'
obj-m := khist.o
khist-y := module/fresh_stub.o
KB
printf '#include <linux/module.h>\nMODULE_LICENSE("GPL");\n' \
	>"$tree/module/fresh_stub.c"
cat >"$tree/selftests/vm/deps.sh" <<'DEPS'
#!/bin/sh
# stand-in for deps.sh (selftests/install/fresh.sh): the kernels appear
for d in /usr/src /boot /lib/modules; do
	[ -e "$d/.khist-hidden" ] && umount "$d"
done
echo "khist deps (stand-in): kernels installed"
exit 0
DEPS

# first_run LOG CMD... - CMD in a new mount namespace where the kernels
# are hidden; LOG gets its output and its exit code (LOG.rc).
first_run() {
	log=$1
	shift
	unshare -m sh -c '
		for d in /usr/src /boot /lib/modules; do
			mount -t tmpfs -o size=1m khist-hidden "$d" &&
				touch "$d/.khist-hidden" || exit 97
		done
		[ -n "${KHIST_FRESH_RUNLINK:-}" ] && {
			rm /lib/modules/.khist-hidden
			mkdir -p "/lib/modules/$(uname -r)" &&
				ln -s "$KHIST_FRESH_RUNLINK" "/lib/modules/$(uname -r)/build"
		}
		cd "$0" && timeout 300 "$@"
	' "$tree" "$@" >"$log" 2>&1
	echo $? >"$log.rc"
}

# 1. make demo: deps, build, the VM's command line with the module built.
first_run "$work/demo.log" env KHIST_VM_DRYRUN=1 make demo
want="-kernel /boot/vmlinuz-$rel "
if [ "$(cat "$work/demo.log.rc")" = 0 ] &&
	grep -q "^# khist-vm: dry run: .*$want" "$work/demo.log" &&
	grep -q "^# khist-vm: modules: $tree/build/mod-$rel/khist.ko" "$work/demo.log"; then
	ok "make demo on a machine without kernels: builds for $rel, boots /boot/vmlinuz-$rel"
else
	notok "make demo on a machine without kernels (exit $(cat "$work/demo.log.rc"))" "$work/demo.log"
fi

# 2. make check (its vm-6.12 stage): the same, through check.sh. The
# module directory of 1. stays: a wrong path would still name no module.
first_run "$work/check.log" env KHIST_VM_DRYRUN=1 KHIST_CHECK_ONLY=vm-$kver make check
vlog=$tree/build/check/vm-$kver.log
if [ "$(cat "$work/check.log.rc")" = 0 ] &&
	grep -q "^# khist-vm: dry run: .*$want" "$vlog" 2>/dev/null &&
	grep -q "^# khist-vm: modules: $tree/build/mod-$rel/khist.ko" "$vlog"; then
	ok "make check on a machine without kernels: vm-$kver stage reaches the VM with mod-$rel"
else
	notok "make check on a machine without kernels (exit $(cat "$work/check.log.rc"))" \
		"$work/check.log" "$vlog"
fi

# 3. plain make: the running kernel's build tree if it has one, else
# Debian's 6.12 headers, saying so.
rm -f "$tree/khist.ko"
export KHIST_FRESH_RUNLINK="$hdr"
first_run "$work/make-run.log" sh -c 'sh selftests/vm/deps.sh && make'
unset KHIST_FRESH_RUNLINK
if [ "$(cat "$work/make-run.log.rc")" = 0 ] &&
	grep -q "^khist: building for $rel: the running kernel (/lib/modules/$(uname -r)/build)" "$work/make-run.log" &&
	[ -f "$tree/khist.ko" ]; then
	ok "plain make builds for the running kernel's build tree"
else
	notok "plain make with /lib/modules/$(uname -r)/build (exit $(cat "$work/make-run.log.rc"))" "$work/make-run.log"
fi
first_run "$work/make-deb.log" sh -c 'sh selftests/vm/deps.sh && make'
if [ "$(cat "$work/make-deb.log.rc")" = 0 ] &&
	grep -q "^khist: building for $rel: no build tree for the running kernel $(uname -r) .*KVER=$kver" "$work/make-deb.log"; then
	ok "plain make without a running kernel's build tree: says it builds for Debian's $kver"
else
	notok "plain make without /lib/modules/$(uname -r)/build (exit $(cat "$work/make-deb.log.rc"))" "$work/make-deb.log"
fi

# 4. make install / uninstall into another root: depmod makes modprobe
# find khist there, and not after the uninstall.
root=$work/root
mods=$root/lib/modules/$rel
(cd "$tree" && make -s install KVER=$kver INSTALL_MOD_PATH="$root") >"$work/install.log" 2>&1
installed=0
[ -f "$mods/updates/khist.ko" ] && installed=1
if [ $installed = 1 ] &&
	modprobe -d "$root" -S "$rel" --show-depends khist 2>>"$work/install.log" |
	grep -q "^insmod $mods/updates/khist.ko"; then
	ok "make install: updates/khist.ko, modprobe finds it"
else
	notok "make install INSTALL_MOD_PATH=ROOT" "$work/install.log"
fi
(cd "$tree" && make -s uninstall KVER=$kver INSTALL_MOD_PATH="$root") >"$work/uninstall.log" 2>&1
if [ $installed = 1 ] && [ ! -e "$mods/updates/khist.ko" ] &&
	! modprobe -d "$root" -S "$rel" --show-depends khist >/dev/null 2>&1; then
	ok "make uninstall: khist.ko gone, modprobe no longer finds it"
else
	notok "make uninstall INSTALL_MOD_PATH=ROOT" "$work/uninstall.log"
fi
