#!/bin/sh
# Runs each libFuzzer harness (build/fuzz/fuzz_*) on its corpus, seeded from real files, for
# FUZZ_TIME seconds each (default 60) or FUZZ_RUNS executions when set; prints the test lines
# "ok fuzz-NAME: N executions at R/s" or "not ok fuzz-NAME: ..." with the crashing input kept.
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${FUZZ_OUT:-$top/regress/out/fuzz-runs}
mkdir -p "$out"
if [ ! -d "$top/build/fuzz/corpus/profile" ] && ! sh "$top/regress/fuzz/seed.sh"; then
  echo "not ok fuzz-seed: could not seed the corpora"
  exit 0
fi
for h in ${FUZZ_HARNESSES:-profile tables import}; do
  bin=${FUZZ_BIN_DIR:-$top/build/fuzz}/fuzz_$h
  if [ ! -x "$bin" ]; then echo "skip fuzz-$h: $bin missing (make fuzz-build needs clang with libFuzzer)"; continue; fi
  mkdir -p "$out/$h.corpus"
  for r in "$top"/regress/fuzz/regressions/"$h"-*; do  # inputs that once crashed it
    [ -f "$r" ] || continue
    if "$bin" "$r" >"$out/$h.regression.log" 2>&1; then echo "ok fuzz-$h-regression $(basename "$r")"
    else echo "not ok fuzz-$h-regression $(basename "$r"): $(grep -m1 -E 'ERROR|runtime error|Assertion' "$out/$h.regression.log")"; fi
  done
  case $h in tables) len=2048;; *) len=1024;; esac
  if [ -n "${FUZZ_RUNS:-}" ]; then limit="-runs=$FUZZ_RUNS"; else limit="-max_total_time=${FUZZ_TIME:-60}"; fi
  start=$(date +%s)
  "$bin" $limit -max_len=$len -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$out/$h-" \
    "$out/$h.corpus" "$top/build/fuzz/corpus/$h" >"$out/$h.log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$h.log")
  if [ "$rc" = 0 ] && [ -n "$n" ]; then
    echo "ok fuzz-$h: $n executions in ${secs}s ($(( n / (secs > 0 ? secs : 1) ))/s), no crash"
  else
    echo "not ok fuzz-$h: status $rc after ${n:-?} executions: $(grep -m1 -E 'ERROR|runtime error|Assertion' "$out/$h.log"); inputs in $out/$h-*"
  fi
done
