#!/bin/sh
# The embedded acceptance matrix (make check-embedded, make check-full): one program with a timer
# interrupt handler (samples/firmware/isr: the main loop and the handler both call instrumented
# code, the timer fired by software at fixed points, so every run counts the same) on Cortex-M0
# (QEMU microbit), Cortex-M3 (mps2-an385), Cortex-M4F (mps2-an386), RV32IMAC, RV32I, RV64IMAC
# (QEMU virt, -bios none) and the ATmega328P (QEMU arduino-uno and simavr), in path, edge and
# kpath mode with --update=single and --update=atomic, and in osp mode. Each run dumps its counts
# as text on the UART, and through semihosting where the target has it; imported, they must equal
# the host build of the same program (the handler's work called at the same points), whose counts
# must equal the trace oracle's (regress/oracle.py); OSP's snapshot, sampled with the same seed and
# settings, must equal the host's. Prints the --update=atomic form each target gets and the
# size table (pathprof size against the same program built without pathcc).
# Runs with REGRESS_EMBEDDED=1 or REGRESS_FULL=1 (make check-embedded, make check-full) only.
# Installs the cross compilers and emulators it misses when run as root; a target whose tools are
# still missing is skipped with the reason.
top=$(cd "$(dirname "$0")/../.." && pwd)
e2e_name=firmware_matrix
. "$top/regress/private.sh"
cd "$out" || exit 1
pc="$top/bin/pathcc"; pp="$top/bin/pathprof"
fw="$top/samples/firmware"; isr="$fw/isr"
unset PATHPROF_DB PATHPROF_FILE PATHPROF_TRACE PATHCC_FLAGS

if [ -z "${REGRESS_EMBEDDED:-}${REGRESS_FULL:-}" ]; then
  echo "skip firmware_matrix: runs in make check-embedded and make check-full (REGRESS_EMBEDDED=1)"; exit 0
fi

# ---- tools: what is missing is installed as root, in one go; a target without its tools is skipped ----
tools="arm-none-eabi-gcc:gcc-arm-none-eabi riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf avr-gcc:gcc-avr
  /usr/lib/avr/include/avr/io.h:avr-libc qemu-system-arm:qemu-system-arm qemu-system-riscv32:qemu-system-misc
  qemu-system-avr:qemu-system-misc simavr:simavr"
