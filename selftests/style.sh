#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# style.sh all|checkpatch|clang-format|sparse|w1|kdoc|includes|layers|format
# - khist's style gates, each printed as one TAP line (details as # lines).
#   checkpatch    scripts/checkpatch.pl --strict from linux-source-6.12
#   clang-format  the kernel's .clang-format, --dry-run --Werror
#   sparse        make C=2 against the 6.12 headers, no warning in our files
#   w1            W=1 builds against 6.1 and 6.12, zero warnings
#   kdoc          scripts/kernel-doc -none -Wall on every kernel source, and
#                 a Context: line in the kernel-doc of every non-static
#                 function (selftests/kdoc-context.pl)
#   includes      no "../" include in module/ or include/, and no module/
#                 include from include/
#   layers        the layer rule on the 6.12 objects (selftests/layers.sh)
#   format        rewrite the sources with clang-format (not a check)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
KSRC=${KHIST_CACHE:-/var/cache/khist}/linux-source-6.12
rc=0

# Kernel-side C sources and headers; userspace tests and tools keep the
# same formatting but checkpatch and kernel-doc only look at kernel code.
kernel_files() {
	git ls-files 'module/*.[ch]' 'include/*.h' 'selftests/modules/*.[ch]'
}
c_files() {
	git ls-files '*.[ch]'
}

report() { # name status logfile
	if [ "$2" -eq 0 ]; then
		echo "ok - style/$1"
	else
		echo "not ok - style/$1"
		sed 's/^/# /' "$3" | head -n 60
		rc=1
	fi
}

# Headers that give the event vocabulary (TP_STRUCT__entry, __field, ...)
# a new meaning at each stage of define_event.h: a macro that drops an
# argument or expands to a list of declarations is the point there.
vocab_files() {
	git ls-files 'include/khist/stages/*.h' include/khist/tracepoint.h \
		'include/khist/tp/stage_*.h' include/khist/tp/reset.h \
		include/khist/tp/define.h \
		include/khist/define_event.h
}
# Event definition headers (KHIST_TRACE_EVENT() users): laid out as the
# kernel's include/trace/events/ headers are, and TP_printk()'s argument
# text is the "print fmt" line of the format file, spacing included.
event_files() {
	kernel_files | xargs grep -l '^#include <khist/tracepoint.h>'
}

