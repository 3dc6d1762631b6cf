#!/bin/sh
# --decisions=conditions: &&, || and ?: as decisions. Every sample and case, and random programs
# from gen.py, keep their behaviour and their path counts equal the block-trace oracle's.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/conditions"
rm -rf "$out" && mkdir -p "$out" || exit 1
. "$top/regress/sample.sh"
# make check: each program at one of -O0 and -O2 in turn, and 10 random programs (check-full: all)
i=0
for src in "$top"/samples/*.c "$top"/regress/cases/*.c; do
  n=$(basename "$src" .c)
  i=$((i + 1))
  for opt in -O0 -O2; do
    i=$((i + 1)); sampled $i 2 || continue
    d="$out/$n$opt"
    mkdir -p "$d"
    gcc $opt -w -o "$d/plain" "$src" -lm >/dev/null 2>&1 || continue
    if ! (cd "$d" && "$top/bin/pathcc" --trace --decisions=conditions gcc $opt -w -o prog "$src" -lm) >"$d/build.log" 2>&1 ||
       [ -s "$d/build.log" ]; then
      echo "not ok conditions build $n$opt: $(head -1 "$d/build.log")"
      continue
    fi
    (cd "$d" && timeout 20 ./plain >plain.out 2>&1; echo $? >>plain.out)
    (cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" timeout 20 ./prog >prog.out 2>&1; echo $? >>prog.out)
    if cmp -s "$d/plain.out" "$d/prog.out"; then echo "ok conditions semantics $n$opt"
    else echo "not ok conditions semantics $n$opt: output or status differs"; continue; fi
    "$top/bin/pathprof" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>&1 ||
      { echo "not ok conditions decode $n$opt: $(head -1 "$d/decoded.txt")"; continue; }
    python3 "$top/regress/oracle.py" --name "conditions $n$opt" --trace "$d/trace.txt" --decoded "$d/decoded.txt" "$d"/*.pp.json
    rm -f "$d/trace.txt"
  done
done
seeds=$(seq 101 "$(sized 110 130)")
FUZZ_SEEDS="$seeds" FUZZ_FLAGS=--decisions=conditions sh "$top/regress/e2e/fuzz.sh" | sed 's/^\(not \)\{0,1\}ok /&conditions /'
