#!/bin/sh
# GCC's own gcov tests (gcc.misc-tests/gcov-*.c from Debian's gcc-12-source): each is built through
# pathcc with its dg-options (coverage flags left out) and run; for every line annotated count(N),
# count(#####) or count(-), pathprof coverage --no-code=gcov (gcov's reading where GCC's lowering
# decides a line's count) must give that count, except the differences listed with reasons in
# regress/e2e/coverage_gcctests_known.txt. At least 98% must match.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=coverage_gcctests
. "$top/regress/private.sh"
src=$(sh "$top/regress/gccsrc.sh" gcc/testsuite/gcc.misc-tests)
if [ -z "$src" ] || ! ls "$src"/gcc/testsuite/gcc.misc-tests/gcov-*.c >/dev/null 2>&1; then
  echo "skip coverage-gcctests: GCC's gcov tests are not available (Debian package gcc-12-source)"
  exit 0
fi
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
python3 - "$top" "$src/gcc/testsuite/gcc.misc-tests" "$E2E_DIR" "$top/regress/e2e/coverage_gcctests_known.txt" <<'PY'
import glob, json, os, re, shutil, subprocess, sys
top, tests, out, known_file = sys.argv[1:5]
known = {}
for line in open(known_file):
    if line.startswith("#") or " => " not in line:
        continue
    where, why = line.split(" => ", 1)
    known[where.strip()] = why.strip()
total = match = listed = xfail = 0
not_instrumented = 0
bad = []
for c in sorted(glob.glob(tests + "/gcov-*.c")):
    name = os.path.basename(c)
    text = open(c, errors="replace").read()
    lines = text.split("\n")
    ann = []
    for i, l in enumerate(lines):
        m = re.search(r"count\(([^)]*)\)", l)
        if not m:
            continue
        if re.search(r"count\([^)]*\)\s*\{\s*xfail", l):  # GCC's own gcov fails these
            xfail += 1
            continue
        ann.append((i + 1, m.group(1)))
    if not ann:
        continue
    m = re.search(r'dg-options "([^"]*)"', text)
    opts = [o for o in (m.group(1).split() if m else [])
            if o not in ("-fprofile-arcs", "-ftest-coverage", "--coverage", "-fprofile-abs-path")]
    d = os.path.join(out, name[:-2])
    os.makedirs(d, exist_ok=True)
    shutil.copy(c, d)
    extra = re.search(r"dg-additional-sources\s+\"?([\w.\- ]+)\"?", text)
    srcs = [name]
    if extra:
        for s in extra.group(1).split():
            if os.path.exists(os.path.join(tests, s)):
                shutil.copy(os.path.join(tests, s), d)
                srcs.append(s)
    b = subprocess.run([top + "/bin/pathcc", "gcc"] + opts + ["-o", "prog"] + srcs + ["-lm"], cwd=d,
                       capture_output=True, text=True)
    instrumented = b.returncode == 0 and "compiled without instrumentation" not in b.stderr
    if b.returncode == 0:
        try:
            subprocess.run(["./prog"], cwd=d, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            pass
    subprocess.run([top + "/bin/pathprof", "coverage", "--no-code=gcov", "--format", "json", "-o", "cov.json", "pathprof.out"], cwd=d,
                   capture_output=True)
    got = {}
    try:
        for f in json.load(open(os.path.join(d, "cov.json")))["files"]:
            if f["file"].endswith(name):
                for l in f["lines"]:
                    got[l["line"]] = l["count"]
    except (OSError, ValueError):
        pass
    for ln, want in ann:
        total += 1
        g = got.get(ln)
        gs = "-" if g is None else "#####" if g == 0 else str(g)
        if not instrumented:
            not_instrumented += 1
        if gs == want:
            match += 1
            continue
        key = "%s:%d" % (name, ln)
        if key in known:
            listed += 1
        else:
            bad.append("%s want %s got %s (%s)" % (key, want, gs, lines[ln - 1].strip()[:50]))
rate = 100.0 * match / total if total else 0
inst = total - not_instrumented
print("# gcov testsuite: %d of %d count() annotations match (%.1f%%); %d listed differences; %d annotations GCC itself "
      "marks xfail were left out; %d annotations are in files pathcc could not instrument" % (match, total, rate, listed,
      xfail, not_instrumented))
if bad:
    print("not ok coverage-gcctests: %d annotations differ and are not in coverage_gcctests_known.txt: %s"
          % (len(bad), "; ".join(bad[:5])))
else:
    print("ok coverage-gcctests differences are all known")
# The rate over what pathcc instrumented: a unit it cannot instrument has no counts at all.
irate = 100.0 * match / inst if inst else 0
if total < 100 or irate < 98.0:
    print("not ok coverage-gcctests-rate: %d of %d annotations in instrumented files match (%.1f%%), want 98%%" % (match, inst, irate))
else:
    print("ok coverage-gcctests-rate %.1f%% (%d of %d annotations in instrumented files; %.1f%% of all)" % (irate, match, inst, rate))
PY
