#!/bin/sh
# Hash-mode path ends through the inline cache: a function with 2^20 static paths counts in the
# hash table through its cache (hits on 8 hot paths, misses and evictions among 2500 others) and
# gives the profile the array build of the same function gives, and the trace oracle's; the same
# under --update=atomic and prefer-atomic with threads, and across pathprof_reset().
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=hashcache
. "$top/regress/private.sh"
cd "$out" || exit 1

python3 - <<'PY'
with open('hc.c', 'w') as f:
    f.write('#include <stdio.h>\n#include <stdlib.h>\n#ifdef THREADS\n#include <pthread.h>\n#endif\n'
            '#ifdef RESET\n#include <pathprof.h>\n#endif\n'
            'static unsigned long step(unsigned long x) {\n  unsigned long s = 0;\n')
    for i in range(20):
        f.write(f'  if ((x >> {i}) & 1) s += {i + 1}; else s ^= {3 * i + 1};\n')
    f.write('''  return s;
}
static const unsigned long hot[8] = { 0, 0xfffff, 0x5a5a5, 0xa5a5a, 0x12345, 0xedcba, 0x80001, 0x3c3c3 };
/* 200000 calls: three in four take one of 8 hot paths, the others one of 2500 spread ones */
static void *work(void *arg) {
  unsigned long long r = 88172645463325252ULL + (unsigned long)arg;
  unsigned long t = 0;
  for (long i = 0; i < 200000; i++) {
#ifdef RESET
    if (i == 100000) pathprof_reset();
#endif
    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
    t += step(i % 4 ? hot[i % 8] : (unsigned long)(r % 2500) * 419 & 0xfffff);
  }
  return (void *)t;
}
int main(void) {
  unsigned long t = 0;
#ifdef THREADS
  pthread_t th[4];
  for (long k = 0; k < 4; k++) pthread_create(&th[k], 0, work, (void *)k);
  for (int k = 0; k < 4; k++) { void *v; pthread_join(th[k], &v); t += (unsigned long)v; }
#else
  t = (unsigned long)work(0);
#endif
  printf("%lu\\n", t);
  return 0;
}
''')
PY

# build NAME FLAGS...: pathcc FLAGS into NAME/, run it, decode its profile into NAME/dec
build() {
  n=$1; shift
  mkdir -p $n
  if ! (cd $n && "$top/bin/pathcc" "$@" -I"$top/include" -o prog ../hc.c >build.log 2>&1); then
    echo "not ok hashcache build $n: $(head -1 $n/build.log)"; return 1
  fi
  (cd $n && PATHPROF_FILE=$out/$n/prof PATHPROF_TRACE=$out/$n/trace ./prog >run.out)
  "$top/bin/pathprof" dump --decode $n/prof >$n/dec 2>&1 || { echo "not ok hashcache decode $n: $(head -1 $n/dec)"; return 1; }
}

# same A B WHAT: the decoded path counts of builds A and B are equal (matched by function and blocks)
same() {
  python3 - "$out/$1/dec" "$out/$2/dec" "$3" <<'PY'
import sys
def load(p):
    c = {}
    for line in open(p):
        w = line.split()
        if w and w[0] in ("P", "O"):
            k = (w[0], w[2]) + tuple(w[4:])
            c[k] = c.get(k, 0) + int(w[3])
    return c
a, b = load(sys.argv[1]), load(sys.argv[2])
diff = [k for k in sorted(set(a) | set(b)) if a.get(k, 0) != b.get(k, 0)]
paths = sum(1 for k in a if k[0] == "P")
if diff or paths < 2500:
    print("not ok hashcache %s: %d path counts differ (%d paths)%s" % (sys.argv[3], len(diff), paths,
          ", e.g. %s: %d and %d" % (" ".join(diff[0]), a.get(diff[0], 0), b.get(diff[0], 0)) if diff else ""))
else:
    print("ok hashcache %s (%d paths, %d path ends)" % (sys.argv[3], paths, sum(a.values())))
PY
}

# the cached build counts in the hash table through its cache, the array build in an array
build cache --trace --array-limit=4096 gcc -O2 && build array --array-limit=2000000 gcc -O2 || exit 0
python3 - cache/*-hc.pp.json array/*-hc.pp.json <<'PY'
import json, sys
def step(p):
    return [f for f in json.load(open(p))['functions'] if f['name'] == 'step'][0]
c, a = step(sys.argv[1]), step(sys.argv[2])
ok = c['counter'] == 'hash' and a['counter'] == 'array' and int(c['paths']) >= 10**6
print(('ok' if ok else 'not ok') + ' hashcache: step has %s paths, in %s (--array-limit=4096) and %s (--array-limit=2000000)'
      % (c['paths'], c['counter'], a['counter']))
PY
(cd cache && "$top/bin/pathcc" --array-limit=4096 gcc -O2 -c -o hc.o ../hc.c)
if nm cache/hc.o | grep -q ' U __pathprof_hash_miss$' && ! nm cache/hc.o | grep -q ' U __pathprof_hash_add$'; then
  echo "ok hashcache: path ends of step go through the inline cache (__pathprof_hash_miss on a miss)"
else
  echo "not ok hashcache: the unit does not count through __pathprof_hash_miss: $(nm cache/hc.o | grep pathprof_hash | tr '\n' ' ')"
fi
cmp -s cache/run.out array/run.out && echo "ok hashcache semantics" || echo "not ok hashcache semantics: output differs"
python3 "$top/regress/oracle.py" --name "hashcache trace" --trace cache/trace --decoded cache/dec cache/*.pp.json
same cache array "cache = array"

# atomic cache, and threads: shards with the atomic table against shards with arrays
build atomic --update=atomic --array-limit=4096 gcc -O2 && same atomic array "atomic cache = array"
build tcache --update=prefer-atomic --array-limit=4096 gcc -O2 -DTHREADS -pthread &&
  build tarray --update=prefer-atomic --array-limit=2000000 gcc -O2 -DTHREADS -pthread &&
  same tcache tarray "4 threads, prefer-atomic: cache = array"
build tatomic --update=atomic --array-limit=4096 gcc -O2 -DTHREADS -pthread && same tatomic tarray "4 threads, atomic: cache = array"

# pathprof_reset halfway: the cache keeps pointing at entries whose counts were zeroed
build rcache --array-limit=4096 gcc -O2 -DRESET && build rarray --array-limit=2000000 gcc -O2 -DRESET &&
  same rcache rarray "after pathprof_reset: cache = array"
