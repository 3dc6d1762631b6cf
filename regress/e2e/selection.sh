#!/bin/sh
# pathcc as a drop-in: .pathcc and PATHCC_* selection, @response files, a wrapper directory of
# compiler-named symlinks, PATHPROF_DB for tables, and -v passed straight through.
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/selection"
rm -rf "$out" && mkdir -p "$out/sub" && cd "$out" || exit 1
P="$top/bin/pathcc"
cat >a.c <<'C'
int twice(int x) { return x > 0 ? 2 * x : 0; }
int helper(int x) { if (x & 1) return x; return -x; }
C
cat >m.c <<'C'
#include <stdio.h>
int twice(int), helper(int);
int main(void) { int s = 0; for (int i = 0; i < 10; i++) s += twice(i) + helper(i); printf("%d\n", s); return 0; }
C
check() { if eval "$2"; then echo "ok selection $1"; else echo "not ok selection $1"; fi; }
functions() { "$top/bin/pathprof" dump "$1" 2>/dev/null | sed -n 's/^function [0-9]* \([a-z_]*\) .*/\1/p' | tr '\n' ' '; }

printf 'exclude-function helper\n' >sub/.pathcc
(cd sub && "$P" gcc -c ../a.c -o a.o)
check "function excluded by .pathcc found upward" '[ "$(functions sub/a.pp.json)" = "twice " ]'
rm sub/.pathcc
printf 'nonsense here\n' >.pathcc
(cd sub && "$P" gcc -c ../a.c -o a.o) 2>err.txt
check "a bad .pathcc line is an error naming the file and line" 'grep -q "\.pathcc:1: unknown directive" err.txt'
rm .pathcc
PATHCC_INCLUDE_FUNCTIONS='tw*' "$P" gcc -c a.c -o b.o
check "PATHCC_INCLUDE_FUNCTIONS" '[ "$(functions b.pp.json)" = "twice " ]'
PATHCC_EXCLUDE_FILES='*/a.c' "$P" gcc -c a.c -o c.o
check "PATHCC_EXCLUDE_FILES compiles the file untouched, no tables" '[ -f c.o ] && [ ! -f c.pp.json ]'
printf -- '-c "a.c" -o "with space.o"\n' >args.rsp
"$P" gcc @args.rsp
check "@response file with quotes" '[ -f "with space.o" ] && [ -f "with space.pp.json" ]'
mkdir -p wrap && ln -sf "$P" wrap/gcc
PATH="$out/wrap:$PATH" gcc -o prog a.c m.c >wrap.log 2>&1
check "wrapper directory: gcc -> pathcc -> the real gcc" '[ -x prog ] && [ -f prog-a.pp.json ] && ./prog >/dev/null'
mkdir -p db
PATHPROF_DB="$out/db" "$P" gcc -o prog2 a.c m.c && PATHPROF_FILE="$out/p2.out" ./prog2 >/dev/null
check "PATHPROF_DB collects the tables" '[ $(ls db/*.pp.json | wc -l) = 2 ] && [ ! -f prog2-a.pp.json ]'
check "pathprof finds tables recorded in PATHPROF_DB" '"$top/bin/pathprof" report "$out/p2.out" >/dev/null'
"$P" -v >v.log 2>&1
check "-v alone goes to the compiler" 'grep -q "gcc version" v.log'
