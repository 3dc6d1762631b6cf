#!/usr/bin/env python3
"""Exactness oracle: recomputes path counts from a block trace and compares them with pathprof's decoded profile.

Independent of pathprof by construction: it shares no code with the translator or the reporter and
uses only the edge kinds from the tables (doc/formats.md section 4), never the Ball-Larus values.

Usage: oracle.py [--name NAME] [--kpaths K] [--no-partials] --trace TRACE --decoded DECODED TABLES.pp.json...
       oracle.py [--name NAME] --trace TRACE --edges COVERAGE.json [--except FUNCTION]... TABLES.pp.json...
  --no-partials  the build keeps no frames (pathcc --frames=none, tcc): the profile must hold no
           partial paths, whatever the trace cut
  TRACE    the trace log of a tracing build (formats.md section 3)
  DECODED  the output of `pathprof dump --decode PROFILE` ('-' for standard input):
             P <checksum> <fn> <count> <b1,...,bn> <E|B>   one path and its count
             Q <checksum> <fn> <count> <b1,...,bk> <site>  one partial path: the blocks an
                                                          activation that never finished ran
                                                          on its last path (count < 0: taken back)
             O <checksum> <fn> <count>                    overflow count (must be 0)
             K <checksum> <fn> <count> <b1,..:E|B>;...    with --kpaths K: one n-gram (n <= K) of
                                                          consecutive paths of one activation
             anything else                               accepted and ignored
  COVERAGE the output of `pathprof coverage --format json` (path or edge mode): its edge_counts of
           the normal, exit, back and cut edges must equal the traversals of those edges by the
           trace's finished paths (functions matched by source file, name and first line; copies
           of one function in several units added up); --except leaves a function out
Activations still open when the trace ends (exit() in a callee, abort, a fault, exec) are cut
there: each one's current path is a partial path. A block of an activation further down the stack
means a longjmp: the activations above it were abandoned (partial paths), and the path of the one
it returned to goes on from its setjmp (the block with an edge to the new one): its abandoned
part is a partial path, and the prefix up to the setjmp, which the resumed path counts again, is
taken back once (count -1). Prints "ok oracle NAME" or "not ok oracle NAME: <first differences>",
and comment lines starting with "#". Exit status: 0 ok, 1 not ok, 2 unusable input (also printed
as "not ok").
"""

import collections
import json
import os
import sys

ENTRY, EXIT = 0, 1
MAX_SHOWN = 5          # differences named in the "not ok" line
MAX_COMMENTS = 40      # further differences listed as comment lines


class Fail(Exception):
    """Input the oracle cannot work with at all."""


class Function:
    def __init__(self, checksum, index, name, source, nblocks):
        self.checksum = checksum
        self.index = index
        self.name = name
        self.source = source
        self.nblocks = nblocks
        self.kinds = collections.defaultdict(set)   # (src, dst) -> set of edge kinds
        self.noreturn = set()                        # blocks whose exit edge is a call that never returns
        self.builtin_setjmp = set()                  # blocks with a __builtin_setjmp (tables' stops, kind 2)

    def label(self):
        return "%s (%s fn %d)" % (self.name, os.path.basename(self.source), self.index)


