#!/bin/sh
# Where profiles land: a program that changes directory writes its default profile in the
# directory it was linked into (pathcc's link records it in an ELF note), wherever it runs from and
# wherever it goes; so do a forked child and an instrumented shared object linked elsewhere (one
# profile); a test suite that cd's into the source tree of a VPATH build leaves nothing there. A
# relative PATHPROF_FILE is taken from the directory the program started in, %p included; an
# absolute one is used as is. When the link directory is gone, a program pathcc did not link, and
# a link whose directory -ffile-prefix-map renamed write in the start-up directory.
# Each profile's decoded counts equal those of the same run written to an absolute PATHPROF_FILE.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=profile_home
. "$top/regress/private.sh"
d=$out
P="$top/bin/pathcc"
R="$top/bin/pathprof"
unset PATHCC_CC PATHCC_FLAGS PATHPROF_FILE PATHPROF_DB
ok() { echo "ok profile_home-$1${2:+: $2}"; }
nok() { echo "not ok profile_home-$1: $2"; }
mkdir -p "$d/src" "$d/build" "$d/run" "$d/away" "$d/lib" || exit 1
cat >"$d/src/home.c" <<'EOF'
/* home.c: works, changes to directory argv[1], with a second argument forks a child that
   works too, then exits */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int lwork(int n);
static int work(int n)
{
  int s = 0, i;
  for (i = 0; i < n; i++) s += i % 3 ? i : -i;
  return s;
}
int main(int argc, char **argv)
{
  int s = work(10);
  if (argc > 1 && chdir(argv[1]) != 0) return 2;
  if (argc > 2) {
    pid_t p = fork();
    if (p == 0) exit(work(5) + lwork(3) > 1000);
    waitpid(p, 0, 0);
  }
  printf("%d\n", s + lwork(4));
  return 0;
}
EOF
printf '/* lw.c: the shared object'"'"'s work */\nint lwork(int n) { int s = 1; while (n-- > 0) s = s * 3 %% 7; return s; }\n' >"$d/src/lw.c"
# the library linked in $d/lib, the program in $d/build
if ! (cd "$d/lib" && "$P" gcc -O1 -fPIC -shared -o liblw.so "$d/src/lw.c" &&
      cd "$d/build" && "$P" gcc -O1 -o home "$d/src/home.c" -L"$d/lib" -llw -Wl,-rpath,"$d/lib") >"$d/build.log" 2>&1; then
  nok build "$(head -1 "$d/build.log")"; exit 0
fi
# same PROFILE ARGS...: the decoded counts of PROFILE equal a run of home ARGS to an absolute PATHPROF_FILE
same() {
  f=$1; shift
  rm -f "$d/ref.out"
  (cd "$d/run" && PATHPROF_FILE="$d/ref.out" "$d/build/home" "$@" >/dev/null) &&
    "$R" dump --decode "$d/ref.out" >"$d/ref.txt" 2>&1 && "$R" dump --decode "$f" >"$d/got.txt" 2>&1 && cmp -s "$d/ref.txt" "$d/got.txt"
}
# strays: profiles anywhere but the build directory
strays() { find "$d/run" "$d/away" "$d/src" "$d/lib" -name '*.out' | tr '\n' ' '; }

# ---- the default: the link directory ----
(cd "$d/run" && "$d/build/home" "$d/away" >/dev/null 2>"$d/a.err")
if [ -s "$d/build/pathprof.out" ] && [ -z "$(strays)" ] && same "$d/build/pathprof.out" "$d/away"; then
  ok chdir "run from run/, went to away/: the profile is in build/"
else nok chdir "build/pathprof.out $([ -s "$d/build/pathprof.out" ] && echo there || echo missing); elsewhere: $(strays); $(head -1 "$d/a.err")"; fi
"$R" report "$d/build/pathprof.out" >"$d/a.report" 2>&1
grep -q "^lwork (lw.c" "$d/a.report" && grep -q "^main (home.c" "$d/a.report" &&
  ok shared-object "the library's counts in the program's profile" || nok shared-object "$(head -1 "$d/a.report")"
readelf -n "$d/lib/liblw.so" 2>/dev/null | grep -q pathprof && nok shared-note "the shared object carries a link note" || ok shared-note
rm -f "$d/build/pathprof.out"
(cd "$d/run" && "$d/build/home" "$d/away" fork >/dev/null 2>"$d/f.err")
if [ -s "$d/build/pathprof.out" ] && [ -z "$(strays)" ] && same "$d/build/pathprof.out" "$d/away" fork; then ok fork "parent and child in build/"
else nok fork "elsewhere: $(strays); $(head -1 "$d/f.err")"; fi
rm -f "$d/build/pathprof.out"
# a VPATH test suite that cd's into the source tree
(cd "$d/src" && ../build/home . >/dev/null)
[ -s "$d/build/pathprof.out" ] && [ -z "$(strays)" ] && ok source-tree-suite || nok source-tree-suite "elsewhere: $(strays)"
rm -f "$d/build/pathprof.out"

