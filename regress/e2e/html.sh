#!/bin/sh
# pathprof coverage --format html: a self-contained report (no network), checked in headless Chromium:
# the index lists every file and function, a URL fragment #path=ID (what a click sets) highlights
# exactly the path's lines and CFG edges, the plain-list CFG without Graphviz, edge mode, a kpath
# build's k-iteration paths (as pathprof kpaths lists them); screenshots go to regress/out/html-*.png.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/html"
rm -rf "$out"; mkdir -p "$out"
CC=${E2E_CC:-gcc}
run=""
command -v timeout >/dev/null 2>&1 && run="timeout 60"
if [ ! -x "$top/bin/pathcc" ] || [ ! -x "$top/bin/pathprof" ]; then
  echo "not ok html: bin/pathcc or bin/pathprof missing (run make)"; exit 0
fi
# Chromium: Debian's package, installed when we are root and it is missing
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >"$out/apt.log" 2>&1
  browser=$(command -v chromium || true)
fi

# the demo (three files) in path mode, loops.c in edge mode
mkdir -p "$out/path" "$out/edge" "$out/kpath"
if ! (cd "$out/path" && "$top/bin/pathcc" "$CC" -O0 -o prog "$top"/samples/demo/*.c && PATHPROF_FILE=prof.out $run ./prog >/dev/null) 2>"$out/build.log" ||
   ! (cd "$out/edge" && "$top/bin/pathcc" --mode=edge "$CC" -O0 -o prog "$top"/samples/loops.c && PATHPROF_FILE=prof.out $run ./prog >/dev/null) 2>>"$out/build.log" ||
   ! (cd "$out/kpath" && "$top/bin/pathcc" --mode=kpath --k=3 "$CC" -O0 -o prog "$top"/samples/loops.c && PATHPROF_FILE=prof.out $run ./prog >/dev/null) 2>>"$out/build.log"; then
  echo "not ok html-build: $(head -1 "$out/build.log")"; exit 0
fi
# run in each build's directory: coverage also reports the units built but never run that it
# finds under the current directory tree
for m in path edge kpath; do
  if ! (cd "$out/$m" && "$top/bin/pathprof" coverage --format html -o "$out/$m/report" "$out/$m/prof.out") 2>"$out/$m/html.err"; then
    echo "not ok html-write $m: $(head -1 "$out/$m/html.err")"; exit 0
  fi
  (cd "$out/$m" && "$top/bin/pathprof" coverage --format json -o "$out/$m/cov.json" "$out/$m/prof.out")
done
(cd "$out/path" && PATHPROF_DOT= "$top/bin/pathprof" coverage --format html -o "$out/path/nodot" "$out/path/prof.out")
if "$top/bin/pathprof" coverage --format html "$out/path/prof.out" >/dev/null 2>"$out/noout.err"; then
  echo "not ok html-usage: --format html without -o DIR was accepted"
else echo "ok html-usage"; fi

# self-contained: no external script, style, image or link (SVG namespace names are not fetched)
if grep -lE '(src|href)="(https?:)?//|<link |<script src|@import|url\(' "$out"/*/report/*.html "$out"/path/nodot/*.html >"$out/external.txt"; then
  echo "not ok html-selfcontained: external references in $(head -1 "$out/external.txt")"
else echo "ok html-selfcontained"; fi
if grep -q '<svg' "$out"/path/report/f*.html && ! command -v dot >/dev/null 2>&1; then
  echo "not ok html-dot: an SVG picture without Graphviz installed"
fi

if [ -z "$browser" ]; then
  echo "skip html-chromium: chromium is not installed and cannot be (not root or no apt-get)"; exit 0
fi
dom() {  # dom URL OUT: the DOM after scripts ran
  $run "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$out/chromium" --dump-dom "$1" >"$2" 2>>"$out/chromium.log"
}
shot() {  # shot URL PNG
  $run "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$out/chromium" --hide-scrollbars \
    --window-size=1280,1600 --screenshot="$2" "$1" >>"$out/chromium.log" 2>&1
}

dom "file://$out/path/report/index.html" "$out/index.dom"
python3 - "$out/index.dom" "$out/path/cov.json" <<'PY'
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.rows = []
    def handle_starttag(self, tag, a):
        if tag == "tr" and dict(a).get("class") in ("file", "function"):
            self.rows.append(dict(a)["class"])
p = P(); p.feed(open(sys.argv[1]).read())
cov = json.load(open(sys.argv[2]))
nf, nfn = len(cov["files"]), sum(len(f["functions"]) for f in cov["files"])
got = (p.rows.count("file"), p.rows.count("function"))
print("ok html-index" if got == (nf, nfn) and nf > 1 else "not ok html-index: %d files and %d functions rendered, coverage has %d and %d" % (got + (nf, nfn)))
PY

# the function with the most executed paths; its hottest paths selected through the URL fragment
python3 - "$out" "$top/bin/pathprof" "$browser" <<'PY'
import json, os, re, subprocess, sys
from html.parser import HTMLParser
out, pathprof, browser = sys.argv[1:4]
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.sel_rows, self.sel_edges, self.paths, self.edge_ids, self.sel_paths = set(), set(), [], set(), []
    def handle_starttag(self, tag, a):
        a = dict(a); cls = (a.get("class") or "").split()
        if tag == "tr" and "sel" in cls: self.sel_rows.add(int(a["id"][1:]))
        if tag in ("g", "li") and "edge" in cls:
            self.edge_ids.add(a.get("id"))
            if "sel" in cls: self.sel_edges.add(a.get("id"))
        if tag == "li" and "path" in cls:
            self.paths.append((a["id"][1:], a["data-lines"], a["data-edges"]))
            if "sel" in cls: self.sel_paths.append(a["id"][1:])
def dom(url):
    r = subprocess.run(["timeout", "60", browser, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + out + "/chromium",
                        "--dump-dom", url], capture_output=True, text=True)
    p = P(); p.feed(r.stdout); return p
def ranges(text):  # "[loop] 18-19 20 a.c:3 [back]" -> lines of the function's own file
    lines = set()
    for w in text.split():
        if ":" in w or w.startswith("["): continue
        a, _, b = w.partition("-"); lines.update(range(int(a), int(b or a) + 1))
    return lines
cov = json.load(open(out + "/path/cov.json"))
funcs = [fn for f in cov["files"] for fn in f["functions"]]
best = max(range(len(funcs)), key=lambda i: (funcs[i]["paths"]["covered"], -i))
name = funcs[best]["name"]
# the page of that function: the index links each function to its page
index = open(out + "/path/report/index.html").read()
page = re.search(r'<a href="(f\d+\.html)">%s</a>' % re.escape(name), index).group(1)
report = subprocess.run([pathprof, "report", "--function", name, "--top", "1000", out + "/path/prof.out"], capture_output=True, text=True).stdout
want_lines = {m.group(1): ranges(m.group(2)) for m in re.finditer(r"#(\d+) +(.*)$", report, re.M)}
plain = dom("file://%s/path/report/%s" % (out, page))
problems = []
if plain.sel_rows or plain.sel_edges: problems.append("something is highlighted before any path is chosen")
if not plain.paths: problems.append("no path list on %s" % page)
for pid, lines, edges in plain.paths[:3]:
    d = dom("file://%s/path/report/%s#path=%s" % (out, page, pid))
    if d.sel_paths != [pid]: problems.append("path %s: selected paths %s" % (pid, d.sel_paths))
    if d.sel_rows != want_lines.get(pid): problems.append("path %s: lines %s highlighted, pathprof report says %s" % (pid, sorted(d.sel_rows), sorted(want_lines.get(pid, []))))
    if d.sel_edges != set(edges.split()) or not d.sel_edges or not d.sel_edges <= d.edge_ids:
        problems.append("path %s: edges %s highlighted, the path has %s" % (pid, sorted(d.sel_edges), edges))
print("not ok html-select: " + "; ".join(problems[:3]) if problems else "ok html-select %s (%s, 3 paths)" % (name, page))
open(out + "/shot.url", "w").write("file://%s/path/report/%s#path=%s" % (out, page, plain.paths[0][0]))
# Without Graphviz the CFG is a list of its edges, and choosing a path marks them there
d = dom("file://%s/path/nodot/%s#path=%s" % (out, page, plain.paths[0][0]))
ncfg = sum(1 for e in funcs[best]["edge_counts"] if e["kind"] in ("normal", "exit", "back", "cut"))
if len(d.edge_ids) == ncfg and d.sel_edges == set(plain.paths[0][2].split()): print("ok html-nodot")
else: print("not ok html-nodot: %d edges listed (%d in the CFG), %d highlighted" % (len(d.edge_ids), ncfg, len(d.sel_edges)))
# edge mode: no path list, the CFG with counts
ecov = json.load(open(out + "/edge/cov.json"))
emain = [i for i, f in enumerate(f for fl in ecov["files"] for f in fl["functions"]) if f["name"] == "main"][0]
d = dom("file://%s/edge/report/f%d.html" % (out, emain))
html = open("%s/edge/report/f%d.html" % (out, emain)).read()
print("ok html-edge-mode" if not d.paths and "edges are counted, paths are not" in html and d.edge_ids else "not ok html-edge-mode: paths %d, edges %d" % (len(d.paths), len(d.edge_ids)))
# kpath mode: the function page lists the hottest 3-iteration paths as pathprof kpaths does, and
# choosing one highlights the lines of all its iterations
kcov = json.load(open(out + "/kpath/cov.json"))
kfuncs = [f for fl in kcov["files"] for f in fl["functions"]]
kj = json.loads(subprocess.run([pathprof, "kpaths", "--json", "--top", "1000", out + "/kpath/prof.out"], capture_output=True, text=True).stdout)
problems, checked = [], 0
for i, fn in enumerate(kfuncs):
    want = [p for p in kj["paths"] if p["function"] == fn["name"]]
    if not want: continue
    page = "f%d.html" % i
    html = open("%s/kpath/report/%s" % (out, page)).read()
    shown = re.findall(r'<li class="path" id="pk\d+"[^>]*><a href="#path=k\d+"><b>(\d+)</b>[^<]*((?:<br>[^<]*)+)</a>', html)
    got = [(int(c), [int(x) for x in re.findall(r"#(\d+):", its)]) for c, its in shown]
    exp = [(p["count"], p["ids"]) for p in want][:len(got)]
    if not got or sorted(got) != sorted(exp) or [c for c, _ in got] != sorted((c for c, _ in got), reverse=True):
        problems.append("%s: page lists %s, pathprof kpaths %s" % (fn["name"], got[:3], exp[:3])); continue
    rep = subprocess.run([pathprof, "report", "--function", fn["name"], "--top", "1000", out + "/kpath/prof.out"], capture_output=True, text=True).stdout
    lines = {m.group(1): ranges(m.group(2)) for m in re.finditer(r"#(\d+) +(.*)$", rep, re.M)}
    d = dom("file://%s/kpath/report/%s#path=k0" % (out, page))
    union = set().union(*(lines.get(str(x), set()) for x in got[0][1]))
    if d.sel_paths != ["k0"] or d.sel_rows != union:
        problems.append("%s: #path=k0 selects %s, lines %s; want lines %s" % (fn["name"], d.sel_paths, sorted(d.sel_rows), sorted(union)))
    checked += 1
print("not ok html-kpath: " + "; ".join(problems[:3]) if problems or not checked else "ok html-kpath (%d functions)" % checked)
PY

shot "$(cat "$out/shot.url")" "$top/regress/out/html-function.png"
shot "file://$out/path/report/index.html" "$top/regress/out/html-index.png"
for p in html-function html-index; do
  f="$top/regress/out/$p.png"
  if [ -s "$f" ] && [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(wc -c <"$f")" -gt 10000 ]; then
    echo "ok html-screenshot $p (regress/out/$p.png)"
  else echo "not ok html-screenshot $p: no PNG written (see $out/chromium.log)"; fi
done
