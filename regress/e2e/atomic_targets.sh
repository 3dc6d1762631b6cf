#!/bin/sh
# --update=atomic on every embedded target: pathcc picks what the target's atomics can do (64-bit
# lock-free adds; 32-bit ones with a carry on Cortex-M3/M4 and RV32IMAC; the runtime's
# interrupt-masked add on Cortex-M0, RV32I and AVR, which have no atomic add), and the program
# links with no libatomic. Under QEMU, a Cortex-M3 and a Cortex-M0 program whose main loop and
# SysTick handler call the same function count every call (path, edge and kpath mode: kpath's
# ids go to the one set of forests with interrupts masked).
# Installs gcc-arm-none-eabi, gcc-riscv64-unknown-elf, gcc-avr and qemu-system-arm when missing.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=atomic_targets
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

need arm-none-eabi-gcc:gcc-arm-none-eabi riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf avr-gcc:gcc-avr qemu-system-arm:qemu-system-arm

cat >work.c <<'C'
/* The function both the main loop and the interrupt handler run. */
int work(int x)
{
  int s = 0;
  if (x & 1) s += 3;
  if (x & 2) s ^= x;
  return s;
}
C
rt="$top/rt/core/core.c $top/rt/core/hash.c $top/rt/core/partial.c $top/rt/embedded/freestanding.c"

# ---- what each target gets, and that it links without libatomic ----
for t in "cortex-m0:arm-none-eabi-gcc -mcpu=cortex-m0 -mthumb:__pathprof_add_masked" \
         "cortex-m3:arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb:__pathprof_aadd" \
         "cortex-m4f:arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16:__pathprof_aadd" \
         "rv32imac:riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32:__pathprof_aadd" \
         "rv32i:riscv64-unknown-elf-gcc -march=rv32i -mabi=ilp32:__pathprof_add_masked" \
         "rv64imac:riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -mcmodel=medany:__atomic_fetch_add" \
         "atmega328p:avr-gcc -mmcu=atmega328p:__pathprof_add_masked"; do
  name=${t%%:*}; r=${t#*:}; cc=${r%%:*}; want=${r#*:}
  mkdir -p "$name"
  for m in path edge; do
    if (cd "$name" && "$pc" --update=atomic --mode=$m $cc -Os -ffreestanding -save-temps -c ../work.c -o work-$m.o) >"$name/$m.log" 2>&1 &&
       ! grep -q 'warning' "$name/$m.log"; then
      if grep -q "$want(" "$name/work-$m.i"; then echo "ok atomic-targets $name $m counts with $want"
      else echo "not ok atomic-targets $name $m: expected $want in the instrumented unit"; fi
      printf 'int work(int);\nvoid _start(void) { volatile int v = 0; for (;;) v += work(v); }\n' >"$name/start.c"
      if $cc -Os -ffreestanding -nostdlib -I"$top/include" -I"$top/rt" -o "$name/prog-$m.elf" "$name/start.c" \
           "$name/work-$m.o" $rt -lgcc >"$name/ld-$m.log" 2>&1; then
        echo "ok atomic-targets $name $m links without libatomic"
      else echo "not ok atomic-targets $name $m links: $(grep -m1 'undefined\|error' "$name/ld-$m.log")"; fi
    else echo "not ok atomic-targets $name $m: pathcc $(grep -m1 'warning\|error' "$name/$m.log")"; fi
  done
done

# ---- under QEMU: main loop and SysTick handler in one function, every call counted ----
# (-icount: the virtual clock follows the instructions run, so a loaded host does not turn the
# 98-cycle SysTick into an interrupt storm that starves the main loop)
# (the vector table, .data and .bss set-up: samples/firmware/startup.c, with its linker script)
cat >isr.c <<'C'
#include "pathprof.h"
#define N_MAIN 20000
#define N_ISR 5000
int work(int x);
static volatile int isr_calls;
static volatile int sink;
#define SYST ((volatile unsigned int *)0xe000e010u)
void SysTick_Handler(void)
{
  if (isr_calls < N_ISR) { sink += work(isr_calls); isr_calls++; }
}
int main(void)
{
  int i;
  SYST[1] = 97;   /* reload: an interrupt every 98 cycles, often inside work() */
  SYST[2] = 0;
  SYST[0] = 7;    /* processor clock, interrupt, enable */
  for (i = 0; i < N_MAIN; i++) sink += work(i);
  while (isr_calls < N_ISR) {}
  SYST[0] = 0;
  return pathprof_semihost_write("isr.prof");
}
C
fw="$top/samples/firmware"
for t in "cortex-m3:-mcpu=cortex-m3:lm3s6965evb" "cortex-m0:-mcpu=cortex-m0:microbit"; do
  name=${t%%:*}; r=${t#*:}; cpu=${r%%:*}; board=${r#*:}
  for m in path edge kpath; do
    for u in atomic single; do
      d="q-$name-$m-$u"; mkdir -p "$d"
      if (cd "$d" && "$pc" --update=$u --mode=$m arm-none-eabi-gcc $cpu -mthumb -O1 -ffreestanding -c ../work.c -o work.o &&
          arm-none-eabi-gcc $cpu -mthumb -O1 -ffreestanding -nostdlib -L"$fw" -T "$fw/isr/cortex-m-16k.ld" -I"$top/include" -I"$top/rt" -o isr.elf \
            -DPATHPROF_KPATH_POOL=4096 ../isr.c "$fw/startup.c" work.o "$top/rt/core/core.c" "$top/rt/core/hash.c" "$top/rt/core/kpath.c" "$top/rt/core/partial.c" \
            "$top/rt/embedded/freestanding.c" "$top/rt/embedded/semihost.c" -lgcc) \
           >"$d/build.log" 2>&1; then
        (cd "$d" && timeout 60 qemu-system-arm -M $board -icount shift=0 -display none -monitor none -serial null \
           -semihosting-config enable=on,target=native -kernel isr.elf) >"$d/run.log" 2>&1
        calls=$( (cd "$d" && "$pp" coverage --format json isr.prof) 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(sum(f["calls"] for fl in j["files"] for f in fl["functions"] if f["name"] == "work"))' 2>/dev/null)
        if [ $m = kpath ] && [ $u = atomic ] && ! arm-none-eabi-nm "$d/work.o" | grep -q ' U __pathprof_kpath_id_atomic$'; then
          echo "not ok atomic-targets qemu $name kpath --update=atomic: the ids do not go through __pathprof_kpath_id_atomic"
        fi
        if [ "$u" = atomic ]; then
          if [ "$calls" = 25000 ]; then echo "ok atomic-targets qemu $name $m --update=atomic counts all 25000 calls"
          else echo "not ok atomic-targets qemu $name $m --update=atomic: ${calls:-no profile} calls counted of 25000 ($(head -1 "$d/run.log"))"; fi
        else echo "# qemu $name $m --update=single: ${calls:-no profile} of 25000 calls counted"; fi
      else echo "not ok atomic-targets qemu $name $m $u build: $(grep -m1 'error\|warning' "$d/build.log")"; fi
    done
  done
done
