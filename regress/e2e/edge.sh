#!/bin/sh
# Edge mode: every sample, regress case and some gen.py programs built with --mode=edge and --mode=path
# (both --trace): same behaviour as plain, edge counts equal between the modes and equal to the block
# trace's (regress/oracle.py --edges); the untraced edge build, its probes placed by the path run's
# profile (--placement-profile), counts the same; the share of edges instrumented.
# EDGE_SEEDS picks the gen.py seeds (default 1..2; 1..8 with REGRESS_FULL).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=edge
. "$top/regress/private.sh"

# known NAME: the functions of program NAME listed in edge_known.txt, one a line
known() {
  sed -n "s/^$1 \([A-Za-z_0-9]*\):.*/\1/p" "$top/regress/e2e/edge_known.txt"
}

# same_edges A B NAME: the edge counts of two coverage JSON files, function by function (by file, name,
# line), leaving out the functions edge_known.txt lists for program NAME
same_edges() {
  python3 - "$1" "$2" $(known "$3") <<'PY'
import json, sys
def load(p):
    out = {}
    for f in json.load(open(p))["files"]:
        for fn in f["functions"]:
            if fn["name"] not in sys.argv[3:]:
                out[(f["file"], fn["name"], fn["line"])] = [(e["src"], e["dst"], e["kind"], e["count"]) for e in fn["edge_counts"]]
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
bad = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
if bad:
    k = bad[0]
    x = dict(((s, d, kd), c) for s, d, kd, c in a.get(k, []))
    y = dict(((s, d, kd), c) for s, d, kd, c in b.get(k, []))
    e = [e for e in sorted(set(x) | set(y)) if x.get(e) != y.get(e)]
    print("%d function(s) differ, e.g. %s:%d edge %s: %s vs %s" % (len(bad), k[1], k[2], e[0] if e else "?",
          x.get(e[0]) if e else "?", y.get(e[0]) if e else "?"))
    sys.exit(1)
PY
}

