#!/bin/sh
# pathcc with ccache and parallel make, on a 12-unit project (a static library, two units named
# util.c in different directories, a program):
#  - CC="ccache pathcc gcc" and CC=pathcc PATHCC_CC="ccache gcc" both build, run and report, and a
#    rebuild after `make clean` is served from the cache (ccache's own counters; CCACHE_DIR private);
#  - make -j8 through pathcc, three clean builds: identical objects, tables and program output each
#    time, the same output as plain gcc, and the profile reports; the same with one PATHPROF_DB.
# Installs ccache when missing (as root).
NAME=ccache
. "$(dirname "$0")/../dropin-lib.sh"
s="$d/src"
mkdir -p "$s/one" "$s/two" || exit 1
i=1
while [ $i -le 9 ]; do
  cat >"$s/m$i.c" <<C
/* m$i.c: one of nine similar library units */
#include "proj.h"
int m$i(int x)
{
  int s = 0, k;
  for (k = 0; k < x; k++) {
    if ((k + $i) % 3 == 0) s += k;
    else if (k % $((i + 1)) == 1) s -= $i;
    else s ^= k;
  }
  return s;
}
C
  i=$((i + 1))
done
cat >"$s/proj.h" <<'C'
/* proj.h */
int m1(int), m2(int), m3(int), m4(int), m5(int), m6(int), m7(int), m8(int), m9(int);
int util_one(int), util_two(int);
C
printf '/* one/util.c */\nint util_one(int x) { return x > 5 ? x - 5 : 5 - x; }\n' >"$s/one/util.c"
printf '/* two/util.c */\nint util_two(int x) { int r = 1; while (x-- > 0) r = r * 3 %% 1000; return r; }\n' >"$s/two/util.c"
cat >"$s/main.c" <<'C'
/* main.c */
#include <stdio.h>
#include "proj.h"
int main(void)
{
  int (*f[])(int) = { m1, m2, m3, m4, m5, m6, m7, m8, m9, util_one, util_two };
  unsigned i;
  long t = 0;
  for (i = 0; i < sizeof f / sizeof f[0]; i++) t = t * 31 + f[i](100 + (int)i);
  printf("%ld\n", t);
  return 0;
}
C
cat >"$s/Makefile" <<'M'
CC ?= cc
CFLAGS = -O2 -g
LIBOBJS = m1.o m2.o m3.o m4.o m5.o m6.o m7.o m8.o m9.o one/util.o two/util.o
prog: main.o libproj.a
	$(CC) $(CFLAGS) -o $@ main.o libproj.a
libproj.a: $(LIBOBJS)
	rm -f $@ && ar rc $@ $(LIBOBJS)
.c.o:
	$(CC) $(CFLAGS) -c $< -o $@
clean:
	rm -f prog libproj.a main.o $(LIBOBJS)
M
# the reference: plain gcc
cp -r "$s" "$d/plain" && (cd "$d/plain" && make -s -j8 CC=gcc >make.log 2>&1 && ./prog >out.txt) ||
  { nok plain "the plain gcc build fails (test error)"; finish; }

