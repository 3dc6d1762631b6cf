#!/bin/sh
# Exclusion markers (regress/exclude/markers.c: LCOV_EXCL_LINE, LCOV_EXCL_START/STOP,
# LCOV_EXCL_BR_LINE, LCOV_EXCL_BR_START/STOP and the GCOVR_ ones): for each marker, in every
# format of pathprof coverage (text, json, lcov, cobertura, gcov, html, sonarqube, coveralls,
# markdown), the lines it marks (or
# their branches) leave the totals and are shown or counted as excluded; lcov's geninfo leaves out
# the same lines and branches for the LCOV_ markers, and the totals equal gcovr's.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=exclusions
. "$top/regress/private.sh"
d=$E2E_DIR
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
if [ "$(id -u)" = 0 ]; then
  for pkg in lcov gcovr; do
    command -v "$pkg" >/dev/null 2>&1 ||
      { apt-get -o DPkg::Lock::Timeout=600 -qq install -y "$pkg" || { apt-get -qq update; apt-get -qq install -y "$pkg"; }; } >/dev/null 2>&1
  done
fi
mkdir -p "$d/p" "$d/g"
cp "$top/regress/exclude/markers.c" "$d/p/"
cp "$top/regress/exclude/markers.c" "$d/g/"
if ! (cd "$d/p" && "$top/bin/pathcc" gcc -O0 -o prog markers.c && ./prog >/dev/null) >"$d/p/build.log" 2>&1; then
  echo "not ok exclusions build: $(head -1 "$d/p/build.log")"
  exit 0
fi
for fmt in text json lcov cobertura gcov sonarqube coveralls markdown; do
  (cd "$d/p" && "$top/bin/pathprof" coverage --format $fmt -o cov.$fmt) 2>"$d/p/$fmt.err" ||
    echo "not ok exclusions $fmt: pathprof coverage failed: $(head -1 "$d/p/$fmt.err")"
done
(cd "$d/p" && "$top/bin/pathprof" coverage --format html -o html) 2>"$d/p/html.err" || echo "not ok exclusions html: $(head -1 "$d/p/html.err")"
# --diff of a change that adds all of markers.c: its changed code is the whole file, so its totals
# and lcov records must be the plain report's, markers applied the same way
(cd "$d/p" && { diff -u /dev/null markers.c >all.diff; for fmt in json lcov; do
  "$top/bin/pathprof" coverage --diff all.diff --format $fmt -o diff.$fmt || exit 1; done; }) 2>"$d/p/diff.err" ||
  echo "not ok exclusions diff: pathprof coverage --diff failed: $(head -1 "$d/p/diff.err")"
# the same with decision tables (--decisions=conditions): the --diff tracefile carries lcov 2.x's
# MC/DC records as the plain one does (it had none), still byte for byte the plain one
mkdir -p "$d/m" && cp "$top/regress/exclude/markers.c" "$d/m/"
if (cd "$d/m" && "$top/bin/pathcc" --decisions=conditions gcc -O0 -o prog markers.c && ./prog >/dev/null &&
    diff -u /dev/null markers.c >all.diff; "$top/bin/pathprof" coverage --format lcov -o plain.lcov &&
    "$top/bin/pathprof" coverage --diff all.diff --format lcov -o diff.lcov) >"$d/m/log" 2>&1; then
  if ! grep -q '^MCDC:' "$d/m/plain.lcov"; then echo "not ok exclusions diff lcov mcdc: the plain tracefile has no MCDC record"
  elif cmp -s "$d/m/plain.lcov" "$d/m/diff.lcov"; then echo "ok exclusions diff lcov mcdc = plain"
  else echo "not ok exclusions diff lcov mcdc = plain: $(diff "$d/m/plain.lcov" "$d/m/diff.lcov" | grep -c '^[<>]') lines differ"; fi
else echo "not ok exclusions diff lcov mcdc: $(head -1 "$d/m/log")"; fi
tools=""
if command -v lcov >/dev/null 2>&1 && command -v gcovr >/dev/null 2>&1 &&
   (cd "$d/g" && gcc --coverage -O0 -o prog markers.c && ./prog >/dev/null &&
    lcov -q --rc lcov_branch_coverage=1 -c -d . -o lcov.info && gcovr -r . --json-summary -o gcovr.json) >"$d/g/log" 2>&1; then
  tools=1
else
  echo "skip exclusions tools: lcov or gcovr missing or failed (Debian packages lcov, gcovr)"
fi

python3 - "$d/p" "$d/g" "$tools" <<'PY'
import json, os, re, sys
p, g, tools = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
src = open(os.path.join(p, "markers.c")).read().split("\n")
def check(name, cond, why=""):
    print(("ok exclusions %s" % name) if cond else ("not ok exclusions %s: %s" % (name, why)))

