#!/bin/sh
# Driver semantics beyond regress/e2e/driver.sh, each against plain gcc in a twin directory:
# -S, -save-temps, -fsyntax-only, C++ and assembly inputs (alone and beside C sources), -x c,
# the compiler's exit status and diagnostics, and -Wall -Wextra -pedantic -Werror under
# -std=c89/c99/c11/gnu89/gnu11 on a program that compiles clean with plain gcc (in path mode,
# and with --decisions=conditions, --mode=osp and --trace, whose code goes before declarations).
NAME=driver2
. "$(dirname "$0")/../dropin-lib.sh"
s="$d/src"
mkdir -p "$s" || exit 1
cat >"$s/a.c" <<'C'
/* a.c: calls h() from c.S and k() from d.s when built with them */
#include <stdio.h>
#include "a.h"
int f(int x) { if (x > 2) return x * A; return x; }
int main(void) { int i, s = 0; for (i = 0; i < 5; i++) s += f(i); printf("%d\n", s); return 0; }
C
echo '#define A 3' >"$s/a.h"
cat >"$s/asmuser.c" <<'C'
/* asmuser.c: uses the assembly functions */
#include <stdio.h>
int h(void);
int k(void);
int main(void) { int n = h() + k(); if (n != 12) return 1; printf("%d\n", n); return 0; }
C
cat >"$s/b.cpp" <<'C'
// b.cpp: C++, never instrumented
#include <cstdio>
extern "C" int g(int x) { return x + 1; }
template <class T> T twice(T x) { return x + x; }
int gg() { return twice(21); }
C
printf '#define V 7\n\t.text\n\t.globl h\nh:\tmovl $V, %%eax\n\tret\n\t.section .note.GNU-stack,"",@progbits\n' >"$s/c.S"
printf '\t.text\n\t.globl k\nk:\tmovl $5, %%eax\n\tret\n\t.section .note.GNU-stack,"",@progbits\n' >"$s/d.s"
cat >"$s/warn.c" <<'C'
/* warn.c: two -Wall warnings, no error */
#include <stdio.h>
int f(int x) { int unused; if (x = 2) return 1; return 0; }
int main(void) { printf("%d\n", f(1)); return 0; }
C
cat >"$s/err.c" <<'C'
/* err.c: an undeclared identifier */
int f(int x) { return y + x; }
C
cat >"$s/pperr.c" <<'C'
/* pperr.c: a preprocessor warning and error */
#warning "this is a warning"
#error "this is an error"
int x;
C
cat >"$s/clean.c" <<'C'
/* clean.c: compiles clean as C89 to C11 with -Wall -Wextra -pedantic; blocks and the body of
   main() start with declarations, some of them decisions, one after __extension__ */
#include <stdio.h>
#include <string.h>

struct item { const char *name; int weight; };

static int score(const struct item *it, int n)
{
  int i, total = 0;
  for (i = 0; i < n; i++) {
    int heavy = it[i].weight > 5 && it[i].name[0] != 'x';
    int bonus = heavy ? 2 : 0;
    total += bonus;
    switch (it[i].weight % 3) {
    case 0: total += it[i].weight; break;
    case 1: total -= 1; break;
    default: total += (int)strlen(it[i].name);
    }
    if (total > 100 && it[i].name[0] == 'x') goto done;
  }
  while (total > 50) total /= 2;
done:
  return total > 0 ? total : -total;
}

int main(int argc, char **argv)
{
  static const struct item items[] = { {"apple", 3}, {"pear", 4}, {"xylophone", 8}, {"fig", 12} };
  int many = argc > 1 || argv[0] == NULL;
  int r = score(items, (int)(sizeof items / sizeof items[0])) + many;
  (void)argv;
  if (argc > 0) {
    __extension__ long long wide = (long long)r * 3;
    r = (int)(wide / 3);
  }
  printf("%d %d\n", r, argc);
  return 0;
}
C
cat >"$s/macrowarn.c" <<'C'
/* macrowarn.c: a macro tests an array against NULL; GCC warns (-Waddress) only when it sees
   the macro, so the preprocessed unit pathcc compiles warns where the source does not */
