#!/bin/sh
# Loop counter promotion (translator/pathcc/promote.c): regress/cases/tightloops.c has 12 loops that qualify; each update policy promotes them, ppp's slots those whose round path is interesting and counts exactly what single counting without promotion would (the trace oracle checks the default build in exact.sh); edge mode promotes them too and counts what its continuous build counts; 32-bit counters, continuous mode and kpath mode keep every count in memory.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=promote
. "$top/regress/private.sh"
src=$top/regress/cases/tightloops.c
# build NAME PATHCC-FLAGS...: d/NAME with its preprocessed output kept; prints its promoted loops
build() {
  n=$1; shift
  kept "$n" -std=c99 "$@" || { echo x; return; }
  grep -o 'unsigned long long __pathprof_l[0-9]* = 0' "$out/$n"/prog-tightloops.i | wc -l
}
# dump DIR: its decoded profile, units named alike (the checksum covers the options)
dump() { "$top/bin/pathprof" dump --decode "$1/prof.out" | sed -E 's/^([POD]) [0-9a-f]{16}/\1 unit/' >"$1/dump.txt"; }
for v in "single --update=single" "atomic --update=atomic" "shards --update=prefer-atomic"; do
  set -- $v
  got=$(build "$@")
  if [ "$got" != 12 ]; then echo "not ok promote-$1: $got loops promoted, want 12 ($(head -1 "$out/$1/build.log"))"; continue; fi
  (cd "$out/$1" && PATHPROF_FILE=prof.out $run ./prog >stdout) && dump "$out/$1" ||
    { echo "not ok promote-$1: run or dump failed"; continue; }
  echo "ok promote-$1: 12 loops"
done
# the reference: the same program with every loop's counts in memory (a 32-bit build promotes
# nothing; its counts must equal the promoted builds')
got=$(build bits32 --counter-bits=32)
[ "$got" = 0 ] && echo "ok promote-bits32-none" || echo "not ok promote-bits32-none: $got loops promoted"
(cd "$out/bits32" && PATHPROF_FILE=prof.out $run ./prog >stdout) && dump "$out/bits32"
# ppp slots: the paths of the single build's run are interesting, so the round paths that ran have
# slots: all but the one of sums()'s last loop, which never goes round a second time
got=$(build ppp --mode=ppp --interesting="$out/single/prof.out")
if [ "$got" = 11 ] && (cd "$out/ppp" && PATHPROF_FILE=prof.out $run ./prog >stdout) && dump "$out/ppp"; then echo "ok promote-ppp: 11 loops"
else echo "not ok promote-ppp: $got loops promoted, want 11, or the run failed ($(head -1 "$out/ppp/build.log"))"; fi
for p in single atomic shards ppp; do
  [ -s "$out/$p/dump.txt" ] || continue
  if python3 "$top/regress/countcmp.py" "$out/bits32/dump.txt" "$out/$p/dump.txt" 1 >"$out/$p/cmp.txt" 2>&1; then echo "ok promote-$p-counts"
  else echo "not ok promote-$p-counts: $(head -1 "$out/$p/cmp.txt")"; fi
done
for v in "continuous --continuous" "kpath --mode=kpath" "edge-continuous --mode=edge --continuous"; do
  set -- $v
  got=$(build "$@")
  [ "$got" = 0 ] && echo "ok promote-$1-none" || echo "not ok promote-$1-none: $got loops promoted"
done
# edge mode promotes the same loops (their counters round them settle at the exit): its edge
# counts equal those of the continuous edge build, which keeps every count in memory
got=$(build edge --mode=edge)
if [ "$got" = 12 ] && (cd "$out/edge" && PATHPROF_FILE=prof.out $run ./prog >stdout) &&
   (cd "$out/edge-continuous" && PATHPROF_FILE=prof.out $run ./prog >stdout); then
  for p in edge edge-continuous; do (cd "$out/$p" && "$top/bin/pathprof" coverage --format json -o cov.json prof.out); done
  if python3 - "$out/edge/cov.json" "$out/edge-continuous/cov.json" <<'PY'
import json, sys
def edges(p):
    return sorted((f["file"], fn["name"], e["src"], e["dst"], e["kind"], e["count"])
                  for f in json.load(open(p))["files"] for fn in f["functions"] for e in fn["edge_counts"])
a, b = edges(sys.argv[1]), edges(sys.argv[2])
sys.exit(0 if a == b and any(e[5] for e in a) else 1)
PY
  then echo "ok promote-edge: 12 loops, edge counts equal the unpromoted build's"
  else echo "not ok promote-edge: edge counts differ from the continuous build's"; fi
else
  echo "not ok promote-edge: $got loops promoted, want 12, or a run failed"
fi