# The markers and the lines each one covers, read independently of pathprof.
markers = []   # (name, kind 'line'|'br', set of line numbers)
for tool in ("LCOV", "GCOVR"):
    for kind, base in (("line", tool + "_EXCL_"), ("br", tool + "_EXCL_BR_")):
        for i, text in enumerate(src, 1):
            if base + "LINE" in text:
                markers.append((base + "LINE", kind, {i}))
            if base + "START" in text:
                stop = next(j for j in range(i, len(src) + 1) if base + "STOP" in src[j - 1])
                markers.append((base + "START/STOP", kind, set(range(i, stop + 1))))
cov = json.load(open(os.path.join(p, "cov.json")))
f = cov["files"][0]
code = {l["line"] for l in f["lines"]}
jline = {l["line"]: l for l in f["lines"]}
brlines = {b["line"] for b in f["branches"]}
jbr, nout = {}, {}
for b in f["branches"]:
    jbr.setdefault(b["line"], []).append(b["excluded"])
    nout[b["line"]] = nout.get(b["line"], 0) + len(b["outcomes"])
lcov = open(os.path.join(p, "cov.lcov")).read()
da = {int(m) for m in re.findall(r"^DA:(\d+),", lcov, re.M)}
brda = {int(m) for m in re.findall(r"^BRDA:(\d+),", lcov, re.M)}
cob = open(os.path.join(p, "cov.cobertura")).read()
cobl = {}
for m in re.finditer(r'<line number="(\d+)" hits="\d+"(?: branch="(true|false)")?', cob):  # false is the default
    cobl[int(m.group(1))] = m.group(2) == "true"
gcov = {}
for l in open(os.path.join(p, "cov.gcov")).read().split("\n"):
    m = re.match(r"\s*([^:]+):\s*(\d+):", l)
    if m and int(m.group(2)) > 0:
        gcov[int(m.group(2))] = m.group(1).strip()
sonar = {int(m.group(1)): "branchesToCover=" in m.group(2)  # line: has branches
         for m in re.finditer(r'<lineToCover lineNumber="(\d+)"([^>]*)/>', open(os.path.join(p, "cov.sonarqube")).read())}
cj = json.load(open(os.path.join(p, "cov.coveralls")))["source_files"][0]
callc = {i + 1: c for i, c in enumerate(cj["coverage"])}
callb = {cj["branches"][i] for i in range(0, len(cj["branches"]), 4)}
html = open(os.path.join(p, "html", "s0.html")).read()
hcls = {int(m.group(1)): m.group(2) for m in re.finditer(r'<tr id="L(\d+)" class="(\w+)"', html)}
for name, kind, lines in markers:
    cl = sorted(lines & code)
    bl = sorted(lines & brlines)
    if kind == "line":
        check("%s json" % name, cl and all(jline[l]["excluded"] for l in cl), "lines %s not all excluded" % cl)
        check("%s lcov" % name, cl and not (set(cl) & da) and not (set(cl) & brda), "DA/BRDA left for %s" % cl)
        check("%s cobertura" % name, cl and not (set(cl) & set(cobl)), "lines %s still in the XML" % cl)
        check("%s gcov" % name, cl and all(gcov.get(l) == "-" for l in cl), "counts shown for %s" % cl)
        check("%s html" % name, cl and all(hcls.get(l) == "excl" for l in cl), "rows %s not marked excluded" % cl)
        check("%s sonarqube" % name, cl and not (set(cl) & set(sonar)), "lines %s still to cover" % cl)
        check("%s coveralls" % name, cl and all(callc.get(l) is None for l in cl) and not (set(cl) & callb),
              "lines %s still counted" % cl)
    else:
        check("%s json" % name, bl and all(all(jbr[l]) for l in bl) and not any(jline[l]["excluded"] for l in bl),
              "branches of %s not excluded (or the lines are)" % bl)
        check("%s lcov" % name, bl and not (set(bl) & brda) and set(bl) <= da, "BRDA left (or DA gone) for %s" % bl)
        check("%s cobertura" % name, bl and all(cobl.get(l) is False for l in bl), "lines %s still carry branches" % bl)
        check("%s gcov" % name, bl and all(gcov.get(l, "-") not in ("-",) for l in bl), "line counts of %s gone" % bl)
        check("%s html" % name, bl and all(hcls.get(l) != "excl" for l in bl), "rows %s marked as excluded lines" % bl)
        check("%s sonarqube" % name, bl and all(l in sonar and not sonar[l] for l in bl), "lines %s gone or with branches" % bl)
        check("%s coveralls" % name, bl and all(callc.get(l) is not None for l in bl) and not (set(bl) & callb),
              "lines %s without counts or with branches" % bl)