#include <stdio.h>
#define FIRST(a) ((a) != NULL ? (a)[0] : -1)
int main(void)
{
  int v[3] = { 4, 5, 6 };
  printf("%d\n", FIRST(v));
  return 0;
}
C
cat >"$s/attrs.c" <<'C'
/* attrs.c: C2x [[attributes]] on functions and statements (gcc -std=c2x), a GNU fallthrough */
#include <stdio.h>
[[nodiscard]] static int twice(int x)
{
  [[maybe_unused]] int unused = 0;
  switch (x) {
  case 1: x += 2; [[fallthrough]];
  case 2: x++; break;
  case 3: x--; __attribute__((fallthrough));
  default: break;
  }
  return 2 * x;
}
[[maybe_unused]] static int spare(int x) { return x > 1 ? x : -x; }
int main(void)
{
  int s = 0, i;
  for (i = 0; i < 4; i++) s += twice(i);
  printf("%d\n", s);
  return 0;
}
C
# twin NAME COMMAND-WORDS: runs "gcc WORDS" in $d/plain/NAME and "pathcc gcc WORDS" in
# $d/pathcc/NAME (fresh copies of src), keeping stdout, stderr and the exit status of each.
twin() {
  n=$1; shift
  for k in plain pathcc; do
    rm -rf "$d/$k/$n" && mkdir -p "$d/$k" && cp -r "$s" "$d/$k/$n" || exit 1
    if [ $k = plain ]; then (cd "$d/$k/$n" && "$@" >.stdout 2>.stderr; echo $? >.rc)
    else (cd "$d/$k/$n" && "$P" "$@" >.stdout 2>.stderr; echo $? >.rc); fi
  done
}
# the files a command left, besides pathcc's tables
files() { (cd "$d/$1/$2" && find . -type f ! -name '.*' ! -name '*.pp.json' | sed 's|^\./||' | sort | grep -vxF "$(ls "$s")" | tr '\n' ' '); }
same_rc() { cmp -s "$d/plain/$1/.rc" "$d/pathcc/$1/.rc"; }
same_err() { cmp -s "$d/plain/$1/.stderr" "$d/pathcc/$1/.stderr"; }
first_diff() { diff "$d/plain/$1/$2" "$d/pathcc/$1/$2" | grep '^[<>]' | head -2 | cut -c1-150 | tr '\n' ' '; }

# -S: the assembly is instrumented, named as gcc names it, and links into a working program
twin S gcc -S a.c
if [ "$(files plain S)" = "$(files pathcc S)" ] && grep -q __pathprof_register "$d/pathcc/S/a.s" && [ -f "$d/pathcc/S/a.pp.json" ]; then ok S
else nok S "pathcc gcc -S a.c left [ $(files pathcc S)] (gcc: [ $(files plain S)]), instrumented: $(grep -c __pathprof_register "$d/pathcc/S/a.s" 2>/dev/null)"; fi
(cd "$d/plain/S" && gcc -o prog a.s && ./prog >out.txt) 2>/dev/null
(cd "$d/pathcc/S" && "$P" gcc -o prog a.s && ./prog >out.txt) 2>/dev/null
t S-links "pathcc gcc -o prog a.s (the instrumented assembly) does not link or run as the plain one does" \
  cmp "$d/plain/S/out.txt" "$d/pathcc/S/out.txt"
twin S-o gcc -S -o x.s a.c
[ "$(files plain S-o)" = "$(files pathcc S-o)" ] && ok S-o || nok S-o "pathcc gcc -S -o x.s a.c left [ $(files pathcc S-o)], gcc [ $(files plain S-o)]"

# -save-temps: the same intermediate files as gcc (their contents are the instrumented unit's)
twin save-temps-c gcc -save-temps -c a.c
[ "$(files plain save-temps-c)" = "$(files pathcc save-temps-c)" ] && ok save-temps-c ||
  nok save-temps-c "pathcc gcc -save-temps -c a.c left [ $(files pathcc save-temps-c)], gcc [ $(files plain save-temps-c)]"
twin save-temps-link gcc -save-temps -o prog a.c
[ "$(files plain save-temps-link)" = "$(files pathcc save-temps-link)" ] && ok save-temps-link ||
  nok save-temps-link "pathcc gcc -save-temps -o prog a.c left [ $(files pathcc save-temps-link)], gcc [ $(files plain save-temps-link)]"

