#!/bin/sh
# pathprof coverage outputs and profile tools: the lcov tracefile renders with genhtml without a
# warning, Cobertura XML has coverage-04's structure, JSON follows doc/coverage-json.md, merge is
# associative to the byte and honours weights and refuses profiles of different builds, diff and
# residual name the right paths.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=coverage_tools
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS

# Debian's lcov (genhtml) and libxml2-utils (xmllint), installed when missing and we are root.
want genhtml:lcov xmllint:libxml2-utils || :  # each check below skips alone without its tool

# A program whose paths depend on its argument.
cat >"$d/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>

static int classify(const char *s)
{
  int digits = 0, letters = 0;
  for (; *s; s++) {
    if (*s >= '0' && *s <= '9')
      digits++;
    else if (*s >= 'a' && *s <= 'z')
      letters++;
    else
      return -1;
  }
  if (digits && letters)
    return 3;
  return digits ? 1 : 2;
}

int main(int argc, char **argv)
{
  int i, sum = 0;
  for (i = 1; i < argc; i++) {
    int k = classify(argv[i]);
    switch (k) {
    case 1: sum += 10; break;
    case 2: sum += 20; break;
    case 3: sum += 30; break;
    default: sum -= 1; break;
    }
  }
  printf("%d\n", sum);
  return 0;
}
EOF
if ! (cd "$d" && "$P" gcc -O0 -o prog prog.c) >"$d/build.log" 2>&1; then
  echo "not ok coverage-tools-build: $(head -1 "$d/build.log")"; exit 0
fi
(cd "$d" && PATHPROF_FILE=a.out ./prog 123 456 && PATHPROF_FILE=b.out ./prog abc 12 && PATHPROF_FILE=c.out ./prog abc9 abc9 x_y) >/dev/null 2>&1
for f in a b c; do [ -s "$d/$f.out" ] || { echo "not ok coverage-tools-run: no profile $f.out"; exit 0; }; done

# ---- merge: associative to the byte, weights, different builds refused ----
(cd "$d" && "$R" merge a.out b.out -o ab.out && "$R" merge ab.out c.out -o ab_c.out &&
            "$R" merge b.out c.out -o bc.out && "$R" merge a.out bc.out -o a_bc.out &&
            "$R" merge c.out a.out b.out -o cab.out) >"$d/merge.log" 2>&1
if cmp -s "$d/ab_c.out" "$d/a_bc.out" && cmp -s "$d/ab_c.out" "$d/cab.out"; then echo "ok merge-associative"
else echo "not ok merge-associative: (a+b)+c, a+(b+c) and c+a+b differ as bytes: $(head -1 "$d/merge.log")"; fi
(cd "$d" && "$R" merge a.out:3 -o a3.out && "$R" merge a.out a.out a.out -o aaa.out) >"$d/weight.log" 2>&1
if cmp -s "$d/a3.out" "$d/aaa.out"; then echo "ok merge-weight"; else echo "not ok merge-weight: a:3 differs from a+a+a: $(head -1 "$d/weight.log")"; fi
if (cd "$d" && "$R" merge a.out:0 -o z.out) >"$d/w0.log" 2>&1; then echo "not ok merge-weight-zero: weight 0 accepted"; else echo "ok merge-weight-zero"; fi
mkdir -p "$d/other"
sed 's/sum -= 1;/sum -= 2;/' "$d/prog.c" >"$d/other/prog.c"
# the same tables file, a different build: the second build overwrites prog-prog.pp.json
cp "$d/prog-prog.pp.json" "$d/keep.pp.json"
(cd "$d" && "$P" gcc -O0 -o prog2 other/prog.c -o prog && PATHPROF_FILE=new.out ./prog 1) >"$d/rebuild.log" 2>&1
cp "$d/keep.pp.json" "$d/prog-prog.pp.json"
(cd "$d" && "$R" merge a.out new.out -o mixed.out) >"$d/mixed.log" 2>&1; rc=$?
if [ "$rc" != 0 ] && grep -q 'different builds' "$d/mixed.log" && [ ! -e "$d/mixed.out" ]; then echo "ok merge-mismatched-builds"
else echo "not ok merge-mismatched-builds: status $rc, '$(head -1 "$d/mixed.log")'"; fi

