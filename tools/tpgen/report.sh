#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# report.sh OUT SRCTREE [KSRC] - the lists and figures of a tpgen.sh run:
# OUT/events.txt (system:event class header, per served event),
# OUT/exclusions.txt (what is not served and why) and OUT/summary.txt.
set -eu
out=$1
srctree=$2
ksrc=${3:-}

unit_name() {
	echo "$1" | sed 's|^trace/events/||; s|^asm/trace/|asm_|; s|\.h$||; s|[^A-Za-z0-9_]|_|g'
}
hdr_file() {
	case $1 in
	trace/*) echo "${ksrc:-$srctree}/include/$1" ;;
	asm/*) echo "${ksrc:-$srctree}/arch/x86/include/$1" ;;
	esac
}
# Events a header names in its text (for one that did not compile).
text_events() {
	tr '\n' ' ' < "$1" | grep -oE \
		'(TRACE_EVENT|TRACE_EVENT_FN|TRACE_EVENT_CONDITION|TRACE_EVENT_FN_COND)\( *[A-Za-z0-9_]+|DEFINE_EVENT(_PRINT|_FN|_CONDITION)?\( *[A-Za-z0-9_]+, *[A-Za-z0-9_]+' |
		sed 's/.*[(,] *//' | sort -u
	# and events made by a header's own wrapper macros: NAME_EVENT(event)
	tr '\n' ' ' < "$1" | grep -oE \
		'(^|[;) ])(DEFINE_[A-Z0-9_]*|[A-Z][A-Z0-9_]*EVENT[A-Z0-9_]*)\( *[a-z][a-z0-9_]* *\) *;' |
		sed 's/.*( *//; s/ *).*//' | sort -u
}
first_error() {
	grep -m1 -E 'error:|undefined!' "$1" 2>/dev/null |
		sed 's/^.*\(fatal \)\{0,1\}error: //; s/^ERROR: modpost: //' |
		sed "s/‘/'/g; s/’/'/g" | cut -c1-160
}

: > "$out/events.txt"
: > "$out/exclusions.txt"
while read -r h; do
	u=$(unit_name "$h")
	o=$out/units/$u.o
	if [ -f "$o" ]; then
		readelf -p .discard.khist_tp_info "$o" 2>/dev/null |
			sed -n 's/^ *\[ *[0-9a-f]*\] *//p' |
			while read -r ev cl; do
				if grep -q "^$u .* $cl " "$out/logs/offsyms.txt" 2>/dev/null ||
				   grep -q "^$u $cl " "$out/logs/offsyms.txt" 2>/dev/null; then
					syms=$(awk -v u="$u" -v c="$cl" '$1 == u && $2 == c { $1 = $2 = ""; print }' "$out/logs/offsyms.txt" | sed 's/^ *//')
					echo "$ev	not exported by vmlinux: $syms" >> "$out/exclusions.txt"
				elif grep -q "^$u $ev " "$out/logs/unexpanded.txt" 2>/dev/null; then
					why=$(awk -v u="$u" -v e="$ev" '$1 == u && $2 == e { $1 = $2 = ""; print }' "$out/logs/unexpanded.txt" | sed 's/^ *//')
					echo "$ev	print fmt keeps a helper the kernel's own unit expands (its definition is not visible here): $why" >> "$out/exclusions.txt"
				else
					echo "$ev $cl $h" >> "$out/events.txt"
				fi
			done
	else
		why=$(grep "^$u link:" "$out/logs/linkfail.txt" 2>/dev/null | sed 's/^[^ ]* //' | head -1)
		[ -n "$why" ] || why="compile: $(first_error "$out/logs/$u.log")"
		echo "$h	$why" >> "$out/exclusions.txt"
		text_events "$(hdr_file "$h")" | sed "s|^|  (named in $h) |" >> "$out/exclusions.txt"
	fi
done < "$out/headers.txt"

# What no header of KDIR defines. Syscall events come from the syscall
# table, not from trace headers.
printf 'syscalls:*\tnot generated from trace headers (khist serves syscalls:sys_enter_/sys_exit_ openat and read, hand-written)\n' \
	>> "$out/exclusions.txt"
if [ -n "$ksrc" ]; then
	# the driver-, fs- and net-local trace headers of the source tree
	(cd "$ksrc" && grep -rl --include='*.h' '^#define TRACE_SYSTEM' \
		drivers fs net sound kernel mm block lib security crypto include \
		io_uring virt arch/x86 2>/dev/null) | sort |
		while read -r f; do
			case $f in
			include/trace/events/* | arch/x86/include/asm/trace/*) continue ;;
			esac
			text_events "$ksrc/$f" |
				sed "s|^|  (named in $f, a local trace header: not compiled) |"
		done >> "$out/exclusions.txt"
else
	printf '*:*\tnot in the headers package: the events of driver-, fs- and net-local trace headers are known with KSRC only\n' \
		>> "$out/exclusions.txt"
fi

nh=$(wc -l < "$out/headers.txt")
nu=$(grep -c 'khist-y += units/' "$out/Kbuild" || true)
ne=$(wc -l < "$out/events.txt")
nx=$(grep -c 'not exported' "$out/exclusions.txt" || true)
nq=$(grep -c 'print fmt keeps a helper' "$out/exclusions.txt" || true)
nt=$(grep -c '^  (named in' "$out/exclusions.txt" || true)
{
	echo "kernel: $(cat "$out/release.txt")"
	echo "source tree: ${ksrc:-none (headers package only)}"
	echo "trace headers tried: $nh"
	echo "headers compiled and linked: $nu"
	echo "events served: $ne"
	echo "events left out (non-exported symbol in their assign): $nx"
	echo "events left out (print fmt keeps an unexpanded helper): $nq"
	echo "events named in the text of headers that did not compile: $nt"
	echo "top reasons a header did not compile:"
	grep -v '^  (named in' "$out/exclusions.txt" | grep -v -e 'not exported' -e 'print fmt keeps' |
		cut -f2 | sed "s/'[^']*'/'X'/g" | sort | uniq -c | sort -rn | head -8
} > "$out/summary.txt"
cat "$out/summary.txt"
