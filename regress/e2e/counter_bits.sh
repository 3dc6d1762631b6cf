#!/bin/sh
# pathcc --counter-bits=32: 32-bit saturating counters. Every sample and case counts exactly as the
# block-trace oracle says; a counter stops at 2^32-1 and the report calls such counts lower bounds;
# a target whose int is narrower than 32 bits keeps 64-bit counters with a warning.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/counter_bits"
rm -rf "$out" && mkdir -p "$out" || exit 1
pp="$top/bin/pathprof"
. "$top/regress/sample.sh"
# make check: every other program (sample.sh); check-full: all
i=0
for src in "$top"/samples/*.c "$top"/regress/cases/*.c; do
  i=$((i + 1)); sampled $i 2 || continue
  n=$(basename "$src" .c) d="$out/$n"
  mkdir -p "$d"
  gcc -O2 -w -o "$d/plain" "$src" -lm >/dev/null 2>&1 || continue
  if ! (cd "$d" && "$top/bin/pathcc" --trace --counter-bits=32 gcc -O2 -w -o prog "$src" -lm) >"$d/build.log" 2>&1 ||
     [ -s "$d/build.log" ]; then
    echo "not ok counter_bits build $n: $(head -1 "$d/build.log")"
    continue
  fi
  (cd "$d" && timeout 20 ./plain >plain.out 2>&1; echo $? >>plain.out)
  (cd "$d" && PATHPROF_FILE="$d/prof.out" PATHPROF_TRACE="$d/trace.txt" timeout 20 ./prog >prog.out 2>&1; echo $? >>prog.out)
  if ! cmp -s "$d/plain.out" "$d/prog.out"; then echo "not ok counter_bits semantics $n: output or status differs"; continue; fi
  "$pp" dump --decode "$d/prof.out" >"$d/decoded.txt" 2>&1 ||
    { echo "not ok counter_bits decode $n: $(head -1 "$d/decoded.txt")"; continue; }
  python3 "$top/regress/oracle.py" --name "counter_bits $n" --trace "$d/trace.txt" --decoded "$d/decoded.txt" "$d"/*.pp.json
  rm -f "$d/trace.txt"
done

# Saturation: the program presets its unit's counters just below 2^32-1 through the runtime.
d="$out/saturate" && mkdir -p "$d" && cd "$d" || exit 1
cat >sat.c <<'C'
/* every counter of this unit starts at 2^32-2; f's one path then runs 3 times */
#include <stdio.h>
struct __pathprof_unit *__pathprof_first(void);
void __pathprof_counter_set(struct __pathprof_unit *, unsigned long, unsigned long long);
static int f(int x) { if (x > 2) return x * 2; return x; }
int main(void) {
  struct __pathprof_unit *u;
  int s = 0, i;
  u = __pathprof_first();  /* after the declarations: main has registered its unit by now */
  for (i = 0; i < 64; i++) __pathprof_counter_set(u, i, 0xfffffffeULL);
  for (i = 0; i < 3; i++) s += f(5);
  printf("%d\n", s);
  return 0;
}
C
"$top/bin/pathcc" --counter-bits=32 gcc -O2 -o sat sat.c >build.log 2>&1 && PATHPROF_FILE="$d/sat.prof" ./sat >sat.out
"$pp" dump --decode sat.prof >sat.dec 2>&1
"$pp" report sat.prof >sat.report 2>&1
# function 0 is f; its path through "return x * 2" (blocks 0,2,3) ran 3 times past 2^32-2
if grep -q '^P [0-9a-f]* 0 4294967295 0,2,3 E$' sat.dec; then echo "ok counter_bits saturates at 2^32-1"
else echo "not ok counter_bits saturates at 2^32-1: $(grep '^P [0-9a-f]* 0 ' sat.dec | head -2 | tr '\n' ' ')"; fi
if grep -q '^P [0-9a-f]* 0 4294967294 0,2,4 E$' sat.dec; then echo "ok counter_bits leaves other counters alone"
else echo "not ok counter_bits leaves other counters alone: $(head -3 sat.dec | tr '\n' ' ')"; fi
if grep -q '^!! sat.c: [0-9]* path counts reached 2^32-1 .*lower bounds' sat.report; then echo "ok counter_bits report names lower bounds"
else echo "not ok counter_bits report names lower bounds: $(head -3 sat.report | tr '\n' ' ')"; fi

# A target with a 16-bit int (a compiler that says so): 64-bit counters and one warning.
cat >cc16 <<'C'
#!/bin/sh
for a in "$@"; do [ "$a" = -dM ] && { echo '#define __SIZEOF_INT__ 2' >"$(eval echo \${$#})"; exit 0; }; done
exec gcc "$@"
C
chmod +x cc16
"$top/bin/pathcc" --counter-bits=32 ./cc16 -O2 -c -o n16.o sat.c >n16.log 2>&1
if grep -q 'warning: sat.c: int has 16 bits on this target: --counter-bits=32 needs 32, counters stay 64-bit' n16.log &&
   grep -q '"counter_bits":64' n16.pp.json; then echo "ok counter_bits a 16-bit int keeps 64-bit counters, with a warning"
else echo "not ok counter_bits a 16-bit int keeps 64-bit counters: $(head -1 n16.log)"; fi
"$top/bin/pathcc" --counter-bits=16 gcc -c sat.c >bad.log 2>&1; rc=$?
if [ $rc != 0 ] && grep -q 'error: invalid value in --counter-bits=16 (32 or 64)' bad.log; then echo "ok counter_bits rejects --counter-bits=16"
else echo "not ok counter_bits rejects --counter-bits=16: status $rc, $(head -1 bad.log)"; fi
