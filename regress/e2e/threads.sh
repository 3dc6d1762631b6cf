#!/bin/sh
# regress/e2e/threads_prog.c with 8 threads: the threads' paths (classify, work) under --update=atomic and prefer-atomic (per-thread bases; the default with -pthread), and under auto (the default without -pthread) in a unit compiled without -pthread, count exactly 8 times a one-thread run, every round; so do auto's main thread beside 4 threads, activations that start threads before their paths end, a fork from a thread and an abort's crash dump (5 runs each); single reports its loss; edge mode under auto counts exactly 8 times one thread too; kpath mode's per-thread forests add up to exactly 8 times one thread's k-iteration paths; an empty body (`{}`) compiles instrumented in every policy.
# Default: 2 rounds of 8 x 2*10^5 paths; REGRESS_FULL: 20 rounds of 8 x 10^6 (the acceptance run).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=threads
. "$top/regress/private.sh"
d=$E2E_DIR
ROUNDS=${ROUNDS:-$(sized 2 20)} ITERS=${ITERS:-$(sized 200000 1000000)}
T=8
pp() { "$top/bin/pathprof" "$@"; }
for u in single atomic prefer-atomic default; do
  flag="--update=$u"; [ $u = default ] && flag=""
  if ! (cd "$d" && "$top/bin/pathcc" $flag gcc -std=c99 -O2 -pthread -o "t-$u" "$top/regress/e2e/threads_prog.c") >"$d/build-$u.log" 2>&1 ||
     [ -s "$d/build-$u.log" ]; then
    echo "not ok threads-build-$u: $(head -1 "$d/build-$u.log")"; continue
  fi
  echo "ok threads-build-$u"
done
# -pthread alone picks prefer-atomic, and the tables say so
if grep -q '"update":"prefer-atomic"' "$d"/t-default-threads_prog.pp.json; then echo "ok threads-pthread-default"
else echo "not ok threads-pthread-default: tables of a -pthread build do not say prefer-atomic"; fi
# the reference: one thread
(cd "$d" && PATHPROF_FILE=one.out timeout 60 ./t-atomic 1 "$ITERS" >one.stdout) && pp dump --decode "$d/one.out" >"$d/one.txt" ||
  { echo "not ok threads-reference: no profile from one thread"; exit 0; }
for u in atomic prefer-atomic single; do
  r=1; bad=0; lost=""
  while [ $r -le "$ROUNDS" ]; do
    rm -f "$d/$u.out"
    (cd "$d" && PATHPROF_FILE=$u.out timeout 120 "./t-$u" $T "$ITERS" >"$u.stdout" 2>"$u.stderr") &&
      pp dump --decode "$d/$u.out" >"$d/$u.txt" 2>"$d/$u.err" || { bad=$((bad + 1)); r=$((r + 1)); continue; }
    if [ $u = single ]; then
      lost="$lost $(python3 "$top/regress/countcmp.py" --fn=0,1 --loss "$d/one.txt" "$d/$u.txt" $T | cut -d' ' -f1)"
    elif ! why=$(python3 "$top/regress/countcmp.py" --fn=0,1 "$d/one.txt" "$d/$u.txt" $T); then
      bad=$((bad + 1)); echo "# $u round $r: $(echo "$why" | head -1)"
    fi
    r=$((r + 1))
  done
  if [ $u = single ]; then
    total=$(python3 "$top/regress/countcmp.py" --fn=0,1 --loss "$d/one.txt" "$d/one.txt" $T | cut -d' ' -f2)
    echo "# threads single: path counts lost per round of $total:$lost"
    [ $bad = 0 ] && echo "ok threads-single-runs" || echo "not ok threads-single-runs: $bad rounds without a profile"
  elif [ $bad = 0 ]; then
    echo "ok threads-$u-exact: $ROUNDS rounds of $T x $ITERS"
  else
    echo "not ok threads-$u-exact: $bad of $ROUNDS rounds not exactly $T times one thread"
  fi
