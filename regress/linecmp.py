#!/usr/bin/env python3
"""linecmp.py: pathprof's line counts against gcov's and llvm-cov's, line by line.

Reads `gcov --json-format -t` output (one or more JSON documents), `llvm-cov export` JSON and
`pathprof coverage --format json`, and prints for each source line the three counts:

  linecmp.py --gcov G.json --llvm L.json --pathprof P.json [--only NAME] [--all]

Each tool's count for a line:
  gcov      the line's count, or '-' when gcov lists no code there;
  llvm-cov  the largest count of a region that starts on the line (its "region count"), or the
            count of the region the line lies in when none starts there ('~' marks those), or '-'
            when the line is in no region;
  pathprof  the line's count, or '-'.
Without --all only lines where pathprof disagrees with gcov or llvm-cov are printed. As a module,
load_all() gives {path: {line: (gcov, llvm, llvm_starts, pathprof)}} for other scripts."""
import json, os, sys


def docs(path):
    """The JSON documents of a file that may hold several one after the other."""
    text = open(path, errors="replace").read()
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        d, i = dec.raw_decode(text, i)
        out.append(d)


def norm(name, base):
    p = name if os.path.isabs(name) else os.path.join(base or ".", name)
    return os.path.realpath(p)


def gcov_lines(path):
    """{file: {line: count}}: counts of one line in several units add up (gcov does the same)."""
    out = {}
    for d in docs(path):
        cwd = d.get("current_working_directory", ".")
        for f in d.get("files", []):
            lines = out.setdefault(norm(f["file"], cwd), {})
            for l in f["lines"]:
                lines[l["line_number"]] = lines.get(l["line_number"], 0) + l["count"]
    return out


def llvm_lines(path):
    """{file: {line: (count or None, starts)}}: starts says whether a region starts on the line."""
    out = {}
    for d in docs(path):
        for unit in d.get("data", []):
            for f in unit.get("files", []):
                out[norm(f["filename"], None)] = segment_lines(f["segments"])
    return out


def segment_lines(segs):
    """Per line: the largest count of the regions starting on it, else the count of the region
    wrapping it (llvm-cov's own line count takes the larger of the two)."""
    lines, active, i = {}, None, 0
    last = max((s[0] for s in segs), default=0)
    for ln in range(1, last + 1):
        starts = []
        wrapped = active
        while i < len(segs) and segs[i][0] == ln:
            line, col, count, has, entry, gap = segs[i][:6]
            if has and entry and not gap:
                starts.append(count)
            active = segs[i] if has and not gap else None
            i += 1
        if starts:
            lines[ln] = (max(starts), True)
        elif wrapped is not None:
            lines[ln] = (wrapped[2], False)
    return lines


def pathprof_lines(path):
    out = {}
    for d in docs(path):
        for f in d.get("files", []):
            lines = out.setdefault(norm(f.get("path") or f["file"], None), {})
            for l in f["lines"]:
                lines[l["line"]] = l["count"]
    return out


def load_all(gcov, llvm, pathprof):
    g = gcov_lines(gcov) if gcov else {}
    c = llvm_lines(llvm) if llvm else {}
    p = pathprof_lines(pathprof)
    out = {}
    for f in set(p) | set(g):
        gl, cl, pl = g.get(f, {}), c.get(f, {}), p.get(f, {})
        rows = {}
        for ln in sorted(set(gl) | set(pl) | {l for l, v in cl.items() if v[1]}):
            cv = cl.get(ln, (None, False))
            rows[ln] = (gl.get(ln), cv[0], cv[1], pl.get(ln))
        out[f] = rows
    return out


def code_of(line):
    """The line without comments and string contents (a block comment that began earlier is
    not seen, as in pathprof's source.c)."""
    out, i, q = [], 0, None
    while i < len(line):
        ch = line[i]
        if q:
            if ch == "\\":
                i += 2
                continue
            if ch == q:
                q = None
                out.append(ch)
            i += 1
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            j = line.find("*/", i + 2)
            if j < 0:
                break
            i = j + 2
            out.append(" ")
            continue
        if ch in "\"'":
            q = ch
        out.append(ch)
        i += 1
    return "".join(out)


def brace_only(text):
    return code_of(text).strip() == "{"


def move_brace_regions(rows, src):
    """A region that starts at a '{' alone on its line (a body under a function's name, a
    for (;;) or an else) counts for the line above it when no region starts there."""
    for ln in sorted(rows):
        g, c, starts, p = rows[ln]
        if not starts or ln > len(src) or not brace_only(src[ln - 1]):
            continue
        k = ln - 1
        while k > 0 and not code_of(src[k - 1]).strip():
            k -= 1
        if k <= 0:
            continue
        above = rows.get(k, (None, None, False, None))
        if not above[2]:
            rows[k] = (above[0], c, True, above[3])
            rows[ln] = (g, None, False, p)


def show(v):
    return "-" if v is None else str(v)


