#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - the khist command in the test VM: built static
# (tools/khist/Makefile) into ROOT/bin/khist, and the fuzz corpora as
# text, one command a line (ROOT/selftests/tools/corpus/<target>.txt), for
# test.d/tools/tools-check.tc. Inputs that are not one line of printable
# text (no newline, no control byte, no '#', which the command files strip
# as a comment) cannot be written as a command and are left out.
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
make -s -C "$top/tools/khist" >/dev/null
cp "$top/build/tools/khist" "$1/bin/khist"
out=$1/selftests/tools/corpus
mkdir -p "$out"
python3 - "$top/selftests/fuzz/corpus" "$out" <<'PY'
import os, re, sys
src, out = sys.argv[1], sys.argv[2]
ok = re.compile(rb'[ -"$-~]{1,1000}')
for t in ('hist', 'filter', 'synth', 'eprobe'):
    lines = set()
    for n in os.listdir(os.path.join(src, t)):
        with open(os.path.join(src, t, n), 'rb') as f:
            b = f.read().replace(b'\n', b'')
        if ok.fullmatch(b):
            lines.add(b.decode())
    with open(os.path.join(out, t + '.txt'), 'w') as f:
        f.writelines(l + '\n' for l in sorted(lines))
PY
# The differential suites' trigger strings as "system/event<TAB>trigger",
# each of a case's " ;; "-separated triggers on its own line, @PID@ and
# @COMM@ made concrete.
for f in "$top"/selftests/fs/histdiff/corpus/*.hd; do
	grep -v '^#' "$f" | awk '{
		ev = ""
		for (i = 2; i <= NF && i < 5; i++)
			if ($i ~ /^[a-z_0-9]+\/[a-z_0-9]+$/) { ev = $i; break }
		t = index($0, "hist:")
		if (ev == "" || !t) next
		n = split(substr($0, t), parts, / ;; /)
		for (j = 1; j <= n; j++) print ev "\t" parts[j]
	}' | sed -e 's/@PID@/1/g' -e 's/@COMM@/hdwl/g'
done | LC_ALL=C sort -u > "$out/histdiff.txt"
