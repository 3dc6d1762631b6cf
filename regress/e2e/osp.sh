#!/bin/sh
# Online subpath profiling (pathcc --mode=osp): same output as plain; top-5 hot subpaths against the block-trace oracle over 10 seeds; error bounds; the memory bound; snapshots on SIGUSR1, every N seconds and at exit; threads.
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/regress/out"
out=$(mktemp -d "$top/regress/out/osp.XXXXXX") || exit 1
CC=${E2E_CC:-gcc}
pathcc="$top/bin/pathcc"
pathprof="$top/bin/pathprof"
run="timeout 60"
fails=0
ok() { echo "ok $1"; }
nok() { echo "not ok $1: $2"; fails=$((fails + 1)); }
if [ ! -x "$pathcc" ] || [ ! -x "$pathprof" ]; then
  echo "not ok osp: bin/pathcc or bin/pathprof missing (run make)"
  exit 0
fi

# The acceptance settings: hot list bound M and initial rate (a block starts a sample with 1/rate).
MEM=16384
RATE=64

# oracle NAME SRC ARG: one traced run gives the exact subpath counts; ten seeds are checked
# against them (top-5 places, error bounds); every snapshot keeps within its bound M.
oracle() {
  name=$1 src=$2 arg=$3 d="$out/$1"
  mkdir -p "$d"
  if ! $CC -O2 -o "$d/plain" "$src" -lpthread 2>"$d/cc.err" ||
     ! (cd "$d" && "$pathcc" --mode=osp --trace "$CC" -O2 -o prog "$src" -lpthread) 2>"$d/pathcc.err"; then
    nok "osp build $name" "$(head -1 "$d/cc.err" "$d/pathcc.err" | tr '\n' ' ')"
    return
  fi
  $run "$d/plain" $arg >"$d/plain.out"
  (cd "$d" && PATHPROF_TRACE="$d/trace.txt" PATHPROF_OSP_FILE="$d/traced.osp" $run ./prog $arg >"$d/prog.out")
  if cmp -s "$d/plain.out" "$d/prog.out"; then ok "osp semantics $name"; else nok "osp semantics $name" "output differs"; fi
  over=""
  for s in 1 2 3 4 5 6 7 8 9 10; do
    (cd "$d" && PATHPROF_OSP_SEED=$s PATHPROF_OSP_MEMORY=$MEM PATHPROF_OSP_RATE=$RATE PATHPROF_OSP_FILE="$d/s$s.osp" \
       $run ./prog $arg >/dev/null)
    "$pathprof" hot-subpaths --raw "$d/s$s.osp" >"$d/r$s.txt" 2>"$d/r$s.err" || nok "osp hot-subpaths $name seed $s" "$(head -1 "$d/r$s.err")"
    "$pathprof" hot-subpaths "$d/s$s.osp" >"$d/h$s.txt" 2>&1
    # "memory U of M bytes (peak P)": P and U never above M
    set -- $(sed -n 's/^memory \([0-9]*\) of \([0-9]*\) bytes (peak \([0-9]*\)).*/\1 \2 \3/p' "$d/h$s.txt")
    if [ $# != 3 ] || [ "$2" != $MEM ] || [ "$1" -gt "$2" ] || [ "$3" -gt "$2" ]; then over="$over seed $s ($*)"; fi
  done
  if [ -z "$over" ]; then ok "osp memory within M=$MEM $name (10 seeds)"; else nok "osp memory within M=$MEM $name" "$over"; fi
  python3 "$top/regress/osp_oracle.py" --name "$name" --trace "$d/trace.txt" "$d"/r*.txt >"$d/oracle.txt"
  cat "$d/oracle.txt"
  fails=$((fails + $(grep -c '^not ok' "$d/oracle.txt")))
}

oracle hotsub "$top/samples/hotsub.c" 20000
oracle osp_calls "$top/regress/cases/osp_calls.c" 30000

# ---- online snapshots: SIGUSR1 and every N seconds, while the program runs ----
d="$out/online"
mkdir -p "$d"
(cd "$d" && "$pathcc" --mode=osp "$CC" -O2 -o long "$top/samples/hotsub.c") 2>"$d/pathcc.err"
# wait_file FILE: up to 10 s for FILE to appear
wait_file() {
  i=0
  while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
  [ -s "$1" ]
}
(cd "$d" && PATHPROF_OSP_FILE="$d/sig.osp" exec timeout 60 ./long 2000000000 >/dev/null) &
pid=$!
sleep 0.5
pkill -USR1 -P $pid 2>/dev/null || kill -USR1 $pid
if wait_file "$d/sig.osp" && kill -0 $pid 2>/dev/null && "$pathprof" hot-subpaths "$d/sig.osp" >"$d/sig.txt" 2>&1 &&
   grep -q '^ *1 ' "$d/sig.txt"; then
  ok "osp snapshot on SIGUSR1 while the program runs"
else
  nok "osp snapshot on SIGUSR1 while the program runs" "$(head -1 "$d/sig.txt" 2>/dev/null || echo no snapshot)"
fi
kill $pid 2>/dev/null; wait $pid 2>/dev/null
(cd "$d" && PATHPROF_OSP_FILE="$d/int.osp" PATHPROF_OSP_INTERVAL=1 exec timeout 60 ./long 2000000000 >/dev/null) &
pid=$!
if wait_file "$d/int.osp" && kill -0 $pid 2>/dev/null && "$pathprof" hot-subpaths "$d/int.osp" >"$d/int.txt" 2>&1; then
  ok "osp snapshot every second (PATHPROF_OSP_INTERVAL=1) while the program runs"
else
  nok "osp snapshot every second" "$(head -1 "$d/int.txt" 2>/dev/null || echo no snapshot)"
fi
kill $pid 2>/dev/null; wait $pid 2>/dev/null

# ---- threads: per-thread skip counters and samples, one hot list ----
d="$out/threads"
mkdir -p "$d"
src="$top/regress/e2e/osp_threads.c"
if $CC -O2 -o "$d/plain" "$src" -lpthread && (cd "$d" && "$pathcc" --mode=osp "$CC" -O2 -o prog "$src" -lpthread) 2>"$d/pathcc.err"; then
  $run "$d/plain" >"$d/plain.out"
  (cd "$d" && PATHPROF_OSP_FILE="$d/t.osp" PATHPROF_OSP_RATE=32 $run ./prog >"$d/prog.out")
  "$pathprof" hot-subpaths --raw --top 1000 "$d/t.osp" >"$d/t.txt" 2>&1
  if cmp -s "$d/plain.out" "$d/prog.out" && grep -q '^S ' "$d/t.txt"; then
    ok "osp four threads: same output, one hot list"
  else
    nok "osp four threads" "output differs or no subpaths ($(head -1 "$d/t.txt"))"
  fi
else
  nok "osp four threads" "build failed: $(head -1 "$d/pathcc.err")"
fi

# ---- bad input: a profile without OSPH, a missing file ----
if ! "$pathprof" hot-subpaths "$out/none.osp" >/dev/null 2>"$out/none.err" && grep -q "none.osp" "$out/none.err"; then
  ok "osp hot-subpaths names a missing snapshot"
else
  nok "osp hot-subpaths names a missing snapshot" "$(head -1 "$out/none.err")"
fi

[ $fails = 0 ] && rm -rf "$out"
exit 0
