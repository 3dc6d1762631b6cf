#!/bin/sh
# pathprof coverage's text table, function identity and output errors: a file name longer than the
# first column keeps the figures in their columns; a function is named at its name's line, as
# lcov's FN record says (not the line of a return type written above it); a header's function
# included as "inc/h.h" and "../inc/h.h" is one function; -o into a missing directory names the
# file the user gave, not a temporary.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=coverage_text
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

d=a_directory_name_long_enough_to_pass_the_first_column/and_a_second_one_for_good_measure
mkdir -p "$d"
cat >"$d/long_file_name_of_the_program.c" <<'EOF'
static int
twice(int x)
{
  return 2 * x;
}

int
main(void)
{
  return twice(0);
}
EOF
if ! "$pc" gcc -O0 -o prog "$d/long_file_name_of_the_program.c" 2>build.log || ! PATHPROF_FILE=p.prof ./prog; then
  echo "not ok coverage-text build: $(head -1 build.log)"; exit 0
fi
"$pp" coverage p.prof >text.out 2>text.err
"$pp" coverage --format lcov p.prof >lcov.out 2>>text.err

# every row's figures start in the same column: that of the header's "lines"
python3 - text.out <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
col = lines[1].index('lines')
rows = [l for l in lines[2:] if l.strip()]
# the lines figure is "%7u/%-7u" from col: a name that ran into it shifts it right
broken = [l for l in rows if not re.match(r' {0,6}\d+/\d+ ', l[col:col + 16]) or l[col - 1] != ' ']
print('ok coverage-text columns' if rows and not broken else 'not ok coverage-text columns: %r' % (broken[:1] or 'no rows'))
EOF

fn=$(sed -n 's/^FN:\([0-9]*\),twice$/\1/p' lcov.out)
if [ "$fn" = 2 ] && grep -q "^  twice:2 " text.out; then echo "ok coverage-text function line is the name's line, as lcov's FN"
else echo "not ok coverage-text function line: lcov FN line '$fn', text: $(grep 'twice' text.out | head -1)"; fi

"$pp" coverage --format lcov -o nodir/x.info p.prof 2>err.out; rc=$?
if [ $rc != 0 ] && grep -q 'cannot write nodir/x\.info:' err.out && ! grep -q 'tmp' err.out; then
  echo "ok coverage-text -o into a missing directory names the file given"
else echo "not ok coverage-text -o into a missing directory: rc $rc, $(head -1 err.out)"; fi

# a static inline function of a header is one function, whichever relative path includes it
mkdir -p hdr/inc hdr/src
printf 'static inline int twice(int x)\n{\n  return 2 * x;\n}\n' >hdr/inc/h.h
printf '#include "../inc/h.h"\nint a(int x) { return twice(x); }\n' >hdr/src/a.c
printf '#include "inc/h.h"\nint a(int);\nint main(void) { return a(1) + twice(2) - 6; }\n' >hdr/b.c
if (cd hdr/src && "$pc" gcc -O0 -c a.c -o a.o) 2>hdr.log && (cd hdr && "$pc" gcc -O0 -o prog b.c src/a.o) 2>>hdr.log &&
   (cd hdr && PATHPROF_FILE=h.prof ./prog); then
  (cd hdr && "$pp" coverage --format lcov h.prof) >hdr.info 2>>hdr.log
  n=$(grep -c '^FN:[0-9]*,twice$' hdr.info); fnda=$(sed -n 's/^FNDA:\([0-9]*\),twice$/\1/p' hdr.info)
  if [ "$n" = 1 ] && [ "$fnda" = 2 ]; then echo "ok coverage-text a header function included by two spellings is one function"
  else echo "not ok coverage-text header function: $n FN records for twice, FNDA '$fnda' (want 1 and 2)"; fi
else
  echo "not ok coverage-text header build: $(head -1 hdr.log)"
fi
