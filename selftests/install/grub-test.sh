#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# grub-test.sh - selftests/vm/bootdefault.sh (deps.sh keeps the boot
# default) on a made-up root: a Debian-style grub.cfg before and after the
# three kernels are installed (after: the PREEMPT_RT kernel sorts first and
# would be the default), with grub-set-default and update-grub replaced by
# scripts that note their arguments. Prints TAP lines.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bd=$top/selftests/vm/bootdefault.sh
w=$(mktemp -d /tmp/khist-grub.XXXXXX)
trap 'rm -rf "$w"' EXIT
u=0f5e2c1a-1111-2222-3333-444455556666
ok() { echo "ok - grub: $*"; }
notok() { echo "not ok - grub: $1"; [ -f "${2:-}" ] && sed 's/^/# /' "$2"; }

# cfg REL... - grub.cfg as Debian's 10_linux writes it, newest REL first
cfg() {
	echo "function load_video {"
	echo "  insmod all_video"
	echo "}"
	echo "### BEGIN /etc/grub.d/10_linux ###"
	echo "menuentry 'Debian GNU/Linux' --class debian --class gnu-linux --class gnu --class os \$menuentry_id_option 'gnulinux-simple-$u' {"
	echo "	load_video"
	echo "	echo	'Loading Linux $1 ...'"
	echo "	linux	/boot/vmlinuz-$1 root=UUID=$u ro  quiet"
	echo "	initrd	/boot/initrd.img-$1"
	echo "}"
	echo "submenu 'Advanced options for Debian GNU/Linux' \$menuentry_id_option 'gnulinux-advanced-$u' {"
	for r in "$@"; do
		for m in advanced recovery; do
			echo "	menuentry 'Debian GNU/Linux, with Linux $r' --class debian \$menuentry_id_option 'gnulinux-$r-$m-$u' {"
			echo "		linux	/boot/vmlinuz-$r root=UUID=$u ro single"
			echo "	}"
		done
	done
	echo "}"
	echo "### END /etc/grub.d/10_linux ###"
}

mkdir -p "$w/bin" "$w/root/boot/grub" "$w/root/etc/default"
for p in grub-set-default update-grub; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$p" "$w" >"$w/bin/$p"
	chmod +x "$w/bin/$p"
done
export PATH="$w/bin:$PATH" KHIST_GRUB_ROOT="$w/root"
old=6.1.0-56-amd64
after="6.12.117+deb12-rt-amd64 6.12.117+deb12-amd64 $old"

# 1. Debian's default GRUB_DEFAULT=0: the default moves to the RT kernel;
# keep points GRUB back at 6.1's own entry.
echo 'GRUB_DEFAULT=0' >"$w/root/etc/default/grub"
cfg $old >"$w/root/boot/grub/grub.cfg"
sh "$bd" record "$w/state" >"$w/out" 2>&1
# shellcheck disable=SC2086
cfg $after >"$w/root/boot/grub/grub.cfg"
sh "$bd" keep "$w/state" >>"$w/out" 2>&1
want="grub-set-default --boot-directory=$w/root/boot gnulinux-advanced-$u>gnulinux-$old-advanced-$u"
if grep -qxF "$want" "$w/calls" 2>/dev/null && grep -qx 'update-grub ' "$w/calls" &&
	grep -qx 'GRUB_DEFAULT=saved' "$w/root/etc/default/grub.d/khist.cfg" 2>/dev/null; then
	ok "GRUB_DEFAULT=0: default kept on $old's entry after the RT kernel came first"
else
	cat "$w/calls" >>"$w/out" 2>/dev/null
	notok "GRUB_DEFAULT=0: default kept on $old" "$w/out"
fi

# 2. Now GRUB_DEFAULT=saved (the drop-in): a second deps run leaves it.
rm -f "$w/calls"
sh "$bd" record "$w/state" >"$w/out" 2>&1
sh "$bd" keep "$w/state" >>"$w/out" 2>&1
if [ ! -e "$w/calls" ] && grep -q 'GRUB_DEFAULT=saved names an entry' "$w/out"; then
	ok "GRUB_DEFAULT=saved: nothing changed"
else
	notok "GRUB_DEFAULT=saved: nothing changed" "$w/out"
fi

# 3. No GRUB: says so, does nothing.
rm -rf "$w/root/boot/grub" "$w/root/etc/default/grub.d"
sh "$bd" record "$w/state" >"$w/out" 2>&1
sh "$bd" keep "$w/state" >>"$w/out" 2>&1
if [ ! -e "$w/calls" ] && grep -q 'no GRUB on this machine' "$w/out" &&
	[ ! -e "$w/root/etc/default/grub.d" ]; then
	ok "no GRUB: says so, changes nothing"
else
	notok "no GRUB: says so, changes nothing" "$w/out"
fi