done
# compiled without -pthread, linked with it (as many Makefiles do; glibc 2.34 needs no flag at
# all): the default policy, auto, counts through each thread's own counter base, so the
# threads' paths count exactly; --update=single shows the loss it prevents
if (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O2 -c -o t-auto.o "$top/regress/e2e/threads_prog.c" &&
    "$top/bin/pathcc" gcc -pthread -o t-auto t-auto.o) >"$d/build-auto.log" 2>&1 && [ ! -s "$d/build-auto.log" ]; then
  if ! grep -q '"update":"auto"' "$d"/t-auto.pp.json; then echo "not ok threads-auto-default: the tables do not say auto"
  else
    r=1; bad=0
    (cd "$d" && PATHPROF_FILE=auto1.out timeout 60 ./t-auto 1 "$ITERS" >/dev/null) && pp dump --decode "$d/auto1.out" >"$d/auto1.txt"
    while [ $r -le "$ROUNDS" ]; do
      rm -f "$d/auto.out"
      if (cd "$d" && PATHPROF_FILE=auto.out timeout 120 ./t-auto $T "$ITERS" >auto.stdout) &&
         pp dump --decode "$d/auto.out" >"$d/auto.txt" && why=$(python3 "$top/regress/countcmp.py" --fn=0,1 "$d/auto1.txt" "$d/auto.txt" $T); then :
      else bad=$((bad + 1)); echo "# auto round $r: $(echo "$why" | head -1)"; fi
      r=$((r + 1))
    done
    [ $bad = 0 ] && echo "ok threads-auto-exact: compiled without -pthread, $ROUNDS rounds of $T x $ITERS" ||
      echo "not ok threads-auto-exact: $bad of $ROUNDS rounds not exactly $T times one thread"
  fi
else
  echo "not ok threads-build-auto: $(head -1 "$d/build-auto.log")"
fi
# auto counts through each thread's base, read once per activation: the first thread to count
# has the unit's own array, the others shards. Exact with the main thread counting beside 4
# threads (main), with activations that start the next thread and end their paths after it
# counted (spawn: spawn's own paths too, 4 levels that started one and the last that did not),
# across a fork from a thread that is not the first (fork: the child's counts are its own), and
# in the crash dump of an abort after 4 threads were joined (abort: their shards are retired)
if [ -f "$d/auto1.txt" ] && [ -x "$d/t-auto" ]; then
  for m in main spawn fork abort; do
    rm -f "$d/base-$m.out" "$d"/base-$m.out.crash.* "$d/.base-$m.out.crashed"
    (cd "$d" && PATHPROF_FILE=base-$m.out timeout 120 ./t-auto 4 "$ITERS" $m >base-$m.stdout 2>base-$m.stderr); rc=$?
    [ $m = abort ] && [ $rc = 134 ] && rc=0   # the dump says nothing on stderr
    if [ $rc != 0 ] || [ -s "$d/base-$m.stderr" ] || ! pp dump --decode "$d/base-$m.out" >"$d/base-$m.txt"; then
      echo "not ok threads-auto-$m: run failed: $(head -1 "$d/base-$m.stderr")"
    elif ! why=$(python3 "$top/regress/countcmp.py" --fn=0,1 "$d/auto1.txt" "$d/base-$m.txt" 5); then
      echo "not ok threads-auto-$m: not exactly 5 times one thread: $(echo "$why" | head -1)"
    elif [ $m = spawn ] && [ "$(awk '$1 == "P" && $3 == 2 { print $4 }' "$d/base-$m.txt" | sort -n | tr '\n' ' ')" != "1 4 " ]; then
      echo "not ok threads-auto-spawn: spawn's paths counted $(awk '$1 == "P" && $3 == 2 { print $4 }' "$d/base-$m.txt" | tr '\n' ' '), not 4 and 1"
    else
      echo "ok threads-auto-$m: 5 x $ITERS"
    fi
  done
else
  echo "not ok threads-auto-base: no auto build or one-thread profile"
