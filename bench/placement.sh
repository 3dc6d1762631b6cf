#!/bin/sh
# Probe placement compared by executed probes: each bench workload (quick scale) and each sample,
# in path and edge mode, built with --estimate=loop (Ball-Larus loop x10), --estimate=wu-larus and
# --placement-profile (the loop build's own profile of the same run as weights). A probe is an
# edge the rewriter put code on (tables: "probe"), plus edge mode's entry counter; its executions
# come from the run's edge counts. Results: bench/results/placement/results.md and .json.
# BASE_PATHCC=another/pathcc adds a path-mode column "base" built by that pathcc with its defaults
# (e.g. the one from before this placement work; tables without "probe" keys are read by the
# rewriter's rule: exit, back and cut edges always carry code, a normal edge when its increment
# is not 0).
#   sh bench/placement.sh [--workloads a,b] [--no-samples]
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/bench/results/placement"
only="" samples=1
while [ $# -gt 0 ]; do
  case $1 in
    --workloads) only=",$2,"; shift ;;
    --no-samples) samples=0 ;;
    *) echo "usage: sh bench/placement.sh [--workloads a,b] [--no-samples]" >&2; exit 2 ;;
  esac
  shift
done
rm -rf "$out"; mkdir -p "$out"
pathcc="$top/bin/pathcc" pathprof="$top/bin/pathprof"
zlib="$top/bench/results/cache/zlib"
mkdir -p "$top/bench/results/cache"
[ -d "$zlib" ] || python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import bench; bench.unpack_zlib(sys.argv[2])" \
  "$top/bench" "$top/bench/results/cache" >/dev/null 2>&1
: >"$out/runs.txt"

# build_run DIR ARGS PATHCC-FLAGS CFLAGS SRC...: one build in DIR, run with ARGS, coverage JSON next to it
build_run() {
  d=$1 args=$2 flags=$3 cflags=$4; shift 4
  mkdir -p "$d"
  (cd "$d" && "$pathcc" $flags gcc -O2 $cflags -o prog "$@" -lm >build.log 2>&1 &&
   PATHPROF_FILE=prof.out timeout 300 ./prog $args >run.out 2>&1 &&
   "$pathprof" coverage --format json -o cov.json prof.out 2>cov.err)
}

# one NAME ARGS CFLAGS SRC...: the three placements in both modes
one() {
  name=$1 args=$2 cflags=$3; shift 3
  for mode in path edge; do
    b="$out/$name/$mode"
    build_run "$b/loop" "$args" "--mode=$mode --estimate=loop" "$cflags" "$@" || { echo "# $name $mode: loop build or run failed" >&2; continue; }
    build_run "$b/wu-larus" "$args" "--mode=$mode --estimate=wu-larus" "$cflags" "$@" || { echo "# $name $mode: wu-larus failed" >&2; continue; }
    build_run "$b/profile" "$args" "--mode=$mode --estimate=loop --placement-profile=$b/loop/prof.out" "$cflags" "$@" ||
      { echo "# $name $mode: profile-guided failed" >&2; continue; }
    if [ -n "${BASE_PATHCC:-}" ] && [ $mode = path ]; then
      pathcc=$BASE_PATHCC build_run "$b/base" "$args" "" "$cflags" "$@" || echo "# $name: base build failed" >&2
    fi
    echo "$name $mode $b" >>"$out/runs.txt"
  done
}

