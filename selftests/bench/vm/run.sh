#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh KVER MODDIR - khist's per-event benchmark against the native
# kernel's hist triggers and ring buffer (make bench). Documentation/
# performance.rst describes the method and keeps the figures.
#
# Boots Debian's kernel KVER twice with the modules of MODDIR:
#   icount  one vCPU, QEMU -icount shift=0: a guest ns is one instruction,
#           so every figure is an instruction count and repeats exactly;
#           every single-CPU row, the 10^5-entry hist read and its memory
#   smp     two vCPUs, real time: row f, a ratio within that boot
#   mttcg   the rows of smp (named t...) on multi-threaded TCG, each vCPU
#           on a host thread of its own: the guest's second CPU is online
#           only while a workload runs (tracepoints are patched with one
#           CPU online); needs an otherwise idle host with 2 cores. Not in
#           the default modes.
# and prints a table. Never fails on speed: the exit status is non-zero
# only when a VM did not finish or a sanity check failed (native setup,
# hist totals, records written).
#
# Environment:
#   KHIST_BENCH_OUT     output directory (default build/bench-KVER): raw
#                       results, consoles, table.txt
#   KHIST_BENCH_MODES   "icount smp" (default) or one of them
#   KHIST_BENCH_ROUNDS  rounds per boot (default 3 icount, 7 smp)
#   KHIST_BENCH_ITERS   events per measurement (default 50000; ping-pong
#                       does a tenth as many round trips)
#   KHIST_BENCH_ONLY    only these rows and their baselines, e.g.
#                       "c cn i2" ("read": the hist read)
#   KHIST_BENCH_APPEND  more kernel command line, e.g. a variant's module
#                       parameters: "khbench.param=khist.NAME=VALUE ..."
#                       (the guest writes them to /sys/module/*/parameters)
#   KHIST_BENCH_TABLE   only tabulate the raw files already in the output
#                       directory (no VM)
set -u
kver=$1
moddir=$2
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=${KHIST_BENCH_OUT:-$top/build/bench-$kver}
modes=${KHIST_BENCH_MODES:-icount smp}
iters=${KHIST_BENCH_ITERS:-50000}
mkdir -p "$out"

