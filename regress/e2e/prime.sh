#!/bin/sh
# Prime-path coverage (pathprof coverage --prime-paths) against the trace oracle: a program whose
# loops are skipped, taken once and taken again (a for with a branch, nested loops, a do-while
# with a break) is built with --trace in kpath mode (k=4) and in path mode. Independently of
# pathprof, the prime paths of each function's CFG (from the tables' edges) are found by a
# brute-force depth-first search, and each one's runs counted in the block trace (every place
# an activation's block sequence holds it). Then: pathprof names the same prime paths; each one
# it decides has the trace's count; the kpath build decides all of them; the path build decides
# exactly those that take no back edge, and says which k decides the rest. A function with more
# simple paths than --prime-paths=LIMIT is named, and the HTML function page has the section. An
# edge-mode build's prime paths are all named undecided, with the reason.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=prime
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

cat >loops.c <<'C'
#include <stdio.h>
static int loop(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i & 1) s += i;
    else s -= 1;
  }
  return s;
}
static int nested(int a, int b) {
  int s = 0;
  for (int i = 0; i < a; i++) {
    int j = 0;
    while (j < b) {
      if ((i + j) % 3 == 0) s++;
      j++;
    }
  }
  return s;
}
static int dowhile(int n) {
  int s = 0;
  do {
    s += n;
    if (s > 20) break;
  } while (--n > 0);
  return s;
}
static int many(int x) {
  int s = 0;
  if (x & 1) s++;
  if (x & 2) s++;
  if (x & 4) s++;
  if (x & 8) s++;
  if (x & 16) s++;
  if (x & 32) s++;
  return s;
}
int main(void) {
  int s = loop(0) + loop(1) + loop(4);              /* skipped, taken once, taken again */
  s += nested(0, 0) + nested(1, 0) + nested(3, 2);
  s += dowhile(3) + dowhile(30) + many(5) + many(42);
  printf("%d\n", s);
  return 0;
}
C
for m in kpath path; do
  mkdir -p $m
  (cd $m && "$pc" --trace --mode=$m $([ $m = kpath ] && echo --k=4) $CC -w -o prog ../loops.c &&
   PATHPROF_TRACE=trace.txt $run ./prog >/dev/null &&
   "$pp" coverage --prime-paths --format json -o prime.json &&
   "$pp" coverage --prime-paths=40 -o limit.txt &&
   "$pp" coverage --prime-paths --format html -o html) >$m/log 2>&1 || echo "not ok prime $m build: $(head -1 $m/log)"
done
mkdir -p edge
(cd edge && "$pc" --mode=edge $CC -w -o prog ../loops.c && $run ./prog >/dev/null &&
 "$pp" coverage --prime-paths --format json -o prime.json) >edge/log 2>&1 || echo "not ok prime edge build: $(head -1 edge/log)"
python3 - <<'PY'
import glob, json, re, collections
def check(cond, name, why):
    print(('ok prime ' + name) if cond else ('not ok prime %s: %s' % (name, why)))

def primes(edges, nodes):
    """Every simple path and cycle by depth-first search; those inside no longer one."""
    succ = collections.defaultdict(list)
    for u, v in edges: succ[u].append(v)
    found = []
    def dfs(p):
        found.append(tuple(p))
        for s in succ[p[-1]]:
            if s == p[0]: found.append(tuple(p + [s]))
            elif s not in p: dfs(p + [s])
    for v in nodes: dfs([v])
    found = set(found)
    def inside(a, b): return len(b) > len(a) and any(b[i:i + len(a)] == a for i in range(len(b) - len(a) + 1))
    return {p for p in found if not any(inside(p, q) for q in found)}

