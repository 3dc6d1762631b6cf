#!/usr/bin/env python3
"""MC/DC against clang-19's: pathprof's unique-cause MC/DC (pathprof coverage --mcdc=unique-cause
--format json) and clang's (-fcoverage-mcdc, llvm-cov export) of one source file, decision by
decision. Every decision both tools see with the same number of conditions must have the same
covered conditions; the others are listed ("# differs FILE:LINE:COL: why") with the reason.

usage: mcdccmp.py TAG NAME SOURCE PATHPROF_JSON LLVM_EXPORT_JSON CLANG_BUILD_LOG
Prints "ok TAG NAME: N decisions agree (C/T conditions covered by both), D seen differently" or
"not ok TAG NAME: ..." and, for totals over many programs, a line
"# mcdccmp NAME agree=N covered=C conditions=T differ=D disagree=X"."""
import json, os, re, sys

tag, name, src, ours, theirs, clang_log = sys.argv[1:7]
base = os.path.basename(src)
# clang's own reasons for leaving a decision out: "f.c:38:7: warning: unsupported MC/DC ..."
why = {}
for l in open(clang_log, errors='replace'):
    m = re.match(r'^(.*?):(\d+):(\d+): warning: (.*MC/DC.*?)(;.*)?$', l)
    if m and os.path.basename(m.group(1)) == base: why[int(m.group(2))] = 'clang: ' + m.group(4)
ud = {}
for d in json.load(open(ours))['decisions']:
    if os.path.basename(d['file']) == base and len(d['conditions']) > 1:
        ud[(d['line'], d['column'])] = [c['covered'] for c in d['conditions']]
cd = {}
for f in json.load(open(theirs))['data'][0]['files']:
    if os.path.basename(f['filename']) == base:
        for r in f.get('mcdc_records', []):
            cd[(r[0], r[1])] = list(r[6])
# one decision on a line each side: the same decision, whatever column each tool starts it at
for line in set(l for l, c in ud) & set(l for l, c in cd):
    a, b = [k for k in ud if k[0] == line], [k for k in cd if k[0] == line]
    if len(a) == 1 and len(b) == 1 and a != b: ud[b[0]] = ud.pop(a[0])
agree = differ = cov = tot = 0
fails = []
for k in sorted(set(ud) | set(cd)):
    a, b = ud.get(k), cd.get(k)
    if a is None or b is None:
        print('# differs %s:%d:%d: only %s sees it (%s)' % (base, k[0], k[1], 'pathprof' if b is None else 'clang',
              why.get(k[0], 'clang takes a ?: inside a condition as one condition, so it sees fewer than 2' if b is None else 'pathprof splits a condition holding a ?:')))
        differ += 1
    elif len(a) != len(b):
        print('# differs %s:%d:%d: %d conditions here, %d for clang (clang takes a ?: inside a condition as one condition)'
              % (base, k[0], k[1], len(a), len(b)))
        differ += 1
    elif a != b:
        fails.append('%s:%d:%d covered %s, clang %s' % (base, k[0], k[1], a, b))
    else:
        agree += 1; cov += sum(a); tot += len(a)
print(('not ok %s %s: %s' % (tag, name, '; '.join(fails))) if fails else 'ok %s %s: %d decisions agree (%d/%d conditions covered by both), %d seen differently' % (tag, name, agree, cov, tot, differ))
print('# mcdccmp %s agree=%d covered=%d conditions=%d differ=%d disagree=%d' % (name, agree, cov, tot, differ, len(fails)))
