# SPDX-License-Identifier: GPL-2.0
#
# inter-diff-lib.sh - differential tests of inter-event pipelines against
# the native kernel, on top of the histdiff harness (selftests/fs/histdiff/
# lib.sh: sides, writes with errno, comparisons, results). Side a is the
# native tracefs, side b khist; there is no control instance here: a
# synthetic event fired by one instance's action is seen by every
# instance's triggers in the native kernel, so a native control would
# count each event twice.
#
# A corpus file (corpus/*.ic) holds cases, each a block of lines run in
# order:
#   case ID FLAGS WORKLOAD   start a case: the workload child is spawned
#                            and held (histdiff workloads: fork, files,
#                            exec, mix, none); FLAGS as histdiff's ("-",
#                            6.12=why, xfail=why, silent: the kernel
#                            refuses the case's `try` without a word)
#   synth DEFINITION         define a synthetic event on both sides
#   trig EVENT TRIGGER       write a trigger on both sides; native must
#                            accept it; the outcomes must agree
#   try EVENT TRIGGER        write a trigger that may fail: outcome,
#                            error_log and the event's listing compared
#   tsynth TEXT              a synthetic_events write that may fail:
#                            outcome and error_log compared
#   write FILE TEXT          write TEXT to FILE (relative to the root) on
#                            both sides: the outcomes must agree
#   cmpfile FILE             FILE (relative to the root) is the same on
#                            both sides
#   trunc FILE               open FILE with O_TRUNC on both sides (empties
#                            `trace`)
#   run                      release the workload and wait for it
#   cmp                      compare `trigger` and `hist` of every event
#                            the case wrote to, and both error_logs
#   hits EVENT               the native table of EVENT has hits (else the
#                            case tests nothing: an error)
#   shows EVENT TEXT         the native `hist` of EVENT has a line
#                            starting with TEXT (else an error)
#   end                      remove everything the case set (triggers in
#                            reverse order, then synthetic events); both
#                            sides must be empty again
# @PID@ and @COMM@ are replaced by the workload's pid and comm.

. "${HD_LIB:-/selftests/fs/histdiff}/lib.sh"

# ic_both FILE TEXT WHAT - write TEXT to FILE (relative to each side's
# root) on both sides and compare the outcomes.
ic_both() {
	local s r
	for s in $HD_SIDES; do
		hd_dir $s
		hd_write "$HD_D/$1" "$2"
		if [ $s = a ]; then
			HD_WA=$HD_R
			continue
		fi
		r=$HD_R
		[ "$r" = "$HD_WA" ] && continue
		hd_differs "$3" $s
		printf "%s '%s': native: %s, khist: %s\n" "$3" "$2" "$HD_WA" "$r" \
			>> "$HD_WORK/report"
	done
}

# ic_errlogs [try] - both error_logs must say the same; then empty them.
# After a `try` of a case flagged silent (or silent6.1, silent6.12) the
# kernel must log nothing and khist may explain, as in histdiff's error
# cases: its entry is only shown.
ic_errlogs() {
	local s
	for s in $HD_SIDES; do
		hd_dir $s
		hd_slurp "$HD_D/error_log"
		eval "IC_ERR_$s=\$HD_R"
	done
	if [ "${1:-}" = try ] && { hd_has_flag "$HD_FLAGS" silent ||
		hd_has_flag "$HD_FLAGS" "silent$HD_KV"; }; then
		[ -z "$IC_ERR_a" ] ||
			HD_BAD="native logged an error for a case marked silent"
		[ -z "$IC_ERR_b" ] ||
			printf '%s' "$IC_ERR_b" | sed "s/^/# ($HD_BNAME explains) /"
	else
		hd_diffstr error_log "$IC_ERR_a" "$IC_ERR_b" b
	fi
	hd_clear_errlogs
}

# ic_listing EV - both sides list the same triggers on EV.
ic_listing() {
	local s
	for s in $HD_SIDES; do
		hd_dir $s
		hd_slurp "$HD_D/events/$1/trigger"
		eval "IC_LST_$s=\$HD_R"
	done
	hd_diffstr "trigger $1" "$IC_LST_a" "$IC_LST_b" b
}

ic_touch() {
	case " $IC_EVENTS " in
	*" $1 "*) ;;
	*) IC_EVENTS="$IC_EVENTS $1" ;;
	esac
	case " $HD_TOUCHED " in
	*" $1 "*) ;;
	*) HD_TOUCHED="$HD_TOUCHED $1" ;;
	esac
}

ic_start() {
	HD_ID=$1
	HD_FLAGS=$2
	HD_N=$((HD_N + 1))
	HD_WHAT=
	HD_CWHAT=
	HD_BAD=
	HD_MAP61=
	HD_TRIG=
	HD_PID=0
	IC_EVENTS=
	IC_TRIGS=
	IC_SYNTHS=
	IC_SKIP=
	IC_RAN=
	: > "$HD_WORK/report"
	if [ "$HD_KV" = 6.1 ] && hd_has_flag "$HD_FLAGS" 6.12; then
		IC_SKIP=1
		return 0
	fi
	hd_clear_errlogs
	if hd_is_workload "$3" && [ "$3" != none ]; then
		hd_spawn "$3"
	fi
}