def load_tables(paths):
    """Returns {(checksum, fn): Function}."""
    funcs = {}
    seen = {}
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                t = json.load(f)
        except (OSError, ValueError) as e:
            raise Fail("cannot read tables %s: %s" % (path, e))
        if not isinstance(t, dict) or t.get("format") != "pathprof-tables":
            raise Fail("%s is not a pathprof tables file" % path)
        cs = str(t.get("checksum", "")).lower()
        if len(cs) != 16:
            raise Fail("%s: bad checksum %r" % (path, t.get("checksum")))
        if cs in seen:
            if seen[cs] != t:
                raise Fail("%s and %s share checksum %s but differ" % (seen[cs]["_path"], path, cs))
            continue
        t["_path"] = path
        seen[cs] = t
        source = str(t.get("source", path))
        for i, fn in enumerate(t.get("functions", [])):
            blocks = fn.get("blocks", [])
            func = Function(cs, i, str(fn.get("name", "?")), source, len(blocks))
            for e in fn.get("edges", []):
                try:
                    src, dst, kind = int(e["src"]), int(e["dst"]), str(e["kind"])
                except (KeyError, TypeError, ValueError):
                    raise Fail("%s: function %s: malformed edge %r" % (path, func.name, e))
                func.kinds[(src, dst)].add(kind)
                if kind == "exit" and e.get("exit") == "noreturn":
                    func.noreturn.add(src)
            for st in fn.get("stops", []):
                if len(st) > 3 and st[3] == 2:
                    func.builtin_setjmp.add(st[0])
            func.plain = {k for k, v in func.kinds.items() if v == {"normal"}}
            funcs[(cs, i)] = func
    return funcs


class Where:
    """The trace line being replayed, as "file:line" when a message names it (formatted then
    only: most lines need no message)."""

    def __init__(self, name):
        self.name = name
        self.lineno = 0

    def __str__(self):
        return "%s:%d" % (self.name, self.lineno)