# linked from another directory into bin/ (-o ../bin/home): the profile goes beside the program
mkdir -p "$d/obj" "$d/bin" && (cd "$d/obj" && "$P" gcc -O1 -c "$d/src/home.c" -o home.o &&
  "$P" gcc -o ../bin/home home.o -L"$d/lib" -llw -Wl,-rpath,"$d/lib") >"$d/obj.log" 2>&1
(cd "$d/run" && "$d/bin/home" "$d/away" >/dev/null)
[ -s "$d/bin/pathprof.out" ] && [ ! -e "$d/obj/pathprof.out" ] && [ -z "$(strays)" ] && ok output-dir "-o ../bin/home: bin/" ||
  nok output-dir "$(find "$d" -name pathprof.out | tr '\n' ' ') $(head -1 "$d/obj.log")"

# ---- PATHPROF_FILE ----
(cd "$d/run" && PATHPROF_FILE=rel.out "$d/build/home" "$d/away" >/dev/null)
if [ -s "$d/run/rel.out" ] && [ ! -e "$d/away/rel.out" ] && [ ! -e "$d/build/rel.out" ] && same "$d/run/rel.out" "$d/away"; then
  ok relative "PATHPROF_FILE=rel.out lands in the start-up directory"
else nok relative "in: $(find "$d" -name rel.out | tr '\n' ' ')"; fi
(cd "$d/run" && mkdir -p sub && PATHPROF_FILE=sub/p%p.out "$d/build/home" "$d/away" >/dev/null)
n=$(find "$d/run/sub" -name 'p[0-9]*.out' 2>/dev/null | wc -l)
[ "$n" = 1 ] && [ -z "$(find "$d/away" -name 'p*.out')" ] && ok relative-pattern "sub/p%p.out under the start-up directory" ||
  nok relative-pattern "$n files in run/sub; away: $(find "$d/away" -name '*.out' | tr '\n' ' ')"
rm -rf "$d/run/"*.out "$d/run/sub"
(cd "$d/run" && PATHPROF_FILE="$d/abs.out" "$d/build/home" "$d/away" >/dev/null)
[ -s "$d/abs.out" ] && [ -z "$(strays)" ] && ok absolute || nok absolute "elsewhere: $(strays)"

# ---- the start-up directory ----
# the link directory is gone
mkdir -p "$d/gone" "$d/keep" && cp "$d/src/home.c" "$d/gone/" &&
  (cd "$d/gone" && "$P" gcc -O1 -o home home.c -L"$d/lib" -llw -Wl,-rpath,"$d/lib") >"$d/gone.log" 2>&1 &&
  mv "$d/gone/home" "$d/keep/home" && rm -rf "$d/gone"
(cd "$d/run" && "$d/keep/home" "$d/away" >/dev/null)
[ -s "$d/run/pathprof.out" ] && [ ! -e "$d/away/pathprof.out" ] && ok link-dir-gone "the start-up directory" ||
  nok link-dir-gone "$(find "$d" -name pathprof.out | tr '\n' ' ')"
rm -f "$d/run/pathprof.out"
# a program linked without pathcc (its own link with the runtime): no note
mkdir -p "$d/plain" && (cd "$d/plain" && "$P" gcc -O1 -c "$d/src/home.c" -o home.o &&
  gcc -o home home.o "$top/lib/libpathprof.a" -L"$d/lib" -llw -Wl,-rpath,"$d/lib" -pthread) >"$d/plain.log" 2>&1
(cd "$d/run" && "$d/plain/home" "$d/away" >/dev/null)
[ -s "$d/run/pathprof.out" ] && [ ! -e "$d/away/pathprof.out" ] && [ ! -e "$d/plain/pathprof.out" ] && ok no-note "the start-up directory" ||
  nok no-note "$(find "$d" -name pathprof.out | tr '\n' ' ') $(head -1 "$d/plain.log")"
rm -f "$d/run/pathprof.out"
# -ffile-prefix-map renames the link directory (reproducible builds): the note holds the new name
mkdir -p "$d/map" && (cd "$d/map" && "$P" gcc -O1 -ffile-prefix-map="$d/map=/nonexistent/map" -o home "$d/src/home.c" \
  -L"$d/lib" -llw -Wl,-rpath,"$d/lib") >"$d/map.log" 2>&1
(cd "$d/run" && "$d/map/home" "$d/away" >/dev/null)
readelf -p .note.pathprof "$d/map/home" 2>/dev/null | grep -q /nonexistent/map && [ -s "$d/run/pathprof.out" ] &&
  [ ! -e "$d/map/pathprof.out" ] && ok prefix-map "the note says /nonexistent/map; the start-up directory" ||
  nok prefix-map "$(find "$d" -name pathprof.out | tr '\n' ' ') $(head -1 "$d/map.log")"
exit 0
