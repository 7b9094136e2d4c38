#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - build the libFuzzer targets of selftests/fuzz and run each one
# for FUZZ_SECONDS (`make fuzz FUZZ_SECONDS=N`). Prints, per target, the
# executions done and the crashes found; exits non-zero when a target
# crashed (sanitizer report, failed check, timeout or out of memory).
#
# Environment:
#   FUZZ_SECONDS   seconds per target (60)
#   FUZZ_RUNS      stop a target after this many executions instead (the
#                  long run: FUZZ_RUNS=10000000 FUZZ_SECONDS=0)
#   FUZZ_TARGETS   space-separated subset (default: every *_fuzz.c)
#   FUZZ_OUT       work directory (build/fuzz); per target:
#                    corpus/<t>/   what the run found, seeded from
#                                  selftests/fuzz/corpus/<t>/ (never written)
#                    crashes/<t>/  crashing inputs (crash-, timeout-, oom-)
#                    <t>.log       libFuzzer's output
#   FUZZ_NICE      niceness of the build and the fuzzers (0; the long
#                  run uses 19)
#
# Reproduce a crash: build/fuzz/<t>_fuzz build/fuzz/crashes/<t>/crash-...
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/selftests/fuzz
out=${FUZZ_OUT:-$top/build/fuzz}
secs=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-}
nice_n=${FUZZ_NICE:-0}

nice -n "$nice_n" make -s -C "$here" OUT="$out" ||
	{ echo "fuzz: build failed" >&2; exit 1; }
targets=${FUZZ_TARGETS:-$(make -s -C "$here" OUT="$out" list)}

# Per-target input size limits: one trigger write, one filter plus a
# record, a few hundred map operations.
max_len() {
	case $1 in
	hist) echo 4160 ;;
	filter) echo 4700 ;;
	map) echo 512 ;;
	split) echo 20000 ;;
	trace2) echo 8192 ;;
	*) echo 4096 ;;
	esac
}

# Quarantine kept small: several fuzzers share the machine.
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

rc=0
total=0
for t in $targets; do
	bin=$out/${t}_fuzz
	seeds=$here/corpus/$t
	work=$out/corpus/$t
	crashes=$out/crashes/$t
	log=$out/$t.log
	mkdir -p "$work" "$crashes" "$seeds"
	set -- -max_len="$(max_len "$t")" -timeout=20 -rss_limit_mb=2048 \
		-artifact_prefix="$crashes/" -print_final_stats=1
	[ -f "$here/$t.dict" ] && set -- "$@" -dict="$here/$t.dict"
	[ "$secs" -gt 0 ] && set -- "$@" -max_total_time="$secs"
	[ -n "$runs" ] && set -- "$@" -runs="$runs"
	before=$(ls "$crashes" | wc -l)
	start=$(date +%s)
	nice -n "$nice_n" "$bin" "$@" "$work" "$seeds" >"$log" 2>&1
	frc=$?
	end=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	[ -n "$execs" ] ||
		execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	crashed=$(($(ls "$crashes" | wc -l) - before))
	[ $frc -ne 0 ] && [ $crashed -eq 0 ] && crashed=1
	total=$((total + crashed))
	echo "fuzz: $t: ${execs:-0} executions in $((end - start)) s, $crashed crashes, corpus $(ls "$work" | wc -l) (+$(ls "$seeds" | wc -l) seeds)"
	if [ $frc -ne 0 ]; then
		rc=1
		grep -E '^(==[0-9]+==ERROR|SUMMARY|[a-z_]+_fuzz: |.*runtime error)' "$log" |
			head -n 5 | sed 's/^/  /'
		ls -t "$crashes" | head -n 3 | sed "s|^|  saved: $crashes/|"
	fi
done
echo "fuzz: $total crashes"
exit $rc
