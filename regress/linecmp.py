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
import json, os, re, sys


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
    """{file: segments}, each [line, col, count, has_count, region_entry, gap]."""
    out = {}
    for d in docs(path):
        for unit in d.get("data", []):
            for f in unit.get("files", []):
                out[norm(f["filename"], None)] = f["segments"]
    return out


def segment_lines(segs, src):
    """{line: (count, starts)}: count is the largest count of the regions that hold the line's
    names and numbers (an operand on a line of its own gives its own region's count, a line
    that opens an if gives the if's), None when none of them is in a region; starts says
    whether a region starts on the line."""
    import bisect, re
    keys = [(s[0], s[1]) for s in segs]
    lines = {}
    for ln in range(1, len(src) + 1):
        best = None
        for m in re.finditer(r"[A-Za-z_0-9]+|\"", code_of(src[ln - 1])):
            k = bisect.bisect_right(keys, (ln, m.start() + 1)) - 1
            if k < 0:
                continue
            line, col, count, has, entry, gap = segs[k][:6]
            if has and not gap and (best is None or count > best):
                best = count
        here = [s for s in segs[bisect.bisect_left(keys, (ln, 0)):bisect.bisect_left(keys, (ln + 1, 0))] if s[3] and s[4] and not s[5]]
        starts = bool(here)
        head = LOOP_HEAD.match(code_of(src[ln - 1]))
        for s in here:  # a body's '{': a function's line, a loop head's rounds
            if (best is None or (head and s[2] > best)) and src[ln - 1][s[1] - 1:s[1]] == "{":
                best = s[2]
        if best is not None or starts:
            lines[ln] = (best, starts)
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
        src = open(f, errors="replace").read().split("\n") if os.path.exists(f) else []
        gl, cl, pl = g.get(f, {}), segment_lines(c.get(f, []), src), p.get(f, {})
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
    """A region that starts at a '{' alone on its line (the body under a function's name or an
    else) counts for the nearest line above with a count when no region starts on that line or
    between (a function's name line above its parameters' lines). Under a for (;;) it stays: the
    head line counts the loop's entries, the '{' line its rounds, as clang has them."""
    for ln in sorted(rows):
        g, c, starts, p = rows[ln]
        if not starts or ln > len(src) or not brace_only(src[ln - 1]):
            continue
        k = ln - 1
        while k > 0 and ln - k < 20 and rows.get(k, (None, None, False, None))[0] is None and \
                rows.get(k, (None, None, False, None))[3] is None and not rows.get(k, (None, None, False, None))[2]:
            k -= 1
        above = rows.get(k)
        if k <= 0 or above is None or (above[0] is None and above[3] is None) or FOREVER.search(code_of(src[k - 1])):
            continue
        if above[2]:  # a region starts above too: only a loop head takes its body's count
            if LOOP_HEAD.search(code_of(src[k - 1])) and c is not None and (above[1] is None or c > above[1]):
                rows[k] = (above[0], c, True, above[3])
            continue
        rows[k] = (above[0], c, True, above[3])
        rows[ln] = (g, None, False, p)


def show(v):
    return "-" if v is None else str(v)


def in_directive(src, ln):
    """Is line ln part of a preprocessor directive (its own line or a continuation of one)?"""
    k = ln
    while k > 1 and src[k - 2].rstrip().endswith("\\"):
        k -= 1
    return k <= len(src) and src[k - 1].lstrip().startswith("#")


def llvm_agrees(g, c, starts, p, text=""):
    """pathprof's count against llvm-cov's: a count must equal the line's region count; no count
    is right where no region starts on the line, or where only braces, else or do are (clang
    starts a body's region at its brace). A closing brace with a count (the implicit return of a
    function that falls off its end, as gcov has it) and directive lines have no region in clang."""
    code = code_of(text).strip()
    if code.startswith("#"):
        return True
    if p is None:
        return not starts or not re.sub(r"\b(else|do)\b", "", code).strip(" \t{};")
    if c is None and code == "}":
        return True
    return c == p


# Each difference has a class (doc/coverage.md, "Line counts"): a name, a test
# on the line (the source, its number, its text and the three counts) and the reason. The first
# class that matches wins; a line that matches none is unexplained.
LOOP_HEAD = re.compile(r"(^|[;)]|\belse)\s*}?\s*(while\s*\(\s*[A-Za-z_0-9]+\s*\)|for\s*\([^;]*;\s*;[^;]*\))\s*{?\s*$")
FOREVER = re.compile(r"^\s*for\s*\(\s*;\s*;\s*\)\s*$")
LABEL = re.compile(r"^\s*[A-Za-z_][A-Za-z_0-9]*\s*:(?!:)")
CASE = re.compile(r"^\s*(case\b[^:]*|default\s*):")
JUMP = re.compile(r"^\s*}?\s*(return\b|goto\b|continue\b|break\b)")


