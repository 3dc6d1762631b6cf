#!/bin/sh
# Runs every test: unit programs in build/test/, end-to-end scripts in regress/e2e/.
# Each test prints "ok NAME" or "not ok NAME: why" lines; a test that dies counts as one failure.
# Ends with the line "N passed, N failed". Set TESTS=pattern to run a subset.
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/regress/out"; mkdir -p "$out"
pass=0; fail=0; skip=0
run_one() {  # name, command...
  name=$1; shift
  log="$out/$name.log"
  "$@" >"$log" 2>&1; rc=$?
  p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log"); s=$(grep -c '^skip ' "$log")
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; echo "not ok $name: exited with status $rc" >>"$log"; fi
  pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
  grep -E '^(not ok|skip) ' "$log" | sed "s|^|[$name] |"
  printf '%-28s %4d ok %4d failed\n' "$name" "$p" "$f"
}
for t in "$top"/build/test/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t"); case "$n" in *${TESTS:-}*) ;; *) continue;; esac
  run_one "$n" "$t"
done
for t in "$top"/regress/e2e/*.sh; do
  [ -f "$t" ] || continue
  n=$(basename "$t" .sh); case "$n" in *${TESTS:-}*) ;; *) continue;; esac
  run_one "$n" sh "$t"
done
if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ "$fail" = 0 ]
