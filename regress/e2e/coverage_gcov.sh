#!/bin/sh
# pathprof coverage against gcov: every sample and regress/cases program, and one with cut edges, built with gcc --coverage -O0
# and through pathcc -O0 (both --decisions modes); pathprof's line counts (with --no-code=gcov) must equal
# `gcov --json-format` line by line, except the differences listed with their reasons in
# regress/e2e/coverage_gcov_known.txt.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=coverage_gcov
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
if ! command -v gcov >/dev/null 2>&1; then echo "skip coverage-gcov: gcov is not installed"; exit 0; fi
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
n=0
# A function with 2^100 paths, so pathcc cuts edges: cut-edge counts come from both path ends.
mkdir -p "$d/gen"
python3 - "$d/gen/cuts.c" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("#include <stdio.h>\nstatic unsigned long h(unsigned long x)\n{\n  unsigned long s = 0;\n")
    for i in range(100):
        f.write("  if ((x >> %d) & 1) s += %d; else s ^= %d;\n" % (i % 61, i, i * 7))
    f.write("  return s;\n}\n\nint main(void)\n{\n  unsigned long t = 0;\n"
            "  for (unsigned long i = 0; i < 1500; i++) t += h(i * 2654435761u);\n"
            "  printf(\"%lu\\n\", t);\n  return 0;\n}\n")
PY
# make check: each program in one of the two decision modes, in turn (sample.sh); check-full: both
i=0
for src in "$top"/samples/*.c "$top"/regress/cases/*.c "$d/gen/cuts.c"; do
  name=$(basename "$src" .c)
  i=$((i + 1))
  if grep -q 'regress: timing-dependent' "$src"; then echo "skip coverage-gcov $name: its counts depend on timing"; continue; fi
  g="$d/$name/gcc"; mkdir -p "$g"
  cp "$src" "$g/"
  if ! (cd "$g" && gcc --coverage -O0 -o prog "$name.c" -lm && $run ./prog >/dev/null 2>&1; gcov --json-format -t "prog-$name.gcda" >gcov.json 2>gcov.err) >"$g/build.log" 2>&1 || [ ! -s "$g/gcov.json" ]; then
    echo "not ok coverage-gcov $name: gcc --coverage build or gcov failed: $(head -1 "$g/build.log" "$g/gcov.err" 2>/dev/null | tail -1)"
    continue
  fi
  for mode in statements conditions; do
    i=$((i + 1)); sampled $i 2 || continue
    p="$d/$name/$mode"; mkdir -p "$p"
    cp "$src" "$p/"
    if ! (cd "$p" && "$P" --decisions=$mode gcc -O0 -o prog "$name.c" -lm && { $run ./prog >/dev/null 2>&1; true; } &&
          "$R" coverage --no-code=gcov --format json -o cov.json pathprof.out) >"$p/build.log" 2>&1; then
      echo "not ok coverage-gcov $name ($mode): pathcc build or pathprof coverage failed: $(head -1 "$p/build.log")"
      continue
    fi
    n=$((n + 1))
    python3 - "$name" "$mode" "$g/gcov.json" "$p/cov.json" "$src" "$top/regress/e2e/coverage_gcov_known.txt" <<'PY'
import json, sys
name, mode, gj, pj, src, known_file = sys.argv[1:7]
text = open(src, errors="replace").read().split("\n")
known = {}
for line in open(known_file):
    if line.startswith("#") or " => " not in line:
        continue
    f, rest = line.split(": ", 1)
    code, why = rest.split(" => ", 1)
    known[(f.strip(), code.strip())] = why.strip()
g = {}
for f in json.load(open(gj))["files"]:
    if f["file"].endswith(name + ".c"):
        for l in f["lines"]:
            g[l["line_number"]] = g.get(l["line_number"], 0) + l["count"]
o = {}
for f in json.load(open(pj))["files"]:
    if f["file"].endswith(name + ".c"):
        for l in f["lines"]:
            o[l["line"]] = l["count"]
same = listed = 0
bad = []
for ln in sorted(set(g) | set(o)):
    if g.get(ln) == o.get(ln):
        same += 1
        continue
    code = text[ln - 1].strip() if ln <= len(text) else ""
    if (name + ".c", code) in known:
        listed += 1
    else:
        bad.append("line %d (%s): gcov %s, pathprof %s" % (ln, code[:60], g.get(ln, "-"), o.get(ln, "-")))
tag = "coverage-gcov %s (%s)" % (name, mode)
if bad:
    print("not ok %s: %d lines differ from gcov and are not in coverage_gcov_known.txt: %s" % (tag, len(bad), "; ".join(bad[:4])))
else:
    print("ok %s" % tag)
print("# %s: %d lines equal to gcov, %d listed differences" % (tag, same, listed))
PY
  done
done
if [ "$n" -lt 10 ]; then echo "not ok coverage-gcov-count: only $n program builds were compared (want at least 10)"; fi
