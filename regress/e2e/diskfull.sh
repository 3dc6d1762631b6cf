#!/bin/sh
# A full disk (a 64 KiB tmpfs, or /dev/full), a read-only directory and missing tables: the program and pathprof say so in one line, pathprof exits non-zero, no partial file is left and the previous profile stays intact.
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${E2E_DIR:-}" ]; then
  mkdir -p "$top/regress/out" && E2E_DIR=$(mktemp -d "$top/regress/out/diskfull.XXXXXX") || exit 1
  export E2E_DIR
  { sh "$0" "$@"; echo $? >"$E2E_DIR/status"; } | tee "$E2E_DIR/results.txt"
  rc=$(cat "$E2E_DIR/status")
  umount "$E2E_DIR/mnt" 2>/dev/null
  if [ "$rc" = 0 ] && ! grep -q '^not ok' "$E2E_DIR/results.txt"; then rm -rf "$E2E_DIR"; else echo "# files kept in $E2E_DIR"; fi
  exit "$rc"
fi
d=$E2E_DIR
pp() { (cd "$d" && PATHPROF_DB= "$top/bin/pathprof" "$@"); }  # tables are searched for under the working directory
if ! (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O1 -o big "$top/samples/manypaths.c" && "$top/bin/pathcc" gcc -std=c99 -O1 -o small "$top/samples/switch.c") >"$d/build.log" 2>&1; then
  echo "not ok diskfull-build: $(head -1 "$d/build.log")"; exit 0
fi
(cd "$d" && PATHPROF_FILE=$d/big.out ./big >/dev/null && PATHPROF_FILE=$d/small.out ./small >/dev/null)
# a full device (a private node like /dev/full as root, else /dev/full itself): the program's
# write fails with one line naming it, its own status is kept; pathprof merge fails the same way;
# the device stays a device and nothing is saved beside it
full=/dev/full
[ "$(id -u)" = 0 ] && mknod "$d/full" c 1 7 2>/dev/null && full=$d/full
(cd "$d" && PATHPROF_FILE=$full ./small >/dev/null 2>"$d/devfull.err"); rc=$?
if [ $rc = 0 ] && [ "$(wc -l <"$d/devfull.err")" = 1 ] && grep -q "^pathprof: $full" "$d/devfull.err"; then echo "ok diskfull-devfull-program"
else echo "not ok diskfull-devfull-program: status $rc, stderr: $(head -2 "$d/devfull.err" | tr '\n' '|')"; fi
pp merge "$d/small.out" -o "$full" >/dev/null 2>"$d/devfull2.err"; rc=$?
if [ $rc != 0 ] && [ "$(wc -l <"$d/devfull2.err")" = 1 ]; then echo "ok diskfull-devfull-merge"
else echo "not ok diskfull-devfull-merge: status $rc, stderr: $(head -2 "$d/devfull2.err" | tr '\n' '|')"; fi
if [ -c "$full" ] && ! ls "$(dirname "$full")" | grep -q -e 'full\.[0-9]*\.bad-merge' -e 'full\.tmp'; then echo "ok diskfull-devfull-untouched"
else echo "not ok diskfull-devfull-untouched: $full is no longer a device or files were left beside it"; fi

# a file system with no room: mounting a tmpfs needs root
m=$d/mnt
mkdir -p "$m"
if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=64k tmpfs "$m" 2>/dev/null; then
  echo "skip diskfull-tmpfs: cannot mount a small tmpfs (needs root)"
