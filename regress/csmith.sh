#!/bin/sh
# csmith random programs (Debian packages csmith and libcsmith-dev), fixed seeds: the plain build and the
# builds through pathcc (with and without --trace) print the same checksum and exit status, and the
# profile of the --trace build has exactly the path counts regress/oracle.py cuts from its block trace.
#
# usage: sh regress/csmith.sh [--full]     (regress/e2e/csmith.sh runs the default for `make check`)
#   default   the first 50 usable seeds counting from 1 (`make check`)
#   --full    the first 500 usable seeds (`make check-csmith`, `make check-full`)
# A seed is usable when its program builds plainly and finishes within CSMITH_TIMEOUT seconds
# (default 2): csmith programs may loop for ages; those seeds are skipped, and counted.
# environment:
#   CSMITH_SEEDS="7 11"  just these seeds (skipped ones still reported)
#   CSMITH_COUNT=N       how many usable seeds to test (default 50, 500 with --full)
#   CSMITH_OPTS="..."    csmith options (default: small programs, see below)
#   CSMITH_JOBS=N        parallel jobs (default 2)
#   CSMITH_WORK=DIR      work directory (default regress/out/csmith; each run in DIR/run.PID, DIR/last the latest)
# Compiler flags alternate with the seed: odd seeds -O0, even seeds -O2 (CSMITH_CFLAGS overrides).
#   SUITE_CC=clang       the compiler for every build (default gcc); any other than gcc reports as
#                        csmith-CC (csmith-clang, csmith-clang-cond, ...), and a line of
#                        regress/known-failures for csmith also covers csmith-CC
#
# Each seed is built in both decision modes (CSMITH_DECISIONS="statements conditions"); conditions
# mode reports as csmith-cond / csmith-cond-oracle.
# Output: "ok csmith SEED" / "not ok csmith SEED: why" (behaviour, and any pathcc warning),
# "ok csmith-oracle SEED" / "not ok csmith-oracle SEED: why" (exact counts), "skip ..." for lines of
# regress/known-failures that still fail as listed, and the summary comment
#   # csmith: N pass, N fail, N fell back, N of M functions uninstrumented (P%) (reasons: ...); oracle: N exact, N differ, ...
top=$(cd "$(dirname "$0")/.." && pwd)
self="$top/regress/csmith.sh"
cc=${SUITE_CC:-gcc}
tag=csmith$([ "$cc" = gcc ] || echo "-$(basename "$cc")")
OPTS=${CSMITH_OPTS:---quiet --max-funcs 4 --max-block-depth 3 --max-expr-complexity 5}
limit=${CSMITH_TIMEOUT:-2}

cflags_for() {
  if [ -n "${CSMITH_CFLAGS:-}" ]; then echo "$CSMITH_CFLAGS"
  elif [ $(($1 % 2)) = 1 ]; then echo "-O0 -w"
  else echo "-O2 -w"; fi
}
first() { tr '\n' ' ' <"$1" | cut -c1-300; }

# ---- phase 1, one seed: generate, build plainly, run; writes $work/s/SEED/usable (ok|skip <tab> why) ----
if [ "${1:-}" = "--plain" ]; then
  work=$2 seed=$3 inc=$(cat "$2/include")
  d="$work/s/$seed"
  rm -rf "$d" && mkdir -p "$d" && cd "$d" || exit 1
  usable() { printf '%s\t%s\n' "$1" "$2" >usable; exit 0; }
  # shellcheck disable=SC2086
  if ! timeout 60 csmith --seed "$seed" $OPTS -o prog.c >csmith.log 2>&1; then usable skip "csmith fails: $(first csmith.log)"; fi
  # shellcheck disable=SC2086
  if ! timeout 60 "$cc" $(cflags_for "$seed") -I"$inc" -o plain prog.c >plain.build 2>&1; then
    usable skip "plain build fails: $(first plain.build)"
  fi
  timeout "$limit" ./plain >plain.out 2>plain.err; echo $? >plain.rc
  case $(cat plain.rc) in
    124) usable skip "plain program runs over ${limit}s" ;;
    0) usable ok "" ;;
    *) usable skip "plain program exits with status $(cat plain.rc)" ;;
  esac
fi

