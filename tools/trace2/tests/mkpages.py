#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# mkpages.py LOG DIR - a stand-in for a khist mount holding the records of
# a record log in its ring buffer, to test `render --khist` on the host.
# DIR gets events/user_events/<event>/id for every R line (ids from 300
# on) and per_cpu/cpu0..2/trace_pipe_raw: 4096-byte sub-buffers as the
# ring buffer writes them. Records go round-robin to the CPUs in the log's
# order, with rising time stamps, so that only a merge by time gives the
# log's order back. The pages use every kind of event header: small data
# events (type 1-28, padded to 4 bytes), long ones (type 0 with a length
# word), time extends (a delta above 2^27), absolute time stamps, a
# discarded event (padding with a length), records of an event that is
# not a trace2 one, and the padding that ends a full sub-buffer. cpu2 is
# empty. Prints nothing; exits non-zero on a malformed log.
import os
import struct
import sys

PAGE = 4096
CPUS = 3


def main():
    log, out = sys.argv[1], sys.argv[2]
    ids = {}
    recs = []
    with open(log) as f:
        for line in f:
            kind, idx, rest = line.rstrip("\n").split(" ", 2)
            if kind == "R":
                name = rest.split(" ", 1)[0]
                ids[idx] = 300 + len(ids)
                d = os.path.join(out, "events", "user_events", name)
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, "id"), "w") as g:
                    g.write("%d\n" % ids[idx])
            else:
                recs.append((ids[idx], bytes.fromhex(rest)))
    # An event that is not a trace2 one (its id is nobody's here).
    other = 299
    pages = [[] for _ in range(CPUS)]
    cur = [None] * CPUS
    last = [0] * CPUS
    ts = 1_000_000_000

    def flush(cpu):
        if cur[cpu] is None:
            return
        stamp, body, lost = cur[cpu]
        commit = len(body) | (1 << 31 if lost else 0)
        page = struct.pack("<QQ", stamp, commit) + body
        # The unused rest: a padding header with a zero delta.
        page += struct.pack("<I", 29) if len(page) + 4 <= PAGE else b""
        page += b"\0" * (PAGE - len(page))
        pages[cpu].append(page)
        cur[cpu] = None

    def put(cpu, stamp, ev):
        # ev: a list of encoded event chunks that must share one page.
        size = sum(len(c) for c in ev)
        if cur[cpu] is not None and 16 + len(cur[cpu][1]) + size > PAGE:
            flush(cpu)
        if cur[cpu] is None:
            lost = cpu == 1 and len(pages[cpu]) == 1
            cur[cpu] = [stamp, b"", lost]
            last[cpu] = stamp
        cur[cpu][1] += b"".join(ev)

    def data_event(delta, payload):
        n = len(payload)
        if n % 4:
            payload += b"\xa5" * (4 - n % 4)
        if len(payload) <= 28 * 4:
            return struct.pack("<I", (delta << 5) | (len(payload) // 4)) + payload
        return struct.pack("<II", delta << 5, len(payload) + 4) + payload

    for i, (eid, payload) in enumerate(recs):
        cpu = i % 2
        step = 1 + (i * 7919) % 5000
        if i % 17 == 5:
            step += 1 << 28  # needs a time extend
        ts += step
        data = struct.pack("<HBBi", eid, 1, 0, 4242) + payload
        if cur[cpu] is None or 16 + len(cur[cpu][1]) + 40 + len(data) > PAGE:
            flush(cpu)
            put(cpu, ts, [])
        delta = ts - last[cpu]
        chunks = []
        if i % 23 == 3:
            # An absolute stamp (the low 59 bits), then a zero delta.
            chunks.append(struct.pack("<II", ((ts & ((1 << 27) - 1)) << 5) | 31,
                                      (ts >> 27) & 0xffffffff))
            delta = 0
        elif delta >= 1 << 27:
            chunks.append(struct.pack("<II", ((delta & ((1 << 27) - 1)) << 5) | 30,
                                      delta >> 27))
            delta = 0
        if i % 11 == 4:
            # A discarded event, then another event's record.
            chunks.append(struct.pack("<II", (1 << 5) | 29, 12) + b"\0" * 8)
            chunks.append(data_event(0, struct.pack("<HBBi", other, 0, 0, 1) + b"xyzw"))
        chunks.append(data_event(delta, data))
        put(cpu, ts, chunks)
        last[cpu] = ts
    for cpu in range(CPUS):
        flush(cpu)
        d = os.path.join(out, "per_cpu", "cpu%d" % cpu)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "trace_pipe_raw"), "wb") as g:
            g.write(b"".join(pages[cpu]))


if __name__ == "__main__":
    main()
