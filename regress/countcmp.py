#!/usr/bin/env python3
"""countcmp.py ONE MANY FACTOR: every P/O/D line of `pathprof dump --decode` output MANY has
FACTOR times the count of ONE's, and the same lines exist. Prints up to 3 differences; exit 1 if any.
With --fn=I,J only functions I, J (P/O lines) are compared. With --loss it prints "LOST TOTAL" (the shortfall of MANY against FACTOR x ONE) and exits 0."""
import sys

fns = [a[5:].split(",") for a in sys.argv[1:] if a.startswith("--fn=")]

def load(p):
    c = {}
    for line in open(p):
        w = line.split()
        if not w or w[0] not in ("P", "O", "D"):
            continue
        if fns and (w[0] == "D" or w[2] not in fns[0]):
            continue
        n = int(w[3] if w[0] != "D" else w[2])
        key = " ".join(w[:3] + w[4:]) if w[0] != "D" else " ".join(w[:2])
        c[key] = c.get(key, 0) + n
    return c

args = [a for a in sys.argv[1:] if not a.startswith("--")]
one, many, k = load(args[0]), load(args[1]), int(args[2])
if "--loss" in sys.argv:
    want = k * sum(one.values())
    print(want - sum(many.values()), want)
    sys.exit(0)
bad = [key for key in sorted(set(one) | set(many)) if many.get(key, 0) != k * one.get(key, 0)]
for key in bad[:3]:
    print("%s: one run %d, %d runs %d" % (key, one.get(key, 0), k, many.get(key, 0)))
sys.exit(1 if bad else 0)
