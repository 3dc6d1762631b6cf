#!/bin/sh
# MC/DC in the regular coverage reports of a --decisions=conditions build (pathprof coverage
# without --mcdc, or --mcdc=DEF with cobertura, sonarqube and html): each format's MC/DC is checked
# against the --mcdc JSON document of the same profile, read independently here:
#   json       summary.mcdc and each file's "mcdc" decisions equal the document's
#   lcov       each file's MCDC records equal --mcdc lcov's, MCF/MCH add up, genhtml reads it
#   gcov       the condition lines under each line equal --mcdc gcov's
#   text       the MC/DC total equals the document's, and markdown's MC/DC column
#   cobertura  each branch line's condition-coverage: outcomes of a condition count when MC/DC shows
#   sonarqube  them, other outcomes when taken (computed here from the JSON branches and conditions)
#   html       per decision a truth table whose rows are the document's vectors with counts, its
#              conditions' verdicts, the badge on its line and each missing condition's line marked,
#              also in the DOM headless Chromium makes of it (with a screenshot), when installed
# for masking (the default) and unique-cause; a statements-mode build's reports carry none.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=mcdc_reports
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

# decisions of one to four conditions, some of them never fully shown, one over two lines
cat >dec.c <<'C'
#include <stdio.h>
static int f(int a, int b, int c) {
  int r = 0;
  if (a && b) r |= 1;
  if ((a || b) && c) r |= 2;
  if (a > 2 ||
      (b && !c)) r |= 4;
  while (a-- > 0 && r < 100) r += 8;
  return r > 40 ? 1 : (b || c) ? 2 : 0;
}
static int g(int x) { return x == 3 || x == 5 || (x > 10 && x < 20 && x != 15); }
int main(void) {
  int s = 0;
  for (int i = 0; i < 6; i++) s += f(i % 2, i % 3 == 0, i > 3) + g(i * 4);
  printf("%d\n", s);
  return 0;
}
C
mkdir -p cond stmt
(cd cond && "$pc" --decisions=conditions $CC -w -o prog ../dec.c && $run ./prog >/dev/null) || echo "not ok mcdc_reports build (conditions)"
(cd stmt && "$pc" $CC -w -o prog ../dec.c && $run ./prog >/dev/null) || echo "not ok mcdc_reports build (statements)"
cd cond || exit 1
for def in masking unique-cause; do
  "$pp" coverage --mcdc=$def --format json -o doc-$def.json
  "$pp" coverage --mcdc=$def --format cobertura -o cob-$def.xml
  "$pp" coverage --mcdc=$def --format sonarqube -o sq-$def.xml
  "$pp" coverage --mcdc=$def --format html -o html-$def
done
"$pp" coverage --mcdc --format lcov -o doc.lcov
"$pp" coverage --mcdc --format gcov -o doc.gcov
for f in json lcov gcov text cobertura sonarqube markdown; do "$pp" coverage --format $f -o reg.$f || echo "not ok mcdc_reports $f: status $?"; done
"$pp" coverage --format html -o html
# the HTML as a browser reads it (headless Chromium, when installed): its DOM, and a screenshot of a
# the file page for people (regress/out/mcdc-html.png: badges, marked conditions, truth tables)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
  $run "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$out/chromium" --dump-dom "file://$out/cond/html/s0.html" \
    >dom.html 2>>chromium.log
  $run "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$out/chromium" --hide-scrollbars --window-size=1280,1400 \
    --screenshot="$top/regress/out/mcdc-html.png" "file://$out/cond/html/s0.html" >>chromium.log 2>&1
  [ -s "$top/regress/out/mcdc-html.png" ] && echo "ok mcdc_reports html screenshot (regress/out/mcdc-html.png)" ||
    echo "not ok mcdc_reports html screenshot: no PNG written"
else
  echo "skip mcdc_reports chromium: chromium is not installed (the HTML is checked as text only)"
