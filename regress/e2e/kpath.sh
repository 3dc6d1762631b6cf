#!/bin/sh
# --mode=kpath end to end: every sample's n-gram counts equal those cut from its block trace (regress/oracle.py --kpaths), level 1 equals path mode's counts, a full static pool drops and reports ids, and pathprof kpaths shows what it says.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=kpath
. "$top/regress/private.sh"
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHPROF_TRACE PATHCC_FLAGS
run="timeout 20"
flags="-std=c99 -O2 -Wall -Wextra"

# oracle NAME K SRC...: a traced kpath build with k = K runs like the plain build, and its n-grams
# and level-1 counts equal those the oracle cuts from the block trace.
oracle() {
  name=$1 k=$2; shift 2
  d="$out/$name-k$k"
  mkdir -p "$d"
  if ! gcc $flags -o "$d/plain" "$@" -lm >"$d/plain.log" 2>&1 ||
     ! (cd "$d" && "$P" --trace --mode=kpath --k="$k" gcc $flags -o prog "$@" -lm) >"$d/pathcc.log" 2>&1; then
    echo "not ok kpath build $name k=$k: $(head -1 "$d/pathcc.log" "$d/plain.log" | grep -v '^==' | head -1)"
    return
  fi
  if [ -s "$d/pathcc.log" ]; then echo "not ok kpath build $name k=$k: pathcc said: $(head -1 "$d/pathcc.log")"; return; fi
  (cd "$d" && $run ./plain >plain.out 2>&1; echo $? >>plain.out)
  (cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" $run ./prog >prog.out 2>&1; echo $? >>prog.out)
  if ! cmp -s "$d/plain.out" "$d/prog.out"; then
    echo "not ok kpath semantics $name k=$k: output or status differs (diff $d/plain.out $d/prog.out)"
    return
  fi
  if ! "$R" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>"$d/decoded.err"; then
    echo "not ok kpath oracle $name k=$k: pathprof dump --decode failed: $(head -1 "$d/decoded.err")"
    return
  fi
  python3 "$top/regress/oracle.py" --kpaths "$k" --name "kpath $name k=$k" --trace "$d/trace.txt" \
    --decoded "$d/decoded.txt" "$d"/*.pp.json
}

# make check: every other sample at k=3 (sample.sh), the five below at k=8; check-full: all
i=0
for src in "$top"/samples/*.c; do
  i=$((i + 1)); sampled $i 2 || continue
  oracle "$(basename "$src" .c)" 3 "$src"
done
for s in loops nested recursion sort statemachine; do
  oracle "$s" 8 "$top/samples/$s.c"
done
oracle demo 5 "$top"/samples/demo/*.c

# Level 1 of the k-IPF equals what path mode counts, build against build (units matched by source).
d="$out/level1"
mkdir -p "$d/path" "$d/kpath"
for s in loops nested sort switch recursion; do
  (cd "$d/path" && "$P" gcc -O2 -o "$s" "$top/samples/$s.c" && PATHPROF_FILE=prof.out $run "./$s") >/dev/null 2>&1
  (cd "$d/kpath" && "$P" --mode=kpath --k=6 gcc -O2 -o "$s" "$top/samples/$s.c" && PATHPROF_FILE=prof.out $run "./$s") >/dev/null 2>&1
done
"$R" dump --decode "$d/path/prof.out" >"$d/path/decoded.txt" 2>&1
"$R" dump --decode "$d/kpath/prof.out" >"$d/kpath/decoded.txt" 2>&1
python3 - "$d" <<'PY'
import glob, json, sys
d = sys.argv[1]
def counts(mode):
    src = {}
    for p in glob.glob("%s/%s/*.pp.json" % (d, mode)):
        t = json.load(open(p))
        src[t["checksum"].lower()] = (t["source"], t["mode"])
    c = {}
    for line in open("%s/%s/decoded.txt" % (d, mode)):
        w = line.split()
        if w and w[0] in ("P", "O"):
            key = (w[0], src[w[1].lower()][0], w[2]) + tuple(w[4:])
            c[key] = c.get(key, 0) + int(w[3])
    return c, set(m for s, m in src.values())
a, ma = counts("path")
b, mb = counts("kpath")
diff = [k for k in sorted(set(a) | set(b)) if a.get(k, 0) != b.get(k, 0)]
if ma != {"path"} or mb != {"kpath"} or not a:
    print("not ok kpath level1: builds of the wrong mode (%s, %s) or no counts" % (ma, mb))
elif diff:
    print("not ok kpath level1: %d path counts differ from path mode, e.g. %s: path %d, kpath %d"
          % (len(diff), " ".join(diff[0]), a.get(diff[0], 0), b.get(diff[0], 0)))
else:
    print("ok kpath level1: level 1 of the k-IPF equals path mode's counts (%d paths of 5 samples)" % len(a))
PY

# Runs add up: a second run merged into the profile doubles every n-gram count.
d="$out/merge"
mkdir -p "$d"
(cd "$d" && "$P" --mode=kpath --k=4 gcc -O2 -o loops "$top/samples/loops.c" && PATHPROF_FILE=one.out $run ./loops &&
 PATHPROF_FILE=two.out $run ./loops && PATHPROF_FILE=two.out $run ./loops) >"$d/log" 2>&1
"$R" dump --decode "$d/one.out" 2>/dev/null | grep '^K ' | awk '{ $4 = 2 * $4; print }' | sort >"$d/one.txt"
"$R" dump --decode "$d/two.out" 2>/dev/null | grep '^K ' | awk '{ $4 = $4 + 0; print }' | sort >"$d/two.txt"
if [ -s "$d/one.txt" ] && cmp -s "$d/one.txt" "$d/two.txt"; then echo "ok kpath merge: two runs merged at exit double every n-gram"
else echo "not ok kpath merge: two runs do not give twice one run's n-grams (diff $d/one.txt $d/two.txt)"; fi

# pathprof kpaths: the hot list decodes each iteration, --function, --k, --tree, --json, errors.
(cd "$d" && "$R" kpaths --top 2 one.out >kp.txt 2>&1)
if grep -q '^Hottest paths' "$d/kp.txt" && grep -q '| iteration 4' "$d/kp.txt" && grep -q 'k = 4, k-SF' "$d/kp.txt"; then
  echo "ok kpath report: hot 4-iteration paths with each iteration's lines"
else echo "not ok kpath report: no decoded 4-iteration path in $d/kp.txt"; fi
(cd "$d" && "$R" kpaths --k 2 --function main --tree one.out >kp2.txt 2>&1)
if grep -q '| iteration 2' "$d/kp2.txt" && ! grep -q 'iteration 3' "$d/kp2.txt" && grep -q '^2-IPF of main' "$d/kp2.txt" &&
   ! grep -q '^check (' "$d/kp2.txt"; then echo "ok kpath report --k 2 --function main --tree"
else echo "not ok kpath report --k 2 --function main --tree: see $d/kp2.txt"; fi
if (cd "$d" && "$R" kpaths --json one.out) 2>&1 | python3 -c 'import json,sys; j=json.load(sys.stdin); assert j["paths"] and len(j["paths"][0]["ids"]) == 4 and len(j["paths"][0]["iterations"]) == 4' 2>/dev/null; then
  echo "ok kpath report --json"
else echo "not ok kpath report --json: not JSON with 4-iteration paths"; fi
for args in "--k 5" "--k x" "--function nosuch" "--bogus"; do
  if (cd "$d" && "$R" kpaths $args one.out) 2>"$d/bad.txt" >/dev/null; then echo "not ok kpath report '$args': accepted"
  elif [ "$(wc -l <"$d/bad.txt")" -gt 3 ] || ! grep -q 'pathprof' "$d/bad.txt"; then echo "not ok kpath report '$args': no clear error: $(head -1 "$d/bad.txt")"
  else echo "ok kpath report '$args' refused: $(grep pathprof "$d/bad.txt" | head -1)"; fi
done
if (cd "$d" && "$P" --mode=kpath --k=65 gcc -c -o x.o "$top/samples/loops.c") >"$d/bad.txt" 2>&1; then echo "not ok kpath pathcc --k=65: accepted"
else echo "ok kpath pathcc --k=65 refused: $(head -1 "$d/bad.txt")"; fi

# A freestanding runtime's static pool: when it is full, ids are dropped, counted and reported;
# the counts kept plus those dropped are all the ids.
d="$out/pool"
mkdir -p "$d"
cat >"$d/pool.c" <<'C'
#include "core/core.h"
#include "profile/profile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static struct __pathprof_unit u = {0, PATHPROF_UNIT_VERSION, 0x706f6f6cULL, "/t/pool.pp.json", 0, 0, 0, 0, 0};
static unsigned char buf[1 << 20];
static unsigned long n;
static int sink(void *c, const void *p, unsigned long len) { (void)c; memcpy(buf + n, p, len); n += len; return 0; }
int main(void) {
  static void *cache;
  static const struct __pathprof_kfn d = {&u, 0, 3, &cache};
  struct __pathprof_ka a = {&d, 0, 0, 0, 0};
  struct pp_profile p;
  char err[200];
  unsigned long long ids = 0, kept = 0, i;
  unsigned s = 1;
  __pathprof_register(&u);
  for (i = 0; i < 20000; i++, ids++) __pathprof_kpath_id(&a, (s = s * 1103515245u + 12345u) >> 20 & 255);
  if (pathprof_dump(sink, 0) || pp_profile_parse(buf, n, "pool", &p, err, sizeof err)) { printf("not ok kpath pool: %s\n", err); return 1; }
  for (i = 0; i < p.forests[0].nnodes; i++) kept += p.forests[0].nodes[i].count;
  printf("%s kpath pool: %llu ids, %llu counted in %llu nodes, %llu dropped\n",
         p.nforests == 1 && p.forests[0].dropped > 0 && kept + p.forests[0].dropped == ids ? "ok" : "not ok",
         ids, kept, p.forests[0].nnodes, p.forests[0].dropped);
  return 0;
}
C
if gcc -std=c99 -Wall -Wextra -ffreestanding -DPATHPROF_KPATH_POOL=4096 -I"$top/include" -I"$top/rt" -c "$top/rt/core/kpath.c" -o "$d/kpath.o" 2>"$d/build.log" &&
   gcc -std=c99 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -I"$top/include" -I"$top/rt" -o "$d/pool" "$d/pool.c" "$d/kpath.o" \
     "$top/rt/core/core.c" "$top/rt/core/hash.c" "$top/rt/core/partial.c" "$top/rt/embedded/freestanding.c" "$top"/rt/profile/*.c 2>>"$d/build.log" && [ ! -s "$d/build.log" ]; then
  $run "$d/pool"
else echo "not ok kpath pool: build failed: $(head -1 "$d/build.log")"; fi

# A freestanding build's text dump (the UART format) carries the k-slab forests: imported, it
# gives the k-iteration paths the hosted build of the same object writes to its profile.
d="$out/textdump"
mkdir -p "$d"
printf '#include <stdio.h>\n#include "pathprof.h"\nint workload(void);\nint main(void) { workload(); return pathprof_dump_text(putchar, "kpath", 0) ? 1 : 0; }\n' >"$d/fs.c"
printf 'int workload(void);\nint main(void) { return workload(); }\n' >"$d/host.c"
if (cd "$d" && "$P" --mode=kpath --k=3 gcc -O1 -Dmain=workload -c "$top/samples/loops.c" -o loops.o) 2>"$d/build.log" &&
   gcc -std=c99 -O1 -DPATHPROF_KPATH_POOL=65536 -I"$top/include" -I"$top/rt" -o "$d/fs" "$d/fs.c" "$d/loops.o" \
     "$top/rt/core/core.c" "$top/rt/core/hash.c" "$top/rt/core/partial.c" "$top/rt/core/kpath.c" "$top/rt/core/textdump.c" "$top/rt/embedded/freestanding.c" 2>>"$d/build.log" &&
   (cd "$d" && "$P" gcc -o host host.c loops.o) 2>>"$d/build.log"; then
  (cd "$d" && $run ./fs >uart.log && "$R" import uart.log -o fs.prof >import.log 2>&1 &&
   PATHPROF_FILE=host.prof $run ./host >/dev/null &&
   "$R" kpaths --json fs.prof | grep -v "\"profile\":" >fs.json && "$R" kpaths --json host.prof | grep -v "\"profile\":" >host.json)
  if [ -s "$d/host.json" ] && cmp -s "$d/fs.json" "$d/host.json" && grep -q 'PP1 X ' "$d/uart.log"; then
    echo "ok kpath text dump carries the forests: the import equals the hosted profile"
  else echo "not ok kpath text dump: the import's k-iteration paths differ from the hosted build's (see $d)"; fi
else echo "not ok kpath text dump: build failed: $(head -1 "$d/build.log")"; fi

# Forests written twice by one process into a continuous profile (pathprof_write_file between two
# rounds, then at exit): each write's forests go beside the file as a dump of their own, and
# every dump counts, so the n-grams equal those of the same program writing to an ordinary file.
d="$out/contdumps"
mkdir -p "$d"
cat >"$d/k.c" <<'SRC'
#include <stdio.h>
int pathprof_write_file(const char *path);

static int step(int i)
{
  if (i % 3)
    return 1;
  return 2;
}

int main(void)
{
  int s = 0;
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 6; i++)
      s += step(i);
    pathprof_write_file(NULL);
  }
  printf("%d\n", s);
  return 0;
}
SRC
if (cd "$d" && "$P" --mode=kpath --k=3 gcc -O0 -o k k.c && PATHPROF_FILE=c.out%c ./k && PATHPROF_FILE=plain.out ./k) >"$d/log" 2>&1; then
  "$R" dump --decode "$d/c.out" 2>/dev/null | grep '^K ' | sort >"$d/cont.txt"
  "$R" dump --decode "$d/plain.out" 2>/dev/null | grep '^K ' | sort >"$d/plain.txt"
  if [ -s "$d/plain.txt" ] && cmp -s "$d/cont.txt" "$d/plain.txt"; then echo "ok kpath continuous: every write's forests count"
  else echo "not ok kpath continuous: the continuous profile's n-grams differ from the ordinary one's (diff $d/cont.txt $d/plain.txt)"; fi
else echo "not ok kpath continuous: build or run failed: $(head -1 "$d/log")"; fi
