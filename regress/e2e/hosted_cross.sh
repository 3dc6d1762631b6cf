#!/bin/sh
# pathcc for a hosted target other than the host's: gcc -m32 (as Debian's zlib builds its 32-bit
# library) and a cross compiler for Linux on AArch64. The runtime is built for the target from
# its sources on first use and cached; the programs, run natively or under qemu-user, report what
# the host's build of the same sources reports. A runtime that cannot be built leaves the units
# compiled as written, with one warning each and none at the link, and is not tried again.
# Installs gcc-multilib, qemu-user and the AArch64 cross libraries when missing (as root).
NAME=hosted
. "$(dirname "$0")/../dropin-lib.sh"
export PATHCC_CACHE_DIR="$d/cache"

# The program: a shared library's function beside the program's own (loops, a switch, recursion).
mkdir -p "$d/src"
cat >"$d/src/lib.c" <<'C'
int classify(int x) {
  switch (x % 4) {
  case 0: return x > 10 ? 1 : 2;
  case 1: return 3;
  default: return x & 1 ? 4 : 5;
  }
}
C
cat >"$d/src/main.c" <<'C'
#include <stdio.h>
int classify(int x);
static int depth(int n) { return n <= 0 ? 0 : 1 + depth(n - (n % 3 ? 1 : 2)); }
int main(void) {
  long sum = 0;
  for (int i = 0; i < 300; i++) {
    sum += classify(i);
    if (i % 7 == 0) sum += depth(i);
  }
  printf("%ld\n", sum);
  return 0;
}
C

# build DIR CC...: the library and the program through pathcc into DIR (its log in DIR/log)
build() {
  dir=$1; shift
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && "$P" "$@" -O2 -fPIC -shared -o libc4.so "$d/src/lib.c" &&
                "$P" "$@" -O2 -o prog "$d/src/main.c" -L. -lc4 -Wl,-rpath,'$ORIGIN') >"$dir/log" 2>&1
}
# report DIR RUNNER...: runs DIR's program (under RUNNER, if any) and writes DIR/report.txt
report() {
  dir=$1; shift
  (cd "$dir" && "$@" ./prog >out.txt 2>err.txt && "$R" report --top 20 >report.txt 2>&1)
}

build "$d/host" gcc && report "$d/host" || nok host "the host's build: $(head -3 "$d/host/log" "$d/host/err.txt" | tr '\n' ' ')"

# gcc -m32, run natively where the kernel runs i386 code, else under qemu-i386
if ! gcc -m32 -o "$d/m32probe" "$d/src/lib.c" -shared >/dev/null 2>&1 && ! { need_pkg i686-linux-gnu-gcc-12 gcc-multilib &&
     gcc -m32 -o "$d/m32probe" "$d/src/lib.c" -shared >/dev/null 2>&1; }; then
  skip m32 "gcc -m32 does not link here (gcc-multilib)"
