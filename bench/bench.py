#!/usr/bin/env python3
"""pathprof benchmark harness (make bench, make bench-quick).

  bench.py run [--quick] [--out DIR] [--workloads a,b] [--tools x,y] [--tools-conf FILE]
               [--rounds N] [--no-chart]
  bench.py report RAW.json [--out DIR] [--no-chart]

`run` builds every workload of workloads.conf with every build of tools.conf, measures, writes
DIR/raw.json (every measurement) and then does what `report` does: DIR/results.json (the
figures), DIR/results.md (the tables) and DIR/overhead.png (gnuplot; skipped with a note when
gnuplot is missing), and prints the tables.  DIR defaults to bench/results/quick or
bench/results/full.  Python 3 standard library only.

Measurements (see bench/README.md for the reasons):
  run time      user+sys CPU seconds of the program (wait4 rusage), median of ROUNDS (5) runs,
                interleaved: round by round, every workload, every build (order rotated);
                divided by the median of the build's baseline (the plain build, same compiler)
  instructions  valgrind --tool=callgrind --toggle-collect=main at the callgrind SCALE
                (instructions executed inside main and its callees, so the exit-time profile
                dump is not counted); divided by the baseline's count
  counter bytes memory of the counter arrays (tools.conf explains each method)
  binary size   text+data of the executable (`size`), divided by the baseline's
  build time    user+sys CPU seconds of the one compile-and-link command, children included,
                median of the build repeats; divided by the baseline's
  rewriter      lines of preprocessed C per CPU second of pathcc's own work on the largest
                unit: time(pathcc -c) - time(cc -E -C) - time(cc -c of the instrumented .i)
"""
import atexit
import json
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
PATHCC = os.path.join(TOP, "bin", "pathcc")
ZLIB_TARBALL_GLOB = "/usr/src/gcc-12/gcc-*.tar.*"

# The goals (issue 16's acceptance), each (kind, tool, reference, bound, metrics):
#   geomean  tool's overhead (ratio - 1) on the geometric mean <= bound * reference's
#   each     the same on every workload where both were measured
#   build    tool's build-time ratio on the geometric mean <= reference's + bound
#   unit     tool's CPU time for the one-function unit <= bound * reference's (fixed cost)
GOALS = [("geomean", "pathcc path", "gcov", 1.0, ("run", "instructions")),
         ("each", "pathcc path", "gcov", 1.5, ("run", "instructions")),
         ("each", "pathcc edge", "gcov", 1.0, ("run", "instructions")),
         ("build", "pathcc path", "gcov", 0.10, ("build",)),
         ("build", "pathcc edge", "gcov", 0.10, ("build",)),
         ("unit", "pathcc path", "gcc -O2", 2.0, ("unit",)),
         ("unit", "pathcc edge", "gcc -O2", 2.0, ("unit",))]
# The one-function unit whose compile time is the per-unit fixed cost.
UNIT_C = "#include <stdio.h>\nint clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }\n"
UNIT_N = 20                    # units per measured command (fixed_cost)
IN_PROCESS = ", in-process"    # a pathcc build's fixed cost without its compile server
OSP, PATH = "pathcc osp", "pathcc path"

MODES = {
    "quick": {"rounds": 5, "build_repeats": 1, "rewriter_repeats": 3},
    "full": {"rounds": 5, "build_repeats": 3, "rewriter_repeats": 5},
}


def log(msg):
    sys.stderr.write("[bench %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


# ---------------------------------------------------------------- statistics (tested)

def median(xs):
    """Median; the mean of the two middle values for an even count. None for no data."""
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def geomean(xs):
    """Geometric mean of the positive values; None when there are none."""
    xs = [x for x in xs if x is not None and x > 0]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


# ---------------------------------------------------------------- parsers (tested)

def parse_conf(text, nfields):
    """Lines of '|'-separated fields; '#' starts a comment line; blank lines ignored."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        if len(f) != nfields:
            raise ValueError("expected %d '|'-separated fields: %s" % (nfields, line))
        rows.append(f)
    return rows


def parse_conf_var(text, nmin, nmax):
    """parse_conf for lines of nmin to nmax fields; missing trailing fields are ''."""
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        if not nmin <= len(f) <= nmax:
            raise ValueError("expected %d to %d '|'-separated fields: %s" % (nmin, nmax, line))
        rows.append(f + [""] * (nmax - len(f)))
    return rows


def path_ends(dump_text):
    """Path ends of a path-mode profile from `pathprof dump`: those counted in arrays (`[i] N`
    lines, overflow slots included), in hash tables (`fn F path ID: N`) and dropped for want of
    room in a hash table."""
    out = {"array": 0, "hash": 0, "dropped": 0}
    for line in dump_text.splitlines():
        m = re.match(r"\s+\[\d+\] (\d+)$", line)
        if m:
            out["array"] += int(m.group(1))
        m = re.match(r"\s+fn \d+ path \d+: (\d+)$", line)
        if m:
            out["hash"] += int(m.group(1))
        m = re.search(r"dropped (\d+)", line)
        if m:
            out["dropped"] += int(m.group(1))
    return out


def gcov_counter_bytes(nm_text):
    """Sum of the sizes of gcc's arc counter arrays (__gcov0.<function>) in `nm -S` output."""
    total = 0
    for line in nm_text.splitlines():
        f = line.split()
        if len(f) == 4 and f[3].startswith("__gcov0."):
            total += int(f[1], 16)
    return total


def llvm_counter_bytes(size_a_text):
    """Size of the __llvm_prf_cnts section in `size -A` output (None if absent)."""
    for line in size_a_text.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] == "__llvm_prf_cnts":
            return int(f[1])
    return None


def pathcc_counter_bytes(tables):
    """Counter memory of pathcc units from their parsed tables (doc/formats.md sections 1, 4):
    8 bytes per array counter, plus the unit's hash table (hash_cap entries of 3 words) when
    any of its functions counts in hash mode."""
    total = 0
    for t in tables:
        total += int(t.get("ncounters", 0)) * 8
        if t.get("mode") == "ppp" or any(f.get("counter") == "hash" for f in t.get("functions", [])):
            total += int(t.get("hash_cap", 0)) * 24   # ppp: every function may record residual paths
    return total


def osp_memory_bytes(snapshot):
    """The hot-list bound M of an osp snapshot (doc/formats.md section 2, OSPH record: the
    `memory` field, 24 bytes into the record), or None when the file holds no OSPH record."""
    pos = 16
    while pos + 8 <= len(snapshot):
        tag = snapshot[pos:pos + 4]
        if tag == b"OSPH":
            return int.from_bytes(snapshot[pos + 24:pos + 32], "little")
        if tag != b"UNIT":
            return None
        namelen = int.from_bytes(snapshot[pos + 4:pos + 8], "little")
        ncounters = int.from_bytes(snapshot[pos + 16:pos + 24], "little")
        nhash = int.from_bytes(snapshot[pos + 24:pos + 32], "little")
        pos += 40 + (namelen + 7) // 8 * 8 + 8 * ncounters + 24 * nhash
    return None


def kpath_forest_bytes(kpaths_json):
    """Forest memory of a kpath run from `pathprof kpaths --json`: its k-slab forest nodes, 32
    bytes each as rt/core/kpath.c holds them on 64-bit hosts (root tables not included)."""
    try:
        j = json.loads(kpaths_json)
    except ValueError:
        return None
    return sum(int(f.get("ksf_nodes", 0)) for f in j.get("functions", [])) * 32
def ppp_functions(tables):
    """Per function of pathcc tables: name, static paths, counter kind and, for ppp builds, the
    interesting set's size, its PPP slots and compactness (doc/formats.md section 4)."""
    out = []
    for t in tables:
        for f in t.get("functions", []):
            e = {"name": f.get("name"), "paths": int(f.get("paths", 0)), "counter": f.get("counter")}
            if "interesting" in f:
                e.update(interesting=len(f["interesting"]), slots=int(f.get("ppp_slots", 0)),
                         **{"lambda": f.get("lambda")})
            out.append(e)
    return out


