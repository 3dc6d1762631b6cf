#!/bin/sh
# pathcc as a drop-in cc: output naming, several sources, same basenames, -c/-o/-E/-MD, default compiler, shared libraries, --strict, comments kept in preprocessing only where a warning reads them.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=driver
. "$top/regress/private.sh"
d=$E2E_DIR
mkdir -p "$d/sub" "$d/objs" "$d/lib" || exit 1
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHCC_FLAGS
# t NAME CONDITION-COMMAND... : ok if the command succeeds
t() {
  name=$1; shift
  if "$@" >/dev/null 2>&1; then echo "ok driver-$name"; else echo "not ok driver-$name: failed: $*"; fi
}

cat >"$d/main.c" <<'C'
/* main unit: calls into the two units named util.c */
#include <stdio.h>
int util_a(int);
int util_b(int);
int shared_f(int);
int main(void)
{
  int s = 0, i;
  for (i = 0; i < 6; i++)
    s += util_a(i) + util_b(i);
  printf("%d\n", s);
  return s == 30 ? 0 : 1;
}
C
cat >"$d/util.c" <<'C'
/* util.c in the top directory */
static int helper(int x) { return x > 2 ? x * 2 : x; }
int util_a(int x) { return helper(x) - 1; }
C
cat >"$d/sub/util.c" <<'C'
/* util.c in sub/: same basename, different unit */
static int helper(int x) { if (x & 1) return x; return -x; }
int util_b(int x) { return helper(x) + 1; }
C

# Compile and link in one step with two sources of the same basename: each unit keeps its own tables.
(cd "$d" && "$P" gcc -O2 -o prog main.c util.c sub/util.c >build1.log 2>&1)
t build-one-step test -x "$d/prog" -a ! -s "$d/build1.log"
(cd "$d" && PATHPROF_FILE="$d/prog.out" ./prog >prog.stdout)
t run-one-step grep -qx 30 "$d/prog.stdout"
n=$(ls "$d" | grep -c '\.pp\.json$')
if [ "$n" = 3 ]; then
  echo "ok driver-tables-per-unit"
else
  echo "not ok driver-tables-per-unit: pathcc -o prog main.c util.c sub/util.c left $n tables file(s) ($(ls "$d" | grep '\.pp\.json$' | tr '\n' ' ')), want 3"
fi
if (cd "$d" && "$R" report "$d/prog.out" >report1.txt 2>report1.err) && [ ! -s "$d/report1.err" ] &&
   grep -q util_a "$d/report1.txt" && grep -q util_b "$d/report1.txt" && grep -q main "$d/report1.txt"; then
  echo "ok driver-report-one-step"
else
  echo "not ok driver-report-one-step: pathprof report on the one-step build: $(head -1 "$d/report1.err")"
fi

# -c with several sources, then a link of objects only.
(cd "$d/objs" && "$P" gcc -O2 -c ../main.c ../util.c >build2.log 2>&1)
t c-several-objects test -f "$d/objs/main.o" -a -f "$d/objs/util.o"
t c-several-tables test -f "$d/objs/main.pp.json" -a -f "$d/objs/util.pp.json"
(cd "$d/objs" && "$P" gcc -O2 -c ../sub/util.c -o util_b.o && "$P" gcc -o prog main.o util.o util_b.o) >"$d/objs/link.log" 2>&1
t c-object-named-tables test -f "$d/objs/util_b.pp.json"
(cd "$d/objs" && PATHPROF_FILE="$d/objs/prog.out" ./prog >prog.stdout)
t link-objects-runs grep -qx 30 "$d/objs/prog.stdout"
t link-objects-report "$R" report "$d/objs/prog.out"

# -o into another directory: the tables go next to the object.
mkdir -p "$d/objs/deep"
(cd "$d" && "$P" gcc -c util.c -o objs/deep/x.o) >/dev/null 2>&1
t tables-next-to-object test -f "$d/objs/deep/x.pp.json"
# -o - (assembly to standard output): the tables are named after the source, as gcc's .gcno
mkdir -p "$d/stdout" && cp "$d/util.c" "$d/stdout/"
(cd "$d/stdout" && "$P" gcc -S util.c -o - >util.s) >/dev/null 2>&1
t tables-of-stdout-object test -f "$d/stdout/util.pp.json" -a ! -e "$d/stdout/-.pp.json" -a -s "$d/stdout/util.s"

# -MD -MF: the dependency file names the real source, not a temporary.
(cd "$d" && "$P" gcc -MD -MF util.d -c util.c -o util_md.o) >/dev/null 2>&1
t md-depfile grep -q 'util_md.o: util.c' "$d/util.d"

