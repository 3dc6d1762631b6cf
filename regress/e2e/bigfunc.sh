#!/bin/sh
# Big functions on a hosted target, default flags: a function of 2^22 paths run through ~10^5
# distinct ones counts in the unit's array (lazily mapped, in .lbss with GCC on x86-64) with
# counts exact against the trace oracle and nothing dropped; the same function in the hash table
# (--array-limit=4096), whose table grows past its 4096 entries, gives the same counts, with and
# without threads; an explicit --hash-cap keeps the table's size and the report and coverage say
# what it dropped; and a short run's exit reads no page of the big array it never touched, nor of
# the threads' shards of it (minor faults near the plain build's), nor does a rewrite of the
# profile file holding the big unit.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=bigfunc
. "$top/regress/private.sh"
cd "$out" || exit 1

python3 - <<'PY'
with open('big.c', 'w') as f:
    f.write('#include <stdio.h>\n#include <stdlib.h>\n#ifdef THREADS\n#include <pthread.h>\n#endif\n'
            '#ifdef FORKS\n#include <sys/wait.h>\n#include <unistd.h>\n#endif\n'
            '/* 22 ifs in a row: 2^22 paths, one per value of the low 22 bits of x */\n'
            'static unsigned long step(unsigned long x) {\n  unsigned long s = 0;\n')
    for i in range(22):
        f.write(f'  if ((x >> {i}) & 1) s += {i + 1}; else s ^= {3 * i + 1};\n')
    f.write('''  return s;
}
static long n = 100000;
/* n calls of step on xorshift values: about n distinct paths */
static void *work(void *arg) {
  unsigned long long r = 88172645463325252ULL + (unsigned long)arg;
  unsigned long t = 0;
  for (long i = 0; i < n; i++) {
    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
    t += step((unsigned long)(r >> 20) & 0x3fffff);
  }
  return (void *)t;
}
int main(int argc, char **argv) {
  unsigned long t = 0;
  if (argc > 1) n = atol(argv[1]);
#ifdef THREADS
  pthread_t th[4];
  n /= 4;
  for (long k = 0; k < 4; k++) pthread_create(&th[k], 0, work, (void *)k);
  for (int k = 0; k < 4; k++) { void *v; pthread_join(th[k], &v); t += (unsigned long)v; }
#else
  t = (unsigned long)work(0);
#endif
#ifdef FORKS
  for (int k = 0; k < FORKS; k++) { /* children that end at once (an exec's fork, say) */
    pid_t p = fork();
    if (p == 0) _exit(0);
    if (p > 0) waitpid(p, 0, 0);
  }
#endif
  printf("%lu\\n", t);
  return 0;
}
''')
PY

# build NAME PATHCC-OPTIONS... -- CFLAGS...: pathcc into NAME/, run with 100000 calls, decode into NAME/dec
build() {
  n=$1; shift
  mkdir -p $n
  if ! (cd $n && "$top/bin/pathcc" "$@" -o prog ../big.c >build.log 2>&1); then
    echo "not ok bigfunc build $n: $(head -1 $n/build.log)"; return 1
  fi
  (cd $n && PATHPROF_FILE=$out/$n/prof PATHPROF_TRACE=$out/$n/trace ./prog 100000 >run.out) || {
    echo "not ok bigfunc run $n"; return 1; }
  "$top/bin/pathprof" dump --decode $n/prof >$n/dec 2>&1 || { echo "not ok bigfunc decode $n: $(head -1 $n/dec)"; return 1; }
  "$top/bin/pathprof" report $n/prof >$n/report 2>&1 || { echo "not ok bigfunc report $n: $(head -1 $n/report)"; return 1; }
}