# build DIR CC [make args]: a clean build, run with the profile in DIR/p.out
build() {
  dir=$1; shift
  (cd "$dir" && make -s clean >/dev/null 2>&1; make -s -j8 "$@" >make.log 2>&1 && PATHPROF_FILE="$dir/p.out" ./prog >out.txt)
}
# reports PROFILE: a clean report naming units of the program, the library and both util.c
reports() {
  "$R" report --top 100 "$1" >"$1.report" 2>"$1.err" && [ ! -s "$1.err" ] &&
    grep -q '^main (main.c' "$1.report" && grep -q '^m9 (m9.c' "$1.report" &&
    grep -q '^util_one (util.c' "$1.report" && grep -q '^util_two (util.c' "$1.report"
}
why_report() { head -1 "$1.err" 2>/dev/null; }
executions() { sed -n 's/.* \([0-9][0-9]*\) path executions$/\1/p' "$1.report" | head -1; }
stat() {  # hits: direct + preprocessed; misses
  ccache --print-stats 2>/dev/null | awk -v k="$1" '
    k == "hits" && ($1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit") { n += $2 }
    k == "misses" && $1 == "cache_miss" { n += $2 } END { print n + 0 }'
}

if ! need_pkg ccache ccache; then skip ccache "ccache is not installed (apt-get install ccache)"
else
  export CCACHE_DIR="$d/ccache-dir"
  # ccache in front of pathcc: ccache preprocesses through pathcc (passed through) and caches what pathcc compiles
  cp -r "$s" "$d/cc1"
  ccache -z >/dev/null
  build "$d/cc1" CC="ccache $P gcc" && m=$(stat misses) && build "$d/cc1" CC="ccache $P gcc" && h=$(stat hits)
  if [ "${h:-0}" -eq 12 ] && [ "$m" -eq 12 ] && cmp -s "$d/plain/out.txt" "$d/cc1/out.txt" && reports "$d/cc1/p.out"; then
    ok in-front "12 misses, then 12 hits"
  else nok in-front "CC=\"ccache pathcc gcc\": ${m:-?} misses then ${h:-?} hits (want 12 and 12), output $(cmp -s "$d/plain/out.txt" "$d/cc1/out.txt" && echo same || echo differs), report: $(why_report "$d/cc1/p.out")"; fi
  # ccache behind pathcc: the instrumented unit is what ccache sees and caches
  cp -r "$s" "$d/cc2"
  ccache -z >/dev/null
  export PATHCC_CC="ccache gcc"
  build "$d/cc2" CC="$P" && m=$(stat misses) && build "$d/cc2" CC="$P" && h=$(stat hits)
  unset PATHCC_CC
  if [ "${h:-0}" -eq 12 ] && [ "$m" -eq 12 ] && cmp -s "$d/plain/out.txt" "$d/cc2/out.txt" && reports "$d/cc2/p.out"; then
    ok behind "12 misses, then 12 hits"
  else nok behind "CC=pathcc PATHCC_CC=\"ccache gcc\": ${m:-?} misses then ${h:-?} hits (want 12 and 12), output $(cmp -s "$d/plain/out.txt" "$d/cc2/out.txt" && echo same || echo differs), report: $(why_report "$d/cc2/p.out")"; fi
  # a cache hit restores no tables: with PATHPROF_DB they survive a clean that removes them
  cp -r "$s" "$d/cc3"
  export PATHPROF_DB="$d/db3"; mkdir -p "$PATHPROF_DB"
  build "$d/cc3" CC="ccache $P gcc" && rm -rf "$d/cc3/p.out" && find "$d/cc3" -name '*.pp.json' -exec rm {} + &&
    ccache -z >/dev/null && build "$d/cc3" CC="ccache $P gcc" && h=$(stat hits)
  if [ "${h:-0}" -eq 12 ] && reports "$d/cc3/p.out"; then ok db "a rebuild from the cache reports through PATHPROF_DB"
  else nok db "${h:-?} hits; report: $(why_report "$d/cc3/p.out")"; fi
  unset PATHPROF_DB CCACHE_DIR
fi

# make -j8 through pathcc, three clean builds
cp -r "$s" "$d/par"
bad=""
for r in 1 2 3; do
  rm -f "$d/par/p.out"
  build "$d/par" CC="$P" || { bad="$bad build $r failed: $(grep -m1 -i 'error\|warning' "$d/par/make.log");"; continue; }
  grep -q 'pathcc:' "$d/par/make.log" && bad="$bad build $r: $(grep -m1 'pathcc:' "$d/par/make.log");"
  cmp -s "$d/plain/out.txt" "$d/par/out.txt" || bad="$bad build $r prints another result;"
  reports "$d/par/p.out" || bad="$bad build $r: no report: $(why_report "$d/par/p.out");"
  mkdir -p "$d/snap$r" && (cd "$d/par" && find . \( -name '*.o' -o -name '*.pp.json' -o -name prog \) -exec cp --parents -t "$d/snap$r" {} +)
done
for r in 2 3; do
  diff -r "$d/snap1" "$d/snap$r" >/dev/null 2>&1 || bad="$bad build $r's objects or tables differ from build 1's: $(diff -rq "$d/snap1" "$d/snap$r" 2>&1 | head -1);"
done
[ -z "$bad" ] && ok make-j8 "three clean builds, identical objects, tables and output" || nok make-j8 "$bad"
# the same with every unit's tables in one PATHPROF_DB directory
cp -r "$s" "$d/pardb"
export PATHPROF_DB="$d/db"; mkdir -p "$PATHPROF_DB"
bad=""
for r in 1 2 3; do
  build "$d/pardb" CC="$P" || bad="$bad build $r failed;"
done
n=$(ls "$PATHPROF_DB" | grep -c '\.pp\.json$')
[ "$n" = 12 ] || bad="$bad $n tables in PATHPROF_DB, want 12;"
reports "$d/pardb/p.out" || bad="$bad no report: $(why_report "$d/pardb/p.out");"
# three runs merged into one profile: three times the path executions of one run
one=$(executions "$d/par/p.out"); three=$(executions "$d/pardb/p.out")
[ -n "$one" ] && [ "$three" = $((3 * one)) ] || bad="$bad three runs merged count ${three:-?} path executions, one run ${one:-?};"
unset PATHPROF_DB
[ -z "$bad" ] && ok make-j8-db || nok make-j8-db "$bad"
finish
