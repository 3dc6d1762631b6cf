#!/bin/sh
# samples/cmake (a static library, a shared library and a program) configured with
# -DCMAKE_C_COMPILER=bin/pathcc: CMake identifies GNU, the build is warning-free, the program behaves
# as the plain gcc build does, CMake's dependency files are the plain build's byte for byte (and a
# touched header rebuilds every unit), and `pathprof report` covers the program and both libraries;
# and pathcc as compiler and linker launcher.
NAME=cmake
. "$(dirname "$0")/../dropin-lib.sh"
if ! command -v cmake >/dev/null 2>&1; then skip cmake "cmake is not installed"; finish; fi
srcdir="$d/src"   # a copy: the test touches a header
mkdir -p "$srcdir" && cp "$top"/samples/cmake/CMakeLists.txt "$top"/samples/cmake/*.[ch] "$srcdir"/ || exit 1
gens="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && gens="$gens
Ninja"
echo "$gens" | while IFS= read -r gen; do
  g=$(echo "$gen" | tr -d ' ' | tr 'A-Z' 'a-z')
  b="$d/$g"
  # plain gcc: the reference
  cmake -G "$gen" -S "$srcdir" -B "$b/plain" -DCMAKE_C_COMPILER=gcc >"$d/$g-plain.log" 2>&1 &&
    cmake --build "$b/plain" >>"$d/$g-plain.log" 2>&1 || { nok "$g-plain" "the plain gcc build fails: $(tail -1 "$d/$g-plain.log")"; continue; }
  (cd "$b/plain" && ./app >app.stdout; echo "$?" >app.rc)
  # pathcc
  if cmake -G "$gen" -S "$srcdir" -B "$b/pathcc" -DCMAKE_C_COMPILER="$P" >"$d/$g-configure.log" 2>&1; then
    ok "$g-configure"
  else nok "$g-configure" "cmake -DCMAKE_C_COMPILER=pathcc: $(grep -m1 -i error "$d/$g-configure.log")"; continue; fi
  t "$g-compiler-id" "CMake does not identify pathcc as GNU: $(grep -m1 'compiler identification' "$d/$g-configure.log")" \
    grep -q 'C compiler identification is GNU' "$d/$g-configure.log"
  if cmake --build "$b/pathcc" >"$d/$g-build.log" 2>&1; then ok "$g-build"
  else nok "$g-build" "cmake --build: $(grep -m1 -i error "$d/$g-build.log")"; continue; fi
  if grep -q 'pathcc: \(warning\|error\)' "$d/$g-build.log"; then nok "$g-no-fallback" "$(grep -m1 'pathcc:' "$d/$g-build.log")"
  else ok "$g-no-fallback"; fi
  n=$(find "$b/pathcc" -name '*.c.pp.json' | wc -l)
  [ "$n" = 3 ] && ok "$g-tables" || nok "$g-tables" "want main.c, wordcount.c and histo.c tables next to their objects, found $n"
  (cd "$b/pathcc" && PATHPROF_FILE="$b/app.out" ./app >app.stdout; echo "$?" >app.rc)
  if cmp -s "$b/plain/app.stdout" "$b/pathcc/app.stdout" && cmp -s "$b/plain/app.rc" "$b/pathcc/app.rc" && [ "$(cat "$b/pathcc/app.rc")" = 0 ]; then
    ok "$g-run"
  else nok "$g-run" "the program's output or exit status differs from the plain build's"; fi
  (cd "$b/pathcc" && PATHPROF_FILE="$b/ctest.out" ctest >ctest.log 2>&1) && ok "$g-ctest" || nok "$g-ctest" "$(tail -1 "$b/pathcc/ctest.log")"
  # dependency files: CMake (3.20+) has the compiler write them; same bytes as the plain build's
  deps=$(cd "$b/plain" && find . -name '*.o.d' | sort)
  if [ "$g" = ninja ]; then  # ninja reads the .d files into its log and deletes them
    for k in plain pathcc; do  # one line per object (build order varies), the object's own order kept
      ninja -C "$b/$k" -t deps | sed 's/#deps.*//' | awk 'NF == 0 { if (l != "") print l; l = ""; next } { l = l " " $1 }' | sort >"$b/$k.deps"
    done
    if [ -s "$b/plain.deps" ] && cmp -s "$b/plain.deps" "$b/pathcc.deps"; then ok "$g-depfiles"
    else nok "$g-depfiles" "ninja -t deps differs from the plain build's: $(diff "$b/plain.deps" "$b/pathcc.deps" | grep -m1 '^[<>]')"; fi
  elif [ -z "$deps" ]; then skip "$g-depfiles" "this CMake does not use compiler depfiles"
  else
    bad=""
    for f in $deps; do cmp -s "$b/plain/$f" "$b/pathcc/$f" || bad="$bad $f"; done
    if [ -z "$bad" ] && ! find "$b/pathcc" -name '*.o.d' -exec grep -l 'pathcc-\|\.pp\.i' {} + | grep -q .; then ok "$g-depfiles"
    else nok "$g-depfiles" "differ from plain gcc's:$bad"; fi
  fi
  # a touched header rebuilds the three units (the dependency files are usable)
  sleep 1; touch "$srcdir/sample.h"
  cmake --build "$b/pathcc" -- $( [ "$g" = ninja ] && echo -v || echo VERBOSE=1) >"$d/$g-rebuild.log" 2>&1
  n=$(grep -c 'pathcc.* -c .*\(main\|wordcount\|histo\)\.c' "$d/$g-rebuild.log")
  [ "$n" = 3 ] && ok "$g-header-rebuild" || nok "$g-header-rebuild" "touching sample.h recompiled $n of 3 units"
  # the report: the program (main), the static library (count_text, is_space) and the shared one (histo_*)
  if "$R" report --top 20 "$b/app.out" >"$b/report.txt" 2>"$b/report.err" && [ ! -s "$b/report.err" ]; then
    miss=""
    for f in 'main (main.c' 'count_text (wordcount.c' 'is_space (wordcount.c' 'histo_add (histo.c' 'histo_print (histo.c'; do
      grep -qF "$f" "$b/report.txt" || miss="$miss ${f%% *}"
    done
    [ -z "$miss" ] && ok "$g-report" "program, static and shared library" || nok "$g-report" "functions missing from the report:$miss"
  else nok "$g-report" "pathprof report: $(head -1 "$b/report.err")"; fi
  # each shared object counts on its own: the library carries the runtime it was linked with,
  # kept to itself (not exported), so the program has its own and neither depends on the other
  if nm "$b/pathcc/libhisto.so" 2>/dev/null | grep -q ' t __pathprof_register' &&
     ! nm -D "$b/pathcc/libhisto.so" 2>/dev/null | grep -q '__pathprof_register' &&
     nm "$b/pathcc/app" 2>/dev/null | grep -q ' [Tt] __pathprof_register'; then ok "$g-shared-runtime"
  else nok "$g-shared-runtime" "libhisto.so and app should each hold their own, unexported, runtime"; fi
