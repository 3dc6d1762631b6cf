#!/bin/sh
# Freestanding runtime and the firmware sample (samples/firmware): the runtime builds warning-free
# for Cortex-M0+/M3/M4 and RISC-V with -ffreestanding -nostdlib -Os and links without libgcc; it
# is clean under -fsanitize=undefined,address on the host; the Cortex-M3 firmware, built with
# `pathcc arm-none-eabi-gcc`, runs under QEMU and its profile (UART text dumps at checkpoints,
# and a semihosting file) equals that of the same workload built with `pathcc gcc` on the host;
# a log with two damaged lines imports every intact frame and names the damaged ones.
# `make rt-freestanding` builds for AVR (no semihosting there), Cortex-M0 and RV32I.
# Installs gcc-arm-none-eabi, gcc-riscv64-unknown-elf, gcc-avr and qemu-system-arm when missing (as root).
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/regress/out/firmware"
fw="$top/samples/firmware"
pp="$top/bin/pathprof"
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1

ok() { echo "ok firmware $1"; }
nok() { echo "not ok firmware $1: $2"; }
check() { name=$1; shift; if "$@"; then ok "$name"; else nok "$name" "${why:-failed}"; fi; why=; }

# ---- tools ----
pkgs=
command -v arm-none-eabi-gcc >/dev/null 2>&1 || pkgs="$pkgs gcc-arm-none-eabi"
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || pkgs="$pkgs gcc-riscv64-unknown-elf"
command -v qemu-system-arm >/dev/null 2>&1 || pkgs="$pkgs qemu-system-arm"
command -v avr-gcc >/dev/null 2>&1 || pkgs="$pkgs gcc-avr"
if [ -n "$pkgs" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "# installing:$pkgs"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $pkgs; } >apt.log 2>&1 \
      || { nok install "apt-get install$pkgs failed (regress/out/firmware/apt.log)"; exit 0; }
  else
    echo "skip firmware: missing$pkgs; as root run: apt-get update && apt-get install -y$pkgs"
    exit 0
  fi
fi