class Replay:
    """Cuts the trace into paths the way the definition says, counting each finished path."""

    def __init__(self, funcs, k=0):
        self.funcs = funcs
        self.k = k                             # --kpaths: also count n-grams of paths, n <= k
        self.ngrams = collections.Counter()    # (checksum, fn, ((blocks, end), ...)) -> count
        self.counts = collections.Counter()   # (checksum, fn, blocks tuple, 'E'|'B') -> count
        self.ends = collections.Counter()     # (checksum, fn, src, dst, kind) -> paths ended on that back or cut edge
        self.cuts = collections.Counter()     # (checksum, fn, src, dst, "normal") -> traversals by partial paths
        self.stack = []                        # activations: [Function, current path list]
        self.partials = collections.Counter()  # (checksum, fn, blocks tuple) -> activations cut there
        self.left = {}                         # Function -> its last activation left by a noreturn call
        self.errors = []
        self.events = 0

    def error(self, msg):
        self.errors.append(msg)

    def func(self, cs, fn, where):
        f = self.funcs.get((cs, fn))
        if f is None:
            raise Fail("%s: no tables for function %d of unit %s" % (where, fn, cs))
        return f

    def finish(self, act, end, to=None):
        f, path, last = act[0], act[1], act[2]
        self.counts[(f.checksum, f.index, tuple(path), end)] += 1
        if end != "E":
            kinds = f.kinds.get((path[-1], to), set()) & {"back", "cut"}
            self.ends[(f.checksum, f.index, path[-1], to, min(kinds) if kinds else "back")] += 1
        if self.k:
            # the activation's last k paths: every window ending with this path is one n-gram
            last.append((tuple(path), end))
            window = list(last)
            for n in range(1, len(window) + 1):
                self.ngrams[(f.checksum, f.index, tuple(window[-n:]))] += 1

    def block(self, cs, fn, blk, where):
        f = self.func(cs, fn, where)
        if blk < 0 or blk >= f.nblocks or blk == EXIT:
            raise Fail("%s: block %d is not a real block of %s (%d blocks)" % (where, blk, f.label(), f.nblocks))
        if blk == ENTRY:
            self.stack.append([f, [ENTRY], collections.deque(maxlen=max(self.k, 1)), False])
            return
        running = [a for a in self.stack if a[0] is f]
        if running:  # a longjmp from above (nothing when f is on top): the others were abandoned
            while self.stack[-1][0] is not f:
                self.cut(self.stack.pop(), 1)
        elif f in self.left:  # f left by its own longjmp (counted as finished), back at its setjmp
            self.stack.append(self.left.pop(f))
            self.stack[-1][3] = True
        if not self.stack:
            raise Fail("%s: block %d of %s entered with no activation running" % (where, blk, f.label()))
        top = self.stack[-1]
        if top[0] is not f:
            raise Fail("%s: block %d of %s entered while %s is running" % (where, blk, f.label(), top[0].label()))
        prev = top[1][-1]
        kinds = f.kinds.get((prev, blk), set())
        if not kinds and self.resume(top, blk):
            return
        cut = kinds & {"back", "cut"}
        if cut and "normal" in kinds:
            self.error("%s: %s: edge %d->%d is both normal and %s; the trace cannot tell them apart"
                       % (where, f.label(), prev, blk, "/".join(sorted(cut))))
        if cut:
            self.finish(top, "B", blk)
            top[1] = [blk]
            return
        if "normal" not in kinds:
            what = ("kind " + "/".join(sorted(kinds))) if kinds else "no edge"
            self.error("%s: %s: trace transition %d->%d is not a CFG edge (%s)" % (where, f.label(), prev, blk, what))
        top[1].append(blk)

    def edges(self):
        """(checksum, fn, src, dst, kind) -> traversals, from the paths counted (each distinct
        path's edges once, times its count: cheaper than per traversal) and the partial paths."""
        e = collections.Counter(self.cuts)
        e.update(self.ends)
        for (cs, fn, path, end), n in self.counts.items():
            for a, b in zip(path, path[1:]):
                e[(cs, fn, a, b, "normal")] += n
            if end == "E":
                e[(cs, fn, path[-1], EXIT, "exit")] += n
        return e

    def cut(self, act, n):
        """An activation's current path counted n times as a partial path."""
        f, path = act[0], act[1]
        self.partials[(f.checksum, f.index, tuple(path))] += n
        for a, b in zip(path, path[1:]):
            self.cuts[(f.checksum, f.index, a, b, "normal")] += n

    def resume(self, act, blk):
        """A longjmp came back to act's setjmp: its path goes on from the last block with an edge
        to blk. The part since is a partial path (unless its path was counted as finished, when
        it left by its own longjmp), and the prefix up to the setjmp is taken back once."""
        f, path = act[0], act[1]
        for i in range(len(path) - 1, -1, -1):
            if "normal" in f.kinds.get((path[i], blk), set()):
                if not act[3]:
                    self.cut(act, 1)
                act[3] = False
                # gcov counts a __builtin_setjmp's receiver: the prefix taken back ends before it
                act[1] = path[:i] if path[i] in f.builtin_setjmp else path[:i + 1]
                self.cut(act, -1)
                act[1] = path[:i + 1] + [blk]
                return True
        return False

    def leave(self, cs, fn, where):
        f = self.func(cs, fn, where)
        if any(a[0] is f for a in self.stack):  # those above were abandoned (longjmp, pthread_exit)
            while self.stack[-1][0] is not f:
                self.cut(self.stack.pop(), 1)
        if not self.stack or self.stack[-1][0] is not f:
            running = self.stack[-1][0].label() if self.stack else "nothing"
            raise Fail("%s: %s returns while %s is running" % (where, f.label(), running))
        act = self.stack.pop()
        last = act[1][-1]
        if "exit" not in f.kinds.get((last, EXIT), set()):
            self.error("%s: %s: returns from block %d, which has no exit edge" % (where, f.label(), last))
        self.finish(act, "E")
        if last in f.noreturn:
            self.left[f] = [f, list(act[1]), act[2], False]

    def run(self, path):
        try:
            f = open(path, encoding="ascii", errors="replace")
        except OSError as e:
            raise Fail("cannot read trace %s: %s" % (path, e))
        where = Where(os.path.basename(path))
        good = set()  # checksums seen well-formed
        stack = self.stack
        with f:
            for lineno, line in enumerate(f, 1):
                w = line.split()
                if not w:
                    continue
                where.lineno = lineno
                try:
                    if w[0] == "B" and len(w) == 4:
                        cs, fn, blk = w[1].lower(), int(w[2]), int(w[3])
                    elif w[0] == "X" and len(w) == 3:
                        cs, fn, blk = w[1].lower(), int(w[2]), None
                    else:
                        raise ValueError
                    if cs not in good:
                        if len(cs) != 16:
                            raise ValueError
                        int(cs, 16)
                        good.add(cs)
                except ValueError:
                    raise Fail("%s: malformed trace line %r" % (where, line.rstrip("\n")))
                self.events += 1
                if blk is not None and stack:  # the common case, inline: a step of the running path
                    top = stack[-1]
                    f = top[0]
                    if (f.index == fn and f.checksum == cs and 0 < blk < f.nblocks and blk != EXIT
                            and (top[1][-1], blk) in f.plain):
                        top[1].append(blk)
                        continue
                if blk is None:
                    self.leave(cs, fn, where)
                else:
                    self.block(cs, fn, blk, where)


