#!/usr/bin/env python3
"""MC/DC against clang-19's: pathprof's unique-cause MC/DC (pathprof coverage --mcdc=unique-cause
--format json) and clang's (-fcoverage-mcdc, llvm-cov export) of one source file, decision by
decision. Every decision both tools see with the same number of conditions must have the same
covered conditions; the others are listed ("# differs FILE:LINE:COL: why") with the reason.

usage: mcdccmp.py TAG NAME SOURCE PATHPROF_JSON LLVM_EXPORT_JSON CLANG_BUILD_LOG
Each condition's true and false evaluation counts (from the executed vectors) must equal clang's
branch counts when clang's branch regions inside the decision are its conditions, one each.
Prints "ok TAG NAME: N decisions agree (C/T conditions covered by both; evaluations equal in E),
D seen differently" or "not ok TAG NAME: ..." and, for totals over many programs, a line
"# mcdccmp NAME agree=N covered=C conditions=T counted=E differ=D disagree=X"."""
import json, os, re, sys

tag, name, src, ours, theirs, clang_log = sys.argv[1:7]
base = os.path.basename(src)
# clang's own reasons for leaving a decision out: "f.c:38:7: warning: unsupported MC/DC ..."
why = {}
for l in open(clang_log, errors='replace'):
    m = re.match(r'^(.*?):(\d+):(\d+): warning: (.*MC/DC.*?)(;.*)?$', l)
    if m and os.path.basename(m.group(1)) == base: why[int(m.group(2))] = 'clang: ' + m.group(4)
def counts(d, k):
    """Condition k's evaluations as clang's branch region counts them: (true, false) of the
    condition with the !s before it (clang's region holds them), None for an integer constant
    (clang folds it and counts nothing)."""
    t = sum(v['count'] for v in d['vectors'] if v['values'][k] == 'T')
    f = sum(v['count'] for v in d['vectors'] if v['values'][k] == 'F')
    c = d['conditions'][k]
    if re.match(r'^\(*[-+]?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\)*$', c['text'].replace(' ', '')): return None
    # pathprof's condition is the operand of a !, which its text leaves out: count the !s before it
    line, bangs = lines[c['line'] - 1] if c['line'] <= len(lines) else '', 0
    i = c['column'] - 2
    while i >= 0 and line[i] in ' \t(!':
        bangs += line[i] == '!'
        i -= 1
    return (f, t) if bangs % 2 else (t, f)
lines = open(src, errors='replace').read().split('\n')
ud, fn, tf = {}, {}, {}
for d in json.load(open(ours))['decisions']:
    if os.path.basename(d['file']) == base and len(d['conditions']) > 1:
        ud[(d['line'], d['column'])] = [c['covered'] for c in d['conditions']]
        fn[(d['line'], d['column'])] = d['function']
        # each condition's evaluations by value, when no cut edge split one
        if not d['partial']:
            tf[(d['line'], d['column'])] = [counts(d, k) for k in range(len(d['conditions']))]
export = json.load(open(theirs))['data'][0]
# functions clang saw run none of: llvm-cov exports no MC/DC record for their decisions
idle = {f['name'].split(':')[-1] for f in export['functions'] if f['count'] == 0 and os.path.basename(f['filenames'][0]) == base}
ran = {d['function'] for d in json.load(open(ours))['decisions'] if d['evaluations'] or d['partial']}
cd, ctf, region = {}, {}, {}
for f in export['files']:
    if os.path.basename(f['filename']) == base:
        for r in f.get('mcdc_records', []):
            cd[(r[0], r[1])] = list(r[6])
            region[(r[0], r[1])] = ((r[0], r[1]), (r[2], r[3]))
            # clang's branch regions inside the decision, in source order: its conditions' true and false counts
            inside = sorted(b for b in f.get('branches', []) if (r[0], r[1]) <= (b[0], b[1]) and (b[2], b[3]) <= (r[2], r[3]))
            ctf[(r[0], r[1])] = [(b[4], b[5]) for b in inside]
# one decision on a line each side: the same decision, whatever column each tool starts it at
for line in set(l for l, c in ud) & set(l for l, c in cd):
    a, b = [k for k in ud if k[0] == line], [k for k in cd if k[0] == line]
    if len(a) == 1 and len(b) == 1 and a != b:
        ud[b[0]] = ud.pop(a[0]); fn[b[0]] = fn.pop(a[0])
        if a[0] in tf: tf[b[0]] = tf.pop(a[0])
agree = differ = cov = tot = counted = 0
fails = []
for k in sorted(set(ud) | set(cd)):
    a, b = ud.get(k), cd.get(k)
    if a is None or b is None:
        if b is None and k[0] not in why and fn[k] in idle and fn[k] not in ran:
            reason = 'its function never ran: llvm-cov exports no MC/DC record for it'
        elif a is None and k in region:
            # what pathprof keeps whole: a ?: inside the decision splits it, or operands of one
            # operator that both hold decisions ((a && b) > (c && d): C leaves their order open)
            (l1, c1), (l2, c2) = region[k]
            text = lines[l1 - 1][c1 - 1:c2] if l1 == l2 else '\n'.join(lines[l1 - 1:l2])
            reason = 'pathprof splits a condition holding a ?:' if '?' in text else \
                'pathprof keeps an expression whole when two of its operands hold decisions (C leaves their order open)'
        else:
            reason = why.get(k[0], 'clang takes a ?: inside a condition as one condition, so it sees fewer than 2' if b is None else 'pathprof splits a condition holding a ?:')
        print('# differs %s:%d:%d: only %s sees it (%s)' % (base, k[0], k[1], 'pathprof' if b is None else 'clang', reason))
        differ += 1
    elif len(a) != len(b):
        print('# differs %s:%d:%d: %d conditions here, %d for clang (clang takes a ?: inside a condition as one condition)'
              % (base, k[0], k[1], len(a), len(b)))
        differ += 1
    elif a != b:
        fails.append('%s:%d:%d covered %s, clang %s' % (base, k[0], k[1], a, b))
    else:
        agree += 1; cov += sum(a); tot += len(a)
        # the evaluations: each condition's true and false counts equal clang's branch counts (when
        # clang's branch regions inside the decision are its conditions, one each)
        if k in tf and len(ctf.get(k, [])) == len(a):
            counted += 1
            if any(x is not None and x != y for x, y in zip(tf[k], ctf[k])): fails.append('%s:%d:%d evaluations (true, false) %s, clang %s' % (base, k[0], k[1], tf[k], ctf[k]))
print(('not ok %s %s: %s' % (tag, name, '; '.join(fails))) if fails else 'ok %s %s: %d decisions agree (%d/%d conditions covered by both; evaluations equal in %d), %d seen differently' % (tag, name, agree, cov, tot, counted, differ))
print('# mcdccmp %s agree=%d covered=%d conditions=%d counted=%d differ=%d disagree=%d' % (name, agree, cov, tot, counted, differ, len(fails)))