rc=0
if [ -z "${KHIST_BENCH_TABLE:-}" ]; then
	bin=$out/khbench
	gcc -O2 -Wall -Wextra -static -pthread -o "$bin" \
		"$top/selftests/bench/vm/khbench.c" || {
		echo "not ok - bench-$kver/build khbench"
		exit 1
	}
	# A new run never mixes with the raw results of an older one.
	rm -f "$out"/raw-*.txt "$out"/*.tap
	for mode in $modes; do
		case $mode in
		icount)
			smp=1
			qemu="-icount shift=0"
			rounds=${KHIST_BENCH_ROUNDS:-3}
			;;
		smp)
			smp=2
			qemu=
			rounds=${KHIST_BENCH_ROUNDS:-7}
			;;
		mttcg)
			smp=2
			qemu=
			rounds=${KHIST_BENCH_ROUNDS:-7}
			;;
		*)
			echo "bench: unknown mode $mode" >&2
			exit 2
			;;
		esac
		accel=tcg,thread=single
		extra=
		if [ "$mode" = mttcg ]; then
			accel=tcg,thread=multi
			extra=maxcpus=1
		fi
		only=$(echo "${KHIST_BENCH_ONLY:-}" | tr ' ' ,)
		echo "# bench: $kver, $mode boot ($rounds rounds)"
		rm -f "$out/$mode.tap"
		if ! KHIST_BENCH_BIN=$bin KHIST_VM_OUT=$out/vm-$mode \
			KHIST_VM_SCRIPT=selftests/bench/vm/guest.sh \
			KHIST_VM_SMP=$smp KHIST_VM_QEMU=$qemu \
			KHIST_VM_ACCEL=$accel \
			KHIST_VM_TIMEOUT=${KHIST_VM_TIMEOUT:-1800} \
			KHIST_VM_APPEND="$extra khbench.mode=$mode khbench.rounds=$rounds khbench.iters=$iters${only:+ khbench.only=$only} ${KHIST_BENCH_APPEND:-}" \
			nice sh "$top/selftests/vm/run.sh" script "$kver" "$moddir" \
			> "$out/$mode.tap"; then
			rc=1
		fi
		grep -E '^(ok|not ok)' "$out/$mode.tap"
		tr -d '\r' < "$out/vm-$mode/results.tap" > "$out/raw-$mode.txt" \
			2>/dev/null
	done
fi

tabulate() {
	awk -v kver="$kver" '
	function median(list,    n, a, i, j, t) {
		n = split(list, a, " ")
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] + 0 < a[i] + 0) {
					t = a[i]; a[i] = a[j]; a[j] = t
				}
		if (n % 2)
			return a[(n + 1) / 2]
		return (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function minof(list,    n, a, i, m) {
		n = split(list, a, " ")
		m = a[1]
		for (i = 2; i <= n; i++)
			if (a[i] + 0 < m + 0)
				m = a[i]
		return m
	}
	function spread(list,    n, a, i, lo, hi) {
		n = split(list, a, " ")
		lo = hi = a[1]
		for (i = 2; i <= n; i++) {
			if (a[i] + 0 < lo + 0) lo = a[i]
			if (a[i] + 0 > hi + 0) hi = a[i]
		}
		return hi - lo
	}
	FNR == 1 { mode = (FILENAME ~ /raw-(smp|mttcg)/) ? "smp" : "icount" }
	/^# M kernel / { krel = $4 }
	/^# R / {
		k = $3 SUBSEP $4
		# icount: the mean of a run; smp: the fastest batch
		v = (mode == "smp") ? $7 : $6
		vals[k] = vals[k] " " v
	}
	/^# E / {
		k = $3 SUBSEP $4
		t = $0
		sub(/^# E [^ ]* [^ ]* /, "", t)
		err[k] = t
	}
	/^# READ / { rd[$3] = $4; rdb[$3] = $5; rde[$3] = $6 }
	/^# MEM / { mc[$3] = $4; mf[$3] = $5; msz[$3] = $6; me[$3] = $7 }
	function val(c, s,    k) {
		k = c SUBSEP s
		if (!(k in vals))
			return ""
		return (c ~ /^t?(a2|f|f2|fb)$/) ? minof(vals[k]) : median(vals[k])
	}
	function fmt(x) { return x == "" ? "n/a" : sprintf("%.1f", x) }
	function abs(c, what) {
		if (val(c, "-") != "")
			printf "%-4s %-44s %9s\n", c, what, fmt(val(c, "-"))
	}
	function row(c, base, floor, what,    n, kk, bn, nv, kv, r, rf, sp, ks, ns) {
		bn = val(base, "-")
		nv = val(c, "native"); kv = val(c, "khist")
		if (nv == "" && kv == "" && !((c SUBSEP "khist") in err))
			return
		if (nv != "" && bn != "") nv -= bn; else nv = ""
		if (kv != "" && bn != "") kv -= bn; else kv = ""
		r = (nv != "" && kv != "" && nv > 0) ? sprintf("%.2f", kv / nv) : "-"
		rf = "-"
		if (floor != "" && val(floor, "-") != "" && nv != "" && kv != "") {
			fl = val(floor, "-") - bn
			if (nv - fl > 0)
				rf = sprintf("%.2f", (kv - fl) / (nv - fl))
		}
		ks = (kv == "") ? "n/a" : fmt(kv)
		ns = (nv == "") ? "n/a" : fmt(nv)
		sp = 0
		if ((c SUBSEP "native") in vals) sp = spread(vals[c SUBSEP "native"])
		if (((c SUBSEP "khist") in vals) && spread(vals[c SUBSEP "khist"]) > sp)
			sp = spread(vals[c SUBSEP "khist"])
		printf "%-4s %-44s %9s %9s %7s %7s %6.1f\n", c, what, ns, ks, r, rf, sp
		if (kv == "" && ((c SUBSEP "khist") in err))
			printf "     khist: %s\n", substr(err[c SUBSEP "khist"], 1, 150)
		if (nv == "" && ((c SUBSEP "native") in err))
			printf "     native: %s\n", substr(err[c SUBSEP "native"], 1, 150)
	}
	function one(c, s, base, what,    v, bn) {
		v = val(c, s); bn = (base == "") ? 0 : val(base, "-")
		if (v == "")
			return
		printf "%-4s %-44s %9s\n", c, what, fmt(v - bn)
	}
	# the rows of the smp boot, or of the mttcg boot (prefix t)
	function smprows(p, title) {
		if (val(p "a2", "-") == "")
			return
		print ""
		print title
		abs(p "a2", "getppid() x 2 threads, no tracing (absolute)")
		row(p "f", p "a2", "", "hist:keys=id, same key from both CPUs")
		row(p "f2", p "a2", "", "hist:keys=common_pid, a key per thread")
		row(p "fb", p "a2", "", "sys_enter enabled, ring buffer")
	}
	END {
		printf "khist bench, %s (%s)\n", kver, krel
		if (val("a", "-") != "") {
			print "icount boot: ns = guest instructions; median of the rounds; per event above the baseline"
			printf "%-4s %-44s %9s %9s %7s %7s %6s\n", "row", "configuration", "native", "khist", "k/n", "k-i/n-i", "spread"
			abs("a", "getppid() loop, no tracing (absolute)")
			one("i", "-", "a", "empty probe on sys_enter (floor)")
			one("i2", "khist", "a", "khist probe, soft use, no record built")
			row("b", "a", "i", "sys_enter enabled, ring buffer")
			row("c", "a", "i", "hist:keys=common_pid")
			row("d", "a", "i", "keys=common_pid,id vals=hitcount,id,pc")
			row("cf", "a", "i", "c + if id == 110 (always true)")
			row("cn", "a", "i", "c + if id == 0 (never true: no update)")
			row("c3", "a", "i", "c + 3 predicates && (always true)")
			row("g", "a", "i", "latency pair enter/exit onmax (per pair)")
			abs("ak", "ENOSYS sweep, no tracing (absolute)")
			row("e", "ak", "", "keys=id, 10^4 distinct keys")
			row("eg", "ak", "", "e, size=128 growing (native: fixed 16384)")
			row("e2", "ak", "", "keys=id size=131072, 10^5 inserts (1 run)")
			row("h1", "ak", "", "keys=id.log2, 10^4 ids")
			row("h2", "ak", "", "keys=id.buckets=64, 10^4 ids")
			row("q", "ak", "", "vals=id.quantiles (native: vals=id)")
			row("qs", "ak", "", "vals=id.stats (native: vals=id)")
			abs("as", "pipe ping-pong, per switch (absolute)")
			one("si", "-", "as", "empty probe on sched_switch (floor)")
			row("sb", "as", "si", "sched_switch enabled, ring buffer")
			row("sc", "as", "si", "sched_switch hist:keys=common_pid")
			row("sd", "as", "si", "keys=prev_pid,next_pid vals=3")
			row("sg", "as", "si", "waking->switch latency, onmax (per switch)")
			one("ki", "-", "a", "empty kprobe on __x64_sys_getppid (floor)")
			row("kb", "a", "ki", "kprobe event enabled, ring buffer")
			row("kc", "a", "ki", "kprobe hist:keys=common_pid")
			row("kd", "a", "ki", "kprobe 2 args, keys=common_pid,nr vals=flags")
			row("kn", "a", "ki", "kc + if common_pid == 0 (never true)")
			row("kl", "a", "ki", "kprobe+kretprobe latency onmax (per call)")
			abs("am", "poll(31 fds): 1 kmalloc (absolute)")
			one("mi", "-", "am", "empty probe on kmalloc (floor)")
			row("mb", "am", "mi", "kmalloc enabled, ring buffer")
			row("mc", "am", "mi", "kmalloc hist:keys=common_pid")
			row("md", "am", "mi", "keys=call_site,bytes_req vals=bytes_alloc")
		}
		smprows("", "smp boot (2 vCPUs, single-threaded TCG, real time): 2 threads x N, wall per thread-iteration, min over rounds, above a2")
		smprows("t", "mttcg boot (2 vCPUs, multi-threaded TCG, real time): as smp")
		if (("native" in rd) || ("khist" in rd)) {
			print ""
			print "hist of 10^5 entries (keys=id, size=131072): one read(), guest ns; memory from MemFree"
			printf "%-7s %14s %10s %8s %11s %11s %8s\n", "side", "read ns", "bytes", "entries", "create KiB", "fill KiB", "B/entry"
			for (s = 0; s < 2; s++) {
				sd = s ? "khist" : "native"
				if (!(sd in rd)) {
					printf "%-7s %14s\n", sd, "n/a"
					continue
				}
				printf "%-7s %14s %10s %8s %11s %11s %8.0f\n", sd, rd[sd], rdb[sd], rde[sd], \
					mc[sd], mf[sd], (me[sd] > 0) ? (mc[sd] + mf[sd]) * 1024 / me[sd] : 0
			}
			if (("native" in rd) && ("khist" in rd) && rd["native"] > 0)
				printf "read time khist/native: %.2f\n", rd["khist"] / rd["native"]
		}
	}' "$@"
}

raws=
for f in "$out/raw-icount.txt" "$out/raw-smp.txt" "$out/raw-mttcg.txt"; do
	[ -s "$f" ] && raws="$raws $f"
done
if [ -n "$raws" ]; then
	# shellcheck disable=SC2086
	tabulate $raws | tee "$out/table.txt"
fi
grep -h '^not ok' "$out"/*.tap 2>/dev/null | head -20 >&2
exit $rc
