#!/bin/sh
# The bench harness itself (bench/bench.py), on known inputs, independent of any timing:
# median/geomean/ratios, the counter-memory, size and callgrind parsers, the config parser,
# and the report (results.json, results.md) from a hand-made raw.json with a failed cell, a
# skipped tool and a goal.  Prints "ok NAME" / "not ok NAME: why".
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v python3 >/dev/null 2>&1; then echo "skip bench_harness: no python3"; exit 0; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-harness.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

cat > "$tmp/t.py" <<'EOF'
import json, os, subprocess, sys
top, tmp = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(top, "bench"))
import bench as b

def check(name, cond, why=""):
    print(("ok %s" % name) if cond else ("not ok %s: %s" % (name, why)))

def close(a, x, eps=1e-9):
    return a is not None and abs(a - x) <= eps * max(1.0, abs(x))

# statistics
check("median_odd", b.median([3.0, 1.0, 2.0, 100.0, 0.5]) == 2.0, b.median([3.0, 1.0, 2.0, 100.0, 0.5]))
check("median_even", b.median([4, 1, 3, 2]) == 2.5, b.median([4, 1, 3, 2]))
check("median_empty", b.median([]) is None and b.median([None]) is None)
check("geomean", close(b.geomean([1.2, 1.5, 0.8]), (1.2 * 1.5 * 0.8) ** (1 / 3.0)), b.geomean([1.2, 1.5, 0.8]))
check("geomean_skips_missing", close(b.geomean([2.0, None, 8.0]), 4.0) and b.geomean([None]) is None)
check("ratio", close(b.ratio(3.0, 2.0), 1.5) and b.ratio(1.0, 0) is None and b.ratio(None, 1.0) is None)

# parsers
nm = """0000000000009800 00000000000000a8 b __gcov0.build_lengths
00000000000098c0 0000000000000028 b __gcov0.canonical
0000000000009900 0000000000000010 b __gcov_.canonical
0000000000001000 0000000000000100 T main
"""
check("gcov_counter_bytes", b.gcov_counter_bytes(nm) == 0xa8 + 0x28, b.gcov_counter_bytes(nm))
sa = "lz  :\nsection   size   addr\n.text   19051   8752\n__llvm_prf_names  137  48909\n__llvm_prf_cnts   1216   61888\n"
check("llvm_counter_bytes", b.llvm_counter_bytes(sa) == 1216 and b.llvm_counter_bytes(".text 5 0\n") is None)
tables = [{"ncounters": 42, "hash_cap": 1024, "functions": [{"counter": "array"}, {"counter": "array"}]},
          {"ncounters": 10, "hash_cap": 4096, "functions": [{"counter": "array"}, {"counter": "hash"}]}]
check("pathcc_counter_bytes", b.pathcc_counter_bytes(tables) == 42 * 8 + 10 * 8 + 4096 * 24,
      b.pathcc_counter_bytes(tables))
ppp_tables = [{"mode": "ppp", "ncounters": 7, "hash_cap": 1024, "functions": [
    {"name": "f", "paths": "6", "counter": "ppp", "interesting": ["0", "1", "5"], "ppp_slots": "3", "lambda": 1.0},
    {"name": "g", "paths": "9000", "counter": "ppp", "interesting": ["1", "70"], "ppp_slots": "4", "lambda": 2.0},
    {"name": "h", "paths": "2", "counter": "hash", "interesting": [], "ppp_slots": "0", "lambda": 0.0}]}]
