#!/bin/sh
# GCC's C torture tests (gcc/testsuite/gcc.c-torture/execute/*.c from Debian's gcc-12-source), plain and
# through pathcc: every test that builds and passes with plain `gcc -O1 -w` (plus its simple dg-options)
# must build and pass instrumented too.
#
# usage: sh regress/torture.sh [--full]      (regress/e2e/torture.sh runs the fixed subset for `make check`)
#   default     every TORTURE_EVERY-th test (default 5) of the sorted list: 319 tests
#   --full      all of them (`make check-torture`, `make check-full`)
# environment:
#   TORTURE_TESTS="pr1234 20000112-1"  run just these tests
#   TORTURE_DECISIONS="statements conditions"   the decision modes to build with (both by default);
#                      conditions mode reports as torture-cond / torture-cond-oracle
#   TORTURE_ORACLE=0   skip the exactness check: by default each test whose instrumented build runs
#                      right is also built with pathcc --trace and its path counts are checked against
#                      regress/oracle.py (as regress/e2e/exact.sh does): "ok torture-oracle NAME"
#   TORTURE_JOBS=N     parallel jobs (default 2)
#   TORTURE_WORK=DIR   work directory (default regress/out/torture; the sources are unpacked into
#                      DIR/src once and reused, each run works in DIR/run.PID, DIR/last is the latest)
#   SUITE_CC=clang     the compiler for the plain and the instrumented builds (default gcc); any other
#                      than gcc reports as torture-CC (torture-clang, torture-clang-cond, ...), and a
#                      line of regress/known-failures for torture also covers torture-CC
#
# Output: "ok torture NAME", "not ok torture NAME: why", "skip torture NAME: known ..." for the tests
# listed in regress/known-failures that still fail the way it says (the same for "torture-oracle NAME"),
# comment lines for tests skipped because they cannot run here (with the reason), and summary comments
#   # torture: N pass, N fail, N fell back, N of M functions uninstrumented (P%) (reasons: ...); N skipped (...)
#   # torture-oracle: N exact, N differ, N not checked (...)
# A test "fell back" when pathcc warned that it left functions, or the whole unit, uninstrumented;
# that is reported as not ok (unless known), since the point is to profile every function.
top=$(cd "$(dirname "$0")/.." && pwd)
self="$top/regress/torture.sh"
cc=${SUITE_CC:-gcc}
tag=torture$([ "$cc" = gcc ] || echo "-$(basename "$cc")")