has() { case "$1" in /*) [ -e "$1" ];; *) command -v "$1" >/dev/null 2>&1;; esac; }
pkgs=
for t in $tools; do has "${t%%:*}" || case " $pkgs " in *" ${t#*:} "*) ;; *) pkgs="$pkgs ${t#*:}";; esac; done
if [ -n "$pkgs" ] && [ "$(id -u)" = 0 ]; then
  echo "# installing:$pkgs"
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $pkgs; } >apt.log 2>&1 ||
    echo "# apt-get install$pkgs failed (apt.log); the targets that need them are skipped"
fi
missing() {  # the commands of "$@" that are not there, as " cmd (package)"
  for c in "$@"; do has "$c" || for t in $tools; do [ "${t%%:*}" = "$c" ] && printf ' %s (%s)' "$c" "${t#*:}"; done; done
}

# ---- the host build, per mode and policy: the reference, checked against the trace oracle ----
# sig PROFILE: what must be equal between two builds of the program: every decoded path and
# n-gram, the raw counters and forests, and an OSP snapshot's subpaths, with the unit's checksum
# and tables path left out (avr-gcc 5 and gcc 12 write the preprocessed text's line markers
# differently).
sig() {
  { "$pp" dump --decode "$1" && "$pp" dump "$1" | grep -v '^profile \|^unit '; } 2>&1 | sed 's/\b[0-9a-f]\{16\}\b/UNIT/'
  "$pp" hot-subpaths --raw "$1" 2>/dev/null | sed '1s/^# osp [^:]*:/# osp:/; s/\b[0-9a-f]\{16\}\b/UNIT/g'
}
# ppflags MODE K: pathcc's flags for a mode (kpath with k = K)
ppflags() { if [ $1 = kpath ]; then echo "--mode=kpath --k=$2"; else echo "--mode=$1"; fi; }
modes="path edge kpath osp"; policies="single atomic"
# the OSP sampler's settings on every target (small enough for the ATmega328P) and on the host
osp_defs="-DPATHPROF_OSP_MEMORY=1024 -DPATHPROF_OSP_MAXLOG=2 -DPATHPROF_OSP_UNITS=8"
osp_env="PATHPROF_OSP_MEMORY=1024 PATHPROF_OSP_MAXLEN=4"
wflags="-std=c99 -Wall -Wextra -ffreestanding -Os -I$isr"
for mk in path edge kpath4 kpath2 osp; do
  m=${mk%[0-9]}; k=${mk#kpath}
  for u in $policies; do
    [ $m = osp ] && [ $u = atomic ] && continue # sampling: no counters to update
    d=host-$mk-$u; mkdir -p $d; tr=--trace; [ $m = osp ] && tr=
    if (cd $d && "$pc" $tr $(ppflags $m $k) --update=$u gcc $wflags -c "$isr/app.c" -o app.o &&
        gcc $wflags -I"$top/include" -c "$isr/main.c" -o main.o && gcc $wflags -c "$isr/board-host.c" -o board.o &&
        "$pc" gcc -o host main.o board.o app.o) >$d/build.log 2>&1 && [ ! -s $d/build.log ]; then
      (cd $d && env PATHPROF_FILE=host.prof PATHPROF_TRACE=trace.txt $osp_env PATHPROF_OSP_FILE=host.osp $run ./host >out.txt 2>&1)
      [ $m = osp ] && mv $d/host.osp $d/host.prof
      case $m in
        edge) (cd $d && "$pp" coverage --format json host.prof >cov.json &&
               python3 "$top/regress/oracle.py" --name "firmware_matrix host $m $u" --trace trace.txt --edges cov.json app.pp.json);;
        path) "$pp" dump --decode $d/host.prof | python3 "$top/regress/oracle.py" --name "firmware_matrix host $m $u" \
                --trace $d/trace.txt --decoded - $d/app.pp.json;;
        kpath) "$pp" dump --decode $d/host.prof | python3 "$top/regress/oracle.py" --name "firmware_matrix host $m k=$k $u" \
                 --kpaths $k --trace $d/trace.txt --decoded - $d/app.pp.json;;
      esac
      sig $d/host.prof >$d/host.sig
      grep 'isr: result' $d/out.txt >$d/result.txt
    else
      echo "not ok firmware_matrix host $mk $u build: $(grep -m1 -i 'error\|warning' $d/build.log)"
    fi
  done
done
if [ "$(wc -l <host-path-single/host.sig 2>/dev/null || echo 0)" -lt 20 ] || ! grep -q '^K ' host-kpath4-single/host.sig ||
   ! grep -q '^S 2 ' host-osp-single/host.sig ||
   ! grep -q 'isr: result' host-path-single/result.txt; then
  echo "not ok firmware_matrix host: the reference profile is trivial or missing"
fi

# ---- the targets ----
# name : compiler : flags : emulator : emulator arguments : board : link flags (riscv.ld needs
# no startup; the Cortex-M boards take ../startup.c)
cm_link="$fw/startup.c -L$fw -T $isr/cortex-m-16k.ld"
rv_link="-T $isr/riscv.ld -Wl,--no-warn-rwx-segments"
targets="cortex-m0|arm-none-eabi-gcc|-mcpu=cortex-m0 -mthumb -DBOARD_MICROBIT|qemu-system-arm|-M microbit -icount shift=0|cortex-m|$cm_link
cortex-m3|arm-none-eabi-gcc|-mcpu=cortex-m3 -mthumb|qemu-system-arm|-M mps2-an385 -icount shift=0|cortex-m|$cm_link
cortex-m4f|arm-none-eabi-gcc|-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16|qemu-system-arm|-M mps2-an386 -icount shift=0|cortex-m|$cm_link
rv32imac|riscv64-unknown-elf-gcc|-march=rv32imac -mabi=ilp32|qemu-system-riscv32|-M virt -bios none -icount shift=0|riscv|$rv_link
rv32i|riscv64-unknown-elf-gcc|-march=rv32i -mabi=ilp32|qemu-system-riscv32|-M virt -bios none -icount shift=0|riscv|$rv_link
rv64imac|riscv64-unknown-elf-gcc|-march=rv64imac -mabi=lp64 -mcmodel=medany|qemu-system-riscv64|-M virt -bios none -icount shift=0|riscv|$rv_link
atmega328p|avr-gcc|-mmcu=atmega328p|qemu-system-avr|-M arduino-uno|avr|"

# run_qemu DIR EMULATOR ARGS: runs DIR/fw.elf; the UART goes to DIR/uart.log. QEMU's AVR cannot
# end the program: it is stopped once the last line is out.
run_qemu() {
  if [ "$2" = qemu-system-avr ]; then
    (cd "$1" && { timeout 30 $2 $3 -display none -monitor none -serial file:uart.log -bios fw.elf & pid=$!
      i=0; while [ $i -lt 250 ] && ! grep -q 'isr: done\|isr: dump failed' uart.log 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
      kill $pid 2>/dev/null; wait $pid 2>/dev/null; }) >/dev/null 2>&1
  else
    (cd "$1" && timeout 30 $2 $3 -display none -monitor none -serial file:uart.log \
       -semihosting-config enable=on,target=native -kernel fw.elf) >"$1/run.log" 2>&1
    echo "exit status $?" >>"$1/run.log"
  fi
}

# compare WHAT DIR LOG SIG HOSTDIR: the run's result line and imported counts against the host's
compare() {
  if [ -f "$2/run.log" ] && ! grep -q '^exit status 0$' "$2/run.log"; then
    echo "not ok firmware_matrix $1: the program ended with $(tail -1 "$2/run.log") (99: a fault; 124: no end in 30 s)"
  elif grep -a -q 'isr: stack headroom 0x0000' "$3"; then
    echo "not ok firmware_matrix $1: the stack reached the data (no headroom left)"
  elif ! grep -a 'isr: result' "$3" | tr -d '\r' | cmp -s - "$5/result.txt"; then
    echo "not ok firmware_matrix $1: the program's result differs from the host's ($(grep -a -m1 'isr:' "$3" || echo 'no output'))"
  elif [ ! -s "$4" ]; then echo "not ok firmware_matrix $1: no profile ($(tail -1 "$2/import.log" 2>/dev/null))"
  elif cmp -s "$4" "$5/host.sig"; then echo "ok firmware_matrix $1: counts equal the host build's"; return 0
  else echo "not ok firmware_matrix $1: counts differ from the host build's: $(diff "$5/host.sig" "$4" | grep '^[<>]' | head -2 | tr '\n' ' ')"
  fi
  return 1
}

echo "$targets" | while IFS='|' read -r name cc arch emu eargs board link; do
  [ -n "$name" ] || continue
  case $board in avr) emus="$emu simavr";; *) emus=$emu;; esac
  miss=$(missing $cc $emus)
  [ $board = avr ] && miss="$miss$(missing /usr/lib/avr/include/avr/io.h)"
  if [ -n "$miss" ]; then echo "skip firmware_matrix $name: missing$miss"; echo "$name skipped" >>matrix.txt; continue; fi
  # the runtime, as make rt-freestanding builds it for the target, with a kpath pool that fits its
  # RAM; the ATmega328P's 2 KiB hold the k = 2 forests of this program (39 nodes), with dump
  # pieces of 32 bytes for a shallower stack (the k = 4 forests have 92 nodes, 2.2 KB)
  case $board in
    avr) kk=2 semi=0 rtdefs="-DPATHPROF_KPATH_POOL=1280 -DPATHPROF_CHUNK=32 $osp_defs";;
    *) kk=4 semi=1 rtdefs="-DPATHPROF_KPATH_POOL=4096 $osp_defs";;
  esac
  rtname=matrix-$name; lib="$top/lib/freestanding/$rtname/libpathprof.a"
  rm -f "$lib"
  if ! make -C "$top" -s rt-freestanding CROSS="${cc%gcc}" RT_ARCH="$arch $rtdefs" RT_NAME=$rtname \
       >rt-$name.log 2>&1; then
    echo "not ok firmware_matrix $name runtime: $(grep -m1 -i 'error' rt-$name.log)"; continue
  fi
  # flags are split on purpose: $arch and $link hold several
  bflags="$arch -std=c99 -Wall -Wextra -Os -ffunction-sections -fdata-sections -I$top/include -I$isr -DSEMIHOST=$semi"
  [ $board = avr ] || bflags="$bflags -ffreestanding"
  lflags="-Wl,--gc-sections $link"
  [ $board = avr ] || lflags="$lflags -nostdlib"
  mkdir -p $name; t0=$(date +%s)
  if ! $cc $bflags -DPLAIN_BUILD -o $name/plain.elf "$isr/main.c" "$isr/app.c" "$isr/board-$board.c" $lflags "$lib" -lgcc \
       >$name/plain.log 2>&1 || [ -s $name/plain.log ]; then
    echo "not ok firmware_matrix $name plain build: $(grep -m1 -i 'error\|warning' $name/plain.log)"; continue
  fi
  row="$name"
  for m in $modes; do
    for u in $policies; do
      [ $m = osp ] && [ $u = atomic ] && continue
      d=$name/$m-$u; mkdir -p $d
      if ! (cd $d && "$pc" $(ppflags $m $kk) --update=$u $cc $arch $wflags -save-temps -c "$isr/app.c" -o app.o &&
            $cc $bflags -o fw.elf "$isr/main.c" "$isr/board-$board.c" app.o $lflags "$lib" -lgcc) >$d/build.log 2>&1 ||
         grep -q 'warning\|error' $d/build.log; then
        echo "not ok firmware_matrix $name $m $u build: $(grep -m1 -i 'error\|warning' $d/build.log)"; row="$row differs"; continue
      fi
      if [ $u = atomic ] && [ $m = path ]; then
        if grep -q '__pathprof_add_masked(' $d/app.i; then form="interrupts masked (__pathprof_add_masked)"
        elif grep -q '__pathprof_aadd(' $d/app.i; then form="32-bit atomic add + carry (__pathprof_aadd)"
        elif grep -q '__atomic_fetch_add(' $d/app.i; then form="64-bit atomic add (__atomic_fetch_add)"
        else form="plain adds"; echo "not ok firmware_matrix $name --update=atomic counts with plain adds"; fi
        echo "$name $form" >>forms.txt
      fi
      h=host-$m-$u; [ $m = kpath ] && h=host-kpath$kk-$u; ok=1
      for e in $emus; do
        if [ $e = simavr ]; then
          # simavr prints the UART line by line, coloured, with a '.' for the newline
          (cd $d && timeout 30 simavr -m atmega328p fw.elf 2>&1 | sed 's/\x1b\[[0-9;]*m//g; s/\.$//' >sim.log)
          "$pp" import $d/sim.log -o $d/sim.prof >$d/import.log 2>&1 && sig $d/sim.prof >$d/sim.sig
          compare "$name $m --update=$u (simavr, UART)" $d $d/sim.log $d/sim.sig $h || ok=0
        else
          run_qemu $d $e "$eargs"
          "$pp" import $d/uart.log -o $d/uart.prof >$d/import.log 2>&1 && sig $d/uart.prof >$d/uart.sig
          compare "$name $m --update=$u (${e#qemu-system-}, UART)" $d $d/uart.log $d/uart.sig $h || ok=0
          if [ $semi = 1 ]; then
            [ -f $d/isr.prof ] && sig $d/isr.prof >$d/semi.sig
            compare "$name $m --update=$u (${e#qemu-system-}, semihosting)" $d $d/uart.log $d/semi.sig $h || ok=0
          fi
        fi
      done
      if [ $ok = 1 ]; then row="$row equal"; else row="$row differs"; fi
      grep -a -h 'isr: stack headroom' $d/*.log | tr -d '\r' | sed "s/^isr: /# $name $m $u: /" | sort -u
      if [ $u = single ]; then
        "$pp" size --baseline $name/plain.elf $d/fw.elf >$d/size.txt 2>&1 ||
          echo "not ok firmware_matrix $name $m size: $(head -1 $d/size.txt)"
        # counter RAM, probe code, runtime code and RAM; flash (text + data) and RAM (data + bss) of the program against plain
        t=$(grep '^total:' $d/size.txt | sed 's/.*counter RAM \([0-9]*\) B, probe code +\([0-9]*\) B, runtime code \([0-9]*\) B and RAM \([0-9]*\) B.*/\1 \2 \3 \4/')
        [ -n "$t" ] && [ "$t" != "$(grep '^total:' $d/size.txt)" ] || echo "not ok firmware_matrix $name $m size: no total line"
        echo "$name $m $t $(${cc%gcc}size $name/plain.elf $d/fw.elf | awk 'NR > 1 { f[NR] = $1 + $2; r[NR] = $2 + $3 } END { print f[3] - f[2], r[3] - r[2] }')" >>sizes.txt
      fi
    done
  done
  echo "$row" >>matrix.txt
  echo "# $name: $(($(date +%s) - t0)) s"
done

# ---- the tables ----
echo "# matrix: decoded counts against the host build's (equal / differs / skipped), per mode and --update"
printf '# %-11s %-15s %-15s %-15s %-6s %s\n' target "path sgl/atom" "edge sgl/atom" "kpath sgl/atom" osp "--update=atomic adds with"
while read -r name a b c d e f g; do
  form=$(grep "^$name " forms.txt 2>/dev/null | cut -d' ' -f2-)
  if [ "$a" = skipped ]; then printf '# %-11s skipped\n' "$name"
  else printf '# %-11s %-15s %-15s %-15s %-6s %s\n' "$name" "$a/$b" "$c/$d" "$e/$f" "$g" "$form"; fi
done <matrix.txt
echo "# size (bytes, --update=single, pathprof size against the plain build; program = whole ELF against plain)"
printf '# %-11s %-6s %12s %11s %13s %12s %15s %13s\n' target mode "counter RAM" "probe code" "runtime code" "runtime RAM" "program flash" "program RAM"
while read -r name m cr pc_ rc rr ff rm_; do
  printf '# %-11s %-6s %12s %11s %13s %12s %15s %13s\n' "$name" "$m" "$cr" "+$pc_" "$rc" "$rr" "+$ff" "+$rm_"
done <sizes.txt 2>/dev/null
