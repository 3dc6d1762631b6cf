#!/bin/sh
# How long `pathprof coverage` takes on a big program: a generated C program of 3,000 functions
# and 250,000 lines in 100 files (loops, switches, if chains; about half of it runs), built with
# pathcc, run once, then every format written (median wall time of 3 runs each, and the peak
# memory of one). Results: bench/results/coverage_speed.md. Not a test: the figure depends on the
# machine; `make bench-coverage` runs it.
#   sh bench/coverage_speed.sh [--functions N] [--keep]
top=$(cd "$(dirname "$0")/.." && pwd)
P="$top/bin/pathcc"
R="$top/bin/pathprof"
nfun=3000
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --functions) nfun=$2; shift ;;
    --keep) keep=1 ;;
    *) echo "usage: sh bench/coverage_speed.sh [--functions N] [--keep]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$P" ] && [ -x "$R" ] || { echo "bench/coverage_speed.sh: run make first" >&2; exit 1; }
res="$top/bench/results"
mkdir -p "$res"
w=$(mktemp -d "${TMPDIR:-/tmp}/pathprof-covspeed.XXXXXX") || exit 1
[ "$keep" = 1 ] || trap 'rm -rf "$w"' EXIT
unset PATHPROF_FILE PATHPROF_DB PATHCC_FLAGS

python3 - "$w" "$nfun" <<'EOF'
import os, sys
w, nfun = sys.argv[1], int(sys.argv[2])
per = 30
files = (nfun + per - 1) // per
os.makedirs(os.path.join(w, 'src'), exist_ok=True)
def body(n):
    # 83 lines: a loop over a switch, if chains, straight-line arithmetic
    L = ['int f%d(int x)' % n, '{', '  int s = 0, i, t = x;']
    L += ['  for (i = 0; i < (x & 7); i++) {', '    switch ((x + i) % 6) {']
    for c in range(5):
        L += ['    case %d:' % c, '      s += i * %d;' % (c + 1), '      t ^= s;', '      break;']
    L += ['    default:', '      s -= i;', '      break;', '    }', '  }']
    for k in range(8):
        L += ['  if (t %% %d == %d)' % (k + 2, k % 2), '    s += %d;' % k, '  else', '    s -= t & %d;' % (k + 1),
              '  t = t * 3 + %d;' % k, '  s ^= t >> %d;' % (k % 5)]
    L += ['  s += t;', '  return s;', '}', '']
    return L
for fi in range(files):
    lines = ['/* generated: functions %d..%d */' % (fi * per, min(nfun, fi * per + per) - 1)]
    for n in range(fi * per, min(nfun, fi * per + per)):
        lines += body(n)
    open(os.path.join(w, 'src', 'm%03d.c' % fi), 'w').write('\n'.join(lines) + '\n')
decl = ''.join('int f%d(int);\n' % n for n in range(nfun))
calls = ''.join('  if (argc + %d > %d) s += f%d(argc * %d + %d);\n' % (n % 3, 2, n, n % 11, n) for n in range(nfun) if n % 2 == 0)
open(os.path.join(w, 'main.c'), 'w').write('#include <stdio.h>\n' + decl + 'int main(int argc, char **argv)\n{\n  long s = 0;\n  (void)argv;\n'
    + calls + '  printf("%ld\\n", s);\n  return 0;\n}\n')
EOF
lines=$(cat "$w"/src/*.c "$w"/main.c | wc -l)
echo "# coverage speed: $nfun functions, $lines lines in $(ls "$w"/src | wc -l) files; building with pathcc ..."
cd "$w" || exit 1
ls src/*.c | sort >all.list
half=$(( $(wc -l <all.list) / 2 ))
head -n "$half" all.list >a.list; tail -n +"$((half + 1))" all.list >b.list
t0=$(date +%s)
("$P" gcc -O0 -c $(cat a.list) >build-a.log 2>&1; echo $? >a.rc) &
("$P" gcc -O0 -c $(cat b.list) main.c >build-b.log 2>&1; echo $? >b.rc) &
wait
if [ "$(cat a.rc)$(cat b.rc)" != 00 ] || ! "$P" gcc -o prog ./*.o >link.log 2>&1; then
  echo "bench/coverage_speed.sh: the build failed: $(cat build-a.log build-b.log link.log | head -3)" >&2; exit 1
fi
echo "# built in $(( $(date +%s) - t0 )) s"
./prog 1 2 >/dev/null || { echo "bench/coverage_speed.sh: the program failed" >&2; exit 1; }

# medians of 3 runs: wall time and CPU time (user + system: the wall time of a shared machine
# counts other jobs too); GNU time gives the peak memory of the last
timeit() {  # timeit FORMAT: prints "wall cpu maxKiB bytes"
  out=cov.$1; [ "$1" = html ] && out=html
  for k in 1 2 3; do
    rm -rf "$out"
    PATHPROF_DOT= /usr/bin/time -f '%e %U %S %M' -o t.$k "$R" coverage --format "$1" -o "$out" >/dev/null 2>err.log ||
      { echo "bench/coverage_speed.sh: --format $1 failed: $(head -1 err.log)" >&2; exit 1; }
  done
  wall=$(cat t.1 t.2 t.3 | awk '{print $1}' | sort -n | sed -n 2p)
  cpu=$(cat t.1 t.2 t.3 | awk '{printf "%.2f\n", $2 + $3}' | sort -n | sed -n 2p)
  mem=$(awk '{print $4}' t.3)
  size=$(du -sb "$out" | awk '{print $1}')
  echo "$wall $cpu $mem $size"
}
[ -x /usr/bin/time ] || { [ "$(id -u)" = 0 ] && apt-get install -y -qq time >/dev/null 2>&1; }
[ -x /usr/bin/time ] || { echo "bench/coverage_speed.sh: needs /usr/bin/time (Debian package time)" >&2; exit 1; }
{
  echo "# pathprof coverage on $nfun functions, $lines lines ($(date -u +%Y-%m-%d), $(git -C "$top" rev-parse --short HEAD 2>/dev/null), $(nproc) processors, load average $(cut -d' ' -f1 /proc/loadavg) at the start)"
  echo
  echo "| format | wall seconds | CPU seconds | peak memory | output |"
  echo "|---|---|---|---|---|"
  worst=0 worstcpu=0
  for f in text json lcov cobertura gcov html sonarqube coveralls markdown; do
    set -- $(timeit $f)
    echo "| $f | $1 | $2 | $(( $3 / 1024 )) MiB | $(( $4 / 1024 )) KiB |"
    worst=$(echo "$worst $1" | awk '{print ($2 > $1) ? $2 : $1}')
    worstcpu=$(echo "$worstcpu $2" | awk '{print ($2 > $1) ? $2 : $1}')
  done
  echo
  echo "Medians of 3 runs. Slowest format: $worst s wall, $worstcpu s CPU (goal: every format under 2 s). html without"
  echo "Graphviz (PATHPROF_DOT=): with dot each function's picture is one more process."
} | tee "$res/coverage_speed.md"
