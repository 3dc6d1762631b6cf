#!/bin/sh
# Paths told apart: paths that differ only inside a line (if (n > 5) return 3; return 4;) each
# have their own exact key, so residual and diff list them apart with their own counts and report
# shows which way each goes on the line; builds of the same source compare path by path, builds of
# changed source are named as such, not mixed.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=pathkeys
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
mkdir -p "$d/a" "$d/b" "$d/c"
cat >"$d/a/inline.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static int f(int n) {
  if (n > 5) return 3; return 4;
}
static int g(int a, int b) {
  int r = 0;
  if (a) r += 1; if (b) r += 2;
  return r;
}
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 1; i < argc; i++) {
    int x = atoi(argv[i]);
    s += f(x) + g(x & 1, x & 2);
  }
  printf("%d\n", s);
  return 0;
}
C
cp "$d/a/inline.c" "$d/b/inline.c"
sed 's/n > 5/n > 6/' "$d/a/inline.c" >"$d/c/inline.c"
(cd "$d/a" && "$P" gcc -O0 -o t inline.c && PATHPROF_FILE=tests.prof ./t 1 && PATHPROF_FILE=field.prof ./t 9 9 2 3 6) >"$d/a.log" 2>&1 &&
(cd "$d/b" && "$P" gcc -O2 -o t inline.c && PATHPROF_FILE=field.prof ./t 9 9 2 3 6) >"$d/b.log" 2>&1 &&
(cd "$d/c" && "$P" gcc -O0 -o t inline.c && PATHPROF_FILE=field.prof ./t 9 9 2 3 6) >"$d/c.log" 2>&1 ||
  { echo "not ok pathkeys-build: $(tail -1 "$d/a.log" "$d/b.log" "$d/c.log" 2>/dev/null | head -3)"; exit 0; }

# residual: f ran one path the tests never did (n > 5: three times); g two (a=0 b=1 twice,
# a=1 b=1 once), all through the same lines
"$R" residual --baseline "$d/a/tests.prof" "$d/a/field.prof" >"$d/residual.txt" 2>&1
python3 - "$d/residual.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
funcs = {}
for block in text.split("\n\n")[1:]:
    head, *rows = block.strip().split("\n")
    name = head.split(" ")[0]
    m = re.search(r": (\d+) residual paths, (\d+) executions", head)
    paths = [re.match(r"\s*(\d+)\s+#\d+\s+(.*)", r).groups() for r in rows]
    funcs[name] = (int(m.group(1)), int(m.group(2)), [(int(c), p) for c, p in paths])
want = {"f": [3], "g": [2, 1]}
bad = []
for name, counts in want.items():
    n, runs, paths = funcs.get(name, (0, 0, []))
    if sorted(c for c, _ in paths) != sorted(counts) or n != len(counts) or runs != sum(counts):
        bad.append("%s: want %d paths with counts %s, got %s" % (name, len(counts), counts, paths))
    texts = [p for _, p in paths]
    if len(set(texts)) != len(texts):
        bad.append("%s: two residual paths print the same: %s" % (name, texts))
    if any("{" not in p for p in texts):
        bad.append("%s: a path through shared lines does not say which way it goes: %s" % (name, texts))
print("not ok pathkeys-residual: " + "; ".join(bad) if bad else "ok pathkeys-residual")
PY

# report: g's three paths run through the same lines; each says how it goes on line 8
"$R" report --function g "$d/a/field.prof" >"$d/report.txt" 2>&1
n=$(grep -c '#[0-9].* 7 8 9 {8:' "$d/report.txt")
u=$(grep '#[0-9].* 7 8 9 {8:' "$d/report.txt" | sed 's/.*{//' | sort -u | wc -l)
if [ "$n" = 3 ] && [ "$u" = 3 ]; then echo "ok pathkeys-report"; else echo "not ok pathkeys-report: want 3 paths of g told apart on line 8, got $n ($u distinct): $(grep '#' "$d/report.txt" | head -4 | tr '\n' '|')"; fi

# diff: -O0 and -O2 builds of the same source compare path by path (same keys, same counts)
"$R" diff "$d/a/field.prof" "$d/b/field.prof" >"$d/diff-same.txt" 2>&1; rc=$?
if [ "$rc" = 0 ] && grep -q ': 0 paths differ' "$d/diff-same.txt"; then echo "ok pathkeys-diff-same-source"
else echo "not ok pathkeys-diff-same-source: status $rc: $(head -3 "$d/diff-same.txt" | tr '\n' '|')"; fi

# diff and residual: f changed (n > 6) is named as rebuilt from other source, g and main compare
"$R" diff "$d/a/field.prof" "$d/c/field.prof" >"$d/diff-changed.txt" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q '^f (inline.c:3-5): built from different source' "$d/diff-changed.txt" &&
   ! grep -q '^f (inline.c:3-5): [0-9]' "$d/diff-changed.txt" && grep -q ': 0 paths differ' "$d/diff-changed.txt"; then
  echo "ok pathkeys-diff-changed-source"
else echo "not ok pathkeys-diff-changed-source: status $rc: $(head -4 "$d/diff-changed.txt" | tr '\n' '|')"; fi
"$R" residual --baseline "$d/c/field.prof" "$d/a/field.prof" >"$d/residual-changed.txt" 2>&1
if grep -q '^f (inline.c:3-5): built from different source' "$d/residual-changed.txt" && grep -q ': 0 paths of' "$d/residual-changed.txt"; then
  echo "ok pathkeys-residual-changed-source"
else echo "not ok pathkeys-residual-changed-source: $(head -3 "$d/residual-changed.txt" | tr '\n' '|')"; fi