# where NAME: how step counts in NAME's tables (array or hash) and its number of paths
where() { python3 -c "
import json, sys
f = [f for f in json.load(open(sys.argv[1]))['functions'] if f['name'] == 'step'][0]
print(f['counter'], f['paths'])" $1/*-big.pp.json; }

# same A B WHAT: the decoded path counts of builds A and B are equal (checksums aside), nothing dropped
same() {
  python3 - "$out/$1/dec" "$out/$2/dec" "$3" <<'PY'
import sys
def load(p):
    c, d = {}, 0
    for line in open(p):
        w = line.split()
        if w and w[0] in ("P", "O"):
            k = (w[0], w[2]) + tuple(w[4:])
            c[k] = c.get(k, 0) + int(w[3])
        if w and w[0] == "D":
            d += int(w[2])
    return c, d
(a, da), (b, db) = load(sys.argv[1]), load(sys.argv[2])
diff = [k for k in sorted(set(a) | set(b)) if a.get(k, 0) != b.get(k, 0)]
paths = sum(1 for k in a if k[0] == "P")
if diff or da or db or paths < 90000:
    print("not ok bigfunc %s: %d path counts differ (%d paths), %d and %d dropped%s" % (sys.argv[3], len(diff), paths, da, db,
          ", e.g. %s: %d and %d" % (" ".join(diff[0]), a.get(diff[0], 0), b.get(diff[0], 0)) if diff else ""))
else:
    print("ok bigfunc %s (%d paths, %d path ends)" % (sys.argv[3], paths, sum(a.values())))
PY
}

# (a) default flags: an array, exact against the trace oracle, no dropped line in the report
build array --trace gcc -O2 || exit 0
w=$(where array)
case $w in "array "*) echo "ok bigfunc default: step ($w paths) counts in the array" ;;
  *) echo "not ok bigfunc default: step counts in: $w (want the array)" ;; esac