check("pathcc_counter_bytes_ppp", b.pathcc_counter_bytes(ppp_tables) == 7 * 8 + 1024 * 24, b.pathcc_counter_bytes(ppp_tables))
pf = b.ppp_functions(ppp_tables)
check("ppp_functions", [(f["name"], f.get("interesting"), f.get("slots")) for f in pf] == [("f", 3, 3), ("g", 2, 4), ("h", 0, 0)], pf)
ls = b.lambda_summary(pf + [{"name": "k", "interesting": 4, "lambda": 1.25}, {"name": "m", "interesting": 1, "lambda": 3.5}])
check("lambda_summary", ls == {"functions": 4, "one": 1, "le1.5": 1, "le2": 1, "gt2": 1, "max": 3.5}, ls)
dump = "profile p: 1 units\nunit 0123 /t.pp.json\n  counters 7, hash entries 2, dropped 3\n  [0] 5\n  fn 1 path 12: 4\n  fn 2 path 0: 6\n"
check("residual_counts", b.residual_counts(dump) == {"paths": 2, "executions": 10, "dropped": 3}, b.residual_counts(dump))
sz = "   text\t   data\t    bss\t    dec\t    hex\tfilename\n  20000\t   1000\t 300000\t 321000\t  4e5e8\tprog\n"
check("image_bytes", b.image_bytes(sz) == 21000, b.image_bytes(sz))
cg = "==1== Events    : Ir\n==1== Collected : 246650008\n==1==\n==1== I   refs:      246,650,008\n"
check("callgrind_instructions", b.callgrind_instructions(cg) == 246650008 and b.callgrind_instructions("x") is None)
pe = b.path_ends("unit 1 /t.pp.json\n  counters 3, hash entries 2, dropped 7\n  [0] 5\n  [2] 10\n  fn 1 path 12: 4\n  fn 2 path 0: 6\n")
check("path_ends", pe == {"array": 15, "hash": 10, "dropped": 7}, pe)
rows = b.parse_conf_var("a | b | c\nd | e\n", 2, 3)
check("parse_conf_var", rows == [["a", "b", "c"], ["d", "e", ""]], rows)
rows = b.parse_conf("# comment\n\n a | b c |  | 3\n", 4)
check("parse_conf", rows == [["a", "b c", "", "3"]], rows)
try:
    b.parse_conf("a | b\n", 4)
    check("parse_conf_bad", False, "no error for a short line")
except ValueError:
    check("parse_conf_bad", True)
t, w = b.load_config()
check("config_files", any(x["name"] == "gcov" for x in t) and all(x["full"] > x["quick"] >= x["callgrind"] >= 1 for x in w),
      "tools.conf/workloads.conf do not parse or scales are not full > quick >= callgrind")
names = {x["name"] for x in t}
check("config_builds", all(x["builds"] is None or set(x["builds"]) <= names for x in w) and
      any(x["builds"] for x in w), "a workload names a build tools.conf lacks")

# report from known raw measurements
def cell(run, build=None, ins=None, img=None, cnt=None, ok=True):
    return {"ok": ok, "note": "" if ok else "run failed", "run_cpu": run, "run_wall": run,
            "build_cpu": build or [1.0], "build_wall": build or [1.0], "instructions": ins,
            "image_bytes": img, "counter_bytes": cnt}
tool = lambda n, base, avail=True, note="": {"name": n, "baseline": base, "command": n, "counters": "none",
                                              "available": avail, "note": note}
raw = {"format": "pathprof-bench-raw", "version": 1, "mode": "quick", "machine": {"date": "d", "cpu": "c", "cpus": 2},
       "notes": ["a note"],
       "tools": [tool("gcc -O2", "-"), tool("clang -O2", "-"), tool("gcov", "gcc -O2"), tool("clang-cov", "clang -O2"),
                 tool("pathcc path", "gcc -O2"), tool("pathcc edge", "gcc -O2", False, "no such mode")],
       "workloads": [{"name": "w1", "available": True, "note": ""}, {"name": "w2", "available": True, "note": ""},
                     {"name": "w3", "available": False, "note": "gcc-12-source is not installed"}],
       "cells": {
           "w1/gcc -O2": cell([1.0, 1.2, 0.9, 1.1, 5.0], [2.0, 2.0, 4.0], 100, 1000),
           "w1/gcov": cell([1.32, 1.3, 1.35, 1.4, 1.2], [3.0, 3.0, 1.0], 110, 1100, 64),
           "w1/pathcc path": cell([1.65, 1.7, 1.6, 1.65, 1.65], [5.0], 150, 1200, 96),
           "w1/clang -O2": cell([2.0]), "w1/clang-cov": cell([3.0], cnt=32),
           "w2/gcc -O2": cell([2.0, 2.0, 2.0, 2.0], None, 200, 2000),
           "w2/gcov": cell([2.4, 2.5, 2.6, 9.0], None, 230, 2200, 128),
           "w2/pathcc path": cell([2.4, 2.4, 2.4, 2.4], None, 240, 2100, 256),
           "w2/clang -O2": cell([1.0]), "w2/clang-cov": cell([], ok=False)},
       "rewriter": {"unit": "u.c", "lines": 1000, "pathcc_cpu": 0.5, "cpp_cpu": 0.1, "cc_cpu": 0.3,
                    "rewriter_cpu": 0.1, "lines_per_second": 10000.0},
       "fixed_cost": {"gcc -O2": {"cpu": [0.05, 0.04, 0.06]}, "gcov": {"cpu": [0.06]},
                      "pathcc path": {"cpu": [0.09, 0.1, 0.2]}, "pathcc path, in-process": {"cpu": [0.15]}}}