def lambda_summary(funcs):
    """The distribution of lambda over functions with interesting paths: counts in buckets
    (=1, <=1.5, <=2, >2), the maximum and the number of such functions."""
    ls = [f["lambda"] for f in funcs if f.get("interesting")]
    return {"functions": len(ls), "one": sum(1 for x in ls if x <= 1.0),
            "le1.5": sum(1 for x in ls if 1.0 < x <= 1.5), "le2": sum(1 for x in ls if 1.5 < x <= 2.0),
            "gt2": sum(1 for x in ls if x > 2.0), "max": max(ls) if ls else None}


def residual_counts(dump_text):
    """Residual path executions and distinct residual paths of a ppp profile, from the hash
    entries `pathprof dump` lists (`fn F path ID: COUNT`), plus the dropped path ends."""
    execs = paths = dropped = 0
    for line in dump_text.splitlines():
        m = re.match(r"\s+fn \d+ path \d+: (\d+)$", line)
        if m:
            paths += 1
            execs += int(m.group(1))
        m = re.search(r"dropped (\d+)", line)
        if m:
            dropped += int(m.group(1))
    return {"paths": paths, "executions": execs, "dropped": dropped}


def image_bytes(size_text):
    """text + data from Berkeley-format `size` output (second line): code and initialised
    data; zero-initialised counters (bss) are counted by counter memory instead."""
    lines = [l for l in size_text.splitlines() if l.strip()]
    if len(lines) < 2:
        return None
    f = lines[1].split()
    return int(f[0]) + int(f[1])


def callgrind_instructions(stderr_text):
    """The 'Collected : N' line valgrind --tool=callgrind prints at exit."""
    m = re.findall(r"Collected\s*:\s*([0-9]+)", stderr_text)
    return int(m[-1]) if m else None


# ---------------------------------------------------------------- report (tested)

METRICS = [
    # key, title, cell field, how the per-workload value is made
    ("run", "Run time (CPU time, ratio to the plain build of the same compiler)", "ratio"),
    ("instructions", "Instructions (callgrind, ratio to the plain build)", "ratio"),
    ("counter_bytes", "Counter memory (bytes)", "absolute"),
    ("image", "Binary size (text+data, ratio to the plain build)", "ratio"),
    ("build", "Build time (CPU time of compile+link, ratio to the plain build)", "ratio"),
]


def cell_value(cell, key):
    """The raw per-cell number a metric is made from (median where there are repeats)."""
    if not cell or not cell.get("ok"):
        return None
    if key == "run":
        return median(cell.get("run_cpu", []))
    if key == "build":
        return median(cell.get("build_cpu", []))
    if key == "instructions":
        return cell.get("instructions")
    if key == "image":
        return cell.get("image_bytes")
    if key == "counter_bytes":
        return cell.get("counter_bytes")
    raise KeyError(key)


def ppp_view(raw):
    """Per workload and ppp build: the lambda distribution, the functions path mode counts in its
    hash table with what ppp made of them, the residual paths of the measured run and the run
    time relative to path mode."""
    cells, out = raw["cells"], []
    for t in [t for t in raw["tools"] if t.get("available") and "{train}" in t["command"]]:
        for w in [w for w in raw["workloads"] if w["available"]]:
            c = cells.get("%s/%s" % (w["name"], t["name"])) or {}
            path = cells.get("%s/%s" % (w["name"], TRAIN_TOOL)) or {}
            if not c.get("ok"):
                continue
            funcs = c.get("function_counters", [])
            byname = {f["name"]: f for f in funcs}
            hashed = [byname.get(f["name"], {"name": f["name"]}) for f in path.get("function_counters", [])
                      if f["counter"] == "hash"]
            run = ratio(cell_value(c, "run"), cell_value(path, "run")) if path.get("ok") else None
            out.append({"workload": w["name"], "tool": t["name"], "lambda": lambda_summary(funcs),
                        "path_hash": hashed, "residual": c.get("residual"), "run_vs_path": run,
                        "instructions_vs_path": ratio(cell_value(c, "instructions"), cell_value(path, "instructions"))
                        if path.get("ok") else None})
    return out


def compute(raw):
    """Figures from raw measurements: per metric, per workload, per tool; geomean rows; goals."""
    tools = raw["tools"]
    workloads = [w for w in raw["workloads"]]
    cells = raw["cells"]
    shown = [t for t in tools if t["baseline"] != "-"]
    bases = [t for t in tools if t["baseline"] == "-"]
    res = {"format": "pathprof-bench-results", "version": 1, "mode": raw.get("mode"),
           "machine": raw.get("machine", {}), "notes": list(raw.get("notes", [])),
           "tools": [{"name": t["name"], "baseline": t["baseline"], "command": t["command"],
                      "available": t["available"], "note": t.get("note", "")} for t in tools],
           "workloads": [{"name": w["name"], "available": w["available"], "note": w.get("note", ""),
                          "scale": w.get("scale"), "callgrind_scale": w.get("callgrind_scale")}
                         for w in workloads],
           "baseline_seconds": {}, "metrics": {}, "geomean": {}, "goals": [],
           "rewriter": raw.get("rewriter")}
    for b in bases:
        res["baseline_seconds"][b["name"]] = {
            w["name"]: median(cells.get("%s/%s" % (w["name"], b["name"]), {}).get("run_cpu", []))
            if (cells.get("%s/%s" % (w["name"], b["name"])) or {}).get("ok") else None
            for w in workloads}
    for key, _title, kind in METRICS:
        per = {}
        for w in workloads:
            row = {}
            for t in shown:
                c = cells.get("%s/%s" % (w["name"], t["name"]))
                v = cell_value(c, key)
                if kind == "ratio":
                    bc = cells.get("%s/%s" % (w["name"], t["baseline"]))
                    v = ratio(v, cell_value(bc, key))
                row[t["name"]] = v
            per[w["name"]] = row
        res["metrics"][key] = per
        g = {}
        for t in shown:
            vals = [per[w["name"]][t["name"]] for w in workloads if per[w["name"]][t["name"]] is not None]
            g[t["name"]] = {"value": geomean(vals), "n": len(vals)}
        res["geomean"][key] = g
    # a second view of run time, robust to one-sided noise from other load: fastest runs' ratio
    per, spreads = {}, []
    for w in workloads:
        row = {}
        for t in shown:
            c = cells.get("%s/%s" % (w["name"], t["name"]))
            bc = cells.get("%s/%s" % (w["name"], t["baseline"]))
            ok = c and c.get("ok") and c.get("run_cpu") and bc and bc.get("ok") and bc.get("run_cpu")
            row[t["name"]] = ratio(min(c["run_cpu"]), min(bc["run_cpu"])) if ok else None
        per[w["name"]] = row
    for c in cells.values():
        v = c.get("run_cpu") or []
        if c.get("ok") and len(v) > 1 and median(v):
            spreads.append((max(v) - min(v)) / median(v))
    res["metrics"]["run_min"] = per
    res["geomean"]["run_min"] = {t["name"]: {"value": geomean([per[w["name"]][t["name"]] for w in workloads]),
                                             "n": sum(1 for w in workloads if per[w["name"]][t["name"]] is not None)}
                                 for t in shown}
    res["run_spread_median"] = median(spreads)
    res["osp_vs_path"] = osp_vs_path(res, workloads)

    res["ppp"] = ppp_view(raw)
    res["fixed_cost"] = fixed_cost_view(raw)
    res["path_ends"] = {w["name"]: (cells.get("%s/%s" % (w["name"], PATH)) or {}).get("path_ends") for w in workloads}
    res["goals"] = [goal(res, *g) for g in GOALS]
    return res


