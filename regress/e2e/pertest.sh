#!/bin/sh
# Per-test attribution: a calculator whose five tests have known answers, run by a shell loop
# with PATHPROF_TEST, by ctest (each test's ENVIRONMENT property) and by automake's make check
# (AM_TESTS_ENVIRONMENT), and by pathprof_set_test in one process; each gives the same per-test
# counts, and pathprof tests names which tests ran a path, a line and a function, the paths only
# one test covers, the redundant tests and the smallest set with the same path coverage. The
# totals are what every command shows by default; coverage --test shows one test's.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=pertest
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS PATHPROF_TEST

mkdir -p "$d/src"
cat >"$d/src/calc.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_op(const char *op, int a, int b)
{
  if (!strcmp(op, "add"))
    return a + b;
  if (!strcmp(op, "mul"))
    return a * b;
  if (!strcmp(op, "div")) {
    if (b == 0)
      return -1;
    return a / b;
  }
  return 0;
}

int main(int argc, char **argv)
{
  int i, s = 0;
  for (i = 1; i + 2 < argc; i += 3)
    s += run_op(argv[i], atoi(argv[i + 1]), atoi(argv[i + 2]));
  printf("%d\n", s);
  return 0;
}
EOF
# Five tests, two operations each (so main runs the same paths in all): add and add2 run the
# same paths; mix runs add's and mul's; div alone divides, by zero too.
cat >"$d/tests.txt" <<'EOF'
add add 1 2 add 3 4
add2 add 5 5 add 6 6
div div 8 2 div 1 0
mix add 1 2 mul 2 3
mul mul 2 3 mul 4 5
EOF

# ---- a shell loop ----
mkdir -p "$d/loop" && cd "$d/loop" || exit 1
if ! "$P" gcc -O0 -o calc "$d/src/calc.c" >build.log 2>&1; then echo "not ok pertest-build: $(head -1 build.log)"; exit 0; fi
while read -r name args; do
  PATHPROF_TEST=$name ./calc $args >/dev/null
done <"$d/tests.txt"
./calc add 0 0 >/dev/null  # a run without a test: in the totals only
"$R" tests --json >"$d/loop.json" 2>"$d/loop.err" || echo "not ok pertest-tests: $(head -1 "$d/loop.err")"

python3 - "$d/loop.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
ok = nok = 0
def check(c, name, why):
    global ok, nok
    if c: ok += 1; print('ok ' + name)
    else: nok += 1; print('not ok %s: %s' % (name, why))
