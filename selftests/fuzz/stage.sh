#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the fuzzing stage of `make check`: every target replays its
# committed corpus (selftests/fuzz/corpus/<t>/: seeds and inputs that once
# crashed) and then fuzzes for FUZZ_STAGE_SECONDS (5). Prints TAP; exits
# non-zero when a target crashed. Works in build/fuzz-stage/, so the
# corpus of `make fuzz` is not touched.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/selftests/fuzz
out=$top/build/fuzz-stage
secs=${FUZZ_STAGE_SECONDS:-5}

echo "TAP version 13"
if ! make -s -C "$here" >"$out.build.log" 2>&1; then
	echo "not ok 1 - fuzz/build"
	sed 's/^/# /' "$out.build.log" | tail -n 20
	exit 1
fi
rc=0
n=0
for t in $(make -s -C "$here" list); do
	bin=$top/build/fuzz/${t}_fuzz
	mkdir -p "$out/$t"
	# Replay: each committed input runs once.
	n=$((n + 1))
	inputs=$(ls "$here/corpus/$t" 2>/dev/null | wc -l)
	if "$bin" -runs=0 -timeout=20 -artifact_prefix="$out/$t/" \
		"$here/corpus/$t" >"$out/$t.replay.log" 2>&1; then
		echo "ok $n - fuzz/$t: corpus replay ($inputs inputs)"
	else
		echo "not ok $n - fuzz/$t: corpus replay ($inputs inputs)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|[a-z_]+_fuzz: )' \
			"$out/$t.replay.log" | head -n 5 | sed 's/^/# /'
		rc=1
	fi
	# A short run from the corpus.
	n=$((n + 1))
	rm -rf "$out/corpus/$t"
	FUZZ_OUT=$out FUZZ_TARGETS=$t FUZZ_SECONDS=$secs \
		sh "$here/run.sh" >"$out/$t.run.log" 2>&1
	frc=$?
	line=$(grep "^fuzz: $t:" "$out/$t.run.log" | sed "s/^fuzz: //")
	if [ $frc -eq 0 ]; then
		echo "ok $n - fuzz/$line"
	else
		echo "not ok $n - fuzz/${line:-$t: run failed}"
		grep -v '^fuzz: ' "$out/$t.run.log" | head -n 8 | sed 's/^/# /'
		rc=1
	fi
done
echo "1..$n"
exit $rc
