# SPDX-License-Identifier: GPL-2.0
#
# steps.py - gdb script of make bench-steps (see steps.sh): single-steps
# khist's probe through whole events and counts the instructions of each
# function. Environment: KHSTEPS_PORT (QEMU's gdb stub), KHSTEPS_SYMS
# (the guest's /proc/kallsyms functions), KHSTEPS_PROBE (the
# probe function), KHSTEPS_EVENTS (events traced), KHSTEPS_OUT (report;
# the first event's instructions, one per line as function+offset, go to
# KHSTEPS_OUT.trace).
import bisect
import os
import gdb

port = os.environ["KHSTEPS_PORT"]
probe = os.environ["KHSTEPS_PROBE"]
events = int(os.environ.get("KHSTEPS_EVENTS", "3"))
skip = int(os.environ.get("KHSTEPS_SKIP", "200"))
out = os.environ["KHSTEPS_OUT"]

syms = []
for path in (os.environ["KHSTEPS_SYMS"],):
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in "tTwW":
                syms.append((int(p[0], 16), p[2]))
syms.sort()
addrs = [a for a, _ in syms]
where = {n: a for a, n in syms}


def name(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    return syms[i][1] if i >= 0 else "?"


def name_off(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    return "%s+0x%x" % (syms[i][1], pc - syms[i][0]) if i >= 0 else hex(pc)


gdb.execute("set pagination off")
gdb.execute("target remote :%s" % port)
gdb.execute("break *0x%x" % where[probe])
for _ in range(skip):
    gdb.execute("continue", to_string=True)

rep = open(out, "w")
totals = []
for ev in range(events):
    gdb.execute("continue", to_string=True)
    sp = int(gdb.parse_and_eval("$rsp"))
    ret = int(gdb.parse_and_eval("*(unsigned long *)$rsp"))
    counts = {}
    order = []
    trace = []
    n = 0
    while True:
        pc = int(gdb.parse_and_eval("$pc"))
        if pc == ret and int(gdb.parse_and_eval("$rsp")) > sp:
            break
        f = name(pc)
        counts[f] = counts.get(f, 0) + 1
        if not order or order[-1][0] != f:
            order.append([f, 0])
        order[-1][1] += 1
        if ev == 0:
            trace.append(name_off(pc))
        n += 1
        gdb.execute("stepi", to_string=True)
    totals.append(n)
    rep.write("event %d: %d instructions in %s\n" % (ev + 1, n, probe))
    for f, c in sorted(counts.items(), key=lambda x: -x[1]):
        rep.write("  %6d  %s\n" % (c, f))
    rep.write("  sequence:")
    for f, c in order:
        rep.write(" %s(%d)" % (f, c))
    rep.write("\n")
    if trace:
        with open(out + ".trace", "w") as t:
            t.write("\n".join(trace) + "\n")
rep.write("total per event: %s\n" % " ".join(map(str, totals)))
rep.close()
gdb.execute("kill")