fi
genhtml -q -o genhtml reg.lcov >genhtml.log 2>&1 || echo "not ok mcdc_reports genhtml: $(head -1 genhtml.log)"
(cd ../stmt && for f in json lcov gcov cobertura; do "$pp" coverage --format $f -o reg.$f; done)
python3 - <<'PY'
import json, re, os, xml.etree.ElementTree as ET
from html.parser import HTMLParser
ok = 0
def check(cond, name, why):
    print(('ok mcdc_reports ' + name) if cond else ('not ok mcdc_reports %s: %s' % (name, why)))
def key(d): return (os.path.basename(d['file']), d['line'], d['column'])
doc = {def_: json.load(open('doc-%s.json' % def_)) for def_ in ('masking', 'unique-cause')}
decs = {k: sorted(doc[k]['decisions'], key=key) for k in doc}
check(len(decs['masking']) >= 8, 'decisions', 'only %d' % len(decs['masking']))

# json: the summaries and each file's decisions
reg = json.load(open('reg.json'))
n = len(decs['masking']); cov = sum(d['covered'] == len(d['conditions']) for d in decs['masking'])
nc = sum(len(d['conditions']) for d in decs['masking']); ncov = sum(d['covered'] for d in decs['masking'])
want = {'definition': 'masking', 'decisions': {'total': n, 'covered': cov}, 'conditions': {'total': nc, 'covered': ncov}}
check(reg['summary'].get('mcdc') == want, 'json summary', '%s, want %s' % (reg['summary'].get('mcdc'), want))
mine = sorted([d for f in reg['files'] for d in f.get('mcdc', [])], key=key)
check(mine == decs['masking'], 'json decisions', '%d decisions, the document has %d' % (len(mine), n))
check(all(f['summary'].get('mcdc', {}).get('conditions', {}).get('total') == sum(len(d['conditions']) for d in f['mcdc'])
          for f in reg['files']), 'json file summaries', 'a file summary disagrees with its decisions')

# lcov: per file the same MCDC records as --mcdc lcov, MCF/MCH the count of records and of taken ones
def records(path):
    out, cur = {}, None
    for l in open(path):
        l = l.rstrip('\n')
        if l.startswith('SF:'): cur = l[3:]; out[cur] = {'mcdc': [], 'mcf': None, 'mch': None}
        elif l.startswith('MCDC:'): out[cur]['mcdc'].append(l)
        elif l.startswith('MCF:'): out[cur]['mcf'] = int(l[4:])
        elif l.startswith('MCH:'): out[cur]['mch'] = int(l[4:])
    return out
a, b = records('reg.lcov'), records('doc.lcov')
same = all(sorted(a.get(f, {'mcdc': []})['mcdc']) == sorted(b[f]['mcdc']) for f in b) and sum(len(r['mcdc']) for r in a.values()) == 2 * nc
sums = all(r['mcf'] == len(r['mcdc']) and r['mch'] == sum(x.split(',')[3] != '0' for x in r['mcdc']) for r in a.values() if r['mcdc'])
check(same and sums, 'lcov', 'records differ from --mcdc lcov' if not same else 'MCF/MCH do not add up')

# gcov: the condition lines after each numbered line
def gcov_conditions(path):
    out, line = {}, None
    for l in open(path):
        m = re.match(r'^\s*[^:]+:\s*(\d+):', l)
        if m: line = int(m.group(1)); continue
        if l.startswith('condition'): out.setdefault(line, []).append(l.strip())
    return out
g1, g2 = gcov_conditions('reg.gcov'), gcov_conditions('doc.gcov')
check(g1 == g2 and g1, 'gcov', 'lines %s, --mcdc gcov has %s' % (sorted(g1), sorted(g2)))

# text: the total line
t = [l for l in open('reg.text') if l.startswith('MC/DC')]
check(t and '%d/%d decisions, %d/%d conditions shown (masking' % (cov, n, ncov, nc) in t[0], 'text', t[0] if t else 'no MC/DC line')