# -fsyntax-only: nothing written, the same answer
for f in a.c warn.c err.c; do
  twin "syntax-$f" gcc -Wall -fsyntax-only "$f"
  if same_rc "syntax-$f" && same_err "syntax-$f" && [ "$(files plain "syntax-$f")" = "$(files pathcc "syntax-$f")" ]; then ok "fsyntax-only-$f"
  else nok "fsyntax-only-$f" "pathcc gcc -Wall -fsyntax-only $f: status $(cat "$d/pathcc/syntax-$f/.rc") (gcc $(cat "$d/plain/syntax-$f/.rc")), $(first_diff "syntax-$f" .stderr)"; fi
done

# C++ and assembly inputs go to the compiler untouched: identical objects
for c in "g++ -c b.cpp" "gcc -c b.cpp" "gcc -c c.S" "gcc -c d.s" "gcc -c c.S d.s"; do
  id=$(echo "$c" | tr ' +' '_p')
  # shellcheck disable=SC2086
  twin "$id" $c
  bad=""
  for o in $(cd "$d/plain/$id" && ls *.o 2>/dev/null); do cmp -s "$d/plain/$id/$o" "$d/pathcc/$id/$o" || bad="$bad $o"; done
  if same_rc "$id" && [ "$(files plain "$id")" = "$(files pathcc "$id")" ] && [ -z "$bad" ] && [ -z "$(ls "$d/pathcc/$id" | grep pp.json)" ]; then ok "passthrough-$id"
  else nok "passthrough-$id" "pathcc $c: files [ $(files pathcc "$id")] (gcc [ $(files plain "$id")]), objects differing:${bad:- none}"; fi
done
# ... also beside C sources
twin mixed-c gcc -c a.c c.S d.s b.cpp
[ "$(files plain mixed-c)" = "$(files pathcc mixed-c)" ] && same_rc mixed-c && ok mixed-c ||
  nok mixed-c "pathcc gcc -c a.c c.S d.s b.cpp: status $(cat "$d/pathcc/mixed-c/.rc"), wrote [ $(files pathcc mixed-c)], gcc [ $(files plain mixed-c)]"
twin mixed-link gcc -o prog asmuser.c c.S d.s
(cd "$d/pathcc/mixed-link" && ./prog >run.txt 2>&1)
grep -qx 12 "$d/pathcc/mixed-link/run.txt" && same_rc mixed-link && ok mixed-link ||
  nok mixed-link "pathcc gcc -o prog asmuser.c c.S d.s: status $(cat "$d/pathcc/mixed-link/.rc"): $(head -c 160 "$d/pathcc/mixed-link/.stderr")"
twin x-c-link gcc -x c a.c -o prog
same_rc x-c-link && [ -x "$d/pathcc/x-c-link/prog" ] && ok x-c-link ||
  nok x-c-link "pathcc gcc -x c a.c -o prog: status $(cat "$d/pathcc/x-c-link/.rc") (gcc $(cat "$d/plain/x-c-link/.rc")): $(grep -m1 error "$d/pathcc/x-c-link/.stderr" | tr -cd '\11\40-\176' | cut -c1-120)"

# the same from standard input, a common feature probe: echo ... | cc -x c - -o prog; with an empty
# cache of compiler facts, so the probes run then (a "-" in them read the source away)
(cd "$d" && echo 'int main(void) { return 0; }' | PATHCC_CACHE_DIR="$d/stdin-cache" "$P" gcc -x c - -o stdin-prog >stdin.err 2>&1); rc=$?
[ $rc = 0 ] && [ -x "$d/stdin-prog" ] && ok x-c-stdin-link ||
  nok x-c-stdin-link "echo 'int main(void) { return 0; }' | pathcc gcc -x c - -o prog: status $rc: $(grep -m1 error "$d/stdin.err" | tr -cd '\11\40-\176' | cut -c1-100)"

