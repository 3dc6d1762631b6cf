#!/bin/sh
# pathprof coverage --diff on a git repository made here with a known change: the changed lines,
# branches and paths through them (and which of those never ran) in text, JSON, Markdown and lcov;
# masking MC/DC of the decisions on changed lines in a --decisions=conditions build;
# the same from a diff file and from stdin; changed C files without coverage data are named;
# --fail-under applies to the changed code; a bad BASE is one error line.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=coverage_diff
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS GIT_DIR GIT_WORK_TREE
command -v git >/dev/null 2>&1 || { echo "skip coverage-diff: git is not installed"; exit 0; }

repo="$d/repo"
mkdir -p "$repo" && cd "$repo" || exit 1
git init -q . && git config user.email t@example.org && git config user.name t
cat >grade.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>

static int grade(int x)
{
  if (x > 90)
    return 4;
  if (x > 50)
    return 2;
  return 0;
}

int main(int argc, char **argv)
{
  int s = 0;
  for (int i = 1; i < argc; i++)
    s += grade(atoi(argv[i]));
  printf("%d\n", s);
  return 0;
}
EOF
git add grade.c && git commit -qm base
# The change: lines 10-15 added to grade (an if with a block, another if); a comment edited on
# line 1 of main's file is no code; extra.c is new, built, and its function never runs (a unit built
# but never run is in the report at 0%); unused.c is new and never built (no coverage data).
python3 - <<'EOF'
s = open('grade.c').read()
s = s.replace('#include <stdio.h>\n', '#include <stdio.h>  /* printf */\n')
s = s.replace('''    return 2;
  return 0;''', '''    return 2;
  if (x < 0) {
    fprintf(stderr, "negative\\n");
    return -1;
  }
  if (x == 7)
    return 7;
  return 0;''')
open('grade.c', 'w').write(s)
EOF
cat >extra.c <<'EOF'
int extra(int x)
{
  return x + 1;
}
EOF
cat >unused.c <<'EOF'
int unused(void) { return 0; }
EOF
git add extra.c unused.c
if ! "$P" gcc -O0 -o grade grade.c extra.c >"$d/build.log" 2>&1; then echo "not ok coverage-diff-build: $(head -1 "$d/build.log")"; exit 0; fi
./grade 95 60 7 >/dev/null || { echo "not ok coverage-diff-run"; exit 0; }

for f in text json markdown lcov; do
  "$R" coverage --diff HEAD --format $f -o "$d/diff.$f" >"$d/$f.log" 2>&1 || echo "not ok coverage-diff-write-$f: $(head -1 "$d/$f.log")"
done
git diff HEAD >"$d/change.diff"
"$R" coverage --diff "$d/change.diff" --format json -o "$d/file.json" 2>"$d/file.log" || echo "not ok coverage-diff-file: $(head -1 "$d/file.log")"
"$R" coverage --diff - --format json <"$d/change.diff" >"$d/stdin.json" 2>"$d/stdin.log" || echo "not ok coverage-diff-stdin: $(head -1 "$d/stdin.log")"

python3 - "$d" <<'EOF'
import json, os, sys
d = sys.argv[1]
ok = nok = 0
def check(cond, name, why):
    global ok, nok
    if cond: ok += 1; print('ok ' + name)
    else: nok += 1; print('not ok %s: %s' % (name, why))
j = json.load(open(os.path.join(d, 'diff.json')))
s = j['summary']
got = {k: (s[k]['covered'], s[k]['total']) for k in ('lines', 'branches', 'functions', 'paths')}
# lines 10, 11-12, 14, 15 have code (13 is a brace); 7 ran: 10 and 14-15 ran, 11-12 did not.
# Decisions on 10 and 14: one outcome each. grade has 3 paths through the change (x <= 50);
# only x == 7's ran. extra.c adds lines 1 and 3, a function and its one path, none run.
want = {'lines': (3, 7), 'branches': (2, 4), 'functions': (1, 2), 'paths': (1, 4)}
check(got == want, 'diff-summary', 'got %s, want %s' % (got, want))
f = [x for x in j['files'] if x['file'].endswith('grade.c')]
e = [x for x in j['files'] if x['file'].endswith('extra.c')]
check(len(j['files']) == 2 and f and f[0]['changed_lines'] == [1, 10, 11, 12, 13, 14, 15] and e and
      e[0]['changed_lines'] == [1, 2, 3, 4] and [(l['line'], l['count']) for l in e[0]['lines']] == [(1, 0), (3, 0)],
      'diff-changed-lines', 'files %s, lines %s' % ([x['file'] for x in j['files']], f and f[0]['changed_lines']))
fn = f[0]['functions'] if f else []
missed = sorted(m['lines'] for x in fn for m in x['missed_paths'])
check([x['name'] for x in fn] == ['grade'] and missed == ['6 8 10 11-12', '6 8 10 14 16'], 'diff-missed-paths',
      'functions %s, missed %s' % ([x['name'] for x in fn], missed))
check(j['no_coverage_data'] == ['unused.c'], 'diff-no-coverage-data', j['no_coverage_data'])
for other in ('file.json', 'stdin.json'):
    k = json.load(open(os.path.join(d, other)))
    check(k['summary'] == j['summary'] and k['files'] == j['files'], 'diff-same-from-' + other.split('.')[0],
          'summary %s' % k['summary'])