raw["cells"]["w1/pathcc path"]["path_ends"] = {"array": 30, "hash": 70, "dropped": 0}
with open(os.path.join(tmp, "raw.json"), "w") as f:
    json.dump(raw, f)
out = os.path.join(tmp, "out")
r = subprocess.run([sys.executable, os.path.join(top, "bench", "bench.py"), "report", os.path.join(tmp, "raw.json"),
                    "--out", out, "--no-chart"], capture_output=True, text=True)
check("report_runs", r.returncode == 0 and "| build | run time |" in r.stdout, r.stderr.strip()[-300:])
try:
    res = json.load(open(os.path.join(out, "results.json")))
    md = open(os.path.join(out, "results.md")).read()
except (OSError, ValueError) as e:
    res, md = None, ""
    check("report_files", False, e)
if res:
    run = res["metrics"]["run"]
    check("run_ratio_median_odd", close(run["w1"]["gcov"], 1.32 / 1.1) and close(run["w1"]["pathcc path"], 1.65 / 1.1),
          run["w1"])
    check("run_ratio_median_even", close(run["w2"]["gcov"], 2.55 / 2.0) and close(run["w2"]["pathcc path"], 1.2), run["w2"])
    check("run_ratio_own_baseline", close(run["w1"]["clang-cov"], 1.5), run["w1"]["clang-cov"])
    check("failed_cell_is_missing", run["w2"]["clang-cov"] is None, run["w2"]["clang-cov"])
    g = res["geomean"]["run"]
    check("geomean_row", close(g["gcov"]["value"], (1.2 * 1.275) ** 0.5) and g["gcov"]["n"] == 2 and
          close(g["pathcc path"]["value"], (1.5 * 1.2) ** 0.5), g)
    check("geomean_partial", close(g["clang-cov"]["value"], 1.5) and g["clang-cov"]["n"] == 1, g["clang-cov"])
    ins = res["metrics"]["instructions"]
    check("instruction_ratio", close(ins["w1"]["gcov"], 1.1) and close(ins["w2"]["pathcc path"], 1.2), ins)
    bld = res["metrics"]["build"]
    check("build_ratio_median", close(bld["w1"]["gcov"], 1.5) and close(bld["w1"]["pathcc path"], 2.5), bld["w1"])
    img = res["metrics"]["image"]
    check("image_ratio", close(img["w1"]["gcov"], 1.1) and close(img["w2"]["pathcc path"], 1.05), img)
    cnt = res["metrics"]["counter_bytes"]
    check("counter_bytes_absolute", cnt["w1"]["gcov"] == 64 and cnt["w2"]["pathcc path"] == 256 and
          close(res["geomean"]["counter_bytes"]["pathcc path"]["value"], (96 * 256) ** 0.5), cnt)
    check("baseline_seconds", close(res["baseline_seconds"]["gcc -O2"]["w1"], 1.1) and
          close(res["baseline_seconds"]["gcc -O2"]["w2"], 2.0), res["baseline_seconds"])
    rmin = res["metrics"]["run_min"]
    check("run_min_ratio", close(rmin["w1"]["gcov"], 1.2 / 0.9) and close(rmin["w2"]["gcov"], 1.2) and
          rmin["w2"]["clang-cov"] is None, rmin)
    # spreads of the cells with several runs: 3.73 0.15 0.06 0 2.59 0 -> median of the middle two
    check("run_spread", close(res["run_spread_median"], ((1.7 - 1.6) / 1.65 + (1.4 - 1.2) / 1.32) / 2), res["run_spread_median"])
    goals = {(x["kind"], x["tool"]): x for x in res["goals"]}
    pg = goals.get(("geomean", "pathcc path"), {})
    # run: path 1.342 vs gcov 1.237; instructions: path 1.342 vs gcov 1.125 (the worst)
    check("goal_path", pg.get("status") == "not met" and close(pg.get("limit"), (1.1 * 1.15) ** 0.5 - 1) and
          pg.get("failing") == ["run", "instructions"], pg)
    pe = goals.get(("each", "pathcc path"), {})
    check("goal_path_each", pe.get("status") == "not met" and "w1 instructions" in pe.get("failing", []) and
          "w2 run" not in pe.get("failing", []), pe)
    check("goal_edge_unmeasured", goals.get(("each", "pathcc edge"), {}).get("status") == "not measured",
          goals.get(("each", "pathcc edge")))
    bg = goals.get(("build", "pathcc path"), {})
    check("goal_build", bg.get("status") == "not met" and close(bg.get("value"), 2.5 ** 0.5) and
          close(bg.get("limit"), 1.5 ** 0.5 + 0.1), bg)
    ug = goals.get(("unit", "pathcc path"), {})
    check("goal_unit", ug.get("status") == "met" and close(ug.get("value"), 0.1) and close(ug.get("limit"), 0.1), ug)
    fc = res.get("fixed_cost", {})
    check("fixed_cost", close(fc.get("pathcc path", {}).get("ratio"), 2.0) and close(fc.get("gcov", {}).get("ratio"), 1.2)
          and close(fc.get("pathcc path, in-process", {}).get("ratio"), 3.0)
          and "| pathcc path | 0.1000 | 2.00 |\n| pathcc path, in-process | 0.1500 | 3.00 |" in md, fc)
    check("path_ends_table", "| w1 | 100 | 30 (30.0%) | 70 (70.0%) | 0 |" in md,
          [l for l in md.splitlines() if l.startswith("| w1 | 100")])
    check("goal_lines", "pathcc path overhead <= 1.0x gcov's on the geometric mean (run and instructions): **not met**" in md
          and "pathcc path one-function unit <= 2.0x gcc -O2's CPU time: **met**" in md,
          [l for l in md.splitlines() if l.startswith("- pathcc")][:3])
    check("skipped_tool_note", "pathcc edge: skipped: no such mode" in md and "| pathcc edge |" not in md
          and "pathcc edge" not in md.split("### Run time")[1].split("\n")[2], "skipped column shown or note missing")
    check("skipped_workload_note", "workload w3: skipped: gcc-12-source is not installed" in md and "| w3 |" not in md)
    check("partial_geomean_marked", "(1 of 2)" in md, "summary does not say clang-cov's geomean covers 1 of 2")
    check("markdown_rows", "| w1 | 1.100 | 2.000 | 1.20 | 1.50 | 1.50 |" in md and "| **geomean** |" in md,
          [l for l in md.splitlines() if l.startswith("| w1")][:1])
    check("rewriter_line", "10000 lines of preprocessed C per second" in md)
    check("notes_kept", "- a note" in md and "chart: not requested" in md)
    # the README's tables come from these results: written between the markers, the prose around
    # them kept, a second run the same, and a README without markers left alone with an error
    import importlib
    rt = importlib.import_module("readme_table")
    readme = os.path.join(tmp, "README.md")
    before, after = "# bench\n\nMethod prose.\n\n", "\n\nMore prose.\n"
    open(readme, "w").write(before + rt.BEGIN + "\nold figures\n" + rt.END + after)
    rc = rt.main(["--results", out, "--readme", readme])
    got = open(readme).read()
    inner = got[len(before):len(got) - len(after)]
    check("readme_table_written", rc == 0 and got.startswith(before) and got.endswith(after) and "old figures" not in got
          and inner.startswith(rt.BEGIN) and inner.endswith(rt.END), got[:400])
    check("readme_table_figures", "| pathcc path | " in inner and "| instructions | w1 | w2 |" in inner
          and "| gcov | %s |" % rt.b.fmt_ratio(res["metrics"]["instructions"]["w1"]["gcov"]) in inner
          and "**not met**" in inner, inner[:600])
    rt.main(["--results", out, "--readme", readme])
    check("readme_table_idempotent", open(readme).read() == got)
    open(readme, "w").write("no markers\n")
    check("readme_table_no_markers", rt.main(["--results", out, "--readme", readme]) == 1
          and open(readme).read() == "no markers\n")
EOF
python3 "$tmp/t.py" "$top" "$tmp"
