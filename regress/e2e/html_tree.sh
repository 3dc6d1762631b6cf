#!/bin/sh
# The HTML index for big projects, in headless Chromium, on a generated project of 200 files in
# 20 directories (core/d00..d09, plugins/d10..d19): one row per directory (core and plugins too)
# and file, each directory's totals the sum of its files'; the URL fragment's sort (siblings stay
# under their directory), collapsed directories and search applied by the page's script; the
# functions table sorted and searched too; with --diff, only the changed files, their changed
# lines marked. Screenshots: regress/out/html-tree*.png.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=html_tree
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >"$d/apt.log" 2>&1
  browser=$(command -v chromium || true)
fi

proj="$d/proj"
python3 - "$proj" <<'EOF'
import os, sys
proj = sys.argv[1]
calls = []
for n in range(200):
    dd = n // 10
    sub = os.path.join(proj, 'core' if dd < 10 else 'plugins', 'd%02d' % dd)
    os.makedirs(sub, exist_ok=True)
    k = 2 + n % 7
    open(os.path.join(sub, 'f%03d.c' % n), 'w').write(
        'int f%03d_a(int x)\n{\n  if (x %% %d == 0)\n    return x / %d;\n  return x + %d;\n}\n\n'
        'int f%03d_b(int x)\n{\n  int s = 0;\n  for (int i = 0; i < x %% 5; i++)\n    s += i;\n  return s;\n}\n'
        % (n, k, k, n, n))
    calls.append('  s += f%03d_a(argc * %d);\n' % (n, n % 4))
    if n % 3 == 0: calls.append('  s += f%03d_b(argc + %d);\n' % (n, n))
decl = ''.join('int f%03d_a(int);\nint f%03d_b(int);\n' % (n, n) for n in range(200))
open(os.path.join(proj, 'main.c'), 'w').write('#include <stdio.h>\n' + decl + 'int main(int argc, char **argv)\n{\n  long s = 0;\n  (void)argv;\n'
    + ''.join(calls) + '  printf("%ld\\n", s);\n  return 0;\n}\n')