def goal(res, kind, tool, ref, bound, metrics):
    """One goal's verdict: met, not met (naming the failing metrics and workloads) or not
    measured; value and limit are the figures compared (for 'each', those of the worst case)."""
    g = {"kind": kind, "tool": tool, "reference": ref, "bound": bound, "metrics": list(metrics),
         "value": None, "limit": None, "failing": []}
    checks = []   # (label, value, limit)
    for m in metrics:
        if kind == "unit":
            fc = res.get("fixed_cost") or {}
            t, r = fc.get(tool, {}).get("cpu"), fc.get(ref, {}).get("cpu")
            if t is not None and r is not None:
                checks.append(("unit", t, bound * r))
            continue
        if kind == "build":
            t = res["geomean"][m].get(tool, {}).get("value")
            r = res["geomean"][m].get(ref, {}).get("value")
            if t is not None and r is not None:
                checks.append((m, t, r + bound))
            continue
        if kind == "geomean":
            t = res["geomean"][m].get(tool, {}).get("value")
            r = res["geomean"][m].get(ref, {}).get("value")
            if t is not None and r is not None:
                checks.append((m, t - 1.0, bound * (r - 1.0)))
            continue
        for w, row in sorted(res["metrics"][m].items()):
            t, r = row.get(tool), row.get(ref)
            if t is not None and r is not None:
                checks.append(("%s %s" % (w, m), t - 1.0, bound * max(r - 1.0, 0.0)))
    if not checks:
        g["status"] = "not measured"
        return g
    bad = [c for c in checks if c[1] > c[2] + 1e-12]
    worst = max(checks, key=lambda c: c[1] - c[2])
    g["value"], g["limit"] = worst[1], worst[2]
    g["failing"] = [c[0] for c in bad]
    g["status"] = "not met" if bad else "met"
    return g


def fixed_cost_view(raw):
    """Per build, the median CPU seconds of compiling the one-function unit and its ratio to its
    baseline's."""
    fc, out = raw.get("fixed_cost") or {}, {}
    base = {t["name"]: t["baseline"] for t in raw["tools"]}
    for name, v in fc.items():
        cpu = median(v.get("cpu", []))
        out[name] = {"cpu": cpu}
    for name in out:
        b = base.get(name[:-len(IN_PROCESS)] if name.endswith(IN_PROCESS) else name, "-")
        out[name]["ratio"] = ratio(out[name]["cpu"], out.get(b, {}).get("cpu")) if b != "-" else None
    return out


def osp_vs_path(res, workloads):
    """Per workload, `pathcc osp` against `pathcc path`: run-time overhead (ratio - 1 to the plain
    build) of each and their quotient, and the quotient of their counter memory; None when either
    build is missing."""
    names = [t["name"] for t in res["tools"]]
    if OSP not in names or PATH not in names:
        return None
    rows = {}
    for w in workloads:
        run, mem = res["metrics"]["run"][w["name"]], res["metrics"]["counter_bytes"][w["name"]]
        o, p = run.get(OSP), run.get(PATH)
        rows[w["name"]] = {"osp_overhead": None if o is None else o - 1.0,
                           "path_overhead": None if p is None else p - 1.0,
                           "run": ratio(o, p), "memory": ratio(mem.get(OSP), mem.get(PATH))}
    g = {k: geomean([r[k] for r in rows.values()]) for k in ("run", "memory")}
    return {"workloads": rows, "geomean": g}


def fmt_ratio(v):
    return "–" if v is None else "%.2f" % v


def fmt_bytes(v):
    if v is None:
        return "–"
    if v >= 10 * 1024:
        return "%.0f KiB" % (v / 1024.0)
    return "%d B" % round(v)


def fmt_secs(v):
    return "–" if v is None else "%.3f" % v


def markdown(res):
    shown = [t for t in res["tools"] if t["baseline"] != "-"]
    bases = [t for t in res["tools"] if t["baseline"] == "-"]
    avail = [t for t in shown if t["available"]]
    wl = [w for w in res["workloads"] if w["available"]]
    out = []
    m = res.get("machine", {})
    out.append("pathprof benchmarks, %s mode: %s, %s, %s CPUs; %s" % (
        res.get("mode"), m.get("date", "?"), m.get("cpu", "?"), m.get("cpus", "?"), m.get("commit", "?")))
    out.append("")
    # summary: one row per tool
    out.append("| build | run time | instructions | counter memory | binary size | build time |")
    out.append("|---|---|---|---|---|---|")
    for t in avail:
        g = res["geomean"]
        cells = []
        for key in ("run", "instructions", "counter_bytes", "image", "build"):
            e = g[key][t["name"]]
            s = fmt_bytes(e["value"]) if key == "counter_bytes" else fmt_ratio(e["value"])
            if e["n"] and e["n"] < len(wl):
                s += " (%d of %d)" % (e["n"], len(wl))
            cells.append(s)
        out.append("| %s | %s |" % (t["name"], " | ".join(cells)))
    out.append("")
    out.append("Geometric means over the workloads; ratios are to the plain -O2 build of the same "
               "compiler (1.00 = no overhead); counter memory is the geometric mean in bytes.")
    if res.get("run_spread_median") is not None:
        out.append("Run-time noise: the runs of one build spread by %.0f%% of their median (median over "
                   "builds); run time from each build's fastest run instead: %s." % (
                       100 * res["run_spread_median"],
                       ", ".join("%s %s" % (t["name"], fmt_ratio(res["geomean"]["run_min"][t["name"]]["value"]))
                                 for t in avail)))
    for key, title, kind in METRICS:
        out.append("")
        out.append("### " + title)
        out.append("")
        head = ["workload"]
        if key == "run":
            head += ["%s (s)" % b["name"] for b in bases if b["available"]]
        head += [t["name"] for t in avail]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for w in wl:
            row = [w["name"]]
            if key == "run":
                row += [fmt_secs(res["baseline_seconds"][b["name"]].get(w["name"])) for b in bases if b["available"]]
            for t in avail:
                v = res["metrics"][key][w["name"]][t["name"]]
                row.append(fmt_bytes(v) if key == "counter_bytes" else fmt_ratio(v))
            out.append("| " + " | ".join(row) + " |")
        row = ["**geomean**"]
        if key == "run":
            row += ["" for b in bases if b["available"]]
        for t in avail:
            v = res["geomean"][key][t["name"]]["value"]
            row.append("**%s**" % (fmt_bytes(v) if key == "counter_bytes" else fmt_ratio(v)))
        out.append("| " + " | ".join(row) + " |")
    ovp = res.get("osp_vs_path")
    if ovp:
        out.append("")
        out.append("### pathcc osp against pathcc path")
        out.append("")
        out.append("| workload | osp overhead | path overhead | osp/path run time | osp/path counter memory |")
        out.append("|---|---|---|---|---|")
        pct = lambda v: "–" if v is None else "%+.0f%%" % (100 * v)
        for w in wl:
            r = ovp["workloads"].get(w["name"], {})
            out.append("| %s | %s | %s | %s | %s |" % (w["name"], pct(r.get("osp_overhead")), pct(r.get("path_overhead")),
                                                      fmt_ratio(r.get("run")), fmt_ratio(r.get("memory"))))
        out.append("| **geomean** | | | **%s** | **%s** |" % (fmt_ratio(ovp["geomean"]["run"]),
                                                             fmt_ratio(ovp["geomean"]["memory"])))
        out.append("")
        out.append("osp at its defaults (hot list M = 32 KiB, a sample starting every 128 block entries on "
                   "average); its counter memory is M, path mode's its counters and hash tables.")

    if res.get("ppp"):
        out += ppp_markdown(res["ppp"])
    out.append("")
    out += fixed_cost_markdown(res)
    out += path_ends_markdown(res)
    out.append("")
    out.append("### Goals")
    out.append("")
    for g in res["goals"]:
        out.append("- " + goal_text(g))
    rw = res.get("rewriter")
    if rw:
        out.append("")
        if rw.get("lines_per_second"):
            out.append("Rewriter throughput: %.0f lines of preprocessed C per second (%s: %d lines, "
                       "%.3f s of pathcc's own CPU time; pathcc -c %.3f s = cc -E %.3f s + rewriter + "
                       "cc -c %.3f s)" % (rw["lines_per_second"], rw["unit"], rw["lines"],
                                           rw["rewriter_cpu"], rw["pathcc_cpu"], rw["cpp_cpu"], rw["cc_cpu"]))
        else:
            out.append("Rewriter throughput: not measured (%s)" % rw.get("note", "?"))
    notes = []
    for t in res["tools"]:
        if not t["available"]:
            notes.append("%s: skipped: %s" % (t["name"], t["note"]))
    for w in res["workloads"]:
        if not w["available"]:
            notes.append("workload %s: skipped: %s" % (w["name"], w["note"]))
    notes += res.get("notes", [])
    if notes:
        out.append("")
        out.append("Notes:")
        out.append("")
        for n in notes:
            out.append("- " + n)
    return "\n".join(out) + "\n"