# ---- the runtime, freestanding: compiles warning-free and links with no library at all ----
rt="$top/rt/core/core.c $top/rt/core/hash.c $top/rt/core/partial.c $top/rt/embedded/freestanding.c $top/rt/core/textdump.c $top/rt/embedded/semihost.c $top/rt/core/osp.c $top/rt/core/kpath.c"
cat >min.c <<'C'
#include "core/core.h"
static unsigned long long c[4], h[3 * 8];
static struct __pathprof_unit u = {0, PATHPROF_UNIT_VERSION, 1, "/x.pp.json", 4, c, 8, h, 0};
static int sink(int ch) { return ch; }
static int wsink(void *ctx, const void *buf, unsigned long len) { (void)ctx; (void)buf; (void)len; return 0; }
int main(void)
{
  static const struct __pathprof_kfn d = {&u, 0, 2};
  struct __pathprof_ka a = {&d, 0, 0, 0, 0};
  unsigned long i;
  pathprof_osp_configure(0);
  for (i = 0; i < 100000; i++)
    __pathprof_osp_block(&u, (i >> 2) & 7, i & 3);
  pathprof_osp_snapshot(wsink, 0);
  __pathprof_register(&u);
  __pathprof_hash_add(&u, 1, 2);
  __pathprof_kpath_id(&a, 5);
  pathprof_dump_text(sink, "x", PATHPROF_TEXT_BASE64);
  pathprof_reset();
  return pathprof_semihost_write("x.prof");
}
void _start(void) { pathprof_semihost_exit(main()); }
C
cross_ok=0
for t in "cortex-m0plus:arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb" \
         "cortex-m3:arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb" \
         "cortex-m4:arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16" \
         "rv64gc:riscv64-unknown-elf-gcc -march=rv64gc -mabi=lp64d -mcmodel=medany" \
         "rv64imac:riscv64-unknown-elf-gcc -march=rv64imac -mabi=lp64 -mcmodel=medany" \
         "rv32imac:riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32"; do
  name=${t%%:*}; cc=${t#*:}
  if $cc -std=c99 -Wall -Wextra -Wpedantic -Wconversion -Wshadow -ffreestanding -nostdlib -Os \
       -I"$top/include" -I"$top/rt" -c $rt >"cc-$name.log" 2>&1 && [ ! -s "cc-$name.log" ]; then
    ok "runtime builds warning-free for $name"
  else
    nok "runtime builds warning-free for $name" "$(head -1 "cc-$name.log")"; continue
  fi
  # no -lgcc, no libc: every symbol the runtime needs is its own
  if $cc -ffreestanding -nostdlib -Os -I"$top/include" -I"$top/rt" -o "min-$name.elf" min.c $rt >"ld-$name.log" 2>&1; then
    ok "runtime links for $name with no library (no libgcc, no libc)"; cross_ok=$((cross_ok + 1))
  else
    nok "runtime links for $name with no library" "$(grep -m1 'undefined' "ld-$name.log")"
  fi
done
sizeline=$(arm-none-eabi-size -t $(for f in core/core core/hash core/partial core/textdump embedded/semihost embedded/freestanding; do
  arm-none-eabi-gcc -std=c99 -ffreestanding -nostdlib -Os -mcpu=cortex-m0plus -mthumb -I"$top/include" -I"$top/rt" \
    -c "$top/rt/$f.c" -o "m0-${f#*/}.o" && echo "m0-${f#*/}.o"; done) | tail -1)
echo "# runtime on Cortex-M0+ -Os (text data bss): $sizeline"
ospline=$(arm-none-eabi-gcc -std=c99 -ffreestanding -nostdlib -Os -mcpu=cortex-m0plus -mthumb -I"$top/include" \
  -I"$top/rt" -DPATHPROF_OSP_MEMORY=4096 -c "$top/rt/core/osp.c" -o m0-osp.o && arm-none-eabi-size m0-osp.o | tail -1)
echo "# osp runtime on Cortex-M0+ -Os, PATHPROF_OSP_MEMORY=4096 (text data bss): $ospline"

# ---- make rt-freestanding: one library per target, with the back ends the target can take ----
for t in "atmega328p:avr-:-mmcu=atmega328p:" "cortex-m0:arm-none-eabi-:-mcpu=cortex-m0 -mthumb:semihost.o" \
         "rv32i:riscv64-unknown-elf-:-march=rv32i -mabi=ilp32:semihost.o"; do
  name=${t%%:*}; r=${t#*:}; cross=${r%%:*}; r=${r#*:}; arch=${r%%:*}; semi=${r#*:}
  lib="$top/lib/freestanding/regress-$name/libpathprof.a"
  rm -f "$lib"
  if make -C "$top" -s rt-freestanding CROSS="$cross" RT_ARCH="$arch" RT_NAME="regress-$name" >"fs-$name.log" 2>&1; then
    members=$(${cross}ar t "$lib" | sort | tr '\n' ' ')
    want=$(printf '%s\n' core.o freestanding.o hash.o kpath.o osp.o partial.o textdump.o $semi | sort | tr '\n' ' ')
    why="members: $members"; check "make rt-freestanding for $name: $want" [ "$members" = "$want" ]
  else
    nok "make rt-freestanding for $name" "$(grep -m1 -i 'error' "fs-$name.log")"
  fi
done

# ---- the runtime on the host under UBSan and ASan, in its 64-bit and 32-bit-target variants ----
for v in "64:" "32:-DPATHPROF_SLOT32 -DPATHPROF_SOFT_DIV -DPATHPROF_CHUNK=7"; do
  name=${v%%:*}; flags=${v#*:}
  if gcc -std=c99 -g -Wall -Wextra -D_POSIX_C_SOURCE=200809L -fsanitize=undefined,address -fno-sanitize-recover=all \
       $flags -I"$top/include" -I"$top/rt" "$top/regress/e2e/firmware_rt.c" "$top/rt/core/core.c" "$top/rt/core/hash.c" "$top/rt/core/partial.c" "$top/rt/core/textdump.c" \
       "$top/rt/embedded/freestanding.c" $top/rt/profile/*.c -o "rt$name" >"rt$name.build" 2>&1; then
    ./"rt$name" " $name" >"rt$name.txt" 2>"rt$name.err"; rc=$?
    cat "rt$name.err"
    [ $rc = 0 ] || nok "rt $name under sanitizers" "exit $rc: $(grep -m1 'runtime error\|ERROR' "rt$name.err")"
    "$pp" import "rt$name.txt" -o "rt$name.prof" >"rt$name.import" 2>&1
    why="$(head -1 "rt$name.import")"
    check "rt $name text dump (hex, base64+CRLF) imports" grep -q '2 units from 4 frames.*0 damaged frames, 0 damaged lines' "rt$name.import"
  else
    nok "rt $name builds with sanitizers" "$(head -1 "rt$name.build")"
  fi
done
[ -f rt64.prof ] && [ -f rt32.prof ] && { why="the 32-bit-target variant's counts differ"; check "rt 32-bit variant counts as the 64-bit one" cmp -s rt64.prof rt32.prof; }

# ---- the sample: build (pathcc must instrument every workload function), run, compare ----
make -C "$fw" clean >/dev/null 2>&1
if make -C "$fw" all >build.log 2>&1; then ok "sample builds (pathcc arm-none-eabi-gcc, pathcc gcc)"
else nok "sample builds" "$(grep -m1 -i 'error' build.log)"; exit 0; fi
why="$(grep -m1 'pathcc' build.log | grep -i 'warn\|skip\|cannot')"
check "pathcc instruments the firmware without a warning" sh -c "! grep -q 'pathcc.*\(warning\|cannot\|skipped\)' build.log"
skipped=$(cat "$fw"/build/arm/*.pp.json | python3 -c 'import json,sys
n=0
for line in sys.stdin.read().replace("}{","}\n{").splitlines():
    n += len(json.loads(line)["skipped"])
print(n)')
why="$skipped functions skipped"; check "every workload function instrumented" [ "$skipped" = 0 ]
for u in sort fsm vm cases; do
  a=$(grep -o '"checksum":"[0-9a-f]*"' "$fw/build/arm/$u.pp.json"); h=$(grep -o '"checksum":"[0-9a-f]*"' "$fw/build/host/$u.pp.json")
  why="$a vs $h"; check "$u.c: same unit checksum for the target and the host" [ "$a" = "$h" ]
done
if make -C "$fw" run TIMEOUT=60 >run.log 2>&1; then ok "firmware runs under QEMU (UART and semihosting builds)"
else nok "firmware runs under QEMU" "$(tail -1 run.log)"; fi
b="$fw/build"
grep '^case ' "$b/host.out" >host.results
grep -a '^case ' "$b/uart.log" >uart.results
grep -a '^case ' "$b/semi-uart.log" >semi.results
why="results differ"; check "target results equal the host's (UART build)" cmp -s host.results uart.results
why="results differ"; check "target results equal the host's (semihosting build)" cmp -s host.results semi.results
why="$(grep 'pathprof import' run.log | head -1)"
check "UART log imports cleanly" grep -q 'fw-uart.prof: 4 units from 13 frames and 0 profiles; 0 damaged frames, 0 damaged lines' run.log
for p in host fw-uart fw-semi host-text; do "$pp" dump --decode "$b/$p.prof" >"$p.dec" 2>&1 || echo "# decode $p failed"; done
why="$(diff host.dec fw-uart.dec | head -3 | tr '\n' ' ')"; check "path counts: target via UART text == host" cmp -s host.dec fw-uart.dec
why="$(diff host.dec fw-semi.dec | head -3 | tr '\n' ' ')"; check "path counts: target via semihosting == host" cmp -s host.dec fw-semi.dec
why="$(diff host.dec host-text.dec | head -3 | tr '\n' ' ')"; check "path counts: host text checkpoints == host exit profile" cmp -s host.dec host-text.dec
why="empty"; check "the decoded profile is not trivial" [ "$(wc -l <host.dec)" -gt 40 ]

# ---- a damaged log: prefixes on every line, two lines corrupted ----
# timestamps before every line (pathprof lines are found after noise on the same line)
awk '{ printf "[%6.3f] %s\n", NR / 1000, $0 }' "$b/uart.log" >stamped.log
"$pp" import stamped.log -o stamped.prof >stamped.out 2>&1
why="$(cat stamped.out | head -2 | tr '\n' ' ')"; check "timestamped log imports cleanly" grep -q '13 frames and 0 profiles; 0 damaged frames, 0 damaged lines' stamped.out
# damage a data line of dump 1 (a hex digit changed) and the header line of a frame of dump 3
l1=$(grep -n 'PP1 D 1 1 2 ' stamped.log | head -1 | cut -d: -f1)
l2=$(grep -n 'PP1 U 3 2 ' stamped.log | head -1 | cut -d: -f1)
awk -v a="$l1" -v b="$l2" 'NR == a { sub(/PP1 D 1 1 2 ../, "PP1 D 1 1 2 zz") } NR == b { sub(/PP1 U 3 2/, "PP1 U 3 2 ") } { print }' \
  stamped.log >damaged.log
"$pp" import damaged.log -o damaged.prof >damaged.out 2>&1; rc=$?
cat damaged.out | sed 's/^/# /'
why="exit $rc"; check "damaged log: import exits 1" [ "$rc" = 1 ]
why="$(tail -1 damaged.out)"; check "damaged log: 11 intact frames imported, 2 damaged" grep -q 'from 11 frames and 0 profiles; 2 damaged frames, 2 damaged lines' damaged.out
why="line $l1 not named"; check "damaged log: names damaged line $l1" grep -q "^damaged.log:$l1: damaged pathprof line" damaged.out
why="line $l2 not named"; check "damaged log: names damaged line $l2" grep -q "^damaged.log:$l2: damaged pathprof line" damaged.out
why="$(grep 'frame 1 of dump 1' damaged.out)"; check "damaged log: frame 1 of dump 1 reported with its lines" grep -q "^damaged.log:[0-9]*-[0-9]*: damaged frame 1 of dump 1 'fsm': .*$l1" damaged.out
why="$(grep 'frame 2 of dump 3' damaged.out)"; check "damaged log: frame 2 of dump 3 reported" grep -q "^damaged.log:[0-9]*-[0-9]*: damaged frame 2 of dump 3 'mixed': its header line is damaged" damaged.out
# the counts are those of the other 11 frames: the log with both frames cut out imports the same
awk '/PP1 [UD] 1 1 / || /PP1 [UD] 3 2 / { next } { print }' stamped.log >cut.log
"$pp" import cut.log -o cut.prof >cut.out 2>&1
"$pp" dump --decode damaged.prof >damaged.dec 2>&1; "$pp" dump --decode cut.prof >cut.dec 2>&1
why="$(diff damaged.dec cut.dec | head -2 | tr '\n' ' ')"; check "damaged log: exactly the intact frames' counts" cmp -s damaged.dec cut.dec
why="$(head -1 cut.out)"; check "a log missing two whole frames names them" grep -q "damaged frame 1 of dump 1 'fsm': all its lines are missing" cut.out
# merging: a binary profile and a log together
"$pp" import "$b/fw-semi.prof" "$b/uart.log" -o both.prof >both.out 2>&1
"$pp" dump both.prof | awk '/^  \[/ { s += $2 } END { print s }' >both.sum
"$pp" dump "$b/fw-semi.prof" | awk '/^  \[/ { s += 2 * $2 } END { print s }' >twice.sum
why="$(cat both.sum) vs $(cat twice.sum)"; check "import adds a profile and a log" cmp -s both.sum twice.sum

# ---- instrumented code elsewhere: M0+ and RISC-V builds of the workload link without libc ----
cat >tgt-main.c <<'C'
#include "pathprof.h"
#include "workload.h"
static int sink(int c) { return c; }
int main(void)
{
  int i;
  for (i = 0; i < NCASES; i++) {
    run_case(i);
    pathprof_dump_text(sink, case_name(i), 0);
    pathprof_reset();
  }
  return 0;
}
void _start(void) { pathprof_semihost_exit(main()); }
/* GCC may call memset for the workload's array initialisers (vm.c) even when freestanding */
void *memset(void *d, int c, __SIZE_TYPE__ n)
{
  unsigned char *p = d;
  while (n--)
    *(volatile unsigned char *)p++ = (unsigned char)c;
  return d;
}
C
for t in "cortex-m0plus:arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb" "rv64gc:riscv64-unknown-elf-gcc -march=rv64gc -mabi=lp64d -mcmodel=medany"; do
  name=${t%%:*}; cc=${t#*:}; mkdir -p "w-$name"
  objs=
  for u in sort fsm vm cases; do
    (cd "$fw" && "$top/bin/pathcc" $cc -std=c99 -Wall -Wextra -ffreestanding -Os -I. -c $u.c -o "$out/w-$name/$u.o") >>"w-$name.log" 2>&1
    objs="$objs w-$name/$u.o"
  done
  if [ ! -s "w-$name.log" ] && $cc -ffreestanding -nostdlib -Os -I"$top/include" -I"$top/rt" -I"$fw" -o "w-$name.elf" \
       tgt-main.c $objs $rt -lgcc >>"w-$name.log" 2>&1; then
    ok "instrumented workload builds and links for $name"
  else
    nok "instrumented workload builds and links for $name" "$(head -1 "w-$name.log")"
  fi
done

# ---- the host build of the workload under UBSan ----
mkdir -p ubsan
for u in sort fsm vm cases; do
  (cd "$fw" && "$top/bin/pathcc" gcc -std=c99 -ffreestanding -O1 -fsanitize=undefined -fno-sanitize-recover=all -I. \
     -c $u.c -o "$out/ubsan/$u.o") >>ubsan.log 2>&1
done
gcc -std=c99 -I"$top/include" -I"$fw" -c "$fw/host_main.c" -o ubsan/host_main.o >>ubsan.log 2>&1
"$top/bin/pathcc" gcc -fsanitize=undefined -o ubsan/prog ubsan/*.o >>ubsan.log 2>&1
PATHPROF_FILE="$out/ubsan.prof" ./ubsan/prog --text >ubsan.out 2>ubsan.err; rc=$?
why="exit $rc: $(grep -m1 'runtime error' ubsan.err)$(head -1 ubsan.log)"
check "workload and runtime clean under -fsanitize=undefined on the host" sh -c "[ $rc = 0 ] && ! grep -q 'runtime error' ubsan.err"

# ---- footprint: pathprof size, and the gcov build of the same firmware ----
if "$pp" size --baseline "$b/fw-plain.elf" "$b/fw-uart.elf" >size.out 2>&1; then
  sed 's/^/# /' size.out
  why="$(tail -1 size.out)"; check "pathprof size reports 4 units with probe code" grep -q '^total: 4 units, counter RAM [0-9]* B, probe code +[0-9]* B' size.out
else
  nok "pathprof size" "$(head -1 size.out)"
fi
if make -C "$fw" compare-gcov >gcov.log 2>&1; then
  grep -v '^make\|^rm\|^timeout\|Timer' gcov.log | sed 's/^/# /'
  check "gcov build of the same firmware runs and writes its .gcda files" [ "$(ls "$b"/gcov/*.gcda 2>/dev/null | wc -l)" = 4 ]
else
  nok "gcov build of the same firmware" "$(grep -m1 -i error gcov.log)"
fi

# ---- 32-bit saturating counters (pathcc --counter-bits=32): same counts, half the counter RAM ----
b32="$fw/build32"
if PATHCC_FLAGS=--counter-bits=32 make -C "$fw" B=build32 run TIMEOUT=60 >run32.log 2>&1; then
  ok "firmware with --counter-bits=32 builds and runs under QEMU"
  grep -o '"counter_bits":[0-9]*' "$b32"/arm/*.pp.json | sort -u >bits32.txt
  why="$(cat bits32.txt | tr '\n' ' ')"; check "32-bit build: every unit's tables say counter_bits 32" \
    sh -c "[ \"\$(cut -d: -f3 bits32.txt | sort -u)\" = 32 ]"
  # the checksums differ from the 64-bit build's (the width is part of the unit); the counts may not.
  # Units are listed by checksum, so without it their order is arbitrary: compare sorted lines.
  for p in fw-uart host; do "$pp" dump --decode "$b32/$p.prof" 2>&1 | cut -d' ' -f1,3- | sort >"$p-32.cut"; done
  cut -d' ' -f1,3- host.dec | sort >host-64.cut
  why="$(diff host-64.cut fw-uart-32.cut | head -3 | tr '\n' ' ')"; check "32-bit counters: target via UART == 64-bit host counts" cmp -s host-64.cut fw-uart-32.cut
  why="$(diff host-64.cut host-32.cut | head -3 | tr '\n' ' ')"; check "32-bit counters: host build == 64-bit counts" cmp -s host-64.cut host-32.cut
  if "$pp" size "$b/fw-uart.elf" >size64.out 2>&1 && "$pp" size "$b32/fw-uart.elf" >size32.out 2>&1; then
    # the counters' bytes: "counters N (bytes) in W-bit words" per unit
    bytes() { sed -n 's/.*(counters \([0-9]*\) in \([0-9]*\)-bit words.*/\1 \2/p' "$1" | awk '{ s += $1 } END { print s + 0 }'; }
    r64=$(bytes size64.out); r32=$(bytes size32.out)
    echo "# counter RAM of the counters alone: 64-bit $r64 B, 32-bit $r32 B ($(grep '^total' size32.out))"
    why="64-bit $r64 B, 32-bit $r32 B"; check "32-bit counters take half the counter RAM" [ "$((r32 * 2))" = "$r64" -a "$r32" -gt 0 ]
  else
    nok "pathprof size of the 32-bit build" "$(head -1 size32.out)"
  fi
else
  nok "firmware with --counter-bits=32" "$(grep -m1 -i 'error\|warning' run32.log)"
fi
exit 0