# ---- residual: the paths of the field run that the tests never ran, by function, as lines ----
(cd "$d" && "$R" residual --baseline a.out c.out) >"$d/residual.txt" 2>&1
# c ran "x_y" (the return -1 path, default case) and mixed strings: a (digits only) never did
if grep -q '^classify (prog.c:' "$d/residual.txt" && grep -q ' 13$' "$d/residual.txt" && grep -q '^main (prog.c:' "$d/residual.txt" &&
   ! (cd "$d" && "$R" residual --baseline c.out c.out) | grep -q '^classify'; then
  echo "ok residual"
else
  echo "not ok residual: $(head -3 "$d/residual.txt" | tr '\n' ' ')"
fi

# ---- diff ----
(cd "$d" && "$R" diff a.out ab.out) >"$d/diff.txt" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q '^classify' "$d/diff.txt" && (cd "$d" && "$R" diff a.out a.out >/dev/null 2>&1); then echo "ok diff"
else echo "not ok diff: status $rc: $(head -2 "$d/diff.txt" | tr '\n' ' ')"; fi

# ---- outputs ----
(cd "$d" && "$R" coverage --format lcov -o cov.info ab_c.out && "$R" coverage --format cobertura -o cov.xml ab_c.out &&
            "$R" coverage --format json -o cov.json ab_c.out && "$R" coverage --format gcov -o cov.gcov ab_c.out &&
            "$R" coverage ab_c.out >cov.txt) >"$d/outputs.log" 2>&1 || echo "not ok coverage-outputs: $(head -1 "$d/outputs.log")"

if command -v genhtml >/dev/null 2>&1; then
  (cd "$d" && genhtml --branch-coverage --function-coverage -o html cov.info) >"$d/genhtml.log" 2>&1; rc=$?
  if [ "$rc" = 0 ] && ! grep -qi 'warning\|error' "$d/genhtml.log" && [ -f "$d/html/index.html" ]; then echo "ok lcov-genhtml"
  else echo "not ok lcov-genhtml: status $rc: $(grep -i 'warning\|error' "$d/genhtml.log" | head -1)"; fi
else
  echo "skip lcov-genhtml: genhtml (Debian lcov) is not installed"
fi

# Cobertura: well-formed (xmllint), and the element structure and required attributes of
# coverage-04.dtd, checked here element by element (the DTD itself is not shipped: its licence is
# not stated). A DTD found on the machine ($COBERTURA_DTD) is used by xmllint as well.
if command -v xmllint >/dev/null 2>&1; then
  if xmllint --noout --nonet "$d/cov.xml" >"$d/xmllint.log" 2>&1; then echo "ok cobertura-wellformed"
  else echo "not ok cobertura-wellformed: $(head -1 "$d/xmllint.log")"; fi
  if [ -n "${COBERTURA_DTD:-}" ] && [ -f "$COBERTURA_DTD" ]; then
    if xmllint --noout --nonet --dtdvalid "$COBERTURA_DTD" "$d/cov.xml" >"$d/dtd.log" 2>&1; then echo "ok cobertura-dtd"
    else echo "not ok cobertura-dtd: $(head -1 "$d/dtd.log")"; fi
  fi
else
  echo "skip cobertura-wellformed: xmllint (Debian libxml2-utils) is not installed"
