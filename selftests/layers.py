#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# layers.py - khist's layer rule, checked on the linker symbols of a built
# module: a file may call only its own directory and the layers below it.
#
# Every object of MODDIR/module/ is mapped to a directory and that directory
# to a layer (LAYERS below, bottom up; Documentation/design.rst explains
# them). An edge A -> B means A.o has an undefined symbol that B.o defines.
# An edge breaks the rule when B's layer is higher than A's, or when A and B
# are different directories of the same layer (they may not call each
# other). The only upward calls allowed are the per-hit hooks declared in
# module/events/hooks.h. Directory cycles are reported as well.
#
# Violations already recorded in the baseline file are tolerated (the
# layered redesign removes them); any other one fails the check.
import os
import re
import subprocess
import sys

# (layer, directories under module/), bottom up; "top" is module/*.c
# (instances.c, main.c). Memory accounting and fault injection (mem/) call
# nothing of khist's, and the filesystem charges its nodes to the one and
# allocates through the other, so they are a layer of their own below fs
# (the redesign's proposal had them in base/, above fs).
LAYERS = [
    (0, ["compat"]),
    (1, ["core"]),
    (2, ["mem"]),
    (3, ["fs"]),
    (4, ["base"]),
    (5, ["buffer"]),
    (6, ["events"]),
    (7, ["trigger", "synth"]),
    (8, ["hist", "eprobe"]),
    (9, ["files"]),
    (10, ["top"]),
]


def dir_of(rel):
    parts = rel.split("/")
    return parts[0] if len(parts) > 1 else "top"


def layer_of(d):
    for n, dirs in LAYERS:
        if d in dirs:
            return n
    return None


def read_objects(top, moddir):
    base = os.path.join(moddir, "module")
    objs = {}
    for root, _, files in os.walk(base, followlinks=True):
        for f in files:
            if not f.endswith(".o") or f.endswith(".mod.o"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, base)
            if rel.startswith("core/tests/"):
                continue
            # An object left over from a file that moved or went away.
            if not os.path.exists(os.path.join(top, "module",
                                               rel[:-2] + ".c")):
                continue
            out = subprocess.run(["nm", path], capture_output=True,
                                 text=True, check=True).stdout
            defs, undefs = set(), set()
            for line in out.splitlines():
                p = line.split()
                if len(p) == 2 and p[0] == "U":
                    undefs.add(p[1])
                elif len(p) == 3 and p[1] in "TDBRW":
                    defs.add(p[2])
            objs[rel] = (defs, undefs)
    return objs


def hooks(top):
    path = os.path.join(top, "module/events/hooks.h")
    if not os.path.exists(path):
        return set()
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r"\b(khist_\w+)\s*\(", text))


def scc(nodes, edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) != 4:
        print("usage: layers.py TOP MODDIR BASELINE", file=sys.stderr)
        return 2
    top, moddir, baseline = sys.argv[1:]
    objs = read_objects(top, moddir)
    if not objs:
        print("not ok - layers: no objects under %s/module" % moddir)
        return 1
    owner = {}
    for rel, (defs, _) in objs.items():
        for s in defs:
            owner[s] = rel
    allowed = hooks(top)
    unknown = sorted({dir_of(r) for r in objs if layer_of(dir_of(r)) is None})
    if unknown:
        print("not ok - layers: no layer for module/%s (add it to LAYERS in "
              "selftests/layers.py)" % ", module/".join(unknown))
        return 1

    found = set()
    file_edges, dir_edges = {}, {}
    for rel, (_, undefs) in objs.items():
        a = dir_of(rel)
        for s in undefs:
            tgt = owner.get(s)
            if not tgt or tgt == rel:
                continue
            file_edges.setdefault(rel, set()).add(tgt)
            b = dir_of(tgt)
            if a == b:
                continue
            if s in allowed:
                continue
            dir_edges.setdefault(a, set()).add(b)
            la, lb = layer_of(a), layer_of(b)
            if lb > la or (lb == la and a != b):
                found.add("%s -> %s %s" % (rel, tgt, s))

    known = set()
    if os.path.exists(baseline):
        for line in open(baseline):
            line = line.split("#", 1)[0].strip()
            if line:
                known.add(" ".join(line.split()))

    dir_cycles = scc(set(dir_of(r) for r in objs), dir_edges)
    file_cycles = scc(set(objs), file_edges)
    cyc_files = sum(len(c) for c in file_cycles)
    print("# %d objects, %d upward or sideways calls (%d in the baseline), "
          "%d files in call cycles, directory cycles: %s" %
          (len(objs), len(found), len(found & known), cyc_files,
           "; ".join(" ".join(c) for c in dir_cycles) or "none"))
    new = sorted(found - known)
    gone = sorted(known - found)
    for e in gone:
        print("# fixed (remove from the baseline): %s" % e)
    if new:
        print("not ok - layers: %d call(s) to a higher or sibling layer" %
              len(new))
        for e in new:
            print("#   %s" % e)
        print("# a lower layer reaches a higher one through an ops table or "
              "listener registered at init, or a hook in "
              "module/events/hooks.h (Documentation/design.rst)")
        return 1
    if dir_cycles and not known:
        print("not ok - layers: directory cycle(s): %s" %
              "; ".join(" ".join(c) for c in dir_cycles))
        return 1
    print("ok - layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
