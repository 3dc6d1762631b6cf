#!/bin/sh
# GCC's libbacktrace built with ./configure CC=pathcc (REGRESS_FULL only: make check-full): configure
# finds what it finds with plain gcc (same config.h), make and make check pass exactly as with plain
# gcc (all 33 tests here, ttest's threads included, btest's and stest's frame and line checks), and
# the profile make check writes reports over libbacktrace's sources.
NAME=libbacktrace
. "$(dirname "$0")/../dropin-lib.sh"
if ! full; then skip libbacktrace "runs with REGRESS_FULL=1 (make check-full)"; finish; fi
src=$(sh "$top/regress/gccsrc.sh" libbacktrace include)
if [ -z "$src" ] || [ ! -f "$src/libbacktrace/backtrace.c" ]; then skip libbacktrace "gcc-12-source is not available"; finish; fi
build() {  # dir CC
  mkdir -p "$d/$1" && cd "$d/$1" || return 1
  "$src/libbacktrace/configure" CC="$2" >configure.log 2>&1 || { echo "configure failed: $(tail -1 configure.log)"; return 1; }
  make -j2 >make.log 2>&1 || { echo "make failed: $(grep -m1 -i error make.log)"; return 1; }
  rm -f pathprof.out   # configure's test programs ran instrumented too; their tables are gone
  PATHPROF_FILE="$d/$1/check.out" make -j2 check >check.log 2>&1
  grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR|UNRESOLVED):' check.log | sort >results.txt
  return 0
}
if ! msg=$(build plain gcc); then skip libbacktrace "the plain gcc build does not work here: $msg"; finish; fi
if msg=$(build pathcc "$P"); then ok build "configure CC=pathcc, make"
else nok build "$msg"; finish; fi
cmp -s "$d/plain/config.h" "$d/pathcc/config.h" && ok config-h "configure found the same" ||
  nok config-h "config.h differs from plain gcc's: $(diff "$d/plain/config.h" "$d/pathcc/config.h" | grep -m1 '^[<>]')"
if grep -q 'pathcc: \(warning\|error\)' "$d/pathcc/make.log" "$d/pathcc/check.log"; then
  nok instrumented "pathcc fell back: $(grep -h -m1 'pathcc: \(warning\|error\)' "$d/pathcc/make.log" "$d/pathcc/check.log" | head -1)"
else ok instrumented "$(find "$d/pathcc" -name '*.pp.json' | wc -l) units, no fallback"; fi
n=$(wc -l <"$d/plain/results.txt")
if [ "$n" -gt 0 ] && cmp -s "$d/plain/results.txt" "$d/pathcc/results.txt"; then
  ok check "make check gives the same $n results as plain gcc ($(grep -c '^PASS' "$d/pathcc/results.txt") PASS)"
else
  nok check "make check differs from plain gcc: $(diff "$d/plain/results.txt" "$d/pathcc/results.txt" | grep '^[<>]' | head -3 | tr '\n' ' ')"
fi
grep -qx 'PASS: ttest' "$d/pathcc/results.txt" && ok threads "ttest passes" || nok threads "ttest: $(grep ': ttest$' "$d/pathcc/results.txt")"
if "$R" report --top 1000 "$d/pathcc/check.out" >"$d/report.txt" 2>"$d/report.err" && [ ! -s "$d/report.err" ] &&
   grep -q '^backtrace_full (backtrace.c:' "$d/report.txt" && grep -q '(dwarf.c:' "$d/report.txt" &&
   grep -q '(elf.c:' "$d/report.txt"; then
  ok report "$(head -1 "$d/report.txt" | sed 's/.*: \([0-9]* units\)/\1/')"
else nok report "pathprof report on make check's profile: $(head -1 "$d/report.err")"; fi
finish