# markdown: the MC/DC column of the total row
md = [l for l in open('reg.markdown') if l.startswith('| **total**')]
cell = '%.1f%% (%d/%d) |' % (100.0 * ncov / nc, ncov, nc)
check(md and md[0].rstrip().endswith(cell) and 'MC/DC |' in open('reg.markdown').read(), 'markdown', md[0] if md else 'no total row')

# cobertura and sonarqube: a condition's outcomes count when shown, other outcomes when taken
def per_line(decisions):
    shown = {}
    for d in decisions:
        for c in d['conditions']: shown[(d['function'], c['block'])] = c['true'] + c['false']
    want = {}
    for f in reg['files']:
        for br in f['branches']:
            t, k = want.setdefault(br['line'], [0, 0]), (br['function'], br['block'])
            t[1] += len(br['outcomes'])
            t[0] += shown[k] if k in shown else sum(x > 0 for x in br['outcomes'])
    return want
for def_ in ('masking', 'unique-cause'):
    want = per_line(decs[def_])
    got = {}
    for line in ET.parse('cob-%s.xml' % def_).getroot().iter('line'):
        m = re.match(r'^\d+% \((\d+)/(\d+)\)$', line.get('condition-coverage', ''))
        if m: got[int(line.get('number'))] = [int(m.group(1)), int(m.group(2))]
    check(got == {k: v for k, v in want.items() if v[1]}, 'cobertura ' + def_,
          'lines %s' % [(k, got.get(k), want.get(k)) for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)][:4])
    got = {int(l.get('lineNumber')): [int(l.get('coveredBranches')), int(l.get('branchesToCover'))]
           for l in ET.parse('sq-%s.xml' % def_).getroot().iter('lineToCover') if l.get('branchesToCover')}
    check(got == {k: v for k, v in want.items() if v[1]}, 'sonarqube ' + def_, 'lines differ')
# with these decisions MC/DC must show less than branch coverage somewhere, or the check above shows nothing
plain = {}
for f in reg['files']:
    for br in f['branches']: plain.setdefault(br['line'], [0, 0])[0] += sum(x > 0 for x in br['outcomes'])
check(any(plain[k][0] != v[0] for k, v in per_line(decs['unique-cause']).items()), 'cobertura differs from branches',
      'no line where MC/DC shows less than the branches taken')

# html: the file page's decisions, truth tables, verdicts, badges and marked lines
class Page(HTMLParser):
    def __init__(self):
        super().__init__(); self.decs = []; self.stack = []; self.rows = {}; self.badges = []; self.cur = None; self.cell = None
        self.row = None; self.cmiss = []; self.section = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs); cls = (a.get('class') or '').split()
        if tag == 'section' and a.get('id') == 'mcdc': self.section = a.get('data-definition')
        if tag == 'div' and 'dec' in cls:
            self.cur = {'id': a['id'], 'n': int(a['data-conditions']), 'covered': int(a['data-covered']), 'vectors': [], 'conds': []}
            self.decs.append(self.cur)
        if tag == 'tr' and a.get('id', '').startswith('L'): self.row = int(a['id'][1:]); self.rows[self.row] = cls
        if tag == 'tr' and 'vec' in cls: self.cur['vectors'].append([]); self.cell = 'vec'
        if tag == 'tr' and 'cond' in cls: self.cur['conds'].append('shown' in cls); self.cell = None
        if tag == 'a' and 'mcdc' in cls: self.badges.append((self.row, a['href'].split('#')[1]))
        if tag == 'a' and 'cmiss' in cls: self.cmiss.append(self.row)
        if tag == 'td' and self.cell == 'vec': self.cur['vectors'][-1].append('')
    def handle_endtag(self, tag):
        if tag == 'tr': self.cell = None
        if tag == 'table' and self.cur is None: self.row = None
    def handle_data(self, data):
        if self.cell == 'vec' and self.cur['vectors'] and self.cur['vectors'][-1]: self.cur['vectors'][-1][-1] += data
