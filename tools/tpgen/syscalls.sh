#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# syscalls.sh KDIR OUT - the table of syscalls:sys_enter_<name> /
# sys_exit_<name> events for KDIR's kernel (x86_64), written to
# OUT/khist_syscalls.h (included by module/events/syscalls.c) with
# OUT/sc_exclusions.txt (the table entries left out, and why), which also
# replaces the syscalls line of OUT/../tpgen/exclusions.txt when that
# exists (tools/tpgen/module.sh runs first).
#
# The syscall numbers and entry names come from KDIR's generated
# asm/syscalls_64.h. Each entry's argument types and names are what ftrace
# shows, that is the SYSCALL_DEFINEn() of its definition with the types
# as the preprocessor leaves them (__user gone):
#  - with KSRC (the matching source tree, as tools/tpgen/ksrc.sh chooses
#    it for module.sh too: $KSRC, else
#    /var/cache/khist/linux-source-<major.minor> when its version is
#    KDIR's; KSRC=none for none), from the definitions
#    themselves: every .c file of the core kernel and arch/x86 that holds
#    one is run through the preprocessor with KDIR's configuration and
#    x86's __ARCH_WANT_* (its #include lines dropped), so that #ifdef'd
#    variants (clone's argument order) resolve as in the build;
#  - without it, from the prototypes of include/linux/syscalls.h.
# An entry with no definition found is listed in sc_exclusions.txt.
set -eu
kdir=$1
out=$2
tbl=$kdir/arch/x86/include/generated/asm/syscalls_64.h
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ksrc.sh"
mkdir -p "$out"
# The compiler for the preprocessor runs: $CC when it names a program (as
# DKMS sets it), else gcc. DKMS run from a make sets CC to whatever its
# own make printed, "make[1]: Entering directory ..." included.
cc=gcc
if [ -n "${CC:-}" ] && command -v "${CC%% *}" > /dev/null 2>&1; then
	cc=$CC
elif [ -n "${CC:-}" ]; then
	echo "khist: syscall table: CC='$CC' is not a compiler; using gcc" >&2
fi
tmp=${KHIST_SC_TMP:-$(mktemp -d)}; mkdir -p "$tmp"
[ -n "${KHIST_SC_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$tbl" ]; then
	echo "khist: $tbl missing: no syscall events" >&2
	: > "$tmp/table"
else
	sed -n 's/^__SYSCALL[A-Z_]*(\([0-9]*\), *sys_\([a-z0-9_]*\))$/\1 \2/p' "$tbl" > "$tmp/table"
fi

# The definitions, one line each: NAME NARGS|TYPE|ARG|TYPE|ARG...
if [ -n "$ksrc" ]; then
	cat > "$tmp/prelude.h" <<-'EOF'
	#define __user
	#define KSC_T(t, a) #t
	#define KSC_A(t, a) #a
	#define KSC_M1(m, t, a) m(t, a)
	#define KSC_M2(m, t, a, ...) m(t, a) "|" KSC_M1(m, __VA_ARGS__)
	#define KSC_M3(m, t, a, ...) m(t, a) "|" KSC_M2(m, __VA_ARGS__)
	#define KSC_M4(m, t, a, ...) m(t, a) "|" KSC_M3(m, __VA_ARGS__)
	#define KSC_M5(m, t, a, ...) m(t, a) "|" KSC_M4(m, __VA_ARGS__)
	#define KSC_M6(m, t, a, ...) m(t, a) "|" KSC_M5(m, __VA_ARGS__)
	#define KSC_PAIR(t, a) KSC_T(t, a) "|" KSC_A(t, a)
	#define KSC_DEFx(n, name, ...) @KHIST_SC@ name n KSC_M##n(KSC_PAIR, __VA_ARGS__) @KHIST_SC_END@
	#define SYSCALL_DEFINE0(name) @KHIST_SC@ name 0 @KHIST_SC_END@
	#define SYSCALL_DEFINE1(name, ...) KSC_DEFx(1, name, __VA_ARGS__)
	#define SYSCALL_DEFINE2(name, ...) KSC_DEFx(2, name, __VA_ARGS__)
	#define SYSCALL_DEFINE3(name, ...) KSC_DEFx(3, name, __VA_ARGS__)
	#define SYSCALL_DEFINE4(name, ...) KSC_DEFx(4, name, __VA_ARGS__)
	#define SYSCALL_DEFINE5(name, ...) KSC_DEFx(5, name, __VA_ARGS__)
	#define SYSCALL_DEFINE6(name, ...) KSC_DEFx(6, name, __VA_ARGS__)
	EOF
	# x86_64's __ARCH_WANT_* and the configuration, as macros.
	inc="-I$ksrc/arch/x86/include -I$kdir/arch/x86/include/generated
	     -I$ksrc/include -I$kdir/include
	     -I$ksrc/arch/x86/include/uapi -I$kdir/arch/x86/include/generated/uapi
	     -I$ksrc/include/uapi -I$kdir/include/generated/uapi"
	# shellcheck disable=SC2086
	printf '#include <linux/kconfig.h>\n#include <asm/unistd.h>\n' |
		$cc -E -dM -undef -D__KERNEL__ -D__x86_64__ $inc - 2> "$tmp/cpp.err" |
		grep -E '^#define (CONFIG_|__ARCH_WANT_|IS_ENABLED|IS_BUILTIN|IS_MODULE|IS_REACHABLE|__is_defined|__or|__and|__take_second_arg|___is_defined|____is_defined|____or|___or|____and|___and|__ARG_PLACEHOLDER_1|__KERNEL__|__x86_64__)' \
		> "$tmp/config.h" || true
	if ! grep -q '^#define CONFIG_X86_64 1' "$tmp/config.h"; then
		echo "khist: syscall table: cannot read KDIR's configuration (see below); from the prototypes" >&2
		sed 's/^/  /' "$tmp/cpp.err" | head -5 >&2
		ksrc=
	fi
