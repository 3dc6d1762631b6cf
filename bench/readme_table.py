#!/usr/bin/env python3
"""readme_table.py: writes the benchmark tables into bench/README.md, between its markers, from the
results files `make bench` leaves (bench/results/{full,quick}/results.json, bench/results/shortruns.md),
so the README's figures are always a run's, never typed in.

Usage: python3 bench/readme_table.py [--results DIR] [--readme FILE]
Without --results: the newest of bench/results/full and bench/results/quick.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench as b  # noqa: E402  (the harness's own formatting and goal texts)

BEGIN = "<!-- bench:table: written by make bench (bench/readme_table.py) from bench/results; do not edit -->"
END = "<!-- /bench:table -->"


def newest_results(root):
    """The results directory of the latest run, full or quick; None when there is none."""
    found = [os.path.join(root, d) for d in ("full", "quick")
             if os.path.exists(os.path.join(root, d, "results.json"))]
    return max(found, key=lambda d: os.path.getmtime(os.path.join(d, "results.json"))) if found else None


def summary_rows(res):
    """The geometric-mean table: one row per build that ran."""
    wl = [w for w in res["workloads"] if w["available"]]
    out = ["| build | run time | instructions | counter memory | binary size | build time |",
           "|---|---|---|---|---|---|"]
    for t in res["tools"]:
        if t["baseline"] == "-" or not t["available"]:
            continue
        cells = []
        for key in ("run", "instructions", "counter_bytes", "image", "build"):
            e = res["geomean"][key][t["name"]]
            s = b.fmt_bytes(e["value"]) if key == "counter_bytes" else b.fmt_ratio(e["value"])
            if e["n"] and e["n"] < len(wl):
                s += " (%d of %d)" % (e["n"], len(wl))
            cells.append(s)
        out.append("| %s | %s |" % (t["name"], " | ".join(cells)))
    return out


def per_workload_rows(res, key):
    """One metric per workload (rows: builds; columns: workloads), as ratios."""
    wl = [w["name"] for w in res["workloads"] if w["available"]]
    tools = [t["name"] for t in res["tools"] if t["baseline"] != "-" and t["available"]]
    out = ["| %s | %s |" % (key, " | ".join(wl)), "|" + "---|" * (len(wl) + 1)]
    for t in tools:
        out.append("| %s | %s |" % (t, " | ".join(b.fmt_ratio(res["metrics"][key][w][t]) for w in wl)))
    return out


def shortruns_table(path):
    """The first table of shortruns.md (the many-short-runs figures), or nothing."""
    if not os.path.exists(path):
        return []
    rows = []
    for line in open(path).read().splitlines():
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    return rows


def table(res, results_dir, shortruns):
    """The text between the markers."""
    m = res.get("machine", {})
    wl = [w for w in res["workloads"] if w["available"]]
    out = [BEGIN, "",
           "`make bench%s` at commit %s: %d workloads, %s, %s CPUs, load average at start %s; %s. "
           "Results in `%s`." % ("" if res.get("mode") == "full" else "-quick", m.get("commit", "?"), len(wl),
                                 m.get("cpu", "?"), m.get("cpus", "?"),
                                 (m.get("loadavg") or "?").split(" ")[0], m.get("gcc", "gcc ?"),
                                 os.path.relpath(results_dir, os.path.dirname(HERE))),
           ""]
    out += summary_rows(res)
    out += ["", "Geometric means over the workloads; ratios to the plain -O2 build of the same compiler "
            "(1.00 = no overhead); counter memory in bytes.", "", "Instructions per workload (callgrind):", ""]
    out += per_workload_rows(res, "instructions")
    out += ["", "Run time per workload (CPU time, median of the interleaved runs):", ""]
    out += per_workload_rows(res, "run")
    if res.get("goals"):
        out += ["", "Goals, with the verdict of this run:", ""]
        out += ["- " + b.goal_text(g) for g in res["goals"]]
    sr = shortruns_table(shortruns)
    if sr:
        out += ["", "Many short runs (`bench/shortruns.sh`, per-exit cost; `%s`):" %
                os.path.relpath(shortruns, os.path.dirname(HERE)), ""] + sr
    out += ["", END]
    return "\n".join(out)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="readme_table.py")
    ap.add_argument("--results", help="a results directory (default: the newest under bench/results)")
    ap.add_argument("--readme", default=os.path.join(HERE, "README.md"))
    a = ap.parse_args(argv)
    d = a.results or newest_results(os.path.join(HERE, "results"))
    if not d or not os.path.exists(os.path.join(d, "results.json")):
        sys.stderr.write("readme_table.py: no results.json under %s: run make bench or make bench-quick first\n"
                         % (a.results or os.path.join(HERE, "results")))
        return 1
    res = json.load(open(os.path.join(d, "results.json")))
    text = open(a.readme).read()
    pat = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if not pat.search(text):
        sys.stderr.write("readme_table.py: %s has no %s ... %s markers\n" % (a.readme, BEGIN, END))
        return 1
    new = pat.sub(lambda _m: table(res, d, os.path.join(os.path.dirname(os.path.abspath(d)), "shortruns.md")), text)
    with open(a.readme, "w") as f:
        f.write(new)
    sys.stdout.write("readme_table.py: %s: tables from %s\n" % (a.readme, d))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