def read_decoded(path):
    """The lines of `pathprof dump --decode` output ('-': standard input), read once."""
    try:
        f = sys.stdin if path == "-" else open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        raise Fail("cannot read decoded profile %s: %s" % (path, e))
    with f:
        return f.readlines()


def load_decoded(path, lines, errors):
    """Returns a Counter like Replay.counts, from the P and O lines of the decoded profile."""
    counts = collections.Counter()
    for lineno, line in enumerate(lines, 1):
        w = line.split()
        if not w:
            continue
        where = "%s:%d" % (os.path.basename(path), lineno)
        if w[0] == "P":
            try:
                if len(w) != 6 or w[5] not in ("E", "B") or len(w[1]) != 16:
                    raise ValueError
                int(w[1], 16)
                key = (w[1].lower(), int(w[2]), tuple(int(b) for b in w[4].split(",")), w[5])
                n = int(w[3])
                if n < 0:
                    raise ValueError
            except ValueError:
                raise Fail("%s: malformed path line %r" % (where, line.rstrip("\n")))
            counts[key] += n
        elif w[0] == "O":
            try:
                n = int(w[3])
            except (IndexError, ValueError):
                raise Fail("%s: malformed overflow line %r" % (where, line.rstrip("\n")))
            if n != 0:
                errors.append("%s: overflow count %d for function %s of unit %s" % (where, n, w[2], w[1]))
    return +counts


def load_partials(path, lines):
    """Returns a Counter like Replay.partials, from the Q lines of the decoded profile."""
    counts = collections.Counter()
    for lineno, line in enumerate(lines, 1):
        w = line.split()
        if not w or w[0] not in ("Q", "QX"):
            continue
        where = "%s:%d" % (os.path.basename(path), lineno)
        if w[0] == "QX":
            raise Fail("%s: a partial path that names no prefix: %r" % (where, line.rstrip("\n")))
        try:
            if len(w) != 6 or len(w[1]) != 16:
                raise ValueError
            int(w[1], 16)
            blocks = () if w[4] == "-" else tuple(int(b) for b in w[4].split(","))
            counts[(w[1].lower(), int(w[2]), blocks)] += int(w[3])
        except ValueError:
            raise Fail("%s: malformed partial path line %r" % (where, line.rstrip("\n")))
    return counts


def compare_partials(funcs, want, got):
    """Differences between the partial paths cut from the trace and the profile's."""
    diffs = []
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key, 0), got.get(key, 0)
        if w != g:
            cs, fn, blocks = key
            f = funcs.get((cs, fn))
            name = f.label() if f else "fn %d of unit %s" % (fn, cs)
            diffs.append("%s partial path %s: trace says %d, profile says %d" % (name, ",".join(str(b) for b in blocks), w, g))
    return diffs


