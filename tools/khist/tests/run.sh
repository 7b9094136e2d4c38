#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh KHIST - host tests of khist show and khist export on captured
# hist text (tests/data/*.hist, in the layout the module's hist files
# have): every expected figure is computed here from the hist text with
# awk, never written down. Prints TAP.
set -u
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
rc=0
[ -x "$bin" ] || { echo "not ok 1 - no khist binary at $bin"; exit 1; }

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() {
	n=$((n + 1))
	echo "not ok $n - $1"
	shift
	for f in "$@"; do sed 's/^/# /' "$f" | head -n 20; done
	rc=1
}
# same WHAT WANT GOT
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else notok "$1" "$2" "$3"; fi
}

# A fake khist root holding one event per data file.
root=$work/root
for f in "$here"/data/*.hist; do
	e=$(basename "$f" .hist)
	mkdir -p "$root/events/cap/$e"
	cp "$f" "$root/events/cap/$e/hist"
	: > "$root/events/cap/$e/trigger"
done
cp "$here/data/sched_switch.format" "$root/events/cap/kmalloc-buckets/format"
K="$bin --root $root"
F2="--format $here/data/sched_switch.format --event sched:sched_switch"

# ---- show: every entry, in the file's order, with its figures -----------
for f in "$here"/data/*.hist; do
	e=$(basename "$f" .hist)
	$K show "cap:$e" > "$work/show" 2> "$work/err" ||
		{ notok "show $e: exit status" "$work/err"; continue; }
	# The hitcounts in the hist's order are the show's, in its order.
	grep '^{' "$f" | grep -o 'hitcount: *[0-9]*' | awk '{ print $2 }' > "$work/want"
	# The column ends where its header does: values are right-aligned.
	awk '/^# hist:/ { end = 0; next }
	     !end && (p = index($0, "hitcount")) { end = p + 7; next }
	     end && !/^hits / && length($0) >= end { v = substr($0, 1, end)
		sub(/.* /, "", v); print v }' "$work/show" > "$work/got"
	same "show $e: hitcounts in the hist's order" "$work/want" "$work/got"
	grep -o 'Hits: [0-9]*' "$f" | awk '{ print $2 }' > "$work/want"
	sed -n 's/^hits \([0-9]*\) .*/\1/p' "$work/show" > "$work/got"
	same "show $e: totals" "$work/want" "$work/got"
done

# Bucket keys: the range column and the percent of the table's hits.
awk '/trigger info/ { t++ } t == 2 && /^\{/ {
	n = $4; sub(/^2\^/, "", n); c = $7
	lo = n == 0 ? 0 : (n == 1 ? 2 : 2 ^ (n - 1) + 1)
	printf "%d-%d %d %.2f%%\n", lo, 2 ^ n, c, 100 * c / 15 }' \
	"$here/data/syscalls-two.hist" > "$work/want"
$K show cap:syscalls-two | awk '/^# hist:keys=ret/ { t = 1 }
	t && $1 ~ /^[0-9]+-[0-9]+$/ { print $1, $2, $3 }' > "$work/got"
same "show: .log2 ranges and percents" "$work/want" "$work/got"
# .log2=k keys print [lo, hi): the range column is lo-(hi - 1).
awk '/^\{/ { lo = $3; sub(/^\[/, "", lo); sub(/,$/, "", lo); hi = $4
	sub(/\)$/, "", hi); c = $7
	printf "%d-%d %d %.2f%%\n", lo, hi - 1, c, 100 * c / 20 }' \
	"$here/data/log2-sub.hist" > "$work/want"
$K show cap:log2-sub | awk '$1 ~ /^[0-9]+-[0-9]+$/ { print $1, $2, $3 }' > "$work/got"
same "show: .log2=k ranges and percents" "$work/want" "$work/got"
$K check $F2 'hist:keys=next_pid.log2=4' > "$work/got" 2>&1 &&
	grep -q '^hist:keys=next_pid.log2=4:vals=hitcount:sort=hitcount:size=2048' "$work/got" &&
	ok "check: a .log2=k key is listed" || notok "check: a .log2=k key is listed" "$work/got"
$K check $F2 'hist:keys=next_pid.log2=17' > "$work/got" 2>&1 &&
	notok "check: .log2=17 accepted" "$work/got" ||
	{ grep -q 'Invalid field modifier' "$work/got" && ok "check: .log2=17 refused" ||
		notok "check: .log2=17 refused" "$work/got"; }