ic_end() {
	local t e s first
	if [ -n "$IC_SKIP" ]; then
		hd_flag_val "$HD_FLAGS" 6.12
		hd_result skip "on 6.1: $(echo "$HD_R" | tr _ ' ')"
		return 0
	fi
	[ -n "$HD_CHILD" ] && hd_release
	# Triggers in reverse order: readers go before what they read.
	while [ -n "$IC_TRIGS" ]; do
		t=${IC_TRIGS%%"$IC_NL"*}
		IC_TRIGS=${IC_TRIGS#*"$IC_NL"}
		for s in $HD_SIDES; do
			hd_dir $s
			printf '!%s\n' "${t#* }" >> "$HD_D/events/${t%% *}/trigger" \
				2> /dev/null || true
		done
	done
	for e in $IC_EVENTS; do
		for s in $HD_SIDES; do
			hd_dir $s
			[ -f "$HD_D/events/$e/trigger" ] || continue
			first=
			read -r first < "$HD_D/events/$e/trigger" || true
			[ "$first" = "# Available triggers:" ] && continue
			hd_drop_triggers "$HD_D/events/$e/trigger"
			read -r first < "$HD_D/events/$e/trigger" || true
			[ "$first" = "# Available triggers:" ] ||
				HD_BAD="triggers left on $HD_D/events/$e after cleanup"
		done
	done
	for t in $IC_SYNTHS; do
		for s in $HD_SIDES; do
			hd_dir $s
			printf '!%s\n' "$t" >> "$HD_D/synthetic_events" 2> /dev/null ||
				HD_BAD="synthetic event $t left on $HD_D"
		done
	done
	hd_clear_errlogs
	hd_classify
}

IC_NL='
'

# ic_corpus FILE - run every case of FILE.
ic_corpus() {
	local cmd rest ev s
	HD_AREA=$(basename "$1" .ic)
	HD_SIDES="a b"
	while IFS= read -r _line <&9; do
		cmd=${_line%% *}
		rest=${_line#"$cmd"}
		rest=${rest# }
		case $cmd in
		'' | '#'*) continue ;;
		esac
		if [ "$cmd" != case ] && [ -n "$IC_SKIP" ] && [ "$cmd" != end ]; then
			continue
		fi
		hd_subst "$rest"
		rest=$HD_R
		case $cmd in
		case)
			set -- $rest
			ic_start "$1" "$2" "$3"
			;;
		synth)
			ic_both synthetic_events "$rest" "synth"
			[ "$HD_WA" = ok ] || HD_BAD="native refused '$rest': $HD_WA"
			IC_SYNTHS="$IC_SYNTHS ${rest%% *}"
			ic_touch "synthetic/${rest%% *}"
			;;
		tsynth)
			ic_both synthetic_events "$rest" "synthetic_events write"
			ic_errlogs
			;;
		write)
			ic_both "${rest%% *}" "${rest#* }" "write ${rest%% *}"
			;;
		trunc)
			for s in $HD_SIDES; do
				hd_dir $s
				: > "$HD_D/$rest" 2> /dev/null ||
					HD_BAD="cannot truncate $HD_D/$rest"
			done
			;;
		cmpfile)
			for s in $HD_SIDES; do
				hd_dir $s
				hd_slurp "$HD_D/$rest"
				eval "IC_F_$s=\$HD_R"
			done
			hd_diffstr "$rest" "$IC_F_a" "$IC_F_b" b
			;;
		trig | try)
			ev=${rest%% *}
			ic_touch "$ev"
			ic_both "events/$ev/trigger" "${rest#* }" "$cmd"
			if [ "$HD_WA" = ok ]; then
				IC_TRIGS="$rest$IC_NL$IC_TRIGS"
			elif [ $cmd = trig ]; then
				HD_BAD="native refused '${rest#* }': $HD_WA"
			fi
			if [ $cmd = try ]; then
				ic_errlogs try
				ic_listing "$ev"
			fi
			HD_TRIG="$HD_TRIG${HD_TRIG:+ ;; }$rest"
			;;
		run) hd_release ;;
		cmp)
			for ev in $IC_EVENTS; do
				hd_snap_event "$ev" ""
			done
			ic_errlogs
			;;
		hits)
			grep -q '^    Hits: [1-9]' "$HD_NAT/events/$rest/hist" ||
				HD_BAD="the native $rest table has no hits"
			;;
		shows)
			grep -qF -- "${rest#* }" "$HD_NAT/events/${rest%% *}/hist" ||
				HD_BAD="the native ${rest%% *} hist lacks '${rest#* }'"
			;;
		end) ic_end || true ;;
		*) HD_BAD="unknown corpus line '$_line'" ;;
		esac
	done 9< "$1"
}
