#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bootdefault.sh record STATE | keep STATE - keep the host's boot default
# across the kernel installs of deps.sh.
#
# Debian's kernel packages run update-grub, which lists the newest kernel
# first; with GRUB_DEFAULT=0 (Debian's default: a position, the first
# entry) the newest kernel becomes the default, here 6.12 or even the
# PREEMPT_RT kernel. `record` (before apt-get) writes to STATE the kernel
# release the default entry boots; `keep` (after) points GRUB back at that
# kernel's own entry: GRUB_DEFAULT=saved in a drop-in of /etc/default/
# grub.d, grub-set-default with the entry's id, update-grub. A GRUB_DEFAULT
# that names an entry (an id, a title or "saved") is not changed by new
# kernels, and a machine without GRUB has nothing to keep: both say so and
# do nothing.
# KHIST_GRUB_ROOT: another root to work on (the tests).
set -eu
R=${KHIST_GRUB_ROOT:-}
cfg=$R/boot/grub/grub.cfg
dropin=$R/etc/default/grub.d/khist.cfg
say() { echo "khist deps: $*"; }

# grub_default - GRUB_DEFAULT as grub-mkconfig sees it
grub_default() {
	(
		GRUB_DEFAULT=0
		for f in "$R/etc/default/grub" "$R"/etc/default/grub.d/*.cfg; do
			[ -f "$f" ] && . "$f"
		done
		echo "$GRUB_DEFAULT"
	)
}

# entry_kernel N - the release the Nth (from 0) top-level entry of grub.cfg
# boots; empty if that entry is a submenu or boots no Linux image
entry_kernel() {
	awk -v want="$1" '
	function opens(l) { return l ~ /\{[ \t]*$/ }
	{ l = $0; sub(/^[ \t]+/, "", l) }
	depth == 0 && l ~ /^(menuentry|submenu)[ \t]/ {
		n++
		cur = (n - 1 == want) ? (l ~ /^menuentry/ ? 1 : 2) : 0
	}
	cur == 1 && l ~ /^linux[ \t]/ && !found {
		if (match(l, /vmlinuz-[^ \t]+/)) {
			print substr(l, RSTART + 8, RLENGTH - 8)
			found = 1
		}
	}
	opens(l) { depth++ }
	l ~ /^\}/ { depth--; if (depth == 0) cur = 0 }
	' "$cfg"
}

# advanced_id REL - "submenu-id>entry-id" of REL's own (not recovery)
# entry under "Advanced options"
advanced_id() {
	awk -v rel="$1" '
	function id(l) {
		if (!match(l, /\$menuentry_id_option '"'"'[^'"'"']*'"'"'/))
			return ""
		l = substr(l, RSTART, RLENGTH)
		sub(/^[^'"'"']*'"'"'/, "", l)
		sub(/'"'"'$/, "", l)
		return l
	}
	{ l = $0; sub(/^[ \t]+/, "", l) }
	l ~ /^submenu[ \t]/ { sub_id = id(l); next }
	l ~ /^menuentry[ \t]/ && sub_id != "" {
		e = id(l)
		if (e ~ ("^gnulinux-" rel "-advanced-")) {
			print sub_id ">" e
			exit
		}
	}
	' "$cfg"
}

case "${1:-}" in
record)
	state=$2
	echo none >"$state"
	if [ ! -f "$cfg" ]; then
		say "no GRUB on this machine ($cfg missing): no boot default to keep"
		exit 0
	fi
	def=$(grub_default)
	case "$def" in
	'' | *[!0-9]*)
		say "GRUB_DEFAULT=$def names an entry: new kernels do not change the boot default"
		exit 0
		;;
	esac
	rel=$(entry_kernel "$def")
	if [ -z "$rel" ]; then
		say "GRUB's default entry ($def) boots no Linux image of its own: left as it is"
		exit 0
	fi
	echo "$def $rel" >"$state"
	say "GRUB boots Linux $rel by default (GRUB_DEFAULT=$def): that stays the default"
	;;
keep)
	read -r def rel <"$2" || exit 0
	[ "$def" != none ] || exit 0
	if [ "$(entry_kernel "$def")" = "$rel" ]; then
		say "GRUB's default is still Linux $rel"
		exit 0
	fi
	id=$(advanced_id "$rel")
	if [ -z "$id" ]; then
		say "WARNING: no GRUB entry for Linux $rel found; GRUB now boots $(entry_kernel "$def") by default" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$dropin")"
	printf '%s\n%s\n' "# khist deps: boot the entry grub-set-default chose" \
		'GRUB_DEFAULT=saved' >"$dropin"
	grub-set-default ${R:+--boot-directory="$R/boot"} "$id"
	update-grub
	say "GRUB's default kept on Linux $rel: GRUB_DEFAULT=saved ($dropin),"
	say "grub-set-default '$id'. To undo: rm $dropin; update-grub"
	;;
*)
	echo "usage: bootdefault.sh record|keep STATE" >&2
	exit 2
	;;
esac
