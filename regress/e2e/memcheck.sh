#!/bin/sh
# Instrumented programs under valgrind's memcheck: no error in the runtime or the instrumented code (an uninitialised read, an invalid access) in path, edge, kpath, osp and --frames=all modes, with a trace, in continuous mode: regress/e2e/memcheck_prog.c (frames deeper than a chunk, longjmp, threads, pthread_exit, a signal handler, fork) and the samples and cases with frames, recursion, setjmp and signals; each prints what its plain build prints.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=memcheck
. "$top/regress/private.sh"
need valgrind:valgrind
d=$E2E_DIR
vg="valgrind --tool=memcheck --error-exitcode=97 --child-silent-after-fork=no -q"
fails=0

# memcheck NAME "PATHCC-OPTIONS" ENV SOURCE...: plain and pathcc builds (-O1 -g), the instrumented
# one run under memcheck with ENV; its status and output must be the plain build's
memcheck() {
  n=$1 opts=$2 env=$3; shift 3
  mkdir -p "$d/$n"
  if ! (cd "$d/$n" && $CC -std=gnu11 -O1 -g -pthread -o plain "$@" -lm && "$top/bin/pathcc" $opts $CC -std=gnu11 -O1 -g -pthread -o prog "$@" -lm) >"$d/$n/build.log" 2>&1 ||
     [ -s "$d/$n/build.log" ]; then
    echo "not ok memcheck-$n: build: $(head -1 "$d/$n/build.log")"; fails=$((fails + 1)); return
  fi
  (cd "$d/$n" && ./plain >plain.out 2>/dev/null; echo $? >plain.rc)
  # shellcheck disable=SC2086
  (cd "$d/$n" && env PATHPROF_FILE="$d/$n/prof.out" $env timeout 120 $vg --log-file=vg.log ./prog >prog.out 2>prog.err; echo $? >prog.rc)
  if [ "$(cat "$d/$n/prog.rc")" = 97 ] || grep -q '^==[0-9]*== [A-Z]' "$d/$n/vg.log"; then
    echo "not ok memcheck-$n: $(grep -m1 '^==[0-9]*== [A-Z]' "$d/$n/vg.log" | cut -d' ' -f2-) at $(grep -m1 '^==[0-9]*==  *at ' "$d/$n/vg.log" | sed 's/.*: //')"
    fails=$((fails + 1))
  elif ! cmp -s "$d/$n/plain.rc" "$d/$n/prog.rc" || ! cmp -s "$d/$n/plain.out" "$d/$n/prog.out"; then
    echo "not ok memcheck-$n: status $(cat "$d/$n/prog.rc") (plain $(cat "$d/$n/plain.rc")) or output differs from plain"
    fails=$((fails + 1))
  elif [ -z "$(ls "$d/$n"/prof.out* "$d/$n"/pathprof.osp 2>/dev/null)" ]; then
    echo "not ok memcheck-$n: no profile written"; fails=$((fails + 1))
  else
    echo "ok memcheck-$n"
  fi
}

p=$top/regress/e2e/memcheck_prog.c
memcheck prog-path "" "" "$p"
memcheck prog-edge "--mode=edge" "" "$p"
memcheck prog-kpath "--mode=kpath --k=2" "" "$p"
memcheck prog-frames-all "--frames=all" "" "$p"
memcheck prog-osp "--mode=osp" "" "$p"
memcheck prog-trace "--trace" "PATHPROF_TRACE=$d/prog-trace/trace.txt" "$p"
memcheck prog-continuous "" "PATHPROF_FILE=$d/prog-continuous/prof.out%c" "$p"
c=$top/regress/cases
memcheck deeprec-path "" "" "$c/deeprec.c"
memcheck deeprec-edge "--mode=edge" "" "$c/deeprec.c"
memcheck deeprec-kpath "--mode=kpath --k=3" "" "$c/deeprec.c"
for s in recursion fnptr exitcall sort statemachine; do memcheck "$s" "" "" "$top/samples/$s.c"; done
memcheck gnu "" "" "$c/gnu.c"
memcheck signals "--update=atomic" "" "$c/signals.c"
memcheck cgoto "--mode=edge" "" "$c/cgoto.c"
echo "# memcheck: $fails failing"
