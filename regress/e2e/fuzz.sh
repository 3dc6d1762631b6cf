#!/bin/sh
# Random programs from regress/gen.py (fixed seeds), plain and through pathcc --trace at -O0 and -O2 (make check: one of them a seed): same behaviour, exact counts.
# FUZZ_SEEDS="1 2 3" picks the seeds (default 1..25); FUZZ_FLAGS adds pathcc options (e.g. --array-limit=8).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=fuzz
. "$top/regress/private.sh"
seeds=${FUZZ_SEEDS:-$(seq 1 25)}

# make check builds each seed at one of -O0 and -O2, in turn (sample.sh); check-full at both
i=0
for seed in $seeds; do
  i=$((i + 1))
  src="$out/gen$seed.c"
  if ! python3 "$top/regress/gen.py" "$seed" "$src"; then
    echo "not ok fuzz-gen$seed: gen.py failed"
    continue
  fi
  for opt in -O0 -O2; do
    i=$((i + 1)); sampled $i 2 || continue
    name="gen$seed$opt"
    d="$out/$name"
    mkdir -p "$d"
    if ! $CC -std=c99 $opt -o "$d/plain" "$src" >"$d/plain.build" 2>&1; then
      echo "not ok fuzz-build $name: plain $CC failed: $(head -1 "$d/plain.build")"
      continue
    fi
    if ! (cd "$d" && "$top/bin/pathcc" --trace ${FUZZ_FLAGS:-} "$CC" -std=c99 $opt -o prog "$src") >"$d/pathcc.log" 2>&1; then
      echo "not ok fuzz-build $name: pathcc failed: $(head -1 "$d/pathcc.log")"
      continue
    fi
    # Any diagnostic pathcc or the compiler gives beyond the plain build's (gcc may warn on generated code;
    # columns may move in instrumented text, so lines are compared without them).
    for f in plain.build pathcc.log; do
      grep -E 'warning:|error:|^pathcc' "$d/$f" | sed 's/:\([0-9][0-9]*\):[0-9][0-9]*: /:\1: /' | sort -u >"$d/$f.diag"
    done
    if comm -13 "$d/plain.build.diag" "$d/pathcc.log.diag" | grep . >"$d/pathcc.new"; then
      echo "not ok fuzz-build $name: pathcc said: $(head -1 "$d/pathcc.new")"
    fi
    (cd "$d" && $run ./plain >plain.out 2>&1; echo $? >>plain.out)
    (cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" $run ./prog >prog.out 2>&1; echo $? >>prog.out)
    if ! cmp -s "$d/plain.out" "$d/prog.out"; then
      echo "not ok fuzz-semantics $name: output or status differs (diff $d/plain.out $d/prog.out)"
      continue
    fi
    echo "ok fuzz-semantics $name"
    if ! "$top/bin/pathprof" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>"$d/decoded.err"; then
      echo "not ok oracle $name: pathprof dump --decode failed: $(head -1 "$d/decoded.err")"
      continue
    fi
    python3 "$top/regress/oracle.py" --name "$name" --trace "$d/trace.txt" --decoded "$d/decoded.txt" "$d"/*.pp.json
    rm -f "$d/trace.txt" "$d/plain" "$d/prog"   # the traces are large; rerun one seed with FUZZ_SEEDS to look
  done
done
