#!/bin/sh
# MC/DC (pathprof coverage --mcdc): every sample and case built with --decisions=conditions; the
# reports in each format are well formed; a statements-mode profile gets a message naming the
# flag; and clang-19's MC/DC (-fcoverage-mcdc, llvm-cov export) is the outside oracle: every
# decision both tools see with the same conditions has the same covered conditions under
# unique-cause, and each condition the true and false evaluations clang's branch counts give
# (regress/mcdccmp.py). Decisions seen differently are listed ("# differs") with the reason. A kpath
# build of the conditions sample gives the path build's MC/DC; decisions of up to 64 conditions.
# Installs clang-19 and llvm-19 when missing (as root).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=mcdc
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

# a statements-mode profile asked for MC/DC: the message names the flag
cat >st.c <<'C'
int main(int argc, char **argv) { (void)argv; return argc > 1 && argc < 5 ? 1 : 0; }
C
mkdir -p st && (cd st && "$pc" $CC -o prog ../st.c && ./prog; "$pp" coverage --mcdc >../st.txt 2>&1; echo "rc $?" >>../st.txt)
if grep -q -- "--decisions=conditions" st.txt && grep -q "rc 1" st.txt; then echo "ok mcdc statements-mode message"
else echo "not ok mcdc statements-mode message: $(head -1 st.txt)"; fi

# a kpath build's vectors are level 1 of its k-IPF: the same MC/DC as the path build's
mkdir -p kp/path kp/kpath
for m in path kpath; do
  (cd kp/$m && "$pc" --mode=$m --decisions=conditions $CC -w -o prog "$top/samples/conditions.c" && { PATHPROF_FILE=prof.out $run ./prog >/dev/null 2>&1; true; } &&
   "$pp" coverage --mcdc --format json prof.out 2>&1 | sed 's/"profile":"[^"]*",//' >mcdc.json) ||
     echo "not ok mcdc kpath: the $m build failed"
done
if [ -s kp/path/mcdc.json ] && cmp -s kp/path/mcdc.json kp/kpath/mcdc.json; then echo "ok mcdc kpath equals path"
else echo "not ok mcdc kpath equals path: the MC/DC reports differ"; fi

need clang-19:clang-19 llvm-cov-19:llvm-19 llvm-profdata-19:llvm-19
# large decisions: random &&/||/! trees of 8, 16 and 64 conditions over bits of random inputs (make
# check); 8, 24 and 64 with REGRESS_FULL (llvm-cov export takes about two minutes over those)
sizes=$(sized "8 16 64" "8 24 64")
python3 - $sizes >"$out/bigdec.c" <<'PY'
import random, sys
sizes = [int(a) for a in sys.argv[1:]]
random.seed(19)
def tree(lo, n, top=False):  # ! on single conditions only: clang leaves out a ! over && or ||
    if n == 1: return ('!' if random.random() < 0.2 else '') + 'x[%d]' % lo
    k = random.randint(1, n - 1)
    e = '%s %s %s' % (tree(lo, k), random.choice(['&&', '||']), tree(lo + k, n - k))
    return e if top else '(' + e + ')'
print('#include <stdio.h>\n#include <stdlib.h>')
for n in sizes:
    print('static int d%d(const int *x) { if (%s) return 1; return 0; }' % (n, tree(0, n, True)))
print('int main(void) { int x[64], s = 0; srand(7);')
print('  for (int t = 0; t < 3000; t++) { for (int i = 0; i < 64; i++) x[i] = rand() % 4 != 0;')
print('    s += %s; }' % ' + '.join('d%d(x)' % n for n in sizes))
print('  printf("%d\\n", s); return 0; }')
PY
# make check: the large decisions, the unsequenced case and every third program (sample.sh);
# check-full: all
i=-1
for src in "$out/bigdec.c" "$top"/samples/*.c "$top"/regress/cases/*.c; do
  i=$((i + 1))
  case $src in */bigdec.c|*/unsequenced.c) ;; *) sampled $i 3 || continue ;; esac
  n=$(basename "$src" .c)
  d="$out/$n"; mkdir -p "$d/pp" "$d/cl"
  clang-19 -w -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc -o "$d/cl/prog" "$src" -lm >"$d/cl/build.log" 2>&1 || continue
  if ! (cd "$d/pp" && "$pc" --decisions=conditions $CC -w -o prog "$src" -lm) >"$d/pp/build.log" 2>&1; then
    echo "not ok mcdc build $n: $(head -1 "$d/pp/build.log")"; continue
  fi
  (cd "$d/pp" && PATHPROF_FILE="$d/pp/prof.out" $run ./prog >/dev/null 2>&1)
  (cd "$d/cl" && LLVM_PROFILE_FILE="$d/cl/prog.profraw" $run ./prog >/dev/null 2>&1)
  for f in text json lcov gcov; do
    if ! (cd "$d/pp" && "$pp" coverage --mcdc=unique-cause --format $f -o "mcdc.$f" prof.out) 2>"$d/pp/$f.err"; then
      echo "not ok mcdc format $f $n: $(head -1 "$d/pp/$f.err")"; continue 2
    fi
  done
  (cd "$d/pp" && "$pp" coverage --mcdc --format json -o masking.json prof.out)
  llvm-profdata-19 merge -o "$d/cl/prog.profdata" "$d/cl/prog.profraw" &&
    llvm-cov-19 export -format=text -instr-profile "$d/cl/prog.profdata" "$d/cl/prog" >"$d/cl/export.json" ||
    { echo "not ok mcdc clang $n: llvm-cov export failed"; continue; }
  python3 "$top/regress/mcdccmp.py" "mcdc clang" "$n" "$src" "$d/pp/mcdc.json" "$d/cl/export.json" "$d/cl/build.log" >"$d/cmp.txt"
  grep -v '^# mcdccmp ' "$d/cmp.txt"
  # operands of one operator holding a decision each: every one of them a decision, as clang's
  if [ "$n" = unsequenced ] && ! grep -q '^ok .*, 0 seen differently$' "$d/cmp.txt"; then
    echo "not ok mcdc unsequenced operands: $(grep -c '^# differs' "$d/cmp.txt") decisions seen differently from clang-19: $(grep -m1 '^# differs' "$d/cmp.txt")"
  fi
  python3 - "$n" "$d/pp/mcdc.json" "$d/pp/masking.json" "$d/pp/mcdc.lcov" <<'PY'
import json, re, sys
name, ours, masking, lcov = sys.argv[1:]
mine = json.load(open(ours))
mask = json.load(open(masking))
# lcov 2.x records as geninfo(1) gives them: MCDC:line,group size,t|f,taken,index,expression
bad = [l for l in open(lcov) if l.startswith('MCDC:') and not re.match(r'^MCDC:\d+,\d+,[tf],\d+,\d+,[^,]*$', l)]
print(('not ok mcdc lcov %s: %s' % (name, bad[0].strip())) if bad else 'ok mcdc lcov %s' % name)
# masking never shows fewer conditions than unique-cause on the same vectors
weaker = [d for d, m in zip(mine['decisions'], mask['decisions']) if m['covered'] < d['covered']]
print(('not ok mcdc masking %s: %s:%d' % (name, weaker[0]['file'], weaker[0]['line'])) if weaker else 'ok mcdc masking %s' % name)
PY
done
