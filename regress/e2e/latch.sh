#!/bin/sh
# Back edges whose count rides on the ways into an empty end of the loop body (rewrite.c
# hoisted_ends; exact.sh checks the counts of regress/cases/latches.c against the trace): each
# way into the end counts itself and the back edge has no code of its own; a latch with code
# (a for's increment, a do-while's condition) keeps its count; --trace builds keep it too.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=latch
. "$top/regress/private.sh"
src=$top/regress/cases/latches.c
# fn DIR NAME: the text of function NAME in DIR's instrumented unit
fn() { sed -n "/^static [a-z ]*$2(/,/^}/p" "$1/prog-latches.i"; }
# counts TEXT: how many counter updates followed by the register's reset (a back edge's count)
counts() { printf '%s\n' "$1" | grep -Eo '\]\+\+\)?, __pathprof_r = [0-9]+UL' | wc -l; }
check() {  # check NAME GOT WANT WHAT
  if [ "$2" = "$3" ]; then echo "ok latch-$1"; else echo "not ok latch-$1: $4: $2, want $3"; fi
}
if ! kept default ""; then echo "not ok latch-build: $(head -1 "$out/default/build.log")"; exit 0; fi
run=$(fn "$out/default" run)
# PUSH, ADD (continue), DUP, JNZ (after its if/else), default (SKIP falls into it)
check dispatch "$(counts "$run")" 5 "back-edge counts on the ways into the dispatch loop's end"
check dispatch-head "$(printf '%s\n' "$run" | grep -c 'for (;;) {$')" 1 "the for (;;) keeps no code of its own"
check ifelse "$(counts "$(fn "$out/default" collatz)")" 2 "back-edge counts in the while body's final if/else"
check increment "$(counts "$(fn "$out/default" jumps)")" 1 "a for's increment keeps its count"
check label "$(counts "$(fn "$out/default" labels)")" 3 "back-edge counts on the goto, the if and the fall into an empty labelled end"
check dowhile "$(counts "$(fn "$out/default" digits)")" 1 "a do-while's condition keeps its count"
if kept trace "" --trace; then
  check trace "$(counts "$(fn "$out/trace" run)")" 1 "a --trace build keeps the back edge's count where it is"
else echo "not ok latch-trace: $(head -1 "$out/trace/build.log")"; fi
