#!/bin/sh
# Shared objects under stress, against the trace oracle: a plain host linked with one instrumented shared object and dlopening eight more and a ninth whose handler of a signal raised at depth recurses too, each object with its own runtime (all built --trace with pathcc -shared -fPIC); recursion thousands of activations deep with calls between the objects at depth, on a heap whose free memory holds all ones; a fork whose child recurses and exits (its trace sent to a file of its own); dlclose of several objects before the end. Each object's paths in the one profile equal what its part of the traces gives.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=sostress
. "$top/regress/private.sh"
d=$E2E_DIR
P=$top/bin/pathcc
lib=$top/regress/e2e/sostress_lib.c
B=8
libs=""
(
  cd "$d" && "$P" --trace $CC -O2 -fPIC -shared -DPART=1 -o liba.so "$lib" && "$P" --trace $CC -O2 -fPIC -shared -DPART=3 -o libc.so "$lib" &&
    for i in $(seq 1 $B); do "$P" --trace $CC -O2 -fPIC -shared -DPART=2 -DID=$i -o "libb$i.so" "$lib" || exit 1; done &&
    $CC -O2 -o host "$top/regress/e2e/sostress_host.c" ./liba.so -ldl -Wl,-rpath,"$d"
) >"$d/build.log" 2>&1
if [ $? != 0 ] || [ -s "$d/build.log" ]; then echo "not ok sostress-build: $(head -1 "$d/build.log")"; exit 0; fi
for i in $(seq 1 $B); do libs="$libs $d/libb$i.so"; done
# shellcheck disable=SC2086
(cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" timeout 120 ./host "$d/libc.so" "$d/child.txt" $libs >out.txt 2>err.txt); rc=$?
if [ $rc != 0 ]; then echo "not ok sostress-run: exit status $rc: $(head -1 "$d/err.txt")"; exit 0; fi
echo "ok sostress-run"
if ! "$top/bin/pathprof" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>"$d/decoded.err"; then
  echo "not ok sostress-profile: $(head -1 "$d/decoded.err")"; exit 0
fi
# the oracle on each object alone: its lines of both traces (each runtime buffers its own, so the
# objects' lines interleave by buffers, in order within each object) and its counts
n=0
for t in "$d"/*.pp.json; do
  cs=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["checksum"].lower())' "$t")
  cat "$d/trace.txt" "$d/child.txt" | grep -i "^[A-Z] $cs " >"$d/trace.$cs"
  awk -v c="$cs" 'tolower($2) == c' "$d/decoded.txt" >"$d/decoded.$cs"
  python3 "$top/regress/oracle.py" --name "sostress $(basename "$t" .pp.json)" --trace "$d/trace.$cs" --decoded "$d/decoded.$cs" "$t" | grep -v '^#'
  n=$((n + 1))
done
[ $n = $((B + 2)) ] && echo "ok sostress-tables" || echo "not ok sostress-tables: $n tables for $((B + 2)) objects"