done >"$d/results.txt"
# pathcc as CMake's compiler and linker launcher (CMake 3.21+): gcc stays the compiler; the
# links go through pathcc too, which adds the runtime (a compiler launcher alone leaves it out)
b="$d/launcher"
if cmake -S "$srcdir" -B "$b" -DCMAKE_C_COMPILER=gcc -DCMAKE_C_COMPILER_LAUNCHER="$P" -DCMAKE_C_LINKER_LAUNCHER="$P" >"$d/launcher.log" 2>&1 &&
   cmake --build "$b" >>"$d/launcher.log" 2>&1 && ! grep -q 'pathcc: \(warning\|error\)' "$d/launcher.log" &&
   (cd "$b" && PATHPROF_FILE="$b/app.out" ./app >app.stdout) && cmp -s "$d/unixmakefiles/plain/app.stdout" "$b/app.stdout" &&
   "$R" report "$b/app.out" 2>/dev/null | grep -qF 'histo_add (histo.c'; then ok launcher
else nok launcher "-DCMAKE_C_COMPILER_LAUNCHER=pathcc -DCMAKE_C_LINKER_LAUNCHER=pathcc: $(grep -m1 -i 'error\|pathcc:' "$d/launcher.log")"; fi >>"$d/results.txt"
cat "$d/results.txt"
grep -q '^not ok' "$d/results.txt" && failed=1
finish
