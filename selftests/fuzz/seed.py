#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# seed.py - (re)build the seed corpora in selftests/fuzz/corpus/<target>/
# from text that already exists: the ftrace trigger and filter selftests
# and Documentation/trace/{histogram,events}.rst of linux-source-6.12,
# khist's own Documentation/*.rst and the strings of the core's KUnit
# tests. Map seeds are short operation sequences made up here. Files are
# named by the SHA-1 of their content, as libFuzzer names what it finds,
# so running this again only adds what is new.
#
# The synthetic event seeds also come from the ftrace selftests' synthetic
# event tests (check_error lines included) and from synth_kunit.c; the
# event probe seeds from the ftrace eprobe tests, khist's in-VM tests and
# eprobe_kunit.c; the line splitting seeds are writes made of the lines
# those tests write to dynamic_events, synthetic_events and trigger.
#
# Usage: seed.py [KSRC]   (default /var/cache/khist/linux-source-6.12)

import glob
import hashlib
import os
import random
import re
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ksrc = sys.argv[1] if len(sys.argv) > 1 else '/var/cache/khist/linux-source-6.12'
corpus = os.path.join(top, 'selftests', 'fuzz', 'corpus')


def read(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def save(target, data, limit=4096):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > limit:
        return 0
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    p = os.path.join(d, hashlib.sha1(data).hexdigest())
    if os.path.exists(p):
        return 0
    with open(p, 'wb') as f:
        f.write(data)
    return 1


def shell_unquote(s):
    # check_error's caret marker and shell escapes are not part of a command
    return s.replace('^', '').replace('\\$', '$').replace('\\"', '"')


def c_unquote(s):
    return s.encode().decode('unicode_escape', errors='replace')


ftrace = os.path.join(ksrc, 'tools/testing/selftests/ftrace/test.d')
kdocs = [os.path.join(ksrc, 'Documentation/trace', n)
         for n in ('histogram.rst', 'events.rst', 'histogram-design.rst')]
our_docs = glob.glob(os.path.join(top, 'Documentation', '*.rst'))
kunit = glob.glob(os.path.join(top, 'module/core/tests/*_kunit.c'))

hist, filt, synth = set(), set(), set()

# Shell and rst text: 'hist:...' / "hist:..." commands, as written.
for path in (glob.glob(os.path.join(ftrace, '**/*.tc'), recursive=True) +
             kdocs + our_docs):
    text = read(path)
    for m in re.finditer(r"'(!?hist:[^'\n]*)'|\"(!?hist:[^\"\n]*)\"", text):
        cmd = shell_unquote(m.group(1) or m.group(2)).strip()
        hist.add(cmd)
    for m in re.finditer(r'(?m)^\s*#?\s*echo\s+(!?hist:\S.*?)\s*>+', text):
        hist.add(shell_unquote(m.group(1)).strip("'\" "))
    # filters: the 'if' part of triggers and what is echoed into filter files
    for m in re.finditer(r"(?m)echo\s+(['\"])(.*?)\1\s*>+\s*(?:\S*/)?filter\b", text):
        filt.add(shell_unquote(m.group(2)))
    for m in re.finditer(r"(?m)echo\s+(['\"])(.*?)\1\s*>+\s*\S*set_event_filter", text):
        filt.add(shell_unquote(m.group(2)))
    # synthetic events: lines for synthetic_events and s: dynamic events
    for m in re.finditer(r"(?m)echo\s+(['\"])(.*?)\1\s*>+\s*(?:\S*/)?"
                         r"(synthetic_events|dynamic_events)\b", text):
        synth.add(shell_unquote(m.group(2)))
    for m in re.finditer(r"(?m)check_(?:dyn_)?error\s+'([^']*)'", text):
        if 'synthetic' in path:
            synth.add(shell_unquote(m.group(1)))
    if path.endswith(('/filters.rst', '/events.rst')):
        for m in re.finditer(r"``([^`\n]*(==|!=|<=|>=|~|&&|\|\|)[^`\n]*)``",
                             text):
            filt.add(m.group(1))

for cmd in list(hist):
    m = re.search(r'\sif\s+(.*)$', cmd)
    if m:
        filt.add(m.group(1))

# KUnit strings: C literals, concatenations not joined (each part is text).
for path in kunit:
    text = read(path)
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        s = c_unquote(m.group(1))
        if s.startswith('hist') or s.startswith('!hist'):
            hist.add(s)
            i = s.find(' if ')
            if i > 0:
                filt.add(s[i + 4:])
        elif 'synth' in os.path.basename(path) and 1 < len(s) < 300 and \
                (' ' in s or s.startswith(('!', 's:', '-:'))):
            synth.add(s)
        elif 'filter' in os.path.basename(path) and \
                re.search(r'==|!=|<|>|~|&', s) and len(s) < 300:
            filt.add(s)

n_hist = sum(save('hist', h) for h in sorted(hist) if h)
n_filt = sum(save('filter', f) for f in sorted(filt) if f.strip())
n_synth = sum(save('synth', x) for x in sorted(synth) if x.strip())

# Filters with a record attached: text, NUL, then bytes of a record.
rnd = random.Random(1)
n_filt_rec = 0
for f in sorted(filt)[:40]:
    rec = bytes(rnd.randrange(256) if rnd.random() < 0.3 else 0
                for _ in range(rnd.choice((0, 8, 64, 128, 200))))
    n_filt_rec += save('filter', f.encode() + b'\0' + rec)

# Map: shape bytes, then operations (see map_fuzz.c for the encoding).
n_map = 0
for shape in range(64):
    ops = bytearray([shape * 37 % 256, shape * 11 % 256, shape * 53 % 256,
                     0x80 | shape if shape % 5 == 0 else 0])
    for _ in range(rnd.randrange(8, 120)):
        op = rnd.randrange(256)
        ops.append(op)
        ops.extend(rnd.randrange(256) for _ in range(rnd.randrange(1, 11)))
    n_map += save('map', bytes(ops))
# Fill, grow, snapshot, clear: one of each, in order.
for shape in (0x06, 0x27, 0x4e, 0x3f):
    seq = bytearray([shape, 0x31, 0x45, 0])
    seq += bytes([0x06, 0x00, 0x1f, 0x16, 0x40, 0x1f, 0x0b, 0x36, 0x00,
                  0x3f, 0x0c, 0x02, 0x80, 0x41, 0x03, 0x0d, 0x0e, 0x1f,
                  0x05, 0x0f, 0x02, 0x0a, 0x0e, 0x0c, 0x01, 0x00, 0x00])
    n_map += save('map', bytes(seq))


# Event probes: e: lines of the ftrace eprobe tests (their shell variables
# expanded), of khist's in-VM tests and of eprobe_kunit.c ('^' is a caret
# marker there).
def expand(text):
    env = dict(re.findall(r'(?m)^\s*([A-Z_]+)="([^"]*)"', text))

    def sub(line):
        for _ in range(3):
            line = re.sub(r'\$\{?([A-Z_]+)\}?',
                          lambda m: env.get(m.group(1), m.group(0)), line)
        return line
    return sub


eprobe = set()
lines = {'dynamic_events': set(), 'synthetic_events': set(), 'trigger': set()}
vm_tests = (glob.glob(os.path.join(top, 'selftests/fs/test.d/**/*.tc'),
                      recursive=True) +
            glob.glob(os.path.join(top, 'selftests/fs/test.d/**/*.sh'),
                      recursive=True))
for path in glob.glob(os.path.join(ftrace, '**/*.tc'), recursive=True) + vm_tests:
    text = read(path)
    sub = expand(text)
    for m in re.finditer(r"(?m)echo\s+(['\"])(.*?)\1\s*>+\s*(?:\S*/)?"
                         r"(dynamic_events|synthetic_events|trigger)\b", text):
        cmd = shell_unquote(sub(m.group(2)))
        lines[m.group(3)].add(cmd)
        if re.match(r'e[:\s]', cmd):
            eprobe.add(cmd)
    for m in re.finditer(r"(?m)check_error\s+'(e[:\s][^']*)'", text):
        eprobe.add(shell_unquote(sub(m.group(1))))
ep_kunit = read(os.path.join(top, 'module/core/tests/eprobe_kunit.c'))
for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', ep_kunit):
    s = c_unquote(m.group(1)).replace('^', '')
    if 1 < len(s) < 300:
        eprobe.add(s)
# Most kunit cases are written EF "args": the line prefix is a macro.
for m in re.finditer(r'\{\s*EF\s+"((?:[^"\\\n]|\\.)*)"', ep_kunit):
    eprobe.add('e:foo/bar syscalls/sys_enter_openat ' +
               c_unquote(m.group(1)).replace('^', ''))
n_eprobe = sum(save('eprobe', e) for e in sorted(eprobe) if e.strip())

# Line splitting: byte 0 picks the file (0 dynamic_events, 1
# synthetic_events, 2 trigger), bytes 1-2 the size of each write; the
# rest is lines of that file, with comments, blank lines and NULs mixed
# in, some long enough to cross the 4 KiB chunks.
n_split = 0
files = ('dynamic_events', 'synthetic_events', 'trigger')
pool = {f: sorted(lines[f]) for f in files}
pool['dynamic_events'] += sorted(eprobe)[:200] + \
    ['s:' + x for x in sorted(synth)[:100]
     if not x.startswith(('!', 's:', '-:'))]
pool['synthetic_events'] += sorted(synth)
pool['trigger'] += sorted(hist)[:200]
for i, f in enumerate(files):
    p = pool[f]
    for k in range(60 if p else 0):
        wsize = rnd.choice((1, 7, 100, 4095, 4096, 8191, 8999))
        body = []
        for _ in range(rnd.randrange(1, 40 if i < 2 else 2)):
            line = rnd.choice(p)
            r = rnd.random()
            if r < 0.1:
                line += '  # a comment'
            elif r < 0.15:
                line = '# ' + line
            elif r < 0.2:
                line = ''
            elif r < 0.23:
                line += ' ' + 'x' * rnd.choice((4000, 4094, 4095, 4200))
            body.append(line)
        data = '\n'.join(body).encode()
        if rnd.random() < 0.5:
            data += b'\n'
        if k % 15 == 7:
            cut = rnd.randrange(len(data) + 1)
            data = data[:cut] + b'\0' + data[cut:]
        n_split += save('split', bytes([i, wsize % 256, wsize // 256]) + data,
                        20000)

# JSON writer: op bytes (see json_fuzz.c): low 3 bits the call, 0x80 a
# member name; strings carry their length and bytes, numbers 8 bytes.
n_json = 0
for body in (b'',
             b'\x84\x05ab"c\\',
             b'\xa5' + bytes(8) + b'\xc6\xff\xff\xff\xff\xff\xff\xff\xfe',
             b'\x81\x04\x03\xc3\xa9\xe9\x04\x02\x01\x1f\x07\x47\x03',
             b'\x80\xe1\x03\x02'):
    n_json += save('json', b'\x00' + body + b'\x02')
n_json += save('json', b'\x01' * 17)

print(f'seed: json +{n_json}')
print(f'seed: hist +{n_hist}, filter +{n_filt + n_filt_rec}, map +{n_map}, '
      f'synth +{n_synth}, eprobe +{n_eprobe}, split +{n_split}')
