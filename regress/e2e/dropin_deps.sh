#!/bin/sh
# Dependency files through pathcc: -MD/-MMD/-MF/-MT/-MQ/-MP (and -Wp,-MD,...) write the same files,
# byte for byte, as plain gcc with the same command in a twin directory: named after the user's
# object, listing the original source and headers, never pathcc's temporary files.
NAME=deps
. "$(dirname "$0")/../dropin-lib.sh"
mkdir -p "$d/src/inc" "$d/src/sub" || exit 1
cat >"$d/src/a.c" <<'C'
/* a.c: includes a local header and a system header */
#include <stdio.h>
#include "a.h"
int f(int x) { if (x > 2) return x * A; return x; }
int main(void) { int i, s = 0; for (i = 0; i < 5; i++) s += f(i); printf("%d\n", s); return 0; }
C
echo '#define A 3  /* a.h */' >"$d/src/a.h"
cat >"$d/src/b.c" <<'C'
/* b.c: a second unit */
#include "a.h"
int g(int x) { return x > A ? x : -x; }
C
cat >"$d/src/sub/c.c" <<'C'
/* sub/c.c: a header found through -I */
#include "c.h"
int h(int x) { while (x > C) x -= C; return x; }
C
echo '#define C 4  /* inc/c.h */' >"$d/src/inc/c.h"
# id|arguments (shell words)
cat >"$d/cases" <<'E'
md|-MD -c a.c
mmd-o|-MMD -c a.c -o obj/a.o
mf-mt-mp|-MD -MF x.d -MT tgt -MP -c a.c -o obj/a.o
mq|-MMD -MP -MF dep/a.d -MT '$(OBJ)/a.o' -MQ '$(Q)a.o' -c a.c -o obj/a.o
automake|-DHAVE_CONFIG_H -I. -MT a.o -MD -MP -MF dep/a.Tpo -c -o a.o a.c
cmake|-MD -MT obj/a.c.o -MF obj/a.c.o.d -o obj/a.c.o -c a.c
wp-md|-Wp,-MD,wp.d -c a.c -o obj/a.o
wp-mmd-mt|-Wp,-MMD,wp2.d,-MT,foo.o -c a.c -o obj/a.o
include-dir|-MD -MF dep/c.d -Iinc -c sub/c.c -o obj/c.o
two-sources|-MD -c a.c b.c
o-no-suffix|-MD -c a.c -o obj/foo
o-other-suffix|-MD -c a.c -o foo.obj
S|-MD -S a.c
S-o|-MMD -S -o x.s a.c
link|-MD -o prog a.c
link-no-o|-MD a.c
link-two|-MMD -o out/prog a.c b.c
E
while IFS='|' read -r id args; do
  for k in plain pathcc; do
    rm -rf "$d/$k" && cp -r "$d/src" "$d/$k" && mkdir -p "$d/$k/obj" "$d/$k/dep" "$d/$k/out" || exit 1
  done
  (cd "$d/plain" && eval "set -- $args" && gcc "$@" >/dev/null 2>&1; echo $? >rc)
  (cd "$d/pathcc" && eval "set -- $args" && "$P" gcc "$@" >/dev/null 2>"$d/$id.err"; echo $? >rc)
  want=$(cd "$d/plain" && find . \( -name '*.d' -o -name '*.Tpo' \) | sort | tr '\n' ' ')
  got=$(cd "$d/pathcc" && find . \( -name '*.d' -o -name '*.Tpo' \) | sort | tr '\n' ' ')
  if [ -z "$want" ]; then nok "$id" "plain gcc $args wrote no dependency file (test error)"; continue; fi
  why=""
  cmp -s "$d/plain/rc" "$d/pathcc/rc" || why="exit status $(cat "$d/pathcc/rc"), plain gcc $(cat "$d/plain/rc"); "
  [ "$want" = "$got" ] || why="${why}gcc writes [ $want] pathcc [ $got]; "
  for f in $want; do
    [ -f "$d/pathcc/$f" ] && ! cmp -s "$d/plain/$f" "$d/pathcc/$f" &&
      why="${why}$f differs: $(diff "$d/plain/$f" "$d/pathcc/$f" | grep -m1 '^>' | cut -c1-100); "
  done
  if grep -l 'pathcc-\|\.pp\.i\|/tmp/' $(cd "$d/pathcc" && for f in $got; do echo "$d/pathcc/$f"; done) /dev/null 2>/dev/null | grep -q .; then
    why="${why}names a temporary file; "
  fi
  if [ -z "$why" ]; then ok "$id"; else nok "$id" "pathcc gcc $args: ${why%; }"; fi
done <"$d/cases"
finish
