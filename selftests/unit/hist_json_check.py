#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hist_json_check.py SCHEMA DOC [REF] - check a khist hist_json document.

1. strict RFC 8259 parse: no NaN/Infinity, no repeated member names;
2. the JSON Schema (python3-jsonschema when installed, else the small
   validator below, which knows the keywords the shipped schema uses);
3. with REF (written by selftests/unit/hist_json_test.c independently of
   the renderer): every entry field by field - raw keys, string bytes,
   the modifiers' renderings, hitcount and sums, .stats exactly and
   .quantiles within 1/128 of the sorted values, the entries' order
   against the trigger's sort keys, the totals.
Prints what differs and exits 1 on the first failing document.
"""
import json
import re
import sys


def fail(msg):
    print("# hist_json_check: " + msg)
    sys.exit(1)


def no_dupes(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            fail("repeated member name %r" % k)
        seen[k] = v
    return seen


def bad_constant(c):
    fail("not JSON: %s" % c)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        fail("%s: not UTF-8: %s" % (path, e))
    return json.loads(text, object_pairs_hook=no_dupes,
                      parse_constant=bad_constant)


# A validator for the subset of JSON Schema the shipped schema uses.
class Invalid(Exception):
    pass


def bad(msg):
    raise Invalid(msg)


def mini_validate(inst, sch, root, path="$"):
    if "$ref" in sch:
        node = root
        for part in sch["$ref"].lstrip("#/").split("/"):
            node = node[part]
        mini_validate(inst, node, root, path)
    types = sch.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        okt = False
        for t in types:
            if t == "object" and isinstance(inst, dict):
                okt = True
            elif t == "array" and isinstance(inst, list):
                okt = True
            elif t == "string" and isinstance(inst, str):
                okt = True
            elif t == "integer" and isinstance(inst, int) and \
                    not isinstance(inst, bool):
                okt = True
            elif t == "boolean" and isinstance(inst, bool):
                okt = True
            elif t == "null" and inst is None:
                okt = True
        if not okt:
            bad("%s: %r is not %s" % (path, inst, types))
    if "const" in sch and inst != sch["const"]:
        bad("%s: %r != %r" % (path, inst, sch["const"]))
    if "pattern" in sch and isinstance(inst, str) and \
            not re.search(sch["pattern"], inst):
        bad("%s: %r does not match %s" % (path, inst, sch["pattern"]))
    if "enum" in sch and inst not in sch["enum"]:
        bad("%s: %r not in %r" % (path, inst, sch["enum"]))
    if isinstance(inst, int) and not isinstance(inst, bool):
        if "minimum" in sch and inst < sch["minimum"]:
            bad("%s: %r < minimum" % (path, inst))
        if "maximum" in sch and inst > sch["maximum"]:
            bad("%s: %r > maximum" % (path, inst))
    if "anyOf" in sch:
        for sub in sch["anyOf"]:
            try:
                mini_validate(inst, sub, root, path)
                break
            except Invalid:
                continue
        else:
            bad("%s: %r matches no alternative" % (path, inst))
    if isinstance(inst, dict):
        for r in sch.get("required", []):
            if r not in inst:
                bad("%s: %r missing" % (path, r))
        props = sch.get("properties", {})
        for k, v in inst.items():
            if k in props:
                mini_validate(v, props[k], root, path + "." + k)
            elif sch.get("additionalProperties") is False:
                bad("%s: unexpected %r" % (path, k))
            elif isinstance(sch.get("additionalProperties"), dict):
                mini_validate(v, sch["additionalProperties"], root,
                              path + "." + k)
    if isinstance(inst, list):
        if "minItems" in sch and len(inst) < sch["minItems"]:
            bad("%s: too few items" % path)
        if "maxItems" in sch and len(inst) > sch["maxItems"]:
            bad("%s: too many items" % path)
        if "items" in sch:
            for i, v in enumerate(inst):
                mini_validate(v, sch["items"], root, "%s[%d]" % (path, i))


def validate(doc, schema):
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    if jsonschema is not None:
        try:
            jsonschema.validate(doc, schema)
        except jsonschema.ValidationError as e:
            fail("schema (jsonschema): %s at %s" %
                 (e.message, list(e.absolute_path)))
    # The small validator runs too, so that it is tested where jsonschema
    # is installed.
    try:
        mini_validate(doc, schema, schema)
    except Invalid as e:
        fail("schema (small validator): %s" % e)


def str_bytes(s, hexform=None):
    """The bytes a JSON string stands for: its UTF-8 encoding, or, when
    the original was not valid UTF-8, the writer's *_hex member."""
    if hexform is not None:
        return list(bytes.fromhex(hexform))
    return list(s.encode("utf-8"))


def m_is_str(kd):
    return kd["modifier"] not in ("hex", "sym", "sym-offset", "execname",
                                  "syscall", "log2", "buckets")