def load_kpaths(path, lines):
    """Returns a Counter like Replay.ngrams, from the K lines of the decoded profile."""
    counts = collections.Counter()
    for lineno, line in enumerate(lines, 1):
        w = line.split()
        if not w or w[0] != "K":
            continue
        try:
            if len(w) != 5 or len(w[1]) != 16:
                raise ValueError
            int(w[1], 16)
            gram = []
            for p in w[4].split(";"):
                blocks, end = p.split(":")
                if end not in ("E", "B"):
                    raise ValueError
                gram.append((tuple(int(b) for b in blocks.split(",")), end))
            n = int(w[3])
        except ValueError:
            raise Fail("%s:%d: malformed n-gram line %r" % (os.path.basename(path), lineno, line.rstrip("\n")))
        counts[(w[1].lower(), int(w[2]), tuple(gram))] += n
    return +counts


def compare_kpaths(funcs, want, got):
    """Differences between the n-grams cut from the trace and the profile's k-IPF."""
    diffs = []
    for key in sorted(set(want) | set(got)):
        w, g = want.get(key, 0), got.get(key, 0)
        if w != g:
            cs, fn, gram = key
            f = funcs.get((cs, fn))
            name = f.label() if f else "fn %d of unit %s" % (fn, cs)
            text = " | ".join("%s %s" % (",".join(str(b) for b in blocks), end) for blocks, end in gram)
            diffs.append("%s n-gram %s: trace says %d, profile says %d" % (name, text, w, g))
    return diffs


def describe(funcs, key):
    cs, fn, blocks, end = key
    f = funcs.get((cs, fn))
    name = f.label() if f else "fn %d of unit %s" % (fn, cs)
    return "%s path %s %s" % (name, ",".join(str(b) for b in blocks), end)


def compare(funcs, want, got):
    """Differences between the oracle's counts (want) and the profile's (got), as readable lines."""
    diffs = []
    for key in sorted(set(want) | set(got), key=lambda k: (k[0], k[1], k[2], k[3])):
        w, g = want.get(key, 0), got.get(key, 0)
        if w != g:
            diffs.append("%s: trace says %d, profile says %d" % (describe(funcs, key), w, g))
    return diffs


def edge_key(funcs, tables_files, cs, fn):
    """(source file, name, first line) of a function: how the coverage JSON names it."""
    f = funcs[(cs, fn)]
    return (tables_files.get((cs, fn), f.source), f.name, f.line)