fi
python3 - "$d/cov.xml" "$d/cov.json" "$d/cov.gcov" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
xmlf, jsonf, gcovf = sys.argv[1:4]
# coverage-04: element -> (allowed children in order, required attributes)
grammar = {
    "coverage": (["sources", "packages"], ["line-rate", "branch-rate", "lines-covered", "lines-valid", "branches-covered",
                                           "branches-valid", "complexity", "version", "timestamp"]),
    "sources": (["source"], []), "source": ([], []), "packages": (["package"], []),
    "package": (["classes"], ["name", "line-rate", "branch-rate", "complexity"]), "classes": (["class"], []),
    "class": (["methods", "lines"], ["name", "filename", "line-rate", "branch-rate", "complexity"]),
    "methods": (["method"], []), "method": (["lines"], ["name", "signature", "line-rate", "branch-rate", "complexity"]),
    "lines": (["line"], []), "line": (["conditions"], ["number", "hits"]), "conditions": (["condition"], []),
    "condition": ([], ["number", "type", "coverage"]),
}
errs = []
def check(e, path):
    if e.tag not in grammar:
        errs.append("%s: unknown element %s" % (path, e.tag)); return
    kids, req = grammar[e.tag]
    for a in req:
        if a not in e.attrib: errs.append("%s: %s lacks %s" % (path, e.tag, a))
    order = [k.tag for k in e]
    if e.tag in ("class", "method") and order != kids: errs.append("%s: %s holds %s, want %s" % (path, e.tag, order, kids))
    if e.tag == "coverage" and order not in (["packages"], ["sources", "packages"]): errs.append("coverage holds %s" % order)
    for k in e:
        if k.tag not in kids: errs.append("%s: %s inside %s" % (path, k.tag, e.tag))
        check(k, path + "/" + k.tag)
    if e.tag == "line":
        if e.get("branch", "false") not in ("true", "false"): errs.append("%s: branch=%s" % (path, e.get("branch")))
        if e.get("branch") == "true" and not re.match(r"^\d+% \(\d+/\d+\)$", e.get("condition-coverage", "")):
            errs.append("%s: condition-coverage=%s" % (path, e.get("condition-coverage")))
root = ET.parse(xmlf).getroot()
check(root, "coverage")
for r in ("line-rate", "branch-rate"):
    if not 0.0 <= float(root.get(r)) <= 1.0: errs.append("coverage %s=%s" % (r, root.get(r)))
print("ok cobertura-structure" if not errs else "not ok cobertura-structure: " + "; ".join(errs[:3]))
# JSON: the documented schema
j = json.load(open(jsonf))
bad = []
if j.get("format") != "pathprof-coverage" or j.get("version") != 1: bad.append("format/version")
f = [x for x in j["files"] if x["file"].endswith("prog.c")]
if not f: bad.append("no prog.c")
else:
    f = f[0]
    fn = {x["name"]: x for x in f["functions"]}
    if set(fn) != {"classify", "main"}: bad.append("functions %s" % sorted(fn))
    elif fn["main"]["calls"] != 3 or fn["classify"]["calls"] != 7: bad.append("calls main %s classify %s" % (fn["main"]["calls"], fn["classify"]["calls"]))
    for x in f["functions"]:
        for k in ("lines", "blocks", "edges", "branches"):
            if not (0 <= x[k]["covered"] <= x[k]["total"]): bad.append("%s %s" % (x["name"], k))
        if int(x["paths"]["total"]) < x["paths"]["covered"]: bad.append("%s paths" % x["name"])
    lines = {l["line"]: l["count"] for l in f["lines"]}
    # main's for line: 3 runs and 7 arguments; the return at 33, nothing at the brace after it
    if lines.get(23) != 10: bad.append("line 23 count %s, want 10" % lines.get(23))
    if lines.get(33) != 3 or 34 in lines: bad.append("lines 33, 34: %s, %s, want 3, none" % (lines.get(33), lines.get(34)))
    for b in f["branches"]:
        if len(b["outcomes"]) < 2: bad.append("branch with %d outcomes" % len(b["outcomes"]))
print("ok coverage-json" if not bad else "not ok coverage-json: " + "; ".join(bad[:4]))
# gcov text: the same counts, "-: n: src" lines
g = {}
for l in open(gcovf):
    m = re.match(r"^\s*([^:]+):\s*(\d+):", l)
    if m and m.group(2) != "0": g[int(m.group(2))] = m.group(1).strip()
print("ok coverage-gcov-text" if g.get(23) == "10" and g.get(21) == "-" else "not ok coverage-gcov-text: line 23 %s line 21 %s" % (g.get(23), g.get(21)))
PY
if grep -q 'classify' "$d/cov.txt" && grep -q '^total' "$d/cov.txt"; then echo "ok coverage-text"; else echo "not ok coverage-text: $(head -2 "$d/cov.txt" | tr '\n' ' ')"; fi
if (cd "$d" && "$R" coverage --format nope ab_c.out) >/dev/null 2>&1; then echo "not ok coverage-bad-format: accepted"; else echo "ok coverage-bad-format"; fi