fi
if [ -n "$ksrc" ]; then
	# Files that hold definitions: the core kernel's and x86's, without
	# the alternatives that never build for x86_64 with an MMU.
	(cd "$ksrc" && grep -rlE --include='*.c' '^[[:space:]]*SYSCALL_DEFINE[0-6]\(' \
		--exclude-dir=arch --exclude-dir=tools --exclude-dir=samples \
		--exclude-dir=Documentation . &&
		grep -rlE --include='*.c' '^[[:space:]]*SYSCALL_DEFINE[0-6]\(' arch/x86) |
		sed 's|^\./||' |
		grep -v -E '^arch/x86/(um|ia32)/|_32\.c$|(^|/)nommu\.c$|/posix-stubs\.c$' |
		sort > "$tmp/files"
	while read -r f; do
		# shellcheck disable=SC2086
		sed -e 's/^[[:space:]]*#[[:space:]]*\(include\|error\|warning\).*$//' "$ksrc/$f" |
			$cc -E -P -undef -w -D__KERNEL__ -D__x86_64__ \
				-DBITS_PER_LONG=64 -include "$tmp/config.h" \
				-include "$tmp/prelude.h" -x c - 2>/dev/null |
			tr '\n' ' ' | sed 's/@KHIST_SC@/\n@KHIST_SC@/g' |
			sed -n 's/^@KHIST_SC@ *\([a-z0-9_]*\) *\([0-6]\) *\(.*\)@KHIST_SC_END@.*/\1 \2 \3/p' |
			sed "s|\$| @$f|" || true
		echo
	done < "$tmp/files" | grep . > "$tmp/raw"
	# NAME N "t" "|" "a" ... -> NAME N|t|a|...
	awk '{
		name = $1; n = $2; file = $NF
		line = $0
		sub(/^[^ ]+ [0-9] */, "", line)
		sub(/ *@[^ ]*$/, "", line)
		out = ""
		while (match(line, /"[^"]*"/)) {
			s = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
			if (s == "|")
				continue
			out = out "|" s
		}
		if (!(name in seen)) {
			seen[name] = 1
			print name " " n out
		}
	}' "$tmp/raw" > "$tmp/defs"
	src="the definitions in $ksrc"
else
	# Prototypes: [asmlinkage] long sys_NAME(TYPE ARG, ...); in the
	# generic header and x86's, with comments and directives removed
	# (a comment before a prototype would hide it).
	for h in "$srctree/include/linux/syscalls.h" "$srctree/arch/x86/include/asm/syscalls.h"; do
		[ -f "$h" ] || continue
		if ! $cc -fpreprocessed -E -P -x c "$h" > "$tmp/proto.i" 2> "$tmp/proto.err"; then
			echo "khist: syscall table: $cc cannot read $h:" >&2
			head -n 5 "$tmp/proto.err" | sed 's/^/  /' >&2
			continue
		fi
		grep -v '^[[:space:]]*#' "$tmp/proto.i" || true
	done | tr '\n' ' ' | sed 's/;/;\n/g' |
		sed -n 's/^[[:space:]]*\(asmlinkage \)\{0,1\}long sys_\([a-z0-9_]*\)(\(.*\));$/\2|\3/p' |
		awk -F'|' '{
			name = $1; args = $2
			gsub(/__user/, "", args)
			gsub(/[[:space:]]+/, " ", args)
			n = split(args, a, ",")
			if (n == 1 && a[1] ~ /^ *void *$/)
				n = 0
			out = ""
			bad = 0
			for (i = 1; i <= n; i++) {
				x = a[i]
				sub(/^ */, "", x); sub(/ *$/, "", x)
				match(x, /[A-Za-z0-9_]+$/)
				arg = substr(x, RSTART)
				t = substr(x, 1, RSTART - 1)
				sub(/ *$/, "", t)
				# An unnamed argument ("unsigned int", "int *"):
				# no field name to give it.
				if (t == "" || t ~ /^(const|struct|enum|union)$/ ||
				    arg ~ /^(int|long|char|short|unsigned|signed|void|size_t|u32|u64|__u32|__u64|pid_t|umode_t|off_t|loff_t|key_serial_t|aio_context_t|qid_t|rwf_t|timer_t|clockid_t|mqd_t|uid_t|gid_t)$/)
					bad = 1
				if (t ~ /\*$/) {
					sub(/ *\*$/, " *", t)
				}
				out = out "|" t "|" arg
			}
			if (bad)
				next
			if (!(name in seen)) {
				seen[name] = 1
				print name " " n out
			}
		}' > "$tmp/defs"
	src="the prototypes of $srctree/include/linux/syscalls.h"