def load_coverage_edges(path):
    """{(file, name, line): Counter((src, dst, kind) -> count)} from coverage JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            cov = json.load(f)
    except (OSError, ValueError) as e:
        raise Fail("cannot read coverage %s: %s" % (path, e))
    out = {}
    for fl in cov.get("files", []):
        for fn in fl.get("functions", []):
            c = collections.Counter()
            for e in fn.get("edge_counts", []):
                if e["kind"] in ("normal", "exit", "back", "cut"):
                    c[(e["src"], e["dst"], e["kind"])] += e["count"]
            out[(fl["file"], fn["name"], fn["line"])] = c
    return out


def compare_edges(funcs, replay, tables, covpath, skip):
    """Differences between the trace's edge traversals and the coverage JSON's edge counts."""
    files = {}
    for path in tables:
        with open(path, encoding="utf-8") as f:
            t = json.load(f)
        cs = str(t.get("checksum", "")).lower()
        for i, fn in enumerate(t.get("functions", [])):
            names = t.get("files", [])
            k = fn.get("file", 0)
            files[(cs, i)] = names[k] if 0 <= k < len(names) else t.get("source")
            funcs[(cs, i)].line = fn.get("line")
    want = collections.defaultdict(collections.Counter)
    for f in funcs.values():  # every function is compared, executed or not
        want[edge_key(funcs, files, f.checksum, f.index)]
    for (cs, fn, a, b, kind), n in replay.edges().items():
        want[edge_key(funcs, files, cs, fn)][(a, b, kind)] += n
    got = load_coverage_edges(covpath)
    diffs = []
    for key in sorted(want):
        if key[1] in skip:
            continue
        w, g = +want[key], +got.get(key, collections.Counter())
        if key not in got and w:
            diffs.append("%s:%s: executed but missing from the coverage" % (key[1], key[2]))
            continue
        for e in sorted(set(w) | set(g)):
            if w[e] != g[e]:
                diffs.append("%s:%s edge %d->%d %s: trace says %d, coverage says %d" % (key[1], key[2], e[0], e[1], e[2], w[e], g[e]))
    return diffs


def main(argv):
    name, trace, decoded, tables, edges, skip, k = None, None, None, [], None, set(), 0
    no_partials = False  # a build without frames (pathcc --frames=none, tcc): it keeps no partial paths
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--no-partials":
            no_partials = True
        elif a in ("--name", "--trace", "--decoded", "--edges", "--except", "--kpaths") and args:
            v = args.pop(0)
            if a == "--kpaths":
                try:
                    k = int(v)
                except ValueError:
                    k = 0
                if k < 1:
                    print("oracle.py: --kpaths wants a positive number, not %r" % v, file=sys.stderr)
                    return 2
            elif a == "--except":
                skip.add(v)
            elif a == "--name":
                name = v
            elif a == "--trace":
                trace = v
            elif a == "--edges":
                edges = v
            else:
                decoded = v
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif a.startswith("-") and a != "-":
            print("oracle.py: unknown option %s" % a, file=sys.stderr)
            return 2
        else:
            tables.append(a)
    if name is None:
        name = os.path.basename(trace or "?")
    if not trace or not (decoded or edges) or not tables:
        print("not ok oracle %s: usage: oracle.py [--name NAME] --trace TRACE --decoded DECODED TABLES..." % name)
        return 2
    try:
        funcs = load_tables(tables)
        replay = Replay(funcs, k)
        replay.run(trace)
        open_acts = list(replay.stack)
        for act in open_acts:
            replay.cut(act, 1)
        errors = list(replay.errors)
        if edges:
            problems = errors + compare_edges(funcs, replay, tables, edges, skip)
        else:
            lines = read_decoded(decoded)
            got = load_decoded(decoded, lines, errors)
            got_k = load_kpaths(decoded, lines) if k else None
            got_q = load_partials(decoded, lines)
    except Fail as e:
        print("not ok oracle %s: %s" % (name, e))
        return 2
    want = +replay.counts
    if open_acts:
        names = collections.Counter(act[0].name for act in open_acts)
        print("# %d activation(s) left open at program end (exit() inside a function, a crash): %s"
              % (len(open_acts), ", ".join("%s x%d" % kv for kv in sorted(names.items()))))
    want_q = collections.Counter({key: n for key, n in replay.partials.items() if n and not no_partials})
    print("# %d trace events, %d distinct paths, %d path executions%s"
          % (replay.events, len(want), sum(want.values()), ", %d edge traversals" % sum(replay.edges().values()) if edges else ""))
    if not edges:
        problems = errors + compare(funcs, want, got) + compare_partials(funcs, want_q, got_q)
        if want_q:
            print("# %d partial paths, %d activations" % (len(want_q), sum(want_q.values())))
        if k:
            print("# %d distinct n-grams of up to %d paths, %d in all" % (len(replay.ngrams), k, sum(replay.ngrams.values())))
            problems += compare_kpaths(funcs, +replay.ngrams, got_k)
    if not problems:
        print("ok oracle %s" % name)
        return 0
    print("not ok oracle %s: %d problem(s): %s" % (name, len(problems), "; ".join(problems[:MAX_SHOWN])))
    for p in problems[MAX_SHOWN:MAX_SHOWN + MAX_COMMENTS]:
        print("# " + p)
    if len(problems) > MAX_SHOWN + MAX_COMMENTS:
        print("# ... %d more" % (len(problems) - MAX_SHOWN - MAX_COMMENTS))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
