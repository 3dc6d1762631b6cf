#!/bin/sh
# pathcc never breaks a build: a step of its own that fails (preprocessing with -C, writing tables) compiles the unit anyway, while a unit that fails plainly fails the same way, once, with the compiler's message; file names of any length.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=neverbreak
. "$top/regress/private.sh"
. "$top/regress/exactlib.sh"   # check NAME DIR
o=$out
P="$top/bin/pathcc"
unset PATHPROF_DB PATHCC_FLAGS
# t NAME CONDITION-COMMAND... : ok if the command succeeds
t() {
  name=$1; shift
  if "$@" >/dev/null 2>&1; then echo "ok neverbreak-$name"; else echo "not ok neverbreak-$name: failed: $*"; fi
}
# same_as_plain NAME: pathcc's stderr and status for $name.c are the compiler's own (files $name.*)
same_as_plain() {
  sed "s|$1\.pathcc\.o|OBJ|; s|$1\.plain\.o|OBJ|" "$o/$1.plain.err" >"$o/$1.plain.cmp"
  sed "s|$1\.pathcc\.o|OBJ|; s|$1\.plain\.o|OBJ|" "$o/$1.pathcc.err" >"$o/$1.pathcc.cmp"
  cmp -s "$o/$1.plain.cmp" "$o/$1.pathcc.cmp" && cmp -s "$o/$1.plain.rc" "$o/$1.pathcc.rc"
}
# both NAME FLAGS...: $name.c compiled by $CC and through pathcc with FLAGS, stderr and status kept
both() {
  n=$1; shift
  (cd "$o" && $CC "$@" -c "$n.c" -o "$n.plain.o" 2>"$n.plain.err"; echo $? >"$n.plain.rc")
  (cd "$o" && "$P" "$CC" "$@" -c "$n.c" -o "$n.pathcc.o" 2>"$n.pathcc.err"; echo $? >"$n.pathcc.rc")
}

# GCC keeps comments with -C (pathcc asks for them under -Wextra: fallthrough comments), and a
# comment in a macro argument that meets ## then breaks the paste (CPython's Objects/exceptions.c).
# The unit is instrumented from a preprocessing without comments, and says nothing more than plain.
cat >"$o/paste.c" <<'C'
#define CAT(a) x_ ## a
int CAT(/* base */ y) = 1;
int falls(int x)
{
  int s = 0;
  switch (x) {
  case 1:
    s += 2;
    /* fallthrough */
  case 2:
    s += 3;
    break;
  default:
    s = x_y;
  }
  return s;
}
C
for w in "-Wextra" "-Wextra -Werror"; do
  tag=$(echo "$w" | tr -d ' -')
  cp "$o/paste.c" "$o/paste_$tag.c"
  both "paste_$tag" -O2 $w
  t "paste-$tag-status" test "$(cat "$o/paste_$tag.pathcc.rc")" = 0
  t "paste-$tag-quiet" test ! -s "$o/paste_$tag.pathcc.err"
  t "paste-$tag-instrumented" sh -c "nm '$o/paste_$tag.pathcc.o' | grep -q __pathprof_u"
done

# The same paste in a unit with an error of its own: the compiler's message, once, as plain.
cat >"$o/pasterr.c" <<'C'
#define CAT(a) x_ ## a
int CAT(/* base */ y) = 1;
int broken(int x) { return x + ; }
C
both pasterr -Wextra
t paste-error-as-plain same_as_plain pasterr
t paste-error-fails test "$(cat "$o/pasterr.pathcc.rc")" != 0
# A preprocessing error (#error): it fails with and without comments, and is said once.
cat >"$o/cpperr.c" <<'C'
#define CAT(a) x_ ## a
int CAT(/* base */ y) = 1;
#error this unit stops here
C
both cpperr -Wextra
t cpp-error-as-plain same_as_plain cpperr
t cpp-error-once test "$(grep -c 'error: #error' "$o/cpperr.pathcc.err")" = 1

