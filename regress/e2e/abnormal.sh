#!/bin/sh
# Programs that end while functions are still running (regress/abnormal/): exit() from depth 1 and
# 8 of a recursion, die() in another unit, abort() from a failed assert, SIGSEGV in a callee,
# longjmp over three activations, execv from a callee, pthread_exit from a helper, lazy frames (linked at
# an activation's first marked call) exiting at depth 6, a stop at each call of a block split by
# edge mode (splits.c); a fault in a
# function's own code under --frames=all (the default keeps frames only in functions that may
# stop in a call they make). Each is built
# with gcc --coverage -O0 (the crash cases with gcovdump.c, which dumps gcov's counts on the
# signal) and through pathcc -O0 in both --decisions modes and in edge mode (where the default
# --frames=calls solves the stops from counts of the calls' returns instead of frames): pathprof
# coverage's line counts must
# equal `gcov --json-format`'s line by line, with no list of known differences. A --trace build
# then checks the partial paths against the block-trace oracle (regress/oracle.py). Last, a pool of
# partial paths too small for the run.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=abnormal
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
src="$top/regress/abnormal"
if ! command -v gcov >/dev/null 2>&1; then echo "skip abnormal: gcov is not installed"; exit 0; fi
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS PATHPROF_TRACE

# compare NAME GCOV_DIR COVERAGE_JSON SOURCES...: line counts of each source, gcov against pathprof
compare() {
  python3 - "$@" <<'PY'
import glob, json, os, sys
name, gdir, pj = sys.argv[1:4]
srcs = [os.path.basename(s) for s in sys.argv[4:]]
g = {}
for gj in glob.glob(os.path.join(gdir, "*.gcov.json")):
    for f in json.load(open(gj))["files"]:
        b = os.path.basename(f["file"])
        if b in srcs:
            for l in f["lines"]:
                g[(b, l["line_number"])] = g.get((b, l["line_number"]), 0) + l["count"]
o = {}
for f in json.load(open(pj))["files"]:
    b = os.path.basename(f["file"])
    if b in srcs:
        for l in f["lines"]:
            o[(b, l["line"])] = l["count"]
bad = ["%s:%d: gcov %s, pathprof %s" % (k[0], k[1], g.get(k, "-"), o.get(k, "-"))
       for k in sorted(set(g) | set(o)) if g.get(k) != o.get(k)]
if not g:
    print("not ok abnormal %s: gcov gave no line counts" % name)
elif bad:
    print("not ok abnormal %s: %d lines differ from gcov: %s" % (name, len(bad), "; ".join(bad[:5])))
else:
    print("ok abnormal %s (%d lines equal to gcov)" % (name, len(g)))
PY
}

