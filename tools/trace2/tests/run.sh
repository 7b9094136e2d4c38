#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh BIN - the tests of khist-trace2 (`make trace2-test`), on the host,
# without khist: records go to the fake sink (a record log) and are read
# back by `decode` and `render`. Prints TAP; exits non-zero on a failure.
#   - the events' registration text and layout against the design
#     (expected-register.txt, expected-layout.txt);
#   - fixtures (fixtures/*.jsonl: real 2.39.5 lines, every event type
#     including those Debian's git never emits, malformed lines) decoded
#     field by field against fixtures/*.expected, rendered as perf and
#     normal text, and rendered back as event text that t2check.py (a
#     Python oracle) compares key by key with the source;
#   - real git (git-workload.sh) through `listen --tee`: every line
#     accounted, the records equal to what git wrote, many concurrent
#     processes, a bridge started before its output exists, git with no
#     bridge, a bridge that cannot write never slowing git, malformed,
#     split and oversize lines on the socket;
#   - the user_events output path (open, DIAG_IOCSREG, enable words,
#     writev) with ue_shim.c preloaded in place of a kernel.
set -u
bin=${1:?usage: run.sh path/to/khist-trace2}
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
work=${TRACE2_TEST_OUT:-$(dirname "$bin")/test}
rm -rf "$work"
mkdir -p "$work"
n=0
rc=0
export TZ=UTC

ok() {
	n=$((n + 1))
	echo "ok $n - trace2/$1"
}

not_ok() {
	n=$((n + 1))
	echo "not ok $n - trace2/$1"
	rc=1
	[ -n "${2:-}" ] && [ -s "$2" ] && head -n 20 "$2" | sed 's/^/# /'
	return 0
}

check() {
	name=$1
	shift
	"$@" >"$work/out" 2>&1
	case $? in
	0) ok "$name" ;;
	77) ok "$name # SKIP no python3 for the oracle" ;;
	*) not_ok "$name" "$work/out" ;;
	esac
}

have_py=false
command -v python3 >/dev/null 2>&1 && have_py=true
oracle() {
	if $have_py; then
		python3 "$here/t2check.py" "$@"
	else
		return 77
	fi
}

stat_of() {
	sed -n "s/^$2 //p" "$1"
}

# 1-2: the events as the design lays them out.
check "registration text" sh -c "'$bin' formats | diff -u '$here/expected-register.txt' -"
check "layout (record offsets, fixed sizes)" sh -c "'$bin' formats --layout | diff -u '$here/expected-layout.txt' -"

# 3: the design's worked example, field by field.
want='trace2_region_leave time_us=1795719461881054 pid=10781 parent_pid=0 depth=0 thread_id=0 repo=1 thread=main t_rel=7 nesting=1 category=index label=do_read_index msg=.git/index'
check "design example decode" sh -c "'$bin' replay --dry-run '$fx/appendix-b.jsonl' | head -n 1 | grep -qxF '$want'"

for f in appendix-b all-events edge; do
	# Every field of every record, as a reader of the format sees it.
	check "$f: decode" sh -c "'$bin' replay --dry-run '$fx/$f.jsonl' | diff -u '$fx/$f.expected' -"
	# The record log (the stand-in for user_events_data) holds the same.
	: >"$work/$f.log"
	"$bin" replay --fake "$work/$f.log" --stats "$fx/$f.jsonl" 2>"$work/$f.stats"
	check "$f: record log decode" sh -c "'$bin' decode '$work/$f.log' | diff -u '$fx/$f.expected' -"
	check "$f: lines counted" oracle counts "$fx/$f.jsonl" "$work/$f.stats"
	"$bin" render --format event "$work/$f.log" >"$work/$f.event"
	check "$f: render event = source" oracle roundtrip "$fx/$f.jsonl" "$work/$f.event"
done
check "render perf" sh -c "'$bin' render --format perf '$work/all-events.log' | diff -u '$fx/all-events.perf' -"
check "render normal" sh -c "'$bin' render --format normal '$work/all-events.log' | diff -u '$fx/all-events.normal' -"

# Events without a consumer are not written, and the joins stay right.
: >"$work/some.log"
"$bin" replay --fake "$work/some.log" --fake-enable exit,child_exit,trace2_cmd \
	"$fx/all-events.jsonl" 2>/dev/null
"$bin" decode "$work/some.log" >"$work/some.dec"
grep -E '^trace2_(exit|child_exit|cmd) ' "$fx/all-events.expected" >"$work/some.want"
check "only enabled events written, joins intact" diff -u "$work/some.want" "$work/some.dec"