def llvm_agrees(g, c, starts, p):
    """pathprof's count against llvm-cov's: a count must equal the line's region count; no count
    is right where no region starts on the line."""
    if p is None:
        return not starts
    return c == p


# Each difference has a class (README, "Line counts against gcov and llvm-cov"): a name, a test
# on the line (its text, the three counts) and the reason. The first class that matches wins.
CLASSES = []


def classify(src, ln, g, c, starts, p):
    text = src[ln - 1] if ln <= len(src) else ""
    for name, test, _why in CLASSES:
        if test(src, ln, text, g, c, starts, p):
            return name
    return None


def check(name, under, gcov, llvm, pathprof, table):
    """One program: every line under the source tree, its class when the counts differ; prints
    'ok' or 'not ok' with the first unexplained lines, and appends the program's row to table."""
    rows = load_all(gcov, llvm, pathprof)
    under = os.path.realpath(under)
    total = eq_gcov = eq_llvm = 0
    classes, bad = {}, []
    for f in sorted(rows):
        if not f.startswith(under + "/"):
            continue
        src = open(f, errors="replace").read().split("\n") if os.path.exists(f) else []
        move_brace_regions(rows[f], src)
        for ln, (g, c, starts, p) in sorted(rows[f].items()):
            if g is None and p is None:
                continue
            total += 1
            ag, al = g == p, llvm_agrees(g, c, starts, p)
            eq_gcov += ag
            eq_llvm += al
            if ag and al:
                continue
            k = classify(src, ln, g, c, starts, p)
            if k:
                classes[k] = classes.get(k, 0) + 1
            else:
                text = src[ln - 1].strip() if ln <= len(src) else ""
                bad.append("%s:%d (%s): gcov %s, llvm-cov %s, pathprof %s" % (os.path.relpath(f, under), ln, text[:50], show(g), show(c), show(p)))
    row = {"program": name, "lines": total, "gcov": eq_gcov, "llvm": eq_llvm, "classes": classes, "unexplained": len(bad)}
    if table:
        with open(table, "a") as t:
            t.write(json.dumps(row) + "\n")
    if bad:
        print("not ok lines-real %s: %d of %d lines differ outside the documented classes: %s" % (name, len(bad), total, "; ".join(bad[:5])))
        for b in bad:
            print("# unexplained %s: %s" % (name, b))
    else:
        print("ok lines-real %s" % name)
    if not total:
        print("not ok lines-real %s: no line was compared" % name)


def print_table(table):
    rows = [json.loads(l) for l in open(table) if l.strip()]
    names = sorted({k for r in rows for k in r["classes"]})
    print("# | program | lines | = gcov | = llvm-cov | " + " | ".join(names) + " | unexplained |")
    tot = {"lines": 0, "gcov": 0, "llvm": 0, "unexplained": 0}
    for r in rows:
        for k in tot:
            tot[k] += r[k]
        print("# | %s | %d | %.2f%% | %.2f%% | %s | %d |" % (r["program"], r["lines"], 100.0 * r["gcov"] / max(r["lines"], 1),
              100.0 * r["llvm"] / max(r["lines"], 1), " | ".join(str(r["classes"].get(k, 0)) for k in names), r["unexplained"]))
    if len(rows) > 1:
        print("# | all | %d | %.2f%% | %.2f%% | %s | %d |" % (tot["lines"], 100.0 * tot["gcov"] / max(tot["lines"], 1),
              100.0 * tot["llvm"] / max(tot["lines"], 1), " | ".join(str(sum(r["classes"].get(k, 0) for r in rows)) for k in names),
              tot["unexplained"]))


def main():
    args = sys.argv[1:]
    opt = {}
    while args and args[0].startswith("--"):
        k = args.pop(0)[2:]
        opt[k] = True if k == "all" else args.pop(0)
    if "print-table" in opt:
        print_table(opt["print-table"])
        return
    if "check" in opt:
        check(opt["check"], opt["under"], opt.get("gcov"), opt.get("llvm"), opt["pathprof"], opt.get("table"))
        return
    rows = load_all(opt.get("gcov"), opt.get("llvm"), opt["pathprof"])
    for f in sorted(rows):
        if opt.get("only") and not f.endswith(opt["only"]):
            continue
        src = open(f, errors="replace").read().split("\n") if os.path.exists(f) else []
        move_brace_regions(rows[f], src)
        print("== %s" % f)
        print("%6s %10s %10s %10s  %s" % ("line", "gcov", "llvm-cov", "pathprof", "source"))
        for ln, (g, c, starts, p) in sorted(rows[f].items()):
            if not opt.get("all") and g == p and llvm_agrees(g, c, starts, p):
                continue
            text = src[ln - 1].rstrip() if ln <= len(src) else ""
            print("%6d %10s %10s %10s  %s" % (ln, show(g), show(c) + ("" if starts or c is None else "~"), show(p), text))


if __name__ == "__main__":
    main()