t = open(os.path.join(d, 'diff.text')).read()
check('lines never run: 11-12' in t and 'decision on line 14: 1 of 2 outcomes taken' in t and '1 of 3 paths' in t,
      'diff-text', t[:300])
m = open(os.path.join(d, 'diff.markdown')).read()
check('| **changed code** | 42.9% (3/7) | 50.0% (2/4) | 25.0% (1/4) |' in m and 'lines 11-12 never ran' in m and
      'path #' in m, 'diff-markdown', m[:300])
da = [l for l in open(os.path.join(d, 'diff.lcov')) if l.startswith(('DA:', 'BRDA:', 'SF:'))]
want = ['DA:1,0\n', 'DA:3,0\n', 'DA:10,1\n', 'DA:11,0\n', 'DA:12,0\n', 'DA:14,1\n', 'DA:15,1\n']  # extra.c, grade.c
check([l for l in da if l.startswith('DA:')] == want and sum(l.startswith('BRDA:10,') or l.startswith('BRDA:14,') for l in da) == 4
      and sum(l.startswith('SF:') for l in da) == 2, 'diff-lcov', ''.join(da))
EOF

if want genhtml:lcov; then
  (cd "$d" && genhtml --branch-coverage -o html diff.lcov) >"$d/genhtml.log" 2>&1; rc=$?
  if [ "$rc" = 0 ] && ! grep -qi 'warning\|error' "$d/genhtml.log"; then echo "ok diff-lcov-genhtml"
  else echo "not ok diff-lcov-genhtml: status $rc: $(grep -i 'warning\|error' "$d/genhtml.log" | head -1)"; fi
else echo "skip diff-lcov-genhtml: genhtml (Debian lcov) is not installed"; fi

# ---- --fail-under on the changed code: 3 of 7 lines, 50% of its branches, 1 of 4 paths ----
st() { "$R" coverage --diff HEAD "$@" >/dev/null 2>&1; echo $?; }
got="$(st --fail-under 42) $(st --fail-under 43) $(st --fail-under-branch 50) $(st --fail-under-branch 51) $(st --fail-under-path 25) $(st --fail-under-path 26)"
if [ "$got" = "0 3 0 3 0 3" ]; then echo "ok diff-fail-under"; else echo "not ok diff-fail-under: statuses $got, want 0 3 0 3 0 3"; fi
# a change without code (only the comment) passes any threshold
printf -- '--- a/grade.c\n+++ b/grade.c\n@@ -1 +1 @@\n-#include <stdio.h>\n+#include <stdio.h>  /* printf */\n' >"$d/comment.diff"
"$R" coverage --diff "$d/comment.diff" --fail-under 100 --format json >"$d/comment.json" 2>&1; rc=$?
if [ "$rc" = 0 ] && python3 -c "
import json,sys; j=json.load(open('$d/comment.json'))
sys.exit(0 if j['summary']['lines']['total'] == 0 and [f['changed_lines'] for f in j['files']] == [[1]] else 1)"; then echo "ok diff-no-code"
else echo "not ok diff-no-code: status $rc: $(head -c 200 "$d/comment.json")"; fi

# ---- MC/DC where the build has it: the decisions on changed lines (x < 0 and x == 7) ----
mkdir -p "$d/cond" && cp grade.c "$d/cond/" && (cd "$d/cond" && "$P" --decisions=conditions gcc -O0 -o grade grade.c &&
  ./grade 95 60 7 >/dev/null && "$R" coverage --diff "$d/change.diff" --format json -o one.json &&
  ./grade -5 10 >/dev/null && "$R" coverage --diff "$d/change.diff" --format json -o two.json &&
  "$R" coverage --diff "$d/change.diff" >two.txt) >"$d/cond.log" 2>&1
if python3 - "$d/cond" <<'EOF2'
import json, sys, os
m = [json.load(open(os.path.join(sys.argv[1], f)))['summary'].get('mcdc') for f in ('one.json', 'two.json')]
# 95 60 7: each condition took one value only; then -5 and 10 give each its other value
sys.exit(0 if m == [{'total': 2, 'covered': 0}, {'total': 2, 'covered': 2}] else 1)
EOF2
then
  if grep -q 'MC/DC (masking) of the decisions on changed lines: 2 of 2' "$d/cond/two.txt" && ! grep -q 'MC/DC' "$d/diff.text"; then
    echo "ok diff-mcdc"
  else echo "not ok diff-mcdc: text: $(grep MC/DC "$d/cond/two.txt" "$d/diff.text" | head -2 | tr '\n' ' ')"; fi
else echo "not ok diff-mcdc: $(head -2 "$d/cond.log" | tr '\n' ' ') $(grep -h '"mcdc"' -A2 "$d"/cond/*.json | tr -d ' \n')"; fi

# ---- errors ----
"$R" coverage --diff no-such-revision >"$d/bad.out" 2>"$d/bad.err"; rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l <"$d/bad.err")" = 1 ] && grep -q 'no-such-revision' "$d/bad.err" && [ ! -s "$d/bad.out" ]; then echo "ok diff-bad-base"
else echo "not ok diff-bad-base: status $rc: $(head -2 "$d/bad.err" | tr '\n' ' ')"; fi
"$R" coverage --diff HEAD --format cobertura >/dev/null 2>"$d/fmt.err"; rc=$?
if [ "$rc" = 2 ] && grep -q 'diff' "$d/fmt.err"; then echo "ok diff-format-refused"; else echo "not ok diff-format-refused: status $rc"; fi