def exact_q(vals, per10k):
    n = len(vals)
    rank = max(1, (n * per10k + 9999) // 10000)
    return vals[rank - 1]


def check_ref(doc, ref):
    t = doc["triggers"][0]
    if "\n" in t["trigger"] or not t["trigger"].startswith("hist:"):
        fail("trigger text %r" % t["trigger"])
    ents = t["entries"]
    rents = ref["entries"]
    if len(ents) != len(rents):
        fail("%d entries, reference has %d" % (len(ents), len(rents)))
    if t["totals"]["entries"] != len(ents):
        fail("totals.entries")
    byk = {}
    for r in rents:
        byk[json.dumps(r["key"])] = r
    keys = t["keys"]
    vals = [v["name"] for v in t["values"]]
    hits = 0
    for e in ents:
        raw = []
        for k, kd in zip(e["key"], keys):
            if kd["name"] != k["name"]:
                fail("key name %r != %r" % (k["name"], kd["name"]))
            v = k["value"]
            if isinstance(v, str) and m_is_str(kd):
                raw.append(str_bytes(v, k.get("value_hex")))
            elif isinstance(v, str):
                fail("numeric key %r written as a string" % k)
            else:
                raw.append(v)
            m = kd["modifier"]
            if m == "log2" and "log2_sub_bits" in kd:
                # .log2=k: value is the low bound of a bucket 2^(e-k) wide
                sub = kd["log2_sub_bits"]
                ex = v.bit_length() - 1 if v else 0
                w = 1 << (ex - sub) if ex > sub else 1
                if v % w or (k["low"], k["high"]) != (v, v + w - 1):
                    fail("log2=%d bounds of %d: %r" % (sub, v, k))
            elif m == "log2":
                lo = (1 << (v - 1)) + 1 if v else 0
                if (k["low"], k["high"]) != (lo, 1 << v if v < 64 else
                                             2**64 - 1):
                    fail("log2 bounds of %d: %r" % (v, k))
            if m == "buckets":
                if k["low"] != v or k["high"] != v + kd["bucket_size"] - 1:
                    fail("bucket bounds %r" % k)
            if m == "syscall":
                names = ["read", "write", "open", "close"]
                want = names[v] if v < 4 else "unknown_syscall"
                if k["syscall"] != want:
                    fail("syscall %r" % k)
            if m in ("sym", "sym-offset"):
                want = "sym_%x" % v + ("+0x0/0x10" if m == "sym-offset"
                                       else "")
                if k["symbol"] != want:
                    fail("symbol %r" % k)
            if kd["name"] == "common_stacktrace" or m == "stacktrace":
                want = ["sym_%x+0x0/0x10" % a for a in v]
                if k["symbols"] != want:
                    fail("stack symbols %r" % k)
        r = byk.get(json.dumps(raw))
        if r is None:
            fail("entry with key %r not in the reference" % raw)
        for k, kd in zip(e["key"], keys):
            if kd["modifier"] == "execname":
                if str_bytes(k["execname"],
                             k.get("execname_hex")) != r["comm"]:
                    fail("execname %r != %r" % (k["execname"], r["comm"]))
        # vals[] of the trigger: hitcount first unless nohitcount
        names_all = [v for v in vals]
        vi = 0 if names_all and names_all[0] == "hitcount" else 1
        for name in names_all:
            base = name.split("#")[0]
            idx = vi
            vi += 1
            if e["values"][name] != r["sums"][idx]:
                fail("value %s: %d != %d" % (name, e["values"][name],
                                              r["sums"][idx]))
            data = sorted(r["values"][idx])
            if name in e.get("stats", {}):
                s = e["stats"][name]
                n = len(data)
                want = {"count": n, "sum": sum(data) % 2**64,
                        "min": data[0], "max": data[-1],
                        "mean": (sum(data) % 2**64) // n}
                for f, w in want.items():
                    if s[f] != w:
                        fail("stats %s.%s: %d != %d" % (name, f, s[f], w))
                mean = sum(data) / n
                sd = (sum((x - mean) ** 2 for x in data) / n) ** 0.5
                if abs(s["stddev"] - sd) > sd / 100 + (data[-1] >> 30) + 1:
                    fail("stats %s.stddev %d, exact %.1f" %
                         (name, s["stddev"], sd))
            if name in e.get("quantiles", {}):
                q = e["quantiles"][name]
                for qn, per in (("p50", 5000), ("p90", 9000),
                                ("p99", 9900), ("p99.9", 9990)):
                    w = exact_q(data, per)
                    if abs(q[qn] - w) > w // 128:
                        fail("%s.%s = %d, exact %d" % (name, qn, q[qn], w))
                if q["max"] != data[-1] or q["count"] != len(data):
                    fail("%s max/count" % name)
                if sum(b[2] for b in q["buckets"]) != len(data):
                    fail("%s buckets do not add up" % name)
                for b in q["buckets"]:
                    inb = [x for x in data if b[0] <= x <= b[1]]
                    if len(inb) != b[2]:
                        fail("%s bucket %r holds %d" % (name, b, len(inb)))
            _ = base
        if "hitcount" in e["values"]:
            hits += e["values"]["hitcount"]
        else:
            hits += r["sums"][0]
    if t["totals"]["hits"] != hits or t["totals"]["dropped"] != 0:
        fail("totals %r, hits %d" % (t["totals"], hits))
    # Order: the first sort key never goes the wrong way.
    s0 = t["sort"][0]
    def sval(e):
        f = s0["field"]
        if "figure" in s0:
            for kind in ("quantiles", "stats"):
                if f in e.get(kind, {}):
                    return e[kind][f][s0["figure"]]
            return None
        if f in e["values"]:
            return e["values"][f]
        for k in e["key"]:
            if k["name"] == f:
                v = k["value"]
                if isinstance(v, str):
                    return str_bytes(v, k.get("value_hex"))
                return v
        return None
    seq = [sval(e) for e in ents]
    if None not in seq:
        want = sorted(seq, reverse=s0["descending"])
        if seq != want:
            fail("entries not in %s order" % s0)


def main():
    if len(sys.argv) < 3:
        fail("usage: hist_json_check.py SCHEMA DOC [REF]")
    schema = load(sys.argv[1])
    doc = load(sys.argv[2])
    validate(doc, schema)
    if len(sys.argv) > 3:
        check_ref(doc, load(sys.argv[3]))


main()