# one NAME FLAGS SRC...: plain, path --trace, edge --trace and edge builds, runs and comparisons
one() {
  name=$1 flags=$2; shift 2
  d="$out/$name"
  mkdir -p "$d/path" "$d/edge" "$d/fast"
  if ! $CC $flags -o "$d/plain" "$@" -lm >"$d/plain.build" 2>&1; then
    echo "not ok edge-build $name: plain $CC failed: $(head -1 "$d/plain.build")"; return
  fi
  (cd "$d" && $run ./plain >plain.out 2>&1; echo $? >>plain.out)
  own=$(case_flags "$@")  # a case's own options (signals.c: atomic counts, or its handler loses some)
  for m in path edge fast; do
    mode=$m trace=--trace
    [ $m = fast ] && mode=edge trace=--placement-profile="$d/path/prof.out"  # the path run's counts place its probes
    if ! (cd "$d/$m" && "$top/bin/pathcc" $trace --mode=$mode $own "$CC" $flags -o prog "$@" -lm) >"$d/$m/build.log" 2>&1; then
      echo "not ok edge-build $name: pathcc --mode=$mode failed: $(head -1 "$d/$m/build.log")"; return
    fi
    (cd "$d/$m" && PATHPROF_FILE=prof.out PATHPROF_TRACE=trace.txt $run ./prog >prog.out 2>&1; echo $? >>prog.out)
    if ! cmp -s "$d/plain.out" "$d/$m/prog.out"; then
      echo "not ok edge-semantics $name: $m build's output or status differs (diff $d/plain.out $d/$m/prog.out)"; return
    fi
    # from the build's own directory: never-run units are looked for under the working directory,
    # and other tests running beside this one leave theirs under regress/out
    if ! (cd "$d/$m" && "$top/bin/pathprof" coverage --format json -o cov.json prof.out) 2>"$d/$m/cov.err"; then
      echo "not ok edge-coverage $name: pathprof coverage ($m) failed: $(head -1 "$d/$m/cov.err")"; return
    fi
  done
  echo "ok edge-semantics $name"
  if grep -q 'regress: timing-dependent' "$@"; then
    echo "skip edge-vs-path $name: counts depend on timing, two runs cannot be compared"
  elif why=$(same_edges "$d/path/cov.json" "$d/edge/cov.json" "$name"); then echo "ok edge-vs-path $name"
  else echo "not ok edge-vs-path $name: path mode vs edge mode: $why"; fi
  if grep -q 'regress: timing-dependent' "$@"; then :
  elif why=$(same_edges "$d/edge/cov.json" "$d/fast/cov.json" "$name"); then echo "ok edge-notrace $name"
  else echo "not ok edge-notrace $name: traced vs untraced edge build: $why"; fi
  python3 "$top/regress/oracle.py" --name "edge-$name" --trace "$d/edge/trace.txt" --edges "$d/edge/cov.json" \
    $(known "$name" | sed 's/^/--except /') "$d"/edge/*.pp.json
  for t in "$d"/fast/*.pp.json; do cat "$t"; echo; done >>"$out/all-tables.json"
  rm -f "$d"/*/trace.txt "$d"/*/prog "$d/plain"
}

: >"$out/all-tables.json"
# make check: every third program and two generated ones (sample.sh); check-full: all
i=0
for src in "$top"/samples/*.c "$top"/regress/cases/*.c; do
  i=$((i + 1)); sampled $i 3 || continue
  one "$(basename "$src" .c)" "-std=gnu11 -O0" "$src"
done
one demo "-std=c99 -O2" "$top"/samples/demo/*.c
seeds=$(seq 1 "$(sized 2 8)")
for seed in ${EDGE_SEEDS:-$seeds}; do
  python3 "$top/regress/gen.py" "$seed" "$out/gen$seed.c" || { echo "not ok edge gen$seed: gen.py failed"; continue; }
  one "gen$seed" "-std=c99 -O2" "$out/gen$seed.c"
done

# every chord has a counter, and fewer counters than edges: the share instrumented
python3 - "$out/all-tables.json" <<'PY'
import json, sys
inst = total = funcs = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    t = json.loads(line)
    assert t["mode"] == "edge", t["mode"]
    for f in t["functions"]:
        funcs += 1
        slots = sorted([e["counter"] for e in f["edges"] if "counter" in e] + ([f["entry_counter"]] if "entry_counter" in f else [])
                       + [slot for site, slot in f.get("splits", []) if slot >= 0])
        if slots != list(range(f["counters"])) or f["edges_instrumented"] != f["counters"]:
            print("not ok edge-tables: %s: counter slots %s, counters %d" % (f["name"], slots, f["counters"]))
            sys.exit(0)
        inst += f["edges_instrumented"]
        total += f["edges_total"]
print("# edge mode: %d of %d edges instrumented (%.1f%%, the virtual exit->entry edge counted) in %d functions"
      % (inst, total, 100.0 * inst / total, funcs))
print("ok edge-tables" if 0 < inst < total else "not ok edge-tables: %d of %d edges instrumented" % (inst, total))
PY

# A run of case labels (case 'a': case 'e': ...) is one block with one dispatch edge, as in GCC's
# CFG: a counter per label ran once for every label below the one taken (and was taken back on
# each fall between them). Counts stay the trace's.
r="$out/caserun"; mkdir -p "$r"
cat >"$r/run.c" <<'C'
int classify(int c)
{
  switch (c) {
  case 'a': case 'e': case 'i': case 'o': case 'u': case 'y': case 'w':
    return 1;
  case '0': case '1':
    return 2;
  default:
    return 0;
  }
}
int main(int argc, char **argv) { (void)argv; return classify('a' + argc - 1) + classify('w') + classify('1') - 4; }
C
if (cd "$r" && "$top/bin/pathcc" --mode=edge --trace gcc -O2 -o run run.c && PATHPROF_TRACE="$r/trace.txt" ./run &&
    "$top/bin/pathprof" coverage --format json -o cov.json pathprof.out) >"$r/log" 2>&1; then
  n=$(python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))
f = [f for f in t['functions'] if f['name'] == 'classify'][0]
print(sum(1 for e in f['edges'] if e.get('dispatch')))" "$r/run-run.pp.json")
  if [ "$n" = 3 ]; then echo "ok edge-case-run: three dispatch edges for two runs of labels and a default"
  else echo "not ok edge-case-run: $n dispatch edges (a run of labels is one edge)"; fi
  python3 "$top/regress/oracle.py" --name "edge-case-run" --trace "$r/trace.txt" --edges "$r/cov.json" "$r"/*.pp.json
else
  echo "not ok edge-case-run: build or run failed: $(head -1 "$r/log")"
fi
