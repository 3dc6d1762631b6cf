#!/bin/sh
# GCC's libiberty built with ./configure CC=pathcc: make and make check pass exactly as with plain
# gcc, and the profile its test suite writes yields a report over libiberty's sources.
# make check-full only: zlib's configure, make and test (dropin_zlib.sh) stand for it in make check.
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${REGRESS_FULL:-}" ]; then echo "skip libiberty: libiberty built twice with its make check; runs in make check-full"; exit 0; fi
out="$top/regress/out/libiberty"
src=$(sh "$top/regress/gccsrc.sh" libiberty include) || exit 1
if [ -z "$src" ]; then echo "skip libiberty: gcc-12-source is not available"; exit 0; fi
rm -rf "$out" && mkdir -p "$out/plain" "$out/pathcc" || exit 1
build() {  # dir, CC
  cd "$out/$1" || return 1
  start=$(date +%s.%N)
  "$src/libiberty/configure" CC="$2" >configure.log 2>&1 || { echo "configure failed"; return 1; }
  make -j2 >make.log 2>&1 || { echo "make failed: $(grep -m1 -i error make.log)"; return 1; }
  end=$(date +%s.%N)
  make check >check.log 2>&1
  echo "$start $end" >time.txt
  grep -E '^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED)' check.log | sort >results.txt
  return 0
}
build plain gcc || { echo "skip libiberty: the plain build does not work here"; exit 0; }
if build pathcc "$top/bin/pathcc"; then echo "ok libiberty: configure and make with CC=pathcc"
else echo "not ok libiberty: configure or make with CC=pathcc: $(tail -1 "$out/pathcc/make.log")"; exit 0; fi
if grep -q "pathcc: warning" "$out/pathcc/make.log"; then
  echo "not ok libiberty: pathcc fell back: $(grep -m1 'pathcc: warning' "$out/pathcc/make.log")"
else echo "ok libiberty: every unit instrumented"; fi
n=$(wc -l <"$out/plain/results.txt")
if [ "$n" -gt 0 ] && cmp -s "$out/plain/results.txt" "$out/pathcc/results.txt"; then
  echo "ok libiberty: make check gives the same $n results as the plain build"
else
  echo "not ok libiberty: make check differs from the plain build: $(diff "$out/plain/results.txt" "$out/pathcc/results.txt" | head -3 | tr '\n' ' ')"
fi
prof=$(find "$out/pathcc/testsuite" -name 'pathprof.out*' | head -1)
if [ -n "$prof" ] && "$top/bin/pathprof" report --top 5 "$prof" >"$out/report.txt" 2>&1 && grep -q 'cp-demangle.c' "$out/report.txt"; then
  echo "ok libiberty: the test suite's profile reports over libiberty's sources"
else
  echo "not ok libiberty: no usable profile from make check: $(head -2 "$out/report.txt" 2>/dev/null)"
fi
awk '{ print $2 - $1 }' "$out/plain/time.txt" "$out/pathcc/time.txt" | tr '\n' ' ' |
  awk '{ printf "# libiberty build (configure + make -j2): plain %.1f s, pathcc %.1f s, ratio %.2f\n", $1, $2, $2 / $1 }'