dj = json.load(open(os.path.join(p, "diff.json")))
dsum = {k: (dj["summary"][k]["covered"], dj["summary"][k]["total"]) for k in ("lines", "branches", "paths")}
psum = {k: (int(cov["summary"][k]["covered"]), int(cov["summary"][k]["total"])) for k in ("lines", "branches", "paths")}
check("diff totals = plain totals", dsum == psum, "--diff %s, plain %s" % (dsum, psum))
dlcov = open(os.path.join(p, "diff.lcov")).read()
recs = lambda t: sorted(l for l in t.split("\n") if l.startswith(("DA:", "BRDA:", "LF:", "LH:", "BRF:", "BRH:")))
check("diff lcov = plain lcov", recs(dlcov) == recs(lcov), "--diff %s, plain %s" % (recs(dlcov), recs(lcov)))
# one lcov writer: with every line changed the --diff tracefile is the plain one, byte for byte
check("diff lcov file = plain lcov file", dlcov == lcov, "--diff and plain tracefiles differ")
dl = {l["line"] for f2 in dj["files"] for l in f2["lines"]}
check("diff json lists no excluded line", not (dl & {l for l in code if jline[l]["excluded"]}), sorted(dl))
# the totals, counted apart in text, gcov, html and json
s = cov["summary"]
nl = len({l for n, k, ls in markers if k == "line" for l in ls} & code)
nb = sum(nout[l] for l in {l for n, k, ls in markers for l in ls} & brlines)
check("json summary", s["excluded"]["lines"] == nl and s["excluded"]["branches"] == nb,
      "excluded %s, want %d lines and %d branches" % (s["excluded"], nl, nb))
txt = open(os.path.join(p, "cov.text")).read()
check("text summary", re.search(r"excluded: %d lines, \d+ functions, %d branches" % (nl, nb), txt) is not None,
      "no line 'excluded: %d lines ... %d branches'" % (nl, nb))
check("gcov header", "Excluded:%d lines, %d branches" % (nl, nb) in open(os.path.join(p, "cov.gcov")).read(),
      "no Excluded: header")
check("html summary", "%d lines," % nl in open(os.path.join(p, "html", "index.html")).read(), "no excluded cell")
check("paths counted apart", int(s["excluded"]["paths"]) > 0, "no excluded paths")
md = open(os.path.join(p, "cov.markdown")).read()
check("markdown totals and excluded", ("(%d/%d)" % (s["lines"]["covered"], s["lines"]["total"])) in md and
      ("Excluded by markers: %d lines, %d branches, %s paths." % (nl, nb, s["excluded"]["paths"])) in md, md[:400])
if tools:
    info = open(os.path.join(g, "lcov.info")).read()
    gda = {int(m) for m in re.findall(r"^DA:(\d+),", info, re.M)}
    gbr = {int(m) for m in re.findall(r"^BRDA:(\d+),", info, re.M)}
    lcov_lines = {l for n, k, ls in markers if n.startswith("LCOV") and k == "line" for l in ls}
    lcov_br = {l for n, k, ls in markers if n.startswith("LCOV") for l in ls}
    gcovr_only = {l for n, k, ls in markers if n.startswith("GCOVR") for l in ls}
    check("lcov geninfo agrees on LCOV_ lines", (gda - gcovr_only) == (da - gcovr_only) and not (gda & lcov_lines),
          "geninfo %s, pathprof %s" % (sorted(gda - gcovr_only), sorted(da - gcovr_only)))
    check("lcov geninfo agrees on LCOV_ branches", (gbr - gcovr_only) == (brda - gcovr_only) and not (gbr & lcov_br),
          "geninfo %s, pathprof %s" % (sorted(gbr - gcovr_only), sorted(brda - gcovr_only)))
    gs = json.load(open(os.path.join(g, "gcovr.json")))
    for k, ours in (("line", s["lines"]), ("branch", s["branches"]), ("function", s["functions"])):
        check("totals %s = gcovr" % k, (ours["covered"], ours["total"]) == (gs[k + "_covered"], gs[k + "_total"]),
              "pathprof %d/%d, gcovr %d/%d" % (ours["covered"], ours["total"], gs[k + "_covered"], gs[k + "_total"]))
PY

# A function whose entry block is excluded (LCOV_EXCL_LINE on its only statement before a loop):
# only the paths that run the entry leave the totals, not those starting at the loop head, so
# path coverage stays within 100% (it was 3 covered of 1).
mkdir -p "$d/entry" && cd "$d/entry" || exit 1
cat >spin.c <<'SRC'
#include <stdio.h>

static int spin(int n)
{
  int s = n; /* LCOV_EXCL_LINE */
  while (n-- > 0)
    s += n;
  return s;
}

int main(void)
{
  printf("%d\n", spin(3));
  return 0;
}
SRC
if "$top/bin/pathcc" gcc -O0 -o spin spin.c >build.log 2>&1 && ./spin >/dev/null && "$top/bin/pathprof" coverage --format json -o cov.json 2>err.log; then
  python3 - cov.json <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["summary"]["paths"]
fn = {f["name"]: f for x in j["files"] for f in x["functions"]}["spin"]
# spin: 4 paths, 2 of them run the entry (one executed); those 2 go, the 2 from the loop head ran
ok = int(s["covered"]) <= int(s["total"]) and (int(s["covered"]), int(s["total"])) == (3, 3) and \
     (fn["excluded"]["paths"], fn["excluded"]["paths_executed"]) == (2, 1)
print("ok exclusions entry excluded paths within 100%" if ok else
      "not ok exclusions entry excluded paths within 100%%: summary %s, spin excluded %s" % (s, fn["excluded"]))
PY
else echo "not ok exclusions entry excluded: $(head -1 build.log) $(head -1 err.log)"; fi
