#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# t2check.py - the oracle of the khist-trace2 tests, written apart from
# the bridge (Python's json module, not the bridge's reader):
#   roundtrip SRC RENDERED  every well-formed SRC line (Git's Trace2 event
#                           text) against the line `render --format event`
#                           made from its record: same keys in the same
#                           order (file/line are not carried) and the same
#                           values (argv/ancestry compared joined, as the
#                           records carry them)
#   order TEE               the order the bridge handled lines in (its
#                           --tee file): a child process's lines come
#                           after the child_start of its parent and before
#                           the parent's child_exit (the child is found by
#                           the pid of child_exit and its sid's P%08x)
#   counts SRC STATS        the bridge's counters (`ctl stats` text)
#                           against a count of SRC: lines, malformed lines,
#                           lines per event
# Prints what differs and exits 1.
import json
import sys

KNOWN = {"version", "start", "exit", "atexit", "signal", "error", "cmd_path",
         "cmd_ancestry", "cmd_name", "cmd_mode", "alias", "child_start",
         "child_exit", "child_ready", "exec", "exec_result", "thread_start",
         "thread_exit", "def_param", "def_repo", "region_enter",
         "region_leave", "data", "data_json", "timer", "th_timer", "counter",
         "th_counter", "printf", "too_many_files"}


def lines(path):
    with open(path, "rb") as f:
        for raw in f.read().split(b"\n")[:-1]:
            yield raw


class Obj(list):
    pass


def wellformed(raw):
    try:
        o = json.loads(raw.decode("utf-8", "surrogateescape"),
                       object_pairs_hook=Obj)
    except ValueError:
        return None
    if not isinstance(o, Obj):
        return None
    d = dict(o)
    if not isinstance(d.get("event"), str) or not d["event"] or \
            not isinstance(d.get("sid"), str) or not d["sid"]:
        return None
    return o


def norm(event, k, v):
    if k in ("argv",) and isinstance(v, list):
        return " ".join(v)
    if k == "ancestry" and isinstance(v, list):
        return " <- ".join(v)
    if isinstance(v, list):
        return json.dumps(v)
    if isinstance(v, float):
        return "%.6f" % v
    return v


def roundtrip(src, rendered):
    srcs = [o for o in (wellformed(r) for r in lines(src)) if o is not None]
    outs = [json.loads(r.decode("utf-8", "surrogateescape"),
                       object_pairs_hook=list) for r in lines(rendered)]
    bad = 0
    # The records carry a process's sid only in its version and start
    # events: other lines render with "sid":"" until one of those is seen.
    seen = set()
    for a in srcs:
        d = dict(a)
        if d["event"] in ("version", "start"):
            seen.add(d["sid"])
        elif d["sid"] not in seen:
            a[[k for k, _ in a].index("sid")] = ("sid", "")
    if len(srcs) != len(outs):
        print("roundtrip: %d well-formed lines, %d rendered" %
              (len(srcs), len(outs)))
        bad += 1
    for i, (a, b) in enumerate(zip(srcs, outs)):
        ev = dict(a)["event"]
        if ev in KNOWN:
            a = [(k, v) for k, v in a if k not in ("file", "line")]
        ka = [k for k, _ in a]
        kb = [k for k, _ in b]
        va = [norm(ev, k, v) for k, v in a]
        vb = [norm(ev, k, v) for k, v in b]
        if ka != kb or va != vb:
            bad += 1
            if bad <= 5:
                print("roundtrip: line %d differs:\n  git:    %s\n  render: %s"
                      % (i + 1, json.dumps(a), json.dumps(b)))
    print("roundtrip: %d lines, %d differ" % (len(srcs), bad))
    return bad == 0


def counts(src, stats):
    st = {}
    with open(stats) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            st[k] = v
    n = malformed = 0
    per = {}
    for raw in lines(src):
        n += 1
        o = wellformed(raw)
        if o is None:
            malformed += 1
            continue
        ev = dict(o)["event"]
        ev = ev if ev in KNOWN else "unknown"
        per[ev] = per.get(ev, 0) + 1
    want = {"lines": n, "malformed": malformed}
    for ev in KNOWN | {"unknown"}:
        want["event_" + ev] = per.get(ev, 0)
    bad = [k for k in sorted(want) if str(want[k]) != st.get(k)]
    for k in bad:
        print("counts: %s: stream %s, bridge %s" % (k, want[k], st.get(k)))
    print("counts: %d lines, %d malformed, %d events, %d counters differ" %
          (n, malformed, len(per), len(bad)))
    return not bad


def order(tee):
    evs = [dict(o) for o in (wellformed(r) for r in lines(tee)) if o]
    first, last, start, bad, n = {}, {}, {}, 0, 0
    for i, d in enumerate(evs):
        pid = d["sid"].rsplit("-P", 1)[-1]
        first.setdefault(pid, i)
        last[pid] = i
        if d["event"] == "child_start":
            start[(d["sid"], d.get("child_id"))] = i
    for i, d in enumerate(evs):
        if d["event"] != "child_exit":
            continue
        child = "%08x" % d.get("pid", 0)
        s = start.get((d["sid"], d.get("child_id")))
        if child not in first or s is None:
            continue
        n += 1
        if not s < first[child] <= last[child] < i:
            bad += 1
            if bad <= 5:
                print("order: child P%s lines %d..%d, child_start %d, "
                      "child_exit %d" % (child, first[child], last[child],
                                         s, i))
    print("order: %d traced children, %d out of order" % (n, bad))
    return bad == 0 and n > 0


if __name__ == "__main__":
    ok = {"roundtrip": roundtrip, "counts": counts, "order": order}[sys.argv[1]](*sys.argv[2:])
    sys.exit(0 if ok else 1)
