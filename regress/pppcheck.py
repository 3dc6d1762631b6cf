#!/usr/bin/env python3
"""Checks ppp builds against path-mode builds of the same program, independently of pathprof.

Shares no code with the translator or the reporter: paths are block lists from
`pathprof dump --decode` (formats.md section 2/4 tooling), Ball-Larus ids are recomputed here
from the tables' edge values, and the residual report is parsed as text.

  pppcheck.py same NAME PATHDIR PPPDIR        counts of PPPDIR equal PATHDIR's, no residual path
  pppcheck.py half NAME PATHDIR SPEC.json     writes a spec with every other executed path
  pppcheck.py residual NAME PATHDIR SPEC.json REPORT
                                              REPORT (pathprof residual output) lists exactly the
                                              executed paths SPEC left out, with their counts
Each DIR holds *.pp.json tables and decoded.txt; prints "ok ..." or "not ok ...".
"""
import glob
import json
import os
import re
import sys


def tables(d):
    """{checksum: tables} of a build directory."""
    out = {}
    for p in glob.glob(os.path.join(d, "*.pp.json")):
        with open(p) as f:
            t = json.load(f)
        out[t["checksum"].lower()] = t
    return out


def bl_id(fn, blocks, end):
    """The Ball-Larus id of a decoded path: the sum of the values of the DAG edges it takes."""
    kinds = {}
    for e in fn["edges"]:
        kinds.setdefault((e["src"], e["dst"], e["kind"]), int(e["value"]))
    steps = []
    if blocks[0] != 0:
        steps.append((0, blocks[0], "dummy-entry"))
    for a, b in zip(blocks, blocks[1:]):
        steps.append((a, b, "normal"))
    steps.append((blocks[-1], 1, "dummy-exit" if end == "B" else "exit"))
    return sum(kinds[s] for s in steps)


def paths(d):
    """{(source, function, id): count} of a build directory's decoded profile."""
    t = tables(d)
    out = {}
    for line in open(os.path.join(d, "decoded.txt")):
        w = line.split()
        if not w or w[0] not in ("P", "O", "D"):
            continue
        if w[0] != "P":
            out[("!", w[0], w[1])] = int(w[-1])
            continue
        tab = t[w[1].lower()]
        fn = tab["functions"][int(w[2])]
        key = (tab["source"], fn["name"], bl_id(fn, [int(b) for b in w[4].split(",")], w[5]))
        out[key] = out.get(key, 0) + int(w[3])
    return out


def same(name, a, b):
    x, y = paths(a), paths(b)
    diff = sorted(k for k in set(x) | set(y) if x.get(k, 0) != y.get(k, 0))
    sets = ppp_sets(b)
    outside = [k for k in y if k[0] != "!" and k[2] not in sets.get((k[0], k[1], None), set())]
    if diff:
        k = diff[0]
        print("not ok ppp-same %s: %d path counts differ from path mode, e.g. %s: path %d, ppp %d"
              % (name, len(diff), k, x.get(k, 0), y.get(k, 0)))
    elif outside:
        print("not ok ppp-same %s: %d executed paths are outside the interesting set, e.g. %s"
              % (name, len(outside), outside[0]))
    else:
        print("ok ppp-same %s" % name)


def ppp_sets(d):
    """{(source, function, None): set of interesting ids} from ppp tables."""
    out = {}
    for t in tables(d).values():
        for fn in t["functions"]:
            out[(t["source"], fn["name"], None)] = set(int(i) for i in fn.get("interesting", []))
    return out


def half(name, d, spec):
    per = {}
    for (src, fn, i), n in paths(d).items():
        if src != "!":
            per.setdefault((src, fn), []).append(i)
    funcs = []
    for (src, fn), ids in sorted(per.items()):
        ids.sort()
        funcs.append({"file": src, "name": fn, "paths": [str(i) for i in ids[::2]]})
    with open(spec, "w") as f:
        json.dump({"format": "pathprof-interesting", "version": 1, "functions": funcs}, f, indent=1)
    print("# %s: %d functions, %d of %d executed paths interesting" % (
        name, len(funcs), sum(len(f["paths"]) for f in funcs), sum(len(v) for v in per.values())))


def residual(name, d, spec, report):
    chosen = {}
    for f in json.load(open(spec))["functions"]:
        chosen[(os.path.basename(f["file"]), f["name"])] = set(int(i) for i in f["paths"])
    want = {}
    for (src, fn, i), n in paths(d).items():
        if src != "!" and i not in chosen.get((os.path.basename(src), fn), set()):
            want[(fn, i)] = n
    got, fn = {}, None
    for line in open(report):
        m = re.match(r"^(\S+) \(([^)]*)\): \d+ residual paths", line)
        if m:
            fn = m.group(1)
            continue
        m = re.match(r"^\s+(\d+)\s+#(\d+)\s", line)
        if m and fn:
            got[(fn, int(m.group(2)))] = got.get((fn, int(m.group(2))), 0) + int(m.group(1))
    diff = sorted(k for k in set(want) | set(got) if want.get(k, 0) != got.get(k, 0))
    if diff:
        print("not ok ppp-residual %s: %d residual paths differ, e.g. %s: expected %d, report %d"
              % (name, len(diff), diff[0], want.get(diff[0], 0), got.get(diff[0], 0)))
    elif not want:
        print("skip ppp-residual %s: no path left out of the set" % name)
    else:
        print("ok ppp-residual %s" % name)


def main(a):
    if a[0] == "same":
        same(a[1], a[2], a[3])
    elif a[0] == "half":
        half(a[1], a[2], a[3])
    elif a[0] == "residual":
        residual(a[1], a[2], a[3], a[4])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
