#!/usr/bin/env python3
"""Subpath oracle: exact subpath counts from a block trace, against the hot subpaths an OSP run reported.

Independent of pathprof: it reads only the trace log (doc/formats.md section 3) and the
machine-readable lines of `pathprof hot-subpaths --raw`:
    S <rank> <estimate> <low> <high> <sampled> <length> <checksum>:<fn>:<block>,...
A subpath of length L is L consecutive block entries of the trace ('B' lines, across calls and
returns; 'X' lines are not blocks); lengths are 2, 4, ..., MAXLEN, as OSP samples them.

Usage: osp_oracle.py --name NAME --trace TRACE [--maxlen 32] [--top 5] [--need-places 4]
                     [--need-runs 9] [--need-bounds 0.9] REPORT...
  Each REPORT is one run's --raw output (one seed). Checks, over all runs:
  - top: in at least --need-runs runs, at least --need-places of the reported top --top subpaths
    match the exact top --top place by place. The exact order breaks ties arbitrarily, so place i
    matches when the reported subpath's exact count equals the i-th largest exact count.
  - bounds: at least --need-bounds of all reported top subpaths (every run) have their exact count
    inside the reported [low, high].
Prints "ok ..." / "not ok ..." lines and "#" comments; exit status 0 when both hold.
"""

import argparse
import collections
import sys


def read_trace(path):
    """The trace's block entries as small integers, and the (checksum, fn, block) of each."""
    ids, names, seq = {}, [], []
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[0] == "B":
                key = (w[1].lower(), int(w[2]), int(w[3]))
                if key not in ids:
                    ids[key] = len(names)
                    names.append(key)
                seq.append(ids[key])
    return seq, ids, names


def exact_counts(seq, maxlen):
    """{tuple of block ids: occurrences} for every window of length 2, 4, ..., maxlen."""
    counts = collections.Counter()
    n = len(seq)
    length = 2
    while length <= maxlen:
        for i in range(n - length + 1):
            counts[tuple(seq[i:i + length])] += 1
        length *= 2
    return counts


def read_report(path, ids):
    """[(estimate, low, high, tuple of block ids or None)] in rank order."""
    out = []
    with open(path, encoding="ascii", errors="replace") as f:
        for line in f:
            w = line.split()
            if not w or w[0] != "S":
                continue
            est, low, high = float(w[2]), float(w[3]), float(w[4])
            blocks = []
            for b in w[7].split(","):
                cs, fn, blk = b.split(":")
                blocks.append(ids.get((cs.lower(), int(fn), int(blk))))
            out.append((est, low, high, None if None in blocks else tuple(blocks)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--maxlen", type=int, default=32)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--need-places", type=int, default=4)
    ap.add_argument("--need-runs", type=int, default=9)
    ap.add_argument("--need-bounds", type=float, default=0.9)
    ap.add_argument("--tie", type=float, default=0.01)
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    seq, ids, names = read_trace(a.trace)
    if not seq:
        print("not ok osp-top %s: empty trace %s" % (a.name, a.trace))
        return 1
    counts = exact_counts(seq, a.maxlen)
    ranked = sorted(counts.values(), reverse=True)
    exact_top = ranked[:a.top]
    print("# %s: %d block entries, %d distinct subpaths; exact top-%d counts %s"
          % (a.name, len(seq), len(counts), a.top, exact_top))
    good_runs, inside, reported = 0, 0, 0
    for path in a.reports:
        rep = read_report(path, ids)[:a.top]
        places = 0
        for i, (est, low, high, key) in enumerate(rep):
            true = counts.get(key, 0) if key else 0
            if i < len(exact_top) and abs(true - exact_top[i]) <= a.tie * exact_top[i]:
                places += 1
            reported += 1
            inside += low <= true <= high
        good_runs += places >= a.need_places
        print("# %s: %d of %d places; estimates %s exact %s" % (
            path, places, a.top, [int(r[0]) for r in rep], [counts.get(r[3], 0) if r[3] else 0 for r in rep]))
    ok_top = good_runs >= a.need_runs
    print("%s osp-top %s: %d of %d runs match the exact top-%d in at least %d places (need %d)"
          % ("ok" if ok_top else "not ok", a.name, good_runs, len(a.reports), a.top, a.need_places, a.need_runs))
    share = inside / reported if reported else 0.0
    ok_bounds = reported > 0 and share >= a.need_bounds
    print("%s osp-bounds %s: %d of %d reported counts (%.1f%%) inside their error bounds (need %.0f%%)"
          % ("ok" if ok_bounds else "not ok", a.name, inside, reported, 100 * share, 100 * a.need_bounds))
    return 0 if ok_top and ok_bounds else 1


if __name__ == "__main__":
    sys.exit(main())
