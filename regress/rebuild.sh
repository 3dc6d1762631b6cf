#!/bin/sh
# The Debian rebuild (make check-rebuild): C source packages built as Debian builds them, plainly
# and through pathcc's masquerade, each running its own tests; compares build and test results
# and warnings, and writes the table of regress/out/rebuild/table.md.
# Usage: sh regress/rebuild.sh [PKG...]   (default: every package of regress/rebuild-packages.txt)
# Environment: REBUILD_JOBS (parallel jobs of one build, default 2), REBUILD_TIMEOUT (seconds a
# build may take, default 3600), REBUILD_KEEP=1 keeps the build trees. Needs root (apt-get).
top=$(cd "$(dirname "$0")/.." && pwd)
d="$top/regress/out/rebuild"
mkdir -p "$d"
jobs=${REBUILD_JOBS:-2}
limit=${REBUILD_TIMEOUT:-3600}
list="$top/regress/rebuild-packages.txt"
pkgs="$*"
[ -n "$pkgs" ] || pkgs=$(grep -v '^#' "$list" | awk 'NF { print $1 }')
if [ "$(id -u)" != 0 ]; then echo "not ok rebuild: needs root (apt-get source and build-dep)"; exit 1; fi
sh "$top/scripts/deps.sh" dpkg-dev devscripts fakeroot gpgv >/dev/null 2>&1 || { echo "not ok rebuild: cannot install dpkg-dev"; exit 1; }
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS CC CFLAGS

. "$top/regress/debsrc.sh"   # cache, apt_src, debsrc_fetch, debsrc_deps

# A masquerade directory: the compiler names Debian's builds use, each a link to pathcc, which
# then runs the compiler of that name found later on PATH.
masq="$d/masq"
mkdir -p "$masq"
# C++ drivers too: they link C objects (a Python extension's, through g++) and must add the
# runtime; the C++ they compile passes through.
m=$(gcc -dumpmachine)
for n in cc gcc c99 c89 "$m-gcc" "$m-gcc-12" gcc-12 c++ g++ g++-12 "$m-g++" "$m-g++-12"; do
  ln -sfn "$top/bin/pathcc" "$masq/$n"
done

# One build of the package: plain or through the masquerade. Leaves rc, seconds and build.log in
# $d/PKG/HOW; the pathcc build's processes merge their counts into one profile there.
build_one() {  # pkg how srcdir
  w="$d/$1/$2"
  rm -rf "$w"; mkdir -p "$w"
  cp -a "$3" "$w/src"
  start=$(date +%s)
  if [ "$2" = pathcc ]; then
    (cd "$w/src" && PATH="$masq:$PATH" PATHPROF_FILE="$w/profile.out" DEB_BUILD_OPTIONS="parallel=$jobs" \
       timeout "$limit" dpkg-buildpackage -B -uc -us -d) >"$w/build.log" 2>&1
  else
    (cd "$w/src" && DEB_BUILD_OPTIONS="parallel=$jobs" timeout "$limit" dpkg-buildpackage -B -uc -us -d) >"$w/build.log" 2>&1
  fi
  echo $? >"$w/rc"
  echo $(( $(date +%s) - start )) >"$w/seconds"
}

# Counts of one build's log: compiler warnings, pathcc's own warnings, test lines that failed.
warnings() { grep -c 'warning:' "$1" 2>/dev/null || true; }
pathcc_notes() { grep -c '^pathcc: \(warning\|note\|error\)' "$1" 2>/dev/null || true; }
# The tests a build's log says failed, one name a line, sorted: automake's FAIL/XPASS/ERROR lines,
# ctest's and meson's failed lines (a package whose tests fail alike both ways, say under root,
# is judged by these, not by its exit status alone).
failed_tests() {
  sed -n -e 's/^\(FAIL\|XPASS\|ERROR\): *\([^ ]*\).*/\2/p' \
         -e 's/^[[:space:]]*[0-9]* - \(.*\) (Failed)$/\1/p' \
         -e 's|^ *[0-9]*/[0-9]* \(.*[^ ]\) *FAIL .*|\1|p' "$1" 2>/dev/null | sort -u
}

