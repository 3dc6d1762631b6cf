#!/bin/sh
# Sixteen instrumented processes released at one moment merge into one profile: every path count is exactly 16 times one run's.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=concurrency
. "$top/regress/private.sh"
d=$E2E_DIR
N=16
ROUNDS=${ROUNDS:-$(sized 3 20)}
if ! (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O2 -o prog "$top/samples/recursion.c") >"$d/build.log" 2>&1; then
  echo "not ok concurrency-build: $(head -1 "$d/build.log")"
  exit 0
fi
echo "ok concurrency-build"

# The single run.
(cd "$d" && PATHPROF_FILE="$d/one.out" ./prog >one.stdout 2>one.stderr; echo $? >one.rc)
if [ ! -s "$d/one.out" ] || ! "$top/bin/pathprof" dump --decode "$d/one.out" >"$d/one.txt" 2>"$d/one.err"; then
  echo "not ok concurrency-single: no readable profile from one run: $(head -1 "$d/one.err" 2>/dev/null)"
  exit 0
fi
echo "ok concurrency-single"

# compare ONE MANY FACTOR: every P/O/D line of MANY has FACTOR times the count of ONE, and the same lines exist
compare() {
  python3 "$top/regress/countcmp.py" "$1" "$2" "$3"
}

round=1
while [ "$round" -le "$ROUNDS" ]; do
  r="$d/round$round"
  mkdir -p "$r"
  i=1
  while [ "$i" -le "$N" ]; do
    (
      : >"$r/ready.$i"
      while [ ! -e "$r/go" ]; do :; done
      cd "$d" && PATHPROF_FILE="$r/many.out" ./prog >"$r/stdout.$i" 2>"$r/stderr.$i"
      echo $? >"$r/rc.$i"
    ) &
    i=$((i + 1))
  done
  while [ "$(ls "$r" | grep -c '^ready\.')" -lt "$N" ]; do sleep 1; done
  : >"$r/go"
  wait
  problems=""
  i=1
  while [ "$i" -le "$N" ]; do
    cmp -s "$r/stdout.$i" "$d/one.stdout" && cmp -s "$r/rc.$i" "$d/one.rc" || problems="$problems process $i output/status differs;"
    [ -s "$r/stderr.$i" ] && problems="$problems process $i stderr: $(head -1 "$r/stderr.$i");"
    i=$((i + 1))
  done
  left=$(ls "$r" | grep -e '\.tmp\.' -e 'bad-merge' | tr '\n' ' ')
  [ -n "$left" ] && problems="$problems files left behind: $left;"
  if [ -n "$problems" ]; then
    echo "not ok concurrency-round$round-processes:$problems"
  else
    echo "ok concurrency-round$round-processes"
  fi
  if ! "$top/bin/pathprof" dump --decode "$r/many.out" >"$r/many.txt" 2>"$r/many.err"; then
    echo "not ok concurrency-round$round-counts: merged profile unreadable: $(head -1 "$r/many.err")"
  elif why=$(compare "$d/one.txt" "$r/many.txt" "$N"); then
    echo "ok concurrency-round$round-counts"
  else
    echo "not ok concurrency-round$round-counts: not $N times one run: $(echo "$why" | tr '\n' ';')"
  fi
  round=$((round + 1))
done