def goal_text(g):
    """One line for a goal: what it asks, and its verdict with the figures compared."""
    what = {"geomean": "%(tool)s overhead <= %(bound).1fx %(reference)s's on the geometric mean (%(m)s)",
            "each": "%(tool)s overhead <= %(bound).1fx %(reference)s's on every workload (%(m)s)",
            "build": "%(tool)s build time <= %(reference)s's + %(bound).2f on the geometric mean",
            "unit": "%(tool)s one-function unit <= %(bound).1fx %(reference)s's CPU time"}[g["kind"]] % dict(
                g, m=" and ".join(g["metrics"]))
    if g["status"] == "not measured":
        return what + ": not measured"
    if g["kind"] in ("build",):
        figs = "%.2f vs limit %.2f" % (g["value"], g["limit"])
    elif g["kind"] == "unit":
        figs = "%.3f s vs limit %.3f s" % (g["value"], g["limit"])
    else:
        figs = "%s%+.1f%% vs limit %+.1f%%" % ("worst " if g["kind"] == "each" else "", 100 * g["value"], 100 * g["limit"])
    fail = ""
    if g["failing"]:
        fail = "; fails: " + ", ".join(g["failing"][:8]) + (" and %d more" % (len(g["failing"]) - 8) if len(g["failing"]) > 8 else "")
    return "%s: **%s** (%s%s)" % (what, g["status"], figs, fail)


def fixed_cost_markdown(res):
    """The per-unit fixed cost: CPU time of compiling a one-function unit, per build."""
    fc = res.get("fixed_cost") or {}
    if not fc:
        return []
    out = ["", "### Per-unit fixed cost (CPU time to compile a one-function unit with `-c`, median; "
           "%d units a command, pathcc's compile server started in it)" % UNIT_N, "",
           "| build | CPU s | ratio to its plain build |", "|---|---|---|"]
    for t in res["tools"]:
        for name in (t["name"], t["name"] + IN_PROCESS):
            v = fc.get(name)
            if v and v.get("cpu") is not None:
                out.append("| %s | %.4f | %s |" % (name, v["cpu"], fmt_ratio(v.get("ratio")) if v.get("ratio") else "–"))
    return out


def path_ends_markdown(res):
    """Where path mode's path ends went in each workload's last timed run."""
    pe = {w: v for w, v in (res.get("path_ends") or {}).items() if v}
    if not pe:
        return []
    out = ["", "### Path ends of `pathcc path` (last timed run)", "",
           "| workload | path ends | to arrays | to hash tables (through the inline cache) | dropped |", "|---|---|---|---|---|"]
    for w in [x["name"] for x in res["workloads"] if x["name"] in pe]:
        v = pe[w]
        tot = v["array"] + v["hash"] + v["dropped"]
        pct = lambda x: "%d (%.1f%%)" % (x, 100.0 * x / tot) if tot else "0"
        out.append("| %s | %d | %s | %s | %d |" % (w, tot, pct(v["array"]), pct(v["hash"]), v["dropped"]))
    return out


def ppp_markdown(rows):
    """The ppp section: lambda per workload, run time against path mode, the functions path
    mode hashes."""
    out = ["", "### ppp: compactness and the functions path mode counts in a hash table", "",
           "Interesting paths: those a training run (the path-mode build at the quick scale) executed. "
           "λ = (max PPP id + 1) / interesting paths, per function with interesting paths.", "",
           "| workload | build | functions | λ = 1 | ≤ 1.5 | ≤ 2 | > 2 | max λ | run time / path mode's | "
           "instructions / path mode's | path-mode hash functions | residual paths (executions) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        l, res = r["lambda"], r.get("residual") or {}
        out.append("| %s | %s | %d | %d | %d | %d | %d | %s | %s | %s | %d | %s |" % (
            r["workload"], r["tool"], l["functions"], l["one"], l["le1.5"], l["le2"], l["gt2"],
            "–" if l["max"] is None else "%.2f" % l["max"], fmt_ratio(r["run_vs_path"]),
            fmt_ratio(r.get("instructions_vs_path")), len(r["path_hash"]),
            "%d (%d)" % (res.get("paths", 0), res.get("executions", 0)) if res else "–"))
    hashed = [(r["workload"], f) for r in rows for f in r["path_hash"]]
    if hashed:
        out += ["", "Functions path mode counts in its hash table (more paths than --array-limit), in ppp:", ""]
        for wl, f in hashed:
            if f.get("interesting"):
                out.append("- %s `%s`: %d static paths; %d interesting in %d slots (λ %.2f), %s" % (
                    wl, f["name"], f["paths"], f["interesting"], f["slots"], f["lambda"],
                    "an array" if f["counter"] == "ppp" else "still the hash table"))
            else:
                out.append("- %s `%s`: %s static paths; no interesting path (hash table for residual paths only)" % (
                    wl, f["name"], f.get("paths", "?")))
    return out


def chart(res, outdir):
    """overhead.png: clustered bars of run-time ratios per workload and tool (log scale), via gnuplot.
    Returns None on success, else the reason it was skipped."""
    gp = shutil.which("gnuplot")
    if not gp:
        return "gnuplot not installed (Debian: gnuplot-nox), no chart"
    avail = [t for t in res["tools"] if t["baseline"] != "-" and t["available"]]
    wl = [w for w in res["workloads"] if w["available"]]
    if not avail or not wl:
        return "nothing to chart"
    dat = os.path.join(outdir, "overhead.dat")
    with open(dat, "w") as f:
        f.write("workload " + " ".join('"%s"' % t["name"] for t in avail) + "\n")
        rows = [(w["name"], [res["metrics"]["run"][w["name"]][t["name"]] for t in avail]) for w in wl]
        rows.append(("geomean", [res["geomean"]["run"][t["name"]]["value"] for t in avail]))
        for name, vals in rows:
            f.write('"%s" ' % name + " ".join("?" if v is None else "%.4f" % v for v in vals) + "\n")
    terms = subprocess.run([gp, "-e", "set terminal"], capture_output=True, text=True).stdout + \
        subprocess.run([gp, "-e", "set terminal"], capture_output=True, text=True).stderr
    term = "pngcairo size 1200,560 font ',10'" if "pngcairo" in terms else "png size 1200,560"
    script = os.path.join(outdir, "overhead.gp")
    with open(script, "w") as f:
        f.write("""set terminal %s
set output '%s'
set title 'Run time relative to the plain -O2 build of the same compiler (median CPU time, %s mode)'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [0.8:*]
set ytics (0.8, 1, 1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32)
set autoscale yfixmax
set ylabel 'run time / plain run time (log scale; 1 = no overhead)'
set grid ytics
set key top left
set xtics nomirror
plot for [i=2:%d] '%s' using i:xtic(1) title columnheader(i)
""" % (term, os.path.join(outdir, "overhead.png"), res.get("mode"), len(avail) + 1, dat))
    r = subprocess.run([gp, script], capture_output=True, text=True)
    if r.returncode != 0:
        return "gnuplot failed: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    return None


def report(raw, outdir, want_chart=True):
    os.makedirs(outdir, exist_ok=True)
    res = compute(raw)
    if want_chart:
        why = chart(res, outdir)
        if why:
            res["notes"].append("chart: " + why)
        else:
            res["chart"] = os.path.join(outdir, "overhead.png")
    else:
        res["notes"].append("chart: not requested")
    md = markdown(res)
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
        f.write("\n")
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write(md)
    return res, md


# ---------------------------------------------------------------- running things

def spawn(argv, cwd, env=None, stdout=None, stderr=None, timeout=None):
    """Runs argv; returns (exit code, cpu seconds incl. waited-for children, wall seconds).
    CPU time comes from wait4's rusage, so the harness's own work is never counted."""
    import threading
    t0 = time.perf_counter()
    with open(stdout or os.devnull, "wb") as so, open(stderr or os.devnull, "wb") as se:
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=so, stderr=se, stdin=subprocess.DEVNULL)
        killer = threading.Timer(timeout, p.kill) if timeout else None
        if killer:
            killer.start()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        if killer:
            killer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)   # reaped here; keep Popen from waiting again
    return p.returncode, ru.ru_utime + ru.ru_stime, wall


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def out_of(argv, cwd=None):
    try:
        r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None
    except OSError:
        return None