# run_case NAME KIND ARGS SOURCES...: KIND is "crash" for the cases a fatal signal ends, else "-";
# $frames holds pathcc's --frames= option, if any; $oracle "no" skips the block-trace check
frames=""
run_case() {
  name=$1 kind=$2 args=$3; shift 3
  files=""
  for s in "$@"; do files="$files $src/$s"; done
  libs="-lm"
  case "$name" in pthread*) libs="-pthread" ;; esac
  g="$d/$name/gcc"; mkdir -p "$g"
  # shellcheck disable=SC2086
  (cd "$g" && cp $files . &&
   if [ "$kind" = crash ]; then gcc -O0 -c "$src/gcovdump.c" -o gcovdump.o && extra=gcovdump.o; else extra=""; fi &&
   gcc --coverage -O0 -o prog "$@" $extra $libs && { $run ./prog $args >run.out 2>&1; true; } &&
   for gcda in *.gcda; do gcov --json-format -t "$gcda" >"$gcda.gcov.json" 2>>gcov.err || exit 1; done) >"$g/build.log" 2>&1
  if ! ls "$g"/*.gcov.json >/dev/null 2>&1; then
    echo "not ok abnormal $name: gcc --coverage build, run or gcov failed: $(head -3 "$g/build.log" | tr '\n' ' ')"
    return
  fi
  m=0
  for mode in statements conditions edge; do
    # make check: the splits cases in one mode each, in turn (sample.sh); the others in all three
    m=$((m + 1))
    case $name in splits-*) sampled $((${name#splits-} + m)) 3 || continue ;; esac
    p="$d/$name/$mode"; mkdir -p "$p"
    how=--decisions=$mode; [ $mode = edge ] && how=--mode=edge
    # shellcheck disable=SC2086
    if ! (cd "$p" && cp $files . && "$P" $frames $how gcc -O0 -o prog "$@" $libs &&
          { $run ./prog $args >run.out 2>&1; true; } && "$R" coverage --format json -o cov.json pathprof.out) >"$p/build.log" 2>&1; then
      echo "not ok abnormal $name ($mode): pathcc build, run or pathprof coverage failed: $(head -1 "$p/build.log")"
      continue
    fi
    compare "$name ($mode)" "$g" "$p/cov.json" "$@"
    # edge mode's stops come from the calls' return counts (tables "splits"), not from frames
    if [ $mode = edge ] && [ -z "$frames" ] && ! grep -q '"splits"' "$p"/*.pp.json; then
      echo "not ok abnormal $name (edge): no function's stops are solved by splits"
    fi
  done
  [ "$oracle" = no ] && return
  t="$d/$name/trace"; mkdir -p "$t"
  # shellcheck disable=SC2086
  if ! (cd "$t" && cp $files . && "$P" $frames --trace gcc -O0 -o prog "$@" $libs &&
        { PATHPROF_TRACE="$t/trace.txt" $run ./prog $args >run.out 2>&1; true; } &&
        "$R" dump --decode pathprof.out >decoded.txt) >"$t/build.log" 2>&1; then
    echo "not ok abnormal $name (oracle): --trace build, run or dump --decode failed: $(head -1 "$t/build.log")"
    return
  fi
  if ! grep -q '^Q ' "$t/decoded.txt"; then
    echo "not ok abnormal $name (oracle): the profile holds no partial path"
    return
  fi
  python3 "$top/regress/oracle.py" --name "abnormal $name" --trace "$t/trace.txt" --decoded "$t/decoded.txt" "$t"/*.pp.json
}

run_case exit-depth1 - 1 recexit.c
run_case exit-depth8 - 8 recexit.c
run_case die-other-unit - "1 2 -3 4" diemain.c diedie.c
run_case assert-abort crash "" assertfail.c
run_case segv-callee crash "" segvlib.c
frames=--frames=all
run_case segv-own-code crash "" segv.c
frames=""
run_case longjmp-3 - "" longjump.c
run_case execv-callee - "" execfrom.c
run_case pthread-exit - "" threadexit.c
run_case lazy-frames - "-1" lazyframe.c
# the trace logs a function's entry after the body's leading declarations, so the oracle cannot
# see a stop in their initializers (stops 1-3 and 9-10): gcov alone judges these
oracle=no
for n in 1 2 3 4 5 6 7 8 9 10; do run_case "splits-$n" - "$n" splits.c; done
oracle=""
# tcc has no thread-local storage, hence no frames: edge mode's splits count its stops all the same
if command -v tcc >/dev/null 2>&1; then
  p="$d/splits-tcc"; mkdir -p "$p"
  if (cd "$p" && cp "$src/splits.c" . && "$P" --mode=edge tcc -o prog splits.c && { ./prog 5 >run.out 2>&1; true; } &&
      "$R" coverage --format json -o cov.json pathprof.out) >"$p/build.log" 2>&1; then
    compare "splits-5 (tcc, edge)" "$d/splits-5/gcc" "$p/cov.json" splits.c
  else
    echo "not ok abnormal splits-5 (tcc, edge): build, run or coverage failed: $(head -1 "$p/build.log")"
  fi
fi

# Dumps while functions run (firmware checkpoints): the text dumps, imported, plus the exit
# handler's profile count exactly what one profile of the same rounds without dumps counts.
c="$d/checkpoints"; mkdir -p "$c"
if (cd "$c" && cp "$src/checkpoints.c" . && "$P" gcc -O0 -I"$top/include" -o prog checkpoints.c &&
    PATHPROF_FILE=exit.prof ./prog >dumps.log 2>/dev/null && PATHPROF_FILE=whole.prof ./prog nodump >/dev/null 2>&1 &&
    "$R" import -o sum.prof dumps.log exit.prof && "$R" dump --decode sum.prof | sort >sum.dec &&
    "$R" dump --decode whole.prof | sort >whole.dec) >"$c/log" 2>&1; then
  if (cd "$c" && "$R" dump --decode exit.prof 2>/dev/null | grep -q '^Q .* -1 '); then
    echo "ok abnormal checkpoints: the exit profile takes back the prefixes the last dump held"
  else
    echo "not ok abnormal checkpoints: no partial path taken back in the exit profile"
  fi
  if cmp -s "$c/sum.dec" "$c/whole.dec"; then echo "ok abnormal checkpoints add up"
  else echo "not ok abnormal checkpoints add up: $(diff "$c/sum.dec" "$c/whole.dec" | head -4 | tr '\n' ' ')"; fi
else
  echo "not ok abnormal checkpoints: build, run or import failed: $(tail -1 "$c/log")"
fi

# A pool of partial paths too small for the run (a runtime built with three slots): it keeps the
# first three paths exactly as the full pool does, counts what it could not keep, and reuses the
# slots a reset freed; checks the slot bookkeeping the full-size pool never reaches.
q="$d/pool"; mkdir -p "$q/rt"
if (cd "$q" && for f in "$top"/rt/core/*.c "$top"/rt/posix/*.c "$top"/rt/profile/*.c; do
      gcc -O2 -DPATHPROF_PARTIAL_SLOTS=3 -I"$top/include" -I"$top/rt" -c "$f" -o "rt/$(basename "$f" .c).o" || exit 1
    done && ar rcs librt3.a rt/*.o &&
    "$P" gcc -O0 -I"$top/include" -o full "$src/poolfull.c" &&
    PATHCC_RUNTIME="$q/librt3.a" "$P" gcc -O0 -I"$top/include" -o small "$src/poolfull.c") >"$q/log" 2>&1; then
  for args in "" "x" "x y"; do
    (cd "$q" && rm -f full.prof small.prof &&
     PATHPROF_FILE=full.prof ./full $args && PATHPROF_FILE=small.prof ./small $args &&
     "$R" dump --decode full.prof | grep '^Q' | sort >full.q && "$R" dump --decode small.prof | grep '^Q' | sort >small.q &&
     "$R" dump small.prof >small.rep 2>&1) >>"$q/log" 2>&1
    kept=$(wc -l <"$q/small.q"); extra=$(comm -13 "$q/full.q" "$q/small.q" | wc -l)
    if [ "$kept" = 3 ] && [ "$extra" = 0 ] && [ "$(wc -l <"$q/full.q")" -gt 3 ] && grep -q "not kept (the program's pool was full)" "$q/small.rep"; then
      echo "ok abnormal pool full [$args]: 3 of $(wc -l <"$q/full.q") partial paths kept as the full pool has them, the rest counted as not kept"
    else
      echo "not ok abnormal pool full [$args]: kept $kept (want 3), $extra not as the full pool has them; $(grep 'not kept' "$q/small.rep")"
    fi
  done
else
  echo "not ok abnormal pool full: runtime with three slots or builds failed: $(tail -1 "$q/log")"
fi
