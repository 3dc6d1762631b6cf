#!/bin/sh
# Seeds the fuzz corpora (regress/fuzz/corpus/{profile,tables,import}) from real files: samples built
# with pathcc and run, their profiles (one in continuous mode) and tables, tiny.c in every mode (kpath
# forests, ppp sets with residual paths, edge counters, osp hot lists), exitcall.c's partial paths, and text dumps of
# regress/fuzz/dumptext.c, and a profile with per-test counts.
top=$(cd "$(dirname "$0")/../.." && pwd)
c=${1:-$top/build/fuzz/corpus}
w=$(mktemp -d "${TMPDIR:-/tmp}/pathprof-seed.XXXXXX") || exit 1
mkdir -p "$c/profile" "$c/tables" "$c/import"
for s in recursion switch loops manypaths goto sort exitcall; do  # exitcall: partial paths (PART)
  (cd "$w" && "$top/bin/pathcc" gcc -std=c99 -O1 -o "$s" "$top/samples/$s.c" >/dev/null 2>&1 &&
   PATHPROF_FILE="$w/$s.out" timeout 20 "./$s" >/dev/null 2>&1) || continue
  cp "$w/$s.out" "$c/profile/$s.out" && cp "$w/$s.out" "$c/import/$s.out"
  for t in "$w/$s"-*.pp.json; do cp "$t" "$c/tables/$(basename "$t")"; done
done
(cd "$w" && "$top/bin/pathcc" gcc -std=c99 -O1 --array-limit=2 -o manyhash "$top/samples/manypaths.c" >/dev/null 2>&1 &&
 PATHPROF_FILE="$w/manyhash.out" timeout 20 ./manyhash >/dev/null 2>&1 && cp "$w/manyhash.out" "$c/profile/")
(cd "$w" && "$top/bin/pathcc" gcc -std=c99 -O1 -I"$top/include" -o dumptext "$top/regress/fuzz/dumptext.c" >/dev/null 2>&1 &&
 PATHPROF_FILE=/dev/null timeout 20 ./dumptext >"$c/import/dumptext.log" 2>/dev/null)
(cd "$w" && "$top/bin/pathcc" --continuous gcc -std=c99 -O1 --hash-cap=4 --array-limit=2 -o cont "$top/samples/switch.c" >/dev/null 2>&1 &&
 PATHPROF_FILE="$w/cont.out%c" timeout 20 ./cont >/dev/null 2>&1 &&
 python3 "$top/regress/fuzz/repage.py" "$w/cont.out" "$c/profile/continuous.out")  # 64-byte pages: small
cp "$top/regress/fuzz/tiny.c" "$w/t.c"  # a short source path keeps the tables small
(cd "$w" && "$top/bin/pathcc" gcc -std=c99 -O1 -o tiny t.c >/dev/null 2>&1 &&
 PATHPROF_FILE="$w/tiny.out" timeout 20 ./tiny >/dev/null 2>&1 && cp "$w/tiny.out" "$c/profile/")
(cd "$w" && PATHPROF_FILE="$w/tests.out" PATHPROF_TEST=one timeout 20 ./tiny >/dev/null 2>&1 &&
 PATHPROF_FILE="$w/tests.out" PATHPROF_TEST="test two" timeout 20 ./tiny x >/dev/null 2>&1 &&
 cp "$w/tests.out" "$c/profile/tiny-tests.out")  # per-test counts (TEST records, version 2)
for m in kpath edge osp ppp; do  # the other modes' tables and profile records, from the same program
  case $m in kpath) o="--mode=kpath --k=3";; ppp) o="--mode=ppp --interesting=hot:50%:$w/tiny.out";; *) o=--mode=$m;; esac
  mkdir -p "$w/$m" && cp "$w/t.c" "$w/$m/t.c"
  (cd "$w/$m" && "$top/bin/pathcc" $o gcc -std=c99 -O1 -o tiny t.c >/dev/null 2>&1 &&
   PATHPROF_FILE="$w/$m/tiny.out" timeout 20 ./tiny >/dev/null 2>&1 &&
   cp tiny-t.pp.json "$c/tables/tiny-$m.pp.json" &&
   if [ $m = osp ]; then cp pathprof.osp "$c/profile/tiny-osp.out"; else cp tiny.out "$c/profile/tiny-$m.out"; fi)
done
cp "$w"/dumptext-*.pp.json "$w"/tiny-t.pp.json "$c/tables/" 2>/dev/null
rm -rf "$w"
n=$(find "$c" -type f | wc -l)
[ "$n" -ge 10 ] || { echo "seed: only $n seed files in $c" >&2; exit 1; }