def first_line(text):
    for l in text.splitlines():
        if l.strip():
            return l.strip()[:200]
    return "?"


PROBE_C = r"""
#include <stdio.h>
static int f(int x) { int s = 0; while (x > 0) { if (x & 1) s += x; else s -= 1; x--; } return s; }
int main(void) { printf("%d\n", f(100)); return 0; }
"""


TRAIN_TOOL = "pathcc path"   # {train}: a profile of this build of the workload, run at the quick scale


def tool_argv(t, train=None):
    """The build command; {pathcc} is this checkout's pathcc, {train} the training profile."""
    return [PATHCC if w == "{pathcc}" else w.replace("{train}", train or "{train}") for w in shlex.split(t["command"])]


def needs_train(t):
    return "{train}" in t["command"]


def train(argv, d, scale, src_args, env):
    """Builds with argv into d/train and runs it at scale; returns the profile or None and why."""
    td = os.path.join(d, "train")
    shutil.rmtree(td, ignore_errors=True)
    os.makedirs(td)
    rc, _, _ = spawn(argv + src_args, td, env=env, stderr=os.path.join(td, "build.err"), timeout=600)
    if rc != 0:
        return None, "training build failed: " + first_line(read(os.path.join(td, "build.err")))
    prof = os.path.join(td, "train.prof")
    renv = dict(profile_env(td), PATHPROF_FILE=prof)
    rc, _, _ = spawn(["./prog"] + ([str(scale)] if scale is not None else []), td, env=renv,
                     stdout=os.path.join(td, "run.out"), timeout=900)
    if rc != 0 or not os.path.exists(prof):
        return None, "training run failed (exit %d)" % rc
    return prof, None


def profile_env(cell):
    env = dict(os.environ)
    env["PATHPROF_FILE"] = os.path.join(cell, "pathprof.out")
    env["PATHPROF_OSP_FILE"] = os.path.join(cell, "pathprof.osp")
    for k in list(env):
        if k.startswith("PATHPROF_OSP_") and k != "PATHPROF_OSP_FILE":
            del env[k]   # osp runs with its defaults (M = 32 KiB, rate 1/128)
    env["LLVM_PROFILE_FILE"] = os.path.join(cell, "default.profraw")
    env.pop("GCOV_PREFIX", None)
    env.pop("GCOV_PREFIX_STRIP", None)
    env.pop("PATHCC_KEEP", None)
    return env


# The directory of the bench's compile servers (made once, mode 0700): no server of the user's is
# used, and none outlives the bench.
SERVER_DIR = []