# The longest bar is the largest count's, --width wide.
$K show --width 17 cap:syscalls-two | awk '/^# hist:keys=ret/ { t = 1 }
	t && /\|/ { b = $NF; sub(/^\|/, "", b); print length(b) }' |
	sort -n | tail -n 1 > "$work/got"
echo 17 > "$work/want"
same "show --width: the longest bar" "$work/want" "$work/got"
# Columns line up: every row of a table is as wide as its header.
$K show cap:kmalloc-buckets | awk '/^range|^common_pid/ { h = index($0, "hitcount") }
	h && /^bash|^hdwl/ { rows++; s = substr($0, 1, h + 7); if (s !~ /[0-9]$/) bad = 1 }
	END { print bad || rows != 5 ? "misaligned" : "aligned" }' > "$work/got"
echo aligned > "$work/want"
same "show: hitcount column aligned" "$work/want" "$work/got"
# show --json: the hist_json file as it is; without one (an older
# module), the cause is named and nothing is printed.
printf '{"event":"cap:empty","triggers":[]}\n' > "$root/events/cap/empty/hist_json"
$K show --json cap:empty > "$work/got" 2> "$work/err" &&
	same "show --json: hist_json as it is" "$root/events/cap/empty/hist_json" "$work/got" ||
	notok "show --json: exit status" "$work/err"
if $K show --json cap:syscalls-two > "$work/got" 2> "$work/err"; then
	notok "show --json without hist_json: exit status 0" "$work/got"
elif [ -s "$work/got" ] || ! grep -q 'no hist_json file: the loaded khist module is older' "$work/err"; then
	notok "show --json without hist_json: the message" "$work/err"
else
	ok "show --json without hist_json: the cause named"
fi
$K show --raw --json cap:empty > /dev/null 2>&1 &&
	notok "show --raw --json accepted" "$work/err" ||
	ok "show --raw --json refused"
$K show cap:empty > "$work/got"
grep -q '(no entries)' "$work/got" && ok "show: an empty table" ||
	notok "show: an empty table" "$work/got"

# watch: redraws every -n seconds until SIGINT, then exits 0.
$K watch -n 0.2 cap:syscalls-two < /dev/null > "$work/watch" 2>&1 &
wp=$!
sleep 1.5
kill -INT $wp
if wait $wp && [ "$(grep -c '^hits 55 ' "$work/watch")" -ge 3 ]; then
	ok "watch: redraws, stops on SIGINT"
else
	notok "watch: redraws, stops on SIGINT" "$work/watch"
fi

# ---- export ---------------------------------------------------------------
# .buckets: per other-key label set, cumulative counts up to each le (a
# bucket's last value), at every le of the table (so that sums over label
# sets stay cumulative); +Inf and _count the label set's hits.
$K export --hist cap:kmalloc-buckets > "$work/om"
grep '^{' "$here/data/kmalloc-buckets.hist" |
	sed 's/^{ common_pid: \(.*\), bytes_req: ~ [0-9]*-\([0-9]*\) } hitcount: *\([0-9]*\) .*/\1|\2|\3/' \
	> "$work/rows"
cut -d '|' -f 2 "$work/rows" | sort -un > "$work/les"
cut -d '|' -f 1 "$work/rows" | sort -u | while IFS= read -r k; do
	awk -F '|' -v k="$k" 'NR == FNR { les[++n] = $1; next }
		$1 == k { c[$2] += $3 }
		END { for (i = 1; i <= n; i++) {
			for (l in c) if (l + 0 <= les[i] + 0 && !(l in done)) { cum += c[l]; done[l] = 1 }
			printf "khist_cap_kmalloc_buckets_bytes_req_bucket{common_pid=\"%s\",le=\"%d\"} %d\n", k, les[i], cum }
		printf "khist_cap_kmalloc_buckets_bytes_req_bucket{common_pid=\"%s\",le=\"+Inf\"} %d\n", k, cum
		printf "khist_cap_kmalloc_buckets_bytes_req_count{common_pid=\"%s\"} %d\n", k, cum }' \
		"$work/les" "$work/rows"