def t_loop_head(src, ln, text, g, c, starts, p):
    return p is not None and (p == c or g != c) and bool(LOOP_HEAD.search(code_of(text)))


def t_no_code(src, ln, text, g, c, starts, p):
    return g is None and p is not None and (p == c or p == 0 or bool(re.search(r"assert\w*\s*\(", text)))


def t_case(src, ln, text, g, c, starts, p):
    return g != p and (p == c or (p == 0 and g)) and bool(CASE.match(code_of(text)))


def t_case_run(src, ln, text, g, c, starts, p):
    return p != c and bool(CASE.match(code_of(text)))


def t_brace(src, ln, text, g, c, starts, p):
    return p is None and g is not None and not code_of(text).strip(" \t{}")


def t_arms(src, ln, text, g, c, starts, p):
    t = code_of(text)
    return p is not None and c is not None and p > c and ":" in t.replace("::", "") and not CASE.match(t)


def t_label(src, ln, text, g, c, starts, p):
    return p == c and g != p and bool(LABEL.match(code_of(text))) and not CASE.match(code_of(text))


def t_cleanup(src, ln, text, g, c, starts, p):
    return p == c and g is not None and p is not None and g > p and bool(JUMP.match(code_of(text)))


def t_function(src, ln, text, g, c, starts, p):
    t = code_of(text).strip()
    return p == c and g is not None and p is not None and g != p and "(" in t and not t.endswith(";") and \
        not re.match(r"(if|while|for|switch|return|do|else)\b", t)


def t_inline(src, ln, text, g, c, starts, p):
    return c is None and g is not None and p is not None and g < p


def t_twice(src, ln, text, g, c, starts, p):
    return (p == c or c is None) and g is not None and p is not None and g > p


def t_continuation(src, ln, text, g, c, starts, p):
    return p is None and g is not None


def t_jump(src, ln, text, g, c, starts, p):
    return p is not None and g is not None and g == c and p > g and bool(re.search(r"\b(break|continue|goto)\b", code_of(text)))


def t_constant(src, ln, text, g, c, starts, p):
    return g is None and c == 0 and p is not None and p > 0 and "sizeof" in text


def t_gcov_less(src, ln, text, g, c, starts, p):
    return p == c and g is not None and p is not None and g < p


def t_unfinished(src, ln, text, g, c, starts, p):
    return p is not None and c is not None and p < c and (g is None or p < g)


def t_llvm_none(src, ln, text, g, c, starts, p):
    return g == p and c is None


def t_llvm_other(src, ln, text, g, c, starts, p):
    return g == p


