#!/bin/sh
# The thread's counter base and its frame stack's growth through the runtime's register-keeping
# entry (GCC on x86-64): with getter_prog.c's calloc and malloc changing every call-clobbered
# register, each thread's first count (which makes the thread's shard, calling calloc) and
# first frame (which grows its frame stack, calling malloc) leave the values its functions hold
# in those registers intact: the output equals the plain build's with xsave (the host CPU), under
# valgrind, and with fxsave (qemu-x86_64 -cpu qemu64, a CPU without xsave), each way the
# runtime learns which (from the C library at startup, or from cpuid on first need); the same build with
# the entry swapped for a plain jump to the function (--wrap) gives wrong output, so the
# check can fail. The program's calloc is instrumented too: made while the runtime makes a
# shard, its counts go to the unit's array instead of recursing. gpr and fpr count exactly 8
# activations. A -mcmodel=large unit keeps the plain getter; a -masm=intel one is instrumented.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=getter
. "$top/regress/private.sh"
cd "$out" || exit 1
if [ "$(uname -m)" != x86_64 ] || ! gcc -dM -E - </dev/null 2>/dev/null | grep -q '__x86_64__'; then
  echo "skip getter: the register-keeping entry is for GCC on x86-64"; exit 0
fi
src="$top/regress/e2e/getter_prog.c"
P="$top/bin/pathcc"
gcc -O2 -pthread -o plain "$src" && ./plain >plain.out || { echo "not ok getter plain build"; exit 0; }
if ! "$P" gcc -O2 -pthread -o path "$src" >build.log 2>&1; then
  echo "not ok getter build: $(head -1 build.log)"; exit 0
fi
if objdump -d path | grep -q 'call.*<__pathprof_keep_call>'; then
  echo "ok getter uses the register-keeping entry"
else
  echo "not ok getter uses the register-keeping entry: no call of __pathprof_keep_call in the program"
fi
if PATHPROF_FILE=path.prof ./path >path.out 2>path.err && cmp -s plain.out path.out; then
  echo "ok getter registers kept (xsave)"
else
  echo "not ok getter registers kept (xsave): $(diff plain.out path.out | head -3 | tr '\n' ' ') $(head -1 path.err)"
fi
if ./path probe >probe.out 2>probe.err && cmp -s plain.out probe.out; then
  echo "ok getter registers kept (xsave, asked of the CPU)"
else
  echo "not ok getter registers kept (xsave, asked of the CPU): $(diff plain.out probe.out | head -3 | tr '\n' ' ') $(head -1 probe.err)"
fi
# gpr (function 3) and fpr (4): once per thread, 8 threads
if "$top/bin/pathprof" dump --decode path.prof >dump.txt 2>&1 &&
   [ "$(awk '$3 == 3 { n += $4 } END { print n + 0 }' dump.txt)" = 8 ] &&
   [ "$(awk '$3 == 4 { n += $4 } END { print n + 0 }' dump.txt)" = 8 ]; then
  echo "ok getter counts exact"
else
  echo "not ok getter counts exact: $(grep -E '^P [0-9a-f]+ [34] ' dump.txt | tr '\n' ' ')"
fi
# the control: an entry that keeps nothing loses the registers calloc changed
printf '.globl __wrap___pathprof_keep_call\n__wrap___pathprof_keep_call:\n\tjmp *%%rax\n.section .note.GNU-stack,"",@progbits\n' >wrap.s
if "$P" gcc -O2 -pthread -Wl,--wrap=__pathprof_keep_call -o wrapped "$src" wrap.s >wrap.log 2>&1; then
  ./wrapped >wrapped.out 2>&1
  if cmp -s plain.out wrapped.out; then echo "not ok getter control: a plain entry kept every register too (the check cannot fail)"
  else echo "ok getter control: a plain entry loses registers"; fi
else
  echo "not ok getter control build: $(head -1 wrap.log)"
fi
if command -v valgrind >/dev/null 2>&1; then
  if valgrind -q ./path >vg.out 2>vg.err && cmp -s plain.out vg.out; then echo "ok getter under valgrind"
  else echo "not ok getter under valgrind: $(head -2 vg.err | tr '\n' ' ')"; fi
else
  echo "skip getter under valgrind: no valgrind"
fi
# -mcmodel=large: the asm's direct call does not hold there, so the unit keeps the C getter
if "$P" gcc -O2 -mcmodel=large -pthread -o large "$src" >large.log 2>&1 && ./large >large.out && cmp -s plain.out large.out &&
   ! objdump -d large | grep -q 'call.*<__pathprof_keep_call>'; then
  echo "ok getter -mcmodel=large keeps the C getter"
else
  echo "not ok getter -mcmodel=large: $(head -1 large.log) $(diff plain.out large.out | head -2 | tr '\n' ' ')"
fi
# -masm=intel: the getter's asm is written in both dialects, so the unit stays instrumented
printf '#include <stdio.h>\nint f(int x) { if (x > 1) return x * 3; return x; }\nint main(void) { int s = 0, i; for (i = 0; i < 10; i++) s += f(i); printf("%%d\\n", s); return 0; }\n' >intel.c
if "$P" gcc -O2 -masm=intel -o intel intel.c >intel.log 2>&1 && [ ! -s intel.log ] && [ "$(./intel)" = 133 ] &&
   objdump -d intel | grep -q 'call.*<__pathprof_keep_call>'; then
  echo "ok getter -masm=intel"
else
  echo "not ok getter -masm=intel: $(head -1 intel.log)"
fi
need qemu-x86_64:qemu-user
for a in "" probe; do
  if qemu-x86_64 -cpu qemu64 ./path $a >qemu.out 2>qemu.err && cmp -s plain.out qemu.out; then
    echo "ok getter registers kept (fxsave, qemu64${a:+, asked of the CPU})"
  else
    echo "not ok getter registers kept (fxsave, qemu64${a:+, asked of the CPU}): $(diff plain.out qemu.out | head -3 | tr '\n' ' ') $(head -1 qemu.err)"
  fi
done