# Tables that cannot be written (PATHPROF_DB names no directory): the unit compiles as written,
# with one warning naming it and the reason; with an error of the user's own, only the compiler's.
cat >"$o/fine.c" <<'C'
int fine(int x) { return x > 2 ? x : -x; }
C
(cd "$o" && PATHPROF_DB="$o/no/such/dir" "$P" "$CC" -c fine.c -o fine.o) >"$o/tables.log" 2>&1
t tables-fallback-status test -f "$o/fine.o"
t tables-fallback-one-warning test "$(grep -c '^pathcc: warning: fine.c: compiled without instrumentation: .*cannot write tables' "$o/tables.log")" = 1
t tables-fallback-nothing-else test "$(wc -l <"$o/tables.log")" = 1
cp "$o/pasterr.c" "$o/tablerr.c"
(cd "$o" && $CC -c tablerr.c -o tablerr.plain.o 2>tablerr.plain.err; echo $? >tablerr.plain.rc)
(cd "$o" && PATHPROF_DB="$o/no/such/dir" "$P" "$CC" -c tablerr.c -o tablerr.pathcc.o 2>tablerr.pathcc.err; echo $? >tablerr.pathcc.rc)
t tables-error-as-plain same_as_plain tablerr

# File names of any length: a 240-character file name deep under directories of 200-character
# names, instrumented and counted exactly (the trace oracle) in path and edge modes.
long=$(printf 'directory_%0190d' 0)
deep="$o/$long/$long/$long/$long/$long"
file=$(printf 'a_source_file_%0222d' 0).c
mkdir -p "$deep" || exit 1
cp "$top/regress/cases/longnames.c" "$deep/$file"
for mode in path edge; do
  b="$o/long-$mode"
  mkdir -p "$b"
  (cd "$deep" && $CC -O2 -o "$b/plain" "$file") >"$b/plain.build" 2>&1
  if (cd "$deep" && "$P" --trace --mode=$mode "$CC" -O2 -o "$b/prog" "$file") >"$b/pathcc.log" 2>&1 && [ ! -s "$b/pathcc.log" ]; then
    echo "ok neverbreak-long-file-$mode"
  else
    echo "not ok neverbreak-long-file-$mode: $(head -c 300 "$b/pathcc.log")"
  fi
  if [ $mode = path ]; then check "long-file-$mode" "$b"; continue; fi
  # edge mode: edge counts against the trace's (what edge.sh does for every case)
  (cd "$b" && PATHPROF_FILE=prof.out PATHPROF_TRACE=trace.txt $run ./prog >prog.out 2>&1)
  (cd "$b" && "$top/bin/pathprof" coverage --format json -o cov.json prof.out 2>cov.err)
  python3 "$top/regress/oracle.py" --name "long-file-edge" --trace "$b/trace.txt" --edges "$b/cov.json" "$b"/*.pp.json
done
# Its scratch directory removed while it runs (a cleanup of /tmp beside a build; here a compiler
# that removes the folder of its input or output): the unit compiled as written, one warning
# naming the reason, the build goes on. Before, the failing step's message had nowhere to go:
# the compile failed with no message at all.
mkdir -p "$o/scratch/tmp"
printf 'int f(int x) { return x > 2 ? x : -x; }\n' >"$o/scratch/u.c"
for when in preprocess compile; do
  case $when in
    preprocess) pat='-o) case "$a" in */pathcc-*/*) rm -rf "$(dirname "$a")";; esac;;' ;;
    compile) pat='*) case "$a" in */pathcc-*/*.pp.i) rm -rf "$(dirname "$a")";; esac;;' ;;
  esac
  printf '#!/bin/sh\nfor a; do case "$prev" in %s esac; prev=$a; done\nexec %s "$@"\n' "$pat" "$CC" >"$o/scratch/cc-$when"
  chmod +x "$o/scratch/cc-$when"
  rm -f "$o/scratch/u-$when.o"
  (cd "$o/scratch" && TMPDIR="$o/scratch/tmp" "$P" "./cc-$when" -O2 -c -o "u-$when.o" u.c) >"$o/scratch/$when.log" 2>&1
  if [ -s "$o/scratch/u-$when.o" ] && [ "$(wc -l <"$o/scratch/$when.log")" = 1 ] &&
     grep -q "u.c: compiled without instrumentation: its scratch directory .* was removed while pathcc ran" "$o/scratch/$when.log"; then
    echo "ok neverbreak-scratch-$when"
  else
    echo "not ok neverbreak-scratch-$when: $(head -c 300 "$o/scratch/$when.log")"
  fi
done
exit 0
