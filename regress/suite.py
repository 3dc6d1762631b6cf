"""Bookkeeping shared by the outside-suite scripts (torture.sh, csmith.sh): known failures, per-test
result files, the functions pathcc left uninstrumented, and the summary tallies.

As a command: python3 suite.py uninstrumented INSTDIR FALLBACK FUNCTIONS > uninstrumented.tsv
lists (kind, function, reason) of what pathcc left out of the build in INSTDIR (from the tables'
"skipped" arrays, and from FALLBACK, its warning lines about whole units) and writes the number of
functions it did instrument to FUNCTIONS."""
import collections
import glob
import json
import os
import re
import sys

# Each decision mode reports under its own suite name; a known failure of the statement-mode suite
# ("torture") also covers the conditions-mode one ("torture-cond") unless that has a line of its own.
MODE_SUFFIX = {"statements": "", "conditions": "-cond"}


def suite_name(base, mode):
    return base + MODE_SUFFIX.get(mode, "-" + mode)


def read(path):
    """A result file's (status, why), or None when it is missing."""
    try:
        return (open(path).read().rstrip("\n").split("\t", 1) + [""])[:2]
    except OSError:
        return None


def tally(c):
    return "; ".join("%s x%d" % (w, n) for w, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"


class Known:
    """regress/known-failures: SUITE NAME STATUS ROOT CAUSE..., one per line."""

    def __init__(self, path):
        self.lines = {}
        if os.path.exists(path):
            for line in open(path):
                w = line.split(None, 3)
                if len(w) >= 3 and not w[0].startswith("#"):
                    self.lines[(w[1], w[0])] = (w[2], w[3].strip() if len(w) > 3 else "")

    def general(self, name, kind):
        """The line for kind, else for the suite it varies: torture-cond, torture-clang and
        torture-clang-cond-oracle fall back to torture's (and torture-oracle's) lines."""
        base, _, rest = kind.partition("-")
        parts = [p for p in rest.split("-") if p] if rest else []
        oracle = parts[-1:] == ["oracle"]
        for cand in (kind, "-".join([base] + [p for p in parts if p != "cond"]),
                     base + ("-oracle" if oracle else "")):
            if (name, cand) in self.lines:
                return self.lines[(name, cand)]
        return None

    def report(self, kind, name, res, why):
        own = self.lines.get((name, kind))
        k = own or self.general(name, kind)
        if res in ("pass", "ok"):
            print("ok %s %s" % (kind, name))
            if own:
                print("# %s %s is listed in regress/known-failures (%s) but passes now: remove that line"
                      % (kind, name, own[0]))
        elif k and k[0] == res:
            print("skip %s %s: known %s: %s" % (kind, name, res, k[1]))
        else:
            print("not ok %s %s: %s%s" % (kind, name, "fell back: " if res == "fellback" else "", why))


class Mode:
    """The results of one suite in one decision mode: each test's directory holds result,
    functions.txt, uninstrumented.tsv and (when checked) oracle."""

    def __init__(self, known, suite):
        self.known, self.suite = known, suite
        self.counts, self.ocounts = collections.Counter(), collections.Counter()
        self.oskipped, self.reasons = collections.Counter(), collections.Counter()
        self.funcs = self.units = self.total = 0

    def add(self, name, d):
        res, why = read(os.path.join(d, "result")) or ("fail", "the test script died (no result in %s)" % d)
        self.counts[res] += 1
        try:
            self.total += int(open(os.path.join(d, "functions.txt")).read())
            for u in open(os.path.join(d, "uninstrumented.tsv")):
                kind, _, reason = u.rstrip("\n").split("\t", 2)
                self.reasons[reason] += 1
                if kind == "function":
                    self.funcs += 1
                else:
                    self.units += 1
        except (OSError, ValueError):
            pass
        self.known.report(self.suite, name, res, why)
        o = read(os.path.join(d, "oracle"))
        if o is None:
            return
        self.ocounts[o[0]] += 1
        if o[0] == "skip":
            self.oskipped[o[1]] += 1
            print("# %s-oracle %s not checked: %s" % (self.suite, name, o[1]))
        else:
            self.known.report(self.suite + "-oracle", name, o[0], o[1])

    def summary(self):
        n = self.total + self.funcs
        return ("%d pass, %d fail, %d fell back, %d of %d functions uninstrumented (%.2f%%)%s (reasons: %s)"
                % (self.counts["pass"], self.counts["fail"], self.counts["fellback"], self.funcs, n,
                   100.0 * self.funcs / n if n else 0.0,
                   ", %d units compiled without instrumentation" % self.units if self.units else "",
                   tally(self.reasons)))

    def oracle_summary(self):
        return ("%d exact, %d differ, %d not checked (%s)"
                % (self.ocounts["ok"], self.ocounts["fail"], self.ocounts["skip"], tally(self.oskipped)))


def uninstrumented(instdir, fallback, functions):
    n = 0
    for p in sorted(glob.glob(os.path.join(instdir, "*.pp.json"))):
        t = json.load(open(p))
        n += len(t.get("functions", []))
        for s in t.get("skipped", []):
            print("function\t%s\t%s" % (s.get("name", "?"), s.get("reason", "?")))
    open(functions, "w").write("%d\n" % n)
    for line in open(fallback):
        # "pathcc: warning: FILE: why": the unit was compiled from the untouched source
        m = re.match(r".*?warning: [^:]*: (.*)$", line.strip())
        if m and "left uninstrumented" not in line:
            print("unit\t-\t%s" % re.sub(r"[^\s(]+:\d+:\d+: ", "", m.group(1)))


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] != "uninstrumented":
        sys.exit("usage: suite.py uninstrumented INSTDIR FALLBACK FUNCTIONS")
    uninstrumented(*sys.argv[2:5])