# -E is passed through untouched.
(cd "$d" && gcc -E main.c >plain.i && "$P" gcc -E main.c >pathcc.i)
t E-passthrough cmp "$d/plain.i" "$d/pathcc.i"

# No compiler named: PATHCC_CC or cc.
(cd "$d" && PATHCC_CC=gcc "$P" -O1 -c util.c -o util_default.o) >/dev/null 2>&1
t default-compiler test -f "$d/util_default.o" -a -f "$d/util_default.pp.json"

# A source on standard input is either instrumented or compiled with a warning, never silently skipped.
(cd "$d" && "$P" gcc -x c -c - -o stdin.o <util.c >stdin.log 2>&1)
if [ -f "$d/stdin.pp.json" ] || grep -q warning "$d/stdin.log"; then
  echo "ok driver-stdin-source"
else
  echo "not ok driver-stdin-source: pathcc gcc -x c -c - -o stdin.o <util.c: exit 0, no tables, no warning (silently uninstrumented)"
fi

# A shared library and a program, both instrumented, write one profile with both units.
cat >"$d/lib/shared.c" <<'C'
/* a function in a shared library */
int shared_f(int x) { int s = 0; while (x-- > 0) s += x; return s; }
C
cat >"$d/lib/usershared.c" <<'C'
/* a program calling into the shared library */
#include <stdio.h>
int shared_f(int);
int main(void) { printf("%d\n", shared_f(10)); return 0; }
C
(cd "$d/lib" && "$P" gcc -O2 -fPIC -shared -o libshared.so shared.c &&
  "$P" gcc -O2 -o user usershared.c -L. -lshared -Wl,-rpath,"$d/lib") >"$d/lib/build.log" 2>&1
(cd "$d/lib" && PATHPROF_FILE="$d/lib/p.out" ./user >user.stdout 2>user.stderr)
t shared-runs grep -qx 45 "$d/lib/user.stdout"
if "$R" report "$d/lib/p.out" >"$d/lib/report.txt" 2>&1 && grep -q shared_f "$d/lib/report.txt" && grep -q 'main' "$d/lib/report.txt"; then
  echo "ok driver-shared-report"
else
  echo "not ok driver-shared-report: $(head -1 "$d/lib/report.txt")"
fi

# --strict turns the fallback warning into an error.
cat >"$d/gnu.c" <<'C'
/* GNU C nested function, which libclang rejects */
int outer(int n) { int add(int v) { return v + n; } return add(1); }
C
if (cd "$d" && "$P" --strict gcc -c gnu.c -o gnu.o) >"$d/strict.log" 2>&1; then
  echo "not ok driver-strict: pathcc --strict accepted a unit it could not instrument"
else
  echo "ok driver-strict"
fi

# Comments: preprocessing drops them (a fifth of its cost, a .i five times smaller) unless a
# warning of the compile reads them: GCC's fallthrough comments under -Wextra (the unit compiles
# with -Werror, instrumented) or a diagnostic pragma naming such a warning (then it preprocesses
# again, keeping them).
cat >"$d/falls.c" <<'C'
int falls(int x)
{
  int s = 0;
  switch (x) {
  case 1:
    s += 2;
    /* fallthrough */
  case 2:
    s += 3;
    break;
  default:
    s = 1;
  }
  return s;
}
C
printf '#pragma GCC diagnostic warning "-Wimplicit-fallthrough"\n#include "falls.c"\n' >"$d/falls_pragma.c"
# cpp_runs LOG: the preprocessing commands pathcc ran, "C" for one with -C, "-" for one without
cpp_runs() { grep '^pathcc: .* -E ' "$1" | awk '{ print (/ -E -C / ? "C" : "-") }' | tr -d '\n'; }
(cd "$d" && "$P" --verbose gcc -O2 -c falls.c -o falls0.o) >"$d/falls0.log" 2>&1
t comments-dropped test "$(cpp_runs "$d/falls0.log")" = "-"
(cd "$d" && "$P" --verbose gcc -O2 -Wextra -Werror -c falls.c -o falls1.o) >"$d/falls1.log" 2>&1
t comments-kept-wextra test "$(cpp_runs "$d/falls1.log")" = "C"
t comments-wextra-quiet sh -c "! grep -v '^pathcc: ' '$d/falls1.log' | grep -q . && nm '$d/falls1.o' | grep -q __pathprof_u"
(cd "$d" && "$P" --verbose gcc -O2 -c falls_pragma.c -o falls2.o) >"$d/falls2.log" 2>&1
t comments-pragma test "$(cpp_runs "$d/falls2.log")" = "-C"
