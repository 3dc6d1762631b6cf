#!/bin/sh
# The user documents (README.md, doc/*.md, bench/README.md): every relative link resolves to a file
# of the tree, and an anchor to a heading of its page; none cites an issue ("issue 12") or a date
# (2026-11-25): they say what is, history lives in git. README stays a front page (<= 300 lines).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
python3 - README.md doc/*.md bench/README.md <<'EOF2'
import os, re, sys
def check(cond, name, why):
    print(('ok %s' % name) if cond else ('not ok %s: %s' % (name, why)))
def slug(h):
    # GitHub's anchors: lower case, punctuation but '-' and '_' dropped, spaces to '-'
    h = re.sub(r'`|\*\*|\[|\]\([^)]*\)', '', h.strip().lower())
    return re.sub(r'[^\w\- ]', '', h).replace(' ', '-')
def anchors(path):
    text = re.sub(r'^```.*?^```', '', open(path).read(), flags=re.M | re.S)
    return {slug(m) for m in re.findall(r'^#+ (.*)$', text, re.M)}
files = sys.argv[1:]
nlinks = 0
for f in files:
    raw = open(f).read()
    text = re.sub(r'^```.*?^```', '', raw, flags=re.M | re.S)     # links in code are not links
    text = re.sub(r'`[^`\n]*`', '', text)
    bad = []
    for target in re.findall(r'\]\(([^)\s]+)\)', text):
        if re.match(r'[a-z]+:', target): continue
        nlinks += 1
        path, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(dest): bad.append(target + ' (no such file)')
        elif anchor and dest.endswith('.md') and anchor not in anchors(dest): bad.append(target + ' (no such heading)')
    check(not bad, 'doclinks %s' % f, '%d broken: %s' % (len(bad), ', '.join(bad[:5])))
    cites = re.findall(r'(?i)\bissues? #?\d+|\b20\d\d-\d\d-\d\d\b', raw)
    check(not cites, 'doclinks %s no-history' % f, 'cites %s' % ', '.join(sorted(set(cites))[:5]))
check(nlinks >= 30, 'doclinks count', 'only %d relative links found' % nlinks)
n = open('README.md').read().count('\n')
check(n <= 300, 'doclinks readme-length', 'README.md has %d lines (a front page has at most 300)' % n)
EOF2