else
  run32=""
  printf 'int main(void) { return 0; }\n' >"$d/t.c"; gcc -m32 -o "$d/t32" "$d/t.c"
  if ! "$d/t32" 2>/dev/null; then
    if need_pkg qemu-i386 qemu-user; then run32="qemu-i386 -L /"; else run32=none; fi
  fi
  start=$(date +%s)
  if ! build "$d/m32" gcc -m32; then nok m32 "pathcc gcc -m32: $(grep -m2 -iE 'error|warning' "$d/m32/log" | tr '\n' ' ' | cut -c1-300)"
  elif [ -s "$d/m32/log" ]; then nok m32 "pathcc gcc -m32 said: $(head -2 "$d/m32/log" | tr '\n' ' ' | cut -c1-300)"
  elif ! file -L "$d/m32/prog" | grep -q 'ELF 32-bit' || ! nm "$d/m32/prog" | grep -q __pathprof_register; then
    nok m32 "the program is not a 32-bit instrumented executable: $(file -L "$d/m32/prog" | cut -c1-120)"
  elif [ "$run32" = none ]; then skip m32 "built; i386 code does not run here and qemu-user is missing"
  elif ! report "$d/m32" $run32; then nok m32 "the 32-bit program or its report: $(head -2 "$d/m32/err.txt" "$d/m32/report.txt" | tr '\n' ' ')"
  elif ! cmp -s "$d/host/out.txt" "$d/m32/out.txt" || ! cmp -s "$d/host/report.txt" "$d/m32/report.txt"; then
    nok m32 "the 32-bit report differs from the host's: $(diff "$d/host/report.txt" "$d/m32/report.txt" | head -4 | tr '\n' ' ')"
  else ok m32 "instrumented, run${run32:+ under $run32}, the report the host's build gives ($(( $(date +%s) - start )) s with the runtime's build)"; fi
  # the second build takes the cached runtime: no runtime file is compiled again
  start=$(ls -d "$PATHCC_CACHE_DIR"/rt-*/libpathprof.a 2>/dev/null | head -1)
  (cd "$d/m32" && "$P" --verbose gcc -m32 -O2 -c -o again.o "$d/src/lib.c") >"$d/m32/again.log" 2>&1
  if [ -n "$start" ] && [ -s "$d/m32/again.o" ] && ! grep -q 'rt/core/' "$d/m32/again.log"; then ok m32-cached "the runtime is built once"
  else nok m32-cached "runtime $start; the second compile: $(grep -m1 'rt/core' "$d/m32/again.log" | cut -c1-200)"; fi

  # an installed pathcc builds it from the sources make install puts in share/pathprof/rt
  if make -s -C "$top" install DESTDIR="$d/inst" PREFIX=/usr >"$d/install.log" 2>&1 &&
     (cd "$d/m32" && PATHCC_CACHE_DIR="$d/cache3" "$d/inst/usr/bin/pathcc" gcc -m32 -O2 -c -o inst.o "$d/src/lib.c") >"$d/m32/inst.log" 2>&1 &&
     [ ! -s "$d/m32/inst.log" ] && nm "$d/m32/inst.o" | grep -q ' U __pathprof_register' && [ -f "$d"/cache3/rt-*/libpathprof.a ]; then
    ok m32-installed "an installed pathcc builds the runtime from share/pathprof/rt"
  else nok m32-installed "$(cat "$d/install.log" "$d/m32/inst.log" | head -3 | tr '\n' ' ' | cut -c1-300)"; fi

  # no cache to build in: compiled as written, one warning per unit, none at the link
  rm -rf "$d/nocache"; mkdir -p "$d/nocache"
  (cd "$d/nocache" && PATHCC_CACHE_DIR= "$P" gcc -m32 -O2 -o prog "$d/src/main.c" "$d/src/lib.c") >"$d/nocache/log" 2>&1
  if [ -f "$d/nocache/prog" ] && ! nm "$d/nocache/prog" | grep -q __pathprof && [ "$(wc -l <"$d/nocache/log")" = 2 ] &&
     grep -q 'main.c: compiled without instrumentation: no pathprof runtime for i386.*no cache directory' "$d/nocache/log"; then
    ok m32-nocache "linked as written, one warning per unit"
  else nok m32-nocache "$(head -3 "$d/nocache/log" | tr '\n' ' ' | cut -c1-300)"; fi

  # a runtime that does not compile: the reason named once per unit, the failure cached
  mkdir -p "$d/badcc"
  printf '#!/bin/sh\nfor a; do case "$a" in */rt/core/*) echo "badcc: cannot compile $a" >&2; exit 1;; esac; done\necho x >>"%s/badcc/calls"\nexec gcc -m32 "$@"\n' "$d" >"$d/badcc/badcc"
  chmod +x "$d/badcc/badcc"
  (cd "$d/badcc" && "$P" ./badcc -O2 -c -o a.o "$d/src/lib.c" && "$P" ./badcc -O2 -c -o b.o "$d/src/main.c") >"$d/badcc/log" 2>&1
  if [ -s "$d/badcc/b.o" ] && ! nm "$d/badcc/b.o" | grep -q __pathprof && [ "$(grep -c 'compiled without instrumentation' "$d/badcc/log")" = 2 ] &&
     grep -q 'lib.c: compiled without instrumentation: .*rt/core/.*does not compile with ./badcc: badcc: cannot compile' "$d/badcc/log" &&
     [ "$(ls "$PATHCC_CACHE_DIR"/rt-*/failed | wc -l)" = 1 ]; then ok m32-badruntime "the reason once per unit, tried once"
  else nok m32-badruntime "$(head -3 "$d/badcc/log" | tr '\n' ' ' | cut -c1-300)"; fi

  # PATHCC_RUNTIME names the runtime: it is linked, nothing is built
  if (cd "$d/m32" && PATHCC_CACHE_DIR="$d/cache2" PATHCC_RUNTIME=/nonexistent/libpathprof.a "$P" gcc -m32 -c -o inst.o "$d/src/lib.c") >"$d/m32/log2" 2>&1 &&
     nm "$d/m32/inst.o" | grep -q ' U __pathprof_register' && ! ls "$d/cache2"/rt-* >/dev/null 2>&1; then ok m32-runtime "PATHCC_RUNTIME set: instrumented"
  else nok m32-runtime "PATHCC_RUNTIME set, pathcc gcc -m32 -c: $(head -c 200 "$d/m32/log2")"; fi
fi

# a cross compiler for Linux on AArch64, run under qemu-aarch64: clang --target (Debian's
# gcc-aarch64-linux-gnu conflicts with gcc-multilib), the host's archiver
if ! need_pkg aarch64-linux-gnu-ld binutils-aarch64-linux-gnu || ! need_pkg qemu-aarch64 qemu-user ||
   { [ -f /usr/aarch64-linux-gnu/include/stdio.h ] && [ -d /usr/lib/gcc-cross/aarch64-linux-gnu ]; } ||
   ! { [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libc6-dev-arm64-cross libgcc-12-dev-arm64-cross >/dev/null 2>&1; }; then
  :
fi
if ! command -v qemu-aarch64 >/dev/null || ! clang --target=aarch64-linux-gnu -o "$d/a64probe" "$d/src/main.c" "$d/src/lib.c" >/dev/null 2>&1; then
  skip aarch64 "clang --target=aarch64-linux-gnu does not link here (binutils-aarch64-linux-gnu, libc6-dev-arm64-cross, libgcc-12-dev-arm64-cross, qemu-user)"
elif ! build "$d/a64" clang --target=aarch64-linux-gnu || [ -s "$d/a64/log" ]; then
  nok aarch64 "pathcc clang --target=aarch64-linux-gnu: $(head -2 "$d/a64/log" | tr '\n' ' ' | cut -c1-300)"
elif ! report "$d/a64" qemu-aarch64 -L /usr/aarch64-linux-gnu; then
  nok aarch64 "the AArch64 program or its report: $(head -2 "$d/a64/err.txt" "$d/a64/report.txt" | tr '\n' ' ')"
elif ! cmp -s "$d/host/report.txt" "$d/a64/report.txt"; then
  nok aarch64 "the AArch64 report differs from the host's: $(diff "$d/host/report.txt" "$d/a64/report.txt" | head -4 | tr '\n' ' ')"
else ok aarch64 "instrumented, run under qemu-aarch64, the report the host's build gives"; fi
finish