# exit status and diagnostics, unchanged
chk_diag() {  # id why-prefix
  if same_rc "$1" && same_err "$1"; then ok "$1"
  else nok "$1" "$2: status $(cat "$d/pathcc/$1/.rc") (gcc $(cat "$d/plain/$1/.rc")), stderr differs: $(first_diff "$1" .stderr)"; fi
}
twin diag-clean gcc -Wall -c a.c;                 chk_diag diag-clean "pathcc gcc -Wall -c a.c"
# a unit that warns: the warnings are the source's own, columns and carets included
twin diag-warn gcc -Wall -c warn.c;               chk_diag diag-warn "pathcc gcc -Wall -c warn.c"
twin diag-error gcc -c err.c;                     chk_diag diag-error "pathcc gcc -c err.c"
twin diag-werror gcc -Wall -Werror -c warn.c;     chk_diag diag-werror "pathcc gcc -Wall -Werror -c warn.c"
twin diag-cpp gcc -c pperr.c;                     chk_diag diag-cpp "pathcc gcc -c pperr.c"
twin diag-missing gcc -c nosuch.c;                chk_diag diag-missing "pathcc gcc -c nosuch.c"
twin diag-badopt gcc -fno-such-option -c a.c;     chk_diag diag-badopt "pathcc gcc -fno-such-option -c a.c"
twin diag-link gcc -o prog err.c;                 same_rc diag-link && ok diag-link-status || nok diag-link-status "pathcc gcc -o prog err.c: status $(cat "$d/pathcc/diag-link/.rc")"

# a device as the output or the profile (build-system probes such as Kbuild's cc-option compile
# with -o /dev/null; PATHPROF_FILE=/dev/null to throw counts away): no tables written beside the
# device, no warning, and the device stays a device. As root the test uses a private node equal to
# /dev/null, so a failure cannot replace the real one.
if [ "$(id -u)" = 0 ] && mknod "$d/null" c 1 3 2>/dev/null; then dev="$d/null"; else dev=/dev/null; fi
(cd "$s" && "$P" gcc -c a.c -o "$dev" >"$d/devnull.out" 2>&1); rc=$?
if [ $rc = 0 ] && [ ! -s "$d/devnull.out" ] && [ ! -e "$dev.pp.json" ] && [ -c "$dev" ]; then ok o-dev-null
else nok o-dev-null "pathcc gcc -c a.c -o $dev: status $rc, $( [ -e "$dev.pp.json" ] && echo "wrote $dev.pp.json, ")stderr: $(head -c 150 "$d/devnull.out")"; rm -f "$dev.pp.json"; fi
(cd "$s" && "$P" gcc -o "$d/prog-devnull" a.c && cd "$d" && PATHPROF_FILE="$dev" ./prog-devnull >/dev/null 2>"$d/devnull-run.err")
if [ -c "$dev" ] && [ ! -s "$d/devnull-run.err" ]; then ok profile-to-device
else nok profile-to-device "PATHPROF_FILE=$dev ./prog: $( [ -c "$dev" ] || echo "the device was replaced by a regular file; ")stderr: $(head -c 150 "$d/devnull-run.err")"; fi
# pathprof coverage -o a device (a CI step that wants only --fail-under's verdict): written
# straight through, the device stays one
(cd "$d" && PATHPROF_FILE="$d/dev.prof" ./prog-devnull >/dev/null 2>&1)
for fmt in text lcov; do
  (cd "$s" && "$R" coverage --format $fmt -o "$dev" "$d/dev.prof") >"$d/devcov.err" 2>&1; rc=$?
  if [ $rc = 0 ] && [ -c "$dev" ] && [ ! -s "$d/devcov.err" ]; then ok coverage-to-device-$fmt
  else nok coverage-to-device-$fmt "pathprof coverage --format $fmt -o $dev: status $rc, $( [ -c "$dev" ] || echo "the device was replaced by a regular file; ")$(head -c 150 "$d/devcov.err")"
    [ -c "$dev" ] || { rm -f "$dev"; mknod "$dev" c 1 3 2>/dev/null || dev=/dev/null; }; fi
done

# -Werror and a warning only the preprocessed unit has: compiled clean, instrumented all the same
twin werror-macro gcc -Wall -Werror -o prog macrowarn.c
(cd "$d/pathcc/werror-macro" && PATHPROF_FILE=p.out ./prog >run.txt 2>&1)
if [ "$(cat "$d/pathcc/werror-macro/.rc")" = 0 ] && [ ! -s "$d/pathcc/werror-macro/.stderr" ] &&
   "$R" report "$d/pathcc/werror-macro/p.out" 2>/dev/null | grep -q 'main (macrowarn.c'; then ok werror-macro
