#!/bin/sh
# Runs every test: unit programs in build/test/, end-to-end scripts in regress/e2e/, JOBS at a time.
# Each test prints "ok NAME" or "not ok NAME: why" lines; a test that dies counts as one failure.
# Ends with the ten slowest tests and the line "N passed, N failed" (", N skipped").
# TESTS=pattern runs the tests whose name contains it; JOBS=N runs N at once (default: the CPUs).
# The tests that took longest last time (regress/out/times.txt; before a first run, the estimates
# in regress/slow.txt) start first, so the long ones do not end the run alone; apt-get runs one at
# a time (two at once fail on dpkg's lock).
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/regress/out"; mkdir -p "$out" || exit 1

# now_ms: wall-clock milliseconds (date +%N is GNU; elsewhere whole seconds)
now_ms() {
  t=$(date +%s%N 2>/dev/null)
  case "$t" in *N|'') echo $(($(date +%s) * 1000));; *) echo $((t / 1000000));; esac
}

# --one KIND NAME: one test (xargs calls this); its log, its counts and time, then one summary
if [ "${1:-}" = --one ]; then
  kind=$2 name=$3 log="$out/$3.log"
  t0=$(now_ms)
  if [ "$kind" = unit ]; then "$top/build/test/$name" >"$log" 2>&1; else sh "$top/regress/e2e/$name.sh" >"$log" 2>&1; fi
  rc=$?
  ms=$(($(now_ms) - t0))
  # the test's CPU time (its children's user + system, from the shell's times), as a load-free figure
  times >"$RUN_RESULTS/$name.times"
  cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.1f", s }' "$RUN_RESULTS/$name.times"); rm -f "$RUN_RESULTS/$name.times"
  # a test run as root must leave /dev/null a device: the next writes to it would fill a file,
  # and programs that read it (configure's diff) would misbehave; restored for the other tests
  if [ ! -c /dev/null ]; then
    echo "not ok $name: /dev/null is no longer a device after this test (or one running beside it)" >>"$log"
    [ "$(id -u)" = 0 ] && rm -f /dev/null && mknod -m 666 /dev/null c 1 3
  fi
  p=$(grep -c '^ok ' "$log"); f=$(grep -c '^not ok ' "$log"); s=$(grep -c '^skip ' "$log")
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; echo "not ok $name: exited with status $rc" >>"$log"; fi
  echo "$p $f $s $ms $cpu" >"$RUN_RESULTS/$name"
  [ "$f" = 0 ] || grep '^not ok ' "$log" | sed "s|^|[$name] |" >"$RUN_RESULTS.failed/$name"
  # one write, so lines of tests ending together do not interleave
  msg=$(grep -E '^(not ok|skip) ' "$log" | sed "s|^|[$name] |")
  printf '%s%-28s %4d ok %4d failed %7.1f s %7.1f s CPU\n' "${msg:+$msg
}" "$name" "$p" "$f" "$(echo "$ms" | awk '{print $1 / 1000}')" "$cpu"
  exit 0
fi

t_start=$(now_ms)
jobs=${JOBS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
# this run's counts and times (other runs may share the tree)
RUN_RESULTS=$(mktemp -d "$out/.results.XXXXXX") || exit 1
mkdir "$RUN_RESULTS.failed" || exit 1   # each failing test's "not ok" lines, to repeat at the end
export RUN_RESULTS

# apt-get through a lock for the run (the tests install what they miss, as root)
real_apt=$(command -v apt-get 2>/dev/null)
if [ -n "$real_apt" ] && command -v flock >/dev/null 2>&1; then
  mkdir -p "$out/.bin"
  printf '#!/bin/sh\n# apt-get for a parallel test run: one at a time, waiting for dpkg'"'"'s lock\nexec flock %s %s -o DPkg::Lock::Timeout=600 "$@"\n' \
    "$out/.apt.lock" "$real_apt" >"$RUN_RESULTS.apt" && chmod +x "$RUN_RESULTS.apt" &&
    mv "$RUN_RESULTS.apt" "$out/.bin/apt-get" && PATH="$out/.bin:$PATH" && export PATH
fi

# The list: "KIND NAME" lines, ordered by last run's time (else slow.txt's estimate), longest first
list="$RUN_RESULTS.list"; : >"$list"
for t in "$top"/build/test/test_*; do
  [ -x "$t" ] || continue
  n=${t##*/}; case "$n" in *${TESTS:-}*) echo "unit $n" >>"$list";; esac
done
for t in "$top"/regress/e2e/*.sh; do
  [ -f "$t" ] || continue
  n=${t##*/}; n=${n%.sh}; case "$n" in *${TESTS:-}*) echo "e2e $n" >>"$list";; esac
done
[ -f "$out/times.txt" ] || : >"$out/times.txt"
awk 'FILENAME != ARGV[3] { if ($1 !~ /^#/ && NF >= 2) ms[$1] = $2; next } { print ($2 in ms ? ms[$2] : 0), $0 }' \
  "$top/regress/slow.txt" "$out/times.txt" "$list" \
  | sort -k1,1nr -s | cut -d' ' -f2- | xargs -r -P "$jobs" -L 1 sh "$0" --one

# Totals, the times kept for the next run's order, and the ten slowest
pass=0; fail=0; skip=0
for r in "$RUN_RESULTS/"*; do
  [ -f "$r" ] || continue
  read -r p f s ms cpu <"$r"
  echo "${r##*/} $ms $cpu"
done >"$RUN_RESULTS.times"
awk 'FILENAME == ARGV[1] { new[$1] = $2; next } !($1 in new) { print } END { for (n in new) print n, new[n] }' \
  "$RUN_RESULTS.times" "$out/times.txt" | cut -d' ' -f1,2 | sort >"$RUN_RESULTS.all" && mv "$RUN_RESULTS.all" "$out/times.txt"
for r in "$RUN_RESULTS/"*; do
  [ -f "$r" ] || continue
  read -r p f s ms cpu <"$r"; pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done
# every failure again at the end, where a log's tail (a CI summary) shows it
cat "$RUN_RESULTS.failed/"* 2>/dev/null | head -40
echo "slowest tests ($jobs at a time, $(( ($(now_ms) - t_start) / 1000 )) s in all):"
sort -k2,2nr "$RUN_RESULTS.times" | head -10 | awk '{ printf "  %-28s %7.1f s %7.1f s CPU\n", $1, $2 / 1000, $3 }'
rm -rf "$RUN_RESULTS" "$RUN_RESULTS.failed" "$RUN_RESULTS.times" "$RUN_RESULTS.list"
if [ "$skip" -gt 0 ]; then echo "$pass passed, $fail failed, $skip skipped"; else echo "$pass passed, $fail failed"; fi
[ "$fail" = 0 ]