done | sort > "$work/want"
grep '^khist_cap_kmalloc_buckets_bytes_req_' "$work/om" | sort > "$work/got"
same "export .buckets: cumulative buckets per label set" "$work/want" "$work/got"
for w in hits:Hits dropped:Dropped; do
	v=$(sed -n "s/^ *${w#*:}: //p" "$here/data/kmalloc-buckets.hist")
	if grep -qx "khist_cap_kmalloc_buckets_${w%:*}_total $v" "$work/om"; then
		ok "export: ${w%:*} counter"
	else
		notok "export: ${w%:*} counter" "$work/om"
	fi
done
v=$(awk '/^\{/ { s += $NF } END { print s }' "$here/data/kmalloc-buckets.hist")
grep -q "^khist_cap_kmalloc_buckets_vals_bytes_alloc_total" "$work/om" &&
	[ "$(awk '/^khist_cap_kmalloc_buckets_vals_bytes_alloc_total/ { s += $NF } END { print s }' "$work/om")" = "$v" ] &&
	ok "export: a value's counters sum to its column" ||
	notok "export: a value's counters sum to its column" "$work/om"
tail -n 1 "$work/om" | grep -qx '# EOF' && ok "export: OpenMetrics ends in # EOF" ||
	notok "export: OpenMetrics ends in # EOF" "$work/om"