for mode in ('kpath', 'path'):
    tables = json.load(open(glob.glob(mode + '/*.pp.json')[0]))
    cs = tables['checksum']
    # the trace's block sequence of each activation, per function
    acts, stack = collections.defaultdict(list), []
    for line in open(mode + '/trace.txt'):
        f = line.split()
        if not f or f[1] != cs: continue
        fn = int(f[2])
        if f[0] == 'B':
            if f[3] == '0': stack.append((fn, [])); 
            stack[-1][1].append(int(f[3]))
        elif f[0] == 'X':
            done = stack.pop(); acts[done[0]].append(done[1])
    got = {d['function']: d for d in json.load(open(mode + '/prime.json'))['functions']}
    for i, fn in enumerate(tables['functions']):
        name = fn['name']
        live = [b for b, x in enumerate(fn['blocks']) if x.get('live', True) and b != 1]
        edges = {(e['src'], e['dst']) for e in fn['edges'] if e['kind'] in ('normal', 'back', 'cut') and e['dst'] != 1 and e['src'] in live and e['dst'] in live}
        back = {(e['src'], e['dst']) for e in fn['edges'] if e['kind'] in ('back', 'cut')}
        want = primes(edges, live)
        def runs(p):
            return sum(1 for seq in acts[i] for k in range(len(seq) - len(p) + 1) if tuple(seq[k:k + len(p)]) == p)
        g = got.get(name)
        if g is None: check(False, '%s %s' % (mode, name), 'not in the report'); continue
        mine = {tuple(x['blocks']): x for x in g['prime_paths']}
        bad = []
        if set(mine) != want: bad.append('prime paths %s, brute force %s' % (sorted(set(mine) - want)[:3], sorted(want - set(mine))[:3]))
        for p in want & set(mine):
            x, crossings = mine[p], sum((p[k], p[k + 1]) in back for k in range(len(p) - 1))
            if x['back_edges'] != crossings: bad.append('%s takes %d back edges, not %d' % (p, crossings, x['back_edges']))
            decide = crossings + 1 <= g['k']
            if decide and x['state'] == 'undecided': bad.append('%s undecided with k=%d' % (p, g['k']))
            if not decide and x['state'] != 'undecided': bad.append('%s decided with k=%d' % (p, g['k']))
            if decide and x['count'] != runs(p): bad.append('%s ran %s times, the trace says %d' % (p, x['count'], runs(p)))
        need = max([sum((p[k], p[k + 1]) in back for k in range(len(p) - 1)) + 1 for p in want] or [1])
        if g['need_k'] != need: bad.append('need_k %d, want %d' % (g['need_k'], need))
        n = len(want); ran = sum(1 for p in want if runs(p))
        check(not bad, '%s %s: %d prime paths, %d ran, %d undecided' % (mode, name, n, ran, g['undecided']), '; '.join(bad[:3]))
    # loops skipped, taken once and again: some prime path through each loop ran and some did not
    lp = got['loop']['prime_paths']
    check(any(x['state'] == 'ran' for x in lp) and any(x['state'] == 'not run' for x in lp) or mode == 'path',
          '%s loop: some ran, some not' % mode, [x['state'] for x in lp])
    check(all(d['undecided'] == 0 for d in got.values()) if mode == 'kpath' else got['loop']['undecided'] > 0,
          '%s undecided' % mode, {d['function']: d['undecided'] for d in got.values()})
    lim = open(mode + '/limit.txt').read()
    check(re.search(r'many .*over limit', lim) and 'more than 40 simple paths' in lim, '%s limit named' % mode, lim[:300])
    why = open(mode + '/limit.txt').read()
    if mode == 'path':
        check('--mode=kpath --k=' in why, 'path says which k', why[:200])
    page = [open(f).read() for f in glob.glob(mode + '/html/f*.html') if '<h1>loop ' in open(f).read()]
    m = re.search(r'<section id="prime" data-prime="(\d+)"', page[0]) if page else None
    check(m and int(m.group(1)) == len(got['loop']['prime_paths']), '%s html' % mode, 'no prime section on the loop page' if not m else m.group(0))
# an edge-mode build: every prime path named, none decided, and why
edge = json.load(open('edge/prime.json'))['functions']
check(len(edge) == 5 and all(f['undecided'] == len(f['prime_paths']) > 0 and 'edge' in f['why'] for f in edge), 'edge mode undecided',
      [(f['function'], f['undecided'], f['why']) for f in edge][:2])
PY
