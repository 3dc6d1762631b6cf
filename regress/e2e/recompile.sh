#!/bin/sh
# One source compiled twice to one object (a test program built with one set of flags, then another, as
# libpng's pngtest.o): the tables are the last build's (as gcc's .gcno), the counts of a program linked
# from the earlier object are refused by report, coverage and dump with a message naming the unit's
# source (report and coverage: status 0, --strict 1), and the later build's counts are reported exactly as when it ran alone.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=recompile
. "$top/regress/private.sh"
d=$E2E_DIR
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS

cat >"$d/t.c" <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
  (void)argv;
#if VARIANT == 1
  if (argc > 1) puts("one"); else puts("none");
#else
  for (int i = 0; i < argc + 2; i++)
    printf("%d\n", i);
#endif
  return 0;
}
C
# build N: t.c with -DVARIANT=N to t.o, linked into pN
build() {
  (cd "$d" && "$P" gcc -DVARIANT="$1" -c -o t.o t.c && "$P" gcc -o "p$1" t.o) >"$d/build$1.log" 2>&1
}
if ! build 1 || ! (cd "$d" && PATHPROF_FILE="$d/both.prof" ./p1 >/dev/null); then
  echo "not ok recompile: first build or run failed: $(head -1 "$d/build1.log")"; exit 0
fi
first=$(sed -n 's/.*"checksum": *"\([0-9a-f]*\)".*/\1/p' "$d/t.pp.json" | head -1)
if ! build 2 || ! (cd "$d" && PATHPROF_FILE="$d/both.prof" ./p2 >/dev/null && PATHPROF_FILE="$d/alone.prof" ./p2 >/dev/null); then
  echo "not ok recompile: second build or run failed: $(head -1 "$d/build2.log")"; exit 0
fi
second=$(sed -n 's/.*"checksum": *"\([0-9a-f]*\)".*/\1/p' "$d/t.pp.json" | head -1)
units=$("$R" dump "$d/both.prof" 2>/dev/null | grep -ci "^unit")
if [ -n "$first" ] && [ -n "$second" ] && [ "$first" != "$second" ] && [ "$units" -ge 2 ]; then
  echo "ok recompile tables: t.pp.json is the last build's ($second, was $first); the profile holds both builds' units"
else
  echo "not ok recompile tables: checksums '$first' then '$second', $units units in the profile"
fi

# report, coverage and dump: the earlier build's unit refused by name, the later one reported
for cmd in report coverage "dump --decode"; do
  tag=$(echo "$cmd" | cut -d' ' -f1)
  (cd "$d" && $R $cmd both.prof >"$tag.out" 2>"$tag.err"); rc=$?
  # dump --decode fails when a unit cannot be decoded; report and coverage go on (status 0)
  if { [ "$rc" = 0 ] || [ "$tag" = dump ]; } && ! grep -q "unit $second" "$d/$tag.err" &&
     grep -q "unit $first of t.c refused: its tables .*t.pp.json were replaced by another compile of t.c to the same object" "$d/$tag.err"; then
    echo "ok recompile $tag: the earlier build's unit is refused by name"
  else
    echo "not ok recompile $tag: status $rc, said: $(head -1 "$d/$tag.err")"
  fi
done
(cd "$d" && $R dump --decode alone.prof >alone.out 2>alone.err)
if grep -q "^P $second" "$d/dump.out" && ! grep -q "^P $first" "$d/dump.out" &&
   [ "$(grep "^P $second" "$d/dump.out" | sort)" = "$(grep "^P $second" "$d/alone.out" | sort)" ]; then
  echo "ok recompile counts: the later build's path counts equal those of its run alone (nothing of the earlier build mixed in)"
else
  echo "not ok recompile counts: decoded $(grep -c "^P" "$d/dump.out") paths, alone $(grep -c "^P" "$d/alone.out")"
fi
(cd "$d" && $R report --strict both.prof >/dev/null 2>&1); rc=$?
if [ "$rc" != 0 ]; then echo "ok recompile --strict: the refused unit is an error"
else echo "not ok recompile --strict: status 0 with a unit refused"; fi
