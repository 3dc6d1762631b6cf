#!/bin/sh
# What pathcc could not instrument, in the reports: pathprof report lists it once, by reason (a header's function in two units once), --function shows only that function's; coverage text and HTML mark its lines n/i with a count apart, lcov leaves them out; the HTML index's root is the files' common directory, never "//", and its functions table stays small.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=uninstrumented
. "$top/regress/private.sh"

d="$out/prog"
mkdir -p "$d/src/a" "$d/src/b" "$d/elsewhere"
# a label at the end of a compound statement: GCC 11 and later take it, libclang 14 cannot parse it
cat >"$d/src/a/lab.h" <<'EOF'
static int hits;
static inline void bump(int x) {
  if (x > 2) goto out;
  hits += x;
out:
}
EOF
cat >"$d/src/a/one.c" <<'EOF'
#include "lab.h"
int one(int x) {
  bump(x);
  return hits;
}
EOF
cat >"$d/src/b/main.c" <<'EOF'
#include <stdio.h>
#include "../a/lab.h"
int one(int);
static int skipme(int x) { return x * 2; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 5; i++) { bump(i); s += one(i) + skipme(i); }
  printf("%d %d\n", s, hits);
  return 0;
}
EOF
(cd "$d" && PATHCC_EXCLUDE_FUNCTIONS=skipme "$top/bin/pathcc" "$CC" -std=gnu11 -O0 -o prog src/a/one.c src/b/main.c) >"$d/build.log" 2>&1
(cd "$d" && PATHPROF_FILE="$d/prof.out" ./prog >run.out 2>&1)
if [ ! -s "$d/prof.out" ]; then
  echo "not ok uninstrumented build: no profile ($(head -1 "$d/build.log"))"
  exit 0
fi
R="$top/bin/pathprof"
(cd "$d" && "$R" report prof.out) >"$d/report.txt" 2>&1
(cd "$d" && "$R" report --function one prof.out) >"$d/one.txt" 2>&1
(cd "$d" && "$R" report --function bump prof.out) >"$d/bump.txt" 2>&1; brc=$?
(cd "$d" && "$R" coverage prof.out) >"$d/cov.txt" 2>&1
(cd "$d" && "$R" coverage --format lcov -o cov.info prof.out) >"$d/lcov.log" 2>&1
(cd "$d" && "$R" coverage --format html -o html prof.out) >"$d/html.log" 2>&1
(cd "$d/elsewhere" && "$R" coverage --format html --root "$d/elsewhere" -o html ../prof.out) >"$d/html2.log" 2>&1

python3 - "$d" "$brc" <<'PY'
import os, re, sys
d, brc = sys.argv[1], int(sys.argv[2])
def check(name, ok, why):
    print(('ok %s' % name) if ok else ('not ok %s: %s' % (name, why)))
rep = open(d + '/report.txt').read()
check('uninstrumented-report-once', rep.count('bump (') == 1 and rep.count('skipme (') == 1
      and '2 functions not instrumented (3 copies in units), by reason:' in rep and 'bump (lab.h:2, in 2 units)' in rep,
      'the report lists bump %d times, skipme %d times: %r' % (rep.count('bump ('), rep.count('skipme ('), rep[-400:]))
one = open(d + '/one.txt').read()
check('uninstrumented-report-function', 'not instrumented' not in one and 'one' in one, 'report --function one: %r' % one[-300:])
bump = open(d + '/bump.txt').read()
check('uninstrumented-report-function-named', brc == 0 and bump.count('not instrumented: bump (lab.h:2, in 2 units): libclang:') == 1
      and 'skipme' not in bump, 'status %d, %r' % (brc, bump[-300:]))
cov = open(d + '/cov.txt').read()
check('uninstrumented-text', re.search(r'lab\.h.*\n(.*\n)?\s+not instrumented: 1 function, 4 line\(s\)', cov) is not None
      and re.search(r'\n  bump:2 +not instrumented \(4 line\(s\)\): libclang:', cov) is not None
      and re.search(r'\ntotal.*\n\s+not instrumented: 2 functions, 5 line\(s\)', cov) is not None, cov)