# Every family has one TYPE line, before its samples.
awk '/^# TYPE/ { if (seen[$3]++) bad = 1; t[$3] = 1; next } /^#/ { next }
     { n = $1; sub(/[{ ].*/, "", n); f = n
	sub(/_(bucket|count|sum|total)$/, "", f)
	if (!(f in t) && !(n in t)) bad = 1 }
     END { print bad || !length(t) ? "bad" : "good" }' "$work/om" > "$work/got"
echo good > "$work/want"
same "export: TYPE lines" "$work/want" "$work/got"
# Two tables of one event: told apart by a hist label; .log2 le = 2^N.
$K export --hist cap:syscalls-two > "$work/om2"
grep -q 'khist_cap_syscalls_two_ret_bucket{hist="1",le="1024"} 15' "$work/om2" &&
	grep -q 'khist_cap_syscalls_two_vals_hitcount_total{hist="0",id="sys_read                      \[  0\]"} 40' "$work/om2" &&
	ok "export: hist label, .log2 le, key labels" ||
	notok "export: hist label, .log2 le, key labels" "$work/om2"
# Prometheus text: counters are named with _total in their TYPE line.
$K export --format prometheus --hist cap:syscalls-two > "$work/prom"
grep -qx '# TYPE khist_cap_syscalls_two_hits_total counter' "$work/prom" &&
	! grep -q '# EOF' "$work/prom" && ok "export --format prometheus" ||
	notok "export --format prometheus" "$work/prom"
# --textfile: one file, khist.prom, and no temporary file left.
mkdir "$work/tf"
$K export --textfile "$work/tf" --hist cap:syscalls-two &&
	[ "$(ls -A "$work/tf")" = khist.prom ] &&
	cmp -s "$work/tf/khist.prom" "$work/prom" && ok "export --textfile" ||
	notok "export --textfile" "$work/om2"
if $K export --hist cap:nosuch 2> "$work/err"; then
	notok "export of a missing event fails"
else
	[ "$(wc -l < "$work/err")" -eq 1 ] && grep -q '^khist: cap:nosuch' "$work/err" && ok "export of a missing event fails, one line" ||
		notok "export of a missing event fails, one line" "$work/err"
fi

# ---- fields and check on a captured format file ----------------------------
$K fields cap:kmalloc-buckets | awk 'NR > 1 { print $1, $(NF - 1), $NF }' > "$work/got"
sed -n 's/^[[:space:]]*field:.* \([a-z_0-9]*\)\(\[[0-9]*\]\)*;[[:space:]]*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1 \3 \4/p' \
	"$here/data/sched_switch.format" > "$work/want"
same "fields: names, offsets, sizes of the format file" "$work/want" "$work/got"
F="--format $here/data/sched_switch.format --event sched:sched_switch"
$K check $F 'hist:keys=next_pid:sort=nosuch' > "$work/got" && notok "check: a bad sort key is refused" ||
	{ sed -n 3p "$work/got" | awk '{ print length($0) - 12 }' > "$work/col"
	  # The caret is under the "nosuch" of the command line.
	  sed -n 2p "$work/got" | awk '/nosuch/ { print index($0, "nosuch") - 12 }' > "$work/want"
	  [ -s "$work/want" ] || echo "no command line" > "$work/want"
	  same "check: caret under the offending word" "$work/want" "$work/col"; }
$K check $F 'hist:keys=next_pid.log2:vals=prev_prio' > "$work/got" &&
	grep -q '^hist:keys=next_pid.log2:vals=hitcount,prev_prio' "$work/got" &&
	ok "check: an accepted trigger is listed" || notok "check: an accepted trigger is listed" "$work/got"

# ---- sql: libtracefs's SQL on the captured sched_switch format ---------------
for e in sched_switch switch2; do
	mkdir -p "$root/events/cap/$e"
	cp "$here/data/sched_switch.format" "$root/events/cap/$e/format"
	: > "$root/events/cap/$e/trigger"
done
: > "$root/dynamic_events"
Q="SELECT CAST(next_pid AS hex), CAST(prev_prio AS _COUNTER_) FROM sched_switch WHERE prev_pid > 0"
$K sql --dry-run "$Q" > "$work/got" 2> "$work/err" || notok "sql --dry-run: exit status" "$work/err"
echo "echo 'hist:keys=next_pid.hex:vals=prev_prio if prev_pid > 0' > $root/events/cap/sched_switch/trigger" > "$work/want"
same "sql: a hist: keys, CAST modifier, _COUNTER_ value, filter" "$work/want" "$work/got"
[ ! -s "$root/events/cap/sched_switch/trigger" ] && ok "sql --dry-run writes nothing" ||
	notok "sql --dry-run writes nothing" "$root/events/cap/sched_switch/trigger"
# A JOIN: three commands; every $variable the end trigger reads is
# defined by one of the two triggers, the synthetic event's arguments
# are the end trigger's variables, one per field, in order.
Q='SELECT a.prev_comm, b.prev_prio AS pp, (b.TIMESTAMP_USECS - a.TIMESTAMP_USECS) AS lat FROM cap.sched_switch AS a JOIN switch2 AS b ON a.next_pid = b.prev_pid WHERE a.prev_prio < 100 AND b.next_comm ~ "s*"'
$K sql -n kx "$Q" > "$work/cmds" 2> "$work/err" || notok "sql JOIN: exit status" "$work/err"
sed -n "s/^echo '\(.*\)' >> .*/\1/p" "$work/cmds" > "$work/lines"
if [ "$(wc -l < "$work/lines")" -eq 3 ] &&
	grep -qx "s:kx char prev_comm\[16\]; s32 pp; u64 lat;" "$work/lines"; then
	ok "sql JOIN: the synthetic event's fields and types"
else
	notok "sql JOIN: the synthetic event's fields and types" "$work/cmds"
fi
awk -F"'" 'NR == 2 { st = $2 } NR == 3 { en = $2 }
	END {
		n = split(st en, t, /[:,]/)
		for (i = 1; i <= n; i++) if (t[i] ~ /^__[a-z_]+_[0-9]+_[0-9]+=/) { v = t[i]; sub(/=.*/, "", v); def[v] = 1 }
		s = en; while (match(s, /\$__[a-z_]+_[0-9]+_[0-9]+/)) {
			v = substr(s, RSTART + 1, RLENGTH - 1); if (!(v in def)) print "undefined", v
			s = substr(s, RSTART + RLENGTH) }
		if (!match(en, /\.trace\(kx,[^)]*\)/)) print "no trace()"
		a = substr(en, RSTART + 10, RLENGTH - 11); print split(a, x, ",") " args"
	}' "$work/cmds" > "$work/got"
echo "3 args" > "$work/want"
same "sql JOIN: variables defined, one argument per field" "$work/want" "$work/got"
grep -q "^hist:keys=next_pid:.* if prev_prio < 100\$" "$work/lines" &&
	grep -q '^hist:keys=prev_pid:.*onmatch(cap.sched_switch).trace(kx,.* if next_comm~"s\*"$' "$work/lines" &&
	ok "sql JOIN: keys from ON, each event its own filter" ||
	notok "sql JOIN: keys from ON, each event its own filter" "$work/cmds"
