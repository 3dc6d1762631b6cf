#!/bin/sh
# A static inline function of a header, compiled into two units, is one function in the report,
# attributed to the header's lines, with the counts of both copies added.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/inline"
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
cat >clamp.h <<'C'
static inline int clamp(int x, int lo, int hi)
{
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}
C
cat >a.c <<'C'
#include "clamp.h"
int from_a(int n) { int s = 0; for (int i = 0; i < n; i++) s += clamp(i, 2, 5); return s; }
C
cat >m.c <<'C'
#include <stdio.h>
#include "clamp.h"
int from_a(int);
int main(void) { int s = from_a(10); for (int i = 0; i < 4; i++) s += clamp(-i, -1, 1); printf("%d\n", s); return 0; }
C
"$top/bin/pathcc" gcc -O2 -o prog a.c m.c && PATHPROF_FILE="$out/p.out" ./prog >/dev/null
"$top/bin/pathprof" report --function clamp p.out >report.txt 2>&1
# 14 calls in all: from_a: 2 below, 4 inside, 4 above lo..hi; main: 1 inside (0), 3 below (-1..-3 < -1 for 2)
if grep -q "^clamp (clamp.h:1-6): 14 path executions, 3 of 3 paths executed.*compiled into 2 units" report.txt; then
  echo "ok inline: one function, counts of both units added, header lines"
else
  echo "not ok inline: $(grep '^clamp' report.txt || head -3 report.txt)"
fi
