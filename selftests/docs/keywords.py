#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# keywords.py [TOP] - doc coverage of the trigger language: every keyword
# and modifier the module's parsers accept, read from their tables in
# module/, must be a word of some ``literal`` of Documentation/*.rst.
# Prints TAP lines; exits 1 naming what is undocumented, or when a table
# was not found (so a renamed table cannot make the test pass empty).
import glob
import os
import re
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()


def src(path):
    with open(os.path.join(top, path)) as f:
        return f.read()


def table(text, start, end='};'):
    """The text of the C initializer that follows `start`."""
    i = text.find(start)
    if i < 0:
        return ''
    return text[i:text.find(end, i)]


# (what, file, how to cut the part out, pattern of the names in it)
RULES = [
    ('trigger command', 'module/core/trigger_parse.c',
     lambda t: table(t, 'trig_names['), r'\]\s*=\s*"([^"]+)"'),
    ('field modifier', 'module/core/hist_print.c',
     lambda t: table(t, 'khist_hist_flags_str('), r'\{\s*KHIST_HF_\w+,\s*"([^"]+)"'),
    ('sort modifier', 'module/core/hist_bind.c',
     lambda t: t, r'khist_span_eq\([^,]+,\s*[^,]+,\s*"(descending|ascending)"'),
    ('hist attribute', 'module/core/hist_parse.c',
     lambda t: t, r'"(\w+)=",?'),
    ('hist flag', 'module/core/hist_parse.c',
     lambda t: t, r'khist_span_eq\(cmd,\s*tok,\s*"(\w+)"\)'),
    ('handler', 'module/core/hist_parse.c',
     lambda t: t, r'has_prefix\([^,]+,\s*tok,\s*"(on\w+)\("'),
    ('action', 'module/core/hist_action.c',
     lambda t: t, r'has_prefix\(w,\s*name,\s*"(\w+)"\)'),
    ('special field', 'module/core/hist_bind_field.c',
     lambda t: t, r'khist_span_eq\(b->cmd,\s*fname,\s*"(\w+)"\)'),
    ('clock', 'module/hist/hist_data.c',
     lambda t: table(t, 'khist_clocks[] = {'), r'\{\s*"([^"]+)",'),
]

words = set()
for page in glob.glob(os.path.join(top, 'Documentation', '*.rst')):
    with open(page) as f:
        text = f.read()
    for lit in re.findall(r'``(.+?)``', text, re.S):
        words.update(re.findall(r'[A-Za-z0-9_-]+', lit))
    # literal blocks: the indented lines after a paragraph ending in "::"
    for block in re.findall(r'::\n\n((?:[ \t]+.*\n|\n)+)', text):
        words.update(re.findall(r'[A-Za-z0-9_-]+', block))

print('1..1')
missing = []
broken = []
n = 0
for what, path, cut, pat in RULES:
    names = sorted(set(re.findall(pat, cut(src(path)))))
    if not names:
        broken.append('%s (%s)' % (what, path))
    for name in names:
        n += 1
        if name not in words:
            missing.append('%s %s' % (what, name))
if broken or missing:
    print('not ok 1 - doc coverage: trigger keywords and modifiers')
    for b in broken:
        print('# no names found for the %s: its table moved?' % b)
    for m in missing:
        print('# undocumented %s (not a word of any ``literal`` in Documentation/)' % m)
    sys.exit(1)
print('ok 1 - doc coverage: %d trigger keywords and modifiers, each in Documentation/' % n)