# ---- phase 2, one usable seed: instrumented builds; writes .../result and .../oracle ----
if [ "${1:-}" = "--check" ]; then
  work=$2 seed=$3 inc=$(cat "$2/include") tool="$2/tool"
  d="$work/s/$seed"
  flags=$(cflags_for "$seed")
  result() { printf '%s\t%s\n' "$1" "$2" >"$d/$m/result"; }
  oracle() { printf '%s\t%s\n' "$1" "$2" >"$d/$m/oracle"; }
  # The builds in decision mode $m, in $d/$m: inst (plain pathcc) and trace (pathcc --trace).
  check() {
    rm -rf "$d/$m" && mkdir -p "$d/$m/inst" "$d/$m/trace" && cd "$d/$m" || exit 1
    # shellcheck disable=SC2086
    (cd inst && timeout 300 "$tool/bin/pathcc" --decisions="$m" "$cc" $flags -I"$inc" -o prog "$d/prog.c" >pathcc.out 2>pathcc.err); brc=$?
    if [ "$brc" != 0 ]; then result fail "pathcc build fails (status $brc): $(first inst/pathcc.err)"; return; fi
    # shellcheck disable=SC2086
    (cd trace && timeout 300 "$tool/bin/pathcc" --trace --decisions="$m" "$cc" $flags -I"$inc" -o prog "$d/prog.c" >pathcc.out 2>pathcc.err); trc=$?
    if [ "$trc" != 0 ]; then result fail "pathcc --trace build fails (status $trc): $(first trace/pathcc.err)"; return; fi
    grep -hE 'warning: .*(uninstrumented|without instrumentation)' inst/pathcc.err >fallback.txt
    python3 "$top/regress/suite.py" uninstrumented inst fallback.txt functions.txt >uninstrumented.tsv
    (cd inst && PATHPROF_FILE="$d/$m/inst/prof.out" timeout 60 ./prog >prog.out 2>prog.err; echo $? >prog.rc)
    # A trace over 1 GB is not replayed: the run is killed (SIGXFSZ, status 153) and the oracle skipped.
    (cd trace && ulimit -f 2097152 && PATHPROF_FILE="$d/$m/trace/prof.out" PATHPROF_TRACE="$d/$m/trace/trace.txt" \
       timeout 120 ./prog >prog.out 2>prog.err; echo $? >prog.rc)
    if ! cmp -s "$d/plain.out" inst/prog.out || ! cmp -s "$d/plain.rc" inst/prog.rc; then
      result fail "instrumented program differs: status $(cat inst/prog.rc) (plain $(cat "$d/plain.rc")), output '$(first inst/prog.out)' (plain '$(first "$d/plain.out")')"
    elif [ "$(cat trace/prog.rc)" != 153 ] && [ "$(cat trace/prog.rc)" != 124 ] &&
         { ! cmp -s "$d/plain.out" trace/prog.out || ! cmp -s "$d/plain.rc" trace/prog.rc; }; then
      result fail "--trace program differs: status $(cat trace/prog.rc) (plain $(cat "$d/plain.rc")), output '$(first trace/prog.out)' (plain '$(first "$d/plain.out")')"
    elif [ -s fallback.txt ]; then
      result fellback "$(first fallback.txt)"
    else
      result pass ""
    fi
    case $(cat trace/prog.rc) in
      153|124) rm -f trace/trace.txt; oracle skip "trace over 1 GB or run over 120s"; return ;;
    esac
    if ! ls trace/*.pp.json >/dev/null 2>&1; then oracle skip "no tables (unit not instrumented)"; return; fi
    if [ ! -s trace/prof.out ]; then
      if [ ! -s trace/trace.txt ]; then oracle skip "no instrumented function ran"; return; fi
      oracle fail "no profile written, but the trace has $(wc -l <trace/trace.txt) events"; return
    fi
    if ! "$tool/bin/pathprof" dump --decode trace/prof.out >trace/decoded.txt 2>trace/decoded.err; then
      oracle fail "pathprof dump --decode fails: $(first trace/decoded.err)"; return
    fi
    python3 "$top/regress/oracle.py" --name "$seed" --trace trace/trace.txt --decoded trace/decoded.txt trace/*.pp.json \
      >oracle.txt 2>&1
    rm -f trace/trace.txt
    if grep -q '^ok oracle' oracle.txt; then oracle ok ""; return; fi
    oracle fail "$(grep '^not ok' oracle.txt | sed 's/^not ok oracle [^:]*: //' | cut -c1-400)"
  }
  for m in ${CSMITH_DECISIONS:-statements conditions}; do
    check
    rm -f "$d/$m/inst/prog" "$d/$m/trace/prog"
  done
  rm -f "$d/plain"
  exit 0
fi

# ---- driver ----
full=0
[ "${1:-}" = "--full" ] && full=1
base=${CSMITH_WORK:-$top/regress/out/csmith}
count=${CSMITH_COUNT:-$( [ "$full" = 1 ] && echo 500 || echo 50 )}
jobs=${CSMITH_JOBS:-2}
if [ ! -x "$top/bin/pathcc" ] || [ ! -x "$top/bin/pathprof" ]; then
  echo "not ok $tag: bin/pathcc or bin/pathprof missing (run make)"
  exit 0
fi
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "skip $tag: SUITE_CC=$cc is not installed"
  exit 0
fi
find_include() {
  for h in /usr/include/csmith/csmith.h /usr/include/csmith-*/csmith.h /usr/local/include/csmith/csmith.h \
           /usr/local/include/csmith-*/csmith.h; do
    [ -f "$h" ] && { dirname "$h"; return; }
  done
}
inc=$(find_include)
if ! command -v csmith >/dev/null 2>&1 || [ -z "$inc" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "# installing csmith: apt-get update && apt-get install -y csmith libcsmith-dev"
    mkdir -p "$top/regress/out"
    { apt-get update && apt-get install -y csmith libcsmith-dev; } >"$top/regress/out/csmith-apt.log" 2>&1
    inc=$(find_include)
  else
    echo "# the csmith tests need Debian's csmith; as root run: apt-get update && apt-get install -y csmith libcsmith-dev"
  fi
fi
if ! command -v csmith >/dev/null 2>&1 || [ -z "$inc" ]; then
  echo "skip csmith: csmith or its csmith.h is not installed"
  exit 0
fi
# Each run works in its own $base/run.PID (runs started together from two shells do not clobber each
# other); $base/last is the latest. Run directories of processes that are gone are removed.
mkdir -p "$base" || exit 1
for r in "$base"/run.*; do
  [ -d "$r" ] && ! kill -0 "${r##*.}" 2>/dev/null && rm -rf "$r"
done
work="$base/run.$$"
rm -rf "$work" && mkdir -p "$work/s" "$work/tool/bin" "$work/tool/lib" || exit 1
echo "$inc" >"$work/include"
# A private copy of the tools, so a rebuild in the tree during the run cannot change them under us.
if ! cp "$top/bin/pathcc" "$top/bin/pathprof" "$work/tool/bin/" || ! cp "$top/lib/libpathprof.a" "$work/tool/lib/"; then
  echo "not ok csmith: cannot copy bin/pathcc, bin/pathprof and lib/libpathprof.a to $work/tool"
  exit 0
fi
echo "# csmith $(csmith --version 2>/dev/null | head -1 | sed 's/^csmith //'), options: $OPTS; include: $inc; compiler: $cc"

# Phase 1: generate and run plainly, a batch of seeds at a time, until there are $count usable ones.
: >"$work/usable.txt"
if [ -n "${CSMITH_SEEDS:-}" ]; then
  for s in $CSMITH_SEEDS; do echo "$s"; done >"$work/batch.txt"
  xargs -P "$jobs" -n 1 sh "$self" --plain "$work" <"$work/batch.txt"
  for s in $(cat "$work/batch.txt"); do
    [ "$(cut -f1 "$work/s/$s/usable" 2>/dev/null)" = ok ] && echo "$s" >>"$work/usable.txt"
  done
  cp "$work/batch.txt" "$work/tried.txt"
else
  next=1; : >"$work/tried.txt"
  while [ "$(wc -l <"$work/usable.txt")" -lt "$count" ] && [ "$next" -le $((count * 4 + 100)) ]; do
    need=$((count - $(wc -l <"$work/usable.txt")))
    n=$((need + need / 4 + jobs))
    seq "$next" $((next + n - 1)) >"$work/batch.txt"
    next=$((next + n))
    xargs -P "$jobs" -n 1 sh "$self" --plain "$work" <"$work/batch.txt"
    for s in $(cat "$work/batch.txt"); do
      [ "$(wc -l <"$work/usable.txt")" -ge "$count" ] && break
      echo "$s" >>"$work/tried.txt"
      [ "$(cut -f1 "$work/s/$s/usable" 2>/dev/null)" = ok ] && echo "$s" >>"$work/usable.txt"
    done
  done
fi

# Phase 2: the instrumented builds of the usable seeds.
xargs -P "$jobs" -n 1 sh "$self" --check "$work" <"$work/usable.txt"

python3 - "$top/regress" "$work" "$tag" ${CSMITH_DECISIONS:-statements conditions} <<'PY'
import collections, os, sys
sys.path.insert(0, sys.argv[1])
import suite
work, base, modes = sys.argv[2], sys.argv[3], sys.argv[4:]
known = suite.Known(os.path.join(sys.argv[1], "known-failures"))
skipped = collections.Counter()
usable = set(open(os.path.join(work, "usable.txt")).read().split())
tried = open(os.path.join(work, "tried.txt")).read().split()
for seed in tried:
    if seed not in usable:
        u = suite.read(os.path.join(work, "s", seed, "usable")) or ("skip", "the plain phase died")
        skipped[u[1].split(":")[0]] += 1
        print("# skipped %s %s: %s" % (base, seed, u[1]))
for m in modes:
    t = suite.Mode(known, suite.suite_name(base, m))
    for seed in tried:
        if seed in usable:
            t.add(seed, os.path.join(work, "s", seed, m))
    print("# %s: %s; %d seeds skipped (%s); oracle: %s"
          % (t.suite, t.summary(), sum(skipped.values()), suite.tally(skipped), t.oracle_summary()))
PY
ln -sfn "run.$$" "$base/last"
