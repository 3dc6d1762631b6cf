#!/bin/sh
# Counts survive fork (children's counts theirs, never twice), exec (dumped before), SIGSEGV and abort (dumped by the handler) and SIGKILL in continuous mode: work()'s counts equal a one-process reference run's.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=lifecycle
. "$top/regress/private.sh"
d=$E2E_DIR
pp() { "$top/bin/pathprof" "$@"; }
if ! (cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O1 -o prog "$top/regress/e2e/lifecycle_prog.c") >"$d/build.log" 2>&1 || [ -s "$d/build.log" ]; then
  echo "not ok lifecycle-build: $(head -1 "$d/build.log")"; exit 0
fi
(cd "$d" && "$top/bin/pathcc" gcc -std=c99 -O1 -c -save-temps -o keep.o "$top/regress/e2e/lifecycle_prog.c") >/dev/null 2>&1
if grep -q '__pathprof_execl(argv' "$d/keep.i" && ! grep -q '[^_]execl(argv' "$d/keep.i"; then
  echo "ok lifecycle-exec-renamed"
else
  echo "not ok lifecycle-exec-renamed: the execl call was not routed to __pathprof_execl"
fi
if ! (cd "$d" && "$top/bin/pathcc" --continuous gcc -std=c99 -O1 -o cprog "$top/regress/e2e/lifecycle_prog.c") >"$d/cbuild.log" 2>&1 || [ -s "$d/cbuild.log" ]; then
  echo "not ok lifecycle-build-continuous: $(head -1 "$d/cbuild.log")"; exit 0
fi
# check NAME MODE [PATTERN] [SIGNAL] [PROG]: run MODE with PATHPROF_FILE=PATTERN, then MODE-ref;
# work()'s counts in all files the run left ($d/NAME.out*, merged) must equal the reference's
check() {
  name=$1 mode=$2 pat=${3:-$d/$1.out} sig=${4:-} prog=${5:-prog}
  rm -f "$d/$name".*
  (cd "$d" && PATHPROF_FILE=$pat timeout 30 "./$prog" "$mode" >"$name.stdout" 2>"$name.stderr"); rc=$?
  if [ -n "$sig" ] && [ $rc != $((128 + sig)) ] && [ $rc != $((256 + 128 + sig)) ]; then
    echo "not ok lifecycle-$name: exit status $rc, expected death by signal $sig"; return
  fi
  (cd "$d" && PATHPROF_FILE=$d/$name.ref timeout 30 ./prog "$mode-ref" >/dev/null 2>&1)
  files=$(ls "$d"/$name.out* 2>/dev/null | grep -v -e '\.tmp' -e '\.crash\.')
  # only a crash dump: reading the profile's name finds it
  [ -z "$files" ] && ls "$d"/$name.out.crash.* >/dev/null 2>&1 && files=$d/$name.out
  if [ -z "$files" ]; then echo "not ok lifecycle-$name: no profile written ($(head -1 "$d/$name.stderr"))"; return; fi
  if [ -n "${want_files:-}" ] && [ "$(echo "$files" | wc -l)" != "$want_files" ]; then
    echo "not ok lifecycle-$name: $(echo "$files" | wc -l) files, expected $want_files"; return
  fi
  f=$d/$name.all
  pp merge $files -o "$f" 2>"$d/$name.err" || { echo "not ok lifecycle-$name: cannot merge: $(head -1 "$d/$name.err")"; return; }
  if ! pp dump --decode "$f" >"$d/$name.txt" 2>"$d/$name.err" || ! pp dump --decode "$d/$name.ref" >"$d/$name.ref.txt"; then
    echo "not ok lifecycle-$name: unreadable profile: $(head -1 "$d/$name.err")"; return
  fi
  if why=$(python3 "$top/regress/countcmp.py" --fn=0 "$d/$name.ref.txt" "$d/$name.txt" 1); then
    echo "ok lifecycle-$name"
  else
    echo "not ok lifecycle-$name: $(echo "$why" | head -1)"
  fi
}
check fork fork
check exec exec
check segv segv "" 11
check abort abort "" 6
# continuous mode ("%c"): counters in pages of the file survive SIGKILL; with %p a forked child
# gets its own file; an exec'd image and a crash add to it; a unit built without --continuous
# is added in at exit
check kill kill "$d/kill.out%c" 9 cprog
want_files=4 check cfork fork "$d/cfork.out.%p%c" "" cprog
check cforkshared fork "$d/cforkshared.out%c" "" cprog
check cexec exec "$d/cexec.out%c" "" cprog
check csegv segv "$d/csegv.out%c" 11 cprog
check cplain fork "$d/cplain.out%c" "" prog
# patterns: %h is the host name, %2m a pool of two files per program
check host fork "$d/host.out.%h"
[ -f "$d/host.out.$(hostname)" ] && echo "ok lifecycle-host-name" || echo "not ok lifecycle-host-name: no file named with $(hostname)"
check pool fork "$d/pool.out.%2m"
n=$(ls "$d"/pool.out.* | grep -c '_[01]$')
[ "$n" -ge 1 ] && [ "$n" -le 2 ] && echo "ok lifecycle-pool-files" || echo "not ok lifecycle-pool-files: $n files for a pool of 2"
# a damaged crash dump is named when the profile is read
printf 'PATHPROF-not-really' >"$d/cplain.out.crash.99999"
if pp dump "$d/cplain.out" >/dev/null 2>"$d/crashbad.err"; then echo "not ok lifecycle-crash-damaged: a damaged crash dump was read"
elif grep -q 'cplain.out.crash.99999' "$d/crashbad.err"; then echo "ok lifecycle-crash-damaged"
else echo "not ok lifecycle-crash-damaged: the message does not name it: $(head -1 "$d/crashbad.err")"; fi