do_checkpatch() {
	log=$(mktemp)
	# FILE_PATH_CHANGES and SPDX on headers do not apply to an out-of-tree
	# module's file list; everything else is kept strict.
	cp="perl $KSRC/scripts/checkpatch.pl --no-tree --strict --terse"
	cp="$cp --show-types --no-summary -f --ignore FILE_PATH_CHANGES"
	special=$(mktemp)
	{ vocab_files; event_files; ls module/compat/*.h; } >"$special"
	kernel_files | grep -v -x -F -f "$special" | grep -v '/tests/' |
		xargs $cp >"$log" 2>&1
	# expected-output tables in tests keep their strings whole.
	kernel_files | grep -e '/tests/' |
		xargs $cp --ignore LONG_LINE,LONG_LINE_STRING >>"$log" 2>&1
	# Version comparisons are module/compat/'s job (constant on the left
	# is how every out-of-tree module writes them).
	$cp --ignore CONSTANT_COMPARISON,LINUX_VERSION_CODE \
		module/compat/*.h >>"$log" 2>&1
	ign=MACRO_ARG_UNUSED,MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE,COMPLEX_MACRO
	ign=$ign,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON
	ign=$ign,FUNCTION_ARGUMENTS
	vocab_files | xargs $cp --ignore $ign >>"$log" 2>&1
	ign=OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,LONG_LINE,SPACING
	event_files | xargs $cp --ignore $ign >>"$log" 2>&1
	grep -q . "$log" && s=1 || s=0
	report checkpatch $s "$log"
	rm -f "$log" "$special"
}

do_clang_format() {
	log=$(mktemp)
	c_files | xargs clang-format --dry-run --Werror >"$log" 2>&1
	s=$?
	report clang-format $s "$log"
	rm -f "$log"
}

do_format() {
	c_files | xargs clang-format -i
}

# One Kbuild run against KVER's headers into a tree of links, with the
# syscall table generated as make module does; its log in $log, its exit
# code in $s. Extra make arguments follow. KHIST_JOBS=N: N make jobs
# (default: one per CPU).
kbuild() {
	kver=$1
	shift
	log=$(mktemp)
	out=$(mktemp -d)
	sh selftests/vm/linktree.sh "$top" "$out"
	kdir=$(sh selftests/vm/kernel.sh headers "$kver")
	sh tools/tpgen/syscalls.sh "$kdir" "$out/scgen" >/dev/null
	make -s -j"${KHIST_JOBS:-$(nproc)}" -C "$kdir" M="$out" KHIST_TESTMODS=y "$@" modules >"$log" 2>&1
	s=$?
}

# sparse_report - the sparse gate on a build's log: no warning in our files.
sparse_report() {
	ss=$s
	grep -E "^$out/.*(warning|error):" "$log" >"$log.ours" && ss=1
	[ $ss -ne 0 ] && cat "$log.ours" "$log" >"$log.all" || : >"$log.all"
	report sparse $ss "$log.all"
	rm -f "$log.ours" "$log.all"
}

# w1_report KVER - the W=1 gate on a build's log: no warning at all.
w1_report() {
	ws=$s
	grep -E "warning:|error:" "$log" | grep -v "Skipping BTF" >/dev/null && ws=1
	report "w1-$1" $ws "$log"
}

do_sparse() {
	kbuild 6.12 C=2 "CHECK=sparse -Wno-declaration-after-statement"
	sparse_report
	rm -rf "$log" "$out"
}

do_w1() {
	for kver in 6.1 6.12; do
		kbuild $kver W=1
		w1_report $kver
		rm -rf "$log" "$out"
	done
}

# all: W=1 on 6.1, then W=1 and sparse in one build on 6.12 (each file
# compiled once, checked by both).
do_w1_sparse() {
	kbuild 6.1 W=1
	w1_report 6.1
	rm -rf "$log" "$out"
	kbuild 6.12 W=1 C=2 "CHECK=sparse -Wno-declaration-after-statement"
	w1_report 6.12
	sparse_report
	rm -rf "$log" "$out"
}

do_layers() {
	log=$(mktemp)
	sh selftests/layers.sh >"$log" 2>&1
	s=$?
	report layers $s "$log"
	rm -f "$log"
}

# Include style: headers of another directory are included from module/
# ("events/events.h"), public ones as <khist/...>; never "../", and the
# public headers never include module/.
do_includes() {
	log=$(mktemp)
	git ls-files 'module/*.[ch]' 'include/*.h' 'selftests/modules/*.[ch]' |
		xargs grep -n '^#[[:space:]]*include[[:space:]]*"\.\./' >"$log"
	git ls-files 'include/*.h' |
		xargs grep -nE '^#[[:space:]]*include[[:space:]]*[<"][^>"]*module/' \
		>>"$log"
	grep -q . "$log" && s=1 || s=0
	report includes $s "$log"
	rm -f "$log"
}

do_kdoc() {
	log=$(mktemp)
	kernel_files | xargs perl "$KSRC/scripts/kernel-doc" -none -Wall \
		>"$log" 2>&1
	# khist's rule on top: every non-static function has a kernel-doc
	# comment, and the comment says in which context it may be called.
	kernel_files | grep -v '/tests/' |
		xargs perl selftests/kdoc-context.pl >>"$log" 2>&1
	grep -q . "$log" && s=1 || s=0
	report kernel-doc $s "$log"
	rm -f "$log"
}

case "${1:-all}" in
all)
	do_checkpatch
	do_clang_format
	do_includes
	do_kdoc
	do_w1_sparse
	do_layers
	;;
checkpatch) do_checkpatch ;;
clang-format) do_clang_format ;;
format) do_format ;;
sparse) do_sparse ;;
w1) do_w1 ;;
kdoc) do_kdoc ;;
includes) do_includes ;;
layers) do_layers ;;
*) echo "usage: style.sh all|checkpatch|clang-format|sparse|w1|kdoc|includes|layers|format" >&2; exit 2 ;;
esac
exit $rc