EOF
# two compilers at a time, then one link
(cd "$proj" && ls core/*/*.c >"$d/a.list" && ls plugins/*/*.c main.c >"$d/b.list") || exit 1
(cd "$proj" && "$P" gcc -O0 -c $(cat "$d/a.list") >"$d/build-a.log" 2>&1; echo $? >"$d/a.rc") &
(cd "$proj" && "$P" gcc -O0 -c $(cat "$d/b.list") >"$d/build-b.log" 2>&1; echo $? >"$d/b.rc") &
wait
if [ "$(cat "$d/a.rc")$(cat "$d/b.rc")" != 00 ] || ! (cd "$proj" && "$P" gcc -o prog ./*.o >"$d/link.log" 2>&1); then
  echo "not ok html-tree-build: $(cat "$d/build-a.log" "$d/build-b.log" "$d/link.log" | head -1)"; exit 0
fi
(cd "$proj" && ./prog >/dev/null) || { echo "not ok html-tree-run"; exit 0; }
(cd "$proj" && "$R" coverage --format html -o "$d/report" && "$R" coverage --format json -o "$d/cov.json") >"$d/write.log" 2>&1 ||
  { echo "not ok html-tree-write: $(head -1 "$d/write.log")"; exit 0; }
printf -- '--- a/core/d03/f031.c\n+++ b/core/d03/f031.c\n@@ -2,0 +3,2 @@\n+x\n+x\n--- a/plugins/d17/f175.c\n+++ b/plugins/d17/f175.c\n@@ -10,0 +11,2 @@\n+x\n+x\n' >"$d/change.diff"
(cd "$proj" && "$R" coverage --format html --diff "$d/change.diff" -o "$d/diffreport") >"$d/diff.log" 2>&1 ||
  { echo "not ok html-tree-diff-write: $(head -1 "$d/diff.log")"; exit 0; }

if [ -z "$browser" ]; then echo "skip html-tree: chromium is not installed and cannot be (not root or no apt-get)"; exit 0; fi
run=""
command -v timeout >/dev/null 2>&1 && run="timeout 60"
dom() {  # dom URL OUT: the DOM after the page's scripts ran
  $run "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$d/chromium" --dump-dom "$1" >"$2" 2>>"$d/chromium.log"
}
shot() {  # shot URL PNG
  $run "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$d/chromium" --hide-scrollbars \
    --window-size=1280,1400 --screenshot="$2" "$1" >>"$d/chromium.log" 2>&1
}
# the ids of the directories core and plugins/d17 (from the page as written)
core=$(grep -o '<tr class="dir" id="d[0-9]*" data-parent="" data-depth="0" data-name="core"' "$d/report/index.html" | sed 's/.*id="\([^"]*\)".*/\1/')
dom "file://$d/report/index.html" "$d/plain.dom"
dom "file://$d/report/index.html#sort=1" "$d/sort.dom"
dom "file://$d/report/index.html#sort=-1&fsort=-2" "$d/sortdesc.dom"
dom "file://$d/report/index.html#closed=$core" "$d/closed.dom"
dom "file://$d/report/index.html#q=f123" "$d/search.dom"
dom "file://$d/diffreport/index.html" "$d/diff.dom"
dom "file://$d/diffreport/s$(grep -o 'href="s[0-9]*.html">f031.c' "$d/diffreport/index.html" | sed 's/href="s\([0-9]*\).*/\1/').html" "$d/diffpage.dom"

python3 - "$d" "$core" <<'EOF'
import json, os, re, sys
from html.parser import HTMLParser
d, core = sys.argv[1], sys.argv[2]
ok = nok = 0
def check(cond, name, why):
    global ok, nok
    if cond: ok += 1; print('ok ' + name)
    else: nok += 1; print('not ok %s: %s' % (name, why))

class Rows(HTMLParser):
    """Rows of the files and functions tables: id, class, parent, name, display, cells' data-v and text."""
    def __init__(self):
        super().__init__(); self.t = None; self.rows = {'files': [], 'functions': []}; self.cur = None; self.cell = None
        self.chg = []
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == 'table': self.t = a.get('id')
        if tag == 'tr' and 'chg' in (a.get('class') or '').split(): self.chg.append(int(a['id'][1:]))
        if tag == 'tr' and self.t in self.rows and a.get('class', '').split()[:1] in (['dir'], ['file'], ['function']):
            self.cur = {'id': a.get('id'), 'cls': a['class'].split()[0], 'parent': a.get('data-parent', ''), 'name': a.get('data-name'),
                        'hidden': 'none' in (a.get('style') or ''), 'v': [], 'text': []}
            self.rows[self.t].append(self.cur)
        if tag == 'td' and self.cur is not None:
            self.cur['v'].append(a.get('data-v')); self.cur['text'].append(''); self.cell = True
    def handle_endtag(self, tag):
        if tag == 'tr': self.cur = None
        if tag == 'td': self.cell = None
    def handle_data(self, data):
        if self.cur is not None and self.cell: self.cur['text'][-1] += data
def parse(f):
    p = Rows(); p.feed(open(os.path.join(d, f)).read()); return p

plain = parse('plain.dom')
files = [r for r in plain.rows['files'] if r['cls'] == 'file']
dirs = [r for r in plain.rows['files'] if r['cls'] == 'dir']
check(len(files) == 201 and len(dirs) == 22, 'html-tree-rows', '%d file rows (want 201: 200 and main.c), %d directory rows (want 22)' % (len(files), len(dirs)))
check(not any(r['hidden'] for r in plain.rows['files']), 'html-tree-open', 'rows hidden without a fragment')

# each directory's totals (every column) are the sums of the files under it
byid = {r['id']: r for r in plain.rows['files']}
def under(r, did):
    p = r['parent']
    while p:
        if p == did: return True
        p = byid[p]['parent']
    return False
frac = lambda t: tuple(int(x) for x in re.search(r'(\d+)/(\d+)', t).groups()) if re.search(r'\d+/\d+', t) else (0, 0)
bad = []
for dr in dirs:
    kids = [f for f in files if under(f, dr['id'])]
    for col in range(1, len(dr['text'])):
        s = [frac(f['text'][col]) for f in kids]
        want = (sum(x[0] for x in s), sum(x[1] for x in s))
        if frac(dr['text'][col]) != want: bad.append('%s col %d: %s, files sum to %s' % (dr['name'], col, dr['text'][col].strip(), want))
check(not bad and len(dirs) == 22, 'html-tree-directory-totals', '; '.join(bad[:3]))
cov = json.load(open(os.path.join(d, 'cov.json')))
check(len(plain.rows['functions']) == sum(len(f['functions']) for f in cov['files']), 'html-tree-functions',
      '%d function rows' % len(plain.rows['functions']))

# sorted by lines: the rows of each directory in order of their ratio; directories before files
def sorted_ok(rows, desc):
    groups = {}
    for r in rows: groups.setdefault(r['parent'], []).append(r)
    for g in groups.values():
        kinds = [r['cls'] for r in g]
        if kinds != sorted(kinds): return False
        v = [float(r['v'][1]) for r in g if r['cls'] == 'file']
        if v != sorted(v, reverse=desc): return False
    # each row comes after its parent
    seen = set()
    for r in rows:
        if r['parent'] and r['parent'] not in seen: return False
        seen.add(r['id'])
    return True
s, sd = parse('sort.dom'), parse('sortdesc.dom')
order = [r['id'] for r in s.rows['files']]
check(sorted_ok(s.rows['files'], False) and sorted_ok(sd.rows['files'], True) and order != [r['id'] for r in plain.rows['files']],
      'html-tree-sort', 'rows not sorted by lines within their directories')
calls = [int(r['text'][2]) for r in sd.rows['functions']]
check(calls == sorted(calls, reverse=True) and len(set(calls)) > 1, 'html-tree-sort-functions', 'calls %s...' % calls[:8])

c = parse('closed.dom')
hid = {r['id'] for r in c.rows['files'] if r['hidden']}
want = {r['id'] for r in c.rows['files'] if under(r, core)}
check(core and hid == want and len(want) == 110, 'html-tree-collapse', '%d rows hidden, %d under %s (want 110)' % (len(hid), len(want), core))

q = parse('search.dom')
vis = [r['name'] for r in q.rows['files'] if not r['hidden']]
check(vis == ['plugins', 'plugins/d12', 'plugins/d12/f123.c'],
      'html-tree-search', 'visible %s' % vis)
fv = [r['name'] for r in q.rows['functions'] if not r['hidden']]
check(sorted(fv) == ['f123_a plugins/d12/f123.c', 'f123_b plugins/d12/f123.c'], 'html-tree-search-functions', 'visible %s' % fv)

df = parse('diff.dom')
names = sorted(r['name'] for r in df.rows['files'] if r['cls'] == 'file')
check(names == ['core/d03/f031.c', 'plugins/d17/f175.c'], 'html-tree-diff-files', names)
pages = sorted(f for f in os.listdir(os.path.join(d, 'diffreport')) if f.startswith('s'))
check(len(pages) == 2, 'html-tree-diff-pages', pages)
check(parse('diffpage.dom').chg == [3, 4], 'html-tree-diff-marks', 'marked lines %s, want [3, 4]' % parse('diffpage.dom').chg)
EOF
shot "file://$d/report/index.html" "$top/regress/out/html-tree.png"
shot "file://$d/report/index.html#sort=1&closed=$core" "$top/regress/out/html-tree-sorted.png"
shot "file://$d/diffreport/index.html" "$top/regress/out/html-tree-diff.png"
for p in html-tree html-tree-sorted html-tree-diff; do
  if [ -s "$top/regress/out/$p.png" ]; then echo "ok html-tree-screenshot $p (regress/out/$p.png)"
  else echo "not ok html-tree-screenshot $p: no screenshot"; fi
done