grep -v '^#' "$top/bench/workloads.conf" | while IFS='|' read -r name srcs flags full quick cg; do
  name=$(echo $name)
  [ -n "$name" ] || continue
  case "$only" in ""|*",$name,"*) ;; *) continue ;; esac
  files=""
  skip=0
  for s in $srcs; do
    case $s in @zlib/*) [ -d "$zlib" ] || skip=1; files="$files $zlib/${s#@zlib/}" ;; *) files="$files $top/bench/$s" ;; esac
  done
  [ $skip = 1 ] && { echo "# $name: zlib sources not unpacked (run make bench-quick once)" >&2; continue; }
  one "$name" "$(echo $quick)" "$(echo $flags | sed "s|@zlib|$zlib|g")" $files
done
if [ $samples = 1 ]; then
  for s in "$top"/samples/*.c; do
    grep -q 'regress: timing-dependent' "$s" && continue
    one "sample-$(basename "$s" .c)" "" "" "$s"
  done
fi

python3 - "$out" <<'PY'
import json, math, os, sys
out = sys.argv[1]
tables = {}
def probes(d):
    """Executed probes and all edge traversals of one build's run."""
    cov = json.load(open(d + "/cov.json"))
    run = edges = normal = 0
    for f in cov["files"]:
        for fn in f["functions"]:
            t = tables.get(fn["tables"]) or tables.setdefault(fn["tables"], json.load(open(fn["tables"])))
            tf = [x for x in t["functions"] if x["name"] == fn["name"] and x["line"] == fn["line"]][0]
            flagged = any("probe" in e for e in tf["edges"])
            for e, c in zip(tf["edges"], fn["edge_counts"]):
                assert (e["src"], e["dst"], e["kind"]) == (c["src"], c["dst"], c["kind"])
                if not flagged:  # older tables: the rewriter's rule
                    e["probe"] = e["kind"] in ("exit", "back", "cut") or (e["kind"] == "normal" and e["inc"] != "0")
                if e.get("probe"):
                    run += c["count"]
                    normal += c["count"] if e["kind"] == "normal" else 0
                if e["kind"] in ("normal", "exit", "back", "cut"):
                    edges += c["count"]
            if "entry_counter" in tf:
                run += fn["calls"]
                normal += fn["calls"]
    return run, edges, normal
rows = []
for line in open(out + "/runs.txt"):
    name, mode, b = line.split()
    r = {k: probes(b + "/" + k) for k in ("loop", "wu-larus", "profile", "base") if os.path.exists(b + "/" + k + "/cov.json")}
    rows.append({"workload": name, "mode": mode, "edges": r["loop"][1], **{k: v[0] for k, v in r.items()},
                 **{"%s on normal edges" % k: v[2] for k, v in r.items()}})
def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")
md = ["Executed probes (in parentheses: those on normal edges, i.e. without the path-end counter updates every path",
      "mode placement makes on exit and back edges; edge mode's entry counters counted as normal)", "",
      "| workload | mode | edge traversals | loop x10 | wu-larus | profile | wu-larus/loop | profile/loop |", "|---|---|---|---|---|---|---|---|"]
for r in rows:
    md.append("| %s | %s | %d | %d (%d) | %d (%d) | %d (%d) | %.3f | %.3f |" % (r["workload"], r["mode"], r["edges"], r["loop"],
              r["loop on normal edges"], r["wu-larus"], r["wu-larus on normal edges"], r["profile"], r["profile on normal edges"],
              r["wu-larus"] / r["loop"] if r["loop"] else 1, r["profile"] / r["loop"] if r["loop"] else 1))
summary = {}
for mode in ("path", "edge"):
    for group, pick in (("bench", lambda r: not r["workload"].startswith("sample-")), ("samples", lambda r: r["workload"].startswith("sample-"))):
        rs = [r for r in rows if r["mode"] == mode and pick(r) and r["loop"]]
        if not rs:
            continue
        tot = {k: sum(r[k] for r in rs) for k in ("loop", "wu-larus", "profile", "loop on normal edges",
                                                  "wu-larus on normal edges", "profile on normal edges")}
        s = {"n": len(rs), "total": tot,
             "wu-larus/loop total": tot["wu-larus"] / tot["loop"], "profile/loop total": tot["profile"] / tot["loop"],
             "wu-larus/loop geomean": gmean([r["wu-larus"] / r["loop"] for r in rs]),
             "profile/loop geomean": gmean([r["profile"] / r["loop"] for r in rs]),
             "wu-larus worse in": [r["workload"] for r in rs if r["wu-larus"] > r["loop"]]}
        summary["%s %s" % (group, mode)] = s
        bs = [r for r in rs if "base" in r]
        if bs:
            bt = {k: sum(r[k] for r in bs) for k in ("base", "loop", "wu-larus", "profile")}
            s["base"] = bt
            md.append("")
            md.append("**%s, %s mode, against the base pathcc** (%d programs): executed probes, all together: loop x10 %.3f of base, "
                      "wu-larus %.3f, profile %.3f" % (group, mode, len(bs), bt["loop"] / bt["base"], bt["wu-larus"] / bt["base"],
                                                      bt["profile"] / bt["base"]))
        md.append("")
        md.append("**%s, %s mode** (%d programs): executed probes, all programs together: wu-larus %.3f of loop x10, profile %.3f; "
                  "geometric mean of ratios: wu-larus %.3f, profile %.3f; on normal edges only: wu-larus %.3f, profile %.3f; "
                  "wu-larus executes more than loop x10 in: %s"
                  % (group, mode, len(rs), s["wu-larus/loop total"], s["profile/loop total"], s["wu-larus/loop geomean"],
                     s["profile/loop geomean"], tot["wu-larus on normal edges"] / max(tot["loop on normal edges"], 1),
                     tot["profile on normal edges"] / max(tot["loop on normal edges"], 1), ", ".join(s["wu-larus worse in"]) or "none"))
# edge mode: edges with a counter against all edges (the virtual exit->entry edge counted), statically
import glob
for group, pick in (("bench", lambda n: not n.startswith("sample-")), ("samples", lambda n: n.startswith("sample-"))):
    inst = total = 0
    for line in open(out + "/runs.txt"):
        name, mode, b = line.split()
        if mode != "edge" or not pick(name):
            continue
        for p in glob.glob(b + "/wu-larus/*.pp.json"):
            for f in json.load(open(p))["functions"]:
                inst += f["edges_instrumented"]; total += f["edges_total"]
    if total:
        summary["%s edges instrumented" % group] = [inst, total]
        md.append("")
        md.append("**%s, edge mode**: %d of %d edges carry a counter (%.1f%%, the virtual exit->entry edge counted)" % (group, inst, total, 100.0 * inst / total))
open(out + "/results.md", "w").write("\n".join(md) + "\n")
json.dump({"rows": rows, "summary": summary}, open(out + "/results.json", "w"), indent=1)
print("\n".join(md))
PY