else
  # nothing_left NAME FILE: FILE equals its copy NAME.before, no temporary beside it
  intact() {
    if ! cmp -s "$2" "$d/$1.before"; then echo "not ok diskfull-$1: the previous profile changed"
    elif ls "$m" | grep -q -e '\.tmp' -e 'bad-merge'; then echo "not ok diskfull-$1: left behind: $(ls "$m" | tr '\n' ' ')"
    else echo "ok diskfull-$1"; fi
  }
  cp "$d/small.out" "$m/p.out"; cp "$d/small.out" "$d/run.before"
  head -c 60000 /dev/zero >"$m/filler" 2>/dev/null
  (cd "$d" && PATHPROF_FILE=$m/p.out ./big >/dev/null 2>"$d/run.err"); rc=$?
  [ $rc = 0 ] && [ "$(wc -l <"$d/run.err")" = 1 ] && grep -q "$m/p.out" "$d/run.err" &&
    echo "ok diskfull-program-message" || echo "not ok diskfull-program-message: status $rc, stderr: $(head -3 "$d/run.err" | tr '\n' '|')"
  # big's counts did not fit: the file is as it was (an append is cut back, a rewrite never
  # replaces it)
  rm -f "$m"/*.bad-merge
  intact run "$m/p.out"
  cp "$m/p.out" "$d/merge.before"
  pp merge "$d/big.out" -o "$m/p.out" >/dev/null 2>"$d/merge.err"; rc=$?
  [ $rc != 0 ] && [ "$(wc -l <"$d/merge.err")" = 1 ] && echo "ok diskfull-merge-message" ||
    echo "not ok diskfull-merge-message: status $rc, stderr: $(head -3 "$d/merge.err" | tr '\n' '|')"
  intact merge "$m/p.out"
  cp "$m/p.out" "$d/import.before"
  pp import "$d/big.out" -o "$m/p.out" >/dev/null 2>"$d/import.err"; rc=$?
  [ $rc != 0 ] && [ "$(wc -l <"$d/import.err")" = 1 ] && echo "ok diskfull-import-message" ||
    echo "not ok diskfull-import-message: status $rc, stderr: $(head -3 "$d/import.err" | tr '\n' '|')"
  intact import "$m/p.out"
  # continuous mode on a full disk: the region cannot be added; the counts go to stderr's place
  (cd "$d" && "$top/bin/pathcc" --continuous gcc -std=c99 -O1 -o cbig "$top/samples/manypaths.c") >/dev/null 2>&1
  (cd "$d" && PATHPROF_FILE="$m/c.out%c" ./cbig >/dev/null 2>"$d/cont.err"); rc=$?
  [ $rc = 0 ] && grep -q "pathprof: $m/c.out" "$d/cont.err" && echo "ok diskfull-continuous-message" ||
    echo "not ok diskfull-continuous-message: status $rc, stderr: $(head -3 "$d/cont.err" | tr '\n' '|')"
  # read-only: remount the same file system
  rm -f "$m/filler" "$m"/c.out*
  cp "$m/p.out" "$d/ro.before"
  if mount -o remount,ro "$m" 2>/dev/null; then
    (cd "$d" && PATHPROF_FILE=$m/p.out ./small >/dev/null 2>"$d/ro.err"); rc=$?
    [ $rc = 0 ] && [ "$(wc -l <"$d/ro.err")" = 1 ] && grep -q "$m/p.out" "$d/ro.err" && echo "ok diskfull-readonly-program" ||
      echo "not ok diskfull-readonly-program: status $rc, stderr: $(head -3 "$d/ro.err" | tr '\n' '|')"
    pp merge "$d/small.out" -o "$m/p.out" >/dev/null 2>"$d/ro2.err"; rc=$?
    [ $rc != 0 ] && [ "$(wc -l <"$d/ro2.err")" = 1 ] && echo "ok diskfull-readonly-merge" ||
      echo "not ok diskfull-readonly-merge: status $rc, stderr: $(head -3 "$d/ro2.err" | tr '\n' '|')"
    intact ro "$m/p.out"
  else
    echo "skip diskfull-readonly: cannot remount read-only"
  fi
  umount "$m"
fi

# missing tables: every reading command says which; dump, and report and coverage with --strict,
# exit non-zero and write no output file; without --strict report and coverage go on (status 0)
hidden=$(mktemp "${TMPDIR:-/tmp}/pathprof-hidden.XXXXXX")  # out of the tree pathprof searches
mv "$d"/small-switch.pp.json "$hidden"
for c in report dump coverage; do
  args=""; [ $c = dump ] && args=--decode; [ $c != dump ] && args=--strict
  pp $c $args "$d/small.out" >/dev/null 2>"$d/miss-$c.err"; rc=$?
  [ $rc != 0 ] && grep -q 'has no tables' "$d/miss-$c.err" && echo "ok diskfull-missing-tables-$c" ||
    echo "not ok diskfull-missing-tables-$c: status $rc, stderr: $(head -2 "$d/miss-$c.err" | tr '\n' '|')"
done
for c in report coverage; do
  pp $c "$d/small.out" >/dev/null 2>"$d/warn-$c.err"; rc=$?
  [ $rc = 0 ] && grep -q 'has no tables' "$d/warn-$c.err" && echo "ok diskfull-missing-tables-$c-warns" ||
    echo "not ok diskfull-missing-tables-$c-warns: status $rc, stderr: $(head -2 "$d/warn-$c.err" | tr '\n' '|')"
done
echo old >"$d/cov.info"
pp coverage --strict --format lcov -o "$d/cov.info" "$d/small.out" >/dev/null 2>&1; rc=$?
[ $rc != 0 ] && [ "$(cat "$d/cov.info")" = old ] && ! ls "$d" | grep -q 'cov.info.tmp' && echo "ok diskfull-missing-tables-no-output" ||
  echo "not ok diskfull-missing-tables-no-output: status $rc, cov.info replaced or temporary left"
mv "$hidden" "$d"/small-switch.pp.json

# continuous file, a run's add failing partway: bits() (hash counters) meets a path its region
# has no slot for, and the new region for it exceeds the file size limit (SIGXFSZ ignored, so
# EFBIG). The counts go aside; none may also stay added in the file: main ran twice, once per run,
# so the file and the aside file hold 1 each (it was 2 in the file and 1 aside).
# main has array counters, bits (14 ifs) hash counters with one path per argument
mkdir -p "$d/part" && cat >"$d/part/p.c" <<'SRC'
#include <stdio.h>
#include <stdlib.h>

static unsigned bits(unsigned x)
{
  unsigned r = 0;
  if (x & 1u) r += 1;
  if (x & 2u) r += 2;
  if (x & 4u) r += 3;
  if (x & 8u) r += 4;
  if (x & 16u) r += 5;
  if (x & 32u) r += 6;
  if (x & 64u) r += 7;
  if (x & 128u) r += 8;
  if (x & 256u) r += 9;
  if (x & 512u) r += 10;
  if (x & 1024u) r += 11;
  if (x & 2048u) r += 12;
  if (x & 4096u) r += 13;
  if (x & 8192u) r += 14;
  return r;
}

int main(int argc, char **argv)
{
  printf("%u\n", bits(argc > 1 ? (unsigned)atoi(argv[1]) : 0));
  return 0;
}
SRC
if (cd "$d/part" && "$top/bin/pathcc" --array-limit=4096 gcc -O0 -o p p.c && PATHPROF_FILE=c.out%c ./p 1) >"$d/part/build.log" 2>&1; then
  sz=$(wc -c <"$d/part/c.out")
  (cd "$d/part" && trap '' XFSZ && ulimit -f $((sz / 512)) && PATHPROF_FILE=c.out%c ./p 2) >/dev/null 2>"$d/part/run.err"
  aside=$(ls "$d"/part/c.out.*.bad-merge 2>/dev/null | head -1)
  runs() { (cd "$d/part" && "$top/bin/pathprof" report "$1" 2>/dev/null) | sed -n 's/^main (p.c[^)]*): \([0-9]*\) path executions.*/\1/p'; }
  if [ -n "$aside" ] && [ "$(runs c.out)" = 1 ] && [ "$(runs "$aside")" = 1 ]; then echo "ok diskfull-continuous-partial-add-exact"
  else echo "not ok diskfull-continuous-partial-add-exact: main ran $(runs c.out) in the file, $([ -n "$aside" ] && runs "$aside" || echo none) aside: $(head -1 "$d/part/run.err")"; fi
else echo "not ok diskfull-continuous-partial-build: $(head -1 "$d/part/build.log")"; fi
