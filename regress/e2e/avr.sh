#!/bin/sh
# AVR (ATmega328P under QEMU's arduino-uno): a workload built with `pathcc avr-gcc` in path and
# edge mode, single and atomic updates, dumps its counts as text through the UART; imported, they
# equal the host build's of the same unit. The tables' name lives in program memory (RAM holds
# the descriptor and the counters only); the RAM each build takes is printed.
# Installs gcc-avr, avr-libc and qemu-system-misc when missing (as root).
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=avr
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"

need avr-gcc:"gcc-avr avr-libc" qemu-system-avr:qemu-system-misc

# the workload: no header, values far below 2^15, so 16-bit int computes what the host does
cat >work.c <<'C'
int classify(int x)
{
  int s = 0, i;
  for (i = 0; i < (x & 7); i++) {
    if (i & 1) s += i;
    else if (x > 100) s -= 1;
  }
  switch (x % 5) {
  case 0: return s;
  case 1: s += 2; /* fall through */
  case 2: return s * 3;
  default: return -s;
  }
}
int run(void)
{
  int x, t = 0;
  for (x = 0; x < 200; x++) t += classify(x);
  return t;
}
C
cat >avr_main.c <<'C'
#include "pathprof.h"
int run(void);
#define UDR0 (*(volatile unsigned char *)0xc6)
#define UCSR0A (*(volatile unsigned char *)0xc0)
#define UCSR0B (*(volatile unsigned char *)0xc1)
static int uart_putc(int c)
{
  while (!(UCSR0A & (1 << 5))) {}
  UDR0 = (unsigned char)c;
  return c;
}
int main(void)
{
  UCSR0B = 1 << 3;  /* transmitter on */
  run();
  pathprof_dump_text(uart_putc, "avr", PATHPROF_TEXT_HEX);
  for (const char *s = "avr: done\n"; *s; s++) uart_putc(*s);
  for (;;) {}
}
C
printf 'int run(void);\nint main(void) { run(); return 0; }\n' >host_main.c
# the counters without the unit's checksum and tables name: avr-gcc 5 and the host's gcc 12 write
# the preprocessed text's line markers differently, so the one unit has two checksums
unit_free() { grep -v '^profile \|^unit '; }
rt="$top/rt/core/core.c $top/rt/core/hash.c $top/rt/core/partial.c $top/rt/core/textdump.c $top/rt/embedded/freestanding.c"
cflags="-std=c99 -Os -ffreestanding"
for m in path edge; do
  for u in single atomic; do
    d=$m-$u; mkdir -p $d
    if ! (cd $d && "$pc" --mode=$m --update=$u avr-gcc -mmcu=atmega328p $cflags -c ../work.c -o work.o &&
          avr-gcc -mmcu=atmega328p $cflags -I"$top/include" -I"$top/rt" -o fw.elf ../avr_main.c work.o $rt &&
          "$pc" --mode=$m --update=$u gcc $cflags -c ../work.c -o host-work.o && gcc -c ../host_main.c -o host_main.o &&
          "$pc" gcc -o host host_main.o host-work.o) \
         >$d/build.log 2>&1; then
      echo "not ok avr $d build: $(grep -m1 -i 'error\|warning' $d/build.log)"; continue
    fi
    (cd $d && timeout 30 qemu-system-avr -M arduino-uno -display none -monitor none -serial file:uart.log -bios fw.elf &
     pid=$!; i=0; while [ $i -lt 250 ] && ! grep -q 'avr: done' $d/uart.log 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
     kill $pid 2>/dev/null; wait $pid 2>/dev/null) >/dev/null 2>&1
    (cd $d && "$pp" import uart.log -o fw.prof >import.log 2>&1 && PATHPROF_FILE=host.prof ./host &&
     "$pp" dump fw.prof | unit_free >fw.txt && "$pp" dump host.prof | unit_free >host.txt)
    if [ -s $d/host.txt ] && cmp -s $d/fw.txt $d/host.txt; then echo "ok avr $d: the ATmega328P's counts equal the host's"
    else echo "not ok avr $d: the imported counts differ from the host's ($(head -1 $d/import.log))"; fi
    echo "# avr $d RAM (data+bss of the firmware, bytes): $(avr-size -A $d/fw.elf | awk '$1==".data"||$1==".bss"{s+=$2} END{print s}')"
  done
done
if strings path-single/work.o | grep -q 'pp.json' && avr-objdump -h path-single/work.o | grep -q progmem; then
  echo "ok avr the tables' name is in program memory, not RAM"
else echo "not ok avr the tables' name is not in program memory"; fi