else nok werror-macro "pathcc gcc -Wall -Werror macrowarn.c: status $(cat "$d/pathcc/werror-macro/.rc"), $(head -1 "$d/pathcc/werror-macro/.stderr" | cut -c1-160), main not in the report"; fi

# C2x attributes: the functions they mark are instrumented like any other
twin c2x-attributes gcc -std=c2x -Wall -Wextra -pedantic -Werror -o prog attrs.c
(cd "$d/plain/c2x-attributes" && ./prog >run.txt 2>&1); (cd "$d/pathcc/c2x-attributes" && PATHPROF_FILE=p.out ./prog >run.txt 2>&1)
if same_rc c2x-attributes && [ ! -s "$d/pathcc/c2x-attributes/.stderr" ] && cmp -s "$d/plain/c2x-attributes/run.txt" "$d/pathcc/c2x-attributes/run.txt" &&
   grep -q '"name": *"spare"' "$d/pathcc/c2x-attributes/prog-attrs.pp.json" &&
   "$R" report "$d/pathcc/c2x-attributes/p.out" 2>/dev/null | grep -q 'twice (attrs.c'; then ok c2x-attributes
else nok c2x-attributes "pathcc gcc -std=c2x: status $(cat "$d/pathcc/c2x-attributes/.rc"), $(head -1 "$d/pathcc/c2x-attributes/.stderr" | cut -c1-120), twice and spare should be in the tables and the report"; fi

# -Wall -Wextra -pedantic -Werror under each standard: clean, instrumented, same output; the
# modes that put code before declarations (block hooks, the entry before a decision) under C89
for std in c89 gnu89; do
  for fl in --decisions=conditions --mode=osp "--trace --decisions=conditions"; do
    n="std-$std$(echo "$fl" | tr -d ' =-')"
    PATHCC_FLAGS=$fl twin "$n" gcc "-std=$std" -Wall -Wextra -pedantic -Werror -o prog clean.c
    (cd "$d/plain/$n" && ./prog >run.txt 2>&1)
    (cd "$d/pathcc/$n" && PATHPROF_FILE=p.out PATHPROF_TRACE=t.txt PATHPROF_OSP_FILE=p.osp ./prog >run.txt 2>&1)
    if same_rc "$n" && [ ! -s "$d/pathcc/$n/.stderr" ] && cmp -s "$d/plain/$n/run.txt" "$d/pathcc/$n/run.txt"; then ok "$n"
    else nok "$n" "pathcc $fl gcc -std=$std -Wall -Wextra -pedantic -Werror: status $(cat "$d/pathcc/$n/.rc"), $(head -1 "$d/pathcc/$n/.stderr" | cut -c1-160)"; fi
  done
done
for std in c89 c99 c11 gnu89 gnu11; do
  twin "std-$std" gcc "-std=$std" -Wall -Wextra -pedantic -Werror -o prog clean.c
  (cd "$d/plain/std-$std" && ./prog >run.txt 2>&1); (cd "$d/pathcc/std-$std" && PATHPROF_FILE=p.out ./prog >run.txt 2>&1)
  if [ "$(cat "$d/plain/std-$std/.rc")" != 0 ] || [ -s "$d/plain/std-$std/.stderr" ]; then
    nok "std-$std" "clean.c does not compile clean with plain gcc (test error)"
  elif same_rc "std-$std" && [ ! -s "$d/pathcc/std-$std/.stderr" ] && cmp -s "$d/plain/std-$std/run.txt" "$d/pathcc/std-$std/run.txt" &&
       "$R" report "$d/pathcc/std-$std/p.out" 2>/dev/null | grep -q 'score (clean.c'; then
    ok "std-$std"
  else
    nok "std-$std" "pathcc gcc -std=$std -Wall -Wextra -pedantic -Werror: status $(cat "$d/pathcc/std-$std/.rc"), $(head -1 "$d/pathcc/std-$std/.stderr" | cut -c1-160)"
  fi
done
finish
