#!/bin/sh
# Counts that follow from others (pathcc --derive, translator/pathcc/derive.c): the one-path
# helpers of regress/cases/helpers.c get no counter, and pathprof's counts of every function,
# path and line are those of the same program built with --derive=off (each function counting
# itself), on a run that returns and on one that exits inside main (a partial path); a helper
# of a header compiled into two units is derived in each and counted once per call; a helper
# whose address is taken, or that a function left uninstrumented calls, counts itself.
# (exact.sh checks the derived counts of every sample and case against the trace oracle.)
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=derive
. "$top/regress/private.sh"
P="$top/bin/pathcc" R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS PATHCC_EXCLUDE_FUNCTIONS

# counter NAME DIR: how function NAME counts in DIR's tables ("derived", "array", ...)
counter() { python3 - "$2" "$1" <<'EOF'
import glob, json, sys
for f in glob.glob(sys.argv[1] + '/*.pp.json'):
    for fn in json.load(open(f))['functions']:
        if fn['name'] == sys.argv[2]: print(fn['counter'])
EOF
}
# views DIR: the report and the coverage as JSON without the tables' file names, per run
views() {
  (cd "$1" && "$R" report --top 1000 pathprof.out 2>&1) |
    sed -E 's/paths executed, (counted from its callers. paths|[0-9]+ probes on [0-9]+ edges(, hash table)?)/paths executed/' >"$1/report.txt"
  (cd "$1" && "$R" coverage --format=json pathprof.out 2>/dev/null) | python3 -c '
import json, sys
d = json.load(sys.stdin)
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if k != "tables"}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
print(json.dumps(strip(d), sort_keys=True, indent=1))' >"$1/coverage.json"
}
# same NAME A B: A's report and coverage equal B's
same() {
  if [ ! -s "$2/report.txt" ] || ! grep -q 'path executions' "$2/report.txt"; then echo "not ok derive-$1: no report ($(head -1 "$2/report.txt"))"
  elif ! cmp -s "$2/report.txt" "$3/report.txt"; then echo "not ok derive-$1: reports differ: $(diff "$2/report.txt" "$3/report.txt" | sed -n 2p)"
  elif ! cmp -s "$2/coverage.json" "$3/coverage.json"; then echo "not ok derive-$1: coverage differs: $(diff "$2/coverage.json" "$3/coverage.json" | sed -n 2p)"
  else echo "ok derive-$1"; fi
}

src=$top/regress/cases/helpers.c
for how in on off; do
  for arg in 300 299; do
    w="$out/$how-$arg"; mkdir -p "$w"
    (cd "$w" && "$P" --derive=$how $CC -O2 -o prog "$src" && ./prog $arg >stdout.txt; echo $? >status) >"$w/build.log" 2>&1
    views "$w"
  done
done
for f in type_of incref plus; do
  c=$(counter $f "$out/on-300")
  if [ "$c" = derived ]; then echo "ok derive-helper-$f"; else echo "not ok derive-helper-$f: counts as '$c', want derived"; fi
done
for f in clamp twice walk work main; do
  c=$(counter $f "$out/on-300")
  if [ "$c" = array ]; then echo "ok derive-counted-$f"; else echo "not ok derive-counted-$f: counts as '$c', want array"; fi
done
c=$(counter plus "$out/off-300")
if [ "$c" = array ]; then echo "ok derive-off"; else echo "not ok derive-off: --derive=off, plus counts as '$c'"; fi
same returns "$out/on-300" "$out/off-300"
same exits "$out/on-299" "$out/off-299"
if [ "$(cat "$out/on-299/status")" = "$(cat "$out/off-299/status")" ] && [ "$(cat "$out/on-299/status")" != 0 ]; then
  echo "ok derive-exit-status"
else echo "not ok derive-exit-status: $(cat "$out/on-299/status") / $(cat "$out/off-299/status")"; fi

# A header's helper in two units; one unit's caller excluded from instrumentation (its helper
# copy then counts itself), the other's derived.
w="$out/units"; mkdir -p "$w"
cat >"$w/h.h" <<'EOF'
static inline int sq(int x) { return x * x; }
int a(int), b(int);
EOF
printf '#include "h.h"\nint a(int n) { int s = 0; for (int i = 0; i < n; i++) s += sq(i); return s; }\n' >"$w/a.c"
printf '#include "h.h"\nint b(int n) { return sq(n) + sq(n + 1); }\n' >"$w/b.c"
printf '#include <stdio.h>\n#include "h.h"\nint main(void) { printf("%%d %%d\\n", a(10), b(3)); return 0; }\n' >"$w/m.c"
for how in on off; do
  mkdir -p "$w/$how"
  (cd "$w/$how" && "$P" --derive=$how $CC -O2 -c ../a.c && PATHCC_EXCLUDE_FUNCTIONS=b "$P" --derive=$how $CC -O2 -c ../b.c &&
   "$P" --derive=$how $CC -O2 -o prog ../m.c a.o b.o && ./prog) >"$w/$how/build.log" 2>&1
  views "$w/$how"
done
same units "$w/on" "$w/off"
if grep -q '^sq (h.h:1-1): 12 path executions.*compiled into 3 units' "$w/on/report.txt"; then echo "ok derive-units-count"
else echo "not ok derive-units-count: $(grep '^sq ' "$w/on/report.txt")"; fi
ca=$(python3 -c "import json; print([f['counter'] for f in json.load(open('$w/on/a.pp.json'))['functions'] if f['name'] == 'sq'])" 2>&1)
cb=$(python3 -c "import json; print([f['counter'] for f in json.load(open('$w/on/b.pp.json'))['functions'] if f['name'] == 'sq'])" 2>&1)
if [ "$ca" = "['derived']" ] && [ "$cb" = "['array']" ]; then echo "ok derive-units-which"
else echo "not ok derive-units-which: a.c's sq $ca (want derived), b.c's $cb (want array: b is not instrumented)"; fi