tests = {t['name']: t for t in j['tests']}
check(sorted(tests) == ['add', 'add2', 'div', 'mix', 'mul'], 'pertest-names', sorted(tests))
uniq = sorted((u['test'], u['function']) for u in j['unique'])
check(uniq == [('div', 'run_op'), ('div', 'run_op')], 'pertest-unique', uniq)
red = {r['test']: r['subset_of'] for r in j['redundant']}
check(red == {'add': 'mix', 'add2': 'add', 'mul': 'mix', 'mix': None}, 'pertest-redundant', red)
check(sorted(j['minimal']['tests']) == ['div', 'mix'] and j['minimal']['exact'], 'pertest-minimal', j['minimal'])
EOF
# the division by zero's path: which tests ran it, by id, by its line and by its function
id=$(python3 -c "
import json; j=json.load(open('$d/loop.json'))
print([u['id'] for u in j['unique'] if u['path'].endswith(' 13')][0])" 2>/dev/null)
"$R" tests --path "run_op#$id" >"$d/q1.txt" 2>&1
"$R" tests --line calc.c:13 >"$d/q2.txt" 2>&1
"$R" tests --line src/calc.c:10 >"$d/q3.txt" 2>&1
"$R" tests --function main --json >"$d/q4.json" 2>&1
if [ -n "$id" ] && [ "$(grep -c 'path executions' "$d/q1.txt")" = 1 ] && grep -q '^  div ' "$d/q1.txt" &&
   [ "$(grep -c 'path executions' "$d/q2.txt")" = 1 ] && grep -q '^  div ' "$d/q2.txt"; then echo "ok pertest-which-path"
else echo "not ok pertest-which-path: id '$id': $(cat "$d/q1.txt" "$d/q2.txt" | tr '\n' ' ')"; fi
if [ "$(grep -c 'path executions' "$d/q3.txt")" = 2 ] && grep -q '^  mix ' "$d/q3.txt" && grep -q '^  mul ' "$d/q3.txt"; then
  echo "ok pertest-which-line"
else echo "not ok pertest-which-line: $(tr '\n' ' ' <"$d/q3.txt")"; fi
if python3 -c "
import json,sys; j=json.load(open('$d/q4.json'))
sys.exit(0 if sorted(t['test'] for t in j['ran']['tests']) == ['add','add2','div','mix','mul'] else 1)"; then echo "ok pertest-which-function"
else echo "not ok pertest-which-function: $(head -c 200 "$d/q4.json")"; fi

# totals by default, one test with --test
"$R" coverage --format json -o "$d/all.json" && "$R" coverage --format json --test div -o "$d/div.json" &&
  "$R" coverage --format json --test add -o "$d/add.json" 2>"$d/cov.err"
if python3 - "$d" <<'EOF'
import json, sys, os
d = sys.argv[1]
calls = lambda f: {fn['name']: fn['calls'] for x in json.load(open(os.path.join(d, f)))['files'] for fn in x['functions']}
a, v, ad = calls('all.json'), calls('div.json'), calls('add.json')
# 6 runs of main (5 tests and one without a name), 11 of run_op; 1 and 2 in one test
sys.exit(0 if (a['main'], a['run_op'], v['main'], v['run_op'], ad['run_op']) == (6, 11, 1, 2, 2) else 1)
EOF
then echo "ok pertest-totals-and-one-test"
else echo "not ok pertest-totals-and-one-test: $(head -1 "$d/cov.err")"; fi
if "$R" coverage --test nosuch >/dev/null 2>"$d/nosuch.err"; then echo "not ok pertest-unknown-test: accepted"
elif grep -q "'add'" "$d/nosuch.err"; then echo "ok pertest-unknown-test"
else echo "not ok pertest-unknown-test: $(head -1 "$d/nosuch.err")"; fi

# merging profiles of two jobs keeps every test; a weight scales the tests too
mkdir -p "$d/jobs" && cd "$d/jobs" || exit 1
cp "$d/loop/calc" . && cp "$d/loop"/*.pp.json .
head -2 "$d/tests.txt" | while read -r name args; do PATHPROF_FILE=a.out PATHPROF_TEST=$name ./calc $args >/dev/null; done
tail -3 "$d/tests.txt" | while read -r name args; do PATHPROF_FILE=b.out PATHPROF_TEST=$name ./calc $args >/dev/null; done
"$R" merge a.out b.out:2 -o ab.out >"$d/merge.log" 2>&1
if "$R" tests --json ab.out >"$d/ab.json" 2>&1 && python3 -c "
import json,sys; j=json.load(open('$d/ab.json'))
sys.exit(0 if sorted(t['name'] for t in j['tests']) == ['add','add2','div','mix','mul'] and sorted(j['minimal']['tests']) == ['div','mix'] else 1)" &&
   "$R" dump ab.out | grep -A3 "^test 'mul'" | grep -q '\] 4$'; then echo "ok pertest-merge"
else echo "not ok pertest-merge: $(head -2 "$d/merge.log") $(head -c 200 "$d/ab.json")"; fi

# ---- pathprof_set_test in one process: the same per-test counts ----
mkdir -p "$d/inproc" && cd "$d/inproc" || exit 1
sed 's/^int main(int argc, char \*\*argv)$/int calc_main(int argc, char **argv)/' "$d/src/calc.c" >calc.c
cat >runner.c <<'EOF'
#include <pathprof.h>
#include <stdio.h>
#include <string.h>
int calc_main(int argc, char **argv);
int main(int argc, char **argv)
{
  char line[256];
  FILE *f = fopen(argv[1], "r");
  (void)argc;
  while (f && fgets(line, sizeof line, f)) {
    char *v[16];
    int n = 0;
    for (char *w = strtok(line, " \n"); w && n < 15; w = strtok(NULL, " \n")) v[n++] = w;
    if (pathprof_set_test(v[0]) != 0) return 1;
    v[0] = "calc";
    calc_main(n, v);
  }
  return pathprof_set_test(NULL);
}
EOF
# the runner itself is not instrumented: its loop's paths span tests
if gcc -O0 -std=c99 -I"$top/include" -c runner.c >build.log 2>&1 && "$P" gcc -O0 -c calc.c >>build.log 2>&1 &&
   "$P" gcc -o runner runner.o calc.o >>build.log 2>&1 && ./runner "$d/tests.txt" >/dev/null &&
   "$R" tests --json >"$d/inproc.json" 2>&1 && python3 - "$d/loop.json" "$d/inproc.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
strip = lambda j: (sorted((t['name'], t['paths']) for t in j['tests']), sorted(r['test'] for r in j['redundant']), sorted(j['minimal']['tests']))
sys.exit(0 if strip(a) == strip(b) else 1)
EOF
then echo "ok pertest-set-test"
else echo "not ok pertest-set-test: $(head -1 build.log) $(head -c 300 "$d/inproc.json")"; fi

# ---- ctest: each test's ENVIRONMENT names it ----
if command -v cmake >/dev/null 2>&1 && command -v ctest >/dev/null 2>&1; then
  mkdir -p "$d/cm/src" "$d/cm/build" && cp "$d/src/calc.c" "$d/cm/src/"
  { echo 'cmake_minimum_required(VERSION 3.12)'; echo 'project(calc C)'; echo 'enable_testing()'
    echo 'add_executable(calc src/calc.c)'
    while read -r name args; do echo "add_test(NAME $name COMMAND calc $args)"; done <"$d/tests.txt"
    echo '# every test names its counts'
    echo 'get_property(tests DIRECTORY PROPERTY TESTS)'
    echo 'foreach(t ${tests})'
    echo '  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT PATHPROF_TEST=${t})'
    echo 'endforeach()'; } >"$d/cm/CMakeLists.txt"
  (cd "$d/cm/build" && cmake -DCMAKE_C_COMPILER="$P" .. && make && ctest) >"$d/cm.log" 2>&1
  if (cd "$d/cm/build" && "$R" tests --json >"$d/cm.json" 2>&1) && python3 - "$d/loop.json" "$d/cm.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
strip = lambda j: (sorted((t['name'], t['paths']) for t in j['tests']), sorted(r['test'] for r in j['redundant']), sorted(j['minimal']['tests']))
sys.exit(0 if strip(a) == strip(b) else 1)
EOF
  then echo "ok pertest-ctest"
  else echo "not ok pertest-ctest: $(grep -m1 -iE 'error|fail' "$d/cm.log") $(head -c 200 "$d/cm.json")"; fi
else echo "skip pertest-ctest: cmake is not installed"; fi

# ---- automake's make check: AM_TESTS_ENVIRONMENT names each test's counts ----
if command -v autoreconf >/dev/null 2>&1 && command -v automake >/dev/null 2>&1; then
  mkdir -p "$d/am" && cd "$d/am" || exit 1
  cp "$d/src/calc.c" .
  printf 'AC_INIT([calc], [1])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n' >configure.ac
  tests=""
  while read -r name args; do printf '#!/bin/sh\nexec ./calc %s >/dev/null\n' "$args" >"$name.test"; chmod +x "$name.test"; tests="$tests $name.test"; done <"$d/tests.txt"
  { echo 'bin_PROGRAMS = calc'; echo 'calc_SOURCES = calc.c'; echo "TESTS =$tests"
    echo '# every test names its counts: $$f is the test the parallel harness runs'
    echo 'AM_TESTS_ENVIRONMENT = PATHPROF_TEST=`basename $$f .test`; export PATHPROF_TEST;'; } >Makefile.am
  (autoreconf -i && ./configure CC="$P" && rm -f pathprof.out && make && make check) >"$d/am.log" 2>&1
  if "$R" tests --json >"$d/am.json" 2>&1 && python3 - "$d/loop.json" "$d/am.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
strip = lambda j: (sorted((t['name'], t['paths']) for t in j['tests']), sorted(r['test'] for r in j['redundant']), sorted(j['minimal']['tests']))
sys.exit(0 if strip(a) == strip(b) else 1)
EOF
  then echo "ok pertest-make-check"
  else echo "not ok pertest-make-check: $(grep -m1 -iE 'error|FAIL:' "$d/am.log") $(head -c 200 "$d/am.json")"; fi
else echo "skip pertest-make-check: autoconf and automake are not installed"; fi