# The user_events output itself (open, DIAG_IOCSREG, enable words,
# writev), against ue_shim.c preloaded in place of a kernel.
shim=$work/ue_shim.so
if ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -shared -fPIC -o "$shim" \
	-I"$here/../../../include/uapi" "$here/ue_shim.c" -ldl >"$work/shim.err" 2>&1; then
	ue() {
		log=$1
		shift
		rm -f "$log"
		T2SHIM_LOG=$log LD_PRELOAD=$shim "$bin" replay \
			--data "$work/no/user_events_data" --stats "$@" \
			"$fx/all-events.jsonl" 2>"$log.stats"
	}
	ue "$work/ue.log"
	check "user_events: ABI respected, records = record log's" sh -c \
		"! grep -q '^ERR' '$work/ue.log' && test \"\$(grep -c '^R ' '$work/ue.log')\" = 32 && '$bin' decode '$work/ue.log' | diff -u '$fx/all-events.expected' -"
	T2SHIM_ENABLE=trace2_exit,trace2_child_exit,trace2_cmd ue "$work/ue-some.log"
	check "user_events: only events whose enable bit is set are written" sh -c \
		"'$bin' decode '$work/ue-some.log' | diff -u '$work/some.want' - && grep -qx 'skipped_disabled 37' '$work/ue-some.log.stats'"
	T2SHIM_ERRNO=EBADF ue "$work/ue-ebadf.log"
	check "user_events: EBADF (no consumer left) counted" sh -c \
		"grep -qx 'write_error_EBADF 43' '$work/ue-ebadf.log.stats' && grep -qx 'written 0' '$work/ue-ebadf.log.stats'"
	T2SHIM_ERRNO=ENOENT1 ue "$work/ue-enoent.log"
	check "user_events: a deleted event is registered again" sh -c \
		"grep -qx 'reregistered 1' '$work/ue-enoent.log.stats' && grep -qx 'write_error_ENOENT 1' '$work/ue-enoent.log.stats' && grep -qx 'written 42' '$work/ue-enoent.log.stats' && test \"\$(grep -c '^R ' '$work/ue-enoent.log')\" = 33"
	ue "$work/ue-persist.log" --persist
	check "user_events: --persist sets the flag" sh -c \
		"test \"\$(grep -c '^R .* \[persist\]\$' '$work/ue-persist.log')\" = 32"
else
	n=$((n + 1))
	echo "ok $n - trace2/user_events shim # SKIP cannot build ue_shim.c"
fi

# The number of processes followed at once is bounded: beyond 16384,
# the oldest is summed up early.
awk 'BEGIN { for (i = 1; i <= 16500; i++)
	printf "{\"event\":\"cmd_name\",\"sid\":\"x-P%08x\",\"name\":\"n\",\"hierarchy\":\"n\"}\n", i }' \
	>"$work/many.jsonl"
"$bin" replay --data "$work/no/user_events_data" --stats "$work/many.jsonl" 2>"$work/many.stats"
check "process states bounded (16500 processes, 116 evicted)" sh -c \
	"grep -qx 'evicted 116' '$work/many.stats' && grep -qx 'made_cmd 16500' '$work/many.stats'"

