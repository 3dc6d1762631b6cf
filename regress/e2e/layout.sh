#!/bin/sh
# The layout README's "Layout" table describes: every folder it names exists and every source file
# under translator/ and rt/ lies in one of them, named in its row; no file over 1,000 lines; each
# file opens with a comment saying its job; and the include rules hold (pathcc and pathprof include
# the model, never each other; the model neither; the runtime core and embedded back ends no libc,
# no hosted part of the runtime; the runtime nothing of the translator).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
python3 - <<'EOF'
import os, re, sys
ok = nok = 0
def check(cond, name, why=''):
    global ok, nok
    if cond: ok += 1; print('ok layout ' + name)
    else: nok += 1; print('not ok layout %s: %s' % (name, why))

readme = open('README.md').read()
sec = readme.split('\n## Layout\n', 1)[1].split('\n## ', 1)[0]
rows = {}
for line in sec.split('\n'):
    m = re.match(r'\| `((?:translator|rt)/[^`]*)/` \| (.*?) \| (.*?) \|$', line)
    if m: rows[m.group(1)] = m.group(2)
check(len(rows) >= 8, 'table rows', 'found %d folder rows in README "Layout"' % len(rows))
for d in sorted(rows):
    check(os.path.isdir(d), 'folder ' + d, 'README names it, the tree has no such folder')

sources = []
for base in ('translator', 'rt'):
    for dirpath, dirs, files in os.walk(base):
        for f in files:
            if f.endswith(('.c', '.h')): sources.append(os.path.join(dirpath, f))
for f in sorted(sources):
    d = os.path.dirname(f)
    stem = os.path.splitext(os.path.basename(f))[0]
    if d not in rows:
        check(False, 'placed ' + f, 'its folder %s is not in README\'s layout table' % d); continue
    if f.endswith('.c'):
        check('`%s`' % stem in rows[d], 'named ' + f, 'README\'s row for %s does not name `%s`' % (d, stem))
    text = open(f).read()
    n = text.count('\n')
    check(n <= 1000, 'size ' + f, '%d lines (at most 1,000)' % n)
    check(text.startswith('/*'), 'opening ' + f, 'does not open with a comment saying its job')

def includes(f):
    return re.findall(r'^\s*#\s*include\s*([<"][^>"]+[>"])', open(f).read(), re.M)
rules = [  # folder prefix, forbidden include pattern, why
    ('translator/pathcc/', r'^"pathprof/', 'pathcc includes pathprof'),
    ('translator/pathprof/', r'^"pathcc/|^<clang-c/', 'pathprof includes pathcc or libclang'),
    ('translator/model/', r'^"pathcc/|^"pathprof/|^<clang-c/', 'the model includes a program'),
    ('rt/', r'^"(model|pathcc|pathprof)/', 'the runtime includes the translator'),
    ('rt/core/', r'^"(posix|profile|embedded)/|^<(stdio|stdlib|string|unistd|pthread|fcntl)\.h>', 'the freestanding core includes a hosted part'),
    ('rt/embedded/', r'^"(posix|profile)/|^<(stdio|stdlib|string|unistd|pthread|fcntl)\.h>', 'a bare-metal back end includes a hosted part'),
    ('rt/profile/', r'^"(core|posix|embedded)/', 'the profile model includes the runtime'),
]
for prefix, pat, why in rules:
    bad = ['%s: #include %s' % (f, i) for f in sources if f.startswith(prefix) for i in includes(f) if re.search(pat, i)]
    check(not bad, 'includes ' + prefix, why + ': ' + '; '.join(bad[:3]))
# a cross-folder include names its folder: a bare name must be in the including file's folder
bad = []
for f in sources:
    for i in includes(f):
        if i.startswith('"') and '/' not in i and i != '"pathprof.h"' and not i.endswith('.inc"'):
            if not os.path.exists(os.path.join(os.path.dirname(f), i.strip('"'))): bad.append('%s: %s' % (f, i))
check(not bad, 'bare includes are same-folder', '; '.join(bad[:3]))
sys.exit(1 if nok else 0)
EOF