info = open(d + '/cov.info').read()
rec = [r for r in info.split('end_of_record') if 'lab.h' in r]
check('uninstrumented-lcov', rec and not re.search(r'DA:[2-6],', rec[0]) and 'LF:0' in rec[0] and 'DA:4,' not in
      [r for r in info.split('end_of_record') if 'main.c' in r][0], 'lab.h record: %r' % rec[:1])
html = os.path.join(d, 'html')
page = None
for f in os.listdir(html):
    t = open(os.path.join(html, f)).read()
    if f.startswith('s') and '<h1>' in t and 'lab.h</h1>' in t: page = t
rows = re.findall(r'<tr id="L(\d+)" class="uninst"><td class="n">\d+</td><td class="c"><span title="not instrumented">n/i</span>', page or '')
check('uninstrumented-html-lines', rows == ['2', '3', '4', '5'] and 'Not instrumented: 1 function, 4 lines marked n/i' in page,
      'lab.h page rows marked n/i: %s' % rows)
idx = open(os.path.join(html, 'index.html')).read()
check('uninstrumented-html-index', 'Not instrumented: 2 functions, 5 lines' in idx, 'no count in the index')
idx2 = open(os.path.join(d, 'elsewhere', 'html', 'index.html')).read()
dirs = re.findall(r'<tr class="dir"[^>]*data-depth="0"[^>]*><td[^>]*><span class="tog">&#9662;</span>([^<]*)</td>', idx2)
check('html-index-root', len(dirs) == 1 and dirs[0] == os.path.realpath(d + '/src') + '/' and '//' not in idx2.split('<tbody>')[2],
      'top directory rows %s' % dirs)
PY

# the index of a 400-file, 2,000-function program: the functions table once made it megabytes
g="$out/big"
mkdir -p "$g"
python3 - "$g" <<'PY'
import os, sys
g = sys.argv[1]
calls = []
for fi in range(400):
    p = os.path.join(g, 'src', 'mod%02d' % (fi % 20), 'f%03d.c' % fi)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    src = ''
    for k in range(5):
        n = fi * 5 + k
        src += 'int g%d(int x) {\n  int s = 0;\n  for (int i = 0; i < (x & 3); i++)\n    s += i %% %d ? i : -1;\n  return s;\n}\n' % (n, k + 2)
        if k == 0: calls.append(n)
    open(p, 'w').write(src)
open(os.path.join(g, 'main.c'), 'w').write(''.join('int g%d(int);\n' % n for n in calls) + 'int main(void) {\n  int s = 0;\n'
    + ''.join('  s += g%d(%d);\n' % (n, n % 7) for n in calls) + '  return s == 12345;\n}\n')
PY
# one unit (an #include of every file) keeps the build short; the tables still name 401 files
(cd "$g" && find src -name '*.c' | sort | sed 's|.*|#include "&"|' >all.c && cat main.c >>all.c &&
 "$top/bin/pathcc" "$CC" -O0 -o prog all.c && PATHPROF_FILE="$g/prof.out" ./prog && "$top/bin/pathprof" coverage --format html -o html prof.out) >"$g/log" 2>&1
if [ ! -f "$g/html/index.html" ]; then
  echo "not ok html-index-size: no report ($(head -1 "$g/log"))"
else
  size=$(wc -c <"$g/html/index.html")
  rows=$(grep -c '<tr class="function"' "$g/html/index.html")
  per=$(( (size - 0) / (rows + 1) ))
  # 2,001 functions and 400 files: under 450 bytes a function all told (it was 757)
  if [ "$rows" = 2001 ] && [ "$per" -lt 450 ]; then echo "ok html-index-size ($size bytes, $rows function rows, $per bytes each)"
  else echo "not ok html-index-size: $size bytes for $rows function rows ($per a row)"; fi
fi
