#!/bin/sh
# Every sample, plain and through pathcc --trace at -O0 and -O2: same output and status, and path counts equal the trace oracle's.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/exact"
rm -rf "$out" && mkdir -p "$out" || exit 1
CC=${E2E_CC:-gcc}
if [ ! -x "$top/bin/pathcc" ] || [ ! -x "$top/bin/pathprof" ]; then
  echo "not ok exact: bin/pathcc or bin/pathprof missing (run make)"
  exit 0
fi
run=""
command -v timeout >/dev/null 2>&1 && run="timeout 20"

# check NAME DIR: runs plain and instrumented programs in DIR and compares them, then the counts
check() {
  name=$1 d=$2
  (cd "$d" && $run ./plain >plain.out 2>plain.err; echo $? >plain.rc)
  (cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" $run ./prog >prog.out 2>prog.err; echo $? >prog.rc)
  if ! cmp -s "$d/plain.out" "$d/prog.out"; then
    echo "not ok semantics $name: stdout differs (diff $d/plain.out $d/prog.out)"
  elif ! cmp -s "$d/plain.rc" "$d/prog.rc"; then
    echo "not ok semantics $name: exit status $(cat "$d/plain.rc") plain, $(cat "$d/prog.rc") instrumented"
  elif ! cmp -s "$d/plain.err" "$d/prog.err"; then
    echo "not ok semantics $name: stderr differs: $(diff "$d/plain.err" "$d/prog.err" | sed -n 2p)"
  else
    echo "ok semantics $name"
  fi
  if [ ! -s "$d/prof.out" ]; then
    echo "not ok oracle $name: no profile written to $d/prof.out"
    return
  fi
  if [ ! -f "$d/trace.txt" ]; then
    echo "not ok oracle $name: no trace written to $d/trace.txt"
    return
  fi
  if ! "$top/bin/pathprof" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>"$d/decoded.err"; then
    echo "not ok oracle $name: pathprof dump --decode failed: $(head -1 "$d/decoded.err")"
    return
  fi
  python3 "$top/regress/oracle.py" --name "$name" --trace "$d/trace.txt" --decoded "$d/decoded.txt" "$d"/*.pp.json
}

# build NAME OPT SRC...: plain and instrumented builds into $out/NAME-OPT, then check
build() {
  name=$1 opt=$2; shift 2
  d="$out/$name$opt"
  mkdir -p "$d"
  if ! $CC -std=c99 "$opt" -o "$d/plain" "$@" -lm >"$d/plain.build" 2>&1; then
    echo "not ok build $name$opt: plain $CC failed: $(head -1 "$d/plain.build")"
    return
  fi
  if ! (cd "$d" && "$top/bin/pathcc" --trace "$CC" -std=c99 "$opt" -o prog "$@" -lm) >"$d/pathcc.out" 2>"$d/pathcc.err"; then
    echo "not ok build $name$opt: pathcc --trace $CC $opt failed: $(head -1 "$d/pathcc.err")"
    return
  fi
  if [ -s "$d/pathcc.err" ] || [ -s "$d/pathcc.out" ]; then
    echo "not ok build $name$opt: pathcc said: $(cat "$d/pathcc.out" "$d/pathcc.err" | head -1)"
  else
    echo "ok build $name$opt"
  fi
  check "$name$opt" "$d"
}

for opt in -O0 -O2; do
  for src in "$top"/samples/*.c; do
    build "$(basename "$src" .c)" "$opt" "$src"
  done
  build demo "$opt" "$top"/samples/demo/*.c
done