CLASSES = [
    ("loop head", t_loop_head, "a loop without a condition: pathprof and clang count its rounds (a for (;;) alone on its "
     "line its entries, the '{' below it the rounds); GCC folds the test away "
     "and gcov counts the line only when the body's scope has locals (the rounds that reached the body's end)"),
    ("no code", t_no_code, "GCC emits no code for the line (a statement that compiles to nothing, a condition it folds, "
     "a static function no caller uses); pathprof counts the statement, as clang does (--no-code=gcov leaves them "
     "out); clang's regions around an assert that expands to nothing follow the code after it"),
    ("case label", t_case, "class 4: a case label whose statement emits no code gets the next block's count in gcov"),
    ("case run", t_case_run, "a run of case labels is one block (as in GCC): its first label counts the run's entries, "
     "the later ones none; clang counts each label's own entries (gcov differs where a label's statement emits no code)"),
    ("brace", t_brace, "gcov counts a brace where GCC puts code for the block (a scope's locals in memory, a loop's "
     "jump back); pathprof counts statements, clang starts the block's region there"),
    ("?: arms", t_arms, "both arms of a ?: on one line: the line counts both arms' runs; clang's largest region is one "
     "arm's, gcov puts the ?: blocks on the expression's last line"),
    ("label", t_label, "a user label: gcov counts only the conditional jumps to it there (GCC gives each such jump a "
     "block with the label's line), pathprof and clang every entry"),
    ("cleanup", t_cleanup, "class 5: GCC runs one cleanup block for the jumps out of a scope with locals in memory and "
     "gives it the line of the scope's first return, continue or goto"),
    ("function line", t_function, "a function's line counts its calls; gcov counts the rounds of a loop or the "
     "entries of a label the body begins with (GCC's first block holds both)"),
    ("inline", t_inline, "class 6: an always_inline function's lines count every call in pathprof; gcov counts "
     "what the inlined copies left on them, clang maps no region there"),
    ("gcov twice", t_twice, "classes 6 and 7: gcov counts the line more than once per execution (a statement spread "
     "over lines with a call on a later line, calls of always_inline functions, loops on one line)"),
    ("continuation", t_continuation, "a continuation line of a statement: gcov counts it where GCC gives an "
     "expression on it a location of its own; pathprof claims a continuation line only where a statement, a call, "
     "or an operand or arm of a condition spanning lines starts"),
    ("jump", t_jump, "a bare break, continue or goto on the line of a condition's last operand: GCC folds the jump "
     "into the condition's branch, so gcov and clang count the operand's runs; pathprof also the arrivals at the jump "
     "from the operands before"),
    ("constant operands", t_constant, "operands of a condition made of constants: GCC folds them (no line), clang "
     "counts their regions 0; pathprof counts what the program evaluates"),
    ("gcov less", t_gcov_less, "gcov counts less than ran (code GCC moved to another line, a line GCC folded into "
     "a jump)"),
    ("unfinished", t_unfinished, "less than clang (and gcov): activations still running when the program ends (exit() "
     "from a callee) or left by longjmp (Lua's errors and coroutines) never finish their last path, so it is not "
     "counted (doc/limits.md)"),
    ("llvm: no region", t_llvm_none, "clang maps no region on the line (a function's line above its parameters, "
     "code only a macro's expansion holds); pathprof equals gcov"),
    ("llvm other", t_llvm_other, "pathprof equals gcov; clang's regions split the line otherwise"),
]


UNIT_NEVER_RAN = "unit never ran"
REASONS = dict((name, why) for name, _test, why in CLASSES)
REASONS["listed"] = "single lines listed with their reason in regress/e2e/lines_real_known.txt"
REASONS["address hashing"] = ("Lua hashes some pointers into its tables, and the three builds lay memory out "
                              "differently: a few counts differ by at most 0.1% between any two builds")
REASONS[UNIT_NEVER_RAN] = ("no function of the file's unit ran: the unit never registered and is absent from the "
                           "profile (doc/coverage.md, Files never run)")


def classify(src, ln, g, c, starts, p):
    text = src[ln - 1] if ln <= len(src) else ""
    for name, test, _why in CLASSES:
        if test(src, ln, text, g, c, starts, p):
            return name
    return None


def load_known(path):
    """{(program, file:line): reason} from a known file ("PROGRAM FILE:LINE => reason")."""
    known = {}
    for line in open(path) if path and os.path.exists(path) else []:
        if line.startswith("#") or " => " not in line:
            continue
        where, why = line.split(" => ", 1)
        prog, loc = where.split()
        known[(prog, loc)] = why.strip()
    return known


def check(name, under, gcov, llvm, pathprof, table, known_file=None, address_hashing=False):
    """One program: every line under the source tree, its class when the counts differ; prints
    'ok' or 'not ok' with the first unexplained lines, and appends the program's row to table."""
    rows = load_all(gcov, llvm, pathprof)
    known = load_known(known_file)
    under = os.path.realpath(under)
    total = eq_gcov = eq_llvm = claimed = denied = 0
    classes, bad = {}, []
    for f in sorted(rows):
        if not f.startswith(under + "/"):
            continue
        src = open(f, errors="replace").read().split("\n") if os.path.exists(f) else []
        move_brace_regions(rows[f], src)
        ran = any(r[3] is not None for r in rows[f].values())
        for ln, (g, c, starts, p) in sorted(rows[f].items()):
            if (g is None and p is None) or in_directive(src, ln):
                continue
            total += 1
            claimed += bool(p) and not g and not c   # pathprof says it ran, neither tool does
            denied += p == 0 and bool(g) and bool(c)  # pathprof says it never ran, both tools say it did
            ag, al = g == p, llvm_agrees(g, c, starts, p, src[ln - 1] if ln <= len(src) else "")
            eq_gcov += ag
            eq_llvm += al
            if ag and al:
                continue
            k = classify(src, ln, g, c, starts, p) if ran or g else UNIT_NEVER_RAN
            if not k and (name, "%s:%d" % (os.path.relpath(f, under), ln)) in known:
                k = "listed"
            if not k and address_hashing and g == c and g and p and abs(p - g) * 1000 <= g:
                k = "address hashing"
            if k:
                classes[k] = classes.get(k, 0) + 1
            else:
                text = src[ln - 1].strip() if ln <= len(src) else ""
                bad.append("%s:%d (%s): gcov %s, llvm-cov %s, pathprof %s" % (os.path.relpath(f, under), ln, text[:50], show(g), show(c), show(p)))
    row = {"program": name, "lines": total, "gcov": eq_gcov, "llvm": eq_llvm, "classes": classes, "unexplained": len(bad),
           "claimed": claimed, "denied": denied}
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


