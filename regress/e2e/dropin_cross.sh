#!/bin/sh
# pathcc with a cross compiler: `pathcc arm-none-eabi-gcc -c x.c` (and CC="pathcc arm-none-eabi-gcc",
# and a wrapper directory) yields an instrumented ARM object and its tables; a firmware link through
# pathcc does not break, and links the freestanding runtime named by PATHCC_RUNTIME.
# Installs gcc-arm-none-eabi when missing (as root).
NAME=cross
. "$(dirname "$0")/../dropin-lib.sh"
if ! need_pkg arm-none-eabi-gcc gcc-arm-none-eabi; then
  skip cross "arm-none-eabi-gcc is not installed (apt-get install gcc-arm-none-eabi)"; finish
fi
cd "$d" || exit 1
cat >x.c <<'C'
/* x.c: firmware-style code using newlib's headers */
#include <stdint.h>
#include <string.h>
volatile uint32_t *const LED = (uint32_t *)0x40020014u;
static uint32_t crc(const uint8_t *p, size_t n)
{
  uint32_t c = 0xffffffffu;
  while (n--) {
    int k;
    c ^= *p++;
    for (k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
  }
  return ~c;
}
int blink(const char *msg, long count)
{
  uint32_t v = crc((const uint8_t *)msg, strlen(msg));
  long i;
  for (i = 0; i < count; i++) *LED = (i & 1) ? v : 0;
  return (int)(v & 0xff);
}
C
cat >main.c <<'C'
/* main.c: the firmware's entry */
int blink(const char *msg, long count);
int main(void) { return blink("hello", 10) == 0x99 ? 0 : 1; }
C
objdump_arch() { arm-none-eabi-objdump -f "$1" 2>/dev/null | sed -n 's/.*file format //p'; }
# arm_obj ID OBJECT TABLES STDERR-FILE
arm_obj() {
  fmt=$(objdump_arch "$2")
  if [ "$fmt" = elf32-littlearm ] && [ -f "$3" ] && [ ! -s "$4" ] && arm-none-eabi-nm "$2" | grep -q ' U __pathprof_register'; then
    ok "$1" "$(arm-none-eabi-objdump -f "$2" | sed -n 's/^architecture: \([^,]*\).*/\1/p')"
  else
    nok "$1" "object format '${fmt:-none}', tables $( [ -f "$3" ] && echo present || echo missing), stderr: $(head -c 150 "$4")"
  fi
}
"$P" arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O2 -c x.c 2>m4.err; arm_obj m4 x.o x.pp.json m4.err
"$P" arm-none-eabi-gcc --specs=nano.specs -mcpu=cortex-m0 -mthumb -Os -g -c x.c -o x-m0.o 2>m0.err
arm_obj m0-nano x-m0.o x-m0.pp.json m0.err
# as make would run it: CC="pathcc arm-none-eabi-gcc"
printf 'CC = %s arm-none-eabi-gcc\nCFLAGS = -mcpu=cortex-m3 -mthumb -O2\nall: x-m3.o\nx-m3.o: x.c\n\t$(CC) $(CFLAGS) -c x.c -o $@\n' "$P" >Makefile
make -s >make.log 2>&1; arm_obj make-cc x-m3.o x-m3.pp.json make.log
# a wrapper directory: a build that hard-codes arm-none-eabi-gcc
mkdir -p wrap && ln -sf "$P" wrap/arm-none-eabi-gcc
PATH="$d/wrap:$PATH" arm-none-eabi-gcc -mcpu=cortex-m7 -mthumb -O1 -c x.c -o x-m7.o 2>wrap.err
arm_obj wrapper x-m7.o x-m7.pp.json wrap.err
# the tables decode like any host unit's
"$R" dump x.pp.json >dump.txt 2>&1 && grep -q crc dump.txt && ok tables-readable || nok tables-readable "pathprof dump x.pp.json: $(head -1 dump.txt)"
# a firmware link through pathcc (CC="pathcc arm-none-eabi-gcc" used for linking too): it either
# gives an ARM executable or stops with pathcc's own explanation, never a host runtime fed to the
# cross linker (samples/firmware links the freestanding runtime with the plain cross compiler)
arm-none-eabi-gcc --specs=nosys.specs -mcpu=cortex-m4 -mthumb -O2 -o plain.elf main.c x.c >plain-link.log 2>&1 ||
  { skip link "the plain arm-none-eabi-gcc link with nosys.specs fails here"; finish; }
if "$P" arm-none-eabi-gcc --specs=nosys.specs -mcpu=cortex-m4 -mthumb -O2 -o fw.elf main.c x.c >link.log 2>&1 &&
   [ "$(objdump_arch fw.elf)" = elf32-littlearm ]; then ok link
elif grep -q '^pathcc: ' link.log && ! grep -q 'file format not recognized' link.log; then ok link "pathcc explains: $(grep -m1 '^pathcc: ' link.log | cut -c1-120)"
else nok link "pathcc arm-none-eabi-gcc --specs=nosys.specs -mcpu=cortex-m4 -mthumb -o fw.elf main.c x.c: $(grep -m1 -i error link.log | cut -c1-200)"; fi
# ... and with the freestanding runtime built for the target (make rt-freestanding) in PATHCC_RUNTIME
rt="$top/lib/freestanding/dropin-cortex-m4/libpathprof.a"
if ! (cd "$top" && make -s rt-freestanding CROSS=arm-none-eabi- RT_ARCH="-mcpu=cortex-m4 -mthumb" RT_NAME=dropin-cortex-m4) >rt.log 2>&1; then
  nok link-runtime "make rt-freestanding for cortex-m4 fails: $(grep -m1 -i error rt.log)"
elif PATHCC_RUNTIME="$rt" "$P" arm-none-eabi-gcc --specs=nosys.specs -mcpu=cortex-m4 -mthumb -O2 -o fw2.elf main.c x.c >link2.log 2>&1 &&
     [ "$(objdump_arch fw2.elf)" = elf32-littlearm ] && arm-none-eabi-nm fw2.elf | grep -q ' T __pathprof_register' && [ ! -s link2.log ]; then
  ok link-runtime "PATHCC_RUNTIME=lib/freestanding/dropin-cortex-m4/libpathprof.a"
else nok link-runtime "PATHCC_RUNTIME=$rt pathcc arm-none-eabi-gcc ... -o fw2.elf main.c x.c: $(head -c 200 link2.log)"; fi
finish