# ---- one test (run by xargs in parallel): writes $work/t/NAME/result and, with the oracle, .../oracle ----
if [ "${1:-}" = "--one" ]; then
  work=$2 name=$3
  src="$work/src/$name.c" d="$work/t/$name" tool="$work/tool"
  rm -rf "$d" && mkdir -p "$d" || exit 1
  flags=$(awk -F'\t' -v n="$name" '$1 == n { print $3 }' "$work/manifest.tsv")
  first() { tr '\n' ' ' <"$1" | cut -c1-300; }
  cd "$d" || exit 1

  # The plain build and run, once; "result" gets skip <tab> why when the test cannot be used here.
  result() { printf '%s\t%s\n' "$1" "$2" >"$d/result"; }
  plain() {
    # shellcheck disable=SC2086
    if ! timeout 60 "$cc" -O1 -w $flags -o plain "$src" -lm >plain.build 2>&1; then
      result skip "plain $cc -O1 build fails: $(first plain.build)"; return 1
    fi
    timeout 10 ./plain >plain.out 2>plain.err; prc=$?
    if [ "$prc" = 124 ]; then result skip "plain build times out (10s)"; return 1; fi
    if [ "$prc" != 0 ]; then result skip "plain build fails at run time (status $prc)"; return 1; fi
    # Output is compared only when it is the same from one plain run to the next (some tests print addresses).
    timeout 10 ./plain >plain2.out 2>/dev/null
    return 0
  }

  # The instrumented build and run in decision mode $m, in $d/$m; "$m/result" gets pass|fail|fellback <tab> why.
  mresult() { printf '%s\t%s\n' "$1" "$2" >"$d/$m/result"; }
  behaviour() {
    mkdir -p "$d/$m/inst" && cd "$d/$m/inst" || exit 1
    # shellcheck disable=SC2086
    timeout 120 "$tool/bin/pathcc" --decisions="$m" "$cc" -O1 -w $flags -o prog "$src" -lm >../pathcc.out 2>../pathcc.err; brc=$?
    cd .. || exit 1
    if [ "$brc" != 0 ]; then mresult fail "instrumented build fails (status $brc): $(first pathcc.err)"; return; fi
    # Fallback: a pathcc warning line. Functions left out are listed in the tables' "skipped" arrays;
    # a unit compiled from the untouched source has no tables, so its reason comes from the warning.
    # functions.txt gets the number of functions instrumented, for the share left out.
    grep -E 'warning: .*(uninstrumented|without instrumentation)' pathcc.err >fallback.txt
    python3 "$top/regress/suite.py" uninstrumented inst fallback.txt functions.txt >uninstrumented.tsv
    timeout 20 env PATHPROF_FILE="$d/$m/prof.out" inst/prog >prog.out 2>prog.err; irc=$?
    if [ "$irc" != "$prc" ]; then
      if [ "$irc" = 124 ]; then mresult fail "instrumented program times out (20s; plain takes under 10s)"; return; fi
      mresult fail "instrumented program exits with status $irc (plain: 0)$( [ -s prog.err ] && printf ': %s' "$(first prog.err)")"
      return
    fi
    if cmp -s ../plain.out ../plain2.out && ! cmp -s ../plain.out prog.out; then
      mresult fail "instrumented program prints something else (diff $d/plain.out $d/$m/prog.out)"; return
    fi
    if [ -s fallback.txt ]; then mresult fellback "$(first fallback.txt)"; return; fi
    if [ ! -s "$d/$m/prof.out" ]; then mresult fail "instrumented program wrote no profile"; return; fi
    mresult pass ""
  }

  # The --trace build's path counts against regress/oracle.py; "$m/oracle" gets: ok|fail|skip <tab> why.
  oracle() { printf '%s\t%s\n' "$1" "$2" >"$d/$m/oracle"; }
  exactness() {
    mkdir -p "$d/$m/trace" && cd "$d/$m/trace" || exit 1
    # shellcheck disable=SC2086
    if ! timeout 120 "$tool/bin/pathcc" --trace --decisions="$m" "$cc" -O1 -w $flags -o prog "$src" -lm >pathcc.out 2>pathcc.err; then
      oracle fail "pathcc --trace build fails: $(first pathcc.err)"; return
    fi
    if ! ls ./*.pp.json >/dev/null 2>&1; then oracle skip "no tables (unit not instrumented)"; return; fi
    # A trace over 256 MB is not worth replaying: the run is killed (SIGXFSZ) and the oracle skipped.
    (ulimit -f 524288; PATHPROF_FILE="$PWD/prof.out" PATHPROF_TRACE="$PWD/trace.txt" timeout 60 ./prog >prog.out 2>prog.err); trc=$?
    if [ "$trc" = 153 ] || [ "$trc" = 124 ]; then rm -f trace.txt; oracle skip "trace too large (256 MB) or too slow (60s)"; return; fi
    if [ "$trc" != 0 ] || { cmp -s "$d/plain.out" "$d/plain2.out" && ! cmp -s prog.out "$d/plain.out"; }; then
      oracle fail "the --trace build behaves differently from plain (status $trc)"; return
    fi
    if [ ! -s prof.out ]; then
      if [ ! -s trace.txt ]; then oracle skip "no instrumented function ran"; return; fi
      oracle fail "no profile written, but the trace has $(wc -l <trace.txt) events"; return
    fi
    if ! "$tool/bin/pathprof" dump --decode prof.out >decoded.txt 2>decoded.err; then
      oracle fail "pathprof dump --decode fails: $(first decoded.err)"; return
    fi
    python3 "$top/regress/oracle.py" --name "$name" --trace trace.txt --decoded decoded.txt ./*.pp.json >oracle.txt 2>&1
    rm -f trace.txt
    if grep -q '^ok oracle' oracle.txt; then oracle ok ""; return; fi
    oracle fail "$(grep '^not ok' oracle.txt | sed 's/^not ok oracle [^:]*: //' | cut -c1-400)"
  }

  if plain; then
    for m in ${TORTURE_DECISIONS:-statements conditions}; do
      behaviour
      case "${TORTURE_ORACLE:-1}:$(cut -f1 "$d/$m/result")" in
        1:pass|1:fellback) exactness ;;
      esac
      rm -f "$d/$m/inst/prog" "$d/$m/trace/prog"
    done
  fi
  rm -f "$d/plain"
  exit 0
fi

# ---- driver ----
full=0
[ "${1:-}" = "--full" ] && full=1
base=${TORTURE_WORK:-$top/regress/out/torture}
if [ ! -x "$top/bin/pathcc" ] || [ ! -x "$top/bin/pathprof" ]; then
  echo "not ok $tag: bin/pathcc or bin/pathprof missing (run make)"
  exit 0
fi
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "skip $tag: SUITE_CC=$cc is not installed"
  exit 0
fi
tarball=$(ls /usr/src/gcc-12/gcc-12*.tar.* 2>/dev/null | grep -v gm2 | head -1)
if [ -z "$tarball" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "# installing gcc-12-source: apt-get update && apt-get install -y gcc-12-source"
    { apt-get update && apt-get install -y gcc-12-source; } >"$top/regress/out/torture-apt.log" 2>&1
    tarball=$(ls /usr/src/gcc-12/gcc-12*.tar.* 2>/dev/null | grep -v gm2 | head -1)
  else
    echo "# the torture tests need Debian's gcc-12-source; as root run: apt-get update && apt-get install -y gcc-12-source"
  fi
fi
if [ -z "$tarball" ]; then
  echo "skip torture: gcc-12-source is not installed (/usr/src/gcc-12/gcc-12*.tar.* missing)"
  exit 0
fi
# The sources are unpacked once into $base/src and shared; each run works in its own $base/run.PID
# (so runs started at the same time from two shells do not clobber each other), $base/last is the
# latest. Run directories of processes that are gone are removed.
mkdir -p "$base" || exit 1
for r in "$base"/run.*; do
  [ -d "$r" ] && ! kill -0 "${r##*.}" 2>/dev/null && rm -rf "$r"
done
stamp="$base/src/.from"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$tarball" ]; then
  u="$base/unpack.$$"
  rm -rf "$u" && mkdir -p "$u" || exit 1
  if ! tar -C "$u" -xf "$tarball" --wildcards '*/gcc/testsuite/gcc.c-torture/execute/*'; then
    rm -rf "$u"
    echo "not ok torture: cannot unpack the torture tests from $tarball"
    exit 0
  fi
  # (sh does not glob a redirection target: name the unpacked directory first)
  set -- "$u"/*/gcc/testsuite/gcc.c-torture/execute
  echo "$tarball" >"$1/.from"
  rm -rf "$base/src"
  mv -T "$1" "$base/src" 2>/dev/null   # another run may have won
  rm -rf "$u"
fi
work="$base/run.$$"
rm -rf "$work" && mkdir -p "$work/tool/bin" "$work/tool/lib" && ln -s "$base/src" "$work/src" || exit 1
# A private copy of the tools, so a rebuild in the tree during the run cannot change them under us.
if ! cp "$top/bin/pathcc" "$top/bin/pathprof" "$work/tool/bin/" || ! cp "$top/lib/libpathprof.a" "$work/tool/lib/"; then
  echo "not ok torture: cannot copy bin/pathcc, bin/pathprof and lib/libpathprof.a to $work/tool"
  exit 0
fi

# The manifest: NAME <tab> run|skip <tab> extra flags | reason, from each test's dg- directives.
python3 - "$work/src" >"$work/manifest.tsv" <<'PY'
import fnmatch, os, re, sys
srcdir = sys.argv[1]
TRIPLET = "x86_64-pc-linux-gnu"
# Effective targets this host (x86_64 Debian, gcc 12, glibc) satisfies; any other is "can't satisfy".
HAVE = set("""int32plus label_values trampolines alloca indirect_jumps untyped_assembly return_address
  fileio unwrapped stdint_types mmap double64plus c99_runtime longlong64 int32 int128 dfp lp64 fpic
  signal ptr32plus size32plus nonlocal_goto large_double sync_int_long sync_char_short""".split())
NOT = set("""ia32 x32 freestanding newlib_nano_io avr_tiny ilp32 int16 vxworks_kernel""".split())

def tcl_words(s, i=0, close=None):
    """Parses Tcl-ish words from s[i:]: {...} groups become lists, "..." strings, else barewords."""
    words = []
    n = len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
        elif c == "}":
            return words, i + 1
        elif c == "{":
            sub, i = tcl_words(s, i + 1, "}")
            words.append(sub)
        elif c == '"':
            j = s.index('"', i + 1)
            words.append(s[i + 1:j])
            i = j + 1
        else:
            j = i
            while j < n and not s[j].isspace() and s[j] not in "{}":
                j += 1
            words.append(s[i:j])
            i = j
    return words, i

def directives(text):
    """[(name, [args])] for every { dg-... } in the file."""
    out = []
    for m in re.finditer(r"\{\s*(dg-[a-z-]+)", text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        args, _ = tcl_words(text[m.end():j - 1])
        out.append((m.group(1), args))
    return out

class Unknown(Exception):
    pass

def flat(x):
    return x if isinstance(x, str) else " ".join(flat(y) for y in x)

def evaluate(sel):
    """A dg target selector: 'target X', 'X' (list of triplet globs / effective targets, ! && ||)."""
    if isinstance(sel, str):
        sel = [sel]
    if sel and sel[0] == "target":
        sel = sel[1:]
    # Tokens: a word, ! , &&, ||, or a nested list.
    def atom(t):
        if isinstance(t, list):
            return expr(list(t))
        if t == "*-*-*" or "-" in t and "*" in t or t.count("-") >= 2:
            return fnmatch.fnmatch(TRIPLET, t) or fnmatch.fnmatch("x86_64-unknown-linux-gnu", t)
        if t in HAVE:
            return True
        if t in NOT:
            return False
        raise Unknown(t)
    def expr(ts):
        if not ts:
            return False
        # plain list of alternatives: any true
        if "&&" not in ts and "||" not in ts and "!" not in ts:
            return any(atom(t) for t in ts)
        val, op, neg = None, None, False
        for t in ts:
            if t == "!":
                neg = not neg
                continue
            if t in ("&&", "||"):
                op = t
                continue
            v = atom(t) != neg
            neg = False
            val = v if val is None else (val and v if op == "&&" else val or v)
        return bool(val)
    return expr(list(sel))

def options(args):
    """Flags of dg-options / dg-additional-options ARGS, or None if its selector is not ours."""
    if not args:
        return ""
    if len(args) > 1 and not evaluate(args[1]):
        return None
    return flat(args[0])

OUR = ["-O1", "-w"]

def opt_match(patterns):
    pats = patterns if isinstance(patterns, list) else [patterns]
    pats = [flat(p) for p in pats]
    pats = [w for p in pats for w in (p.split() or [""])]
    return any(p == "*" or p in OUR for p in pats if p)

def plan(name, text):
    flags = []
    for d, args in directives(text):
        try:
            if d == "dg-do":
                if args and args[0] != "run":
                    return "skip", "dg-do %s" % args[0]
                if len(args) > 1 and not evaluate(args[1]):
                    return "skip", "dg-do run only on other targets"
            elif d in ("dg-options", "dg-additional-options"):
                o = options(args)
                if o:
                    flags.append(o)
            elif d == "dg-add-options":
                if args and args[0] not in ("stack_size", "ieee"):
                    return "skip", "dg-add-options %s" % flat(args)
            elif d == "dg-require-effective-target":
                if len(args) > 1 and not evaluate(args[1]):
                    continue
                if args and args[0] not in HAVE:
                    return "skip", "needs effective target %s" % args[0]
            elif d in ("dg-skip-if", "dg-xfail-if", "dg-xfail-run-if"):
                sel = args[1] if len(args) > 1 else "*-*-*"
                inc = args[2] if len(args) > 2 else "*"
                exc = args[3] if len(args) > 3 else ""
                if evaluate(sel) and opt_match(inc) and not opt_match(exc):
                    return "skip", "%s %r on this target" % (d, args[0] if args else "")
            elif d in ("dg-additional-sources", "dg-additional-files"):
                return "skip", "needs extra sources (%s)" % d
            elif d in ("dg-require-stack-size", "dg-require-alias", "dg-require-weak", "dg-prune-output",
                       "dg-final", "dg-warning", "dg-error", "dg-message", "dg-bogus", "dg-output"):
                pass  # satisfied here (8 MB stack, ELF) or irrelevant to a run test
            else:
                return "skip", "unhandled directive %s" % d
        except Unknown as e:
            return "skip", "%s with selector %s this script cannot evaluate" % (d, e)
    return "run", " ".join(flags)

for f in sorted(os.listdir(srcdir)):
    if not f.endswith(".c"):
        continue
    name = f[:-2]
    text = open(os.path.join(srcdir, f), encoding="utf-8", errors="replace").read()
    status, what = plan(name, text)
    print("%s\t%s\t%s" % (name, status, what.replace("\t", " ")))
PY
if [ ! -s "$work/manifest.tsv" ]; then
  echo "not ok torture: could not read the test directives"
  exit 0
fi

# The selection: all, the named ones, or every Nth of the sorted list.
every=${TORTURE_EVERY:-5}
if [ -n "${TORTURE_TESTS:-}" ]; then
  for t in $TORTURE_TESTS; do echo "$t"; done
elif [ "$full" = 1 ]; then
  cut -f1 "$work/manifest.tsv"
else
  cut -f1 "$work/manifest.tsv" | awk -v n="$every" 'NR % n == 1'
fi >"$work/selected.txt"
awk -F'\t' 'NR == FNR { sel[$1] = 1; next } ($1 in sel) && $2 == "run" { print $1 }' \
  "$work/selected.txt" "$work/manifest.tsv" >"$work/torun.txt"
mkdir -p "$work/t"
xargs -P "${TORTURE_JOBS:-2}" -n 1 sh "$self" --one "$work" <"$work/torun.txt"

# Report, in name order, with the known failures (regress/known-failures) marked as such.
python3 - "$top/regress" "$work" "$tag" ${TORTURE_DECISIONS:-statements conditions} <<'PY'
import collections, os, sys
sys.path.insert(0, sys.argv[1])
import suite
work, base, modes = sys.argv[2], sys.argv[3], sys.argv[4:]
known = suite.Known(os.path.join(sys.argv[1], "known-failures"))
selected = set(open(os.path.join(work, "selected.txt")).read().split())
skipped, usable = collections.Counter(), []
names = set(line.split("\t")[0] for line in open(os.path.join(work, "manifest.tsv")))
for name in sorted(selected - names):
    print("not ok %s %s: no such test in %s/src" % (base, name, work))
for line in open(os.path.join(work, "manifest.tsv")):
    name, status, what = (line.rstrip("\n").split("\t") + [""])[:3]
    if name not in selected:
        continue
    res = suite.read(os.path.join(work, "t", name, "result"))
    if status == "skip" or (res and res[0] == "skip"):
        why = what if status == "skip" else res[1]
        skipped[why if status == "skip" else why.split(":")[0]] += 1
        print("# skipped %s %s: %s" % (base, name, why))
    else:
        usable.append(name)
for m in modes:
    t = suite.Mode(known, suite.suite_name(base, m))
    for name in usable:
        t.add(name, os.path.join(work, "t", name, m))
    print("# %s: %s; %d skipped (%s)" % (t.suite, t.summary(), sum(skipped.values()), suite.tally(skipped)))
    if t.ocounts:
        print("# %s-oracle: %s" % (t.suite, t.oracle_summary()))
PY
ln -sfn "run.$$" "$base/last"