# Installed (no --dry-run): each file got its command, in order.
sed -n 1p "$work/lines" | tr -d '\n' > "$work/want"
same "sql JOIN: dynamic_events written" "$work/want" "$root/dynamic_events"
sed -n 2p "$work/lines" | tr -d '\n' > "$work/want"
same "sql JOIN: start trigger written" "$work/want" "$root/events/cap/sched_switch/trigger"
sed -n 3p "$work/lines" | tr -d '\n' > "$work/want"
same "sql JOIN: end trigger written" "$work/want" "$root/events/cap/switch2/trigger"
# Refusals: one "khist: sql:" line, the query, a caret under the cause,
# nothing on stdout.
sqlerr() { # WHAT QUERY WORD MESSAGE
	if $K sql --dry-run "$2" > "$work/out" 2> "$work/err"; then
		notok "sql refuses $1" "$work/out"
		return
	fi
	col=$(awk -v w="$3" 'NR == 2 { print index($0, w) } ' "$work/err")
	car=$(awk 'NR == 3 { print index($0, "^") }' "$work/err")
	if [ ! -s "$work/out" ] && grep -q "^khist: sql: $4" "$work/err" &&
		[ "$col" -gt 0 ] && [ "$col" = "$car" ]; then
		ok "sql refuses $1"
	else
		notok "sql refuses $1" "$work/err"
	fi
}
sqlerr "an unknown field" "SELECT nosuch FROM sched_switch" nosuch "field 'nosuch' is not part"
sqlerr "an unknown event" "SELECT a FROM nosuch_ev" nosuch_ev "no event 'nosuch_ev'"
sqlerr "an OR across events" 'SELECT a.prev_pid FROM sched_switch AS a JOIN switch2 AS b ON a.next_pid = b.prev_pid WHERE a.prev_prio < 1 || b.prev_prio > 2' "b.prev_prio >" "a filter term names both"
sqlerr "an unqualified field in a JOIN" 'SELECT prev_pid FROM sched_switch AS a JOIN switch2 AS b ON a.next_pid = b.prev_pid' prev_pid "'prev_pid': name the event"
sqlerr "what follows the query" "SELECT prev_pid FROM sched_switch JUNK" JUNK "unexpected 'JUNK'"
if $K sql --dry-run 'SELECT (b.prev_prio - a.prev_prio) FROM sched_switch AS a JOIN switch2 AS b ON a.next_pid = b.prev_pid' 2> "$work/err" ||
	! grep -q "name a calculation with AS" "$work/err"; then
	notok "sql refuses an unnamed calculation" "$work/err"
else
	ok "sql refuses an unnamed calculation"
fi
$K sql -n 'bad name' "$Q" 2> "$work/err" && notok "sql -n with a space accepted" ||
	ok "sql -n: a name is checked"

# ---- exec: what is refused before any namespace is made ----------------------
excheck() { # WHAT PATTERN ARGS...
	w=$1 p=$2
	shift 2
	if "$@" > "$work/out" 2> "$work/err"; then
		notok "exec: $w: exit status 0" "$work/out"
	elif [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q "^khist: exec: $p" "$work/err" &&
		[ ! -s "$work/out" ]; then
		ok "exec: $w"
	else
		notok "exec: $w" "$work/err" "$work/out"
	fi
}
excheck "no tool" "give the tool" $bin exec
excheck "no tool after --" "give the tool" $bin exec --mount /tmp --
excheck "a bad option" "bad option '--nosuch'" $bin exec --nosuch -- echo hi
$bin exec --help | grep -q '^usage: khist exec' && ok "exec --help" || notok "exec --help"
if [ "$(id -u)" = 0 ]; then
	# Not khist: a directory of another filesystem, by --mount, --root
	# or $KHIST_ROOT; the tool does not run (it would print "ran").
	excheck "--mount of another filesystem" "$root: not a khist mount" $bin exec --mount "$root" -- echo ran
	excheck "--root of another filesystem" "$root: not a khist mount" $bin --root "$root" exec -- echo ran
	excheck "KHIST_ROOT of another filesystem" "$root: not a khist mount" env KHIST_ROOT="$root" $bin exec -- echo ran
	excheck "--mount of nothing" "$work/nosuch: No such file" $bin exec --mount "$work/nosuch" -- echo ran
	if command -v setpriv > /dev/null; then
		excheck "not root" "needs root" setpriv --reuid 65534 --regid 65534 --clear-groups $bin exec -- echo ran
	fi
else
	excheck "not root" "needs root" $bin exec -- echo ran
fi

echo "1..$n"
exit $rc