# ---- the socket ----
sock=$work/t2.sock
start_bridge() {
	"$bin" listen --socket "$sock" "$@" 2>"$work/bridge.err" &
	bpid=$!
	i=0
	while [ ! -S "$sock.ctl" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}
stop_bridge() {
	kill "$bpid" 2>/dev/null
	wait "$bpid"
	brc=$?
}
stats() {
	"$bin" ctl wait-idle --socket "$sock" --timeout 60 >"$1"
}
export GIT_TRACE2_EVENT=af_unix:stream:$sock

# Real git: every line accounted, records equal to the lines.
: >"$work/git.log"
start_bridge --fake "$work/git.log" --tee "$work/git.tee"
timeout 120 sh "$here/git-workload.sh" "$work/w1"
stats "$work/git.stats"
check "git: lines accounted (per event, malformed)" oracle counts "$work/git.tee" "$work/git.stats"
"$bin" render --format event "$work/git.log" >"$work/git.event"
check "git: render event = what git wrote" oracle roundtrip "$work/git.tee" "$work/git.event"
# The same records read back from a khist ring buffer (render --khist):
# mkpages.py lays them out as trace_pipe_raw sub-buffers over three CPUs,
# with every kind of event header; the merge by time must give the log.
if $have_py; then
	python3 "$here/mkpages.py" "$work/git.log" "$work/git.khist"
	"$bin" decode "$work/git.log" >"$work/git.dec"
	"$bin" decode --khist "$work/git.khist" >"$work/git.kdec" 2>"$work/git.kerr"
	check "git: decode --khist (pages of three CPUs) = the record log" \
		diff -u "$work/git.dec" "$work/git.kdec"
	check "git: decode --khist says events were lost before 1 sub-buffer" \
		grep -q "events were lost before 1 sub-buffers" "$work/git.kerr"
	"$bin" render --format event --khist "$work/git.khist" >"$work/git.kevent" 2>/dev/null
	check "git: render event --khist = what git wrote" oracle roundtrip "$work/git.tee" "$work/git.kevent"
	rm -rf "$work/nokhist"
	mkdir -p "$work/nokhist"
	check "render --khist of a directory without khist fails, and says so" sh -c \
		"'$bin' decode --khist '$work/nokhist' >'$work/nokhist.out' 2>&1; test \$? = 1 && grep -q 'nokhist: no per_cpu/cpu0/trace_pipe_raw or no events/user_events/trace2_' '$work/nokhist.out'"
else
	ok "git: render --khist # SKIP no python3 for mkpages.py"
fi
lines=$(stat_of "$work/git.stats" lines)
conns=$(stat_of "$work/git.stats" connections_total)
made=$(stat_of "$work/git.stats" made_cmd)
written=$(stat_of "$work/git.stats" written)
wl=$(grep -c '^W ' "$work/git.log")
check "git: children handled between their parent's start and exit" oracle order "$work/git.tee"
check "git: deep regions arrive (max_nesting $(stat_of "$work/git.stats" max_nesting) > 2)" \
	test "$(stat_of "$work/git.stats" max_nesting)" -gt 2
check "git: one trace2_cmd per process ($made of $conns)" test "$made" = "$conns" -a "$conns" -gt 30
check "git: every record written ($written = $wl = $lines + $made)" \
	test "$written" = "$wl" -a "$wl" = $((lines + made))
check "git: regions, children, alias, error seen" sh -c \
	"grep -q '\"region_leave\"' '$work/git.tee' && grep -q '\"child_exit\"' '$work/git.tee' && grep -q '\"alias\"' '$work/git.tee' && grep -q '\"error\"' '$work/git.tee'"
stop_bridge
check "bridge exits cleanly on SIGTERM, sockets removed" \
	test "$brc" = 0 -a ! -e "$sock" -a ! -e "$sock.ctl"

# Many concurrent git processes.
: >"$work/conc.log"
start_bridge --fake "$work/conc.log" --tee "$work/conc.tee"
i=0
pids=
while [ $i -lt 48 ]; do
	git -C "$work/w1/src" status >/dev/null &
	pids="$pids $!"
	git -C "$work/w1/src" rev-parse HEAD >/dev/null &
	pids="$pids $!"
	i=$((i + 1))
done
# shellcheck disable=SC2086
wait $pids
stats "$work/conc.stats"
check "concurrent: 96 processes, lines accounted" sh -c \
	"test \"\$(sed -n 's/^connections_total //p' '$work/conc.stats')\" -ge 96 && $( $have_py && echo "python3 '$here/t2check.py' counts '$work/conc.tee' '$work/conc.stats'" || echo true)"
"$bin" render --format event "$work/conc.log" >"$work/conc.event"
check "concurrent: render event = what git wrote" oracle roundtrip "$work/conc.tee" "$work/conc.event"
stop_bridge

# A bridge started before its output exists: it reads and drops, then
# writes once the file appears.
start_bridge --fake "$work/late.log" --tee "$work/late.tee"
git -C "$work/w1/src" status >/dev/null
stats "$work/late1.stats"
: >"$work/late.log"
sleep 6
git -C "$work/w1/src" rev-parse HEAD >/dev/null
stats "$work/late2.stats"
d1=$(stat_of "$work/late1.stats" dropped_no_sink)
w1=$(stat_of "$work/late1.stats" written)
w2=$(stat_of "$work/late2.stats" written)
check "output missing: records dropped ($d1), none written" test "$d1" -gt 0 -a "$w1" = 0
check "output appears: later records written ($w2)" sh -c \
	"test '$w2' -gt 0 && test \"\$('$bin' decode '$work/late.log' | grep -c '^trace2_cmd_name .* name=rev-parse ')\" = 1 && ! grep -q 'name=status' '$work/late.log'"
stop_bridge

# Git without a bridge runs normally.
check "git without a bridge" sh -c "GIT_TRACE2_EVENT=af_unix:stream:$work/none.sock timeout 20 git -C '$work/w1/src' status >/dev/null"

# A bridge whose output never appears keeps reading: git is not slowed
# down by it (a bridge that stopped reading would block git once the
# socket buffer is full: 200 processes write far more than that).
start_bridge --data "$work/no/such/user_events_data"
t0=$(date +%s)
i=0
while [ $i -lt 200 ]; do
	git -C "$work/w1/src" status >/dev/null || break
	i=$((i + 1))
done
t1=$(date +%s)
stats "$work/nb.stats"
check "bridge without output never blocks git (200 runs in $((t1 - t0)) s)" sh -c \
	"test $i = 200 && test $((t1 - t0)) -lt 60 && test \"\$(sed -n 's/^connections_total //p' '$work/nb.stats')\" = 200 && test \"\$(sed -n 's/^written //p' '$work/nb.stats')\" = 0"
stop_bridge

# Malformed, split and oversize lines on the socket.
if $have_py; then
	: >"$work/raw.log"
	start_bridge --fake "$work/raw.log"
	python3 - "$sock" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
line = b'{"event":"cmd_name","sid":"20260101T000000.000000Z-H00000000-P00000101","thread":"main","name":"split","hierarchy":"split"}\n'
for part in (line[:10], line[10:50], line[50:]):
    s.sendall(part)
    time.sleep(0.05)
s.sendall(b'not json\n{"event":"x"}\n')
s.sendall(b'{"event":"data","sid":"a-P00000101","value":"' + b'x' * (1 << 21) + b'"}\n')
s.sendall(line.replace(b'split', b'after'))
s.sendall(line.replace(b'split', b'noeol')[:-1])
s.close()
PY
	stats "$work/raw.stats"
	check "socket: split lines joined, malformed and oversize counted" sh -c \
		"grep -qx 'lines 5' '$work/raw.stats' && grep -qx 'malformed 2' '$work/raw.stats' && grep -qx 'oversize 1' '$work/raw.stats' && test \"\$('$bin' decode '$work/raw.log' | grep -c '^trace2_cmd_name .*hierarchy=\(split\|after\|noeol\)\$')\" = 3"
	stop_bridge
fi

# A writer that never pauses (more than a round's 4 MiB): every line
# counted, lines cut between rounds joined.
if $have_py; then
	start_bridge --data "$work/no/user_events_data"
	python3 - "$sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
line = b'{"event":"data","sid":"20260101T000000.000000Z-H00000000-P00000301","thread":"main","t_abs":0.1,"t_rel":0.1,"nesting":1,"category":"c","key":"k","value":"' + b'v' * 100 + b'"}\n'
s.sendall(line * 40000)
s.close()
PY
	stats "$work/flood.stats"
	check "a writer that never pauses: 40000 lines (10 MB), all counted" sh -c \
		"grep -qx 'lines 40000' '$work/flood.stats' && grep -qx 'event_data 40000' '$work/flood.stats' && grep -qx 'malformed 0' '$work/flood.stats'"
	stop_bridge
fi

# Lines read in one round go out in the order of their time: a child's
# line written first but stamped later comes after its parent's.
if $have_py; then
	: >"$work/ord.log"
	start_bridge --fake "$work/ord.log" --tee "$work/ord.tee"
	python3 - "$sock" "$bpid" <<'PY'
import os, signal, socket, sys, time
par = b'{"event":"child_start","sid":"20260101T000000.000000Z-H00000000-P00000201","thread":"main","time":"2026-01-01T00:00:01.000000Z","child_id":0,"child_class":"?","use_shell":false,"argv":["git","x"]}\n'
chi = b'{"event":"version","sid":"20260101T000000.000000Z-H00000000-P00000201/20260101T000001.000000Z-H00000000-P00000202","thread":"main","time":"2026-01-01T00:00:01.000100Z","evt":"3","exe":"2.39.5"}\n'
p = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
p.connect(sys.argv[1])
c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
c.connect(sys.argv[1])
time.sleep(0.5)
os.kill(int(sys.argv[2]), signal.SIGSTOP)
# Wait until it has stopped: both lines must arrive while it is.
for _ in range(200):
    with open("/proc/%s/stat" % sys.argv[2]) as f:
        if f.read().rsplit(")", 1)[1].split()[0] == "T":
            break
    time.sleep(0.01)
c.sendall(chi)
time.sleep(0.05)
p.sendall(par)
time.sleep(0.05)
os.kill(int(sys.argv[2]), signal.SIGCONT)
p.close()
c.close()
PY
	stats "$work/ord.stats"
	check "one round is handled in time order, not arrival order" sh -c \
		"grep -q '\"child_start\"' '$work/ord.tee' && head -n 1 '$work/ord.tee' | grep -q '\"child_start\"'"
	stop_bridge
fi

echo "1..$n"
exit $rc