def against_llvm(tag, name, llvm, pathprof, known_file):
    """One program against llvm-cov alone: every line where pathprof's count is not llvm-cov's
    region count must be listed in known_file ("FILE: SOURCE TEXT => reason")."""
    known = set()
    for line in open(known_file):
        if line.startswith("#") or " => " not in line:
            continue
        f, rest = line.split(": ", 1)
        known.add((f.strip(), rest.split(" => ", 1)[0].strip()))
    rows = load_all(None, llvm, pathprof)
    bad, same, listed = [], 0, 0
    for f in rows:
        if os.path.basename(f) != name:
            continue
        src = open(f, errors="replace").read().split("\n")
        move_brace_regions(rows[f], src)
        for ln, (g, c, starts, p) in sorted(rows[f].items()):
            if (p is None and not starts) or in_directive(src, ln):
                continue
            code = src[ln - 1].strip() if ln <= len(src) else ""
            if llvm_agrees(g, c, starts, p, src[ln - 1] if ln <= len(src) else ""):
                same += 1
            elif (name, code) in known:
                listed += 1
            else:
                bad.append("line %d (%s): llvm-cov %s, pathprof %s" % (ln, code[:50], show(c), show(p)))
                print("# unlisted %s: %s" % (name, code))
    if bad:
        print("not ok %s: %d lines differ from llvm-cov and are not in %s: %s" % (tag, len(bad), os.path.basename(known_file), "; ".join(bad[:4])))
    elif not same:
        print("not ok %s: no line was compared" % tag)
    else:
        print("ok %s" % tag)
    print("# %s: %d lines equal to llvm-cov, %d listed differences" % (tag, same, listed))


def print_table(table):
    rows = [json.loads(l) for l in open(table) if l.strip()]
    names = sorted({k for r in rows for k in r["classes"]})
    print("# | program | lines | = gcov | = llvm-cov | ran, per neither | never ran, per both | " + " | ".join(names) +
          " | unexplained |")
    print("# |" + "---|" * (len(names) + 7))
    tot = {"lines": 0, "gcov": 0, "llvm": 0, "unexplained": 0, "claimed": 0, "denied": 0}
    for r in rows + [None] if len(rows) > 1 else rows:
        if r is None:
            r = dict(tot, program="all", classes=dict((k, sum(x["classes"].get(k, 0) for x in rows)) for k in names))
        else:
            for k in tot:
                tot[k] += r.get(k, 0)
        print("# | %s | %d | %.2f%% | %.2f%% | %d | %d | %s | %d |" % (r["program"], r["lines"], 100.0 * r["gcov"] / max(r["lines"], 1),
              100.0 * r["llvm"] / max(r["lines"], 1), r.get("claimed", 0), r.get("denied", 0),
              " | ".join(str(r["classes"].get(k, 0)) for k in names), r["unexplained"]))


def main():
    args = sys.argv[1:]
    opt = {}
    while args and args[0].startswith("--"):
        k = args.pop(0)[2:]
        opt[k] = True if k == "all" else args.pop(0)
    if "print-classes" in opt:
        for name in sorted(REASONS):
            print("- **%s**: %s" % (name, REASONS[name]))
        return
    if "print-table" in opt:
        print_table(opt["print-table"])
        return
    if "against-llvm" in opt:
        against_llvm(opt["against-llvm"], opt["file"], opt["llvm"], opt["pathprof"], opt["known"])
        return
    if "check" in opt:
        check(opt["check"], opt["under"], opt.get("gcov"), opt.get("llvm"), opt["pathprof"], opt.get("table"),
              opt.get("known"), opt.get("address-hashing") == "yes")
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
            if not opt.get("all") and g == p and llvm_agrees(g, c, starts, p, src[ln - 1] if ln <= len(src) else ""):
                continue
            text = src[ln - 1].rstrip() if ln <= len(src) else ""
            print("%6d %10s %10s %10s  %s" % (ln, show(g), show(c) + ("" if starts or c is None else "~"), show(p), text))


if __name__ == "__main__":
    main()
