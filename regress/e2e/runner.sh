#!/bin/sh
# regress/run.sh itself, on a tree of made-up tests: tests run JOBS at a time (with JOBS=2, two of
# four 2-second tests run at once, never three), the totals line counts every ok, not ok and skip line (and a test
# that dies as one failure), the ten slowest come before it with their times, the slowest last
# time starts first, TESTS picks by name, and apt-get inside a test goes through the run's lock.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=runner
. "$top/regress/private.sh"
t="$out/tree"
mkdir -p "$t/regress/e2e" "$t/build/test"
cp "$top/regress/run.sh" "$top/regress/slow.txt" "$t/regress/"
# each sleeping test notes when it started and ended (seconds), so overlap shows it ran beside another
for n in a b c d; do
  printf 'echo "%s $(date +%%s.%%N) start" >>"%s/spans"\nsleep 2\necho "%s $(date +%%s.%%N) end" >>"%s/spans"\necho "ok %s one"\necho "ok %s two"\n' \
    $n "$out" $n "$out" $n $n >"$t/regress/e2e/sleep_$n.sh"
done
printf 'echo "ok bad one"\necho "not ok bad two: on purpose"\necho "skip bad three: nothing"\n' >"$t/regress/e2e/bad.sh"
printf 'echo "ok dies"\nexit 3\n' >"$t/regress/e2e/dies.sh"
printf 'case "$(command -v apt-get)" in */regress/out/.bin/apt-get) echo "ok locked";; *) echo "not ok locked: $(command -v apt-get)";; esac\n' \
  >"$t/regress/e2e/apt.sh"
printf '#!/bin/sh\necho "ok unit"\n' >"$t/build/test/test_unit" && chmod +x "$t/build/test/test_unit"

unset TESTS JOBS
JOBS=2 TESTS=sleep_ sh "$t/regress/run.sh" >"$out/par.txt" 2>&1
# the most tests running at one time, from the spans
most=$(sort -k2,2n "$out/spans" | awk '$3 == "start" { n++ } $3 == "end" { n-- } n > m { m = n } END { print m + 0 }')
if [ "$most" = 2 ] && tail -1 "$out/par.txt" | grep -qx '8 passed, 0 failed'; then echo "ok runner-parallel (2 at a time)"
else echo "not ok runner-parallel: with JOBS=2 at most $most tests ran at once: $(tail -1 "$out/par.txt")"; fi

JOBS=2 sh "$t/regress/run.sh" >"$out/all.txt" 2>&1; rc=$?
last=$(tail -1 "$out/all.txt")
# the apt test passes where the run can lock apt-get (apt-get and flock there), else fails too
want="11 passed, 3 failed, 1 skipped"
command -v apt-get >/dev/null 2>&1 && command -v flock >/dev/null 2>&1 && want="12 passed, 2 failed, 1 skipped"
if [ "$rc" != 0 ] && [ "$last" = "$want" ]; then
  echo "ok runner-totals ($last)"
else echo "not ok runner-totals: status $rc, last line: $last (want: $want)"; fi
slow=$(sed -n '/^slowest tests/,$p' "$out/all.txt" | sed '1d;$d')
if [ "$(echo "$slow" | wc -l)" = 8 ] && echo "$slow" | head -1 | grep -q '^  sleep_' && grep -q '^not ok dies: exited with status 3' "$t/regress/out/dies.log"; then
  echo "ok runner-slowest"
else echo "not ok runner-slowest: $(echo "$slow" | head -2 | tr '\n' '|')"; fi
if command -v apt-get >/dev/null 2>&1 && command -v flock >/dev/null 2>&1; then
  grep -q '^ok locked' "$t/regress/out/apt.log" && echo "ok runner-apt-lock" || echo "not ok runner-apt-lock: $(cat "$t/regress/out/apt.log")"
fi
# the order: the slowest of the last run first (sleep tests before the quick ones)
first=$(JOBS=1 sh "$t/regress/run.sh" 2>/dev/null | head -1)
case "$first" in sleep_*) echo "ok runner-order";; *) echo "not ok runner-order: the first test to end was: $first";; esac
