#!/bin/sh
# Units built but never run: a two-file program whose second file never runs is reported at 0% by
# pathprof coverage in every format (text, lcov, cobertura, json, gcov, html) and by report, with
# line, function and branch totals equal to gcovr's on the same program built with gcc --coverage;
# tables are found beside the objects, under $PATHPROF_DB and under --root. Missing tables are a
# warning (exit 0, output written) unless --strict. Configure and CMake test programs are not
# instrumented (no tables left behind).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=unrun
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
if ! command -v gcovr >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  { apt-get -o DPkg::Lock::Timeout=600 -qq install -y gcovr || { apt-get -qq update; apt-get -qq install -y gcovr; }; } >/dev/null 2>&1
fi

mkdir -p "$d/src"
cat >"$d/src/main.c" <<'C'
#include <stdio.h>
int used(int x)
{
  if (x > 2)
    return x * 2;
  return x;
}
int main(void)
{
  int s = 0;
  for (int i = 0; i < 5; i++)
    s += used(i);
  printf("%d\n", s);
  return 0;
}
C
cat >"$d/src/other.c" <<'C'
/* never called */
int never(int y)
{
  int z = 0;
  for (int i = 0; i < y; i++)
    if (i % 3)
      z += i;
  return z;
}
int never2(void)
{
  return 7;
}
C