fi
# edge mode under --update=auto counts through the same bases: classify's and work's counters
# (from classify's first slot to spawn's) are exactly T times one thread's
if (cd "$d" && "$top/bin/pathcc" --mode=edge --update=auto gcc -std=c99 -O2 -c -o t-edge.o "$top/regress/e2e/threads_prog.c" &&
    "$top/bin/pathcc" gcc -pthread -o t-edge t-edge.o) >"$d/build-edge.log" 2>&1 && [ ! -s "$d/build-edge.log" ] &&
   (cd "$d" && PATHPROF_FILE=e1.out timeout 60 ./t-edge 1 "$ITERS" >/dev/null && PATHPROF_FILE=eT.out timeout 120 ./t-edge $T "$ITERS" >/dev/null) &&
   pp dump "$d/e1.out" >"$d/e1.txt" && pp dump "$d/eT.out" >"$d/eT.txt"; then
  python3 - "$d/t-edge.pp.json" "$d/e1.txt" "$d/eT.txt" $T <<'PY'
import json, re, sys
off = {f["name"]: int(f["offset"]) for f in json.load(open(sys.argv[1]))["functions"]}
lo, hi, t = off["classify"], off["spawn"], int(sys.argv[4])
cnt = lambda p: {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^\s*\[(\d+)\] (\d+)$", open(p).read(), re.M)}
a, b = cnt(sys.argv[2]), cnt(sys.argv[3])
bad = [i for i in range(lo, hi) if b.get(i, 0) != t * a.get(i, 0)]
print("ok threads-edge-auto-exact: %d counters, %d threads" % (hi - lo, t) if a and not bad else
      "not ok threads-edge-auto-exact: %d of %d counters differ, e.g. slot %s" % (len(bad), hi - lo, bad[:2]))
PY
else
  echo "not ok threads-edge-auto: build or run failed: $(head -1 "$d/build-edge.log")"
fi
# kpath mode: each thread counts into its own forests (and the functions' forest caches change
# hands between threads); the profile's k-iteration paths are exactly T times one thread's
if (cd "$d" && "$top/bin/pathcc" --mode=kpath --k=3 gcc -std=c99 -O2 -pthread -o t-kpath "$top/regress/e2e/threads_prog.c") >"$d/build-kpath.log" 2>&1 &&
   [ ! -s "$d/build-kpath.log" ] &&
   (cd "$d" && PATHPROF_FILE=k1.out timeout 60 ./t-kpath 1 "$ITERS" >/dev/null && PATHPROF_FILE=kT.out timeout 120 ./t-kpath $T "$ITERS" >/dev/null); then
  pp kpaths --json --top 1000000 "$d/k1.out" >"$d/k1.json" && pp kpaths --json --top 1000000 "$d/kT.out" >"$d/kT.json"
  python3 - "$d/k1.json" "$d/kT.json" $T <<'PY'
import json, sys
one, many, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
# the threads' functions (main's loops run once per thread)
key = lambda j: {(p["function"], tuple(p["ids"])): p["count"] for p in j["paths"] if p["function"] in ("work", "classify")}
a, b = key(one), key(many)
bad = [k for k in set(a) | set(b) if b.get(k, 0) != t * a.get(k, 0)]
print("ok threads-kpath-exact: %d k-iteration paths, %d threads" % (len(a), t) if a and not bad else
      "not ok threads-kpath-exact: %d of %d paths differ, e.g. %s" % (len(bad), len(a), bad[:2]))
PY
else
  echo "not ok threads-kpath: build or run failed: $(head -1 "$d/build-kpath.log")"
fi

# The base's declaration comes before any code at the body's start, even the count that closes an
# empty body (`{}`, no space: both at one offset), in every policy that reads a base, and in C89.
printf 'void nop(void){}\nint one(int x){return x?1:2;}\nint main(void){nop();return one(0)-2;}\n' >"$d/empty.c"
for flags in "" "-pthread" "--update=prefer-atomic -std=c89 -pedantic-errors" "--mode=edge --update=auto"; do
  # shellcheck disable=SC2086
  if (cd "$d" && PATHPROF_FILE=empty.prof "$top/bin/pathcc" --strict gcc $flags -o empty empty.c && PATHPROF_FILE=empty.prof ./empty) >"$d/empty.log" 2>&1; then
    echo "ok threads-empty-body [$flags]"
  else
    echo "not ok threads-empty-body [$flags]: $(grep -m1 error "$d/empty.log")"
  fi
done