# The row of package $1: what the two builds did, the profile's functions and dropped ends.
row() {  # pkg system
  p="$d/$1/plain" q="$d/$1/pathcc"
  prc=$(cat "$p/rc" 2>/dev/null || echo -) qrc=$(cat "$q/rc" 2>/dev/null || echo -)
  ps=$(cat "$p/seconds" 2>/dev/null || echo 0) qs=$(cat "$q/seconds" 2>/dev/null || echo 0)
  ratio=-; [ "$ps" -gt 0 ] 2>/dev/null && ratio=$(awk "BEGIN { printf \"%.2f\", $qs / $ps }")
  funcs=- dropped=-
  if [ -s "$q/profile.out" ]; then
    (cd "$q/src" && "$top/bin/pathprof" report --top 1 "$q/profile.out") >"$q/report.txt" 2>&1
    funcs=$(sed -n 's/^pathprof report: .*units, \([0-9]*\) functions.*/\1/p' "$q/report.txt" | head -1)
    dropped=$(grep -c -i 'dropped' "$q/report.txt" || true)
  fi
  failed_tests "$p/build.log" >"$p/failed-tests"; failed_tests "$q/build.log" >"$q/failed-tests"
  if [ "$prc" = 0 ] && [ "$qrc" = 0 ]; then verdict=same
  elif [ "$prc" != 0 ] && [ "$qrc" != 0 ] && ! cmp -s "$p/failed-tests" "$q/failed-tests"; then verdict="tests differ"
  elif [ "$prc" != 0 ] && [ "$qrc" != 0 ] && [ -s "$p/failed-tests" ]; then
    verdict="same tests fail ($(wc -l <"$p/failed-tests"))"
  elif [ "$prc" != 0 ] && [ "$qrc" != 0 ]; then verdict="both fail"
  elif [ "$prc" != 0 ]; then verdict="plain fails"
  else verdict="pathcc fails"; fi
  echo "| $1 | $2 | $prc | $qrc | $verdict | $(warnings "$p/build.log") | $(warnings "$q/build.log") | $(pathcc_notes "$q/build.log") | ${funcs:--} | $dropped | $ratio |"
}

# The table lists every package of the sample that has a row, in the sample's order: runs over
# parts of the sample (or a rerun of one package) add up to one table.
write_table() {
  {
    echo "| package | build | plain rc | pathcc rc | verdict | warnings plain | warnings pathcc | pathcc notes | functions | dropped lines | time ratio |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    for p in $(grep -v '^#' "$list" | awk 'NF { print $1 }'); do cat "$d/$p/row" 2>/dev/null; done
  } >"$d/table.md"
}

pass=0; fail=0; skip=0
for pkg in $pkgs; do
  system=$(awk -v p="$pkg" '$1 == p { print $2 }' "$list"); system=${system:-?}
  mkdir -p "$d/$pkg"
  src=$(debsrc_fetch "$pkg")
  if [ -z "$src" ]; then echo "skip rebuild $pkg: apt-get source failed ($cache/src/$pkg.log)"; skip=$((skip + 1)); continue; fi
  if ! debsrc_deps "$pkg" "$d/$pkg/deps.log"; then echo "skip rebuild $pkg: build dependencies not installed ($d/$pkg/deps.log)"; skip=$((skip + 1)); continue; fi
  build_one "$pkg" plain "$src"
  build_one "$pkg" pathcc "$src"
  r=$(row "$pkg" "$system")
  echo "$r" >"$d/$pkg/row"
  write_table
  case "$r" in
    *"| same |"*|*"| same tests fail "*|*"| both fail |"*) echo "ok rebuild $pkg"; pass=$((pass + 1)) ;;
    *) echo "not ok rebuild $pkg: $(echo "$r" | cut -d'|' -f6) (logs in $d/$pkg)"; fail=$((fail + 1)) ;;
  esac
  [ -n "${REBUILD_KEEP:-}" ] || rm -rf "$d/$pkg/plain/src" "$d/$pkg/pathcc/src"
done
cat "$d/table.md"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