# pathcc build, run, every format
p="$d/p"; mkdir -p "$p"; cp "$d/src"/*.c "$p/"
(cd "$p" && "$P" gcc -O0 -c main.c && "$P" gcc -O0 -c other.c && "$P" gcc -O0 -o prog main.o other.o && ./prog >/dev/null) ||
  echo "not ok unrun build: pathcc build or run failed"
for fmt in text json lcov cobertura gcov; do
  if (cd "$p" && "$R" coverage --format $fmt -o cov.$fmt) 2>"$p/$fmt.err"; then :; else
    echo "not ok unrun $fmt: pathprof coverage failed: $(head -1 "$p/$fmt.err")"
  fi
done
(cd "$p" && "$R" coverage --format html -o html) 2>"$p/html.err" || echo "not ok unrun html: $(head -1 "$p/html.err")"
(cd "$p" && "$R" report >report.txt) 2>"$p/report.err" || echo "not ok unrun report: $(head -1 "$p/report.err")"

# gcovr's totals for the same program
g="$d/g"; mkdir -p "$g"; cp "$d/src"/*.c "$g/"
have_gcovr=0
if command -v gcovr >/dev/null 2>&1 && (cd "$g" && gcc --coverage -O0 -o prog main.c other.c && ./prog >/dev/null &&
    gcovr -r . --json-summary -o summary.json) >"$g/log" 2>&1; then
  have_gcovr=1
else
  echo "skip unrun gcovr: gcovr is not installed or failed (Debian package gcovr)"
fi

python3 - "$p" "$g" "$have_gcovr" <<'PY'
import json, os, re, sys
p, g, have = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
def check(name, cond, why=""):
    print(("ok unrun %s" % name) if cond else ("not ok unrun %s: %s" % (name, why)))
txt = open(os.path.join(p, "cov.text")).read()
m = re.search(r"^\S*other\.c\s+0/(\d+)\s+0\.0%", txt, re.M)
check("text other.c at 0%", m and int(m.group(1)) > 0, "no 0%% line for other.c in the text summary")
cov = json.load(open(os.path.join(p, "cov.json")))
files = {os.path.basename(f["file"]): f for f in cov["files"]}
o = files.get("other.c")
check("json other.c at 0%", o and o["summary"]["lines"]["covered"] == 0 and o["summary"]["lines"]["total"] > 0
      and all(l["count"] == 0 for l in o["lines"]), "other.c missing or counted")
lcov = open(os.path.join(p, "cov.lcov")).read()
rec = [r for r in lcov.split("end_of_record") if "SF:" in r and r.strip().split("SF:")[1].split("\n")[0].endswith("other.c")]
check("lcov other.c at 0%", rec and "LH:0\n" in rec[0] and "LF:0\n" not in rec[0], "no LH:0 record for other.c")
cob = open(os.path.join(p, "cov.cobertura")).read()
m = re.search(r'<class name="other\.c"[^>]*line-rate="([0-9.]+)"', cob)
check("cobertura other.c at 0%", m and float(m.group(1)) == 0.0, "no class other.c with line-rate 0")
gcov = open(os.path.join(p, "cov.gcov")).read()
sec = gcov.split("Source:other.c")
check("gcov other.c unexecuted", len(sec) > 1 and "#####:    2:int never" in sec[1], "other.c not annotated #####")
html = open(os.path.join(p, "html", "index.html")).read()
m = re.search(r'other\.c</a></td><td[^>]*><span class="bar"><i style="width:0%"></i></span>0/(\d+) 0\.0%', html)
check("html other.c at 0%", m is not None, "index.html has no 0% row for other.c")
rep = open(os.path.join(p, "report.txt")).read()
check("report names the unit never run", "built but never run: 1 unit" in rep and "other.c" in rep, "report does not list other.c")
if have:
    s = json.load(open(os.path.join(g, "summary.json")))
    t = cov["summary"]
    for k, ours in (("line", t["lines"]), ("function", t["functions"]), ("branch", t["branches"])):
        check("totals %s = gcovr" % k, (ours["covered"], ours["total"]) == (s[k + "_covered"], s[k + "_total"]),
              "pathprof %d/%d, gcovr %d/%d" % (ours["covered"], ours["total"], s[k + "_covered"], s[k + "_total"]))
    gf = {os.path.basename(f["filename"]): f for f in s["files"]}
    check("other.c lines = gcovr", gf["other.c"]["line_total"] == o["summary"]["lines"]["total"],
          "gcovr %d, pathprof %d" % (gf["other.c"]["line_total"], o["summary"]["lines"]["total"]))
PY

# tables found under $PATHPROF_DB and under --root, from another directory
db="$d/db"; mkdir -p "$db" "$d/q/build" "$d/elsewhere"; cp "$d/src"/*.c "$d/q/"
(cd "$d/q/build" && PATHPROF_DB="$db" "$P" gcc -O0 -o prog ../main.c ../other.c && ./prog >/dev/null) || echo "not ok unrun db build failed"
if (cd "$d/elsewhere" && PATHPROF_DB="$db" "$R" coverage --format json -o cov.json "$d/q/build/pathprof.out") 2>"$d/db.err" &&
   grep -q '"other.c"\|/other.c"' "$d/elsewhere/cov.json"; then echo "ok unrun found under PATHPROF_DB"
else echo "not ok unrun found under PATHPROF_DB: $(head -1 "$d/db.err")"; fi
mkdir -p "$d/r/src" "$d/r/obj"; cp "$d/src"/*.c "$d/r/src/"
(cd "$d/r/obj" && "$P" gcc -O0 -c ../src/main.c -o main.o && "$P" gcc -O0 -c ../src/other.c -o other.o &&
  mkdir -p ../bin && "$P" gcc -O0 -o ../bin/prog main.o && cd ../bin && ./prog >/dev/null) >"$d/r.log" 2>&1 || echo "not ok unrun root build failed"
# main.o's tables sit beside the objects, like other.o's; from elsewhere, --root names the tree
if (cd "$d/elsewhere" && "$R" coverage --root "$d/r" --format json -o rootcov.json "$d/r/bin/pathprof.out") 2>"$d/root.err" &&
   grep -q 'other.c' "$d/elsewhere/rootcov.json"; then echo "ok unrun found under --root"
else echo "not ok unrun found under --root: $(head -1 "$d/root.err")"; fi

# missing tables: named, output written, status 0; --strict: status 1 and no output
# main.pp.json goes: main.c's unit has no tables; other.c, never run, is still found
(cd "$p" && rm -f main.pp.json && "$R" coverage --format lcov -o missing.lcov) 2>"$d/missing.err"
rc=$?
if [ "$rc" = 0 ] && [ -s "$p/missing.lcov" ] && grep -q "no tables" "$d/missing.err"; then echo "ok unrun missing tables: a warning"
else echo "not ok unrun missing tables: status $rc, $(head -1 "$d/missing.err")"; fi
(cd "$p" && "$R" coverage --strict --format lcov -o strict.lcov) 2>/dev/null
rc=$?
if [ "$rc" != 0 ] && [ ! -e "$p/strict.lcov" ]; then echo "ok unrun --strict: missing tables fail"
else echo "not ok unrun --strict: status $rc with tables missing"; fi
(cd "$p" && "$R" coverage --strict --format html -o strict-html) 2>/dev/null
rc=$?
if [ "$rc" != 0 ] && [ ! -e "$p/strict-html" ]; then echo "ok unrun --strict html: missing tables fail, no directory"
else echo "not ok unrun --strict html: status $rc with tables missing"; fi
(cd "$p" && "$R" report >/dev/null 2>&1) && echo "ok unrun report with missing tables: status 0" || echo "not ok unrun report with missing tables fails"
(cd "$p" && "$R" report --strict >/dev/null 2>&1) && echo "not ok unrun report --strict passes with missing tables" || echo "ok unrun report --strict fails"

# configure and CMake test programs: compiled as written, no tables
mkdir -p "$d/conf/CMakeFiles/CMakeScratch/TryCompile-x"
printf 'int main(void) { return 0; }\n' >"$d/conf/conftest.c"
cp "$d/conf/conftest.c" "$d/conf/CMakeFiles/CMakeScratch/TryCompile-x/src.c"
(cd "$d/conf" && "$P" gcc -o conftest conftest.c && ./conftest && cd CMakeFiles/CMakeScratch/TryCompile-x && "$P" gcc -o t src.c && ./t) ||
  echo "not ok unrun try-compile build failed"
if [ -z "$(find "$d/conf" -name '*.pp.json')" ] && [ ! -e "$d/conf/pathprof.out" ]; then echo "ok unrun try-compiles not instrumented"
else echo "not ok unrun try-compiles were instrumented: $(find "$d/conf" -name '*.pp.json' -o -name pathprof.out | head -2 | tr '\n' ' ')"; fi
(cd "$d/conf" && "$P" --try-compiles gcc -o conftest conftest.c && ./conftest)
if [ -e "$d/conf/conftest.pp.json" ] || [ -n "$(find "$d/conf" -maxdepth 1 -name '*.pp.json')" ]; then echo "ok unrun --try-compiles instruments them"
else echo "not ok unrun --try-compiles: no tables"; fi

# A source that ran is not "never run" because another build spelled it otherwise: build b1
# names them ../src/x.c, build b2 (the one that runs) /abs/src/two.c and ./../src/main.c; b1's
# tables, found under --root, are the same files by the loader's file key, so none joins.
mkdir -p "$d/spell/src" "$d/spell/b1" "$d/spell/b2"
printf 'int twice(int x);\nint main(int argc, char **argv) { (void)argv; return twice(argc) == 2 ? 0 : 1; }\n' >"$d/spell/src/main.c"
printf 'int twice(int x)\n{\n  if (x > 100)\n    return 0;\n  return 2 * x;\n}\n' >"$d/spell/src/two.c"
if (cd "$d/spell/b1" && "$P" gcc -O1 -c ../src/two.c -o two.o && "$P" gcc -O1 -c ../src/main.c -o main.o &&
    cd ../b2 && "$P" gcc -O0 -c "$d/spell/src/two.c" -o two.o && "$P" gcc -O0 -c ./../src/main.c -o main.o &&
    "$P" gcc -o prog main.o two.o && ./prog) >"$d/spell.log" 2>&1; then
  (cd "$d/spell/b2" && "$R" report --root "$d/spell") >"$d/spell.out" 2>&1
  if grep -q "2 units" "$d/spell.out" && ! grep -q "never run" "$d/spell.out"; then echo "ok unrun same source spelled otherwise"
  else echo "not ok unrun same source spelled otherwise: $(grep -A2 'never run' "$d/spell.out" | tr '\n' ' ')"; fi
  # two tables of one never-run source written at the same time (a copy kept with cp -p): the
  # one with the first path joins, the other is passed over (comparing with the one that joined)
  mkdir -p "$d/spell/b3" && printf 'int idle(void) { return 0; }\n' >"$d/spell/src/idle.c"
  (cd "$d/spell/b2" && "$P" gcc -O0 -c ../src/idle.c -o idle.o && cp -p idle.pp.json ../b3/) >>"$d/spell.log" 2>&1
  (cd "$d/spell/b2" && "$R" report --root "$d/spell") >"$d/spell2.out" 2>&1; rc=$?
  if [ $rc = 0 ] && grep -q "built but never run: 1 unit$" "$d/spell2.out" && grep -q "idle.c (1 functions)" "$d/spell2.out"; then
    echo "ok unrun one of two equal tables joins"
  else echo "not ok unrun one of two equal tables joins: status $rc: $(grep -A2 'never run' "$d/spell2.out" | tr '\n' ' ')"; fi
else echo "not ok unrun spelling build: $(head -1 "$d/spell.log")"; fi

# report shows the profile's program: tables of another program built in the same directory
# (solo.c, its own program, never run) join only under --root; a unit with no functions (data.c,
# linked in, data only) is never "built but never run", not even under --root
mkdir -p "$d/scope"
printf 'extern const char msg[];\nint main(void) { return msg[0] == 0; }\n' >"$d/scope/main.c"
printf 'const char msg[] = "data only";\n' >"$d/scope/data.c"
printf 'int solo(int x)\n{\n  if (x)\n    return 1;\n  return 0;\n}\nint main(void) { return solo(0); }\n' >"$d/scope/solo.c"
if (cd "$d/scope" && "$P" gcc -O0 -o prog main.c data.c && "$P" gcc -O0 -o solo solo.c && ./prog) >"$d/scope.log" 2>&1; then
  (cd "$d/scope" && "$R" report pathprof.out) >"$d/scope.out" 2>&1
  (cd "$d/scope" && "$R" report --root . pathprof.out) >"$d/scope-root.out" 2>&1
  if grep -q "never run" "$d/scope.out"; then echo "not ok unrun report is the profile's program: $(grep -A3 'never run' "$d/scope.out" | tr '\n' ' ')"
  else echo "ok unrun report is the profile's program"; fi
  if grep -q "built but never run: 1 unit$" "$d/scope-root.out" && grep -q "solo.c (2 functions)" "$d/scope-root.out"; then
    echo "ok unrun report --root adds units never run, none without functions"
  else echo "not ok unrun report --root adds units never run, none without functions: $(grep -A3 'never run' "$d/scope-root.out" | tr '\n' ' ')"; fi
else echo "not ok unrun scope build: $(head -1 "$d/scope.log")"; fi
