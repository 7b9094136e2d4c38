#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the khist-dkms package, end to end, on this host and in the
# VM (a stage of `make check`; prints TAP lines):
#   1. make deb, and the package holds what building khist.ko needs and
#      nothing of the tests;
#   2. apt-get install ./khist-dkms_<version>_all.deb; DKMS builds khist
#      for every installed Debian kernel (6.1, 6.12, 6.12-rt): what the
#      package's postinst did not build, `dkms autoinstall -k` does, as
#      for a kernel installed later; `dkms status` lists each;
#   3. for each kernel, a VM whose initramfs carries only the DKMS-built
#      module and its modules.dep: modprobe, mount, a hist trigger;
#   4. apt-get purge khist-dkms removes the modules and DKMS's tree.
# The host is left as it was found: the package is purged on any exit,
# and the MOK key pair DKMS makes to sign modules is removed if this run
# made it. A host that already has khist-dkms or a DKMS khist is not
# touched. The three builds run under nice; their times are printed.
# KHIST_DKMS_KERNELS overrides the kernel list.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/dkms
ver=$(cat "$top/VERSION")
deb=$top/build/deb/khist-dkms_${ver}_all.deb
kernels=${KHIST_DKMS_KERNELS:-6.1 6.12 6.12-rt}
mok=/var/lib/dkms/mok.key
rc=0
mkdir -p "$out"

ok() { echo "ok - dkms/$*"; }
fail() {
	echo "not ok - dkms/$1"
	shift
	for l in "$@"; do echo "# $l"; done
	rc=1
}
# t NAME CMD... - a test line from CMD's status, its output on failure.
t() {
	name=$1
	shift
	if "$@" >"$out/t.out" 2>&1; then
		ok "$name"
	else
		fail "$name"
		tail -n 20 "$out/t.out" | sed 's/^/# /'
	fi
}
apt_get() {
	DEBIAN_FRONTEND=noninteractive nice -n 10 apt-get -q -y \
		-o DPkg::Lock::Timeout=600 "$@"
}
installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' khist-dkms 2>/dev/null)" = installed ]
}

for tool in dpkg-buildpackage dh_dkms dkms; do
	command -v $tool >/dev/null 2>&1 || {
		fail "tools" "$tool missing: make deps installs debhelper, dh-dkms, dkms"
		exit 1
	}
done
if dpkg-query -W khist-dkms >/dev/null 2>&1 || [ -e /var/lib/dkms/khist ] ||
	[ -e "/usr/src/khist-$ver" ]; then
	fail "host clean before the test" \
		"khist-dkms or a DKMS khist is already on this host: not touching it"
	exit 1