def build_env():
    """The environment for builds: nothing of the user's pathcc or profile settings leaks in
    (PATHCC_FLAGS could change the mode, PATHPROF_DB would move the tables away). pathcc runs
    in-process (PATHCC_SERVER=0): a server it started by itself would be no child of the measured
    command, its CPU uncounted; served() runs one inside the command instead."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PATHCC_") or k in ("PATHPROF_DB", "GCOV_PREFIX", "GCOV_PREFIX_STRIP"):
            del env[k]
    if not SERVER_DIR:
        SERVER_DIR.append(tempfile.mkdtemp(prefix="pathcc-bench-"))
        atexit.register(shutil.rmtree, SERVER_DIR[0], True)
    env["XDG_RUNTIME_DIR"] = SERVER_DIR[0]
    env["PATHCC_SERVER"] = "0"
    return env


# The measured command with pathcc's compile server started in the foreground inside it and
# stopped (SIGTERM, waited for) at its end, so the server's CPU and its workers' count as the
# command's children's. Should the server not start, the compiles run in-process.
SERVED_SH = r"""d=$(mktemp -d) && mkfifo "$d/ready" || exit 1
env -u PATHCC_SERVER "$PATHCC_BENCH" --server >"$d/ready" 2>/dev/null & s=$!
read line <"$d/ready" && unset PATHCC_SERVER
"$@"; rc=$?
kill -TERM $s; wait $s; rm -rf "$d"
exit $rc"""


def served(t, argv):
    """argv through a compile server of its own when t is a pathcc build, else argv."""
    if "{pathcc}" not in t["command"]:
        return argv
    return ["env", "PATHCC_BENCH=" + PATHCC, "sh", "-c", SERVED_SH, "sh"] + argv


def dot_pathcc(start):
    """The nearest .pathcc file upward from start (it would select what pathcc instruments)."""
    d = os.path.abspath(start)
    while True:
        if os.path.isfile(os.path.join(d, ".pathcc")):
            return os.path.join(d, ".pathcc")
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def clear_profiles(cell):
    for n in os.listdir(cell):
        if n.startswith("pathprof.out") or n.startswith("pathprof.osp") or n.endswith(".gcda") or n.endswith(".profraw"):
            os.unlink(os.path.join(cell, n))


def profile_written(cell, counters):
    names = os.listdir(cell)
    if counters in ("pathcc", "kpath"):
        return "pathprof.out" in names
    if counters == "osp":
        return "pathprof.osp" in names
    if counters == "gcov":
        return any(n.endswith(".gcda") for n in names)
    if counters == "llvm":
        return any(n.endswith(".profraw") for n in names)
    return True


def probe_tool(t, workdir):
    """Builds and runs a small program with the tool; returns None or why it is unusable."""
    d = os.path.join(workdir, "probe", re.sub(r"[^A-Za-z0-9]+", "_", t["name"]))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "probe.c"), "w") as f:
        f.write(PROBE_C)
    argv = tool_argv(t)
    if not shutil.which(argv[0]) and not os.path.exists(argv[0]):
        return "%s not found" % argv[0]
    if needs_train(t):
        prof, why = train([PATHCC, "gcc", "-O2"], d, None, ["-o", "prog", os.path.join(d, "probe.c")], build_env())
        if not prof:
            return why
        argv = tool_argv(t, prof)
    rc, _, _ = spawn(argv + ["-o", "probe", "probe.c"], d, env=build_env(), stderr=os.path.join(d, "build.err"),
                     timeout=120)
    err = read(os.path.join(d, "build.err"))
    if rc != 0:
        if "profile" in err and ("cannot find" in err or "No such file" in err):
            return "clang's profile runtime is missing (Debian: libclang-rt-%s-dev)" % clang_major()
        return "probe build failed: " + first_line(err)
    rc, _, _ = spawn(["./probe"], d, env=profile_env(d), stdout=os.path.join(d, "run.out"), timeout=60)
    if rc != 0 or read(os.path.join(d, "run.out")).strip() != "2450":
        return "probe program ran wrong (exit %d)" % rc
    if not profile_written(d, t["counters"]):
        return "probe program wrote no profile"
    return None


def clang_major():
    v = out_of(["clang", "-dumpversion"]) or "14"
    return v.strip().split(".")[0]


def machine_info():
    cpu = "?"
    for l in read("/proc/cpuinfo").splitlines():
        if l.startswith("model name"):
            cpu = l.split(":", 1)[1].strip()
            break
    def ver(argv):
        o = out_of(argv)
        return first_line(o) if o else "not installed"
    commit = out_of(["git", "-C", TOP, "rev-parse", "--short", "HEAD"])
    dirty = out_of(["git", "-C", TOP, "status", "--porcelain", "--untracked-files=no"])
    return {"date": time.strftime("%Y-%m-%d %H:%M"), "cpu": cpu, "cpus": os.cpu_count(),
            "kernel": platform.release(), "gcc": ver(["gcc", "--version"]),
            "clang": ver(["clang", "--version"]), "valgrind": ver(["valgrind", "--version"]),
            "gnuplot": ver(["gnuplot", "--version"]),
            "commit": (commit.strip() if commit else "?") + ("+dirty" if dirty else ""),
            "loadavg": read("/proc/loadavg").strip()}


def unpack_zlib(cache):
    """GCC's zlib from Debian's gcc-12-source tarball into cache/zlib; returns (dir, note)."""
    d = os.path.join(cache, "zlib")
    if os.path.exists(os.path.join(d, "deflate.c")):
        return d, None
    import glob
    tars = sorted(glob.glob(ZLIB_TARBALL_GLOB))
    if not tars:
        return None, "gcc-12-source is not installed (no %s)" % ZLIB_TARBALL_GLOB
    tmp = tempfile.mkdtemp(dir=cache)
    log("unpacking zlib from %s" % tars[-1])
    r = subprocess.run(["tar", "-xf", tars[-1], "-C", tmp, "--wildcards", "*/zlib/*.[ch]"],
                       capture_output=True, text=True)
    found = glob.glob(os.path.join(tmp, "*", "zlib"))
    if r.returncode != 0 or not found:
        shutil.rmtree(tmp, ignore_errors=True)
        return None, "could not unpack zlib from %s: %s" % (tars[-1], first_line(r.stderr))
    shutil.rmtree(d, ignore_errors=True)
    os.rename(found[0], d)
    shutil.rmtree(tmp, ignore_errors=True)
    return d, None


def prepare_binutils(cache):
    """GNU binutils from Debian's binutils-source, configured and its libraries built once into
    cache/binutils by bench/binutils.sh (~1 minute); returns (dir, note)."""
    d = os.path.join(cache, "binutils")
    if not os.path.exists(os.path.join(d, "ready")):
        log("preparing binutils (readelf's libraries) in %s" % d)
    r = subprocess.run(["sh", os.path.join(HERE, "binutils.sh"), cache], capture_output=True, text=True)
    if r.returncode != 0:
        return None, first_line(r.stdout + r.stderr)
    return d, None


def binutils_path(bdir, s):
    """@binutils-obj/X is X in the configured build tree, @binutils/X in the unpacked sources;
    either may stand inside a flag (-I@binutils/include)."""
    s = s.replace("@binutils-obj", os.path.join(bdir, "obj"))
    return s.replace("@binutils", os.path.join(bdir, "src"))


# ---------------------------------------------------------------- the run

def load_config(tools_conf=None):
    tools = [{"name": n, "baseline": b, "command": c, "counters": k}
             for n, b, c, k in parse_conf(read(tools_conf or os.path.join(HERE, "tools.conf")), 4)]
    wls = [{"name": n, "sources": s.split(), "flags": fl.split(), "full": int(fu), "quick": int(q),
            "callgrind": int(cg), "builds": [x.strip() for x in bl.split(",") if x.strip()] if bl and bl != "*" else None}
           for n, s, fl, fu, q, cg, bl in parse_conf_var(read(os.path.join(HERE, "workloads.conf")), 6, 7)]
    return tools, wls


def run(args):
    mode = "quick" if args.quick else "full"
    cfg = dict(MODES[mode])
    if args.rounds:
        cfg["rounds"] = args.rounds
    outdir = os.path.abspath(args.out or os.path.join(HERE, "results", mode))
    cache = os.path.join(HERE, "results", "cache")
    os.makedirs(cache, exist_ok=True)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    t_start = time.time()
    tools, wls = load_config(args.tools_conf)
    if args.tools:
        keep = set(args.tools.split(","))
        tools = [t for t in tools if t["name"] in keep or t["baseline"] == "-"]
    if args.workloads:
        keep = set(args.workloads.split(","))
        wls = [w for w in wls if w["name"] in keep]
    notes = []
    raw = {"format": "pathprof-bench-raw", "version": 1, "mode": mode, "config": cfg,
           "machine": machine_info(), "notes": notes, "tools": [], "workloads": [], "cells": {}}

    # tools: probe each; a tool whose baseline is missing is skipped too
    log("%s mode: probing %d builds" % (mode, len(tools)))
    names = {t["name"] for t in tools}
    for t in tools:
        why = probe_tool(t, outdir)
        if not why and t["baseline"] != "-" and t["baseline"] not in names:
            why = "baseline %s is not in tools.conf" % t["baseline"]
        t["available"], t["note"] = why is None, why or ""
    for t in tools:
        if t["available"] and t["baseline"] != "-":
            b = [x for x in tools if x["name"] == t["baseline"]][0]
            if not b["available"]:
                t["available"], t["note"] = False, "its baseline %s is unavailable" % b["name"]
        log("  %-14s %s" % (t["name"], "ok" if t["available"] else "skipped: " + t["note"]))
    raw["tools"] = [{k: t[k] for k in ("name", "baseline", "command", "counters", "available", "note")} for t in tools]
    avail = [t for t in tools if t["available"]]
    if not any(t["baseline"] == "-" for t in avail):
        raise SystemExit("bench: no baseline compiler works (see notes above)")

    # workloads: resolve sources
    zdir, znote = None, None
    if any("@zlib/" in s for w in wls for s in w["sources"]):
        zdir, znote = unpack_zlib(cache)
    bdir, bnote = None, None
    if any(s.startswith("@binutils") for w in wls for s in w["sources"]):
        bdir, bnote = prepare_binutils(cache)
    for w in wls:
        w["available"], w["note"] = True, ""
        srcs, flags = [], []
        for s in w["sources"]:
            if s.startswith("@zlib/"):
                if not zdir:
                    w["available"], w["note"] = False, znote
                    break
                srcs.append(os.path.join(zdir, s[len("@zlib/"):]))
            elif s.startswith("@binutils"):
                if not bdir:
                    w["available"], w["note"] = False, bnote
                    break
                srcs.append(binutils_path(bdir, s))
            else:
                srcs.append(os.path.join(HERE, s))
        for fl in w["flags"]:
            flags.append(binutils_path(bdir, fl) if bdir and "@binutils" in fl else fl.replace("@zlib", zdir or "@zlib"))
        w["paths"], w["cflags"] = srcs, flags
        w["scale"], w["callgrind_scale"] = w[mode], w["callgrind"]
        if not w["available"]:
            log("workload %s skipped: %s" % (w["name"], w["note"]))
    raw["workloads"] = [{k: w[k] for k in ("name", "sources", "flags", "scale", "callgrind_scale", "available", "note")}
                        for w in wls]
    wls = [w for w in wls if w["available"]]
    cells = raw["cells"]

    def cdir(w, t):
        return os.path.join(outdir, "build", w["name"], re.sub(r"[^A-Za-z0-9]+", "_", t["name"]))

    def fail(w, t, why):
        c = cells["%s/%s" % (w["name"], t["name"])]
        if c["ok"]:
            c["ok"], c["note"] = False, why
            notes.append("%s with %s: %s" % (w["name"], t["name"], why))
            log("  FAILED %s with %s: %s" % (w["name"], t["name"], why))

    # builds (serial, so build times are not disturbed), repeated for the median
    log("building %d workloads x %d builds (%d repeat%s)" % (len(wls), len(avail), cfg["build_repeats"],
                                                            "s" if cfg["build_repeats"] > 1 else ""))
    for w in wls:
        for t in avail:
            d = cdir(w, t)
            os.makedirs(d, exist_ok=True)
            # a workload may name the builds it is run with (workloads.conf); baselines always run
            wanted = t["baseline"] == "-" or w.get("builds") is None or t["name"] in w["builds"]
            cells["%s/%s" % (w["name"], t["name"])] = {"ok": wanted, "note": "" if wanted else "not run for this workload",
                                                       "build_cpu": [], "build_wall": [], "run_cpu": [], "run_wall": []}
    benv = build_env()
    # {train} builds (ppp): the workload's path-mode build run once at the quick scale gives the
    # interesting paths, a training input smaller than the measured one
    for w in wls:
        for t in avail:
            if needs_train(t) and cells["%s/%s" % (w["name"], t["name"])]["ok"]:
                prof, why = train([PATHCC, "--mode=path", "gcc", "-O2"] + w["cflags"], cdir(w, t), w["quick"],
                                  ["-o", "prog"] + w["paths"] + ["-lm"], benv)
                if prof:
                    w.setdefault("train", {})[t["name"]] = prof
                else:
                    fail(w, t, why)
    dp = dot_pathcc(outdir)
    if dp:
        notes.append("%s selects what pathcc instruments in these builds" % dp)
    for rep in range(cfg["build_repeats"]):
        for w in wls:
            for t in avail:
                c = cells["%s/%s" % (w["name"], t["name"])]
                if not c["ok"]:
                    continue
                d = cdir(w, t)
                argv = tool_argv(t, w.get("train", {}).get(t["name"])) + w["cflags"] + ["-o", "prog"] + w["paths"] + ["-lm"]
                # one command compiles and links every unit: pathcc loads libclang once for all of
                # them, and by default starts no server for a build's first command (in-process)
                rc, cpu, wall = spawn(argv, d, env=benv, stderr=os.path.join(d, "build.err"), timeout=600)
                if rc != 0:
                    fail(w, t, "build failed: " + first_line(read(os.path.join(d, "build.err"))))
                    continue
                c["build_cpu"].append(cpu)
                c["build_wall"].append(wall)
                if rep == 0:
                    warn = [l for l in read(os.path.join(d, "build.err")).splitlines() if "pathcc: warning" in l]
                    if warn:
                        notes.append("%s with %s: %d pathcc warning(s), first: %s" % (w["name"], t["name"], len(warn), warn[0][:160]))

    # static figures: counter memory, image size
    for w in wls:
        for t in avail:
            c = cells["%s/%s" % (w["name"], t["name"])]
            if not c["ok"]:
                continue
            d = cdir(w, t)
            prog = os.path.join(d, "prog")
            c["image_bytes"] = image_bytes(out_of(["size", prog]) or "")
            k = t["counters"]
            if k == "gcov":
                c["counter_bytes"] = gcov_counter_bytes(out_of(["nm", "-S", "--defined-only", prog]) or "")
            elif k == "llvm":
                c["counter_bytes"] = llvm_counter_bytes(out_of(["size", "-A", prog]) or "")
            elif k == "pathcc":
                tables, skipped = [], 0
                for n in sorted(os.listdir(d)):
                    if n.endswith(".pp.json"):
                        try:
                            with open(os.path.join(d, n)) as f:
                                tables.append(json.load(f))
                        except (OSError, ValueError) as e:
                            notes.append("%s with %s: unreadable tables %s: %s" % (w["name"], t["name"], n, e))
                c["counter_bytes"] = pathcc_counter_bytes(tables) if tables else None
                c["units"] = len(tables)
                c["functions"] = sum(len(x.get("functions", [])) for x in tables)
                c["hash_functions"] = sum(1 for x in tables for f in x.get("functions", []) if f.get("counter") == "hash")
                c["function_counters"] = ppp_functions(tables)
                skipped = sum(len(x.get("skipped", [])) for x in tables)
                if skipped:
                    notes.append("%s with %s: %d function(s) left uninstrumented (see the tables' \"skipped\")"
                                 % (w["name"], t["name"], skipped))
            elif k == "osp":
                c["counter_bytes"] = None  # from the snapshot of the first timed run
            else:
                c["counter_bytes"] = None

    # timed runs, interleaved: round by round, each workload, each build (start rotated).
    # Round 1 also checks each build: its output must be the plain gcc build's, end in PASS,
    # and the run must write a profile; a failed cell keeps no times.
    order = [(w, t) for w in wls for t in avail]
    ref_tool = "gcc -O2" if any(t["name"] == "gcc -O2" for t in avail) else None
    log("timing: %d rounds of %d runs (round 1 also checks outputs)" % (cfg["rounds"], len(order)))
    for r in range(cfg["rounds"]):
        for w in wls:
            ts = avail[r % len(avail):] + avail[:r % len(avail)]
            for t in ts:
                c = cells["%s/%s" % (w["name"], t["name"])]
                if not c["ok"]:
                    continue
                d = cdir(w, t)
                clear_profiles(d)
                so = os.path.join(d, "run.out") if r == 0 else None
                se = os.path.join(d, "run.err") if r == 0 else None
                rc, cpu, wall = spawn(["./prog", str(w["scale"])], d, env=profile_env(d), stdout=so, stderr=se,
                                      timeout=900)
                if rc != 0:
                    why = first_line(read(se)) if se else ""
                    fail(w, t, "run exited %d%s" % (rc, ": " + why if why else ""))
                    continue
                if r == 0:
                    if not read(so).rstrip().endswith("PASS"):
                        fail(w, t, "output does not end in PASS")
                        continue
                    if not profile_written(d, t["counters"]):
                        fail(w, t, "no profile written")
                        continue
                    if t["counters"] == "osp":
                        with open(os.path.join(d, "pathprof.osp"), "rb") as f:
                            c["counter_bytes"] = osp_memory_bytes(f.read())
                c["run_cpu"].append(cpu)
                c["run_wall"].append(wall)
            if r == 0 and ref_tool:
                ref = read(os.path.join(cdir(w, [t for t in avail if t["name"] == ref_tool][0]), "run.out"))
                for t in avail:
                    c = cells["%s/%s" % (w["name"], t["name"])]
                    if c["ok"] and t["name"] != ref_tool and read(os.path.join(cdir(w, t), "run.out")) != ref:
                        c["run_cpu"], c["run_wall"] = [], []
                        fail(w, t, "output differs from %s's" % ref_tool)
        log("  round %d of %d done" % (r + 1, cfg["rounds"]))

    # forest memory of kpath builds: from the last timed run's profile
    for w in wls:
        for t in avail:
            c = cells["%s/%s" % (w["name"], t["name"])]
            if t["counters"] == "kpath" and c["ok"]:
                d = cdir(w, t)
                c["counter_bytes"] = kpath_forest_bytes(out_of([os.path.join(TOP, "bin", "pathprof"), "kpaths", "--json",
                                                                os.path.join(d, "pathprof.out")]) or "")
    # ppp builds: the residual paths of the last timed run (hash entries of its profile)
    for w in wls:
        for t in avail:
            c = cells["%s/%s" % (w["name"], t["name"])]
            if c["ok"] and needs_train(t):
                dump = out_of([os.path.join(TOP, "bin", "pathprof"), "dump", os.path.join(cdir(w, t), "pathprof.out")])
                c["residual"] = residual_counts(dump) if dump else None

    # path mode: where the last timed run's path ends went (arrays, hash tables, dropped)
    for w in wls:
        c = cells.get("%s/%s" % (w["name"], PATH))
        if c and c["ok"]:
            dump = out_of([os.path.join(TOP, "bin", "pathprof"), "dump",
                           os.path.join(cdir(w, [t for t in avail if t["name"] == PATH][0]), "pathprof.out")])
            c["path_ends"] = path_ends(dump) if dump else None

    # the per-unit fixed cost: each build compiling a one-function unit
    raw["fixed_cost"] = fixed_cost(avail, outdir, max(5, cfg["build_repeats"]), benv)

    # instruction counts (parallel: counts do not depend on load)
    if shutil.which("valgrind"):
        log("callgrind: %d runs on %d CPUs" % (len(order), os.cpu_count() or 1))

        def cg(wt):
            w, t = wt
            c = cells["%s/%s" % (w["name"], t["name"])]
            if not c["ok"]:
                return
            d = cdir(w, t)
            cgd = os.path.join(d, "cg")
            os.makedirs(cgd, exist_ok=True)
            clear_profiles(cgd)
            env = profile_env(cgd)
            prog = os.path.join(d, "prog")
            if t["counters"] == "llvm" and shutil.which("objcopy"):
                # valgrind 3.19 trips over the __covrec_* symbols of clang's coverage mapping
                # (non-allocated sections whose offsets look like text addresses: "Assertion
                # 'in_rx' failed"); those sections are only read by llvm-cov, never at run time
                if subprocess.run(["objcopy", "--remove-section=__llvm_covfun", "--remove-section=__llvm_covmap",
                                   prog, os.path.join(cgd, "prog")]).returncode == 0:
                    prog = os.path.join(cgd, "prog")
            rc, _, _ = spawn(["valgrind", "--tool=callgrind", "--toggle-collect=main",
                              "--callgrind-out-file=" + os.path.join(cgd, "callgrind.out"),
                              prog, str(w["callgrind_scale"])], cgd, env=env,
                             stdout=os.path.join(cgd, "run.out"), stderr=os.path.join(cgd, "valgrind.err"),
                             timeout=900)
            n = callgrind_instructions(read(os.path.join(cgd, "valgrind.err")))
            if rc != 0 or n is None or not read(os.path.join(cgd, "run.out")).rstrip().endswith("PASS"):
                c["instructions"] = None
                notes.append("%s with %s: callgrind run failed (exit %d)" % (w["name"], t["name"], rc))
            else:
                c["instructions"] = n
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as ex:
            list(ex.map(cg, order))
    else:
        notes.append("instructions: valgrind not installed, column empty")

    # rewriter throughput on the largest preprocessed unit
    raw["rewriter"] = rewriter(wls, outdir, cfg["rewriter_repeats"],
                               any(t["counters"] == "pathcc" for t in avail))
    raw["elapsed_seconds"] = round(time.time() - t_start, 1)
    notes.append("bench %s took %.0f s; load average at start %s" % (mode, raw["elapsed_seconds"],
                                                                     raw["machine"]["loadavg"]))
    with open(os.path.join(outdir, "raw.json"), "w") as f:
        json.dump(raw, f, indent=1, sort_keys=True)
        f.write("\n")
    res, md = report(raw, outdir, not args.no_chart)
    sys.stdout.write(md)
    sys.stdout.write("\n(results in %s: results.md, results.json, raw.json%s)\n" % (
        outdir, ", overhead.png" if res.get("chart") else ""))


def fixed_cost(avail, outdir, repeats, env):
    """CPU seconds of `-c` on a one-function unit (UNIT_C), per build: UNIT_N distinct such units
    compiled one after the other in one measured command, divided by UNIT_N, repeats times (builds
    with a {train} profile left out: their cost is path mode's). A pathcc build runs its compile
    server inside the command (served()), so the server's start is counted, shared by the UNIT_N
    units; `NAME, in-process` is the same build with no server."""
    d = os.path.join(outdir, "unit")
    os.makedirs(d, exist_ok=True)
    for i in range(UNIT_N):
        with open(os.path.join(d, "one%d.c" % i), "w") as f:
            f.write(UNIT_C.replace("clamp", "clamp%d" % i))
    log("per-unit fixed cost: %d repeats per build of %d units each" % (repeats, UNIT_N))
    res = {}
    loop = 'for i in $(seq 0 %d); do "$@" -c one$i.c -o one$i.o || exit 1; done' % (UNIT_N - 1)
    for _ in range(repeats):
        for t in avail:
            if needs_train(t):
                continue
            runs = [(t["name"], served(t, ["sh", "-c", loop, "sh"] + tool_argv(t)))]
            if "{pathcc}" in t["command"]:
                runs.append((t["name"] + IN_PROCESS, ["sh", "-c", loop, "sh"] + tool_argv(t)))
            for name, argv in runs:
                rc, cpu, _w = spawn(argv, d, env=env, stderr=os.path.join(d, "build.err"), timeout=300)
                if rc == 0:
                    res.setdefault(name, {"cpu": []})["cpu"].append(cpu / UNIT_N)
    return res


def rewriter(wls, outdir, repeats, have_pathcc):
    if not have_pathcc:
        return {"note": "pathcc unavailable"}
    d = os.path.join(outdir, "rewriter")
    os.makedirs(d, exist_ok=True)
    best = None
    for w in wls:
        for s in w["paths"]:
            i = os.path.join(d, "probe.i")
            if spawn(["gcc", "-O0", "-E", "-C"] + w["cflags"] + [s, "-o", i], d)[0] == 0:
                n = sum(1 for _ in open(i, errors="replace"))
                if best is None or n > best[0]:
                    best = (n, s, w["cflags"])
    if not best:
        return {"note": "no unit preprocessed"}
    lines, src, flags = best
    log("rewriter throughput on %s (%d preprocessed lines)" % (os.path.basename(src), lines))
    tmp = os.path.join(d, "tmp")
    pc, cp, cc = [], [], []
    for _ in range(repeats):
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        env = dict(build_env(), PATHCC_KEEP="1", TMPDIR=tmp)
        rc, cpu, _ = spawn([PATHCC, "gcc", "-O0"] + flags + ["-c", src, "-o", "unit.o"], d, env=env,
                           stderr=os.path.join(d, "pathcc.err"))
        if rc != 0:
            return {"note": "pathcc failed on %s: %s" % (src, first_line(read(os.path.join(d, "pathcc.err"))))}
        pc.append(cpu)
        pp = [os.path.join(r, f) for r, _, fs in os.walk(tmp) for f in fs if f.endswith(".pp.i")]
        if not pp:
            return {"note": "PATHCC_KEEP left no .pp.i"}
        cp.append(spawn(["gcc", "-O0", "-E", "-C"] + flags + [src, "-o", "plain.i"], d)[1])
        cc.append(spawn(["gcc", "-O0", "-c", pp[0], "-o", "plain.o"], d)[1])
    shutil.rmtree(tmp, ignore_errors=True)
    p, c1, c2 = median(pc), median(cp), median(cc)
    rw = p - c1 - c2
    res = {"unit": os.path.relpath(src, TOP) if src.startswith(TOP) else os.path.basename(src),
           "lines": lines, "pathcc_cpu": p, "cpp_cpu": c1, "cc_cpu": c2, "rewriter_cpu": rw,
           "repeats": repeats}
    if rw > 0:
        res["lines_per_second"] = lines / rw
    else:
        res["note"] = "pathcc's own time was below the noise"
    return res


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="bench.py")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--quick", action="store_true")
    r.add_argument("--out")
    r.add_argument("--workloads")
    r.add_argument("--tools")
    r.add_argument("--tools-conf", help="another tools.conf (same format)")
    r.add_argument("--rounds", type=int)
    r.add_argument("--no-chart", action="store_true")
    p = sub.add_parser("report")
    p.add_argument("raw")
    p.add_argument("--out")
    p.add_argument("--no-chart", action="store_true")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        run(a)
    else:
        with open(a.raw) as f:
            raw = json.load(f)
        _, md = report(raw, a.out or os.path.dirname(os.path.abspath(a.raw)), not a.no_chart)
        sys.stdout.write(md)


if __name__ == "__main__":
    main(sys.argv[1:])