python3 "$top/regress/oracle.py" --name "bigfunc default trace" --trace array/trace --decoded array/dec array/*.pp.json
if grep -qi "not counted\|dropped" array/report; then echo "not ok bigfunc default report: $(grep -i "not counted\|dropped" array/report | head -1)"
else echo "ok bigfunc default report: nothing dropped"; fi

# (b) the hash table (--array-limit=4096) grows past its 4096 entries: the array's counts
build hash --array-limit=4096 gcc -O2 && {
  w=$(where hash)
  case $w in "hash "*) echo "ok bigfunc hash build: step ($w paths) counts in the hash table" ;;
    *) echo "not ok bigfunc hash build: step counts in: $w (want the hash table)" ;; esac
  cmp -s array/run.out hash/run.out && echo "ok bigfunc semantics" || echo "not ok bigfunc semantics: output differs"
  same array hash "hash table grown = array"
  grep -qi "not counted" hash/report && echo "not ok bigfunc hash report: $(grep -i "not counted" hash/report)" ||
    echo "ok bigfunc hash report: nothing dropped"
}
# with 4 threads: shards of the big array against the atomic table growing under threads
build tarray gcc -O2 -DTHREADS -pthread && build thash --array-limit=4096 gcc -O2 -DTHREADS -pthread &&
  same tarray thash "4 threads: hash table grown = array"

# an explicit --hash-cap keeps the table's size: the ends it has no room for are dropped and reported
build capped --array-limit=4096 --hash-cap=4096 gcc -O2 && {
  d=$(awk '$1 == "D" { s += $3 } END { print s + 0 }' capped/dec)
  if [ "$d" -gt 0 ] && grep -q "$d path ends were not counted" capped/report; then echo "ok bigfunc capped: $d ends dropped and reported"
  else echo "not ok bigfunc capped: $d dropped, report: $(grep -i "not counted" capped/report | head -1)"; fi
  for f in lcov json cobertura; do
    "$top/bin/pathprof" coverage --format $f -o capped/cov.$f capped/prof 2>capped/cov-$f.err
    if grep -q "$d path ends were not counted.* step are low" capped/cov-$f.err; then echo "ok bigfunc capped coverage $f: says so"
    else echo "not ok bigfunc capped coverage $f: does not say that $d path ends of step were dropped: $(head -1 capped/cov-$f.err)"; fi
  done
}

# (c) a short run (10 calls) touches a few pages of the 32 MiB array, and its exit reads no other
$CC -O2 -o plain big.c
faults() { python3 -c "
import os, resource, subprocess, sys
b = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - b)" "$@"; }
mkdir -p short && (cd short && "$top/bin/pathcc" gcc -O2 -o prog ../big.c) && {
  rm -f short/prof
  p=$(faults ./plain 10) i=$(PATHPROF_FILE=$out/short/prof faults short/prog 10)
  if [ -s short/prof ] && [ "$i" -le $((p + 200)) ]; then echo "ok bigfunc short run: $i minor faults (plain $p; the array is 8192 pages)"
  else echo "not ok bigfunc short run: $i minor faults (plain $p; the array is 8192 pages), profile $(wc -c <short/prof 2>/dev/null)"; fi
  # with 4 threads: 3 shards of 32 MiB besides the array; folding them reads only what was written
  $CC -O2 -DTHREADS -pthread -o tplain big.c && (cd short && "$top/bin/pathcc" gcc -O2 -DTHREADS -pthread -o tprog ../big.c) && {
    rm -f short/tprof
    p=$(faults ./tplain 10) i=$(PATHPROF_FILE=$out/short/tprof faults short/tprog 10)
    if [ -s short/tprof ] && [ "$i" -le $((p + 400)) ]; then echo "ok bigfunc short run, 4 threads: $i minor faults (plain $p)"
    else echo "not ok bigfunc short run, 4 threads: $i minor faults (plain $p; each shard is 8192 pages)"; fi
  }
  # (e) 20 forks whose children end at once: a child starts from zero without reading or copying
  # the big array's pages (its parent's are dropped, not cleared) and writes its own counts
  $CC -O2 -DFORKS=20 -o fplain big.c && (cd short && "$top/bin/pathcc" gcc -O2 -DFORKS=20 -o fprog ../big.c) && {
    rm -f short/fprof
    p=$(faults ./fplain 10) i=$(PATHPROF_FILE=$out/short/fprof faults short/fprog 10)
    ends=$("$top/bin/pathprof" dump --decode short/fprof 2>/dev/null | awk '$1 == "P" && $3 == 0 { s += $4 } END { print s + 0 }')
    if [ "$ends" = 10 ] && [ "$i" -le $((p + 20 * 150)) ]; then echo "ok bigfunc forks: $i minor faults for 21 processes (plain $p), step counted 10 times"
    else echo "not ok bigfunc forks: $i minor faults for 21 processes (plain $p; the array is 8192 pages), step counted $ends times (want 10)"; fi
  }
  # (d) the file rewritten whole under its lock (each other program brings a unit it lacks)
  # reads, merges and writes the big unit as the pairs it holds: each exit faults as the plain
  # build's, not the 8192 pages of a dense copy
  for k in 1 2 3; do
    printf 'int f%s(int x) { return x > %s ? x : -x; }\nint main(int c, char **v) { (void)v; return f%s(c) < -9; }\n' \
      $k $k $k >short/other$k.c
    $CC -O2 -o short/oplain$k short/other$k.c && (cd short && "$top/bin/pathcc" gcc -O2 -o other$k other$k.c) || k=fail
  done
  [ "$k" = 3 ] && {
    rm -f short/prof && PATHPROF_FILE=$out/short/prof short/prog 10 >/dev/null
    worst=0 most=0
    for k in 1 2 3; do
      p=$(faults short/oplain$k) i=$(PATHPROF_FILE=$out/short/prof faults short/other$k)
      [ $((i - p)) -gt "$worst" ] && worst=$((i - p))
    done
    n=$("$top/bin/pathprof" dump short/prof 2>/dev/null | grep -c '^unit ')
    if [ "$n" = 4 ] && [ "$worst" -le 200 ]; then echo "ok bigfunc rewrites: the file rewritten 3 times, each exit at most $worst minor faults above plain"
    else echo "not ok bigfunc rewrites: $n units in the profile (want 4), an exit $worst minor faults above its plain build's (the big array is 8192 pages)"; fi
  }
  if [ "$(uname -m)" = x86_64 ] && [ "$($CC -dumpmachine | cut -d- -f1)" = x86_64 ]; then
    size() { _h=$(readelf -SW "$2" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk -v s="$1" '$1 == s { print $5 }' | head -1); printf '%d\n' "0x${_h:-0}"; }
    b=$(size .bss short/prog) l=$(size .lbss short/prog)
    if [ "$b" -le 16384 ] && [ "$l" -ge 33554432 ]; then echo "ok bigfunc .lbss: .bss $b bytes, the array in .lbss ($l bytes)"
    else echo "not ok bigfunc .lbss: .bss $b bytes, .lbss $l (want the 32 MiB array there)"; fi
  fi
}