fi
mok_made=1
[ -e "$mok" ] && mok_made=0
cleanup() {
	if dpkg-query -W khist-dkms >/dev/null 2>&1; then
		apt_get purge khist-dkms >"$out/purge-cleanup.log" 2>&1
	fi
	if [ "$mok_made" -eq 1 ]; then
		rm -f "$mok" /var/lib/dkms/mok.pub
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# 1. The package.
if make -s -C "$top" deb >"$out/deb.log" 2>&1 && [ -f "$deb" ]; then
	ok "make deb"
else
	fail "make deb" "$(tail -n 20 "$out/deb.log")"
	exit 1
fi
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./||' >"$out/contents"
src=usr/src/khist-$ver
has_all() {
	for f in dkms.conf Kbuild VERSION module/main.c module/compat/compat.h \
		include/uapi/khist.h include/khist/tp/define.h scripts/tpgen/module.sh \
		scripts/tpgen/tpgen.sh scripts/tpgen/report.sh; do
		grep -qx "$src/$f" "$out/contents" || { echo "missing $src/$f"; return 1; }
	done
	grep -qx usr/share/doc/khist-dkms/copyright "$out/contents" ||
		{ echo "no copyright"; return 1; }
}
only_sources() {
	! grep -E '(^|/)(selftests|tools|debian)/|\.(o|ko|cmd)$|/Makefile$' \
		"$out/contents" &&
		! grep -E "^usr/src/." "$out/contents" | grep -v "^$src/"
}
arch_all() {
	[ "$(dpkg-deb -f "$deb" Architecture)" = all ] &&
		[ "$(dpkg-deb -f "$deb" Package)" = khist-dkms ] &&
		dpkg-deb -f "$deb" Depends | grep -q dkms
}
conf_version() {
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./$src/dkms.conf" |
		grep -qx "PACKAGE_VERSION=\"$ver\""
}
maint_scripts() {
	dpkg-deb -I "$deb" postinst | grep -q 'dh_dkms' &&
		dpkg-deb -I "$deb" prerm | grep -q 'dkms remove'
}
t "package holds dkms.conf, Kbuild, VERSION, module/, include/, copyright" has_all
t "package holds no tests, tools, objects or files outside $src" only_sources
t "package khist-dkms is Architecture: all and depends on dkms" arch_all
t "dkms.conf carries version $ver" conf_version
t "postinst/prerm come from dh_dkms" maint_scripts
# A wrong package is not installed on the host.
[ $rc -eq 0 ] || exit 1

# 2. Install on the host; DKMS builds for each kernel.
t0=$(date +%s)
if apt_get install "$deb" >"$out/install.log" 2>&1 && installed; then
	ok "apt-get install ./khist-dkms_${ver}_all.deb ($(($(date +%s) - t0)) s)"
else
	fail "apt-get install ./khist-dkms_${ver}_all.deb" \
		"$(tail -n 30 "$out/install.log")"
	exit 1
fi
grep -i 'building for' "$out/install.log" | sed 's/^/# postinst: /'
for k in $kernels; do
	rel=$(sh "$top/selftests/vm/kernel.sh" release "$k")
	if [ -z "$rel" ]; then
		fail "dkms-$k: kernel installed" "no /boot/vmlinuz for $k (make deps)"
		continue
	fi
	how="by the package's postinst"
	if ! dkms status -m khist -v "$ver" -k "$rel" 2>/dev/null | grep -q ': installed'; then
		t0=$(date +%s)
		nice -n 10 dkms autoinstall -k "$rel" >"$out/autoinstall-$k.log" 2>&1
		how="by dkms autoinstall -k $rel in $(($(date +%s) - t0)) s"
	fi
	if dkms status -m khist -v "$ver" -k "$rel" 2>/dev/null | grep -q ": installed"; then
		ok "dkms-$k: dkms status: khist/$ver, $rel: installed ($how)"
	else
		fail "dkms-$k: dkms status: khist/$ver, $rel: installed" \
			"$(dkms status 2>&1)" "$(tail -n 30 "$out/autoinstall-$k.log" 2>/dev/null)" \
			"$(tail -n 30 "/var/lib/dkms/khist/$ver/build/make.log" 2>/dev/null)"
		continue
	fi
	ko=$(ls /lib/modules/"$rel"/updates/dkms/khist.ko* 2>/dev/null | head -n 1)
	t "dkms-$k: $rel/updates/dkms/khist.ko built for $rel" \
		sh -c "modinfo -F vermagic '$ko' | grep -q '^$rel '"
	# DKMS's log of the build, kept (the package's purge removes it).
	cp "/var/lib/dkms/khist/$ver/$rel/x86_64/log/make.log" "$out/make-$k.log" 2>/dev/null ||
		cp "/var/lib/dkms/khist/$ver/build/make.log" "$out/make-$k.log" 2>/dev/null || true
	t "dkms-$k: khist.ko holds the syscall table (sys_enter_getpid)" \
		sh -c "xz -dcf '$ko' | grep -aq 'sys_enter_getpid' || { grep -i 'syscall\|khist:' '$out/make-$k.log'; false; }"
	t "dkms-$k: modules.dep lists updates/dkms/khist.ko" \
		grep -Eq '^updates/dkms/khist\.ko' "/lib/modules/$rel/modules.dep"
	if [ -n "$(modinfo -F signer "$ko" 2>/dev/null)" ]; then
		ok "dkms-$k: signed by DKMS's MOK key ($(modinfo -F signer "$ko"))"
	else
		echo "ok - dkms/dkms-$k: module signature # SKIP DKMS did not sign (no sign-file)"
	fi
done

# 3. Each DKMS-built module in the VM, one boot per kernel.
empty=$out/no-modules
mkdir -p "$empty"
for k in $kernels; do
	rel=$(sh "$top/selftests/vm/kernel.sh" release "$k")
	dkms status -m khist -v "$ver" -k "$rel" 2>/dev/null | grep -q ': installed' || continue
	KHIST_DKMS_REL=$rel KHIST_VM_OUT=$out/vm-$k \
		KHIST_VM_SCRIPT=selftests/dkms/guest.sh \
		KHIST_VM_TIMEOUT=${KHIST_VM_TIMEOUT:-900} \
		sh "$top/selftests/vm/run.sh" script "$k" "$empty" |
		sed -E "s#^(not ok|ok) - vm-$k/#\1 - dkms/vm-$k/#" >"$out/vm-$k.tap"
	cat "$out/vm-$k.tap"
	grep -q '^not ok' "$out/vm-$k.tap" && rc=1
	grep -q '^ok - dkms/vm-'"$k"'/modprobe khist' "$out/vm-$k.tap" ||
		fail "vm-$k: the guest loaded the DKMS module"
done

# 4. Removing the package removes the modules.
t0=$(date +%s)
if apt_get purge khist-dkms >"$out/purge.log" 2>&1 && ! installed; then
	ok "apt-get purge khist-dkms ($(($(date +%s) - t0)) s)"
else
	fail "apt-get purge khist-dkms" "$(tail -n 30 "$out/purge.log")"
fi
gone() {
	for k in $kernels; do
		rel=$(sh "$top/selftests/vm/kernel.sh" release "$k")
		ls /lib/modules/"$rel"/updates/dkms/khist.ko* 2>/dev/null && return 1
		grep -E '^updates/dkms/khist\.ko' "/lib/modules/$rel/modules.dep" && return 1
	done
	return 0
}
t "after purge: no khist.ko in any updates/dkms, none in modules.dep" gone
t "after purge: dkms status has no khist" \
	sh -c '! dkms status 2>/dev/null | grep -q "^khist/"'
t "after purge: /usr/src/khist-$ver and /var/lib/dkms/khist gone" \
	sh -c "! ls -d /usr/src/khist-$ver /var/lib/dkms/khist"
exit $rc
