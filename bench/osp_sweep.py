#!/usr/bin/env python3
"""osp_sweep.py: online subpath profiling's run-time overhead and accuracy against the hot-list bound M and the sampling rate (make bench-osp).

Overhead: bench workloads (quick scale) built plain (gcc -O2), with pathcc --mode=path and with
pathcc --mode=osp; the osp binary runs under each (M, rate) setting; CPU time medians of
interleaved rounds, as ratios to plain. Accuracy: samples/hotsub.c and regress/cases/osp_calls.c
with --mode=osp --trace, one traced run for the exact subpath counts (regress/osp_oracle.py),
then 10 seeds per setting: runs whose top 5 match the exact top 5 in at least 4 places, and the
share of reported counts inside their error bounds. Results: bench/results/osp/results.md.
Usage: osp_sweep.py [--no-overhead] [--no-accuracy]
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import bench as b  # noqa: E402

OUT = os.path.join(HERE, "results", "osp")
WORKLOADS = ["interp", "lz", "sort", "proto"]
RATES = [32, 128, 512, 2048]
MEMS = [4096, 16384, 32768]
ROUNDS = 5


def build(cmd, srcs, flags, d):
    """Compiles srcs with cmd into d/prog; returns None or why not."""
    os.makedirs(d, exist_ok=True)
    rc, _, _ = b.spawn(cmd + flags + ["-o", "prog"] + srcs + ["-lm"], d, env=b.build_env(),
                       stderr=os.path.join(d, "build.err"), timeout=600)
    return None if rc == 0 else b.first_line(b.read(os.path.join(d, "build.err")))


def osp_env(d, mem, rate, seed=1):
    env = b.profile_env(d)
    env.update(PATHPROF_OSP_MEMORY=str(mem), PATHPROF_OSP_RATE=str(rate), PATHPROF_OSP_SEED=str(seed))
    return env


def settings():
    """(M, rate) pairs: every rate at the default M, every M at the default rate."""
    s = [(32768, r) for r in RATES] + [(m, 128) for m in MEMS if m != 32768]
    return s


def overhead(wls):
    rows = []
    for w in wls:
        srcs = [os.path.join(HERE, x) for x in w["sources"]]
        base = os.path.join(OUT, "build", w["name"])
        builds = {"plain": ["gcc", "-O2"], "path": [b.PATHCC, "--mode=path", "gcc", "-O2"],
                  "osp": [b.PATHCC, "--mode=osp", "gcc", "-O2"]}
        bad = {k: build(v, srcs, w["flags"], os.path.join(base, k)) for k, v in builds.items()}
        if any(bad.values()):
            b.log("%s: build failed: %s" % (w["name"], bad))
            continue
        cols = [("plain", None), ("path", None)] + [("osp", s) for s in settings()]
        times = {c: [] for c in cols}
        for r in range(ROUNDS):
            for c in cols[r % len(cols):] + cols[:r % len(cols)]:
                d = os.path.join(base, c[0])
                env = osp_env(d, *c[1]) if c[1] else b.profile_env(d)
                rc, cpu, _ = b.spawn(["./prog", str(w["quick"])], d, env=env, stdout=os.devnull, timeout=600)
                if rc == 0:
                    times[c].append(cpu)
        plain = b.median(times[("plain", None)])
        rows.append((w["name"], {c: b.ratio(b.median(times[c]), plain) for c in cols}))
        b.log("overhead %s done" % w["name"])
    return rows


def accuracy(name, src, arg):
    d = os.path.join(OUT, "acc", name)
    os.makedirs(d, exist_ok=True)
    why = build([b.PATHCC, "--mode=osp", "--trace", "gcc", "-O2"], [src], [], d)
    if why:
        return {"error": why}
    trace = os.path.join(d, "trace.txt")
    if os.path.exists(trace):
        os.unlink(trace)
    env = b.profile_env(d)
    env["PATHPROF_TRACE"] = trace
    b.spawn(["./prog", arg], d, env=env, stdout=os.devnull, timeout=600)
    res = {}
    for mem, rate in settings():
        reports = []
        for seed in range(1, 11):
            snap = os.path.join(d, "s%d.osp" % seed)
            env = osp_env(d, mem, rate, seed)
            env["PATHPROF_OSP_FILE"] = snap
            b.spawn(["./prog", arg], d, env=env, stdout=os.devnull, timeout=600)
            rep = os.path.join(d, "r%d.txt" % seed)
            with open(rep, "w") as f:
                subprocess.run([os.path.join(TOP, "bin", "pathprof"), "hot-subpaths", "--raw", snap], stdout=f)
            reports.append(rep)
        out = subprocess.run([sys.executable, os.path.join(TOP, "regress", "osp_oracle.py"), "--name", name,
                              "--trace", trace] + reports, stdout=subprocess.PIPE, universal_newlines=True).stdout
        top = re.search(r"osp-top \S+: (\d+) of (\d+) runs", out)
        bnd = re.search(r"osp-bounds \S+: (\d+) of (\d+) reported", out)
        samples = [int(m) for m in re.findall(r"^# osp \S+: rate \d+, (\d+) samples", "".join(
            b.read(r) for r in reports), re.M)]
        rates = [int(m) for m in re.findall(r"^# osp \S+: rate (\d+)", "".join(b.read(r) for r in reports), re.M)]
        res[(mem, rate)] = {"top": "%s/%s" % top.groups() if top else "?",
                            "bounds": "%s/%s" % bnd.groups() if bnd else "?",
                            "samples": b.median(samples), "final_rate": b.median(rates)}
        b.log("accuracy %s M=%d rate=%d: %s" % (name, mem, rate, res[(mem, rate)]))
    return res


def main(argv):
    os.makedirs(OUT, exist_ok=True)
    _, wls = b.load_config()
    wls = [w for w in wls if w["name"] in WORKLOADS]
    rows = [] if "--no-overhead" in argv else overhead(wls)
    acc = {} if "--no-accuracy" in argv else {
        "hotsub": accuracy("hotsub", os.path.join(TOP, "samples", "hotsub.c"), "20000"),
        "osp_calls": accuracy("osp_calls", os.path.join(TOP, "regress", "cases", "osp_calls.c"), "30000")}
    out = ["# Online subpath profiling: overhead and accuracy against M and the sampling rate", ""]
    out.append("Run time as a ratio to plain gcc -O2 (quick scale, median CPU time of %d interleaved runs):" % ROUNDS)
    out.append("")
    head = ["workload", "path"] + ["osp M=%d rate=%d" % s for s in settings()]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for name, r in rows:
        out.append("| %s | %s | %s |" % (name, b.fmt_ratio(r[("path", None)]),
                                        " | ".join(b.fmt_ratio(r[("osp", s)]) for s in settings())))
    if rows:
        out.append("| **geomean** | **%s** | %s |" % (
            b.fmt_ratio(b.geomean([r[("path", None)] for _, r in rows])),
            " | ".join("**%s**" % b.fmt_ratio(b.geomean([r[("osp", s)] for _, r in rows])) for s in settings())))
    out.append("")
    out.append("Accuracy over 10 seeds: runs whose top 5 match the exact top 5 (block-trace oracle) in at least 4 "
               "places; reported top-5 counts inside their 95% bounds; median samples in the list at exit; median "
               "final rate (after resamplings):")
    out.append("")
    out.append("| program | M | initial rate | top-5 runs | inside bounds | samples | final rate |")
    out.append("|---|---|---|---|---|---|---|")
    for name, res in acc.items():
        if "error" in res:
            out.append("| %s | build failed: %s | | | | | |" % (name, res["error"]))
            continue
        for (mem, rate), v in res.items():
            out.append("| %s | %d | %d | %s | %s | %s | %s |" % (name, mem, rate, v["top"], v["bounds"],
                                                              v["samples"], v["final_rate"]))
    text = "\n".join(out) + "\n"
    with open(os.path.join(OUT, "results.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