fi

# The table's entries with a definition, in number order, as C; the
# others to the exclusions. An entry named twice keeps its last number
# (ftrace's events follow the last one too).
awk -v src="$src" -v hdr="$tmp/khist_syscalls.h" -v exc="$tmp/sc_exclusions.txt" '
	FILENAME == ARGV[1] {
		name = $1
		rest = $0
		sub(/^[^ ]+ /, "", rest)
		def[name] = rest
		next
	}
	{
		if ($2 == "ni_syscall")
			next
		if (!($2 in def)) {
			printf "syscalls:sys_enter_%s\tno SYSCALL_DEFINE of %s found in %s (not built for this configuration)\n", $2, $2, src > exc
			printf "syscalls:sys_exit_%s\tno SYSCALL_DEFINE of %s found in %s (not built for this configuration)\n", $2, $2, src > exc
			next
		}
		if (!($2 in nr))
			order[n++] = $2
		nr[$2] = $1
	}
	END {
		printf "/* SPDX-License-Identifier: GPL-2.0 */\n" > hdr
		printf "/* Generated by tools/tpgen/syscalls.sh from %s: do not edit. */\n", src > hdr
		maxnr = 0
		for (i = 0; i < n; i++) {
			name = order[i]
			k = split(def[name], a, "|")
			na = a[1]
			if (na > 0) {
				printf "static const struct khist_field_desc khist_sc_f_%s[] = {\n\tKHIST_SC_NR_FIELD,\n", name > hdr
				for (j = 0; j < na; j++)
					printf "\tKHIST_SC_ARG(\"%s\", \"%s\", %d),\n", a[3 + 2 * j], a[2 + 2 * j], j > hdr
				printf "};\n" > hdr
				printf "static const char *const khist_sc_a_%s[] = {", name > hdr
				for (j = 0; j < na; j++)
					printf " \"%s\",", a[3 + 2 * j] > hdr
				printf " };\n" > hdr
			}
		}
		printf "#define KHIST_SC_TABLE \\\n" > hdr
		for (i = 0; i < n; i++) {
			name = order[i]
			k = split(def[name], a, "|")
			na = a[1]
			fmt = "\\\""
			args = ""
			for (j = 0; j < na; j++) {
				fmt = fmt a[3 + 2 * j] ": 0x%08lx" (j == na - 1 ? "" : ", ")
				args = args ", ((unsigned long)(REC->" a[3 + 2 * j] "))"
			}
			fmt = fmt "\\\"" args
			if (na > 0)
				printf "\tKHIST_SC_ENT(%d, %s, %d, %d, khist_sc_f_%s, khist_sc_a_%s, \"%s\") \\\n", nr[name], name, na, na + 1, name, name, fmt > hdr
			else
				printf "\tKHIST_SC_ENT0(%d, %s, \"%s\") \\\n", nr[name], name, fmt > hdr
			if (nr[name] > maxnr)
				maxnr = nr[name]
		}
		printf "\t/* end */\n#define KHIST_SC_MAX_NR %d\n", maxnr > hdr
	}
' "$tmp/defs" "$tmp/table"
touch "$tmp/sc_exclusions.txt"
if [ -z "$ksrc" ] && [ -s "$tmp/table" ]; then
	printf 'syscalls:*\tunverified: argument types and names from the prototypes of include/linux/syscalls.h (no kernel source): they can differ from the native format (KSRC= gives the exact ones)\n' \
		>> "$tmp/sc_exclusions.txt"
fi
# Rewritten only when changed: Kbuild then rebuilds syscalls.o only then.
for f in khist_syscalls.h sc_exclusions.txt; do
	cmp -s "$tmp/$f" "$out/$f" || cp "$tmp/$f" "$out/$f"
done
# One exclusions file for the build: the generator's (module.sh), whose
# syscalls line this list replaces.
ex=$(dirname "$out")/tpgen/exclusions.txt
if [ -f "$ex" ]; then
	{ grep -v '^syscalls:' "$ex" || true; cat "$tmp/sc_exclusions.txt"; } > "$tmp/ex"
	cmp -s "$tmp/ex" "$ex" || cp "$tmp/ex" "$ex"
fi
nsc=$(grep -c KHIST_SC_ENT "$out/khist_syscalls.h" || true)
echo "khist: syscall events: $nsc of $(grep -vc ' ni_syscall$' "$tmp/table" || true) table entries, from $src"
if [ "$nsc" -eq 0 ] && [ -s "$tmp/table" ]; then
	echo "khist: WARNING: no syscall events: no definition of any syscall was read (see the lines above)" >&2
fi
