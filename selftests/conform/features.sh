# SPDX-License-Identifier: GPL-2.0
#
# features.sh - sourced (dash, host and VM): what each conformance test
# needs from khist, and how khist claims a feature: by a line in its
# README. A README line is a promise; a test whose features are all claimed
# must give its native result, a test with an unclaimed feature is
# reported as known-missing with the features named.
#
# The probes are the kernel's own README wording, grep -F'd (and the
# tests' own `requires:` patterns where they have one), so that the line
# the feature's author adds to khist's README is the one ftrace has.
# A probe starting with "=" must be a whole README line.

ALL_FEATURES="hist hist-expr traceonoff enable_event stacktrace snapshot
synthetic dynamic_events onmatch onmax onchange save snapshot-action eprobe
synth-stack common_stacktrace instances"

# feature_probe FEATURE - the README texts that claim FEATURE, one per line;
# all must be present.
feature_probe() {
	case "$1" in
	hist) echo 'hist:keys=<field1[,field2,...]>' ;;
	hist-expr) echo '<var1>=<field|var_ref|numeric_literal>' ;;
	traceonoff) echo 'trigger: traceon, traceoff' ;;
	enable_event) printf '%s\n' 'enable_event:<system>:<event>' \
		'disable_event:<system>:<event>' ;;
	stacktrace) printf '=\t\t    stacktrace\n' ;;
	snapshot) printf '%s\n=\t\t    snapshot\n' \
		"Like 'trace' but shows the content of the static" ;;
	synthetic) echo "' >> synthetic_events" ;;
	dynamic_events) echo 's:[synthetic/]' ;;
	onmatch) echo 'trace(<synthetic_event>,param list)' ;;
	onmax) echo 'onmax(var)' ;;
	onchange) echo 'onchange(var)' ;;
	save) echo 'save(field,...)' ;;
	snapshot-action) echo 'snapshot()' ;;
	eprobe) echo 'e[:[<group>/][<event>]] <attached-group>.<attached-event> [<args>]' ;;
	synth-stack) echo "long[] stack' >> synthetic_events" ;;
	common_stacktrace) echo "can be any field, or the special string 'common_stacktrace'" ;;
	instances) echo 'Make sub-buffers with: mkdir instances/foo' ;;
	*) echo "features.sh: unknown feature $1" >&2 ;;
	esac
}

# ft_features NAME - the features a test needs (NAME as in the results:
# path under test.d, " (instance)" appended for the instance run).
ft_features() {
	case "$1" in
	*" (instance)") inst=" instances" ;;
	*) inst= ;;
	esac
	case "${1% (instance)}" in
	*/trigger-eventonoff.tc) f="enable_event" ;;
	*/trigger-filter.tc) f="traceonoff" ;;
	*/trigger-hist-expressions.tc) f="hist hist-expr" ;;
	*/trigger-hist-mod.tc) f="hist" ;;
	*/trigger-hist-syntax-errors.tc) f="hist" ;;
	*/trigger-hist.tc) f="hist" ;;
	*/trigger-multihist.tc) f="hist" ;;
	*/trigger-snapshot.tc) f="snapshot" ;;
	*/trigger-stacktrace.tc) f="stacktrace" ;;
	*/trigger-trace-marker-hist.tc) f="hist" ;;
	*/trigger-trace-marker-snapshot.tc) f="snapshot" ;;
	*/trigger-trace-marker-synthetic-kernel.tc) f="hist synthetic onmatch" ;;
	*/trigger-trace-marker-synthetic.tc) f="hist synthetic onmatch" ;;
	*/trigger-traceonoff.tc) f="traceonoff" ;;
	*/trigger-action-hist-xfail.tc) f="hist snapshot-action" ;;
	*/trigger-field-variable-support.tc) f="hist synthetic onmatch" ;;
	*/trigger-inter-event-combined-hist.tc) f="hist synthetic onmatch" ;;
	*/trigger-multi-actions-accept.tc) f="hist synthetic onmatch" ;;
	*/trigger-onchange-action-hist.tc) f="hist onchange save" ;;
	*/trigger-onmatch-action-hist.tc) f="hist synthetic onmatch" ;;
	*/trigger-onmatch-onmax-action-hist.tc) f="hist synthetic onmatch onmax save" ;;
	*/trigger-onmax-action-hist.tc) f="hist synthetic onmatch onmax save" ;;
	*/trigger-snapshot-action-hist.tc) f="hist onchange save snapshot snapshot-action" ;;
	*/trigger-synthetic-eprobe.tc) f="hist synthetic onmatch dynamic_events eprobe" ;;
	*/trigger-synthetic-event-createremove.tc) f="synthetic" ;;
	*/trigger-synthetic-event-dynstring.tc) f="hist synthetic onmatch" ;;
	*/trigger-synthetic-event-stack-legacy.tc) f="hist synthetic onmax synth-stack dynamic_events" ;;
	*/trigger-synthetic-event-stack.tc) f="hist synthetic onmax synth-stack common_stacktrace dynamic_events" ;;
	*/trigger-synthetic-event-syntax.tc) f="synthetic" ;;
	*/trigger-synthetic_event_syntax_errors.tc) f="synthetic dynamic_events" ;;
	*/trigger-trace-action-hist.tc) f="hist synthetic onmatch" ;;
	*) f="unknown-test" ;;
	esac
	echo "$f$inst"
}

# tool_features NAME - the same for the tool tests (tracefs, trace-cmd).
tool_features() {
	case "$1" in
	tracefs-hist | trace-cmd-stat-triggers) echo "hist" ;;
	trace-cmd-stat-synth) echo "synthetic" ;;
	tracefs-synth | tracefs-sql) echo "hist synthetic onmatch dynamic_events" ;;
	*) echo "" ;;
	esac
}

# unclaimed README FEATURES... - the features whose probe README lacks.
unclaimed() {
	readme=$1
	shift
	out=
	for f in "$@"; do
		feature_probe "$f" > "${TMPDIR:-/tmp}/.probes.$$"
		while IFS= read -r p; do
			case "$p" in
			=*) grep -qxF -- "${p#=}" "$readme" ;;
			*) grep -qF -- "$p" "$readme" ;;
			esac 2>/dev/null && continue
			out="$out $f"
			break
		done < "${TMPDIR:-/tmp}/.probes.$$"
	done
	rm -f "${TMPDIR:-/tmp}/.probes.$$"
	echo "${out# }"
}