pages = [('masking', 'html', 's0.html'), ('masking', 'html-masking', 's0.html'), ('unique-cause', 'html-unique-cause', 's0.html')]
if os.path.exists('dom.html'): pages.append(('masking', '.', 'dom.html'))  # as Chromium parsed it
for def_, d, page in pages:
    p = Page(); p.feed(open(os.path.join(d, page)).read())
    ds = sorted(decs[def_], key=lambda x: (x['line'], x['column']))
    bad = []
    if p.section != def_: bad.append('section definition %s' % p.section)
    if len(p.decs) != len(ds): bad.append('%d decisions, want %d' % (len(p.decs), len(ds)))
    for h, j in zip(p.decs, ds):
        vecs = [[''.join(v[1:-2]), v[-2] == 'T', int(v[-1])] for v in h['vectors']]
        want = [[v['values'], v['outcome'], v['count']] for v in j['vectors']]
        if (h['n'], h['covered']) != (len(j['conditions']), j['covered']): bad.append('%s covered %d' % (h['id'], h['covered']))
        if vecs != want: bad.append('%s vectors %s, want %s' % (h['id'], vecs, want))
        if h['conds'] != [c['covered'] for c in j['conditions']]: bad.append('%s verdicts' % h['id'])
        if (j['line'], h['id']) not in p.badges: bad.append('no badge on line %d' % j['line'])
        for c in j['conditions']:
            if not c['covered'] and 'mc' not in p.rows.get(c['line'], []): bad.append('line %d not marked' % c['line'])
    marked = {c['line'] for j in ds for c in j['conditions'] if not c['covered']}
    if not marked or set(p.cmiss) - marked: bad.append('conditions marked %s, missing ones on %s' % (sorted(set(p.cmiss)), sorted(marked)))
    check(not bad, 'html ' + (d if page == 's0.html' else 'in chromium'), '; '.join(bad[:4]))

# html index: an "MC/DC conditions" column in the total, file and function tables, each cell the
# conditions shown of the document's decisions there (the last column of each row)
idx = open('html/index.html').read()
def last_cells(table):
    m = re.search(r'<table id="%s">(.*?)</table>' % table, idx, re.S)
    heads = re.findall(r'<th[^>]*>([^<]*)</th>', m.group(1)) if m else []
    rows = re.findall(r'<tr class="(?:file|function)" id="([^"]*)"[^>]*>(.*?)</tr>', m.group(1), re.S) if m else []
    if table == 'total' and m: rows = [('total', re.findall(r'<tbody>(.*?)</tbody>', m.group(1), re.S)[0])]
    cells = {i: re.findall(r'<td[^>]*>(.*?)</td>', r, re.S) for i, r in rows}
    return heads[-1:] == ['MC/DC conditions'], {i: re.sub(r'<[^>]+>', '', c[-1]).split()[0] if c else None for i, c in cells.items()}
fn_names = {d['function'] for d in decs['masking']}
want_fn = {f: '%d/%d' % (sum(d['covered'] for d in decs['masking'] if d['function'] == f),
                         sum(len(d['conditions']) for d in decs['masking'] if d['function'] == f)) for f in fn_names}
bad = []
for table, want in (('total', {'total': '%d/%d' % (ncov, nc)}), ('files', {'s0': '%d/%d' % (ncov, nc)})):
    head, got = last_cells(table)
    if not head or any(got.get(k) != v for k, v in want.items()): bad.append('%s: %s, want %s' % (table, got, want))
head, got = last_cells('functions')
names = dict(re.findall(r'<tr class="function" id="(fn\d+)" data-name="(\S+)', idx))
got_fn = {names[k]: v for k, v in got.items() if names.get(k) in fn_names}
if not head or got_fn != want_fn: bad.append('functions: %s, want %s' % (got_fn, want_fn))
check(not bad, 'html index column', '; '.join(bad))

# a statements-mode build's reports carry no MC/DC
st = json.load(open('../stmt/reg.json'))
none = 'mcdc' not in st['summary'] and not any('mcdc' in f for f in st['files']) and 'MCDC:' not in open('../stmt/reg.lcov').read() \
       and 'condition outcomes' not in open('../stmt/reg.gcov').read()
check(none, 'statements mode', 'its reports carry MC/DC')
PY
