#!/bin/sh
# GNU statement expressions with control flow: glibc's fwrite_unlocked (a for loop with break) under a
# gnulib-style "#define fwrite fwrite_unlocked" at -O2 is instrumented (its loop's back edge is in the
# tables); two that jump out of themselves in one unsequenced expression leave their function
# uninstrumented with one warning saying so, and the program runs as written.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=stmtexpr
. "$top/regress/private.sh"
d=$E2E_DIR
unset PATHPROF_DB PATHPROF_FILE PATHCC_FLAGS
cat >"$d/w.c" <<'C'
#define _DEFAULT_SOURCE 1
#include <stdio.h>
#define fwrite fwrite_unlocked
static void say(const char *s)
{
  fwrite(s, 1, 3, stdout);
}
int main(void)
{
  say("ok\n");
  return 0;
}
C
if (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O2 -Wall -Wextra -o w w.c) >"$d/w.log" 2>&1 && [ ! -s "$d/w.log" ] &&
   [ "$(cd "$d" && ./w)" = ok ] &&
   python3 - "$d/w-w.pp.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
f = [f for f in t["functions"] if f["name"] == "say"]
sys.exit(0 if f and any(e.get("kind") == "back" for e in f[0]["edges"]) else 1)
PY
then echo "ok stmtexpr fwrite_unlocked: say() is instrumented at -O2, the macro's loop with its back edge"
else echo "not ok stmtexpr fwrite_unlocked: $(head -1 "$d/w.log")"; fi

cat >"$d/two.c" <<'C'
#include <stdio.h>
static int g(int a, int b) { return a + b; }
static int f(int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += g(__extension__ ({ if (i == 3) break; i; }), __extension__ ({ if (i == 5) continue; 2; }));
  return s;
}
int main(void) { printf("%d\n", f(7)); return 0; }
C
gcc -O2 -o "$d/two-plain" "$d/two.c"
(cd "$d" && "$top/bin/pathcc" gcc -O2 -o two two.c) >"$d/two.log" 2>&1
if [ "$(grep -c . "$d/two.log")" = 1 ] &&
   grep -q "f (line 3): a statement expression that jumps out of itself, beside another in an unsequenced expression" "$d/two.log" &&
   [ "$("$d/two")" = "$("$d/two-plain")" ]; then
  echo "ok stmtexpr unsequenced: the function is left uninstrumented with one warning, the program runs as written"
else
  echo "not ok stmtexpr unsequenced: pathcc said: $(head -1 "$d/two.log")"
fi
