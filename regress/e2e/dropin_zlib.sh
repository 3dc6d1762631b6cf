#!/bin/sh
# GCC's zlib (Debian's gcc-12-source) through pathcc, against the same build with plain gcc:
#  - its own configure with CC=pathcc and make build libz.a with every unit instrumented; example and
#    minigzip compiled by pathcc against it behave as the plain ones: example's output, minigzip's
#    compressed bytes at levels 1, 6 and 9, a round trip, and gzip -d reading minigzip's output;
#    the profile reports over zlib's sources;
#  - with REGRESS_FULL (make check-full) also its CMakeLists.txt with -DCMAKE_C_COMPILER=pathcc:
#    shared and static libz, example and minigzip (and their 64-bit-offset twins), ctest, and a
#    report over the shared libz's units.
NAME=zlib
. "$(dirname "$0")/../dropin-lib.sh"
src=$(sh "$top/regress/gccsrc.sh" zlib include)
if [ -z "$src" ] || [ ! -f "$src/zlib/deflate.c" ]; then skip zlib "gcc-12-source is not available"; finish; fi
z="$src/zlib"
cat "$z"/*.c "$z"/*.h "$z/ChangeLog" >"$d/input"     # about 500 kB of text to compress
build() {  # side CC: configure + make, then example and minigzip against libz.a
  mkdir -p "$d/$1" && cd "$d/$1" || return 1
  "$z/configure" CC="$2" >configure.log 2>&1 || { echo "configure failed: $(tail -1 configure.log)"; return 1; }
  make -j2 >make.log 2>&1 || { echo "make failed: $(grep -m1 -i error make.log)"; return 1; }
  for p in example minigzip; do
    $2 -O2 -I"$z" -o $p "$z/test/$p.c" libz.a >>make.log 2>&1 || { echo "$p does not build: $(grep -m1 -i error make.log)"; return 1; }
  done
}
# exercise side: example's output; minigzip at three levels, round trips, gzip -d on the result
exercise() {
  cd "$d/$1" && mkdir -p run && cd run || return 1
  export PATHPROF_FILE="$d/$1/z.out"
  ../example >example.out 2>&1; echo $? >example.rc
  for l in 1 6 9; do
    ../minigzip -$l <"$d/input" >in$l.gz && ../minigzip -d <in$l.gz >out$l && cmp -s out$l "$d/input" && echo ok >rt$l
    gzip -dc <in$l.gz 2>/dev/null | cmp -s - "$d/input" && echo ok >gz$l
  done
  cp "$d/input" file && ../minigzip file && ../minigzip -d file.gz && cmp -s file "$d/input" && echo ok >rtfile
  unset PATHPROF_FILE
}
if ! msg=$(build plain gcc); then skip zlib "the plain gcc build does not work here: $msg"; finish; fi
exercise plain
if msg=$(build pathcc "$P"); then ok build "configure CC=pathcc, make, example, minigzip"
else nok build "$msg"; finish; fi
if grep -q 'pathcc: \(warning\|error\)' "$d/pathcc/make.log"; then nok instrumented "$(grep -m1 'pathcc:' "$d/pathcc/make.log")"
else
  n=$(ls "$d/pathcc" | grep -c '^libz_a-.*\.pp\.json$')
  [ "$n" = 15 ] && ok instrumented "15 units of libz.a" || nok instrumented "$n tables for libz.a's 15 units"
fi
exercise pathcc
p="$d/plain/run" q="$d/pathcc/run"
cmp -s "$p/example.out" "$q/example.out" && [ "$(cat "$q/example.rc")" = 0 ] && ok example ||
  nok example "example's output or status differs from the plain build's: $(diff "$p/example.out" "$q/example.out" | grep -m1 '^[<>]')"
for l in 1 6 9; do
  if [ -f "$q/rt$l" ] && [ -f "$q/gz$l" ] && cmp -s "$p/in$l.gz" "$q/in$l.gz"; then ok "minigzip-$l" "round trip, gzip -d, same bytes as plain"
  else nok "minigzip-$l" "round trip $( [ -f "$q/rt$l" ] && echo ok || echo FAILS), gzip -d $( [ -f "$q/gz$l" ] && echo ok || echo FAILS), bytes $(cmp -s "$p/in$l.gz" "$q/in$l.gz" && echo same || echo differ from the plain build)"; fi
done
[ -f "$q/rtfile" ] && ok minigzip-file || nok minigzip-file "minigzip file; minigzip -d file.gz does not give the file back"
if "$R" report --top 1000 "$d/pathcc/z.out" >"$d/report.txt" 2>"$d/report.err" && [ ! -s "$d/report.err" ] &&
   grep -q '^deflate (deflate.c:' "$d/report.txt" && grep -q '^inflate (inflate.c:' "$d/report.txt" &&
   grep -q '^main (minigzip.c:' "$d/report.txt"; then
  ok report "$(head -1 "$d/report.txt" | sed 's/.*: \([0-9]* units\)/\1/')"
else nok report "pathprof report: $(head -1 "$d/report.err"), deflate, inflate or minigzip's main missing"; fi

if ! full; then skip cmake "zlib's CMake build runs with REGRESS_FULL=1 (make check-full)"; finish; fi
if ! command -v cmake >/dev/null 2>&1; then skip cmake "cmake is not installed"; finish; fi
# zlib's CMakeLists.txt renames zconf.h in its source directory: build from private copies
for k in plain pathcc; do
  cc=gcc; [ $k = pathcc ] && cc="$P"
  cp -r "$z" "$d/cmake-src-$k" && mkdir -p "$d/cmake-$k" && cd "$d/cmake-$k" || exit 1
  { cmake "$d/cmake-src-$k" -DCMAKE_C_COMPILER="$cc" && make -j2; } >build.log 2>&1; echo $? >build.rc
  PATHPROF_FILE="$d/cmake-$k/ctest.out" ctest >ctest.log 2>&1; echo $? >ctest.rc
  mkdir -p run && cd run && PATHPROF_FILE="$d/cmake-$k/z.out" ../minigzip64 -9 <"$d/input" >in.gz &&
    PATHPROF_FILE="$d/cmake-$k/z.out" ../minigzip -d <in.gz >out && cmp -s out "$d/input" && echo ok >rt
done
c="$d/cmake-pathcc"
if [ "$(cat "$d/cmake-plain/build.rc")" != 0 ]; then skip cmake "the plain CMake build fails here"; finish; fi
[ "$(cat "$c/build.rc")" = 0 ] && ! grep -q 'pathcc: \(warning\|error\)' "$c/build.log" && ok cmake-build ||
  nok cmake-build "cmake -DCMAKE_C_COMPILER=pathcc && make: $(grep -m1 'pathcc:\|rror' "$c/build.log")"
[ "$(cat "$c/ctest.rc")" = 0 ] && ok cmake-ctest "$(grep 'tests passed' "$c/ctest.log")" || nok cmake-ctest "$(grep 'tests passed\|failed' "$c/ctest.log" | head -1)"
[ -f "$c/run/rt" ] && cmp -s "$d/cmake-plain/run/in.gz" "$c/run/in.gz" && ok cmake-minigzip ||
  nok cmake-minigzip "minigzip64 -9 | minigzip -d does not round-trip or differs from the plain build's bytes"
# minigzip links the shared libz: the profile must hold libz.so's units
if "$R" report --top 100 "$c/z.out" >"$d/cmake-report.txt" 2>"$d/cmake-report.err" && [ ! -s "$d/cmake-report.err" ] &&
   grep -q '^deflate (deflate.c' "$d/cmake-report.txt" && grep -q '^main (minigzip.c' "$d/cmake-report.txt"; then
  ok cmake-shared-report "minigzip and libz.so's units"
else nok cmake-shared-report "$(head -1 "$d/cmake-report.err") $(grep -c '(deflate.c' "$d/cmake-report.txt") deflate.c functions"; fi
finish
